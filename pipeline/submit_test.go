package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/reconcile"
)

// fakeSender answers every creating request with answer(kind, n), n
// counting that kind's requests from 1, and keeps the bodies it got.
type fakeSender struct {
	mu     sync.Mutex
	calls  map[string]int
	bodies map[string][]string
	at     map[string][]time.Time
	answer func(kind string, n int) apiclient.Outcome
}

func (f *fakeSender) do(kind string, body []byte) apiclient.Outcome {
	f.mu.Lock()
	if f.calls == nil {
		f.calls, f.bodies, f.at = map[string]int{}, map[string][]string{}, map[string][]time.Time{}
	}
	f.calls[kind]++
	n := f.calls[kind]
	f.bodies[kind] = append(f.bodies[kind], string(body))
	f.at[kind] = append(f.at[kind], time.Now())
	f.mu.Unlock()
	return f.answer(kind, n)
}

func (f *fakeSender) Venta(_ context.Context, b []byte) apiclient.Outcome { return f.do("venta", b) }
func (f *fakeSender) Facturar(_ context.Context, b []byte) apiclient.Outcome {
	return f.do("facturar", b)
}
func (f *fakeSender) Stock(_ context.Context, b []byte) apiclient.Outcome { return f.do("stock", b) }
func (f *fakeSender) Pedido(_ context.Context, b []byte) apiclient.Outcome {
	return f.do("pedido", b)
}
func (f *fakeSender) Cancelar(_ context.Context, b []byte) apiclient.Outcome {
	return f.do("cancelar", b)
}

func (f *fakeSender) count(kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[kind]
}

// okAnswers answers every request ok, with ids counting from 1000.
func okAnswers(kind string, n int) apiclient.Outcome {
	id := nxapi.ID(1000 + n)
	if kind == "stock" || kind == "cancelar" {
		return apiclient.Outcome{Class: apiclient.OK, Status: 200, Written: true, Stock: &nxapi.NxResultado{Tipo: nxapi.NxOK, ID: id}}
	}
	return apiclient.Outcome{Class: apiclient.OK, Status: 200, Written: true, Result: &nxapi.FacturaResult{FacturaID: id, Numero: id, PVNumero: 1}}
}

