package webapp

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// byCode is a sale naming its articles by code, size and colour, and by
// barcode: the sandbox's demo catalog has them.
const byCode = "ordenId,usuario.email,productos.codigo,productos.talle,productos.color,productos.codigoBarras,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
	"75001,ana@example.com,A100,S,negro,,1000,1,2500,0,0,0,2500,EFECTIVO\n" +
	"75001,,,,,7791231210001,1500,1,,,,,,\n" +
	"75002,ana@example.com,NOEXISTE,,,,1000,1,1000,0,0,0,1000,EFECTIVO\n"

// TestArticlesInPreviewCatalogsAndTemplates: a file by code shows each
// code's article beside it in the preview (an unknown code has none); the
// catalog read for it is then listed on the catalogs page with its age, and
// searched by code, name (without accents) or barcode; the sale template
// downloaded from the page carries it on its «Artículos» sheet.
func TestArticlesInPreviewCatalogsAndTemplates(t *testing.T) {
	b := newBed(t, bedOptions{})
	if a := b.get("/catalogs"); !strings.Contains(a.body, msg.New("web.arts.none").In(msg.ES)) {
		t.Errorf("catalogs page before any article catalog:\n%s", a.body)
	}
	a := b.upload("porcodigo.csv", []byte(byCode))
	if a.status != http.StatusSeeOther {
		t.Fatalf("upload: %d %s", a.status, a.body)
	}
	page := b.get(a.location)
	names := regexp.MustCompile(`<td>([^<]*)<span class="article" data-article>([^<]*)</span></td>`).FindAllStringSubmatch(page.body, -1)
	got := map[string]string{}
	for _, m := range names {
		got[m[1]] = m[2]
	}
	want := map[string]string{"A100": "Remera básica", "7791231210001": "Yerba mate 1 kg"}
	if len(got) != len(want) || got["A100"] != want["A100"] || got["7791231210001"] != want["7791231210001"] {
		t.Errorf("article names beside the codes = %v, want %v", got, want)
	}
	if strings.Contains(page.body, `NOEXISTE<span class="article"`) {
		t.Error("an unknown code shows an article")
	}

	cat := b.get("/catalogs")
	if !regexp.MustCompile(`(?s)id="articulos".*Catálogo de artículos</h2>\s*<p class="muted">Descargado hace`).MatchString(cat.body) {
		t.Errorf("the catalogs page does not list the article catalog with its age:\n%s", cat.body)
	}
	for _, c := range []struct {
		q        string
		want     []string // codes listed
		notWant  string
		wantText string
	}{
		{q: "", want: []string{"A100", "00121"}, wantText: "variantes en el catálogo"},
		{q: "BASICA", want: []string{"A100"}, notWant: "<td>00121</td>", wantText: "coinciden con la búsqueda"},
		{q: "7791231210001", want: []string{"00121"}, notWant: "<td>A100</td>"},
		{q: "a10", want: []string{"A100"}, notWant: "<td>00121</td>"},
		{q: "nada-de-esto", notWant: `id="arts-table"`, wantText: "0 de "},
	} {
		a := b.get("/catalogs?q=" + c.q)
		for _, code := range c.want {
			if !strings.Contains(a.body, "<td>"+code+"</td>") {
				t.Errorf("search %q does not list %s", c.q, code)
			}
		}
		if c.notWant != "" && strings.Contains(a.body, c.notWant) {
			t.Errorf("search %q lists %s", c.q, c.notWant)
		}
		if !strings.Contains(a.body, c.wantText) {
			t.Errorf("search %q does not say %q", c.q, c.wantText)
		}
	}
	if strings.Contains(b.get("/catalogs").body, msg.New("web.arts.none").In(msg.ES)) {
		t.Error("the catalogs page says there is no article catalog after one was read")
	}

	x := b.get("/templates/venta")
	f, err := excelize.OpenReader(bytes.NewReader([]byte(x.body)))
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	defer f.Close()
	rows, err := f.GetRows("Artículos")
	if err != nil || len(rows) < 3 {
		t.Fatalf("the page's sale template has no «Artículos» sheet: %d rows, %v", len(rows), err)
	}
	found := false
	for _, r := range rows {
		if len(r) >= 5 && r[0] == "00121" && r[4] == "7791231210001" {
			found = true
		}
	}
	if !found {
		t.Errorf("«Artículos» lacks 00121 with its barcode: %v", rows)
	}
}

