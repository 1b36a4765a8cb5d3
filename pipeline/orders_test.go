package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/schema"
)

const pedidoHeader = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,pagado,medioPago.tipo\n"

// pedidos is an orders file of orders 1..n; those in paid carry pagado
// and a cash payment.
func pedidos(n int, paid map[int]bool) string {
	var b strings.Builder
	b.WriteString(pedidoHeader)
	for i := 1; i <= n; i++ {
		pago, medio := "", ""
		if paid[i] {
			pago, medio = "si", "EFECTIVO"
		}
		fmt.Fprintf(&b, "%d,c%d@example.com,105,10,1,10,0,0,0,10,%s,%s\n", i, i, pago, medio)
	}
	return b.String()
}

func TestOrders_KindFromTheName(t *testing.T) {
	tests := []struct {
		name, content string
		want          schema.Kind
	}{
		{"pedidos.csv", pedidos(1, nil), schema.Pedido},
		{"Pedidos.csv", pedidos(1, nil), schema.Pedido},
		{"cancelaciones.csv", "facturaId\n5001\n", schema.Cancelar},
		{"ventas.csv", oneSale, schema.Venta},
		// Its reports fed back are orders too, never sales.
		{"pedidos.errors.csv", pedidos(1, nil), schema.Pedido},
		{"pedidos.errors-2.csv", pedidos(1, nil), schema.Pedido},
		{"libro.pedidos.result.csv", pedidos(1, nil), schema.Pedido},
		{"pedidos (a).result.csv", pedidos(1, nil), schema.Pedido},
		{"cancelaciones.errors.csv", "facturaId\n5001\n", schema.Cancelar},
		// A header of another key is what it says.
		{"pedidos.csv", stockHeader + "1,1,6,2026-11-20,100,1\n", schema.Stock},
		{"pedidos.cancelaciones.csv", pedidos(1, nil), schema.Venta},
		{"presales.csv", "facturaId,puntoVentaId,electronica,medioPago.tipo\n1001,1,no,EFECTIVO\n", schema.Facturar},
	}
	for _, tt := range tests {
		f := load(t, tt.name, tt.content, LoadOptions{})
		if got := f.Sheets[0].Kind; got != tt.want {
			t.Errorf("%s: kind %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestOrders_Validation(t *testing.T) {
	tests := []struct {
		name, row string
		valid     bool
	}{
		{"unpaid", "1,a@example.com,105,10,1,10,0,0,0,10,,", true},
		{"paid", "1,a@example.com,105,10,1,10,0,0,0,10,si,EFECTIVO", true},
		{"payment without pagado", "1,a@example.com,105,10,1,10,0,0,0,10,,TARJETA", false}, // TARJETA needs tarjetaId
		{"pagado without payment", "1,a@example.com,105,10,1,10,0,0,0,10,si,", false},
		{"totals off by a cent", "1,a@example.com,105,10,1,10,0,0,0,10.01,,", false},
		{"no customer", "1,,105,10,1,10,0,0,0,10,,", false},
	}
	for _, tt := range tests {
		f := load(t, "pedidos.csv", pedidoHeader+tt.row+"\n", LoadOptions{})
		r := f.Sheets[0].Requests[0]
		if (r.Status == StatusValid) != tt.valid {
			t.Errorf("%s: status %s (%s), want valid=%v", tt.name, r.Status, f.Sheets[0].RowMessage(0, "es"), tt.valid)
		}
	}
	f := load(t, "cancelaciones.csv", "facturaId\n5001\n0\n5001\n", LoadOptions{})
	got := []Status{}
	for _, r := range f.Sheets[0].Requests {
		got = append(got, r.Status)
	}
	if fmt.Sprint(got) != fmt.Sprint([]Status{StatusValid, StatusInvalid, StatusInvalid}) {
		t.Errorf("cancellations: %v, want valid, invalid (0), invalid (repeated)", got)
	}
}

// TestOrders_CreatePayCancelExactlyOnce: each order is created once, its
// paid update sent once and only for the rows that now say pagado, a
// cancellation once; reruns send nothing and a changed order is a
// conflict.
func TestOrders_CreatePayCancelExactlyOnce(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()

	f, res := run(t, "pedidos.csv", pedidos(5, nil), LoadOptions{}, j, send, o)
	if res.Err != nil || send.count("pedido") != 5 || f.Orders() != (OrderCounts{Created: 5}) {
		t.Fatalf("first run: %+v, %d sent, %+v", res, send.count("pedido"), f.Orders())
	}
	first := map[string]int64{}
	for _, r := range f.Sheets[0].Requests {
		first[r.Key] = r.Result().FacturaID
	}
	f, _ = run(t, "pedidos.csv", pedidos(5, nil), LoadOptions{}, j, send, o)
	if send.count("pedido") != 5 || statusCount(f)[StatusSkipped] != 5 {
		t.Fatalf("rerun sent %d, statuses %v", send.count("pedido")-5, statusCount(f))
	}
	for _, r := range f.Sheets[0].Requests {
		if id := r.Result().FacturaID; id == 0 || id != first[r.Key] {
			t.Errorf("skipped order %s shows facturaId %d, want the creation's %d", r.Key, id, first[r.Key])
		}
	}

	paid := map[int]bool{2: true, 4: true}
	f, _ = run(t, "pedidos.csv", pedidos(5, paid), LoadOptions{}, j, send, o)
	if send.count("pedido") != 7 || f.Orders() != (OrderCounts{Paid: 2}) {
		t.Fatalf("paid run: %d sent in all, %+v, statuses %v", send.count("pedido"), f.Orders(), statusCount(f))
	}
	for _, b := range send.bodies["pedido"][5:] {
		if !strings.Contains(b, `"pagado":true`) || !strings.Contains(b, `"medioPago"`) {
			t.Errorf("update body %s", b)
		}
	}
	for i, r := range f.Sheets[0].Requests {
		if paid[i+1] != r.update || (r.update && r.Label().Key != "req.pago") {
			t.Errorf("order %s: update=%v label %s", r.Key, r.update, r.Label().Key)
		}
		if want := map[bool]string{true: "sub.ok.pagado", false: "sub.skipped"}[paid[i+1]]; r.Result().Outcome.Key != want {
			t.Errorf("order %s says %s, want %s", r.Key, r.Result().Outcome.Key, want)
		}
	}
	f, _ = run(t, "pedidos.csv", pedidos(5, paid), LoadOptions{}, j, send, o)
	if send.count("pedido") != 7 || statusCount(f)[StatusSkipped] != 5 {
		t.Fatalf("paid rerun sent %d, statuses %v", send.count("pedido")-7, statusCount(f))
	}

	changed := strings.Replace(pedidos(5, paid), "3,c3@example.com", "3,otro@example.com", 1)
	f, _ = run(t, "pedidos.csv", changed, LoadOptions{}, j, send, o)
	if send.count("pedido") != 7 || f.Sheets[0].Requests[2].Status != StatusConflict {
		t.Fatalf("changed order: sent %d, status %s", send.count("pedido")-7, f.Sheets[0].Requests[2].Status)
	}

	f, _ = run(t, "cancelaciones.csv", "facturaId\n1001\n1002\n", LoadOptions{}, j, send, o)
	if send.count("cancelar") != 2 || f.Orders() != (OrderCounts{Cancelled: 2}) {
		t.Fatalf("cancel: %d sent, %+v", send.count("cancelar"), f.Orders())
	}
	// Workers send concurrently: the bodies in any order.
	if b := send.bodies["cancelar"]; !slices.Contains(b, `{"facturaId":1001}`) || !slices.Contains(b, `{"facturaId":1002}`) {
		t.Errorf("cancel bodies %v", b)
	}
	if id := f.Sheets[0].Requests[1].Result().FacturaID; id != 1002 {
		t.Errorf("cancelled order shows facturaId %d, want 1002", id)
	}
	run(t, "cancelaciones.csv", "facturaId\n1001\n1002\n", LoadOptions{}, j, send, o)
	if send.count("cancelar") != 2 {
		t.Errorf("cancel rerun sent %d", send.count("cancelar")-2)
	}
}

// TestOrders_UnknownIsNeverResent: an order whose answer was lost stays
// unknown, and so does its paid update.
func TestOrders_UnknownIsNeverResent(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: func(kind string, n int) apiclient.Outcome {
		return apiclient.Outcome{Class: apiclient.Unknown, Status: 0, Written: true}
	}}
	o := fastOptions()
	f, _ := run(t, "pedidos.csv", pedidos(1, nil), LoadOptions{}, j, send, o)
	if r := f.Sheets[0].Requests[0]; r.Status != StatusUnknown || r.Result().Outcome.Key != "sub.unknown.pedido" {
		t.Fatalf("status %s (%s), want unknown saying orders are in no export", r.Status, r.Result().Outcome.Key)
	}
	if e, ok, err := j.Get(context.Background(), journal.Key{Tenant: o.Tenant, Kind: "pedido", Business: "1"}); err != nil || !ok ||
		e.State != journal.Unknown || !strings.Contains(e.Message, "exportaciones de ventas") {
		t.Fatalf("journal entry %+v, want unknown saying orders are in no export", e)
	}
	for _, content := range []string{pedidos(1, nil), pedidos(1, map[int]bool{1: true})} {
		f, _ = run(t, "pedidos.csv", content, LoadOptions{}, j, send, o)
		if send.count("pedido") != 1 || f.Sheets[0].Requests[0].Status != StatusUnknown {
			t.Fatalf("rerun sent %d, status %s", send.count("pedido"), f.Sheets[0].Requests[0].Status)
		}
	}
}

// TestOrders_UpdateWaitsTheHold: the paid update leaves after the hold the
// creation took on the numero, never inside it.
func TestOrders_UpdateWaitsTheHold(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	o := fastOptions()
	o.TimeScale = 0.01 // a 0.3 s hold
	run(t, "pedidos.csv", pedidos(1, nil), LoadOptions{}, j, send, o)
	f := load(t, "pedidos.csv", pedidos(1, map[int]bool{1: true}), LoadOptions{})
	if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
		t.Fatal(err)
	}
	sd := f.Sheets[0].pending[0]
	if sd.Key != "1/pagado" || sd.NotBefore.IsZero() {
		t.Fatalf("update send %+v", sd)
	}
	Submit(t.Context(), []*File{f}, send, j, o)
	send.mu.Lock()
	at := send.at["pedido"]
	send.mu.Unlock()
	if len(at) != 2 || at[1].Before(sd.NotBefore) {
		t.Errorf("update sent at %v, before its hold ended at %v", at, sd.NotBefore)
	}
}
