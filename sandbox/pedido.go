package sandbox

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// What POST /Pedido creates, per DataConfig.Pedidos.
const (
	PedidoPreventa = "preventa" // a presale, comprobanteTipo 33 (the default)
	PedidoReserva  = "reserva"  // a reservation, comprobanteTipo PedidoTipoReserva
)

// PedidoTipoReserva is the comprobanteTipo of a reservation. The ERP's code
// is not public: this one is the sandbox's own, and no client decides
// anything from it.
const PedidoTipoReserva = 34 // sandbox's own

// estadoAnulado names the state of a cancelled order; the spec does not
// name it ("cancelled (name of the resulting state: not shown)").
const estadoAnulado = "ANULADO" // sandbox's own

// Texts of the order rules the spec states without a message.
const (
	msgPedidoInvalido = "Los datos del pedido son invalidos"                    // sandbox's own
	msgPedidoExiste   = "El pedido con ordenId %d ya existe"                    // sandbox's own
	msgPedidoPagado   = "El pedido con ordenId %d ya esta PAGADO"               // sandbox's own
	msgPedidoEstado   = "El pedido con ordenId %d no puede cambiar (estado %s)" // sandbox's own
	msgPedidoNoCancel = "El pedido %d no esta PENDIENTE ni PAGADO (estado %s)"  // sandbox's own
	msgPedidoNo       = "El pedido %d no existe"                                // sandbox's own
)

// Pedido is an order the sandbox holds, for tests (State.Pedidos).
type Pedido struct {
	FacturaID int64  `json:"facturaId"`
	OrdenID   int64  `json:"ordenId"`
	Tipo      int    `json:"comprobanteTipo"`
	Estado    string `json:"estado"`
	// Pagos counts the paid updates applied to it (0 or 1: an order
	// created paid counts none).
	Pagos int `json:"pagos"`
}

// pedidoOp is a POST /Pedido on its way through create: a new order, or
// the paid update of one that exists (upd set by check).
type pedidoOp struct {
	s     *Server
	p     *nxapi.Pedido
	pv    DataPuntoVenta
	items []nxapi.ComprobanteItem
	upd   *comprobante
}

func (s *Server) preparePedido(c *call) (creation, *refusal) {
	var p nxapi.Pedido
	if err := c.decode(&p); err != nil || p.Numero <= 0 || !ventaBodyOK(p.Venta()) {
		return nil, refuse(http.StatusBadRequest, msgPedidoInvalido)
	}
	if p.Pagado && p.MedioPago == nil {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgMedioPagoReq)
	}
	return &pedidoOp{s: s, p: &p}, nil
}

// pedidoOf is the order this integration created for ordenId; s.mu held.
func (s *Server) pedidoOf(orden int64) *comprobante {
	for _, cp := range s.comprobantes {
		if cp.pedido && cp.propio {
			if o, ok := cp.c.OrdenID.Int(); ok && o == orden {
				return cp
			}
		}
	}
	return nil
}

func (o *pedidoOp) check(now time.Time) *refusal {
	s, p := o.s, o.p
	if t, ok := s.pedidoSeen[p.Numero]; ok && now.Sub(t) < s.scaled(sendrules.KeyHold) {
		return refuseDuplicate()
	}
	if p.MedioPago != nil {
		if _, ok := nxapi.TipoMedioNames[p.MedioPago.Tipo]; !ok {
			return refuse(http.StatusBadRequest, nxapi.MsgMedioNoCompatible)
		}
		if ref := s.checkMedio(p.MedioPago); ref != nil {
			return ref
		}
	}
	if cp := s.pedidoOf(p.OrdenID); cp != nil {
		// A resend of an order that exists: the paid update when it
		// carries pagado, refused otherwise, and nothing is created.
		switch {
		case !p.Pagado:
			return refuse(http.StatusOK, msgPedidoExiste, p.OrdenID)
		case string(cp.c.Estado) == "PAGADO":
			return refuse(http.StatusOK, msgPedidoPagado, p.OrdenID)
		case string(cp.c.Estado) != estadoPendiente:
			return refuse(http.StatusOK, msgPedidoEstado, p.OrdenID, cp.c.Estado)
		}
		o.upd = cp
		return nil
	}
	pv, items, ref := s.checkCuerpo(p.Venta(), s.cfg.PuntoVentaID)
	if ref != nil {
		return ref
	}
	o.pv, o.items = pv, items
	return nil
}

func (o *pedidoOp) hold(now time.Time) { o.s.pedidoSeen[o.p.Numero] = now }

