package boltjournal

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/journal"
)

func units(ids ...string) []journal.Unit {
	var us []journal.Unit
	for _, id := range ids {
		us = append(us, journal.Unit{ID: id, BodyHash: "h-" + id, Body: `{"cantidad":3}`, Source: "stock.csv fila " + id})
	}
	return us
}

// TestUnitsBelongToTheirLastRequest: a unit carried by a request that is
// ok, unknown or in flight cannot ride in another request; one whose
// request was rejected can, and then belongs to the new one.
func TestUnitsBelongToTheirLastRequest(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	m1, m2, m3 := journal.Key{Tenant: "t", Kind: "stock", Business: "m1"}, journal.Key{Tenant: "t", Kind: "stock", Business: "m2"}, journal.Key{Tenant: "t", Kind: "stock", Business: "m3"}
	if _, err := j.Begin(context.Background(), m1, journal.Intent{BodyHash: "b1", Units: units("r1", "r2")}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []journal.State{journal.Sending, journal.Unknown, journal.OK} {
		if st != journal.Sending {
			if err := j.Finish(context.Background(), m1, journal.Outcome{State: st}); err != nil && st != journal.OK {
				t.Fatal(err)
			}
		}
		_, err := j.Begin(context.Background(), m2, journal.Intent{BodyHash: "b2", Units: units("r2", "r3")})
		var ns *journal.NotSendableError
		if !errors.As(err, &ns) || ns.Unit != "r2" || ns.State != st {
			t.Fatalf("m1 %s: Begin of a request carrying r2 = %v, want refused for unit r2", st, err)
		}
		if st == journal.Unknown {
			if err := j.Resolve(context.Background(), m1, journal.Verdict{As: journal.Failed, Note: "no está en el ERP"}); err != nil {
				t.Fatal(err)
			}
			if _, err := j.Begin(context.Background(), m1, journal.Intent{BodyHash: "b1", Units: units("r1", "r2")}); err != nil {
				t.Fatal(err)
			}
		}
	}
	// m1 is ok: r1 and r2 are done; a rejected m3 with r3 lets r3 go again.
	if _, err := j.Begin(context.Background(), m3, journal.Intent{BodyHash: "b3", Units: units("r3")}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(context.Background(), m3, journal.Outcome{State: journal.Rejected, Message: "El articulo 999 no existe"}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(context.Background(), m2, journal.Intent{BodyHash: "b2", Units: units("r3", "r4")}); err != nil {
		t.Fatalf("Begin with a unit of a rejected request: %v", err)
	}
	got, reqs, err := j.Units(context.Background(), "t", "stock", []string{"r1", "r3", "r4", "r9"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]journal.UnitRecord{
		"r1": {Unit: units("r1")[0], Request: m1},
		"r3": {Unit: units("r3")[0], Request: m2},
		"r4": {Unit: units("r4")[0], Request: m2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Units (-want +got):\n%s", diff)
	}
	if reqs[m1].State != journal.OK || reqs[m2].State != journal.Sending || len(reqs) != 2 {
		t.Errorf("Units' requests = %v, want m1 ok and m2 sending", reqs)
	}
	if diff := cmp.Diff([]string{"r3", "r4"}, mustGet(t, j, m2).Units); diff != "" {
		t.Errorf("m2's units (-want +got):\n%s", diff)
	}
}

// TestUnsentHoldsNothing: an attempt that provably never left is not
// counted and does not hold the key: the request goes again at once.
func TestUnsentHoldsNothing(t *testing.T) {
	clk := newClock()
	j, _ := mustOpen(t, journal.Options{Now: clk.Now})
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "7"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: testHold}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Unsent, Message: "connection refused"}); err != nil {
		t.Fatal(err)
	}
	e, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: testHold})
	if err != nil {
		t.Fatalf("Begin right after an unsent attempt = %v, want allowed", err)
	}
	if e.Attempts != 1 || !e.Held.IsZero() {
		t.Errorf("after an unsent attempt and a new intent: attempts %d, held %v; want 1 and none", e.Attempts, e.Held)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: testHold}); !errors.Is(err, journal.ErrTooSoon) {
		t.Errorf("Begin right after a rejected attempt = %v, want too soon", err)
	}
}

// TestMarksTravelWithIntentAndOutcome: a rate window moved by an intent or
// an outcome is persisted in the same commit.
func TestMarksTravelWithIntentAndOutcome(t *testing.T) {
	clk := newClock()
	j, _ := mustOpen(t, journal.Options{Now: clk.Now})
	k := journal.Key{Tenant: "t", Kind: "stock", Business: "m"}
	out := clk.Now().Add(33 * time.Second)
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Window: &journal.Mark{Tenant: "t", Name: "stock/movimiento", Next: out}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(out) {
		t.Errorf("window after intent = %v, want %v", got, out)
	}
	answered := clk.Now().Add(3 * time.Second)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 4, Window: &journal.Mark{Tenant: "t", Name: "stock/movimiento", Next: answered}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(answered) {
		t.Errorf("window after outcome = %v, want %v", got, answered)
	}
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "stock", Business: "n"}, journal.Intent{Window: &journal.Mark{Name: "x"}}); err == nil {
		t.Error("Begin with a window mark without tenant succeeded")
	}
}

func TestResolveKeepsTheIdsFound(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	k := journal.Key{Tenant: "t", Kind: "facturar", Business: "33"}
	finishAs(k, journal.Unknown)(j)
	if err := j.Resolve(context.Background(), k, journal.Verdict{As: journal.OK, Note: "reconciliado: GET /comprobante/33", FacturaID: 33, Numero: 1500, PVNumero: 2}); err != nil {
		t.Fatal(err)
	}
	if e := mustGet(t, j, k); e.State != journal.OK || e.FacturaID != 33 || e.Numero != 1500 || e.PVNumero != 2 {
		t.Errorf("resolved entry = %+v, want ok with ids 33, 1500, 2", e)
	}
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/var/state", "HOME": "/home/ana"}, "/var/state/nxbatch/journal"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/home/ana"}, "/home/ana/.local/state/nxbatch/journal"},
		{map[string]string{"HOME": "/home/ana"}, "/home/ana/.local/state/nxbatch/journal"},
	}
	for _, tc := range tests {
		got, err := DefaultPath(func(k string) string { return tc.env[k] })
		if err != nil || got != tc.want {
			t.Errorf("DefaultPath(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
}
