package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Reconciliation end to end (issue 10): the real binary settles the unknown
// outcomes a faulty sandbox leaves, and every decision is checked against
// what the sandbox really holds.

// getComprobante is the sandbox's counter key of GET /comprobante/{id}.
var getComprobante = "GET " + nxapi.PathComprobante + "{id}"

// recArgs are the flags of `reconcile` against w's API, then extra.
func (w *workspace) recArgs(extra ...string) []string {
	args := []string{"reconcile", "--base-url", w.baseURL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
		"--journal", w.journal(), "--lang", "en", "--timeout", "2s"}
	return append(args, extra...)
}

// recEntries lists w's journal.
func recEntries(t *testing.T, w *workspace) []journal.Entry {
	t.Helper()
	j, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	all, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// unknownKeys are the businesses of the unknown entries of kind.
func unknownKeys(entries []journal.Entry, kind string) map[string]journal.Entry {
	out := map[string]journal.Entry{}
	for _, e := range entries {
		if e.Key.Kind == kind && e.State == journal.Unknown {
			out[e.Key.Business] = e
		}
	}
	return out
}

// settledAgainstSandbox checks every entry of keys: ok with the ids of the
// sandbox's one voucher for it, or failed (with evidence) when the sandbox
// has none, or still unknown when allowUnknown. It returns the failed ones.
func settledAgainstSandbox(t *testing.T, w *workspace, sb *sandbox.Running, kind string, keys map[string]journal.Entry, allowUnknown bool) map[string]bool {
	t.Helper()
	byKey := map[string][]sandbox.Voucher{}
	for _, v := range sb.Server.State().Vouchers {
		k := v.OrdenID
		if kind == "facturar" {
			k = v.PresaleID
		}
		if k != 0 {
			byKey[strconv.FormatInt(k, 10)] = append(byKey[strconv.FormatInt(k, 10)], v)
		}
	}
	failed := map[string]bool{}
	for _, e := range recEntries(t, w) {
		if _, ok := keys[e.Key.Business]; !ok || e.Key.Kind != kind {
			continue
		}
		vs := byKey[e.Key.Business]
		switch {
		case e.State == journal.Unknown && allowUnknown:
		case e.State == journal.OK && len(vs) == 1 && vs[0].FacturaID == e.FacturaID && vs[0].Numero == e.Numero && vs[0].PVNumero == e.PVNumero:
		case e.State == journal.Failed && len(vs) == 0 && e.Evidence != "":
			failed[e.Key.Business] = true
		default:
			t.Errorf("%s is %s (%d/%d/%d) but the sandbox has %+v", e.Key, e.State, e.FacturaID, e.Numero, e.PVNumero, vs)
		}
		if e.State != journal.Unknown && (e.Evidence == "" || e.Note == "") {
			t.Errorf("%s settled without evidence or note", e.Key)
		}
	}
	return failed
}

// readsLine is the reconcile command's reads line (--lang en).
var readsLine = regexp.MustCompile(`reads: (\d+) of the export and (\d+) of GET /comprobante \((\d+) refused[^)]*\) in ([^;]+); the least the API's windows allow is (\S+)`)

// recLastAttempt is the latest moment any attempt of entries could have
// reached the API.
func recLastAttempt(entries []journal.Entry) time.Time {
	var last time.Time
	for _, e := range entries {
		for _, t := range []time.Time{e.Last, e.Held} {
			if t.After(last) {
				last = t
			}
		}
	}
	return last
}

// recSleepUntil sleeps until t.
func recSleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

// TestReconcile300Sales: 300 sales against 5% 500s and 2% dropped answers.
// After the run, reconcile settles every unknown row: ok with the sandbox's
// ids for the sales it processed, failed for the others; the reads never
// trip a window. The next run sends exactly the failed ones; once every
// unknown is settled, the sandbox holds exactly one invoice per ordenId.
func TestReconcile300Sales(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Fail500: 0.05, DropAfter: 0.02, Seed: 11})
	w := newWorkspace(t, sb.URL)
	const sales, first = 300, 310001
	input := writeSales(t, w.dir, sales, first)
	run := w.runArgs("--workers", "8", "--rate", "0", input)
	settle := []string{"--settle-after", "3m"} // 1.8 s at this scale
	settleReal := sendrules.Scale(3*time.Minute, scale)

	if res := w.nx(t, run...); res.code != 3 {
		t.Fatalf("run: exit %d, want 3\n%s", res.code, res)
	}
	entries := recEntries(t, w)
	unknown := unknownKeys(entries, "venta")
	counts := sb.Server.State().Requests[postVenta]
	if counts[500] == 0 || counts[0] == 0 {
		t.Fatalf("the sandbox injected no 500 or no dropped answer (%v): pick another seed", counts)
	}
	recSleepUntil(recLastAttempt(entries).Add(settleReal + 100*time.Millisecond))

	started := time.Now()
	res := w.nx(t, w.recArgs(settle...)...)
	wall := time.Since(started)
	if res.code != 0 {
		t.Fatalf("reconcile: exit %d, want 0 (everything settled)\n%s", res.code, res)
	}
	failed := settledAgainstSandbox(t, w, sb, "venta", unknown, false)
	m := readsLine.FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("no reads line:\n%s", res)
	}
	took, _ := time.ParseDuration(m[4])
	floor, _ := time.ParseDuration(m[5])
	st := sb.Server.State()
	for _, ep := range []string{getComprobante, "GET " + nxapi.PathVentaTotales} {
		if n := st.Requests[ep][http.StatusForbidden]; n != 0 {
			t.Errorf("%s: the sandbox refused %d reads for the window", ep, n)
		}
	}
	if took < floor {
		t.Errorf("the reads took %v, less than the windows' floor %v", took, floor)
	}
	// The journal kept each sale's facts: the default point of sale's
	// branch alone is read (both demo branches are enabled).
	if m[1] != "1" {
		t.Errorf("%s export pages read, want 1: the sales' branch only", m[1])
	}
	t.Logf("300 sales: %d unknown (%d answered 500, %d dropped) → %d ok, %d failed; reads: %s export pages, %s GET /comprobante in %v (floor %v at time scale %v: %v and %v in production); command wall time %v",
		len(unknown), counts[500], counts[0], len(unknown)-len(failed), len(failed), m[1], m[2], took, floor, scale,
		time.Duration(float64(took)/scale).Round(time.Second), time.Duration(float64(floor)/scale).Round(time.Second), wall.Round(time.Millisecond))

	// The next run sends exactly the failed ones.
	before := sum(st, postVenta)
	w.nx(t, run...)
	if n := sum(sb.Server.State(), postVenta) - before; n != len(failed) {
		t.Errorf("the next run sent %d requests, want the %d failed ones", n, len(failed))
	}
	for _, r := range w.readReport(t, input) {
		if sent := r["result.status"] != "skipped"; sent != failed[r["ordenId"]] {
			t.Errorf("ordenId %s: %s after the next run (failed before: %v)", r["ordenId"], r["result.status"], failed[r["ordenId"]])
		}
	}

	// Resends meet the same faults: settle and send until nothing is
	// unknown, then every ordenId has exactly one invoice.
	for round := 0; ; round++ {
		entries = recEntries(t, w)
		left := unknownKeys(entries, "venta")
		if len(left) == 0 {
			break
		}
		if round == 5 {
			t.Fatalf("still %d unknown after 5 rounds", len(left))
		}
		recSleepUntil(recLastAttempt(entries).Add(settleReal + 100*time.Millisecond))
		if res := w.nx(t, w.recArgs(settle...)...); res.code != 0 {
			t.Fatalf("round %d reconcile: %s", round, res)
		}
		settledAgainstSandbox(t, w, sb, "venta", left, false)
		w.nx(t, run...)
	}
	st = sb.Server.State()
	noDuplicates(t, st)
	byOrden := vouchersByOrden(st)
	for o := int64(first); o < first+sales; o++ {
		if len(byOrden[o]) != 1 {
			t.Errorf("ordenId %d has %d invoices", o, len(byOrden[o]))
		}
	}
	if got := statuses(w.readReport(t, input)); got["ok"]+got["skipped"] != sales {
		t.Errorf("final report %v, want every sale ok or skipped", got)
	}
}

