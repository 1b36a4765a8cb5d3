package webapp

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// TestErrorsFileLinkedByItsID: the errors files the page hands out (the
// send's errors.csv, the errores.xlsx workbook) carry the import's id in
// a result.importacion column; fixed, saved again (another separator, a
// workbook edited) and uploaded under another name, each is linked to its
// original by that id, and once sent the original says its rows were
// fixed and sent.
func TestErrorsFileLinkedByItsID(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(sample, []byte("12600,VIRTUAL"), []byte("12600,TRUEQUE"), 1)
	tests := []struct {
		name string
		// sendFirst sends the original before its errors file is taken.
		sendFirst bool
		// errorsFile fetches the errors file of original and returns it
		// fixed, as the accountant saves it, and its new name.
		errorsFile func(t *testing.T, b *bed, original string) ([]byte, string)
		want       []string
	}{
		{"the send's errors.csv, renamed", true, func(t *testing.T, b *bed, original string) ([]byte, string) {
			body := b.get(original + "/files/ventas.errors.csv").body
			if !strings.Contains(body, originColumn) || !strings.Contains(body, strings.TrimPrefix(original, "/u/")) {
				t.Fatalf("the errors file carries no id:\n%s", body)
			}
			return []byte(strings.Replace(body, "TRUEQUE", "VIRTUAL", 1)), "arreglado el martes.csv"
		}, []string{"Según el diario: 4 ventas creadas.", "Corregida en su archivo de errores y enviada"}},
		{"the send's errors.csv, saved with commas", true, func(t *testing.T, b *bed, original string) ([]byte, string) {
			body := b.get(original + "/files/ventas.errors.csv").body
			r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
			r.Comma, r.FieldsPerRecord = ';', -1
			recs, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			w := csv.NewWriter(&out)
			_ = w.WriteAll(recs)
			return bytes.Replace(out.Bytes(), []byte("TRUEQUE"), []byte("VIRTUAL"), 1), "copia.csv"
		}, []string{"Corregida en su archivo de errores y enviada"}},
		{"the page's errores.xlsx, edited in a workbook", false, func(t *testing.T, b *bed, original string) ([]byte, string) {
			a := b.get(original + "/errors.xlsx")
			f, err := excelize.OpenReader(strings.NewReader(a.body))
			if err != nil {
				t.Fatalf("errors.xlsx: %d %v", a.status, err)
			}
			found := false
			for _, sh := range f.GetSheetList() {
				rows, _ := f.GetRows(sh)
				for i, row := range rows {
					for j, c := range row {
						if c == "TRUEQUE" {
							ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
							_ = f.SetCellValue(sh, ref, "VIRTUAL")
							found = true
						}
					}
				}
			}
			if !found {
				t.Fatal("the errors workbook lacks the row to fix")
			}
			var out bytes.Buffer
			if err := f.Write(&out); err != nil {
				t.Fatal(err)
			}
			return out.Bytes(), "correcciones.xlsx"
		}, []string{"Corregida en su archivo de errores y enviada"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, bedOptions{})
			original := b.upload("ventas.csv", bad).location
			if tc.sendFirst {
				b.send(original)
				b.waitSent(original)
			}
			data, name := tc.errorsFile(t, b, original)
			a := b.upload(name, data)
			if a.status != http.StatusSeeOther || strings.HasSuffix(a.location, "/columns") {
				t.Fatalf("upload of the fixed errors file: %d %s\n%s", a.status, a.location, a.body)
			}
			fixed := a.location
			if body := b.get(fixed).body; !strings.Contains(body, `id="errors-of"`) || !strings.Contains(body, `href="`+original+`">ventas.csv</a>`) {
				t.Fatalf("the errors file's import does not name its original:\n%s", body)
			}
			b.send(fixed)
			b.waitSent(fixed)
			body := b.get(original).body
			for _, want := range append(tc.want, `id="fixed-in"`, `href="`+fixed+`">`) {
				if !strings.Contains(body, want) {
					t.Errorf("the original's import lacks %q", want)
				}
			}
			if tc.sendFirst {
				res := b.get(original + "/result").body
				for _, want := range []string{"Según el diario: 4 ventas creadas.", "Corregida en su archivo de errores y enviada"} {
					if !strings.Contains(res, want) {
						t.Errorf("the original's result lacks %q", want)
					}
				}
			}
		})
	}
}

// TestOriginNeedsAnUploadOfThisServer: an id that names no upload links
// nothing (the name is the fallback), and a file without the column
// carries none.
func TestOriginNeedsAnUploadOfThisServer(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body, want string }{
		{"a.csv", "ordenId;result.importacion\n1;0123456789abcdef0123456789abcdef\n", "0123456789abcdef0123456789abcdef"},
		{"b.csv", "ordenId,total\n1,2\n", ""},
		{"c.csv", "ordenId,result.importacion\n1,../../etc\n", ""},
		{"d.csv", "Exportado el martes\n\nordenId\tresult.importacion\n1\t0123456789abcdef0123456789abcdef\n", "0123456789abcdef0123456789abcdef"},
	} {
		p := filepath.Join(dir, tc.name)
		_ = os.WriteFile(p, []byte(tc.body), 0o600)
		if got := originOf(p); got != tc.want {
			t.Errorf("%s: origin %q, want %q", tc.name, got, tc.want)
		}
	}
	b := newBed(t, bedOptions{})
	a := b.upload("otra.csv", []byte("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo,result.importacion\n"+
		"90001,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO,0123456789abcdef0123456789abcdef\n"))
	if body := b.get(a.location).body; strings.Contains(body, `id="errors-of"`) {
		t.Errorf("an id of no upload linked the file")
	}
}
