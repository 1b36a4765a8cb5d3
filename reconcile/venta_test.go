package reconcile

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// voucherOf returns the sandbox's voucher of an ordenId.
func voucherOf(t *testing.T, sb *sandbox.Server, orden int64) sandbox.Voucher {
	t.Helper()
	var out []sandbox.Voucher
	for _, v := range sb.State().Vouchers {
		if v.OrdenID == orden {
			out = append(out, v)
		}
	}
	if len(out) != 1 {
		t.Fatalf("ordenId %d has %d vouchers", orden, len(out))
	}
	return out[0]
}

// TestVenta: sales whose answers were lost are found in the export of
// their branch and confirmed by their ordenId; sales that never reached
// the API are failed once the export was read SettleAfter after their last
// attempt, with the pages read and the other candidates as evidence. A
// voucher of the integration that the journal does not know is checked and
// left alone. Nothing is refused by a window, and the reads take the floor.
func TestVenta(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		for o := int64(1); o <= 3; o++ {
			w.sell(o, 0, 1500, true, journal.OK)
		}
		w.sell(4, 0, 1500, true, journal.Unknown)  // answer dropped
		w.sell(5, 0, 2100, true, journal.Unknown)  // answer dropped
		w.sell(8, 2, 1500, true, journal.Unknown)  // branch 2, answer dropped
		w.sell(6, 0, 1500, false, journal.Unknown) // 500 before processing
		w.sell(7, 0, 1500, false, journal.Unknown) // timeout, never processed
		if o := w.api.Venta(t.Context(), ventaBody(99, 0, 1500, "otro@example.com")); o.Class != apiclient.OK {
			t.Fatalf("sale 99: %v", o.Class)
		}
		time.Sleep(11 * time.Minute)

		p, res := w.reconcile(t.Context(), Options{Scope: demoScope()}, true)
		if len(p.Scans) != 2 {
			t.Fatalf("scans %+v: without the sales' points of sale, want both enabled branches", p.Scans)
		}
		for _, o := range []int64{4, 5, 8} {
			e, v := w.entry(KindVenta, o), voucherOf(t, w.sb, o)
			if e.State != journal.OK || e.FacturaID != v.FacturaID || e.Numero != v.Numero || e.PVNumero != v.PVNumero {
				t.Errorf("sale %d: %s %d/%d/%d, want ok with the sandbox's %d/%d/%d", o, e.State, e.FacturaID, e.Numero, e.PVNumero,
					v.FacturaID, v.Numero, v.PVNumero)
				continue
			}
			ev := evidence(t, e)
			if ev.Rule != RuleFound || ev.Found == nil || ev.Found.FacturaID != v.FacturaID || ev.Comprobante.OrdenID != strconv.FormatInt(o, 10) || len(ev.Exports) != 1 {
				t.Errorf("sale %d evidence %+v", o, ev)
			}
		}
		v99 := voucherOf(t, w.sb, 99)
		for _, o := range []int64{6, 7} {
			e := w.entry(KindVenta, o)
			ev := evidence(t, e)
			if e.State != journal.Failed || ev.Rule != RuleAbsent || len(ev.Exports) != 2 || !ev.Exports[0].Complete ||
				ev.Exports[0].Started.Sub(ev.LastAttempt) < 10*time.Minute {
				t.Errorf("sale %d: %s %+v; want failed on both branches' exports read 10 min after", o, e.State, ev)
			}
			checked := false
			for _, c := range ev.Candidates {
				checked = checked || (c.FacturaID == v99.FacturaID && c.OrdenID == "99")
			}
			if !checked {
				t.Errorf("sale %d: candidates %+v, want voucher %d (ordenId 99) checked", o, ev.Candidates, v99.FacturaID)
			}
		}
		for _, ep := range []string{getComprobante, getVentaTotal} {
			if n := refusedByWindow(w.sb, ep); n != 0 {
				t.Errorf("%s: %d refused for the window", ep, n)
			}
		}
		// 2 export pages; 4 candidates (4, 5, 8 and 99): 30 s + 3 × 10 s.
		if r := res.Reads; r.Exports != 2 || r.Candidates != 4 || r.Floor != time.Minute || r.Took() < r.Floor || r.Took() > r.Floor+time.Second {
			t.Errorf("reads %+v took %v, want 2 pages and 4 candidates in the 60 s floor", r, r.Took())
		}

		// Settled: a second reconciliation has nothing to read.
		p, res = w.reconcile(t.Context(), Options{Scope: demoScope()}, true)
		if !p.Empty() || res.Reads.Exports+res.Reads.Comprobantes != 0 {
			t.Errorf("second reconciliation planned %+v, read %+v", p, res.Reads)
		}
	})
}