// TestReconcilePresales: a dropped answer to /facturar is reconciled ok, a
// 500 before processing failed; the failed ones are resent, and every
// presale is invoiced once.
func TestReconcilePresales(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Fail500: 0.25, DropAfter: 0.25, Seed: 1})
	w := newWorkspace(t, sb.URL)
	var b strings.Builder
	b.WriteString("facturaId,puntoVentaId,electronica,medioPago.tipo\n")
	for id := 1001; id <= 1012; id++ {
		fmt.Fprintf(&b, "%d,1,no,EFECTIVO\n", id)
	}
	input := writeFile(t, w.dir, "preventas.csv", b.String())
	run := w.runArgs("--rate", "0", input)
	if res := w.nx(t, run...); res.code != 3 {
		t.Fatalf("run: exit %d, want 3\n%s", res.code, res)
	}
	entries := recEntries(t, w)
	unknown := unknownKeys(entries, "facturar")
	recSleepUntil(recLastAttempt(entries).Add(sendrules.Scale(sendrules.KeyHold, scale) + 50*time.Millisecond))
	if res := w.nx(t, w.recArgs()...); res.code != 0 {
		t.Fatalf("reconcile: %s", res)
	}
	failed := settledAgainstSandbox(t, w, sb, "facturar", unknown, false)
	if len(failed) == 0 || len(failed) == len(unknown) {
		t.Fatalf("%d unknown presales, %d failed: want both a dropped answer and a 500: pick another seed", len(unknown), len(failed))
	}
	before := sum(sb.Server.State(), postFacturar)
	w.nx(t, run...)
	if n := sum(sb.Server.State(), postFacturar) - before; n != len(failed) {
		t.Errorf("the next run sent %d, want the %d failed presales", n, len(failed))
	}
	for round := 0; ; round++ {
		entries = recEntries(t, w)
		left := unknownKeys(entries, "facturar")
		if len(left) == 0 {
			break
		}
		if round == 5 {
			t.Fatalf("still %d unknown after 5 rounds", len(left))
		}
		recSleepUntil(recLastAttempt(entries).Add(sendrules.Scale(sendrules.KeyHold, scale) + 50*time.Millisecond))
		w.nx(t, w.recArgs()...)
		settledAgainstSandbox(t, w, sb, "facturar", left, false)
		w.nx(t, run...)
	}
	st := sb.Server.State()
	noDuplicates(t, st)
	invoiced := map[int64]int{}
	for _, v := range st.Vouchers {
		invoiced[v.PresaleID]++
	}
	for id := int64(1001); id <= 1012; id++ {
		if invoiced[id] != 1 {
			t.Errorf("presale %d invoiced %d times", id, invoiced[id])
		}
	}
}

