package sandbox

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Estados and texts of vouchers (API spec 3). The sandbox keeps a
// voucher's state by name (its data files, State and the inspection
// endpoint show names); the wire carries it as an integer (wireEstado).
const (
	estadoPendiente    = "PENDIENTE"
	estadoFacturaVenta = "FACTURA_VENTA"
	fechaLayout        = "02/01/2006 15:04:05" // dd/MM/yyyy HH:mm:ss, UTC (public-facts.md)
)

// estadoCodes are the integers the sandbox writes for a voucher's estado
// on the wire (public-facts.md, "Wire types": enums are integers). They
// are the sandbox's own: the ERP's ComprobanteEstado codes are not public
// (a fictional fixture shows 1 for a new order, hence PENDIENTE = 1), and
// a client must decide nothing from them.
var estadoCodes = map[string]int{ // sandbox's own codes
	estadoPendiente:    1,
	"PAGADO":           2,
	estadoFacturaVenta: 3,
	"NOTA_CREDITO":     4,
	"ANULADO":          5,
}

// estadoOtro is the sandbox's own code of a state name it has no code for.
const estadoOtro = 99 // sandbox's own

// wireEstado is a state name as the wire carries it: an integer.
func wireEstado(name string) nxapi.Code {
	n, ok := estadoCodes[name]
	if !ok {
		n = estadoOtro
	}
	return nxapi.Code(strconv.Itoa(n))
}

// Texts for rules the spec states without a message; the sandbox's own.
const (
	msgUsuarioReq      = "Debe indicar entidadId o un usuario con dni, cuit o email" // sandbox's own
	msgEntidad         = "El entidadId %d no es un cliente activo"                   // sandbox's own
	msgEmpleado        = "El empleadoId %d no es un empleado valido"
	msgPuntoVentaScope = "El punto de venta %d pertenece a una sucursal no habilitada"
	msgPuntoVentaNo    = "El punto de venta %d no existe"                       // sandbox's own
	msgArticuloNo      = "El articulo %d no existe"                             // sandbox's own
	msgCuentaReq       = "El cuentaBancariaId es requerido para DEPOSITO_BANCO" // sandbox's own
	msgCuentaNo        = "La cuenta bancaria %d no existe"                      // sandbox's own
	msgTarjetaReq      = "El tarjetaId es requerido para TARJETA"               // sandbox's own
	msgTarjetaNo       = "La tarjeta %d no existe"                              // sandbox's own
	msgExternalReq     = "El externalId es requerido para VIRTUAL"              // sandbox's own
	msgElectronicaReq  = "El campo electronica es requerido"                    // sandbox's own
	msgNoPendiente     = "El comprobante %d no esta PENDIENTE (estado %s)"      // sandbox's own
)

// comprobante is a voucher as the sandbox holds it: the record of GET
// /comprobante/{id} and what the exports show besides.
type comprobante struct {
	c         nxapi.Comprobante
	propio    bool // created by this integration (appId in exports)
	pedido    bool // created by POST /Pedido (an order)
	pagos     int  // paid updates applied to the order
	entidadID int64
	usuario   *nxapi.Usuario   // the customer data of a sale without entidadId
	detalle   string           // the sale's free text
	medio     *nxapi.MedioPago // how it was paid; nil for a seeded voucher
	fecha     time.Time        // c.Fecha parsed; zero for a seeded one without fecha
	// created is when the voucher became a sale through the API (/venta or
	// /facturar), the start of Options.ExportLag; zero for a seeded one,
	// which the exports show from the start.
	created time.Time
}

func (c *comprobante) view() nxapi.Comprobante {
	v := c.c
	v.Items = append([]nxapi.ComprobanteItem(nil), c.c.Items...)
	return v
}

