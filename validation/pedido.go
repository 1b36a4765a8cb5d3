package validation

import "github.com/nxbatch/nxbatch/nxapi"

// Pedido checks the body of POST /Pedido (API spec 2.1, 3; public-facts.md,
// "Orders"): a sale's rules for the customer, the lines and the totals; the
// payment is optional and, when given, checked like an invoicing's (every
// payment type); pagado without medioPago is an error, since the API
// cannot mark an order paid without knowing how.
func Pedido(p *nxapi.Pedido, cat *Catalog) []Issue {
	var c checker
	if p == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	c.cuerpo(p.Venta())
	switch {
	case p.MedioPago != nil:
		c.medioPago(p.MedioPago, false, cat.mediosPago())
	case p.Pagado:
		c.add("pagado", request, "val.pedido.pagadoSinMedio", nxapi.MsgMedioPagoReq)
	}
	return c.issues
}

// Cancelar checks the cancellation of an order: the order's facturaId, as
// the creation's result gave it.
func Cancelar(x *nxapi.Cancelar) []Issue {
	var c checker
	if x == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	c.requiredID("facturaId", request, x.FacturaID)
	return c.issues
}
