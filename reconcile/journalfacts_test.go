package reconcile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
)

// standaloneReads is what a standalone reconciliation read after a run.
type standaloneReads struct {
	scans []Scan
	pages map[int64]int // export pages read, by branch
	comps []int64       // GET /comprobante, by facturaId
	reads Reads
	sale  journal.Entry // the unknown sale, once settled
	want  sandbox.Voucher
}

// runThenReconcile runs a file of six sales through pipeline.Submit
// against the sandbox (sales 1-3 at point of sale 1, branch 1; 4-6 at
// point of sale 2, branch 2), the answer to sale 5 lost after the API
// created it; with the SubmitOptions.Facts that `nxbatch run` sets when
// facts, without (as before the journal kept them) otherwise. The
// integration has two more vouchers the journal does not know, one in each
// branch. Eleven minutes later, a reconciliation given no facts of its own,
// as `nxbatch reconcile` in another process the next morning, settles sale
// 5.
func runThenReconcile(t *testing.T, facts bool) (out standaloneReads) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		for _, o := range []struct{ orden, pv, total int64 }{{98, 1, 1500}, {99, 2, 2100}} {
			if r := w.api.Venta(t.Context(), ventaBody(o.orden, o.pv, o.total, fmt.Sprintf("otro%d@example.com", o.orden))); r.Class != apiclient.OK {
				t.Fatalf("sale %d: %v %s", o.orden, r.Class, r.Message)
			}
		}
		var b strings.Builder
		b.WriteString("ordenId,usuario.email,puntoVentaId,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
		for o := 1; o <= 6; o++ {
			fmt.Fprintf(&b, "%d,c%d@example.com,%d,105,1500,1,1500,0,0,0,1500,EFECTIVO\n", o, o, 1+(o-1)/3)
		}
		path := filepath.Join(t.TempDir(), "ventas.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := pipeline.Load(path, pipeline.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f.Validate(&validation.Catalog{}, true)
		lose5 := func(r *http.Request, body []byte) bool {
			var v struct {
				OrdenID int64 `json:"ordenId"`
			}
			return r.Method == http.MethodPost && r.URL.Path == nxapi.PathVenta && json.Unmarshal(body, &v) == nil && v.OrdenID == 5
		}
		api, err := apiclient.New(apiclient.Options{BaseURL: "https://sandbox.invalid", Token: apiclient.NewToken(sandbox.DefaultToken),
			Transport: memTransport{h: w.sb, drop: lose5}})
		if err != nil {
			t.Fatal(err)
		}
		so := pipeline.SubmitOptions{Tenant: tenant, Workers: 2, Env: sendrules.Production}
		if facts {
			so.Facts = IntentFacts
		}
		files := []*pipeline.File{f}
		if n, err := pipeline.Prepare(context.Background(), files, w.j, so); err != nil || n != 6 {
			t.Fatalf("Prepare: %d to send, %v", n, err)
		}
		if res := pipeline.Submit(t.Context(), files, api, w.j, so); res.Reason() != "" {
			t.Fatalf("run stopped: %s %v", res.Reason(), res.Cause)
		}
		if e := w.entry(KindVenta, 5); e.State != journal.Unknown || (e.Facts != "") != facts {
			t.Fatalf("sale 5 after the run: %s with facts %q", e.State, e.Facts)
		}
		time.Sleep(11 * time.Minute)

		c := &countingAPI{API: w.api}
		p, err := Prepare(context.Background(), w.j, Options{Tenant: tenant, Scope: demoScope()})
		if err != nil {
			t.Fatal(err)
		}
		res := Execute(t.Context(), c, w.j, p)
		if _, err := Commit(context.Background(), w.j, res); err != nil {
			t.Fatal(err)
		}
		out.scans, out.comps, out.reads = p.Scans, c.comps, res.Reads
		out.pages = map[int64]int{}
		for _, q := range c.pages {
			out.pages[q.SucursalID]++
		}
		out.sale, out.want = w.entry(KindVenta, 5), voucherOf(t, w.sb, 5)
	})
	return out
}

