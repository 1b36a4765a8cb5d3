package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/writers"
)

// fakeSender answers every creating request with answer(kind, n), n
// counting that kind's requests from 1.
type fakeSender struct {
	mu     sync.Mutex
	calls  map[string]int
	answer func(kind string, n int) apiclient.Outcome
}

func (f *fakeSender) do(kind string) apiclient.Outcome {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[kind]++
	n := f.calls[kind]
	f.mu.Unlock()
	return f.answer(kind, n)
}

func (f *fakeSender) Venta(context.Context, []byte) apiclient.Outcome    { return f.do("venta") }
func (f *fakeSender) Facturar(context.Context, []byte) apiclient.Outcome { return f.do("facturar") }
func (f *fakeSender) Stock(context.Context, []byte) apiclient.Outcome    { return f.do("stock") }

// openJournal opens a journal in a temp dir with a key hold too short to
// ever make a worker wait.
func openJournal(t *testing.T) *journal.Journal {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal"), journal.Options{KeyHold: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

// fastOptions are submit options whose every wait is tiny.
func fastOptions() SubmitOptions {
	return SubmitOptions{Tenant: "t1", Workers: 2, StockWindow: time.Millisecond, TimeScale: 0.0001}
}

const (
	oneSale  = ventaHeader + "501,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n"
	oneStock = "depositoId,motivoId,tipo,fecha,articulos.articuloId,articulos.cantidad\n1,1,6,2026-11-20,100,1\n"
)

// TestResendsRunOutAsRejected: a request the API keeps refusing before
// processing it (a rate window, a refused connection) is provably not
// processed when the resends run out. It must be rejected (a later run
// sends it again), never unknown (which asks an accountant to look for it
// in the ERP and blocks it until resolved).
func TestResendsRunOutAsRejected(t *testing.T) {
	tests := []struct {
		name, file, content, kind string
		answer                    apiclient.Outcome
	}{
		{"sale, connection refused", "ventas.csv", oneSale, "venta",
			apiclient.Outcome{Class: apiclient.Resend, Err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}},
		{"stock, rate window", "stock.csv", oneStock, "stock",
			apiclient.Outcome{Class: apiclient.Resend, Status: 403, Message: "Debe esperar 1 segundos entre cada solicitud", Wait: time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := load(t, tc.file, tc.content, LoadOptions{})
			j := openJournal(t)
			send := &fakeSender{answer: func(string, int) apiclient.Outcome { return tc.answer }}
			o := fastOptions()
			if n, err := Prepare([]*File{f}, j, o); err != nil || n != 1 {
				t.Fatalf("Prepare = %d, %v; want 1 to send", n, err)
			}
			res := Submit(context.Background(), []*File{f}, send, j, o)
			if res.Err != nil || res.Aborted || res.Interrupted {
				t.Fatalf("Submit = %+v", res)
			}
			if got := send.calls[tc.kind]; got != maxResends+1 {
				t.Errorf("%d requests, want %d (the first and every resend)", got, maxResends+1)
			}
			r := f.Sheets[0].Requests[0]
			if r.Status != writers.StatusRejected {
				t.Errorf("status %s (%s), want rejected", r.Status, r.Outcome.Key)
			}
			e, _, err := j.Get(journal.Key{Tenant: o.Tenant, Kind: tc.kind, Business: r.Key})
			if err != nil || e.State != journal.Rejected {
				t.Errorf("journal entry %+v, %v; want rejected", e, err)
			}
		})
	}
}

// failingWindows is a journal whose rate-window writes fail, as when the
// disk fills between two writes.
type failingWindows struct{ *journal.Journal }

func (failingWindows) SetNextAllowed(string, string, time.Time) error {
	return errors.New("write journal: no space left on device")
}

// TestJournalFailureBeforeAMovementStopsIt: once the stock window cannot be
// made durable the journal is failing, and the run must stop before the
// movement leaves: its outcome could not be journaled either.
func TestJournalFailureBeforeAMovementStopsIt(t *testing.T) {
	f := load(t, "stock.csv", oneStock, LoadOptions{})
	j := failingWindows{openJournal(t)}
	send := &fakeSender{answer: func(string, int) apiclient.Outcome {
		return apiclient.Outcome{Class: apiclient.OK, Status: 200}
	}}
	o := fastOptions()
	if _, err := Prepare([]*File{f}, j, o); err != nil {
		t.Fatal(err)
	}
	res := Submit(context.Background(), []*File{f}, send, j, o)
	if res.Err == nil {
		t.Error("Submit reported no journal failure")
	}
	if n := send.calls["stock"]; n != 0 {
		t.Errorf("%d movements sent after the journal failed", n)
	}
	r := f.Sheets[0].Requests[0]
	if r.Status != writers.StatusPending {
		t.Errorf("status %s, want pending (not sent)", r.Status)
	}
	if _, found, _ := j.Get(journal.Key{Tenant: o.Tenant, Kind: "stock", Business: r.Key}); found {
		t.Error("an intent was journaled for a movement that never left: the next run would call it unknown")
	}
}
