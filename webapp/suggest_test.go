package webapp

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// selectedFields are the fields the column screen selected, per column.
func selectedFields(t *testing.T, body string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sel := regexp.MustCompile(`(?s)<select id="(col-\d+)"[^>]*>(.*?)</select>`)
	opt := regexp.MustCompile(`<option value="([^"]*)" selected>`)
	for _, m := range sel.FindAllStringSubmatch(body, -1) {
		if o := opt.FindStringSubmatch(m[2]); o != nil {
			out[m[1]] = o[1]
		}
	}
	return out
}

// TestColumnsSuggestArticleColumns: the column screen matches the shop's
// own headers (Código, SKU, EAN, Código de barras, Talle, Color) to the
// article code columns, and, with the article catalog at hand, proposes a
// column whose values are mostly the catalog's codes or barcodes as such,
// saying how many it knows.
func TestColumnsSuggestArticleColumns(t *testing.T) {
	b := newBed(t, bedOptions{})
	// A file by code fetches the article catalog (its preview checks the
	// codes): the page then holds a copy.
	if a := b.upload("porcodigo.csv", []byte(byCode)); a.status != http.StatusSeeOther || b.get(a.location).status != http.StatusOK {
		t.Fatalf("upload by code: %d", a.status)
	}
	tests := []struct {
		name, csv, kind string
		want            map[string]string
		says            []string
	}{
		{"headers, a sale", "Código,Código de barras,Talle,Color,Cant\nA100,7791231000015,S,Negro,1\n", "venta",
			map[string]string{"col-0": "productos.codigo", "col-1": "productos.codigoBarras", "col-2": "productos.talle", "col-3": "productos.color"}, nil},
		{"SKU and EAN, stock", "SKU,EAN,Talle,Color\nA100,7791231000015,S,Negro\n", "stock",
			map[string]string{"col-0": "articulos.codigo", "col-1": "articulos.codigoBarras", "col-2": "articulos.talle", "col-3": "articulos.color"}, nil},
		{"values, a sale", "Nro Pedido,Item,Lectura,Cant\n1,A100,7791231000015,1\n2,a101,7791231010014,2\n3,ZZZ,7791231000022,1\n", "venta",
			map[string]string{"col-1": "productos.codigo", "col-2": "productos.codigoBarras"},
			[]string{"Propuesta por sus valores: 2 de 3 son códigos de artículos del catálogo.", "Propuesta por sus valores: 3 de 3 son códigos de barras del catálogo de artículos."}},
		{"values, stock", "Deposito,Item,Lectura\n1,A100,7791231000015\n1,A101,7791231010014\n", "stock",
			map[string]string{"col-1": "articulos.codigo", "col-2": "articulos.codigoBarras"}, nil},
		{"values the catalog does not know", "Nro Pedido,Item\n1,ZZZ\n2,YYY\n3,A100\n", "venta", map[string]string{"col-1": ""}, nil},
	}
	for _, tc := range tests {
		a := b.upload(strings.ReplaceAll(tc.name, " ", "")+".csv", []byte(tc.csv))
		if a.status != http.StatusSeeOther {
			t.Fatalf("%s: upload %d", tc.name, a.status)
		}
		page := strings.TrimSuffix(a.location, "/columns")
		c := b.get(page + "/columns?kind=" + tc.kind)
		got := selectedFields(t, c.body)
		for col, want := range tc.want {
			if got[col] != want {
				t.Errorf("%s: %s proposed %q, want %q", tc.name, col, got[col], want)
			}
		}
		body := html.UnescapeString(c.body)
		for _, s := range tc.says {
			if !strings.Contains(body, s) {
				t.Errorf("%s: the screen does not say %q", tc.name, s)
			}
		}
	}
}
