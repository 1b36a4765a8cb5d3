package msg

// Messages of the page's confirmation before a send, its settings (the
// report folder of scheduled runs, "faltantes en cero"), the inventory
// count's column and the article catalog's suggestions (issue 22): a
// block of its own, so that other changes to webapp.go merge cleanly.
func init() {
	register(map[string]Text{
		"web.log.send.unconfirmed": {ES: "envío rechazado: falta la confirmación", EN: "send refused: not confirmed"},

		"web.confirm.title":          {ES: "Confirmar el envío de %s", EN: "Confirm sending %s"},
		"web.confirm.heading":        {ES: "¿Enviar %s?", EN: "Send %s?"},
		"web.confirm.leaves":         {ES: "Qué se envía", EN: "What is sent"},
		"web.confirm.behind":         {ES: "Qué queda sin enviar, y por qué", EN: "What stays behind, and why"},
		"web.confirm.behind.none":    {ES: "Nada: se envían todas las filas.", EN: "Nothing: every row is sent."},
		"web.confirm.nothing":        {ES: "Nada: no queda ninguna fila para enviar.", EN: "Nothing: no row is left to send."},
		"web.confirm.button":         {ES: "Confirmar y enviar", EN: "Confirm and send"},
		"web.confirm.button.nothing": {ES: "Confirmar (no se enviará nada)", EN: "Confirm (nothing will be sent)"},
		"web.confirm.back":           {ES: "Volver sin enviar", EN: "Go back without sending"},
		"web.confirm.invalid":        {ES: "%d filas con errores: no se envían hasta corregirlas (vuelva al archivo para hacerlo)", EN: "%d rows with errors: not sent until fixed (go back to the file to fix them)"},
		"web.confirm.invalid.one":    {ES: "%d fila con errores: no se envía hasta corregirla (vuelva al archivo para hacerlo)", EN: "%d row with errors: not sent until fixed (go back to the file to fix it)"},
		"web.confirm.needed":         {ES: "No se envió nada: el envío necesita su confirmación. Revise lo que se envía y confirme abajo.", EN: "Nothing was sent: the send needs your confirmation. Check what is sent and confirm below."},
		"web.confirm.changed":        {ES: "No se envió nada: el archivo o sus opciones cambiaron desde que confirmó. Revise lo que se envía ahora y confirme de nuevo.", EN: "Nothing was sent: the file or its options changed since you confirmed. Check what is sent now and confirm again."},

		"web.confirm.reportdir": {ES: "Los informes de este envío se guardan también en la carpeta de informes %s.", EN: "This send's reports are also kept in the report folder %s."},

		"web.log.settings.reportdir": {ES: "carpeta de informes elegida en la página", EN: "report folder chosen in the page"},
		"web.log.settings.copy":      {ES: "no se pudieron copiar los informes a la carpeta de informes", EN: "could not copy the reports to the report folder"},

		"web.settings.save":                 {ES: "Guardar", EN: "Save"},
		"web.settings.notsaved":             {ES: "No se pudo guardar la opción: %s.", EN: "Could not save the setting: %s."},
		"web.settings.reportdir.label":      {ES: "Carpeta de informes de las ejecuciones programadas", EN: "Report folder of the scheduled runs"},
		"web.settings.reportdir.help":       {ES: "La ruta completa de la carpeta donde la tarea programada guarda sus informes (por ejemplo /home/contable/informes). Si no existe, se crea. Los envíos desde esta página guardan allí una copia de sus informes. Déjela vacía para no usar ninguna.", EN: "The full path of the folder where the scheduled job keeps its reports (for example /home/accounts/reports). It is created when missing. Sends from this page keep a copy of their reports there. Leave it empty to use none."},
		"web.settings.reportdir.now":        {ES: "Carpeta en uso: %s", EN: "Folder in use: %s"},
		"web.settings.reportdir.started":    {ES: "También se lee %s (elegida al iniciar la página).", EN: "%s is read too (chosen when the page was started)."},
		"web.settings.reportdir.saved":      {ES: "Carpeta de informes guardada: %s.", EN: "Report folder saved: %s."},
		"web.settings.reportdir.cleared":    {ES: "Ya no se usa ninguna carpeta de informes.", EN: "No report folder is used any more."},
		"web.settings.reportdir.relative":   {ES: "«%s» no es una ruta completa: escriba la ruta desde el principio (por ejemplo /home/contable/informes o C:\\Informes).", EN: "\"%s\" is not a full path: write the path from its start (for example /home/accounts/reports or C:\\Reports)."},
		"web.settings.reportdir.notdir":     {ES: "%s es un archivo, no una carpeta: elija una carpeta.", EN: "%s is a file, not a folder: choose a folder."},
		"web.settings.reportdir.create":     {ES: "No se pudo crear la carpeta %s: %s.", EN: "Could not create the folder %s: %s."},
		"web.settings.reportdir.unwritable": {ES: "No se puede escribir en la carpeta %s: %s. Elija una carpeta donde su usuario pueda guardar archivos.", EN: "Cannot write in the folder %s: %s. Choose a folder where your user can save files."},
		"web.settings.reportdir.copyfailed": {ES: "El envío terminó, pero sus informes no se pudieron copiar a la carpeta de informes %s: %s. Descárguelos de esta página.", EN: "The send ended, but its reports could not be copied to the report folder %s: %s. Download them from this page."},

		"web.field.articulos.cantidadContada": {ES: "Cantidad contada (conteo de inventario)", EN: "Counted quantity (inventory count)"},
		"web.field.desc.cantidadContada":      {ES: "Lo que se contó del artículo en el depósito: el envío lleva el stock del ERP a esta cantidad (un ingreso o un egreso por la diferencia).", EN: "What was counted of the article in the warehouse: the send brings the ERP's stock to this quantity (an inflow or an outflow for the difference)."},

		"web.zero.label":       {ES: "Faltantes en cero", EN: "Missing ones at zero"},
		"web.zero.on":          {ES: "Activado: es un conteo completo. Cada artículo con stock en los depósitos contados que no figura en este archivo se pone en 0 al enviar (se envía un egreso por todo su stock).", EN: "On: this is a full count. Every article with stock in the counted warehouses that this file does not list is set to 0 by the send (an outflow of all its stock is sent)."},
		"web.zero.off":         {ES: "Desactivado: solo se corrigen los artículos que figuran en el archivo; los demás no se tocan. Actívelo si este archivo es el conteo completo de los depósitos.", EN: "Off: only the articles the file lists are corrected; the others are left as they are. Turn it on if this file is the full count of the warehouses."},
		"web.zero.on.saved":    {ES: "Faltantes en cero activado para este conteo.", EN: "Missing ones at zero turned on for this count."},
		"web.zero.off.saved":   {ES: "Faltantes en cero desactivado para este conteo.", EN: "Missing ones at zero turned off for this count."},
		"web.confirm.zero.on":  {ES: "Faltantes en cero está activado: cada artículo con stock en los depósitos contados que no figura en este conteo se pondrá en 0 (se envía un egreso por todo su stock). Se listan en el informe de faltantes.", EN: "Missing ones at zero is on: every article with stock in the counted warehouses that this count does not list will be set to 0 (an outflow of all its stock is sent). They are listed in the missing ones' report."},
		"web.confirm.zero.off": {ES: "Faltantes en cero está desactivado: los artículos que no figuran en este conteo no se tocan.", EN: "Missing ones at zero is off: the articles this count does not list are left as they are."},

		// The page's wording of the count's messages that name the
		// command line's flag.
		"web.page.cnt.row.added":    {ES: "agregada por «Faltantes en cero»: no figura en el conteo y el ERP tenía %s en el depósito %d, así que se cuenta como 0. %s", EN: "added by \"Missing ones at zero\": it is not in the count and the ERP had %s in warehouse %d, so it is counted as 0. %s"},
		"web.page.cnt.plan.added":   {ES: "Variantes con stock en los depósitos contados que no figuran en el conteo y se cuentan como 0 («Faltantes en cero»): %d, cada una listada con su fila agregada", EN: "Variants with stock in the counted warehouses that are not in the count and are counted as 0 (\"Missing ones at zero\"): %d, each listed as an added row"},
		"web.page.cnt.zero.blocked": {ES: "«Faltantes en cero» no puso nada en 0: hay filas con errores (%s) y no se sabe qué artículo cuentan, así que cualquiera podría ser uno de los faltantes. Corríjalas y vuelva a enviar el archivo: entonces se ponen en 0 los que falten", EN: "\"Missing ones at zero\" set nothing to 0: some rows have errors (%s) and it is not known which article they count, so any of them could be one of the missing ones. Fix them and send the file again: the missing ones are then set to 0"},

		"web.columns.fromcatalog.code":    {ES: "Propuesta por sus valores: %d de %d son códigos de artículos del catálogo.", EN: "Proposed from its values: %d of %d are article codes of the catalog."},
		"web.columns.fromcatalog.barcode": {ES: "Propuesta por sus valores: %d de %d son códigos de barras del catálogo de artículos.", EN: "Proposed from its values: %d of %d are barcodes of the article catalog."},
	})
}