// TestExportLag: the export shows a voucher 3 min after the sale. Read
// before SettleAfter (5 min), a sale absent from it stays unknown, with the
// time to try again; once the lagging voucher shows it is found whatever
// the time; after SettleAfter the sale that never arrived is failed.
func TestExportLag(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{ExportLag: 3 * time.Minute})
		w.sell(1, 0, 1500, true, journal.Unknown)
		w.sell(2, 0, 1500, false, journal.Unknown)
		last := lastAttempt(w.entry(KindVenta, 2))
		o := Options{Scope: demoScope(), SettleAfter: 5 * time.Minute}

		time.Sleep(time.Minute)
		_, res := w.reconcile(t.Context(), o, true)
		if len(res.Decisions) != 0 || len(res.Undecided) != 2 {
			t.Fatalf("at 1 min: decisions %+v; want none: the export does not show sale 1 yet", res.Decisions)
		}
		for _, u := range res.Undecided {
			if !u.RetryAt.Equal(last.Add(5*time.Minute)) && !u.RetryAt.Equal(lastAttempt(w.entry(KindVenta, 1)).Add(5*time.Minute)) {
				t.Errorf("%s: retry at %v, want the last attempt + 5 min", u.Key, u.RetryAt)
			}
		}

		time.Sleep(3 * time.Minute)
		w.reconcile(t.Context(), o, true)
		if e := w.entry(KindVenta, 1); e.State != journal.OK || e.FacturaID != voucherOf(t, w.sb, 1).FacturaID {
			t.Errorf("at 4 min sale 1 is %s, want found", e.State)
		}
		if e := w.entry(KindVenta, 2); e.State != journal.Unknown {
			t.Errorf("at 4 min sale 2 is %s, want unknown until 5 min", e.State)
		}

		time.Sleep(2 * time.Minute)
		w.reconcile(t.Context(), o, true)
		if e := w.entry(KindVenta, 2); e.State != journal.Failed {
			t.Errorf("at 6 min sale 2 is %s, want failed", e.State)
		}
	})
}

// TestVentaFacts: with what a run knows of its sales (total, customer,
// point of sale), only the branch of the point of sale is read and only
// the rows consistent with an unknown sale are confirmed.
func TestVentaFacts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.sell(10, 2, 1500, true, journal.Unknown)
		w.sell(11, 2, 2500, false, journal.Unknown)
		for o := int64(90); o < 95; o++ { // the integration's, elsewhere
			if r := w.api.Venta(t.Context(), ventaBody(o, 2, 900, "x@example.com")); r.Class != apiclient.OK {
				t.Fatal(r.Message)
			}
		}
		time.Sleep(11 * time.Minute)
		facts := map[string]SaleFacts{
			"10": {Total: ptr(nxapi.DecimalFromInt(1500)), Email: "C10@example.com ", PuntoVentaID: 2},
			"11": {Total: ptr(nxapi.DecimalFromInt(2500)), Email: "c11@example.com", PuntoVentaID: 2},
		}
		api := &countingAPI{API: w.api}
		o := Options{Tenant: tenant, Scope: demoScope(), Facts: func(e journal.Entry) (SaleFacts, bool) {
			f, ok := facts[e.Key.Business]
			return f, ok
		}}
		p, err := Prepare(context.Background(), w.j, o)
		if err != nil {
			t.Fatal(err)
		}
		res := Execute(t.Context(), api, w.j, p)
		if len(api.pages) != 1 || api.pages[0].SucursalID != 2 {
			t.Errorf("export reads %+v, want branch 2 only", api.pages)
		}
		if len(api.comps) != 1 || api.comps[0] != voucherOf(t, w.sb, 10).FacturaID {
			t.Errorf("comprobante reads %v, want only sale 10's voucher (the rest differ in total)", api.comps)
		}
		if len(res.Decisions) != 2 || res.Decisions[0].Verdict.As != journal.OK || res.Decisions[1].Verdict.As != journal.Failed {
			t.Errorf("decisions %+v, want 10 ok and 11 failed", res.Decisions)
		}
		// No voucher of the journal's confirms that rows carry the appId.
		if f := res.Decisions[1].Evidence.Filters; strings.Join(f, ",") != "date,total,customer" {
			t.Errorf("filters %v, want date, total and customer applied", f)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestUnauthorizedChangesNothing: a 401 in the middle stops the reads and
// nothing is written, not even the decisions reached before it.
func TestUnauthorizedChangesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.invoice(1001, true)
		w.sell(4, 0, 1500, true, journal.Unknown)
		w.sell(5, 0, 1500, true, journal.Unknown)
		w.sell(6, 0, 1500, false, journal.Unknown)
		time.Sleep(11 * time.Minute)
		before, _ := w.j.List(context.Background(), "")
		api := &countingAPI{API: w.api, refuse: func(kind string, n int) error {
			if kind == "comprobante" && n == 3 {
				return fmt.Errorf("GET: %w", apiclient.ErrUnauthorized)
			}
			return nil
		}}
		p, err := Prepare(context.Background(), w.j, Options{Tenant: tenant, Scope: demoScope()})
		if err != nil {
			t.Fatal(err)
		}
		res := Execute(t.Context(), api, w.j, p)
		n, err := Commit(context.Background(), w.j, res)
		if !res.Unauthorized || n != 0 || err != nil {
			t.Fatalf("unauthorized %v, wrote %d (%v); want nothing written", res.Unauthorized, n, err)
		}
		if len(api.comps) != 3 {
			t.Errorf("%d comprobante reads, want none after the 401", len(api.comps))
		}
		after, _ := w.j.List(context.Background(), "")
		for i := range before {
			if before[i].State != after[i].State || after[i].Evidence != "" {
				t.Errorf("%s: %s → %s", after[i].Key, before[i].State, after[i].State)
			}
		}
	})
}

