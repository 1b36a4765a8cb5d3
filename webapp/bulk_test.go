package webapp

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sameMistake is a sales file whose payment type is misspelt the same way
// on 5 of its 6 rows.
func sameMistake() []byte {
	csv := "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"
	for i := range 6 {
		tipo := "EFECTIVOO"
		if i == 5 {
			tipo = "VIRTUALL"
		}
		csv += fmt.Sprintf("%d,a@example.com,105,10,1,10,0,0,0,10,%s\n", 91000+i, tipo)
	}
	return []byte(csv)
}

// TestFixEveryRowWithTheSameValue: a bad cell offers to change every row
// with the same value in its column, says how many before, applies the
// one replacement to all of them in one fix (revalidated, logged), and
// leaves a row with another value alone.
func TestFixEveryRowWithTheSameValue(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.upload("mismo.csv", sameMistake()).location
	a := b.get(page)
	if !strings.Contains(a.body, "6 filas → 6 ventas (6 con errores)") {
		t.Fatalf("plan before the fix:\n%s", a.body)
	}
	if !strings.Contains(a.body, "cambiar también las otras 4 filas con «EFECTIVOO» en esta columna") {
		t.Fatalf("the fix does not offer the other rows with the same value:\n%s", a.body)
	}
	if n := strings.Count(a.body, `name="all"`); n != 5 {
		t.Errorf("%d cells offer the bulk fix, want the 5 with EFECTIVOO", n)
	}
	a = b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}, "all": {"1"}})
	status := regexp.MustCompile(`(?s)id="fix-status"[^>]*>(.*?)</p>`).FindStringSubmatch(a.body)
	if status == nil || !strings.Contains(status[1], "Se cambió «EFECTIVOO» por «EFECTIVO» en 5 filas de la columna medioPago.tipo.") {
		t.Errorf("the bulk fix does not say what it changed: %q", status)
	}
	if !strings.Contains(a.body, "6 filas → 6 ventas (1 con errores)") {
		t.Errorf("after the bulk fix the plan is not revalidated:\n%s", a.body)
	}
	if !strings.Contains(a.body, "VIRTUALL") {
		t.Error("the row with another value was changed")
	}
	edits, err := os.ReadFile(filepath.Join(b.srv.uploads.dir, strings.TrimPrefix(page, "/u/"), "edits.jsonl"))
	if err != nil || !strings.Contains(string(edits), `"rows":5`) {
		t.Errorf("the bulk fix is not logged with its count: %s %v", edits, err)
	}
}

// TestFindAndReplaceInAColumn: the find-and-replace of a column first says
// how many rows change and changes nothing; confirmed, it changes them all
// in one fix, revalidated, said on the page and logged; a value that is
// not there changes nothing.
func TestFindAndReplaceInAColumn(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.upload("mismo.csv", sameMistake()).location
	form := url.Values{"sheet": {"0"}, "version": {"0"}, "col": {"10"}, "find": {"EFECTIVOO"}, "value": {"EFECTIVO"}}
	a := b.post(page+"/replace", form)
	if a.status != http.StatusOK || !strings.Contains(a.body, "Se reemplazará «EFECTIVOO» por «EFECTIVO» en 5 filas de la columna medioPago.tipo") ||
		!strings.Contains(a.body, `id="replace-confirm"`) {
		t.Fatalf("preview: %d\n%s", a.status, a.body)
	}
	if a := b.get(page); !strings.Contains(a.body, "6 filas → 6 ventas (6 con errores)") {
		t.Error("the preview changed the file")
	}
	if a := b.post(page+"/replace", url.Values{"sheet": {"0"}, "version": {"0"}, "col": {"10"}, "find": {"TARJETA"}, "value": {"EFECTIVO"}, "confirm": {"1"}}); a.status != http.StatusUnprocessableEntity ||
		!strings.Contains(a.body, "«TARJETA» no aparece en la columna medioPago.tipo") {
		t.Errorf("a value not there: %d", a.status)
	}
	form.Set("confirm", "1")
	a = b.post(page+"/replace", form)
	if a.status != http.StatusSeeOther {
		t.Fatalf("confirm: %d\n%s", a.status, a.body)
	}
	a = b.get(a.location)
	if !strings.Contains(a.body, "6 filas → 6 ventas (1 con errores)") || !strings.Contains(a.body, "Se cambió «EFECTIVOO» por «EFECTIVO» en 5 filas de la columna medioPago.tipo.") {
		t.Errorf("after the replace:\n%s", a.body)
	}
	if a := b.post(page+"/replace", form); a.status != http.StatusConflict {
		t.Errorf("a replace on a stale version: %d", a.status)
	}
	edits, err := os.ReadFile(filepath.Join(b.srv.uploads.dir, strings.TrimPrefix(page, "/u/"), "edits.jsonl"))
	if err != nil || !strings.Contains(string(edits), `"rows":5`) {
		t.Errorf("the replace is not logged: %s %v", edits, err)
	}
}
