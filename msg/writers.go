package msg

// Report texts: sheet names, the summary sheet's labels and what each row
// status means, in words an accountant can act on.
func init() {
	register(map[string]Text{
		"rep.sheet.result":  {ES: "Resultado", EN: "Results"},
		"rep.sheet.summary": {ES: "Resumen", EN: "Summary"},

		"rep.sum.title":       {ES: "Resumen de la importación", EN: "Import summary"},
		"rep.sum.file":        {ES: "Archivo", EN: "File"},
		"rep.sum.sha256":      {ES: "SHA-256 del archivo", EN: "File SHA-256"},
		"rep.sum.tool":        {ES: "Herramienta", EN: "Tool"},
		"rep.sum.command":     {ES: "Comando", EN: "Command"},
		"rep.sum.api":         {ES: "API", EN: "API"},
		"rep.sum.tenant":      {ES: "Tenant (cuenta en el diario)", EN: "Tenant (account in the journal)"},
		"rep.sum.sandbox":     {ES: "sandbox embebido (--sandbox): no se creó nada en ningún ERP", EN: "embedded sandbox (--sandbox): nothing was created in any ERP"},
		"rep.sum.kinds":       {ES: "Tipos de datos", EN: "Kinds"},
		"rep.sum.started":     {ES: "Inicio", EN: "Started"},
		"rep.sum.finished":    {ES: "Fin", EN: "Finished"},
		"rep.sum.seconds":     {ES: "Duración (segundos)", EN: "Run time (seconds)"},
		"rep.sum.planned":     {ES: "Solicitudes planificadas", EN: "Requests planned"},
		"rep.sum.sent":        {ES: "Solicitudes enviadas", EN: "Requests sent"},
		"rep.sum.invoiced":    {ES: "Total facturado", EN: "Total invoiced"},
		"rep.bool.true":       {ES: "VERDADERO", EN: "TRUE"},
		"rep.bool.false":      {ES: "FALSO", EN: "FALSE"},
		"rep.sum.moved":       {ES: "Unidades movidas,", EN: "Units moved,"},
		"rep.sum.created":     {ES: "Comprobantes y movimientos creados", EN: "Vouchers and movements created"},
		"rep.sum.status":      {ES: "Estado", EN: "Status"},
		"rep.sum.rows":        {ES: "Filas", EN: "Rows"},
		"rep.sum.requests":    {ES: "Solicitudes", EN: "Requests"},
		"rep.sum.meaning":     {ES: "Qué significa", EN: "What it means"},
		"rep.sum.total":       {ES: "Total", EN: "Total"},
		"rep.sum.warnings":    {ES: "Advertencias", EN: "Warnings"},
		"rep.sum.formulas":    {ES: "Las celdas que empiezan con = + - @ se muestran precedidas de ' para que la planilla no las ejecute como fórmulas.", EN: "Cells starting with = + - @ are shown with a leading ' so that the spreadsheet does not run them as formulas."},
		"rep.status.ok":       {ES: "Enviada y aceptada por la API.", EN: "Sent and accepted by the API."},
		"rep.status.invalid":  {ES: "No se envió: corrija los datos indicados y vuelva a procesar el archivo de errores.", EN: "Not sent: fix the data shown and process the errors file again."},
		"rep.status.rejected": {ES: "La API la rechazó: corrija según su mensaje y vuelva a procesar.", EN: "The API refused it: fix it as its message says and process it again."},
		"rep.status.unknown":  {ES: "Se envió pero no hubo respuesta segura: verifique en el ERP si se creó antes de reintentar.", EN: "Sent without a definite answer: check in the ERP whether it was created before retrying."},
		"rep.status.skipped":  {ES: "Ya se había procesado en una ejecución anterior; no se reenvió.", EN: "Already processed by an earlier run; not sent again."},
		"rep.status.conflict": {ES: "Ya se envió antes con otros datos; no se reenvió. Revise cuál es el correcto.", EN: "Sent earlier with different data; not sent again. Check which is right."},
		"rep.status.pending":  {ES: "Todavía no se envió (la ejecución se detuvo antes); se enviará en la próxima ejecución.", EN: "Not sent yet (the run stopped first); the next run will send it."},
		"rep.status.valid":    {ES: "Datos correctos; no se envió en esta ejecución.", EN: "Data is valid; not sent in this run."},
	})
}