// openJournal opens a journal in a temp dir.
func openJournal(t testing.TB) *boltjournal.Journal {
	t.Helper()
	j, err := boltjournal.Open(filepath.Join(t.TempDir(), "journal"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

// fastOptions are submit options whose every window and wait is scaled to
// almost nothing.
func fastOptions() SubmitOptions {
	return SubmitOptions{Tenant: "t1", Workers: 2, TimeScale: 0.0001}
}

// run loads content, prepares it against j and submits it with o.
func run(t *testing.T, name, content string, lo LoadOptions, j Journal, send Sender, o SubmitOptions) (*File, SubmitResult) {
	t.Helper()
	f := load(t, name, content, lo)
	if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return f, Submit(context.Background(), []*File{f}, send, j, o)
}

const (
	oneSale     = ventaHeader + "501,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n"
	stockHeader = "depositoId,motivoId,tipo,fecha,articulos.articuloId,articulos.cantidad\n"
	oneStock    = stockHeader + "1,1,6,2026-11-20,100,1\n"
)

// stockRows is a count of n rows in one movement cycling through variants
// articles, article 100+i%variants with quantity i+1.
func stockRows(n, variants int) string {
	var b strings.Builder
	b.WriteString(stockHeader)
	for i := range n {
		fmt.Fprintf(&b, "1,1,6,2026-11-20,%d,%d\n", 100+i%variants, i+1)
	}
	return b.String()
}

func statusCount(f *File) map[Status]int {
	rows, _ := f.Counts()
	return rows
}

// TestWindowRefusalsRunOutAsRejected: a request the API keeps refusing
// for its window is provably not processed when the resends run out: it is
// rejected (a later run sends it again), never unknown.
func TestWindowRefusalsRunOutAsRejected(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: func(string, int) apiclient.Outcome {
		return apiclient.Outcome{Class: apiclient.Resend, Status: 403, Written: true, Message: "Debe esperar 1 segundos entre cada solicitud", Wait: time.Second}
	}}
	o := fastOptions()
	f, res := run(t, "stock.csv", oneStock, LoadOptions{}, j, send, o)
	if res.Err != nil || res.Aborted || res.Interrupted || res.Unreachable {
		t.Fatalf("Submit = %+v", res)
	}
	want := 20 // sendrules.DefaultResend.MaxSends
	if got := send.count("stock"); got != want {
		t.Errorf("%d requests, want %d (the first and every resend, each counted as a send)", got, want)
	}
	if res.Sent != want {
		t.Errorf("Sent = %d, want %d", res.Sent, want)
	}
	r := f.Sheets[0].Requests[0]
	if r.Status != StatusRejected || r.Result().Outcome.Key != "sub.notsent" {
		t.Errorf("status %s (%s), want rejected as not sent", r.Status, r.Result().Outcome.Key)
	}
}

// TestUnreachableAPIStopsTheRun: requests that never leave (connection
// refused) are resent after a short backoff without the key hold, and after
// a handful in a row the run stops with everything left pending and nothing
// held.
func TestUnreachableAPIStopsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := openJournal(t)
		refused := apiclient.Outcome{Class: apiclient.Resend, Err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}
		send := &fakeSender{answer: func(string, int) apiclient.Outcome { return refused }}
		var b strings.Builder
		b.WriteString(ventaHeader)
		for i := range 40 {
			fmt.Fprintf(&b, "%d,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n", 600+i)
		}
		o := SubmitOptions{Tenant: "t1", Workers: 4, TimeScale: 1}
		start := time.Now()
		f, res := run(t, "ventas.csv", b.String(), LoadOptions{}, j, send, o)
		if !res.Unreachable {
			t.Fatalf("Submit = %+v, want stopped as unreachable", res)
		}
		if took := time.Since(start); took > 10*time.Second {
			t.Errorf("stopping took %v, want within seconds", took)
		}
		if n := send.count("venta"); n > 8 {
			t.Errorf("%d attempts before stopping, want a handful", n)
		}
		if res.Sent != 0 {
			t.Errorf("Sent = %d, want 0: nothing left", res.Sent)
		}
		if got := statusCount(f); got[StatusPending] != 40 {
			t.Errorf("rows %v, want all 40 pending", got)
		}
		// Nothing holds the key: the next run may send at once.
		e, found, err := j.Get(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: "600"})
		if err != nil || (found && (e.State != journal.Unsent || !e.Held.IsZero() || e.Attempts != 0)) {
			t.Errorf("journal entry %+v, %v; want unsent, held by nothing, no attempt counted", e, err)
		}
	})
}

// TestRefusedConnectionsThenAnswers: a server that refuses the first two
// connections and then answers gets every request ok, without waiting for
// any key hold.
func TestRefusedConnectionsThenAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := openJournal(t)
		var mu sync.Mutex
		n := 0
		send := &fakeSender{answer: func(kind string, k int) apiclient.Outcome {
			mu.Lock()
			n++
			first := n <= 2
			mu.Unlock()
			if first {
				return apiclient.Outcome{Class: apiclient.Resend, Err: errors.New("connection refused")}
			}
			return okAnswers(kind, k)
		}}
		start := time.Now()
		f, res := run(t, "ventas.csv", oneSale+"502,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n", LoadOptions{}, j, send,
			SubmitOptions{Tenant: "t1", Workers: 2, TimeScale: 1})
		if res.Unreachable || res.Err != nil {
			t.Fatalf("Submit = %+v", res)
		}
		if got := statusCount(f); got[StatusOK] != 2 {
			t.Errorf("rows %v, want both ok", got)
		}
		if took := time.Since(start); took >= 30*time.Second {
			t.Errorf("took %v: a request that never left waited for the key hold", took)
		}
	})
}

// TestStockWindowCountsFromTheAnswer: with answers that take as long as
// the window, the next movement leaves a window after the previous answer,
// not after the moment the previous one left.
func TestStockWindowCountsFromTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j := openJournal(t)
		var answered []time.Time
		var mu sync.Mutex
		send := &fakeSender{answer: func(kind string, n int) apiclient.Outcome {
			time.Sleep(2 * time.Second) // a slow API
			mu.Lock()
			answered = append(answered, time.Now())
			mu.Unlock()
			return okAnswers(kind, n)
		}}
		f, res := run(t, "stock.csv", stockRows(6, 6), LoadOptions{MaxArticulos: 2}, j, send,
			SubmitOptions{Tenant: "t1", TimeScale: 1})
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if got := statusCount(f); got[StatusOK] != 6 {
			t.Fatalf("rows %v, want 6 ok", got)
		}
		for i := 1; i < len(send.at["stock"]); i++ {
			if gap := send.at["stock"][i].Sub(answered[i-1]); gap < 3*time.Second {
				t.Errorf("movement %d left %v after the previous answer, inside the 3 s window", i+1, gap)
			}
		}
		next, _ := j.NextAllowed(context.Background(), "t1", "stock/movimiento")
		if d := next.Sub(answered[len(answered)-1]); d < 3*time.Second || d > 3100*time.Millisecond {
			t.Errorf("persisted window %v after the last answer, want 3 s", d)
		}
	})
}