func seededComprobante(d DataComprobante, pv DataPuntoVenta) *comprobante {
	fecha, _ := time.Parse(fechaLayout, d.Fecha) // Data.validate checked it
	c := &comprobante{propio: d.Propio, entidadID: d.EntidadID, fecha: fecha, c: nxapi.Comprobante{
		FacturaID: d.FacturaID, OrdenID: nxapi.OrdenRefOf(d.OrdenID), ComprobanteTipo: d.ComprobanteTipo, Estado: nxapi.Code(d.Estado),
		Numero: d.Numero, PVNumero: pv.Numero, Fecha: d.Fecha, SucursalID: pv.SucursalID,
		PuntoVentaID: d.PuntoVentaID,
	}}
	var sub nxapi.Decimal
	for _, it := range d.Items {
		line, _ := it.Precio.Mul(it.Cantidad)
		sub += line
		c.c.Items = append(c.c.Items, nxapi.ComprobanteItem{ArticuloID: it.ArticuloID, TalleID: it.TalleID,
			ColorID: it.ColorID, Cantidad: it.Cantidad, Precio: it.Precio, Subtotal: line})
	}
	total := d.Total
	if total == 0 {
		total = sub
	}
	c.c.Totales = nxapi.Totales{SubTotal: sub, Total: total, Saldo: total}
	if d.Estado != estadoPendiente {
		c.c.Totales.Pagado, c.c.Totales.Saldo = total, 0
	}
	return c
}

// refusal is a rule's answer: an error status with the API's text, or a 200
// with errores=true when status is http.StatusOK.
type refusal struct {
	status int
	text   string
	// nx writes a 200 refusal as a stock movement's NxResultado tipo 2
	// instead of an ajFacturaResult with errores.
	nx bool
	// duplicate is "La solicitud ya se esta procesando": the key is already
	// held, and this refusal does not extend the hold.
	duplicate bool
}

func refuse(status int, format string, args ...any) *refusal {
	if len(args) > 0 {
		format = fmt.Sprintf(format, args...)
	}
	return &refusal{status: status, text: format}
}

// refuseDuplicate answers a key still held (spec 4.1.3, 4.2.4).
func refuseDuplicate() *refusal {
	return &refusal{status: http.StatusBadRequest, text: nxapi.MsgEnProceso, duplicate: true} // status: sandbox's own
}

func (f *refusal) write(w http.ResponseWriter) {
	switch {
	case f.status != http.StatusOK:
		writeError(w, f.status, f.text)
	case f.nx:
		writeJSON(w, http.StatusOK, nxapi.NxResultado{Tipo: nxapi.NxValidacion,
			Mensajes: []nxapi.Text{nxapi.Text(f.text)}, Errores: []nxapi.Text{nxapi.Text(f.text)}})
	default:
		writeJSON(w, http.StatusOK, nxapi.FacturaResult{Errores: true, Datos: map[string]nxapi.Text{"error": nxapi.Text(f.text)}})
	}
}

// ventaOp is a POST /venta (API spec 4.1) on its way through create.
// Refusals of the body and medioPago (prepareVenta) do not hold the
// ordenId; every later one does, because the key is taken when the request
// is accepted for processing.
type ventaOp struct {
	s     *Server
	v     *nxapi.Venta
	pv    DataPuntoVenta          // set by check
	items []nxapi.ComprobanteItem // set by check
}

func (s *Server) prepareVenta(c *call) (creation, *refusal) {
	var v nxapi.Venta
	if err := c.decode(&v); err != nil || !ventaBodyOK(&v) {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgVentaInvalida)
	}
	if v.MedioPago == nil {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgMedioPagoReq)
	}
	return &ventaOp{s: s, v: &v}, nil
}

// ventaBodyOK is rule 4.1.1: a body with an order id, products and the
// totals the DTO requires.
func ventaBodyOK(v *nxapi.Venta) bool {
	if v.OrdenID <= 0 || len(v.Productos) == 0 {
		return false
	}
	for _, p := range v.Productos {
		if p.ArticuloID <= 0 || p.Cantidad == nil || *p.Cantidad <= 0 || p.Precio == nil || *p.Precio < 0 {
			return false
		}
	}
	for _, d := range []*nxapi.Decimal{v.Subtotal, v.Descuento, v.Recargo, v.Envio, v.Total} {
		if d == nil || *d < 0 {
			return false
		}
	}
	return true
}