// TestArticleListPages: a shop's 100,000 variants are never one table: 50
// a page, with links that keep the search, the last page's rest, and a
// page past the end shows the last.
func TestArticleListPages(t *testing.T) {
	var recs []nxapi.ArticuloConCurva
	for i := range 100000 {
		recs = append(recs, nxapi.ArticuloConCurva{ArticuloID: int64(i + 1), Codigo: fmt.Sprintf("C%06d", i), Nombre: fmt.Sprintf("Artículo %d", i),
			CodigoBarras: fmt.Sprintf("779%010d", i), Eliminado: i == 5})
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if got := fold("  Pantalón ÑANDÚ Ångström "); got != "pantalon nandu angstrom" {
		t.Errorf("fold = %q", got)
	}
	tests := []struct {
		q          string
		page       int
		rows       int
		first      string
		prev, next string
		pageText   string
	}{
		{page: 1, rows: 50, first: "C000000", next: "/catalogs?ap=2#articulos", pageText: "Página 1 de 2000"},
		{page: 2000, rows: 50, first: "C099950", prev: "/catalogs?ap=1999#articulos", pageText: "Página 2000 de 2000"},
		{page: 9999, rows: 50, first: "C099950", prev: "/catalogs?ap=1999#articulos", pageText: "Página 2000 de 2000"},
		{q: "articulo 1234", page: 1, rows: 11, first: "C001234", pageText: "Página 1 de 1"},
		{q: "C0001", page: 2, rows: 50, first: "C000150", prev: "/catalogs?ap=1&q=C0001#articulos", pageText: "Página 2 de 2"},
	}
	for _, tc := range tests {
		d := listArticles(recs, now.Add(-time.Hour), tc.q, tc.page, now, msg.ES)
		if len(d.Rows) != tc.rows || d.Rows[0][0] != tc.first {
			t.Errorf("%q page %d: %d rows from %v, want %d from %s", tc.q, tc.page, len(d.Rows), d.Rows[0], tc.rows, tc.first)
		}
		if d.Prev != tc.prev || d.Next != tc.next {
			t.Errorf("%q page %d: links %q %q, want %q %q", tc.q, tc.page, d.Prev, d.Next, tc.prev, tc.next)
		}
		if tc.pageText != "" && d.PageText != tc.pageText {
			t.Errorf("%q page %d: %q, want %q", tc.q, tc.page, d.PageText, tc.pageText)
		}
	}
	d := listArticles(recs, now.Add(-time.Hour), "", 1, now, msg.ES)
	if d.Rows[5][5] != "dado de baja" || d.Rows[4][5] != "activo" {
		t.Errorf("states %q %q", d.Rows[4], d.Rows[5])
	}
	if !strings.Contains(d.Count, "100.000") || d.Age == "" {
		t.Errorf("count %q, age %q", d.Count, d.Age)
	}
	if one := listArticles(recs, now, "C099999", 1, now, msg.ES); one.Count != "1 de 100.000 variantes coincide con la búsqueda" {
		t.Errorf("one found: %q", one.Count)
	}
	if none := listArticles(nil, time.Time{}, "", 1, now, msg.ES); none.Known || none.Note == "" {
		t.Errorf("without a catalog: %+v", none)
	}
}

// BenchmarkListArticles searches a 100,000-variant catalog by name, as
// the catalogs page does on every search.
func BenchmarkListArticles(b *testing.B) {
	var recs []nxapi.ArticuloConCurva
	for i := range 100000 {
		recs = append(recs, nxapi.ArticuloConCurva{ArticuloID: int64(i + 1), Codigo: fmt.Sprintf("C%06d", i), Nombre: fmt.Sprintf("Pantalón %d", i),
			CodigoBarras: fmt.Sprintf("779%010d", i)})
	}
	now := time.Now()
	for b.Loop() {
		if d := listArticles(recs, now, "pantalon 99", 1, now, msg.ES); len(d.Rows) == 0 {
			b.Fatal("nothing found")
		}
	}
}
