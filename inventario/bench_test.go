package inventario

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// BenchmarkCount50000 is the count at the API's floor: 50,000
// variants counted in one warehouse, a third above, a third below and a
// third equal to the ERP's stock, against the real bbolt journal (empty:
// a first run). One op is the whole local work of a run: the journal's
// lookup of every row, the comparison with the read's answer, packing
// into movements and building every request body with its units, and
// journaling the equal rows. The goal is ≤ 2 s an op (bench/RESULTS.md).
func BenchmarkCount50000(b *testing.B) {
	const n = 50_000
	units := make(map[Variant]nxapi.Decimal, n)
	counts := make([]Count, n)
	for i := range n {
		v := Variant{DepositoID: 1, ArticuloID: int64(1000 + i/20), TalleID: int64(1 + i%20/4), ColorID: int64(1 + i%4)}
		units[v] = nxapi.DecimalFromInt(10)
		counted := nxapi.DecimalFromInt(int64(9 + i%3)) // 9, 10, 11
		counts[i] = Count{ID: fmt.Sprintf("s%015x", i), Row: i + 2, Source: fmt.Sprintf("conteo.csv fila %d", i+2),
			Variant: v, MotivoID: 3, Fecha: "2026-11-30", Counted: counted}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		j := openJournal(b)
		st := &erpStock{units: units, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
		b.StartTimer()
		p, err := Prepare(context.Background(), j, st, counts, Options{Tenant: "t"})
		if err != nil {
			b.Fatal(err)
		}
		reqs := p.Requests(500)
		if err := p.RecordEqual(context.Background(), j); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if len(reqs) != 68 || len(p.Reads) != 1 {
			b.Fatalf("%d requests, %d reads; want 68 (2 × ⌈16,667/500⌉) and 1", len(reqs), len(p.Reads))
		}
		j.Close()
		b.StartTimer()
	}
}
