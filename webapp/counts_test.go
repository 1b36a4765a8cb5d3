package webapp

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
)

// TestCountInThePage: the column screen offers the counted quantity for
// a stock file; the import page of a count has the "faltantes en cero"
// switch with what it does, said again in the confirmation (a token of
// before the switch no longer sends); a send with it on sets to 0 what
// the count does not list.
func TestCountInThePage(t *testing.T) {
	b := newBed(t, bedOptions{})
	// A count whose counted column has a name of its own: the column
	// screen maps it.
	csv := "depositoId,motivoId,fecha,detalle,articulos.articuloId,Góndola\n1,1,2026-12-01,Conteo diciembre,105,25\n"
	a := b.upload("conteo.csv", []byte(csv))
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("upload: %d %s, want the column screen", a.status, a.location)
	}
	cols := a.location
	page := strings.TrimSuffix(cols, "/columns")
	if c := b.get(cols + "?kind=stock"); !strings.Contains(c.body, `<option value="articulos.cantidadContada"`) ||
		!strings.Contains(c.body, "Cantidad contada (conteo de inventario)") {
		t.Fatalf("the column screen does not offer the counted quantity for stock:\n%s", c.body)
	}
	form := url.Values{"kind": {"stock"}, "name": {"conteo-gondola"}, "c0": {"depositoId"}, "c1": {"motivoId"}, "c2": {"fecha"},
		"c3": {"detalle"}, "c4": {"articulos.articuloId"}, "c5": {"articulos.cantidadContada"}}
	if a := b.post(cols, form); a.status != http.StatusSeeOther || a.location != page {
		t.Fatalf("save the count's columns: %d %s\n%s", a.status, a.location, a.body)
	}
	imp := html.UnescapeString(b.get(page).body)
	for _, want := range []string{`id="zero-form"`, "Faltantes en cero", "Desactivado: solo se corrigen los artículos que figuran en el archivo"} {
		if !strings.Contains(imp, want) {
			t.Errorf("the count's import page lacks %q", want)
		}
	}
	if c := b.get(page + "/confirm").body; !strings.Contains(c, "Faltantes en cero está desactivado") {
		t.Errorf("the confirmation does not say the switch is off:\n%s", c)
	}
	before := confirmToken.FindStringSubmatch(b.get(page + "/confirm").body)[1]
	a = b.post(page+"/options", url.Values{"faltantes": {"1"}})
	imp = html.UnescapeString(b.get(a.location).body)
	if !strings.Contains(imp, "Faltantes en cero activado para este conteo.") || !strings.Contains(imp, "Activado: es un conteo completo") ||
		!strings.Contains(imp, `role="switch" checked`) {
		t.Errorf("after switching on, the import page:\n%s", imp)
	}
	if a := b.post(page+"/send", url.Values{confirmParam: {before}}); a.status != http.StatusConflict {
		t.Fatalf("a confirmation of before the switch: %d, want 409", a.status)
	}
	c := html.UnescapeString(b.get(page + "/confirm").body)
	if !strings.Contains(c, "Faltantes en cero está activado: cada artículo con stock en los depósitos contados que no figura en este conteo se pondrá en 0") {
		t.Errorf("the confirmation does not say what the switch does:\n%s", c)
	}
	stock := func() []nxapi.ArticuloConCurva {
		recs, err := b.sb.Server.ArticulosCurva(1)
		if err != nil {
			t.Fatal(err)
		}
		var out []nxapi.ArticuloConCurva
		for _, r := range recs {
			if !r.Eliminado {
				out = append(out, r)
			}
		}
		return out
	}
	held := 0
	for _, s := range stock() {
		if s.Unidades != 0 && s.ArticuloID != 105 {
			held++
		}
	}
	if held == 0 {
		t.Fatal("the demo data holds nothing else in warehouse 1: the test proves nothing")
	}
	b.send(page)
	b.waitSent(page)
	for _, s := range stock() {
		want := nxapi.Decimal(0)
		if s.ArticuloID == 105 && s.ColorID == 0 && s.TalleID == 0 {
			want = nxapi.Decimal(25 * 10000)
		}
		if s.Unidades != want {
			t.Errorf("after the count, variant %d/%d/%d holds %s, want %s", s.ArticuloID, s.ColorID, s.TalleID, s.Unidades, want)
		}
	}
	r := b.get(page + "/result")
	if !strings.Contains(r.body, "conteo.faltantes.csv") {
		t.Errorf("the result does not offer the missing ones' report:\n%s", r.body)
	}
	// The reports a page send writes speak of the page's switch, never of
	// the command line's flag.
	link := regexp.MustCompile(`href="([^"]*conteo\.faltantes\.csv)"`).FindStringSubmatch(r.body)
	if link == nil {
		t.Fatalf("no link to the missing ones' report:\n%s", r.body)
	}
	rep := b.get(html.UnescapeString(link[1]))
	if rep.status != http.StatusOK || !strings.Contains(rep.body, "«Faltantes en cero»") || strings.Contains(rep.body, "--") {
		t.Errorf("the missing ones' report of a page send (%d) does not name the page's switch or names a flag:\n%s", rep.status, rep.body)
	}
}