// TestStockRowsAreTheUnit: repeated articles across chunks are all sent;
// a rerun sends nothing; an added row goes alone; a changed quantity is a
// conflict naming the quantity sent; another --max-articulos resends
// nothing.
func TestStockRowsAreTheUnit(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()
	count := stockRows(1200, 45)
	f, res := run(t, "stock.csv", count, LoadOptions{MaxArticulos: 500}, j, send, o)
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if got := statusCount(f); got[StatusOK] != 1200 {
		t.Fatalf("first run: rows %v, want all 1200 ok", got)
	}
	if n := send.count("stock"); n != 3 {
		t.Fatalf("first run: %d movements, want 3 (1200 rows by 500)", n)
	}
	articles := 0
	for _, b := range send.bodies["stock"] {
		articles += strings.Count(b, `"articuloId"`)
	}
	if articles != 1200 {
		t.Errorf("movements carried %d articles, want 1200", articles)
	}

	steps := []struct {
		name      string
		content   string
		max       int
		wantSends int
		want      map[Status]int
	}{
		{"rerun", count, 500, 0, map[Status]int{StatusSkipped: 1200}},
		{"other max-articulos", count, 25, 0, map[Status]int{StatusSkipped: 1200}},
		{"a row added", count + "1,1,6,2026-11-20,100,7\n", 500, 1, map[Status]int{StatusSkipped: 1200, StatusOK: 1}},
		{"a quantity changed", strings.Replace(count, ",100,1\n", ",100,99\n", 1), 500, 0,
			map[Status]int{StatusSkipped: 1199, StatusConflict: 1}},
	}
	for _, st := range steps {
		before := send.count("stock")
		f, res := run(t, "stock.csv", st.content, LoadOptions{MaxArticulos: st.max}, j, send, o)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if n := send.count("stock") - before; n != st.wantSends {
			t.Errorf("%s: %d movements sent, want %d", st.name, n, st.wantSends)
		}
		got := statusCount(f)
		for s, n := range st.want {
			if got[s] != n {
				t.Errorf("%s: rows %v, want %v", st.name, got, st.want)
				break
			}
		}
		if st.name == "a row added" {
			last := send.bodies["stock"][len(send.bodies["stock"])-1]
			if strings.Count(last, `"articuloId"`) != 1 || !strings.Contains(last, `"cantidad":7`) {
				t.Errorf("the new movement carried %s, want only the added row", last)
			}
		}
		if st.name == "a quantity changed" {
			r := f.Sheets[0].Requests[0]
			text := r.Result().Outcome.In("es")
			if r.Status != StatusConflict || !strings.Contains(text, "cantidad 1 ") || !strings.Contains(text, "movimiento 1001 de la API") {
				t.Errorf("conflict row: %s %q, want the quantity sent and the movement", r.Status, text)
			}
			// The journal's source ("stock.csv row 2") in the run's
			// language (issue 23, hole 13).
			if !regexp.MustCompile(`\(\S+ fila \d+\)`).MatchString(text) || strings.Contains(text, " row ") {
				t.Errorf("conflict row names its source in English: %q", text)
			}
			if en := r.Result().Outcome.In("en"); !strings.Contains(en, " row ") {
				t.Errorf("conflict row in English: %q", en)
			}
		}
	}
}

// TestConflictsAndDuplicates: a sale journaled ok with another body is a
// conflict and is not sent; the same sale in two files of one run is sent
// once.
func TestConflictsAndDuplicates(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()
	if _, res := run(t, "a.csv", oneSale, LoadOptions{}, j, send, o); res.Err != nil {
		t.Fatal(res.Err)
	}
	changed := strings.Replace(oneSale, "a@example.com", "b@example.com", 1)
	f, _ := run(t, "b.csv", changed, LoadOptions{}, j, send, o)
	if r := f.Sheets[0].Requests[0]; r.Status != StatusConflict || send.count("venta") != 1 {
		t.Errorf("changed sale: %s after %d sends, want conflict and no second send", r.Status, send.count("venta"))
	}

	other := ventaHeader + "777,c@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n"
	f1, f2 := load(t, "x.csv", other, LoadOptions{}), load(t, "y.csv", other, LoadOptions{})
	if _, err := Prepare(context.Background(), []*File{f1, f2}, j, o); err != nil {
		t.Fatal(err)
	}
	Submit(context.Background(), []*File{f1, f2}, send, j, o)
	if send.count("venta") != 2 {
		t.Errorf("the same sale in two files: %d sends in all, want 2 (one for it)", send.count("venta"))
	}
	if r := f2.Sheets[0].Requests[0]; r.Status != StatusConflict || r.Result().Outcome.Key != "sub.duprun" {
		t.Errorf("second file's copy: %s %s, want conflict naming the other file", r.Status, r.Result().Outcome.Key)
	}
}