// TestReconcileExportLag: the export shows a sale 2 h (API time) after it
// is made. While the lag lasts, nothing is decided (sales the sandbox holds
// are not declared failed); after it the dropped answers are found, and
// the 500s wait for --settle-after; after --settle-after they are failed.
// No step depends on how fast the machine is: the sandbox's clock is moved
// past the lag instead of waiting for it, and the reconciliations that
// must come before --settle-after are given one no run can reach.
func TestReconcileExportLag(t *testing.T) {
	var ahead atomic.Int64 // how far the sandbox's clock runs ahead of ours
	sb := startSandbox(t, sandbox.Options{Fail500: 0.2, DropAfter: 0.2, Seed: 5, ExportLag: 2 * time.Hour,
		Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 30, 320001)
	if res := w.nx(t, w.runArgs("--workers", "4", "--rate", "0", input)...); res.code != 3 {
		t.Fatalf("run: %s", res)
	}
	entries := recEntries(t, w)
	unknown := unknownKeys(entries, "venta")
	st := sb.Server.State()
	dropped := 0 // unknowns the sandbox processed
	for o := range unknown {
		n, _ := strconv.ParseInt(o, 10, 64)
		dropped += len(vouchersByOrden(st)[n])
	}
	if dropped == 0 || dropped == len(unknown) {
		t.Fatalf("%d unknown, %d of them processed: want both: pick another seed", len(unknown), dropped)
	}
	lag, settle := sendrules.Scale(2*time.Hour, scale), sendrules.Scale(8*time.Minute, scale)
	last := recLastAttempt(entries)
	notYet := w.recArgs("--settle-after", "1000h") // before --settle-after, whatever the machine's speed

	recSleepUntil(last.Add(sendrules.Scale(sendrules.KeyHold, scale) + 50*time.Millisecond))
	res := w.nx(t, notYet...)
	if res.code != 3 || !strings.Contains(res.stdout, "reconcile again after") {
		t.Errorf("before the lag: exit %d, want 3 with a time to try again\n%s", res.code, res)
	}
	for _, e := range recEntries(t, w) {
		if _, ok := unknown[e.Key.Business]; ok && e.State != journal.Unknown {
			t.Errorf("before the lag %s was decided %s", e.Key, e.State)
		}
	}

	ahead.Store(int64(lag + time.Second)) // the lag has passed for every voucher
	res = w.nx(t, notYet...)
	ok := 0
	for _, e := range recEntries(t, w) {
		if _, was := unknown[e.Key.Business]; was {
			switch e.State {
			case journal.OK:
				ok++
			case journal.Failed:
				t.Errorf("after the lag but before --settle-after, %s was failed", e.Key)
			}
		}
	}
	if ok != dropped {
		t.Errorf("after the lag %d found, want the %d dropped answers\n%s", ok, dropped, res)
	}

	recSleepUntil(last.Add(settle + 100*time.Millisecond))
	if res := w.nx(t, w.recArgs("--settle-after", "8m")...); res.code != 0 {
		t.Errorf("after --settle-after: exit %d, want 0\n%s", res.code, res)
	}
	if failed := settledAgainstSandbox(t, w, sb, "venta", unknown, false); len(failed) != len(unknown)-dropped {
		t.Errorf("%d failed, want the %d not processed", len(failed), len(unknown)-dropped)
	}
}

// TestReconcileKilled: a reconciliation killed (SIGKILL) in the middle of
// its reads leaves a journal that opens and lists, every entry unknown or
// settled as the sandbox says; the next one finishes the job.
func TestReconcileKilled(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{DropAfter: 0.1, Fail500: 0.05, Seed: 3})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 200, 330001)
	w.nx(t, w.runArgs("--workers", "8", "--rate", "0", input)...)
	entries := recEntries(t, w)
	unknown := unknownKeys(entries, "venta")
	recSleepUntil(recLastAttempt(entries).Add(sendrules.Scale(time.Minute, scale) + 100*time.Millisecond))
	args := w.recArgs("--settle-after", "1m")

	reads := func() int { return sb.Server.State().Requests[getComprobante][http.StatusOK] }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); reads() < 3; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no 3 candidate reads in a minute: %s", ended(t, cmd.Wait(), out, errb))
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if res := w.nx(t, "journal", "list", "--journal", w.journal()); res.code != 0 {
		t.Fatalf("journal list after the kill: %s", res)
	}
	settledAgainstSandbox(t, w, sb, "venta", unknown, true)
	if res := w.nx(t, args...); res.code != 0 {
		t.Fatalf("reconcile after the kill: %s", res)
	}
	settledAgainstSandbox(t, w, sb, "venta", unknown, false)
}