func (o *ventaOp) check(now time.Time) *refusal {
	s, v := o.s, o.v
	if t, ok := s.ordenSeen[v.OrdenID]; ok && now.Sub(t) < s.scaled(sendrules.KeyHold) {
		return refuseDuplicate()
	}
	switch v.MedioPago.Tipo {
	case nxapi.Efectivo, nxapi.DepositoBanco, nxapi.Virtual: // 4.1.4
	default:
		return refuse(http.StatusBadRequest, nxapi.MsgMedioNoCompatible)
	}
	if ref := s.checkMedio(v.MedioPago); ref != nil {
		return ref
	}
	pvID := v.PuntoVentaID
	if pvID == 0 {
		pvID = s.cfg.PuntoVentaID // 4.1.5
	}
	pv, items, ref := s.checkCuerpo(v, pvID)
	if ref != nil {
		return ref
	}
	o.pv, o.items = pv, items
	return nil
}

// checkCuerpo applies the rules a sale and an order share: the customer,
// the seller, the point of sale pvID, the articles and the totals. It
// returns the point of sale and the voucher's lines.
func (s *Server) checkCuerpo(v *nxapi.Venta, pvID int64) (DataPuntoVenta, []nxapi.ComprobanteItem, *refusal) {
	if v.EntidadID != 0 {
		if e, ok := s.entidades[v.EntidadID]; !ok || !e.Activo {
			return DataPuntoVenta{}, nil, refuse(http.StatusForbidden, msgEntidad, v.EntidadID)
		}
	} else if u := v.Usuario; u == nil || (u.DNI == "" && u.CUIT == "" && u.Email == "") {
		return DataPuntoVenta{}, nil, refuse(http.StatusBadRequest, msgUsuarioReq)
	}
	if ref := s.checkEmpleado(v.EmpleadoID); ref != nil {
		return DataPuntoVenta{}, nil, ref
	}
	pv, ref := s.checkPuntoVenta(pvID)
	if ref != nil {
		return pv, nil, ref
	}
	items := make([]nxapi.ComprobanteItem, 0, len(v.Productos))
	for _, p := range v.Productos {
		a, ok := s.articulos[p.ArticuloID]
		if !ok || a.Eliminado {
			return pv, nil, refuse(http.StatusNotFound, msgArticuloNo, p.ArticuloID)
		}
		line, _ := p.Precio.Mul(*p.Cantidad)
		items = append(items, nxapi.ComprobanteItem{ArticuloID: p.ArticuloID, Descripcion: a.Nombre,
			TalleID: p.TalleID, ColorID: p.ColorID, Cantidad: *p.Cantidad, Precio: *p.Precio, Subtotal: line})
	}
	if (*v.Subtotal + *v.Envio + *v.Recargo - *v.Descuento).Cents() != v.Total.Cents() {
		return pv, nil, refuse(http.StatusOK, nxapi.MsgTotales)
	}
	return pv, items, nil
}

func (o *ventaOp) hold(now time.Time) { o.s.ordenSeen[o.v.OrdenID] = now }

func (o *ventaOp) apply(now time.Time) any {
	s, v, pv := o.s, o.v, o.pv
	o.hold(now)
	id := s.nextFactura
	s.nextFactura++
	s.comprobantes[id] = &comprobante{propio: true, entidadID: v.EntidadID, usuario: v.Usuario,
		detalle: v.Detalle, medio: v.MedioPago, fecha: now.UTC().Truncate(time.Second), created: now, c: nxapi.Comprobante{
			FacturaID: id, OrdenID: nxapi.OrdenRefOf(v.OrdenID), ComprobanteTipo: nxapi.ComprobanteVenta, Estado: estadoFacturaVenta,
			Numero: v.OrdenID, PVNumero: pv.Numero, Fecha: now.UTC().Format(fechaLayout), SucursalID: pv.SucursalID,
			PuntoVentaID: pv.PuntoVentaID, EmpleadoID: v.EmpleadoID, Items: o.items,
			Totales: nxapi.Totales{SubTotal: *v.Subtotal, Descuento: *v.Descuento, Recargo: *v.Recargo,
				Envio: *v.Envio, Total: *v.Total, Pagado: *v.Total},
		}}
	s.vouchers = append(s.vouchers, Voucher{FacturaID: id, OrdenID: v.OrdenID, Numero: v.OrdenID,
		PVNumero: pv.Numero, PuntoVentaID: pv.PuntoVentaID, Tipo: nxapi.ComprobanteVenta,
		Estado: estadoFacturaVenta, Total: *v.Total, CreatedAt: now})
	// A sale takes its units out of the stock, which GetData and the
	// articles' events then show.
	s.enqueueChanges(s.sell(pv, o.items))
	zero := nxapi.Decimal(0)
	return &nxapi.FacturaResult{FacturaID: nxapi.ID(id), Numero: nxapi.ID(v.OrdenID), PVNumero: nxapi.ID(pv.Numero),
		Estado: wireEstado(estadoFacturaVenta), Resultado: "A", Saldo: &zero, Datos: map[string]nxapi.Text{}}
}

