package webapp

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// terminalWords finds a flag or an nxbatch command: what only a terminal
// user can act on.
var terminalWords = regexp.MustCompile("(^|[\\s(«\"'`])--[a-z]|nxbatch (run|validate|serve|catalog|journal|reconcile|template|report|listen|profile|user)\\b")

// workbookText is every text of a workbook a reader sees: its cells and
// the notes and error messages of its lists.
func workbookText(t *testing.T, body string) []string {
	t.Helper()
	x, err := excelize.OpenReader(bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatalf("not a workbook: %v", err)
	}
	defer x.Close()
	var out []string
	for _, sh := range x.GetSheetList() {
		rows, err := x.GetRows(sh)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			out = append(out, r...)
		}
		dvs, _ := x.GetDataValidations(sh)
		for _, dv := range dvs {
			for _, p := range []*string{dv.Error, dv.Prompt, dv.ErrorTitle, dv.PromptTitle} {
				if p != nil {
					out = append(out, *p)
				}
			}
		}
	}
	return out
}

// TestDownloadsPointAtThePage: the templates and the errors workbook the
// page hands out name no command and no flag: they point at the page's
// own controls (Catálogos y plantillas, Subir archivo).
func TestDownloadsPointAtThePage(t *testing.T) {
	b := newBed(t, bedOptions{})
	csv := "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
		"90001,a@example.com,105,10,1,10,0,0,0,10,DEPOSITO_BANCO\n"
	page := b.upload("banco.csv", []byte(csv)).location
	downloads := map[string]string{"errors.xlsx": page + "/errors.xlsx"}
	for _, k := range []string{"venta", "facturar", "stock"} {
		downloads["template "+k] = "/templates/" + k
	}
	for name, path := range downloads {
		a := b.get(path)
		if a.status != 200 {
			t.Fatalf("%s: %d", name, a.status)
		}
		texts := workbookText(t, a.body)
		found := false
		for _, s := range texts {
			if terminalWords.MatchString(s) {
				t.Errorf("%s sends its reader to a terminal: %q", name, s)
			}
			found = found || strings.Contains(s, "Catálogos y plantillas") || strings.Contains(s, "Subir archivo")
		}
		if !found {
			t.Errorf("%s does not point at the page's controls", name)
		}
	}
}
