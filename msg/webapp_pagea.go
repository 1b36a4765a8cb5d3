package msg

// Messages of the page's crash-consistent history, its reconciliation,
// its clearer plan and its signs of work (issue 22).
func init() {
	register(map[string]Text{
		"web.upload.busy": {ES: "Subiendo y revisando el archivo…", EN: "Uploading and checking the file…"},
		"web.fix.busy":    {ES: "Guardando y revisando la corrección…", EN: "Saving and checking the fix…"},

		// What the journal says was sent of an upload.
		"web.jrn.line":            {ES: "Según el diario: %s.", EN: "According to the journal: %s."},
		"web.jrn.ok.venta":        {ES: "%d ventas creadas", EN: "%d sales created"},
		"web.jrn.ok.venta.one":    {ES: "%d venta creada", EN: "%d sale created"},
		"web.jrn.ok.facturar":     {ES: "%d facturas creadas", EN: "%d invoices created"},
		"web.jrn.ok.facturar.one": {ES: "%d factura creada", EN: "%d invoice created"},
		"web.jrn.ok.stock":        {ES: "%d movimientos de stock aceptados", EN: "%d stock movements accepted"},
		"web.jrn.ok.stock.one":    {ES: "%d movimiento de stock aceptado", EN: "%d stock movement accepted"},
		"web.jrn.rejected":        {ES: "%d rechazadas por la API", EN: "%d rejected by the API"},
		"web.jrn.rejected.one":    {ES: "%d rechazada por la API", EN: "%d rejected by the API"},
		"web.jrn.unknown":         {ES: "%d sin respuesta", EN: "%d without an answer"},
		"web.jrn.failed":          {ES: "%d no creadas (verificado)", EN: "%d not created (checked)"},
		"web.jrn.failed.one":      {ES: "%d no creada (verificado)", EN: "%d not created (checked)"},
		"web.jrn.row.ok":          {ES: "Enviada: el diario registra que la API la creó.", EN: "Sent: the journal records that the API created it."},
		"web.jrn.row.fixed":       {ES: "Corregida en su archivo de errores y enviada: el diario registra que la API la creó.", EN: "Fixed in its errors file and sent: the journal records that the API created it."},
		"web.jrn.row.unknown":     {ES: "Enviada sin respuesta: concílielo en Historial antes de volver a enviar.", EN: "Sent without an answer: reconcile it in History before sending again."},
		"web.result.norecord":     {ES: "El servidor se detuvo durante este envío: no llegó a escribir sus informes. Lo que se envió está arriba, según el diario; lo que quedó sin enviar se envía con «Enviar» en la importación.", EN: "The server stopped during this send: it did not write its reports. What was sent is above, from the journal; what was left unsent is sent with \"Send\" on the import."},
		"web.result.nofiles":      {ES: "No hay informes de este envío.", EN: "There are no reports of this send."},
		"web.result.unknowns":     {ES: "%d solicitudes quedaron sin respuesta: concílielas en Historial", EN: "%d requests got no answer: reconcile them in History"},
		// A payment type a sale does not take is never suggested to it.
		"cell.badmedio.venta": {ES: "«%s» no es un medio de pago que acepte una venta: use EFECTIVO, DEPOSITO_BANCO o VIRTUAL (o su número 1, 9, 11)", EN: "«%s» is not a payment type a sale takes: use EFECTIVO, DEPOSITO_BANCO or VIRTUAL (or its number 1, 9, 11)"},

		// An errors file uploaded again and its original.
		"web.link.of":    {ES: "Archivo de errores corregido de", EN: "Fixed errors file of"},
		"web.link.fixed": {ES: "Sus errores se corrigieron en", EN: "Its errors were fixed in"},

		// The progress page when the server goes away.
		"web.send.lost":     {ES: "Se perdió la conexión con el servidor: puede haberse detenido. Lo enviado hasta ahora quedó registrado en el diario; esta página muestra qué se envió apenas el servidor vuelva.", EN: "The connection to the server was lost: it may have stopped. What was sent so far is recorded in the journal; this page shows what was sent as soon as the server is back."},
		"web.send.returned": {ES: "El servidor volvió: abriendo lo que se envió…", EN: "The server is back: opening what was sent…"},

		// What "Enviar" does, said before it.
		"web.will.all":           {ES: "Se enviarán %s.", EN: "%s will be sent."},
		"web.will.some":          {ES: "Se enviarán %s; quedan sin enviar %s.", EN: "%s will be sent; left unsent: %s."},
		"web.will.none":          {ES: "No queda nada para enviar: %s.", EN: "Nothing is left to send: %s."},
		"web.will.nothing":       {ES: "El archivo no tiene filas para enviar.", EN: "The file has no rows to send."},
		"web.will.stockrows":     {ES: "%d filas de stock", EN: "%d stock rows"},
		"web.will.stockrows.one": {ES: "%d fila de stock", EN: "%d stock row"},
		"web.will.invalid":       {ES: "%d filas con errores (corríjalas abajo)", EN: "%d rows with errors (fix them below)"},
		"web.will.invalid.one":   {ES: "%d fila con errores (corríjala abajo)", EN: "%d row with errors (fix it below)"},
		"web.will.rejected":      {ES: "%d filas rechazadas por la API, sin cambios desde entonces", EN: "%d rows rejected by the API, unchanged since"},
		"web.will.rejected.one":  {ES: "%d fila rechazada por la API, sin cambios desde entonces", EN: "%d row rejected by the API, unchanged since"},
		"web.will.unknown":       {ES: "%d filas sin respuesta, que esperan la conciliación (Historial)", EN: "%d rows without an answer, waiting for the reconciliation (History)"},
		"web.will.unknown.one":   {ES: "%d fila sin respuesta, que espera la conciliación (Historial)", EN: "%d row without an answer, waiting for the reconciliation (History)"},
		"web.will.sent":          {ES: "%d filas ya enviadas, que no se reenvían", EN: "%d rows already sent, not sent again"},
		"web.will.sent.one":      {ES: "%d fila ya enviada, que no se reenvía", EN: "%d row already sent, not sent again"},
		"web.will.amount":        {ES: "Importe a facturar: %s", EN: "Amount to invoice: %s"},

		// Reconciling the unknown outcomes from the history.
		"web.reconcile.button":       {ES: "Conciliar con el ERP", EN: "Reconcile with the ERP"},
		"web.reconcile.help":         {ES: "Lee en la API lo que quedó registrado de cada resultado desconocido y lo decide con esa evidencia; lo que no pueda decidirse queda abajo para resolver a mano.", EN: "Reads back from the API what was recorded of each unknown outcome and decides it with that evidence; what cannot be decided stays below to settle by hand."},
		"web.reconcile.running":      {ES: "Conciliando con el ERP: la página se actualiza sola.", EN: "Reconciling with the ERP: the page updates itself."},
		"web.reconcile.plan":         {ES: "Qué se lee", EN: "What is read"},
		"web.reconcile.as.ok":        {ES: "creada en el ERP", EN: "created in the ERP"},
		"web.reconcile.as.failed":    {ES: "no creada: se enviará de nuevo", EN: "not created: it will be sent again"},
		"web.reconcile.stock":        {ES: "%s: ninguna lectura de la API prueba un movimiento de stock; verifíquelo en el ERP y resuélvalo abajo.", EN: "%s: no read of the API proves a stock movement; check it in the ERP and settle it below."},
		"web.reconcile.failed":       {ES: "No se pudo conciliar: %s", EN: "Could not reconcile: %s"},
		"web.reconcile.unauthorized": {ES: "La API rechazó el token durante la conciliación: no se escribió ninguna decisión.", EN: "The API refused the token during the reconciliation: no decision was written."},
		"web.reconcile.sending":      {ES: "Hay un envío en curso: concilie cuando termine.", EN: "A send is in progress: reconcile when it ends."},
		"web.send.reconciling":       {ES: "Se está conciliando con el ERP: envíe cuando termine (vea Historial).", EN: "A reconciliation with the ERP is running: send when it ends (see History)."},
		"web.log.reconcile.started":  {ES: "conciliación iniciada desde la página", EN: "reconciliation started from the page"},
		"web.log.reconcile.finished": {ES: "conciliación terminada", EN: "reconciliation finished"},
		"web.result.unknowns.one":    {ES: "%d solicitud quedó sin respuesta: concíliela en Historial", EN: "%d request got no answer: reconcile it in History"},
	})
}