// TestStandaloneReconcileUsesJournalFacts: the journal keeps a sale's
// facts with its attempt, so a reconciliation that knows nothing else of
// the sale (standalone `nxbatch reconcile`) reads only the export of the
// branch of its point of sale and confirms only the vouchers consistent
// with it; before, with a journal that did not keep them, it read every
// enabled branch and confirmed every voucher the journal could not place.
// Both settle the sale ok with the sandbox's ids.
func TestStandaloneReconcileUsesJournalFacts(t *testing.T) {
	var before, after standaloneReads
	t.Run("journal without facts", func(t *testing.T) { before = runThenReconcile(t, false) })
	t.Run("journal with facts", func(t *testing.T) { after = runThenReconcile(t, true) })
	for _, c := range []struct {
		name string
		r    standaloneReads
	}{{"without facts", before}, {"with facts", after}} {
		if e, v := c.r.sale, c.r.want; e.State != journal.OK || e.FacturaID != v.FacturaID || e.Numero != v.Numero {
			t.Errorf("%s: sale 5 is %s %d/%d, want ok with the sandbox's %d/%d", c.name, e.State, e.FacturaID, e.Numero, v.FacturaID, v.Numero)
		}
		t.Logf("%s: %d export pages (by branch %v), %d GET /comprobante %v, in %v against a floor of %v (production windows)",
			c.name, c.r.reads.Exports, c.r.pages, c.r.reads.Comprobantes, c.r.comps, c.r.reads.Took(), c.r.reads.Floor)
	}
	if len(before.scans) != 2 || before.pages[1] != 1 || before.pages[2] != 1 || len(before.comps) != 3 {
		t.Errorf("without facts: scans %+v, pages %v, comprobantes %v; want both branches and 3 vouchers (5, 98, 99) confirmed",
			before.scans, before.pages, before.comps)
	}
	if len(after.scans) != 1 || after.scans[0].SucursalID != 2 || len(after.pages) != 1 || after.pages[2] != 1 ||
		!slices.Equal(after.comps, []int64{after.want.FacturaID}) {
		t.Errorf("with facts: scans %+v, pages %v, comprobantes %v; want branch 2 only and sale 5's voucher %d alone confirmed",
			after.scans, after.pages, after.comps, after.want.FacturaID)
	}
}

// TestRunFactsBeforeJournalFacts: a run's own facts (Options.Facts) come
// first; where it has none for an entry, the journal's are used; with
// neither, the sale is looked for in every enabled branch.
func TestRunFactsBeforeJournalFacts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		inJournal := IntentFacts(KindVenta, ventaBody(1, 2, 1500, "ana@example.com")) // point of sale 2: branch 2
		for o, facts := range map[int64]string{1: inJournal, 2: ""} {
			k := journal.Key{Tenant: tenant, Kind: KindVenta, Business: fmt.Sprint(o)}
			if _, err := w.j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Facts: facts}); err != nil {
				t.Fatal(err)
			}
			if err := w.j.Finish(context.Background(), k, journal.Outcome{State: journal.Unknown}); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Minute)
		branches := func(o Options, orden int64) []int64 {
			o.Tenant, o.Scope = tenant, demoScope()
			p, err := Prepare(context.Background(), w.j, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range p.sales {
				if s.orden == orden {
					return s.branches
				}
			}
			t.Fatalf("sale %d not planned", orden)
			return nil
		}
		runKnows := func(e journal.Entry) (SaleFacts, bool) {
			if e.Key.Business != "1" {
				return SaleFacts{}, false
			}
			return SaleFacts{PuntoVentaID: 1}, true // branch 1
		}
		for _, c := range []struct {
			name  string
			o     Options
			orden int64
			want  []int64
		}{
			{"standalone: the journal's facts", Options{}, 1, []int64{2}},
			{"the run's facts first", Options{Facts: runKnows}, 1, []int64{1}},
			{"the run has none: the journal's", Options{Facts: func(journal.Entry) (SaleFacts, bool) { return SaleFacts{}, false }}, 1, []int64{2}},
			{"neither: every enabled branch", Options{}, 2, []int64{1, 2}},
		} {
			if got := branches(c.o, c.orden); !slices.Equal(got, c.want) {
				t.Errorf("%s: branches %v, want %v", c.name, got, c.want)
			}
		}
		// A map of points of sale read long before or after the sale may
		// not be the one it was created under: a sale not found would be
		// sent again, so the search is not narrowed by it.
		for _, shift := range []time.Duration{-2 * time.Hour, 2 * time.Hour} {
			sc := demoScope()
			sc.MappedAt = sc.MappedAt.Add(shift)
			p, err := Prepare(context.Background(), w.j, Options{Tenant: tenant, Scope: sc})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range p.sales {
				if s.orden == 1 && !slices.Equal(s.branches, []int64{1, 2}) {
					t.Errorf("a map read %v from the sale: branches %v, want every enabled branch", shift, s.branches)
				}
			}
		}
	})
}