// checkMedio enforces the ids each payment type needs and that the tenant has
// the type enabled in /medios-pago.
func (s *Server) checkMedio(m *nxapi.MedioPago) *refusal {
	if !s.medios.Medios.Enabled(m.Tipo) {
		return refuse(http.StatusBadRequest, nxapi.MsgMedioNoCompatible)
	}
	switch m.Tipo {
	case nxapi.DepositoBanco:
		if m.CuentaBancariaID <= 0 {
			return refuse(http.StatusBadRequest, msgCuentaReq)
		}
		if !s.cuentas[m.CuentaBancariaID] {
			return refuse(http.StatusNotFound, msgCuentaNo, m.CuentaBancariaID)
		}
	case nxapi.TarjetaMedio:
		if m.TarjetaID <= 0 {
			return refuse(http.StatusBadRequest, msgTarjetaReq)
		}
		if !s.tarjetas[m.TarjetaID] {
			return refuse(http.StatusNotFound, msgTarjetaNo, m.TarjetaID)
		}
	case nxapi.Virtual:
		if m.ExternalID == "" {
			return refuse(http.StatusBadRequest, msgExternalReq)
		}
	}
	return nil
}

// checkEmpleado: an empleadoId must be an active employee of an enabled
// branch (API spec 2.1, 7).
func (s *Server) checkEmpleado(id int64) *refusal {
	if id == 0 {
		return nil
	}
	e, ok := s.empleados[id]
	if !ok || !e.Activo || !s.sucursales[e.SucursalID].Habilitada {
		return refuse(http.StatusForbidden, msgEmpleado, id)
	}
	return nil
}

// checkPuntoVenta: the point of sale must exist and, once the integration has
// enabled branches, belong to one (change history 2026-08-06: voucher
// creation does not block while the list is unconfigured).
func (s *Server) checkPuntoVenta(id int64) (DataPuntoVenta, *refusal) {
	pv, ok := s.pvs[id]
	if !ok {
		return pv, refuse(http.StatusNotFound, msgPuntoVentaNo, id)
	}
	if s.habilitada > 0 && !s.sucursales[pv.SucursalID].Habilitada {
		return pv, refuse(http.StatusForbidden, msgPuntoVentaScope, id)
	}
	return pv, nil
}

// facturarOp is a POST /facturar (API spec 4.2) on its way through create.
// The presale is converted in place: the FACTURA_VENTA keeps the presale's
// facturaId and numero (spec 3: "converted into a FACTURA_VENTA"), its type
// becomes 2 and its point of sale the requested one.
type facturarOp struct {
	s  *Server
	f  *nxapi.Facturar
	pv DataPuntoVenta // set by check
	cp *comprobante   // set by check
}

func (s *Server) prepareFacturar(c *call) (creation, *refusal) {
	var f nxapi.Facturar
	if err := c.decode(&f); err != nil || f.FacturaID <= 0 {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgFacturaIDReq)
	}
	if f.MedioPago == nil {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgMedioPagoReq)
	}
	if f.PuntoVentaID <= 0 {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgPuntoVentaReq)
	}
	if f.Electronica == nil {
		return nil, refuse(http.StatusBadRequest, msgElectronicaReq)
	}
	return &facturarOp{s: s, f: &f}, nil
}

