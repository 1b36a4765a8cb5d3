package msg

// Messages of reconciliation (nxbatch reconcile, run --reconcile): the plan,
// each decision (also kept in Spanish as the journal verdict's note), why an
// entry stays unknown, and what is shown of unknown stock movements.
func init() {
	register(map[string]Text{
		"rec.plan": {
			ES: "conciliación: solicitudes con resultado desconocido: %d (preventas: %d; ventas: %d; movimientos de stock: %d); enviadas hace muy poco para conciliarlas ahora: %d",
			EN: "reconciliation: requests with an unknown outcome: %d (presales: %d; sales: %d; stock movements: %d); sent too recently to reconcile now: %d",
		},
		"rec.plan.presales": {
			ES: "lecturas: %d de GET /comprobante, una por preventa",
			EN: "reads: %d of GET /comprobante, one per presale",
		},
		"rec.plan.exports": {
			ES: "lecturas: al menos %d de la exportación de ventas (sucursal y días: %s), y después una de GET /comprobante por cada comprobante de la exportación que pueda ser una venta desconocida (%s más cada una)",
			EN: "reads: at least %d of the sales export (branch and days: %s), then one of GET /comprobante per voucher of the export that may be an unknown sale (%s more each)",
		},
		"rec.plan.floor": {
			ES: "tiempo mínimo que permiten las ventanas de la API: %s",
			EN: "least time the API's windows allow: %s",
		},
		"rec.recent": {
			ES: "se envió hace menos de 30 s y la API puede estar procesando ese envío todavía: concilie después de %s",
			EN: "sent less than 30 s ago and the API may still be processing it: reconcile after %s",
		},
		"rec.badkey": {
			ES: "la clave %q no es un número de comprobante u orden: verifique en el ERP y resuelva a mano",
			EN: "the key %q is not a voucher or order number: check the ERP and resolve it by hand",
		},
		"rec.noscope": {
			ES: "no se pudo saber qué sucursales puede exportar la integración (GET /config): las ventas no se concilian esta vez",
			EN: "which branches the integration may export could not be learned (GET /config): sales are not reconciled this time",
		},
		"rec.noscope.because": {
			ES: "no se pudo leer GET /config (%s): las ventas no se concilian esta vez",
			EN: "GET /config could not be read (%s): sales are not reconciled this time",
		},
		"rec.nobranches": {
			ES: "la integración no tiene sucursales habilitadas para exportar (GET /config, sucursalesExportacion): sin la exportación de ventas no se puede buscar la venta. Verifique en el ERP y resuelva a mano",
			EN: "the integration has no branches enabled for exports (GET /config, sucursalesExportacion): without the sales export the sale cannot be looked for. Check the ERP and resolve it by hand",
		},
		"rec.branch.disabled": {
			ES: "la sucursal %d del punto de venta %d no está habilitada para exportar: verifique en el ERP y resuelva a mano",
			EN: "branch %d of point of sale %d is not enabled for exports: check the ERP and resolve it by hand",
		},
		"rec.stopped": {
			ES: "la conciliación se detuvo antes de leerlo",
			EN: "reconciliation stopped before reading it",
		},
		"rec.stopped.401": {
			ES: "la API rechazó el token (HTTP 401) antes de leerlo",
			EN: "the API refused the token (HTTP 401) before reading it",
		},
		"rec.readfailed": {
			ES: "la lectura falló (%s): vuelva a conciliar más tarde",
			EN: "the read failed (%s): reconcile again later",
		},
		"rec.facturar.notfound": {
			ES: "GET /comprobante/%d respondió 404: no es un comprobante de esta integración, o ya no existe. No se decide nada: verifique en el ERP y resuelva a mano",
			EN: "GET /comprobante/%d answered 404: it is not this integration's voucher, or it is gone. Nothing is decided: check the ERP and resolve it by hand",
		},
		"rec.facturar.otherid": {
			ES: "GET /comprobante/%d respondió con el comprobante %d: no se decide nada; verifique en el ERP",
			EN: "GET /comprobante/%d answered with voucher %d: nothing is decided; check the ERP",
		},
		"rec.facturar.ok": {
			ES: "conciliado: la preventa %d está facturada (GET /comprobante leído el %s la muestra como venta, comprobanteTipo 2; comprobante %s)",
			EN: "reconciled: presale %d is invoiced (GET /comprobante read on %s shows it as a sale, comprobanteTipo 2; voucher %s)",
		},
		"rec.facturar.failed": {
			ES: "conciliado: la preventa %d sigue siendo una preventa, comprobanteTipo 33 (GET /comprobante leído el %s, %s después del último intento): no se facturó; la próxima ejecución la envía de nuevo",
			EN: "reconciled: presale %d is still a presale, comprobanteTipo 33 (GET /comprobante read on %s, %s after the last attempt): it was not invoiced; the next run sends it again",
		},
		"rec.facturar.state": {
			ES: "GET /comprobante/%d muestra comprobanteTipo %d (estado %q), ni una preventa (33) ni una venta (2): no se decide nada; verifique en el ERP si la preventa se facturó, se anuló o pasó a otro comprobante, y resuelva a mano",
			EN: "GET /comprobante/%d shows comprobanteTipo %d (estado %q), neither a presale (33) nor a sale (2): nothing is decided; check in the ERP whether the presale was invoiced, cancelled or turned into another voucher, and resolve it by hand",
		},
		"rec.wire": {
			ES: "GET /comprobante/%d respondió el campo %q con un valor de un tipo que la API no usa («%s»), así que la respuesta no se puede leer y no se decide nada; verifique el comprobante en el ERP y resuelva a mano",
			EN: "GET /comprobante/%d answered field %q with a value of a type the API does not use («%s»), so the answer cannot be read and nothing is decided; check the voucher in the ERP and resolve it by hand",
		},
		"rec.venta.ordenid": {
			ES: "GET /comprobante/%d muestra el ordenId %q, que no es un número: no se sabe de qué venta es; verifique el comprobante en el ERP y resuelva a mano",
			EN: "GET /comprobante/%d shows ordenId %q, which is not a number: which sale it is cannot be told; check the voucher in the ERP and resolve it by hand",
		},
		"rec.venta.ok": {
			ES: "conciliado: la venta %d es el comprobante %d (%s) de la sucursal %d; ordenId confirmado por GET /comprobante leído el %s",
			EN: "reconciled: sale %d is voucher %d (%s) of branch %d; ordenId confirmed by GET /comprobante read on %s",
		},
		"rec.venta.failed": {
			ES: "conciliado: la venta %d no figura en %d página(s) de la exportación de ventas (sucursal %s; %s) leídas desde el %s, %s después del último intento (%d comprobante(s) posibles verificados, de otras órdenes): no se creó; la próxima ejecución la envía de nuevo",
			EN: "reconciled: sale %d is in none of %d page(s) of the sales export (branch %s; %s) read from %s, %s after the last attempt (%d possible voucher(s) checked, of other orders): it was not created; the next run sends it again",
		},
		"rec.venta.wait": {
			ES: "la venta %d no figura todavía en la exportación, que puede demorar: su ausencia cuenta recién %s después del último intento; vuelva a conciliar después de %s",
			EN: "sale %d is not in the export yet, which may lag behind: its absence only counts %s after the last attempt; reconcile again after %s",
		},
		"rec.venta.partial": {
			ES: "la lectura de la exportación de la sucursal %d quedó incompleta (%s): no se decide sobre datos parciales; vuelva a conciliar",
			EN: "the export read of branch %d is incomplete (%s): nothing is decided on partial data; reconcile again",
		},
		"rec.venta.candidate.why": {
			ES: "el comprobante %d podría ser esta venta y no se pudo saber de qué venta es: %s",
			EN: "voucher %d could be this sale and which sale it is could not be told: %s",
		},
		"rec.venta.candidate": {
			ES: "no se pudo leer GET /comprobante/%d, que podría ser esta venta (%s): vuelva a conciliar",
			EN: "GET /comprobante/%d, which could be this sale, could not be read (%s): reconcile again",
		},
		"rec.duplicate": {
			ES: "atención: el comprobante %d también tiene el ordenId %d, que el diario registra como creado con el comprobante %d: hay un duplicado en el ERP",
			EN: "warning: voucher %d also carries ordenId %d, which the journal has as created with voucher %d: there is a duplicate in the ERP",
		},
		"rec.twice": {
			ES: "atención: la venta %d figura en más de un comprobante (%s): hay un duplicado en el ERP",
			EN: "warning: sale %d is on more than one voucher (%s): there is a duplicate in the ERP",
		},
		"rec.changed": {
			ES: "%s ya no estaba desconocido al escribir la decisión (¿lo resolvió una persona?): no se cambió",
			EN: "%s was no longer unknown when the decision was written (resolved by a person?): left as it was",
		},

		// The command.
		"rec.none": {
			ES: "no hay solicitudes con resultado desconocido para conciliar",
			EN: "there are no requests with an unknown outcome to reconcile",
		},
		"rec.waiting": {
			ES: "esperando %s la ventana de %s de la API",
			EN: "waiting %s for the API's %s window",
		},
		"rec.decided": {
			ES: "%s → %s: %s",
			EN: "%s → %s: %s",
		},
		"rec.left": {
			ES: "%s sigue desconocido: %s",
			EN: "%s stays unknown: %s",
		},
		"rec.stock.head": {
			ES: "%s (último intento %s; %s) sigue desconocido: ninguna lectura de la API prueba un movimiento de stock. Verifique en el ERP y resuelva con «nxbatch journal resolve %s --as ok|failed --note \"...\"»",
			EN: "%s (last attempt %s; %s) stays unknown: no read of the API proves a stock movement. Check the ERP and settle it with «nxbatch journal resolve %s --as ok|failed --note \"...\"»",
		},
		"rec.stock.row": {
			ES: "  %s: artículo %d, color %d, talle %d, cantidad %s",
			EN: "  %s: article %d, color %d, size %d, quantity %s",
		},
		"rec.stock.unreadable": {
			ES: "  fila %s: el diario no tiene su línea legible",
			EN: "  row %s: the journal has no readable line for it",
		},
		"rec.stock.snap": {
			ES: "    instantánea local: depósito %d: %s unidades, actualizada el %s (%s del último intento)",
			EN: "    local snapshot: warehouse %d: %s units, updated on %s (%s the last attempt)",
		},
		"rec.stock.before": {ES: "antes", EN: "before"},
		"rec.stock.after":  {ES: "después", EN: "after"},
		"rec.stock.nosnap": {
			ES: "    la instantánea local no tiene este artículo y variante",
			EN: "    the local snapshot does not have this article and variant",
		},
		"rec.stock.nostore": {
			ES: "para ver qué sabe la instantánea local de stock de esos artículos, indique --store con la carpeta de «nxbatch listen»",
			EN: "to see what the local stock snapshot knows of those articles, give --store with the folder of «nxbatch listen»",
		},
		"rec.summary": {
			ES: "conciliación: decididas: %d (se registraron en el ERP: %d; no se registraron: %d); siguen con resultado desconocido: %d",
			EN: "reconciliation: decided: %d (recorded in the ERP, ok: %d; not recorded, failed: %d); still unknown: %d",
		},
		"rec.written": {
			ES: "decisiones escritas en el diario con su evidencia: %d («nxbatch journal list --evidence» las muestra)",
			EN: "decisions written to the journal with their evidence: %d («nxbatch journal list --evidence» shows them)",
		},
		"rec.dryrun": {
			ES: "--dry-run: no se escribió nada en el diario",
			EN: "--dry-run: nothing was written to the journal",
		},
		"rec.retry": {
			ES: "vuelva a conciliar después de %s para decidir %d más",
			EN: "reconcile again after %s to decide %d more",
		},
		"rec.reads": {
			ES: "lecturas de la exportación: %d; de GET /comprobante: %d (rechazadas por la ventana de la API y repetidas: %d); tiempo: %s; el mínimo que permiten las ventanas de la API es %s",
			EN: "reads: %d of the export and %d of GET /comprobante (%d refused for the window and asked again) in %s; the least the API's windows allow is %s",
		},
		"rec.unauthorized": {
			ES: "la API rechazó el token (HTTP 401): la conciliación se detuvo y no se escribió ninguna decisión. Revise NX_TOKEN o --token-file y vuelva a conciliar",
			EN: "the API refused the token (HTTP 401): reconciliation stopped and no decision was written. Check NX_TOKEN or --token-file and reconcile again",
		},
		"rec.interrupted": {
			ES: "conciliación interrumpida: se escriben solo las decisiones con la evidencia completa",
			EN: "reconciliation interrupted: only the decisions with complete evidence are written",
		},
		"rec.run.hold": {
			ES: "--reconcile: esperando %s a que la API termine de procesar los últimos envíos",
			EN: "--reconcile: waiting %s for the API to release the keys of the last requests",
		},
		"rec.run.skipped": {
			ES: "--reconcile: no se concilia porque la ejecución se detuvo",
			EN: "--reconcile: not reconciling because the run stopped",
		},
		"rec.row.ok": {
			ES: "conciliado después del envío: %s",
			EN: "reconciled after sending: %s",
		},
		"rec.row.failed": {
			ES: "conciliado después del envío: no se creó en el ERP; la próxima ejecución lo envía de nuevo (%s)",
			EN: "reconciled after sending: it was not created in the ERP; the next run sends it again (%s)",
		},
	})
}
