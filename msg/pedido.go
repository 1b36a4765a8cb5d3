package msg

// Orders (POST /Pedido) and their cancellations: validation, requests,
// reports and reconciliation.
func init() {
	register(map[string]Text{
		"val.pedido.pagadoSinMedio": {
			ES: "pagado dice que el pedido está pagado pero falta el medio de pago (la API respondería «%s»): complete medioPago.tipo, o deje pagado vacío",
			EN: "pagado says the order is paid but the payment is missing (the API would answer «%s»): fill in medioPago.tipo, or leave pagado blank",
		},
		"row.dupcancel": {
			ES: "el pedido facturaId %s ya aparece en la fila %d: quite la fila repetida",
			EN: "order facturaId %s already appears on row %d: remove the repeated row",
		},
		"plan.kind.pedido":       {ES: "%d pedidos", EN: "%d orders"},
		"plan.kind.pedido.one":   {ES: "%d pedido", EN: "%d order"},
		"plan.kind.cancelar":     {ES: "%d anulaciones de pedidos", EN: "%d order cancellations"},
		"plan.kind.cancelar.one": {ES: "%d anulación de pedido", EN: "%d order cancellation"},
		"tpl.intro.pedido": {
			ES: "Una fila por producto de cada pedido; las filas de un mismo pedido comparten ordenId. Para marcar pagado un pedido ya enviado, vuelva a enviar sus filas con pagado = sí y el medio de pago: se envía una sola vez.",
			EN: "One row per product of each order; the rows of one order share ordenId. To mark an order already sent as paid, send its rows again with pagado = yes and the payment: it is sent only once.",
		},
		"tpl.intro.cancelar": {
			ES: "Una fila por pedido a anular, con el facturaId que le dio la API al crearlo (columna result.facturaId del informe). Solo se anulan pedidos PENDIENTE o PAGADO.",
			EN: "One row per order to cancel, with the facturaId the API gave it when it was created (column result.facturaId of the report). Only PENDIENTE or PAGADO orders are cancelled.",
		},
		"tpl.col.pagado": {
			ES: "sí si el pedido está pagado (requiere medioPago.tipo); vacío si no.",
			EN: "yes if the order is paid (needs medioPago.tipo); blank if not.",
		},
		"tpl.col.cancelar.facturaId": {
			ES: "Id del pedido a anular: el result.facturaId que la API dio al crearlo, en el informe de pedidos. El pedido debe estar PENDIENTE o PAGADO.",
			EN: "Id of the order to cancel: the result.facturaId the API gave it when created, in the orders report. The order must be PENDIENTE or PAGADO.",
		},
		"web.kind.pedido":          {ES: "Pedido", EN: "Order"},
		"web.kind.cancelar":        {ES: "Anulación de pedido", EN: "Order cancellation"},
		"web.template.pedido":      {ES: "Plantilla de pedidos (XLSX)", EN: "Orders template (XLSX)"},
		"web.template.cancelar":    {ES: "Plantilla de anulaciones de pedidos (XLSX)", EN: "Order cancellations template (XLSX)"},
		"rep.sum.orders.created":   {ES: "Pedidos creados", EN: "Orders created"},
		"rep.sum.orders.paid":      {ES: "Pedidos marcados pagados", EN: "Orders marked paid"},
		"rep.sum.orders.cancelled": {ES: "Pedidos anulados", EN: "Orders cancelled"},
		"rec.pedido.noid": {
			ES: "el pedido ordenId %[1]s quedó sin respuesta y los pedidos no aparecen en las exportaciones de ventas: no hay con qué conciliarlo. Busque en el ERP un pedido con número %[1]s; si existe, resuélvalo como ok con su facturaId, si no, como failed para que se envíe de nuevo",
			EN: "order ordenId %[1]s got no answer and orders do not appear in the sales exports: there is nothing to reconcile it with. Look in the ERP for an order numbered %[1]s; if it exists, resolve it as ok with its facturaId, if not, as failed so that it is sent again",
		},
		"rec.pedido.other": {
			ES: "GET /comprobante/%d no muestra el ordenId %s: no se decide nada; verifique en el ERP y resuelva a mano",
			EN: "GET /comprobante/%d does not show ordenId %s: nothing is decided; check the ERP and resolve it by hand",
		},
		"rec.pedido.ok": {
			ES: "conciliado: el pedido ordenId %s existe (GET /comprobante/%d leído el %s lo muestra)",
			EN: "reconciled: order ordenId %s exists (GET /comprobante/%d read on %s shows it)",
		},
		"rec.pago.ok": {
			ES: "conciliado: el pedido ordenId %s está pagado (GET /comprobante/%d leído el %s muestra el total pagado)",
			EN: "reconciled: order ordenId %s is paid (GET /comprobante/%d read on %s shows its total paid)",
		},
		"rec.pago.failed": {
			ES: "el pago del pedido ordenId %s no se registró (GET /comprobante/%d leído el %s no muestra nada pagado, pasada la espera de 30 s): la próxima ejecución lo envía de nuevo",
			EN: "the payment of order ordenId %s was not recorded (GET /comprobante/%d read on %s shows nothing paid, after the 30 s hold): the next run sends it again",
		},
		"rec.pago.partial": {
			ES: "el pedido ordenId %s (facturaId %d) no muestra ni todo ni nada pagado: verifique en el ERP si quedó PAGADO y resuelva a mano",
			EN: "order ordenId %s (facturaId %d) shows neither all nor nothing paid: check in the ERP whether it is PAGADO and resolve it by hand",
		},
		"rec.cancelar.check": {
			ES: "la anulación del pedido facturaId %s quedó sin respuesta y solo el estado del pedido la mostraría, cuyos códigos no son públicos: verifique en el ERP si el pedido quedó anulado y resuélvala a mano (ok si lo está, failed si sigue PENDIENTE o PAGADO)",
			EN: "the cancellation of order facturaId %s got no answer and only the order's state would show it, whose codes are not public: check in the ERP whether the order is cancelled and resolve it by hand (ok if it is, failed if still PENDIENTE or PAGADO)",
		},
		"sub.ok.pedido":  {ES: "pedido creado por la API, estado %s", EN: "order created by the API, state %s"},
		"sub.ok.pagado":  {ES: "pedido marcado PAGADO por la API", EN: "order marked PAGADO by the API"},
		"sub.ok.anulado": {ES: "pedido anulado por la API", EN: "order cancelled by the API"},
		"sub.unknown.pedido": {
			ES: "resultado desconocido (%s): el pedido puede haberse registrado, y los pedidos no aparecen en las exportaciones de ventas. No se reenvía: busque en el ERP el pedido número %s y resuelva con «%s»",
			EN: "outcome unknown (%s): the order may have been recorded, and orders do not appear in the sales exports. It is not resent: look in the ERP for order number %s and settle it with «%s»",
		},
		"jrn.pedido.unknown": {
			ES: "%s; los pedidos no aparecen en las exportaciones de ventas: busque en el ERP el pedido número %s",
			EN: "%s; orders do not appear in the sales exports: look in the ERP for order number %s",
		},
		"web.field.pagado":        {ES: "Pagado (SI/NO)", EN: "Paid (SI/NO)"},
		"web.jrn.ok.pedido":       {ES: "%d pedidos creados o pagados", EN: "%d orders created or paid"},
		"web.jrn.ok.pedido.one":   {ES: "%d pedido creado o pagado", EN: "%d order created or paid"},
		"web.jrn.ok.cancelar":     {ES: "%d pedidos anulados", EN: "%d orders cancelled"},
		"web.jrn.ok.cancelar.one": {ES: "%d pedido anulado", EN: "%d order cancelled"},
		"req.pedido":              {ES: "pedido %s", EN: "order %s"},
		"req.pago":                {ES: "pago del pedido %s", EN: "payment of order %s"},
		"req.cancelar":            {ES: "anulación del pedido facturaId %s", EN: "cancellation of order facturaId %s"},
	})
}