// TestInterrupted: an interrupt between candidate reads keeps the decision
// whose evidence is complete and leaves the rest unknown.
func TestInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.sell(4, 0, 1500, true, journal.Unknown)
		w.sell(5, 0, 1500, true, journal.Unknown)
		w.sell(6, 0, 1500, false, journal.Unknown)
		time.Sleep(11 * time.Minute)
		ctx, cancel := context.WithCancel(t.Context())
		api := &countingAPI{API: w.api, refuse: func(kind string, n int) error {
			if kind == "comprobante" {
				cancel() // the read goes on: the interrupt comes while it is in flight
			}
			return nil
		}}
		p, err := Prepare(context.Background(), w.j, Options{Tenant: tenant, Scope: demoScope()})
		if err != nil {
			t.Fatal(err)
		}
		res := Execute(ctx, api, w.j, p)
		if !res.Interrupted || len(res.Decisions) != 1 || res.Decisions[0].Key.Business != "4" || res.Decisions[0].Verdict.As != journal.OK {
			t.Fatalf("interrupted %v, decisions %+v; want only sale 4 found", res.Interrupted, res.Decisions)
		}
		if len(res.Undecided) != 2 {
			t.Errorf("undecided %+v, want 5 (not read) and 6 (its candidates not all read)", res.Undecided)
		}
	})
}

// TestWindowsPersisted: the windows are in the journal before each read
// leaves, so a second reconciliation right after the first waits for them
// instead of being refused.
func TestWindowsPersisted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.invoice(1001, false)
		w.sell(6, 0, 1500, false, journal.Unknown)
		time.Sleep(11 * time.Minute)
		var early []string
		api := &countingAPI{API: w.api}
		api.refuse = func(kind string, _ int) error {
			name := map[string]sendrules.Window{"comprobante": sendrules.Comprobante, "export": sendrules.Exports}[kind]
			next, _ := w.j.NextAllowed(context.Background(), tenant, string(name))
			if next.Before(time.Now().Add(sendrules.Production.Limit(name))) {
				early = append(early, kind)
			}
			return nil
		}
		o := Options{Tenant: tenant, Scope: demoScope()}
		for range 2 { // dry runs: the same entries twice
			p, err := Prepare(context.Background(), w.j, o)
			if err != nil {
				t.Fatal(err)
			}
			Execute(t.Context(), api, w.j, p)
		}
		if len(early) > 0 {
			t.Errorf("reads left before their window was persisted: %v", early)
		}
		for _, ep := range []string{getComprobante, getVentaTotal} {
			if n := refusedByWindow(w.sb, ep); n != 0 {
				t.Errorf("%s: %d refused: the second reconciliation did not wait for the first one's window", ep, n)
			}
		}
		if len(api.comps) != 2 || len(api.pages) != 4 {
			t.Errorf("reads %v %v, want the same reads twice", api.comps, api.pages)
		}
	})
}

// TestStockMovementIdIsNoVoucher: a stock movement journaled ok keeps the
// movement's id where a sale keeps its facturaId, and movements and
// vouchers are numbered apart: a movement whose id equals the facturaId of
// an unknown sale's voucher must not hide that voucher from the export
// (hidden, the sale would be declared failed and invoiced twice).
func TestStockMovementIdIsNoVoucher(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		w.sell(4, 0, 1500, true, journal.Unknown) // answer dropped
		v := voucherOf(t, w.sb, 4)
		mov := journal.Key{Tenant: tenant, Kind: KindStock, Business: "m1"}
		if _, err := w.j.Begin(context.Background(), mov, journal.Intent{BodyHash: "h", Units: []journal.Unit{{ID: "s1", BodyHash: "u"}}}); err != nil {
			t.Fatal(err)
		}
		if err := w.j.Finish(context.Background(), mov, journal.Outcome{State: journal.OK, FacturaID: v.FacturaID}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(11 * time.Minute)

		w.reconcile(t.Context(), Options{Scope: demoScope()}, true)
		if e := w.entry(KindVenta, 4); e.State != journal.OK || e.FacturaID != v.FacturaID {
			t.Errorf("sale 4: %s %d, want ok with its voucher %d (movement 1's id is the same number)", e.State, e.FacturaID, v.FacturaID)
		}
	})
}
