package sandbox

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// pedido is a valid order of the demo data: 2 × 100.50 to customer 500,
// not paid.
func pedido(orden int64) *nxapi.Pedido {
	p := venta(orden)
	return &nxapi.Pedido{OrdenID: p.OrdenID, Numero: p.Numero, EntidadID: p.EntidadID, Productos: p.Productos,
		Subtotal: p.Subtotal, Descuento: p.Descuento, Recargo: p.Recargo, Envio: p.Envio, Total: p.Total}
}

// pagado is order orden marked paid in cash.
func pagado(orden int64) *nxapi.Pedido {
	p := pedido(orden)
	p.Pagado, p.MedioPago = true, &nxapi.MedioPago{Tipo: nxapi.Efectivo}
	return p
}

func cancelarPath(id int64) string {
	return fmt.Sprintf("%s?%s=%d", nxapi.PathPedidoCancelar, sendrules.CancelQuery, id)
}

func (h *harness) pedidos() map[int64]Pedido {
	out := map[int64]Pedido{}
	for _, p := range h.s.State().Pedidos {
		out[p.OrdenID] = p
	}
	return out
}

func TestOrders_CreateAsPresaleOrReservation(t *testing.T) {
	tests := []struct {
		config string
		tipo   int
	}{
		{"", nxapi.ComprobantePreventa},
		{PedidoPreventa, nxapi.ComprobantePreventa},
		{PedidoReserva, PedidoTipoReserva},
	}
	for _, tt := range tests {
		d := DemoData()
		d.Config.Pedidos = tt.config
		h := newHarnessWith(t, d, Options{})
		res := h.do("POST", nxapi.PathPedido, pedido(9001)).result(t)
		if res.Errores || res.FacturaID <= 0 || res.Numero != 9001 {
			t.Fatalf("%q: %+v", tt.config, res)
		}
		got := h.pedidos()[9001]
		if got.Tipo != tt.tipo || got.Estado != estadoPendiente || got.FacturaID != int64(res.FacturaID) {
			t.Errorf("%q: order %+v, want tipo %d PENDIENTE", tt.config, got, tt.tipo)
		}
		// GET /comprobante reads it back with its ordenId; the exports
		// of sales never show it.
		var c nxapi.Comprobante
		if err := nxapi.Decode([]byte(h.do("GET", fmt.Sprint(nxapi.PathComprobante, res.FacturaID), nil).body), &c); err != nil {
			t.Fatal(err)
		}
		if o, ok := c.OrdenID.Int(); !ok || o != 9001 || c.ComprobanteTipo != tt.tipo {
			t.Errorf("%q: comprobante %+v", tt.config, c)
		}
		if len(h.s.State().Vouchers) != 0 {
			t.Errorf("%q: an order became a sale", tt.config)
		}
	}
	d := DemoData()
	d.Config.Pedidos = "venta"
	if _, err := New(d, Options{}); err == nil {
		t.Error("an unknown config.pedidos was accepted")
	}
}

func TestOrders_PathCaseAndBody(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", "/integraciones/terceros/pedido", pedido(9001)).expect(t, http.StatusOK, `"facturaId"`)
	bad := pedido(9002)
	bad.Numero = 0
	h.do("POST", nxapi.PathPedido, bad).expect(t, http.StatusBadRequest, msgPedidoInvalido)
	bad = pedido(9003)
	bad.Productos = nil
	h.do("POST", nxapi.PathPedido, bad).expect(t, http.StatusBadRequest, msgPedidoInvalido)
	noMedio := pedido(9004)
	noMedio.Pagado = true
	h.do("POST", nxapi.PathPedido, noMedio).expect(t, http.StatusBadRequest, nxapi.MsgMedioPagoReq)
	tot := pedido(9005)
	tot.Total = dec("200")
	h.do("POST", nxapi.PathPedido, tot).expect(t, http.StatusOK, nxapi.MsgTotales)
	if n := len(h.pedidos()); n != 1 {
		t.Errorf("%d orders, want only the valid one", n)
	}
}

func TestOrders_HoldPerNumero30s(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathPedido, pedido(9001)).expect(t, http.StatusOK, `"facturaId"`)
	h.clock.Advance(sendrules.KeyHold - 1)
	// Inside the hold even the paid update is "ya se esta procesando".
	h.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusBadRequest, nxapi.MsgEnProceso)
	h.clock.Advance(1)
	res := h.do("POST", nxapi.PathPedido, pagado(9001)).result(t)
	if res.Errores {
		t.Fatalf("paid update after the hold refused: %+v", res)
	}
	if p := h.pedidos()[9001]; p.Estado != "PAGADO" || p.Pagos != 1 || len(h.pedidos()) != 1 {
		t.Errorf("after the update: %+v", h.pedidos())
	}
}