// TestReconcileUnauthorized: the token refused on the third GET
// /comprobante stops the reconciliation with exit 4, and the journal is as
// it was; with the token accepted again, a reconciliation settles it all.
func TestReconcileUnauthorized(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{DropAfter: 0.1, Fail500: 0.05, Seed: 3})
	// Every command goes through one proxy (one origin, one tenant); armed,
	// it refuses the token on the third GET /comprobante.
	target, _ := url.Parse(sb.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	var comps atomic.Int32
	var armed atomic.Bool
	px := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if armed.Load() && strings.HasPrefix(r.URL.Path, nxapi.PathComprobante) && comps.Add(1) == 3 {
			rw.WriteHeader(http.StatusUnauthorized)
			_, _ = rw.Write([]byte(`{"error":"Token invalido"}`))
			return
		}
		rp.ServeHTTP(rw, r)
	}))
	defer px.Close()
	w := newWorkspace(t, px.URL)
	input := writeSales(t, w.dir, 100, 340001)
	w.nx(t, w.runArgs("--workers", "8", "--rate", "0", input)...)
	before := recEntries(t, w)
	unknown := unknownKeys(before, "venta")
	recSleepUntil(recLastAttempt(before).Add(sendrules.Scale(time.Minute, scale) + 100*time.Millisecond))

	armed.Store(true)
	res := w.nx(t, w.recArgs("--settle-after", "1m")...)
	armed.Store(false)
	if res.code != 4 || !strings.Contains(res.stderr, "401") {
		t.Fatalf("through the refusing proxy: exit %d, want 4 naming the 401\n%s", res.code, res)
	}
	if comps.Load() != 3 {
		t.Errorf("%d GET /comprobante, want none after the 401", comps.Load())
	}
	after := recEntries(t, w)
	for i := range before {
		if before[i].State != after[i].State || before[i].Evidence != after[i].Evidence {
			t.Errorf("%s changed: %s → %s", after[i].Key, before[i].State, after[i].State)
		}
	}
	if res := w.nx(t, w.recArgs("--settle-after", "1m")...); res.code != 0 {
		t.Fatalf("reconcile with the token accepted: %s", res)
	}
	settledAgainstSandbox(t, w, sb, "venta", unknown, false)
}
