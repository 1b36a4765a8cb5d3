package articulos

import (
	"fmt"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
)

// shopCatalog is a shop-scale catalog of n variants: articles of 4 sizes
// and 5 colours (20 variants each), every variant with its barcode.
func shopCatalog(n int) []nxapi.ArticuloConCurva {
	sizes := []string{"S", "M", "L", "XL"}
	colours := []string{"Rojo", "Azul", "Verde", "Negro", "Marrón"}
	out := make([]nxapi.ArticuloConCurva, 0, n)
	for i := 0; len(out) < n; i++ {
		code := fmt.Sprintf("ART-%06d", i)
		name := fmt.Sprintf("Artículo %d", i)
		for s, sz := range sizes {
			for c, col := range colours {
				if len(out) == n {
					break
				}
				out = append(out, rec(int64(i+1), code, name, int64(s+1), sz, sz, int64(c+1), col, col[:2],
					fmt.Sprintf("779%010d", len(out))))
			}
		}
	}
	return out
}

// BenchmarkBuild indexes a 100,000-variant catalog (the shop
// scale); it must stay well under 100 ms.
func BenchmarkBuild(b *testing.B) {
	recs := shopCatalog(100_000)
	b.ReportAllocs()
	for b.Loop() {
		Build(recs)
	}
}

// BenchmarkResolve resolves rows by code, size and colour names against
// the 100,000-variant catalog.
func BenchmarkResolve(b *testing.B) {
	ix := Build(shopCatalog(100_000))
	qs := make([]Query, 1024)
	for i := range qs {
		qs[i] = Query{Codigo: fmt.Sprintf("ART-%06d", i*3), Talle: "m", Color: "marron"}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ix.Resolve(qs[i%len(qs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkResolveBarcode resolves rows by barcode.
func BenchmarkResolveBarcode(b *testing.B) {
	ix := Build(shopCatalog(100_000))
	qs := make([]Query, 1024)
	for i := range qs {
		qs[i] = Query{CodigoBarras: fmt.Sprintf("779%010d", i*37)}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ix.Resolve(qs[i%len(qs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkSuggest is the cost of one unknown code's first suggestions
// (later ones are memoised).
func BenchmarkSuggest(b *testing.B) {
	ix := Build(shopCatalog(100_000))
	ix.folded()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Suggest(fmt.Sprintf("ART-%05dX", i))
		i++
	}
}

// BenchmarkResolveIDs checks rows by ids (articuloId, talleId, colorId)
// against the catalog: the fast path.
func BenchmarkResolveIDs(b *testing.B) {
	ix := Build(shopCatalog(100_000))
	qs := make([]Query, 1024)
	for i := range qs {
		qs[i] = Query{ArticuloID: int64(i*3 + 1), TalleID: int64(i%4 + 1), ColorID: int64(i%5 + 1)}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := ix.Resolve(qs[i%len(qs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