// TestMaxErrorsStopsTheRun: after --max-errors rejections in a row nothing
// more is sent and the rest stays pending.
func TestMaxErrorsStopsTheRun(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: func(string, int) apiclient.Outcome {
		return apiclient.Outcome{Class: apiclient.Rejected, Status: 403, Written: true, Message: "El punto de venta 9 pertenece a una sucursal no habilitada"}
	}}
	var b strings.Builder
	b.WriteString(ventaHeader)
	for i := range 30 {
		fmt.Fprintf(&b, "%d,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n", 900+i)
	}
	o := fastOptions()
	o.Workers, o.MaxErrors = 1, 5
	f, res := run(t, "ventas.csv", b.String(), LoadOptions{}, j, send, o)
	if !res.MaxErrors {
		t.Fatalf("Submit = %+v, want stopped by max errors", res)
	}
	got := statusCount(f)
	if got[StatusRejected] < 5 || got[StatusRejected] > 6 || got[StatusPending] < 24 {
		t.Errorf("rows %v, want 5 (or one in flight more) rejected and the rest pending", got)
	}
}

// failingBegin is a journal that cannot record an intent, as when the disk
// fills.
type failingBegin struct{ *boltjournal.Journal }

func (failingBegin) Begin(context.Context, journal.Key, journal.Intent) (journal.Entry, error) {
	return journal.Entry{}, errors.New("write journal: no space left on device")
}

// TestJournalFailureBeforeAMovementStopsIt: once an intent cannot be made
// durable the run stops before the movement leaves.
func TestJournalFailureBeforeAMovementStopsIt(t *testing.T) {
	j := failingBegin{openJournal(t)}
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()
	f, res := run(t, "stock.csv", oneStock, LoadOptions{}, j, send, o)
	if res.Err == nil {
		t.Error("Submit reported no journal failure")
	}
	if n := send.count("stock"); n != 0 {
		t.Errorf("%d movements sent after the journal failed", n)
	}
	if r := f.Sheets[0].Requests[0]; r.Status != StatusPending {
		t.Errorf("status %s, want pending (not sent)", r.Status)
	}
}

// failingFinish is a journal that takes intents but cannot record an
// outcome, as when the database goes away between the answer and its
// record.
type failingFinish struct{ *boltjournal.Journal }

func (failingFinish) FinishAsync(context.Context, journal.Key, journal.Outcome) <-chan error {
	c := make(chan error, 1)
	c <- syscall.ENOSPC
	return c
}

// TestOutcomeNotJournaledIsSaid: a sale the API created but whose outcome
// the journal could not keep stays ok with its ids in the report, which
// says that the next run will show it as unknown and how to settle it; the
// run stops with the journal's failure in the user's words.
func TestOutcomeNotJournaledIsSaid(t *testing.T) {
	j := failingFinish{openJournal(t)}
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()
	o.Workers = 1
	f, res := run(t, "v.csv", ventaHeader+"1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n", LoadOptions{}, j, send, o)
	var me *msg.Error
	if !errors.As(res.Err, &me) || me.Msg.Key != "sub.journal.outcome" || !strings.Contains(me.In(msg.ES), "no queda espacio") {
		t.Fatalf("Submit error %v, want the journal's failure in Spanish", res.Err)
	}
	r := f.Sheets[0].Requests[0]
	out := r.Result()
	if r.Status != StatusOK || out.FacturaID == 0 {
		t.Errorf("status %s, factura %d: want ok with its id", r.Status, out.FacturaID)
	}
	if text := out.Outcome.In(msg.ES); !strings.Contains(text, "la próxima ejecución la mostrará como desconocida") || !strings.Contains(text, "journal resolve") {
		t.Errorf("row message %q does not say what the journal will show and how to settle it", text)
	}
}

