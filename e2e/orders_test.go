package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// Counter keys of the order endpoints (the sandbox counts them under its
// lower-case patterns).
var (
	postPedido   = "POST " + strings.ToLower(nxapi.PathPedido)
	postCancelar = "POST " + strings.ToLower(nxapi.PathPedidoCancelar)
)

const pedidosHeader = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,pagado,medioPago.tipo\n"

// writePedidos writes pedidos.csv in dir: n one-line orders with ordenIds
// from first on, those in paid marked pagado in cash.
func writePedidos(t *testing.T, dir string, n int, first int64, paid map[int64]bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(pedidosHeader)
	for i := range int64(n) {
		pago, medio := "", ""
		if paid[first+i] {
			pago, medio = "si", "EFECTIVO"
		}
		fmt.Fprintf(&b, "%d,cliente%d@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,%s,%s\n", first+i, first+i, pago, medio)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pedidos.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ordersByOrden groups the sandbox's orders by ordenId.
func ordersByOrden(st sandbox.State) map[int64][]sandbox.Pedido {
	m := map[int64][]sandbox.Pedido{}
	for _, p := range st.Pedidos {
		m[p.OrdenID] = append(m[p.OrdenID], p)
	}
	return m
}

// noDuplicateOrders fails when an ordenId has more than one order or an
// order was paid more than once.
func noDuplicateOrders(t *testing.T, st sandbox.State) {
	t.Helper()
	for o, ps := range ordersByOrden(st) {
		if len(ps) > 1 {
			t.Errorf("ordenId %d has %d orders", o, len(ps))
		}
		for _, p := range ps {
			if p.Pagos > 1 {
				t.Errorf("ordenId %d was marked paid %d times", o, p.Pagos)
			}
		}
	}
}

// TestOrdersExactlyOnce kills the real binary with SIGKILL at random
// instants of a 50-order run against a slow sandbox, then runs it to the
// end: at most one order per ordenId, none lost (each created, or unknown
// for exactly the requests in flight at a kill). A file marking 10 of them
// paid updates exactly those, a cancel file of 5 cancels them, and reruns
// send nothing.
func TestOrdersExactlyOnce(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 20 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	const orders, workers, first = 50, 2, 880001
	input := writePedidos(t, filepath.Join(w.dir, "in"), orders, first, nil)
	args := w.runArgs("--workers", strconv.Itoa(workers), "--rate", "0", input)

	rng := rand.New(rand.NewPCG(24, 50))
	inFlight := map[string]bool{}
	for range 3 {
		killAt := sum(sb.Server.State(), postPedido) + 1 + rng.IntN(10)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd, out, errb := w.command(ctx, args...)
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
	poll:
		for {
			select {
			case err := <-waited:
				t.Fatalf("the run ended before %d requests reached the sandbox: %s", killAt, ended(t, err, out, errb))
			case <-time.After(time.Millisecond):
				if sum(sb.Server.State(), postPedido) >= killAt {
					if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
						t.Fatal(err)
					}
					break poll
				}
			}
		}
		<-waited
		cancel()
		j, err := journal.Open(w.journal(), journal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		unknown, err := j.List(context.Background(), journal.Unknown)
		j.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range unknown {
			inFlight[e.Key.Business] = true
		}
		noDuplicateOrders(t, sb.Server.State())
	}
	res := w.nx(t, args...)
	if want := map[bool]int{true: 3, false: 0}[len(inFlight) > 0]; res.code != want {
		t.Errorf("final run: exit %d, want %d\n%s", res.code, want, res)
	}
	st := sb.Server.State()
	noDuplicateOrders(t, st)
	byOrden := ordersByOrden(st)
	rows := w.readReport(t, input)
	if len(rows) != orders {
		t.Fatalf("report has %d rows, want %d", len(rows), orders)
	}
	created := map[int64]int64{} // ordenId -> facturaId of the orders the report names
	for _, r := range rows {
		orden := r["ordenId"]
		ps := byOrden[id(t, orden)]
		switch r["result.status"] {
		case "ok", "skipped":
			if len(ps) != 1 || ps[0].FacturaID != id(t, r["result.facturaId"]) {
				t.Errorf("ordenId %s is %s with facturaId %s; the sandbox holds %+v", orden, r["result.status"], r["result.facturaId"], ps)
				continue
			}
			created[id(t, orden)] = ps[0].FacturaID
		case "unknown":
			if !inFlight[orden] {
				t.Errorf("ordenId %s is unknown but was not in flight at any kill", orden)
			}
		default:
			t.Errorf("ordenId %s: status %q (%s)", orden, r["result.status"], r["result.message"])
		}
	}
	if n := sum(st, postPedido); n > orders {
		t.Errorf("%d requests reached /Pedido for %d orders: something was resent", n, orders)
	}
	t.Logf("%d orders created, %d unknown after kills", len(created), len(inFlight))

	// Mark 10 created orders paid: exactly those are updated, no order is
	// created.
	paid := map[int64]bool{}
	for o := range created {
		if len(paid) == 10 {
			break
		}
		paid[o] = true
	}
	before := len(st.Pedidos)
	paidInput := writePedidos(t, filepath.Join(w.dir, "pagos"), orders, first, paid)
	paidArgs := w.runArgs("--workers", strconv.Itoa(workers), "--rate", "0", paidInput)
	w.nx(t, paidArgs...)
	st = sb.Server.State()
	if len(st.Pedidos) != before {
		t.Errorf("the paid file created %d orders", len(st.Pedidos)-before)
	}
	for _, p := range st.Pedidos {
		if paid[p.OrdenID] != (p.Pagos == 1) || paid[p.OrdenID] != (p.Estado == "PAGADO") {
			t.Errorf("order %d: %+v, paid in the file: %v", p.OrdenID, p, paid[p.OrdenID])
		}
	}
	if s := w.readSummary(t, paidInput); s.Orders == nil || s.Orders.Paid != 10 || s.Orders.Created != 0 {
		t.Errorf("paid summary: %+v", s.Orders)
	}

	// Cancel 5 of them (3 paid, 2 not, when there are).
	var cancelPaid, cancelPending []int64
	for o, f := range created {
		if paid[o] && len(cancelPaid) < 3 {
			cancelPaid = append(cancelPaid, f)
		} else if !paid[o] && len(cancelPending) < 2 {
			cancelPending = append(cancelPending, f)
		}
	}
	cancel := append(cancelPaid, cancelPending...)
	if len(cancel) != 5 {
		t.Fatalf("only %d orders to cancel", len(cancel))
	}
	var cb strings.Builder
	cb.WriteString("facturaId\n")
	for _, f := range cancel {
		fmt.Fprintf(&cb, "%d\n", f)
	}
	cancelInput := filepath.Join(w.dir, "cancelaciones.csv")
	if err := os.WriteFile(cancelInput, []byte(cb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cancelArgs := w.runArgs(cancelInput)
	if res := w.nx(t, cancelArgs...); res.code != 0 {
		t.Errorf("cancel run: %s", res)
	}
	st = sb.Server.State()
	cancelled := 0
	for _, p := range st.Pedidos {
		if p.Estado == "ANULADO" {
			cancelled++
		}
	}
	if cancelled != len(cancel) || sum(st, postCancelar) != len(cancel) {
		t.Errorf("%d orders cancelled by %d requests, want %d", cancelled, sum(st, postCancelar), len(cancel))
	}

	// Reruns of every file send nothing.
	sent := sum(st, postPedido) + sum(st, postCancelar)
	for _, a := range [][]string{args, paidArgs, cancelArgs} {
		w.nx(t, a...)
	}
	st = sb.Server.State()
	if again := sum(st, postPedido) + sum(st, postCancelar); again != sent {
		t.Errorf("reruns sent %d requests", again-sent)
	}
	noDuplicateOrders(t, st)
}

// TestOrdersDroppedAnswerStaysUnknown: an order whose answer the sandbox
// drops (it was created) is unknown, and no rerun sends it again, nor its
// paid update.
func TestOrdersDroppedAnswerStaysUnknown(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{DropAfter: 1, Seed: 1})
	w := newWorkspace(t, sb.URL)
	input := writePedidos(t, filepath.Join(w.dir, "in"), 1, 770001, nil)
	res := w.nx(t, w.runArgs(input)...)
	if res.code != 3 {
		t.Errorf("exit %d, want 3 (unknown)\n%s", res.code, res)
	}
	for _, paid := range []map[int64]bool{nil, {770001: true}} {
		in := writePedidos(t, filepath.Join(w.dir, "in"), 1, 770001, paid)
		w.nx(t, w.runArgs(in)...)
		rows := w.readReport(t, in)
		if rows[0]["result.status"] != "unknown" {
			t.Errorf("rerun: status %s (%s), want unknown", rows[0]["result.status"], rows[0]["result.message"])
		}
	}
	// reconcile cannot find it (orders are in no export, and its id was
	// lost with the answer): it stays unknown, saying what to check.
	rec := w.nx(t, w.recArgs("--kind", "pedido")...)
	if !strings.Contains(rec.stdout+rec.stderr, "770001") {
		t.Errorf("reconcile does not name the order:\n%s", rec)
	}
	if u := unknownKeys(recEntries(t, w), "pedido"); len(u) != 1 || !strings.Contains(u["770001"].Message, "exportaciones de ventas") {
		t.Errorf("journal's unknown orders %+v, want 770001 saying orders are in no export", u)
	}
	st := sb.Server.State()
	if n := sum(st, postPedido); n != 1 {
		t.Errorf("%d requests reached /Pedido, want the one whose answer was lost", n)
	}
	if len(st.Pedidos) != 1 || st.Pedidos[0].Pagos != 0 {
		t.Errorf("orders %+v, want one, never paid", st.Pedidos)
	}
}
