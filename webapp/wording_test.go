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

// TestPagesNameNoCommand: the pages as an accountant sees them (upload,
// plan and rows with every kind of error, the column screen, history,
// catalogs) name no command and no flag, in both languages.
func TestPagesNameNoCommand(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("errores.csv")
	cols := b.upload("propio.csv", []byte(foreign)).location
	tags := regexp.MustCompile(`(?s)<script.*?</script>|<[^>]*>`)
	for _, l := range []string{"es", "en"} {
		b.post("/lang", map[string][]string{"lang": {l}, "back": {"/"}})
		for _, p := range []string{"/", page, page + "?only=errores", page + "/confirm", cols, "/history", "/catalogs"} {
			a := b.get(p)
			if a.status != 200 || !strings.Contains(a.body, `lang="`+l+`"`) {
				t.Fatalf("%s (%s): %d", p, l, a.status)
			}
			text := tags.ReplaceAllString(a.body, " ")
			if m := terminalWords.FindString(text); m != "" {
				i := strings.Index(text, m)
				t.Errorf("%s (%s) names %q: …%s…", p, l, m, text[max(0, i-120):min(len(text), i+120)])
			}
		}
	}
}
