package pgjournal_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
)

// BenchmarkBeginFinish measures the PostgreSQL journal's cost per request
// (one Begin and one Finish, each a committed transaction) on loopback,
// beside bbolt's BenchmarkBeginFinish in package journal: ns/op is per
// journaled request. "serial" is one worker; "parallel8" is 8 workers
// sharing the journal, as the pipeline's workers do. The nosync rows
// (synchronous_commit off) only show how much of the cost is the WAL flush.
func BenchmarkBeginFinish(b *testing.B) {
	for _, s := range []struct {
		name   string
		noSync bool
	}{{"durable", false}, {"nosync", true}} {
		for _, workers := range []int{1, 8} {
			name := s.name + "/serial"
			if workers > 1 {
				name = s.name + "/parallel" + strconv.Itoa(workers)
			}
			b.Run(name, func(b *testing.B) {
				_, url := newDB(b)
				j, err := pgjournal.Open(context.Background(), url, pgjournal.Options{Options: journal.Options{NoSync: s.noSync}})
				if err != nil {
					b.Fatal(err)
				}
				defer j.Close()
				if _, err := j.Acquire(context.Background(), "0f3a9c", 0); err != nil {
					b.Fatal(err)
				}
				benchRequests(b, j, workers)
			})
		}
	}
}

func benchRequests(b *testing.B, j journal.Store, workers int) {
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	b.ResetTimer()
	for range workers {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				k := journal.Key{Tenant: "0f3a9c", Kind: "venta", Business: "ORD-" + strconv.FormatInt(i, 10)}
				if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "9b2e61d0", Source: "ventas.csv row 2", Hold: 30 * time.Second}); err != nil {
					b.Error(err)
					return
				}
				if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: i, Numero: i, PVNumero: 3}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkBeginStockMovement measures one stock movement's journaling: an
// intent carrying 500 rows (units) and its outcome, as a count packed by
// --max-articulos 500 sends them.
func BenchmarkBeginStockMovement(b *testing.B) {
	_, url := newDB(b)
	j, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Acquire(context.Background(), "0f3a9c", 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		us := make([]journal.Unit, 500)
		for n := range us {
			us[n] = journal.Unit{ID: "row-" + strconv.Itoa(i) + "-" + strconv.Itoa(n), BodyHash: "5d41402abc4b2a76", Body: `{"articuloId":105,"cantidad":3}`, Source: "stock.csv fila 2"}
		}
		k := journal.Key{Tenant: "0f3a9c", Kind: "stock", Business: "mv-" + strconv.Itoa(i)}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "9b2e61d0", Units: us,
			Window: &journal.Mark{Tenant: "0f3a9c", Name: "stock/movimiento", Next: time.Now()}}); err != nil {
			b.Fatal(err)
		}
		if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: int64(i + 1)}); err != nil {
			b.Fatal(err)
		}
	}
}
