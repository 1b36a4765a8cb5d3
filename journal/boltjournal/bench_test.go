package boltjournal

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
)

// BenchmarkBeginFinish measures the journal's cost per request (one Begin
// and one Finish, each a durable commit): ns/op is per journaled request.
// "serial" is one worker; "parallel8" is 8 workers sharing the journal, as
// the pipeline's workers do. The nosync rows exist only to show how much of
// the cost is fsync.
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
				j, err := Open(filepath.Join(b.TempDir(), "journal"), journal.Options{NoSync: s.noSync})
				if err != nil {
					b.Fatal(err)
				}
				defer j.Close()
				benchRequests(b, j, workers)
			})
		}
	}
}

func benchRequests(b *testing.B, j *Journal, workers int) {
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
				if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "9b2e61d0", Source: "ventas.csv row 2", Hold: testHold}); err != nil {
					b.Error(err)
					return
				}
				if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: i, Numero: i, PVNumero: 3, Message: ""}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkCommitStrategy compares db.Update with db.Batch (which coalesces
// concurrent commits into one fsync but waits up to MaxBatchDelay for
// company), durable, serial and with 8 workers.
func BenchmarkCommitStrategy(b *testing.B) {
	for _, strategy := range []string{"update", "batch"} {
		for _, workers := range []int{1, 8} {
			b.Run(strategy+"/workers"+strconv.Itoa(workers), func(b *testing.B) {
				j, err := Open(filepath.Join(b.TempDir(), "journal"), journal.Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer j.Close()
				if strategy == "batch" {
					j.commit = j.db.Batch
				}
				benchRequests(b, j, workers)
			})
		}
	}
}