// TestIntentsCarryFacts: with SubmitOptions.Facts set as the commands set
// it (reconcile.IntentFacts), a sale's intent carries what reconciliation
// narrows by, taken from the exact body sent, and keeps it once its
// outcome is unknown; a presale and a stock movement carry none.
func TestIntentsCarryFacts(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: func(kind string, n int) apiclient.Outcome {
		if kind == "venta" {
			return apiclient.Outcome{Class: apiclient.Unknown, Status: 500, Written: true, Message: "Internal Server Error"}
		}
		return okAnswers(kind, n)
	}}
	o := fastOptions()
	var asked []string
	var mu sync.Mutex
	o.Facts = func(kind string, body []byte) string {
		mu.Lock()
		asked = append(asked, kind)
		mu.Unlock()
		return reconcile.IntentFacts(kind, body)
	}
	sale := "ordenId,usuario.email,usuario.dni,puntoVentaId,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
		"601,ana@example.com,30111222,2,105,1500.5,1,1500.5,0,0,0,1500.5,EFECTIVO\n"
	run(t, "v.csv", sale, LoadOptions{}, j, send, o)
	run(t, "f.csv", "facturaId,puntoVentaId,electronica,medioPago.tipo\n1001,1,no,EFECTIVO\n", LoadOptions{}, j, send, o)
	run(t, "s.csv", oneStock, LoadOptions{}, j, send, o)

	es, err := j.List(context.Background(), "")
	if err != nil || len(es) != 3 {
		t.Fatalf("journal = %v, %v; want a sale, a presale and a movement", es, err)
	}
	for _, e := range es {
		switch e.Key.Kind {
		case "venta":
			f, ok := reconcile.JournalFacts(e)
			if e.State != journal.Unknown || !ok || f.Total == nil || f.Total.String() != "1500.5" || f.Email != "ana@example.com" ||
				f.DNI != "30111222" || f.PuntoVentaID != 2 || f.EntidadID != 0 {
				t.Errorf("sale %s (%s) has facts %q, want those of its body", e.Key, e.State, e.Facts)
			}
			if want := reconcile.IntentFacts("venta", []byte(send.bodies["venta"][0])); e.Facts != want {
				t.Errorf("sale facts %q, want those of the body sent %q", e.Facts, want)
			}
		default:
			if e.Facts != "" {
				t.Errorf("%s carries facts %q, want none", e.Key, e.Facts)
			}
		}
	}
	if strings.Join(asked, ",") != "venta,facturar,stock" {
		t.Errorf("Facts asked for %v, want once per send", asked)
	}
}

// rejectAll answers every request rejected, as the API refuses a presale
// that is not pending.
func rejectAll(string, int) apiclient.Outcome {
	return apiclient.Outcome{Class: apiclient.Rejected, Status: 200, Written: true, Message: "La preventa no está pendiente"}
}

// TestRejectedUnchangedIsNotResent: a request the API rejected is not sent
// again while it is unchanged (the report says why, and the row does not
// count as a new problem); changed, or with RetryRejected, it is sent.
func TestRejectedUnchangedIsNotResent(t *testing.T) {
	const presale = "facturaId,puntoVentaId,electronica,medioPago.tipo\n"
	steps := []struct {
		name       string
		content    string
		retry      bool
		wantSends  int
		wantBefore int // rows not sent again, rejected before
	}{
		{"first run: rejected", presale + "1006,1,no,EFECTIVO\n", false, 1, 0},
		{"rerun, unchanged: not sent", presale + "1006,1,no,EFECTIVO\n", false, 0, 1},
		{"again: still not sent", presale + "1006,1,no,EFECTIVO\n", false, 0, 1},
		{"--retry-rejected: sent", presale + "1006,1,no,EFECTIVO\n", true, 1, 0},
		{"changed: sent", presale + "1006,2,no,EFECTIVO\n", false, 1, 0},
		{"a new row beside it: only the new one is sent", presale + "1006,2,no,EFECTIVO\n1007,1,no,EFECTIVO\n", false, 1, 1},
	}
	j := openJournal(t)
	send := &fakeSender{answer: rejectAll}
	for _, st := range steps {
		o := fastOptions()
		o.RetryRejected = st.retry
		before := send.count("facturar")
		f, res := run(t, "facturar.csv", st.content, LoadOptions{}, j, send, o)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if n := send.count("facturar") - before; n != st.wantSends {
			t.Errorf("%s: %d requests sent, want %d", st.name, n, st.wantSends)
		}
		if got := f.RejectedBefore(); got != st.wantBefore {
			t.Errorf("%s: %d rows rejected before, want %d", st.name, got, st.wantBefore)
		}
		r := f.Sheets[0].Requests[0]
		if r.Status != StatusRejected {
			t.Errorf("%s: status %s, want rejected", st.name, r.Status)
		}
		if st.wantBefore > 0 {
			text := r.Result().Outcome.In(msg.ES)
			if !strings.Contains(text, "La preventa no está pendiente") || !strings.Contains(text, "no cambió") || !strings.Contains(text, "--retry-rejected") {
				t.Errorf("%s: message %q does not say why it was not sent again", st.name, text)
			}
			if page := msg.ForPage(r.Result().Outcome).In(msg.ES); strings.Contains(page, "--") {
				t.Errorf("%s: the page's wording names a flag: %q", st.name, page)
			}
		}
	}
}

