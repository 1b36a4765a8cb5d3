package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/nxapi"
)

// BenchmarkCountFile50000 is the whole local work of a 50,000-variant count
// of one warehouse before its first movement leaves: load the CSV,
// validate every row, settle it against the real (empty) journal, compare
// it with the stock read's answer and pack the movements, and journal the
// equal rows (Submit's first step). Goal ≤ 2 s (bench/RESULTS.md).
func BenchmarkCountFile50000(b *testing.B) {
	const n = 50_000
	var sb strings.Builder
	sb.WriteString("depositoId,motivoId,fecha,articulos.articuloId,articulos.talleId,articulos.colorId,Cantidad contada\n")
	erp := &erpStock{units: make(map[inventario.Variant]nxapi.Decimal, n)}
	for i := range n {
		v := inventario.Variant{DepositoID: 1, ArticuloID: int64(1000 + i/20), TalleID: int64(1 + i%20/4), ColorID: int64(1 + i%4)}
		erp.units[v] = nxapi.DecimalFromInt(10)
		fmt.Fprintf(&sb, "1,3,2026-11-30,%d,%d,%d,%d\n", v.ArticuloID, v.TalleID, v.ColorID, 9+i%3)
	}
	path := filepath.Join(b.TempDir(), "conteo.csv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		j := openJournal(b)
		b.StartTimer()
		f, err := Load(path, LoadOptions{MaxArticulos: 500})
		if err != nil {
			b.Fatal(err)
		}
		f.Validate(nil, true)
		files := []*File{f}
		o := fastOptions()
		if err := PrepareCounts(context.Background(), files, j, o, CountOptions{Stock: erp}); err != nil {
			b.Fatal(err)
		}
		sends, err := Prepare(context.Background(), files, j, o)
		if err != nil {
			b.Fatal(err)
		}
		if err := recordEqual(context.Background(), files, j); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if sends != 68 {
			b.Fatalf("%d movement requests, want 68", sends)
		}
		j.Close()
		b.StartTimer()
	}
}