func (o *pedidoOp) apply(now time.Time) any {
	s, p := o.s, o.p
	o.hold(now)
	zero := nxapi.Decimal(0)
	if cp := o.upd; cp != nil {
		cp.c.Estado = "PAGADO"
		cp.c.Totales.Pagado, cp.c.Totales.Saldo = cp.c.Totales.Total, 0
		cp.medio, cp.pagos = p.MedioPago, cp.pagos+1
		return &nxapi.FacturaResult{FacturaID: nxapi.ID(cp.c.FacturaID), Numero: nxapi.ID(cp.c.Numero),
			PVNumero: nxapi.ID(cp.c.PVNumero), Estado: wireEstado("PAGADO"), Saldo: &zero, Datos: map[string]nxapi.Text{}}
	}
	tipo := nxapi.ComprobantePreventa
	if s.cfg.Pedidos == PedidoReserva {
		tipo = PedidoTipoReserva
	}
	estado, pagado, saldo := estadoPendiente, nxapi.Decimal(0), *p.Total
	if p.Pagado {
		estado, pagado, saldo = "PAGADO", *p.Total, 0
	}
	id := s.nextFactura
	s.nextFactura++
	s.comprobantes[id] = &comprobante{propio: true, pedido: true, entidadID: p.EntidadID, usuario: p.Usuario,
		detalle: p.Detalle, medio: p.MedioPago, fecha: now.UTC().Truncate(time.Second), created: now, c: nxapi.Comprobante{
			FacturaID: id, OrdenID: nxapi.OrdenRefOf(p.OrdenID), ComprobanteTipo: tipo, Estado: nxapi.Code(estado),
			Numero: p.Numero, PVNumero: o.pv.Numero, Fecha: now.UTC().Format(fechaLayout), SucursalID: o.pv.SucursalID,
			PuntoVentaID: o.pv.PuntoVentaID, EmpleadoID: p.EmpleadoID, Items: o.items,
			Totales: nxapi.Totales{SubTotal: *p.Subtotal, Descuento: *p.Descuento, Recargo: *p.Recargo,
				Envio: *p.Envio, Total: *p.Total, Pagado: pagado, Saldo: saldo},
		}}
	return &nxapi.FacturaResult{FacturaID: nxapi.ID(id), Numero: nxapi.ID(p.Numero), PVNumero: nxapi.ID(o.pv.Numero),
		Estado: wireEstado(estado), Saldo: &saldo, Datos: map[string]nxapi.Text{}}
}

// cancelarOp is a POST /Pedido/cancelar?facturaid=N: no body, an
// NxResultado answer; only an order of this integration in PENDIENTE or
// PAGADO is cancelled.
type cancelarOp struct {
	s  *Server
	id int64
	cp *comprobante
}

func (s *Server) prepareCancelar(c *call) (creation, *refusal) {
	var raw string
	for k, v := range c.r.URL.Query() {
		if strings.EqualFold(k, sendrules.CancelQuery) && len(v) > 0 {
			raw = v[0]
		}
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgFacturaIDReq)
	}
	return &cancelarOp{s: s, id: id}, nil
}

func (o *cancelarOp) check(time.Time) *refusal {
	cp, ok := o.s.comprobantes[o.id]
	if !ok || !cp.propio || !cp.pedido {
		return refuse(http.StatusNotFound, msgPedidoNo, o.id)
	}
	if !sendrules.Cancellable(string(cp.c.Estado)) {
		r := refuse(http.StatusOK, msgPedidoNoCancel, o.id, cp.c.Estado)
		r.nx = true
		return r
	}
	o.cp = cp
	return nil
}

// hold: a cancellation holds no key; its guard is the order's state.
func (o *cancelarOp) hold(time.Time) {}

func (o *cancelarOp) apply(time.Time) any {
	o.cp.c.Estado = estadoAnulado
	o.cp.c.Totales.Saldo = 0
	return nxapi.NxResultado{Tipo: nxapi.NxOK, ID: nxapi.ID(o.id)}
}

// pedidosLocked lists the orders, by facturaId; s.mu held.
func (s *Server) pedidosLocked() []Pedido {
	var out []Pedido
	for _, cp := range s.comprobantes {
		if !cp.pedido {
			continue
		}
		orden, _ := cp.c.OrdenID.Int()
		out = append(out, Pedido{FacturaID: cp.c.FacturaID, OrdenID: orden, Tipo: cp.c.ComprobanteTipo,
			Estado: string(cp.c.Estado), Pagos: cp.pagos})
	}
	return out
}