// TestRejectedMovementHeldBackWhole: the rows of a rejected movement are
// not sent again while every one of them is here unchanged; once one is
// fixed, the others go again with it (the rejection may have been its).
func TestRejectedMovementHeldBackWhole(t *testing.T) {
	j := openJournal(t)
	var reject atomic.Bool
	reject.Store(true)
	send := &fakeSender{answer: func(kind string, n int) apiclient.Outcome {
		if reject.Load() {
			return apiclient.Outcome{Class: apiclient.Rejected, Status: 400, Written: true, Message: "El articulo 999 no existe"}
		}
		return okAnswers(kind, n)
	}}
	two := stockHeader + "1,1,6,2026-11-20,100,1\n1,1,6,2026-11-20,999,1\n"
	steps := []struct {
		name       string
		content    string
		reject     bool
		wantSends  int
		wantBefore int
		want       map[Status]int
	}{
		{"first run: rejected", two, true, 1, 0, map[Status]int{StatusRejected: 2}},
		{"rerun, unchanged: held back", two, true, 0, 2, map[Status]int{StatusRejected: 2}},
		{"the bad row fixed: both go", strings.Replace(two, ",999,1", ",999,2", 1), false, 1, 0, map[Status]int{StatusOK: 2}},
	}
	for _, st := range steps {
		reject.Store(st.reject)
		before := send.count("stock")
		f, res := run(t, "stock.csv", st.content, LoadOptions{}, j, send, fastOptions())
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if n := send.count("stock") - before; n != st.wantSends {
			t.Errorf("%s: %d movements sent, want %d", st.name, n, st.wantSends)
		}
		if got := f.RejectedBefore(); got != st.wantBefore {
			t.Errorf("%s: %d rows rejected before, want %d", st.name, got, st.wantBefore)
		}
		if got := statusCount(f); !maps.Equal(got, st.want) {
			t.Errorf("%s: rows %v, want %v", st.name, got, st.want)
		}
	}
}

// TestRefusalsBeforeProcessingAreResent: a request the API refused before
// processing it (a refused token, a rate window whose resends ran out) is
// journaled rejected but is no rejection of its content: the next run
// sends it again unchanged.
func TestRefusalsBeforeProcessingAreResent(t *testing.T) {
	tests := []struct {
		name   string
		answer apiclient.Outcome
	}{
		{"a refused token", apiclient.Outcome{Class: apiclient.Abort, Status: 401, Written: true, Message: "Token invalido"}},
		{"a rate window", apiclient.Outcome{Class: apiclient.Resend, Status: 403, Written: true, Message: "Debe esperar 1 segundos entre cada solicitud", Wait: time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := openJournal(t)
			refuse := &fakeSender{answer: func(string, int) apiclient.Outcome { return tc.answer }}
			if _, res := run(t, "ventas.csv", oneSale, LoadOptions{}, j, refuse, fastOptions()); res.Err != nil {
				t.Fatal(res.Err)
			}
			send := &fakeSender{answer: okAnswers}
			f, res := run(t, "ventas.csv", oneSale, LoadOptions{}, j, send, fastOptions())
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			if n := send.count("venta"); n != 1 || f.RejectedBefore() != 0 {
				t.Errorf("rerun: %d sent, %d rows rejected before; want it sent", n, f.RejectedBefore())
			}
			if r := f.Sheets[0].Requests[0]; r.Status != StatusOK {
				t.Errorf("rerun: %s (%s), want ok", r.Status, r.Result().Outcome.In(msg.ES))
			}
		})
	}
}