func TestOrders_ResendOfExistingRefusedNothingCreated(t *testing.T) {
	h := newHarness(t, Options{})
	first := h.do("POST", nxapi.PathPedido, pedido(9001)).result(t)
	h.clock.Advance(sendrules.KeyHold)
	h.do("POST", nxapi.PathPedido, pedido(9001)).expect(t, http.StatusOK, fmt.Sprintf(msgPedidoExiste, 9001))
	h.clock.Advance(sendrules.KeyHold)
	h.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusOK, `"errores":false`)
	h.clock.Advance(sendrules.KeyHold)
	// A second paid update is refused too.
	h.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusOK, fmt.Sprintf(msgPedidoPagado, 9001))
	ps := h.pedidos()
	if len(ps) != 1 || ps[9001].FacturaID != int64(first.FacturaID) || ps[9001].Pagos != 1 {
		t.Errorf("orders %+v, want one, paid once", ps)
	}
}

func TestOrders_CreatedPaid(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusOK, `"errores":false`)
	if p := h.pedidos()[9001]; p.Estado != "PAGADO" || p.Pagos != 0 {
		t.Errorf("%+v: want PAGADO at creation, no update", p)
	}
}

func TestOrders_CancelFromPendienteOrPagadoOnly(t *testing.T) {
	h := newHarness(t, Options{})
	pend := h.do("POST", nxapi.PathPedido, pedido(9001)).result(t)
	paid := h.do("POST", nxapi.PathPedido, pagado(9002)).result(t)
	for _, id := range []nxapi.ID{pend.FacturaID, paid.FacturaID} {
		if nx := h.do("POST", cancelarPath(int64(id)), nil).nx(t); nx.Tipo != nxapi.NxOK {
			t.Errorf("cancel %d: %+v", id, nx)
		}
	}
	ps := h.pedidos()
	if ps[9001].Estado != estadoAnulado || ps[9002].Estado != estadoAnulado {
		t.Errorf("after cancelling: %+v", ps)
	}
	// Cancelled already: refused, tipo 2.
	again := h.do("POST", cancelarPath(int64(pend.FacturaID)), nil)
	if nx := again.nx(t); again.status != http.StatusOK || nx.Tipo != nxapi.NxValidacion {
		t.Errorf("second cancel: %d %+v", again.status, nx)
	}
	// A cancelled order takes no paid update.
	h.clock.Advance(sendrules.KeyHold)
	h.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusOK, `"errores":true`)
	// A presale that is no order, an unknown id, no id.
	h.do("POST", cancelarPath(1001), nil).expect(t, http.StatusNotFound, fmt.Sprintf(msgPedidoNo, 1001))
	h.do("POST", cancelarPath(777777), nil).expect(t, http.StatusNotFound, "777777")
	h.do("POST", nxapi.PathPedidoCancelar, nil).expect(t, http.StatusBadRequest, nxapi.MsgFacturaIDReq)
	// The parameter's case does not matter.
	p3 := h.do("POST", nxapi.PathPedido, pedido(9003)).result(t)
	h.do("POST", fmt.Sprintf("%s?facturaId=%d", nxapi.PathPedidoCancelar, p3.FacturaID), nil).expect(t, http.StatusOK, `"tipo":1`)
}

func TestOrders_FacturarConvertsAnOrderPresale(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.do("POST", nxapi.PathPedido, pedido(9001)).result(t)
	h.do("POST", nxapi.PathFacturar, facturar(int64(res.FacturaID))).expect(t, http.StatusOK, `"errores":false`)
	if p := h.pedidos()[9001]; p.Estado != estadoFacturaVenta {
		t.Errorf("%+v", p)
	}
	h.do("POST", cancelarPath(int64(res.FacturaID)), nil).expect(t, http.StatusOK, `"tipo":2`)
}

func TestOrders_StateSurvivesRestart(t *testing.T) {
	file := t.TempDir() + "/state.json"
	h := newHarness(t, Options{StateFile: file})
	res := h.do("POST", nxapi.PathPedido, pedido(9001)).result(t)
	h.s.Close()
	h2 := newHarness(t, Options{StateFile: file})
	// The hold and the order survive: a resend inside the hold is "en
	// proceso", after it "ya existe", and the paid update applies.
	h2.clock.t = h.clock.Now()
	h2.do("POST", nxapi.PathPedido, pedido(9001)).expect(t, http.StatusBadRequest, nxapi.MsgEnProceso)
	h2.clock.Advance(sendrules.KeyHold)
	h2.do("POST", nxapi.PathPedido, pedido(9001)).expect(t, http.StatusOK, fmt.Sprintf(msgPedidoExiste, 9001))
	h2.clock.Advance(sendrules.KeyHold)
	h2.do("POST", nxapi.PathPedido, pagado(9001)).expect(t, http.StatusOK, `"errores":false`)
	if p := h2.pedidos()[9001]; p.FacturaID != int64(res.FacturaID) || p.Pagos != 1 {
		t.Errorf("%+v", p)
	}
}