func (o *facturarOp) check(now time.Time) *refusal {
	s, f := o.s, o.f
	if t, ok := s.facturaSeen[f.FacturaID]; ok && now.Sub(t) < s.scaled(sendrules.KeyHold) {
		return refuseDuplicate()
	}
	if _, ok := nxapi.TipoMedioNames[f.MedioPago.Tipo]; !ok { // 4.2.6: all five
		return refuse(http.StatusBadRequest, nxapi.MsgMedioNoCompatible)
	}
	if ref := s.checkMedio(f.MedioPago); ref != nil {
		return ref
	}
	pv, ref := s.checkPuntoVenta(f.PuntoVentaID)
	if ref != nil {
		return ref
	}
	cp, ok := s.comprobantes[f.FacturaID]
	if !ok || !cp.propio {
		return refuse(http.StatusNotFound, msgComprobante, f.FacturaID)
	}
	if cp.c.Estado != estadoPendiente {
		return refuse(http.StatusOK, msgNoPendiente, f.FacturaID, cp.c.Estado)
	}
	o.pv, o.cp = pv, cp
	return nil
}

func (o *facturarOp) hold(now time.Time) { o.s.facturaSeen[o.f.FacturaID] = now }

func (o *facturarOp) apply(now time.Time) any {
	s, f, pv, cp := o.s, o.f, o.pv, o.cp
	o.hold(now)
	cp.c.ComprobanteTipo = nxapi.ComprobanteVenta
	cp.c.Estado = estadoFacturaVenta
	cp.c.PuntoVentaID, cp.c.PVNumero, cp.c.SucursalID = pv.PuntoVentaID, pv.Numero, pv.SucursalID
	cp.c.Fecha = now.UTC().Format(fechaLayout)
	cp.fecha, cp.created, cp.medio = now.UTC().Truncate(time.Second), now, f.MedioPago
	total := cp.c.Totales.Total
	saldo := nxapi.Decimal(0)
	if f.MedioPago.Tipo == nxapi.CuentaCorriente {
		saldo = total
	}
	cp.c.Totales.Pagado, cp.c.Totales.Saldo = total-saldo, saldo
	orden, _ := cp.c.OrdenID.Int()
	s.vouchers = append(s.vouchers, Voucher{FacturaID: cp.c.FacturaID, PresaleID: f.FacturaID,
		OrdenID: orden, Numero: cp.c.Numero, PVNumero: pv.Numero, PuntoVentaID: pv.PuntoVentaID,
		Tipo: nxapi.ComprobanteVenta, Estado: estadoFacturaVenta, Total: total, Electronica: *f.Electronica,
		CreatedAt: now})
	res := &nxapi.FacturaResult{FacturaID: nxapi.ID(cp.c.FacturaID), Numero: nxapi.ID(cp.c.Numero),
		PVNumero: nxapi.ID(pv.Numero), Estado: wireEstado(estadoFacturaVenta), Electronica: *f.Electronica,
		Saldo: &saldo, Resultado: "A", Datos: map[string]nxapi.Text{}}
	if *f.Electronica {
		// A made-up authorisation, shaped like the tax authority's.
		res.CAE = nxapi.Text(fmt.Sprintf("7%013d", cp.c.FacturaID))
		res.CAEVencimiento = nxapi.Text(now.UTC().AddDate(0, 0, 10).Format("02/01/2006"))
	}
	return res
}

// getComprobante is GET /comprobante/{id}: only this integration's vouchers;
// any other id, or one that is not a number, is 404 (API spec 4.7).
func (s *Server) getComprobante(w http.ResponseWriter, c *call) {
	id, err := strconv.ParseInt(c.id, 10, 64)
	if err != nil || id <= 0 {
		writeError(w, http.StatusNotFound, msgNoEncontrado)
		return
	}
	s.mu.Lock()
	cp, ok := s.comprobantes[id]
	var v nxapi.Comprobante
	if ok && cp.propio {
		v = cp.view()
	}
	s.mu.Unlock()
	if !ok || !cp.propio {
		writeError(w, http.StatusNotFound, fmt.Sprintf(msgComprobante, id))
		return
	}
	// The vendor's wire: estado an integer, ordenId a string or null
	// (public-facts.md, "Wire types"); the record keeps the state's name.
	v.Estado = wireEstado(string(v.Estado))
	writeJSON(w, http.StatusOK, v)
}
