package reconcile

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// TestFacturar: a presale converted behind a lost answer is ok with the
// invoice's ids; one still PENDIENTE after the key hold is failed; a 404
// decides nothing; one inside the key hold is left for later. The reads
// are paced by the comprobante window, never refused, and take the floor.
func TestFacturar(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.invoice(1001, true)  // converted, answer lost
		w.invoice(1002, false) // a 500 before processing
		w.invoice(2001, false) // not this integration's: 404
		time.Sleep(time.Minute)
		w.invoice(1003, false) // sent just now
		time.Sleep(10 * time.Second)

		start := time.Now()
		p, res := w.reconcile(t.Context(), Options{Kinds: []string{KindFacturar}}, true)
		if len(p.Facturar) != 3 || len(p.Recent) != 1 || p.Recent[0].Key.Business != "1003" {
			t.Fatalf("plan: %d presales, recent %v; want 1001, 1002 and 2001 read, 1003 left", len(p.Facturar), p.Recent)
		}
		if got := p.LeastTime(); got != 20*time.Second {
			t.Errorf("plan floor %v, want 2 × 10 s", got)
		}

		ok := w.entry(KindFacturar, 1001)
		if ok.State != journal.OK || ok.FacturaID != 1001 || ok.Numero != 1 || ok.PVNumero != 1 {
			t.Errorf("1001: %s %d/%d/%d, want ok with the invoice's ids 1001/1/1", ok.State, ok.FacturaID, ok.Numero, ok.PVNumero)
		}
		ev := evidence(t, ok)
		if ev.Rule != RuleConverted || ev.Comprobante == nil || ev.Comprobante.ComprobanteTipo != nxapi.ComprobanteVenta || ev.Comprobante.Estado == "" || ev.Comprobante.Read.Before(start) || ok.Note == "" {
			t.Errorf("1001 evidence %+v note %q", ev, ok.Note)
		}
		failed := w.entry(KindFacturar, 1002)
		ev = evidence(t, failed)
		if failed.State != journal.Failed || ev.Rule != RulePending || ev.Comprobante.ComprobanteTipo != nxapi.ComprobantePreventa ||
			ev.Comprobante.Read.Sub(ev.LastAttempt) < sendrules.KeyHold {
			t.Errorf("1002: %s, evidence %+v; want failed, read as a presale (comprobanteTipo 33) after the key hold", failed.State, ev)
		}
		for _, id := range []int{2001, 1003} {
			if e := w.entry(KindFacturar, id); e.State != journal.Unknown || e.Evidence != "" {
				t.Errorf("%d: %s, want it left unknown", id, e.State)
			}
		}
		if len(res.Undecided) != 2 || res.Undecided[0].RetryAt.IsZero() || !res.Undecided[1].RetryAt.IsZero() {
			t.Errorf("undecided %+v: want 1003 with a time to retry, 2001 for a person (404)", res.Undecided)
		}
		if n := refusedByWindow(w.sb, getComprobante); n != 0 {
			t.Errorf("the sandbox refused %d reads for the window", n)
		}
		if res.Reads.Comprobantes != 3 || res.Reads.Floor != 20*time.Second ||
			res.Reads.Took() < 20*time.Second || res.Reads.Took() > 21*time.Second {
			t.Errorf("reads %+v took %v, want 3 in the 20 s floor", res.Reads, res.Reads.Took())
		}
	})
}

// TestWindowTakenElsewhere: another client took the comprobante window
// just before, unknown to the journal; the API's 403 "Debe esperar" is
// waited out, the read asked again, and the presale still decided.
func TestWindowTakenElsewhere(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.invoice(1004, false)
		time.Sleep(sendrules.KeyHold + time.Second)
		if _, err := w.api.Comprobante(t.Context(), 1005); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, res := w.reconcile(t.Context(), Options{}, false)
		if len(res.Decisions) != 1 || res.Decisions[0].Verdict.As != journal.Failed || res.Reads.Refused != 1 || res.Reads.Comprobantes != 2 {
			t.Errorf("decisions %+v, reads %+v; want failed after one refusal waited out", res.Decisions, res.Reads)
		}
		if got := res.Decisions[0].Evidence.Comprobante.Read.Sub(start); got < 10*time.Second {
			t.Errorf("read %v after the other client's, inside its 10 s window", got)
		}
	})
}
