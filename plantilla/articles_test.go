package plantilla

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
)

// shopCatalog is a catalog of n articles with `per` variants each (sizes
// S, M, L... and one colour), codes with leading zeros and barcodes, and
// one deactivated article at the end.
func shopCatalog(n, per int) []nxapi.ArticuloConCurva {
	sizes := []string{"S", "M", "L", "XL", "XXL"}
	var out []nxapi.ArticuloConCurva
	for a := range n {
		for v := range per {
			out = append(out, nxapi.ArticuloConCurva{ArticuloID: int64(1000 + a), Codigo: fmt.Sprintf(" %07d ", a), Nombre: fmt.Sprintf("Remera %d", a),
				TalleID: int64(v + 1), TalleNombre: sizes[v%len(sizes)], ColorID: 7, ColorNombre: "Rojo",
				CodigoBarras: fmt.Sprintf("779%06d%02d", a, v)})
		}
	}
	out = append(out, nxapi.ArticuloConCurva{ArticuloID: 9, Codigo: "GONE", Nombre: "Baja", Eliminado: true, CodigoBarras: "7790000000999"})
	return out
}

func TestArticlesSheetAndCodeLists(t *testing.T) {
	fetched := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	const articles, per = 10000, 5 // 50,000 variants
	recs := shopCatalog(articles, per)
	for _, tc := range []struct {
		kind   schema.Kind
		prefix string
	}{{schema.Venta, "productos"}, {schema.Stock, "articulos"}} {
		t.Run(string(tc.kind), func(t *testing.T) {
			f, err := Build(tc.kind, &catalog.Snapshot{}, Options{Rows: 50, Articulos: recs, ArticulosFetched: fetched})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rows, err := f.GetRows(ArticlesSheet)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(rows), articles*per+1; got != want {
				t.Fatalf("«%s» has %d rows, want %d (header + one per active variant)", ArticlesSheet, got, want)
			}
			if got := strings.Join(rows[0], "|"); got != "Código|Nombre|Talle|Color|Código de barras" {
				t.Errorf("header %q", got)
			}
			if got := strings.Join(rows[2], "|"); got != "0000000|Remera 0|M|Rojo|77900000001" {
				t.Errorf("row 3 %q: codes trimmed, leading zeros kept, size and colour by name", got)
			}
			for _, r := range rows {
				if r[0] == "GONE" {
					t.Errorf("a deactivated article is listed: %q", r)
				}
			}
			dvs := validations(t, f, tc.kind)
			for _, c := range []struct {
				col  string
				want int
			}{{tc.prefix + ".codigo", articles}, {tc.prefix + ".codigoBarras", articles * per}} {
				dv, ok := dvs[c.col]
				if !ok {
					t.Fatalf("%s has no validation", c.col)
				}
				if dv.Type != "list" || !strings.HasPrefix(dv.Formula1, "'"+ListsSheet+"'!$") {
					t.Fatalf("%s validation %s %q: want a list from a range of «%s», never an inline list", c.col, dv.Type, dv.Formula1, ListsSheet)
				}
				vals := listValues(t, f, dv.Formula1)
				if len(vals) != c.want {
					t.Errorf("%s list has %d values, want %d", c.col, len(vals), c.want)
				}
				if vals[0] == "" || strings.HasPrefix(vals[0], " ") {
					t.Errorf("%s first value %q", c.col, vals[0])
				}
				if dv.ErrorStyle == nil || *dv.ErrorStyle != "warning" {
					t.Errorf("%s error style %v, want a warning (the catalog may be newer than the template)", c.col, dv.ErrorStyle)
				}
				if dv.Prompt == nil || len(*dv.Prompt) > maxPrompt*3 || !strings.Contains(*dv.Prompt, ArticlesSheet) {
					t.Errorf("%s prompt %v: want a short note naming the sheet", c.col, dv.Prompt)
				}
			}
			ins := instructions(t, f)
			if !strings.Contains(ins, "consultado el 30/11/2026") || strings.Contains(ins, "0009999 — Remera 9999") {
				t.Errorf("Instrucciones should date the article catalog and not repeat its 10,000 codes:\n%.2000s", ins)
			}
		})
	}
}

func TestNoArticleCatalog(t *testing.T) {
	for _, k := range []schema.Kind{schema.Venta, schema.Stock, schema.Facturar} {
		f, err := Build(k, &catalog.Snapshot{}, Options{Rows: 10})
		if err != nil {
			t.Fatal(err)
		}
		if idx, _ := f.GetSheetIndex(ArticlesSheet); idx >= 0 {
			t.Errorf("%s: «%s» sheet without a catalog", k, ArticlesSheet)
		}
		for col := range validations(t, f, k) {
			if strings.HasSuffix(col, ".codigo") || strings.HasSuffix(col, ".codigoBarras") {
				t.Errorf("%s: %s validated without a catalog", k, col)
			}
		}
		if hasArticles(k) && !strings.Contains(instructions(t, f), "catalog pull --articulos") {
			t.Errorf("%s: Instrucciones should say how to get the article catalog", k)
		}
		f.Close()
	}
}

// BenchmarkArticlesTemplate builds a sale template with 50,000 variants.
func BenchmarkArticlesTemplate(b *testing.B) {
	recs := shopCatalog(10000, 5)
	fetched := time.Now()
	for b.Loop() {
		f, err := Build(schema.Venta, &catalog.Snapshot{}, Options{Articulos: recs, ArticulosFetched: fetched})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteTo(discard{}); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
