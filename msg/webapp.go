package msg

// Messages of `nxbatch serve`, the importer in the browser: every sentence
// its pages show, and what the command says on the terminal. The pages
// address the user as "usted", like the rest of the catalog.
func init() {
	register(map[string]Text{
		// The log of nxbatch serve, in the run's language (--lang).
		"web.log.host":               {ES: "se rechazó un pedido dirigido a otro nombre de host", EN: "refused a request for another host name"},
		"web.log.catalog.ready":      {ES: "catálogo %s listo", EN: "catalog %s ready"},
		"web.log.catalog.notfetched": {ES: "no se obtuvo el catálogo %s", EN: "catalog %s not fetched"},
		"web.log.catalogs":           {ES: "catálogos actualizados desde la página", EN: "catalogs refreshed from the page"},
		"web.log.profile":            {ES: "perfil de columnas guardado", EN: "column profile saved"},
		"web.log.resolved":           {ES: "resultado resuelto desde la página", EN: "outcome settled from the page"},
		"web.log.render":             {ES: "no se pudo mostrar la página", EN: "the page could not be rendered"},
		"web.log.upload.refused":     {ES: "archivo rechazado", EN: "upload refused"},
		"web.log.upload":             {ES: "archivo recibido", EN: "upload received"},
		"web.log.fixed":              {ES: "celda corregida", EN: "cell fixed"},
		"web.log.fixwrite":           {ES: "no se pudo escribir la versión corregida (se reintenta al leerla)", EN: "the fixed version could not be written (tried again when it is read)"},
		"web.log.fixreplayed":        {ES: "versión corregida escrita desde edits.jsonl", EN: "fixed version written from edits.jsonl"},
		"web.log.send.started":       {ES: "envío iniciado", EN: "send started"},
		"web.log.send.finished":      {ES: "envío terminado", EN: "send finished"},
		"web.log.send.stopped":       {ES: "envío detenido desde la página", EN: "send stopped from the page"},

		// The command.
		"serve.listening":       {ES: "nxbatch serve: abra %s en el navegador; la dirección lleva la clave que solo usted tiene: no la comparta (Ctrl-C para terminar)", EN: "nxbatch serve: open %s in your browser; the address carries a key only you have: do not share it (Ctrl-C to stop)"},
		"serve.password.needed": {ES: "--addr %s no es una dirección local: la página quedaría al alcance de otras máquinas. Cree antes los usuarios que podrán ingresar (nxbatch serve user add NOMBRE) o indique --password-file ARCHIVO (legible solo por su dueño) con su contraseña, o use 127.0.0.1", EN: "--addr %s is not a local address: the page would be reachable from other machines. First create the users who may log in (nxbatch serve user add NAME) or give --password-file FILE (readable by its owner only) with your password, or use 127.0.0.1"},
		"serve.remote":          {ES: "atención: %s atiende a otras máquinas; pide usuario y contraseña, pero viajan sin cifrar por http: póngale delante un proxy con TLS", EN: "warning: %s serves other machines; it asks for a user and password, but they travel unencrypted over http: put a TLS proxy in front of it"},
		"serve.addr.bad":        {ES: "--addr %s: se espera HOST:PUERTO, por ejemplo 127.0.0.1:8080", EN: "--addr %s: expected HOST:PORT, e.g. 127.0.0.1:8080"},
		"serve.password.read":   {ES: "no se pudo leer la contraseña de %s", EN: "cannot read the password from %s"},
		"serve.password.perms":  {ES: "el archivo de contraseña %s tiene permisos %s: otros usuarios pueden leerlo. Ejecute: chmod 600 %s", EN: "the password file %s has mode %s: other users can read it. Run: chmod 600 %s"},
		"serve.password.short":  {ES: "la contraseña de %s tiene %d caracteres: debe tener al menos %d", EN: "the password in %s has %d characters: it must have at least %d"},
		"serve.password.empty":  {ES: "el archivo de contraseña %s está vacío: escriba en él la contraseña que pedirá la página", EN: "the password file %s is empty: write in it the password the page will ask for"},
		"serve.stopping":        {ES: "nxbatch serve: terminando (los envíos en curso se cierran y quedan en el diario)", EN: "nxbatch serve: stopping (sends in progress are settled and journaled)"},
		"serve.failed":          {ES: "no se pudo iniciar la página: %s", EN: "cannot start the page: %s"},
		"web.uploads.folder":    {ES: "no se pudo usar la carpeta %s, donde la página guarda los archivos subidos: %s. Revise que se pueda escribir en ella", EN: "the folder %s, where the page keeps the uploaded files, cannot be used: %s. Check that it can be written to"},
		"cli.map.nofile":        {ES: "--map %s: ese archivo de mapeo no existe", EN: "--map %s: that mapping file does not exist"},
		"cli.map.notfound":      {ES: "--map %s: no hay un archivo con ese nombre ni un perfil guardado así en %s (los perfiles se guardan desde la pantalla de columnas de nxbatch serve)", EN: "--map %s: there is no file by that name and no profile saved so in %s (profiles are saved from nxbatch serve's column screen)"},

		// Guards.
		"web.crossorigin":    {ES: "Pedido rechazado: vino de otro sitio. Use la página de nxbatch directamente.", EN: "Request refused: it came from another site. Use the nxbatch page directly."},
		"web.host":           {ES: "Pedido rechazado: el nombre %q no es el de este servidor. Abra la página por 127.0.0.1 o localhost; para entrar con otro nombre, quien instaló nxbatch debe permitirlo en su configuración.", EN: "Request refused: the name %q is not this server's. Open the page through 127.0.0.1 or localhost; to come in by another name, whoever installed nxbatch must allow it in its configuration."},
		"web.busy":           {ES: "El servidor está leyendo otras planillas, todas las que su memoria permite a la vez: vuelva a intentar en un momento.", EN: "The server is reading other spreadsheets, as many as its memory allows at once: try again in a moment."},
		"web.streams":        {ES: "Hay demasiadas páginas de progreso abiertas a la vez: esta se actualiza sola cada 2 segundos.", EN: "Too many progress pages are open at once: this one refreshes itself every 2 seconds."},
		"web.login.title":    {ES: "Ingresar a nxbatch", EN: "Log in to nxbatch"},
		"web.login.owner":    {ES: "Quien inició nxbatch entra con la dirección que se abrió en su navegador al iniciarlo (también guardada, legible solo por su dueño, en el archivo serve-url.txt de su carpeta de estado): vuelva a abrir nxbatch para entrar.", EN: "Whoever started nxbatch gets in with the address its browser opened at start (also kept, readable by its owner only, in the file serve-url.txt of their state folder): open nxbatch again to get in."},
		"web.login.user":     {ES: "Usuario", EN: "User"},
		"web.login.password": {ES: "Contraseña", EN: "Password"},
		"web.login.submit":   {ES: "Ingresar", EN: "Log in"},
		"web.login.badkey":   {ES: "Esa dirección no tiene la clave de este servidor: la clave cambia cada vez que se inicia nxbatch; use la dirección que se abrió al iniciarlo esta vez, o vuelva a abrir nxbatch.", EN: "That address does not carry this server's key: the key changes at every start of nxbatch; use the address opened when it started this time, or open nxbatch again."},

		// Layout.
		"web.skip":         {ES: "Ir al contenido", EN: "Skip to content"},
		"web.nav.label":    {ES: "Secciones", EN: "Sections"},
		"web.nav.import":   {ES: "Importar", EN: "Import"},
		"web.nav.history":  {ES: "Historial", EN: "History"},
		"web.nav.catalogs": {ES: "Catálogos y plantillas", EN: "Catalogs and templates"},
		"web.lang.switch":  {ES: "English", EN: "Español"},
		"web.api":          {ES: "Los envíos van a la API en %s.", EN: "Sends go to the API at %s."},
		"web.api.tenant":   {ES: "Los envíos van a la API en %s (tenant %s en el diario).", EN: "Sends go to the API at %s (tenant %s in the journal)."},
		"web.sandbox":      {ES: "Modo de prueba: los envíos van al sandbox incorporado, no a su ERP.", EN: "Test mode: sends go to the embedded sandbox, not to your ERP."},
		"web.error.title":  {ES: "No se pudo", EN: "That did not work"},
		"web.error.back":   {ES: "Volver al inicio", EN: "Back to the start"},

		// Home and upload.
		"web.home.title":     {ES: "Importar", EN: "Import"},
		"web.home.heading":   {ES: "Importar una planilla", EN: "Import a spreadsheet"},
		"web.home.intro":     {ES: "Suba una planilla de ventas, preventas a facturar o movimientos de stock. Antes de enviar nada verá qué contiene, cada error en su celda, y podrá corregirlo.", EN: "Upload a spreadsheet of sales, presales to invoice or stock movements. Before anything is sent you will see what it holds and every error on its cell, and you can fix it."},
		"web.home.templates": {ES: "Plantillas para completar", EN: "Templates to fill"},
		"web.home.recent":    {ES: "Importaciones recientes", EN: "Recent imports"},
		"web.upload.label":   {ES: "Archivo CSV o XLSX (arrástrelo aquí o elíjalo)", EN: "CSV or XLSX file (drop it here or pick it)"},
		"web.upload.help":    {ES: "Hasta %d MB y %s filas. El archivo se guarda sin cambios en su carpeta de nxbatch.", EN: "Up to %d MB and %s rows. The file is kept unchanged in your nxbatch folder."},
		"web.upload.submit":  {ES: "Subir y revisar", EN: "Upload and check"},
		"web.upload.nofile":  {ES: "No llegó ningún archivo: elija uno y vuelva a intentar.", EN: "No file arrived: pick one and try again."},
		"web.upload.gone":    {ES: "Esa importación no existe (o se borró su carpeta).", EN: "That import does not exist (or its folder was deleted)."},
		"web.toolarge":       {ES: "El archivo supera el máximo de %d MB: divídalo en partes más chicas.", EN: "The file is over the %d MB limit: split it into smaller parts."},
		"web.toomanyrows":    {ES: "El archivo tiene %d filas, más que las %d que acepta la página: divídalo en archivos más chicos y súbalos de a uno.", EN: "The file has %d rows, more than the %d the page takes: split it into smaller files and upload them one at a time."},
		"web.readfailed":     {ES: "No se pudo leer el archivo: %s", EN: "The file could not be read: %s"},

		// The plan and the preview.
		"web.import.title":      {ES: "Importar %s", EN: "Import %s"},
		"web.plan.heading":      {ES: "Qué contiene", EN: "What it holds"},
		"web.plan.least":        {ES: "Tiempo mínimo que permiten los límites de la API para enviarlo: %s.", EN: "Least time the API's limits allow to send it: %s."},
		"web.plan.catalog":      {ES: "Ids verificados contra %s (descargado %s).", EN: "Ids checked against %s (fetched %s)."},
		"web.plan.catalog.none": {ES: "Ids sin verificar: %s todavía no se descargó (vea Catálogos).", EN: "Ids not checked: %s was not fetched yet (see Catalogs)."},
		"web.plan.profile":      {ES: "Columnas según el perfil «%s»", EN: "Columns as profile \"%s\" says"},
		"web.plan.edits":        {ES: "%d celdas corregidas (se envía la versión corregida; el original no cambia)", EN: "%d cells fixed (the fixed version is sent; the original is unchanged)"},
		"web.plan.edits.one":    {ES: "%d celda corregida (se envía la versión corregida; el original no cambia)", EN: "%d cell fixed (the fixed version is sent; the original is unchanged)"},
		"web.plan.columns":      {ES: "Revisar columnas", EN: "Check columns"},
		"web.plan.errorsxlsx":   {ES: "Descargar las filas con errores (XLSX) para corregirlas en Excel", EN: "Download the rows with errors (XLSX) to fix them in Excel"},
		"web.cat.medios-pago":   {ES: "medios de pago", EN: "payment methods"},
		"web.cat.motivos":       {ES: "motivos de stock", EN: "stock reasons"},
		"web.cat.config":        {ES: "configuración", EN: "configuration"},
		"web.cat.depositos":     {ES: "depósitos", EN: "warehouses"},
		"web.cat.puntos-venta":  {ES: "puntos de venta", EN: "points of sale"},
		"web.cat.empleados":     {ES: "empleados", EN: "employees"},
		"web.table.heading":     {ES: "Filas", EN: "Rows"},
		"web.table.filter":      {ES: "Qué filas mostrar", EN: "Which rows to show"},
		"web.table.all":         {ES: "Todas", EN: "All"},
		"web.table.only":        {ES: "Solo errores (%d)", EN: "Errors only (%d)"},
		"web.table.caption":     {ES: "Página %d de %d (%s filas)", EN: "Page %d of %d (%s rows)"},
		"web.table.caption.one": {ES: "Página %d de %d (%s fila)", EN: "Page %d of %d (%s row)"},
		"web.table.row":         {ES: "Fila", EN: "Row"},
		"web.table.status":      {ES: "Estado", EN: "Status"},
		"web.table.ids":         {ES: "Creado en el ERP", EN: "Created in the ERP"},
		"web.table.message":     {ES: "Mensaje", EN: "Message"},
		"web.table.pages":       {ES: "Páginas", EN: "Pages"},
		"web.table.prev":        {ES: "Anterior", EN: "Previous"},
		"web.table.next":        {ES: "Siguiente", EN: "Next"},
		"web.table.page":        {ES: "Página %d de %d", EN: "Page %d of %d"},
		"web.sheets":            {ES: "Hojas del archivo", EN: "Sheets of the file"},
		"web.st.ok":             {ES: "enviada", EN: "sent"},
		"web.st.skipped":        {ES: "ya enviada", EN: "already sent"},
		"web.st.valid":          {ES: "válida", EN: "valid"},
		"web.st.invalid":        {ES: "con errores", EN: "with errors"},
		"web.st.rejected":       {ES: "rechazada", EN: "rejected"},
		"web.st.conflict":       {ES: "en conflicto", EN: "in conflict"},
		"web.st.unknown":        {ES: "resultado desconocido", EN: "unknown outcome"},
		"web.st.pending":        {ES: "pendiente", EN: "pending"},
		"web.ids":               {ES: "factura %d, número %d, punto de venta %d", EN: "invoice %d, number %d, point of sale %d"},
		"web.ids.mov":           {ES: "movimiento %d", EN: "movement %d"},
		"web.ago.now":           {ES: "hace menos de un minuto", EN: "less than a minute ago"},
		"web.ago.min.one":       {ES: "hace %d minuto", EN: "%d minute ago"},
		"web.ago.min":           {ES: "hace %d minutos", EN: "%d minutes ago"},
		"web.ago.hours.one":     {ES: "hace %d hora", EN: "%d hour ago"},
		"web.ago.hours":         {ES: "hace %d horas", EN: "%d hours ago"},
		"web.ago.days.one":      {ES: "hace %d día", EN: "%d day ago"},
		"web.ago.days":          {ES: "hace %d días", EN: "%d days ago"},
		"web.dur.none":          {ES: "menos de un segundo", EN: "less than a second"},
		"web.dur.sec.one":       {ES: "%d segundo", EN: "%d second"},
		"web.dur.sec":           {ES: "%d segundos", EN: "%d seconds"},
		"web.dur.min":           {ES: "%d min %d s", EN: "%d min %d s"},
		"web.dur.hours":         {ES: "%d h %d min", EN: "%d h %d min"},
		"web.fix.label":         {ES: "Corregir fila %d, columna %s", EN: "Fix row %d, column %s"},
		"web.fix.save":          {ES: "Guardar", EN: "Save"},
		"web.fix.save.label":    {ES: "Guardar: %s", EN: "Save: %s"},
		"web.fix.ok":            {ES: "Fila %d corregida: ahora está %s.", EN: "Row %d fixed: it is now %s."},
		"web.fix.still":         {ES: "Fila %d guardada, pero sigue con errores: %s", EN: "Row %d saved, but it still has errors: %s"},
		"web.fix.done":          {ES: "Fila %d guardada.", EN: "Row %d saved."},
		"web.fix.bad":           {ES: "No se entendió qué celda corregir: recargue la página.", EN: "Which cell to fix was not understood: reload the page."},
		"web.fix.stale":         {ES: "La planilla cambió desde que se abrió esta página: recárguela y vuelva a corregir.", EN: "The sheet changed since this page was opened: reload it and fix again."},
		"web.fix.failed":        {ES: "No se pudo guardar la corrección: %s", EN: "The fix could not be saved: %s"},

		// The column screen.
		"web.columns.title":      {ES: "Columnas de %s", EN: "Columns of %s"},
		"web.columns.heading":    {ES: "¿Qué es cada columna de %s?", EN: "What is each column of %s?"},
		"web.columns.intro":      {ES: "Las columnas no coinciden con los campos de la API. Confirme o cambie el campo que completa cada una; se guarda con un nombre y se aplica solo a los próximos archivos con las mismas columnas.", EN: "The columns do not match the API's fields. Confirm or change the field each one fills; it is saved under a name and applied by itself to the next files with the same columns."},
		"web.columns.profiles":   {ES: "Perfiles guardados para estas columnas", EN: "Profiles saved for these columns"},
		"web.columns.use":        {ES: "Usar el perfil «%s»", EN: "Use profile \"%s\""},
		"web.columns.kind":       {ES: "Tipo de archivo", EN: "Kind of file"},
		"web.columns.change":     {ES: "Cambiar tipo", EN: "Change kind"},
		"web.columns.caption":    {ES: "Cada columna y el campo de la API que completa", EN: "Each column and the API field it fills"},
		"web.columns.yours":      {ES: "Su columna", EN: "Your column"},
		"web.columns.example":    {ES: "Ejemplo (primera fila)", EN: "Example (first row)"},
		"web.columns.field":      {ES: "Campo de la API", EN: "API field"},
		"web.columns.none":       {ES: "— no usar —", EN: "— do not use —"},
		"web.columns.name.label": {ES: "Nombre del perfil", EN: "Profile name"},
		"web.columns.name.help":  {ES: "Letras, números, espacios, - _ o . (hasta 60).", EN: "Letters, digits, blanks, - _ or . (up to 60)."},
		"web.columns.name":       {ES: "Falta el nombre del perfil, o tiene caracteres que no se aceptan (use letras, números, espacios, - _ o .).", EN: "The profile name is missing, or has characters that are not accepted (use letters, digits, blanks, - _ or .)."},
		"web.profile.savefailed": {ES: "No se pudo guardar el perfil «%s»: %s. Revise que se pueda escribir en la carpeta de estado de nxbatch", EN: "The profile \"%s\" could not be saved: %s. Check that nxbatch's state folder can be written to"},
		"web.columns.save":       {ES: "Guardar perfil y revisar el archivo", EN: "Save profile and check the file"},
		"web.columns.twice":      {ES: "El campo %s está elegido para dos columnas: «%s» y «%s».", EN: "Field %s is chosen for two columns: \"%s\" and \"%s\"."},
		"web.columns.missing":    {ES: "Faltan campos obligatorios: %s. Para cada uno, elija en la tabla la columna de su planilla que lo completa.", EN: "Required fields are missing: %s. For each one, choose in the table the column of your spreadsheet that fills it."},
		"web.columns.badfield":   {ES: "%s no es un campo de este tipo de archivo.", EN: "%s is not a field of this kind of file."},
		"web.kind.venta":         {ES: "Venta", EN: "Sale"},
		"web.kind.facturar":      {ES: "Preventa a facturar", EN: "Presale to invoice"},
		"web.kind.stock":         {ES: "Movimiento de stock", EN: "Stock movement"},

		// Sending.
		"web.send.heading":     {ES: "Enviar", EN: "Send"},
		"web.send.button":      {ES: "Enviar las filas válidas", EN: "Send the valid rows"},
		"web.send.help":        {ES: "Lo ya enviado antes no se reenvía: el diario lo recuerda.", EN: "What was sent before is not sent again: the journal remembers it."},
		"web.send.title":       {ES: "Enviando %s", EN: "Sending %s"},
		"web.send.progress":    {ES: "Progreso del envío", EN: "Progress of the send"},
		"web.send.count":       {ES: "Solicitudes: %d de %d", EN: "Requests: %d of %d"},
		"web.send.eta":         {ES: "Falta aproximadamente: %s", EN: "About %s left"},
		"web.send.stop":        {ES: "Detener", EN: "Stop"},
		"web.send.stophelp":    {ES: "Lo que ya se está enviando se termina y queda anotado en el diario; el resto queda pendiente para el próximo envío.", EN: "What is being sent is finished and journaled; the rest stays pending for the next send."},
		"web.send.seeresult":   {ES: "Ver el resultado", EN: "See the result"},
		"web.send.back":        {ES: "Volver a la importación", EN: "Back to the import"},
		"web.send.follow":      {ES: "Hay un envío en curso: seguirlo", EN: "A send is in progress: follow it"},
		"web.send.lastresult":  {ES: "Resultado del último envío", EN: "Result of the last send"},
		"web.send.line":        {ES: "Envío %s: %s; %s.", EN: "Send %s: %s; %s."},
		"web.send.busy":        {ES: "Otra importación se está enviando desde esta página: espere a que termine.", EN: "Another import is being sent from this page: wait for it to finish."},
		"web.send.locked":      {ES: "No se envió nada: otro proceso de nxbatch (por ejemplo una tarea programada) está enviando con el mismo diario. Vuelva a intentar cuando termine; así nunca se envía lo mismo dos veces.", EN: "Nothing was sent: another nxbatch process (a scheduled job, for example) is sending with the same journal. Try again when it finishes; this way nothing is ever sent twice."},
		"web.send.leased":      {ES: "No se envió nada: otra ejecución de nxbatch está enviando para esta empresa desde otra máquina (%s). Vuelva a intentar cuando termine; así nunca se envía lo mismo dos veces.", EN: "Nothing was sent: another nxbatch process is sending for this company from another machine (%s). Try again when it finishes; this way nothing is ever sent twice."},
		"web.send.nojournal":   {ES: "No se envió nada: no se pudo usar el diario: %s", EN: "Nothing was sent: the journal could not be used: %s"},
		"web.send.notenant":    {ES: "No se envió nada: no se pudo saber a qué empresa apunta la conexión: %s", EN: "Nothing was sent: which company the connection points at could not be learned: %s"},
		"web.send.noread":      {ES: "No se envió nada: %s", EN: "Nothing was sent: %s"},
		"web.send.noreports":   {ES: "El envío terminó, pero los informes no se pudieron escribir: %s", EN: "The send finished, but the reports could not be written: %s"},
		"web.send.nothing":     {ES: "No se envió nada: no queda nada por enviar (%s). Lo ya enviado figura en el diario y no se reenvía.", EN: "Nothing was sent: nothing is left to send (%s). What was sent is in the journal and is not sent again."},
		"web.result.title":     {ES: "Resultado de %s", EN: "Result of %s"},
		"web.result.downloads": {ES: "Informes", EN: "Reports"},
		"web.result.rows":      {ES: "Cada fila con su resultado", EN: "Every row with its outcome"},
		"web.result.another":   {ES: "Importar otro archivo", EN: "Import another file"},
		"web.file.resultxlsx":  {ES: "todas las filas con su resultado, en Excel", EN: "every row with its outcome, for Excel"},
		"web.file.resultcsv":   {ES: "todas las filas con su resultado, CSV", EN: "every row with its outcome, CSV"},
		"web.file.errors":      {ES: "solo las filas a revisar: corríjalas y vuelva a subir este archivo", EN: "only the rows to check: fix them and upload this file again"},
		"web.file.summary":     {ES: "resumen para auditoría y tareas programadas", EN: "summary for audits and scheduled jobs"},
		"web.file.gone":        {ES: "Ese archivo no existe.", EN: "That file does not exist."},

		// History and unknown outcomes.
		"web.history.title":     {ES: "Historial", EN: "History"},
		"web.history.heading":   {ES: "Historial de importaciones", EN: "Import history"},
		"web.history.imports":   {ES: "Desde esta página", EN: "From this page"},
		"web.history.runs":      {ES: "Desde la terminal y tareas programadas", EN: "From the terminal and scheduled jobs"},
		"web.history.nodirs":    {ES: "Las ejecuciones programadas aparecen aquí cuando esta página lee la carpeta donde la tarea programada guarda sus informes: elíjala abajo.", EN: "Scheduled runs appear here when this page reads the folder where the scheduled job keeps its reports: choose it below."},
		"web.history.none":      {ES: "Todavía no hay importaciones.", EN: "No imports yet."},
		"web.history.fromweb":   {ES: "desde la página", EN: "from the page"},
		"web.history.notsent":   {ES: "Todavía no se envió.", EN: "Not sent yet."},
		"web.history.locked":    {ES: "Otro proceso de nxbatch tiene el diario y no responde consultas: la lista de resultados desconocidos se verá cuando termine.", EN: "Another nxbatch process holds the journal and does not answer listings: the unknown outcomes will show when it finishes."},
		"web.history.nojournal": {ES: "No se pudo leer el diario: %s", EN: "The journal could not be read: %s"},
		"web.unknown.heading":   {ES: "Resultados desconocidos", EN: "Unknown outcomes"},
		"web.unknown.intro":     {ES: "Solicitudes que pudieron haberse registrado en el ERP sin respuesta segura. No se reenvían solas: verifique en el ERP y anote qué vio.", EN: "Requests that may have been recorded in the ERP without a definite answer. They are not sent again by themselves: check in the ERP and note what you saw."},
		"web.unknown.none":      {ES: "No hay resultados desconocidos.", EN: "There are no unknown outcomes."},
		"web.unknown.source":    {ES: "De dónde vino", EN: "Where it came from"},
		"web.unknown.attempts":  {ES: "Intentos y último", EN: "Attempts and last"},
		"web.unknown.why":       {ES: "Qué pasó", EN: "What happened"},
		"web.unknown.evidence":  {ES: "Lo que leyó la conciliación", EN: "What reconciliation read"},
		"web.unknown.key":       {ES: "Clave en el diario", EN: "Journal key"},
		"web.resolve.legend":    {ES: "Qué muestra el ERP", EN: "What the ERP shows"},
		"web.resolve.ok":        {ES: "Se registró (ok)", EN: "It was recorded (ok)"},
		"web.resolve.failed":    {ES: "No se registró (failed: el próximo envío lo manda)", EN: "It was not recorded (failed: the next send sends it)"},
		"web.resolve.note":      {ES: "Nota: qué verificó en el ERP", EN: "Note: what you checked in the ERP"},
		"web.resolve.submit":    {ES: "Resolver", EN: "Resolve"},
		"web.resolve.done":      {ES: "Resuelta %s como %s.", EN: "Resolved %s as %s."},
		"web.resolve.badkey":    {ES: "Falta la clave de la solicitud, o no es válida.", EN: "The request's key is missing or not valid."},
		"web.resolve.badas":     {ES: "Elija si el ERP muestra la solicitud (ok) o no (failed).", EN: "Choose whether the ERP shows the request (ok) or not (failed)."},
		"web.resolve.nonote":    {ES: "Escriba qué verificó en el ERP (hasta 2000 caracteres).", EN: "Write what you checked in the ERP (up to 2000 characters)."},
		"web.resolve.locked":    {ES: "Otro proceso de nxbatch está usando el diario: vuelva a intentar cuando termine.", EN: "Another nxbatch process is using the journal: try again when it finishes."},

		// Catalogs and templates.
		"web.catalogs.title":       {ES: "Catálogos y plantillas", EN: "Catalogs and templates"},
		"web.catalogs.heading":     {ES: "Catálogos de la empresa", EN: "The company's catalogs"},
		"web.catalogs.refresh":     {ES: "Actualizar desde la API", EN: "Refresh from the API"},
		"web.catalogs.refreshhelp": {ES: "La API permite consultar un catálogo por minuto: se actualiza ahora el más antiguo que se pueda.", EN: "The API allows one catalog request a minute: the oldest one that can be fetched now is refreshed."},
		"web.catalogs.age":         {ES: "Descargado %s.", EN: "Fetched %s."},
		"web.catalogs.never":       {ES: "Nunca descargado.", EN: "Never fetched."},
		"web.catalogs.locked":      {ES: "Otro proceso de nxbatch está usando el diario (que lleva la cuenta de la ventana de la API): vuelva a intentar cuando termine.", EN: "Another nxbatch process is using the journal (which keeps the API's window): try again when it finishes."},
		"web.catalogs.notenant":    {ES: "Todavía no se sabe a qué empresa apunta la conexión: los catálogos aparecen después del primer contacto con la API.", EN: "Which company the connection points at is not known yet: the catalogs show after the first contact with the API."},
		"web.template.venta":       {ES: "Plantilla de ventas (XLSX)", EN: "Sales template (XLSX)"},
		"web.template.facturar":    {ES: "Plantilla de preventas a facturar (XLSX)", EN: "Presales to invoice template (XLSX)"},
		"web.template.stock":       {ES: "Plantilla de movimientos de stock (XLSX)", EN: "Stock movements template (XLSX)"},
		"web.template.kind":        {ES: "Tipo de archivo desconocido: use venta, facturar o stock.", EN: "Unknown kind of file: use venta, facturar or stock."},
		"web.template.nolist":      {ES: "%s no está descargado: su lista desplegable no se incluye (actualícelo en Catálogos)", EN: "%s is not fetched: its drop-down list is left out (refresh it in Catalogs)"},
	})
}

// Messages added by the review of the page (kept apart so that the texts
// above keep their lines).
func init() {
	register(map[string]Text{
		// The progress page's heading, as the send goes and once it ended.
		"web.send.title.stopping": {ES: "Deteniendo el envío de %s", EN: "Stopping the send of %s"},
		"web.send.title.done":     {ES: "Envío de %s terminado", EN: "Send of %s finished"},
		"web.send.title.stopped":  {ES: "Envío de %s detenido", EN: "Send of %s stopped"},
		"web.send.title.cut":      {ES: "Envío de %s interrumpido", EN: "Send of %s cut short"},
		"web.send.title.failed":   {ES: "No se envió %s", EN: "%s was not sent"},

		"web.catalogs.notfetched": {ES: "Para descargarlo use «Actualizar desde la API», arriba (la API permite un catálogo por minuto).", EN: "To fetch it, use \"Refresh from the API\", above (the API allows one catalog a minute)."},

		// What a refresh of the catalogs did, as the page says it.
		"web.catname.medios-pago":        {ES: "Medios de pago", EN: "Payment methods"},
		"web.catname.motivos":            {ES: "Motivos de stock", EN: "Stock reasons"},
		"web.catname.config":             {ES: "Configuración de la empresa", EN: "Company configuration"},
		"web.catname.depositos":          {ES: "Depósitos", EN: "Warehouses"},
		"web.catname.puntos-venta":       {ES: "Puntos de venta", EN: "Points of sale"},
		"web.catname.empleados":          {ES: "Empleados", EN: "Employees"},
		"web.catalogs.pull.fetched":      {ES: "%s: actualizado desde la API.", EN: "%s: fetched from the API."},
		"web.catalogs.pull.local":        {ES: "%s: tomado del sandbox embebido.", EN: "%s: taken from the embedded sandbox."},
		"web.catalogs.pull.fresh":        {ES: "%s: la copia guardada es de %s; no hace falta consultarlo.", EN: "%s: the cached copy is from %s; no need to fetch it."},
		"web.catalogs.pull.window":       {ES: "la API permite una consulta de catálogos por minuto; se podrá pedir a las %s (en %s)", EN: "the API allows one catalog request a minute; it can be fetched at %s (in %s)"},
		"web.catalogs.pull.unauthorized": {ES: "la API rechazó el token (HTTP 401): quien inició esta página debe revisarlo", EN: "the API refused the token (HTTP 401): whoever started this page must check it"},
		"web.catalogs.pull.apiwait":      {ES: "la API pidió esperar %s: «%s»; se podrá pedir a las %s", EN: "the API asked to wait %s: \"%s\"; it can be fetched at %s"},
		"web.catalogs.pull.none":         {ES: "%s: no se descargó y no hay copia guardada: %s.", EN: "%s: not fetched, and there is no cached copy: %s."},
		"web.catalogs.pull.cached":       {ES: "%s: queda la copia descargada %s; no se volvió a descargar: %s.", EN: "%s: the copy fetched %s stays; it was not fetched again: %s."},

		// The page's wording of messages whose command-line wording sends
		// the user to a terminal (ForPage): the same arguments, pointing at
		// the page's own controls. An argument the page does not say is
		// written %.0s (printed as nothing).
		"web.page.val.medioPago.cuenta": {
			ES: "medioPago.cuentaBancariaId está vacío: con DEPOSITO_BANCO indique la cuenta bancaria (vea las cuentas en Catálogos y plantillas, arriba)",
			EN: "medioPago.cuentaBancariaId is empty: with DEPOSITO_BANCO give the bank account (see the accounts in Catalogs and templates, at the top)",
		},
		"web.page.val.medioPago.tarjeta": {
			ES: "medioPago.tarjetaId está vacío: con TARJETA indique la tarjeta (vea las tarjetas en Catálogos y plantillas, arriba)",
			EN: "medioPago.tarjetaId is empty: with TARJETA give the card (see the cards in Catalogs and templates, at the top)",
		},
		"web.page.val.catalog.unknownMany": {
			ES: "%s %d no existe en los catálogos de la empresa; los valores más cercanos son %s (vea todos en Catálogos y plantillas, arriba)",
			EN: "%s %d does not exist in the company's catalogs; the closest values are %s (see them all in Catalogs and templates, at the top)",
		},
		"web.page.val.catalog.none": {
			ES: "%s %d no existe: la empresa no tiene ninguno cargado en el ERP; cárguelo allí y actualice el catálogo con «Actualizar desde la API» en Catálogos y plantillas",
			EN: "%s %d does not exist: the company has none in the ERP; add it there and refresh the catalog with \"Refresh from the API\" in Catalogs and templates",
		},
		"web.page.val.motivo.deleted": {
			ES: "motivoId %d (%s) fue eliminado en el ERP: elija un motivo vigente (vea Catálogos y plantillas, arriba)",
			EN: "motivoId %d (%s) was deleted in the ERP: choose a current reason (see Catalogs and templates, at the top)",
		},
		"web.page.run.maxerrors": {
			ES: "se detuvo el envío al llegar al límite de rechazos seguidos (%d, el límite con que se inició esta página): revise el motivo en las filas rechazadas del resultado, o en los Informes",
			EN: "sending stopped after %d rejections in a row (the limit this page was started with): check the reason on the rejected rows of the result, or in the Reports",
		},
		"web.page.sub.pending.maxerrors": {
			ES: "no enviado: el envío se detuvo al llegar al límite de rechazos seguidos (%d); corrija el motivo de los rechazos y vuelva a enviar",
			EN: "not sent: the send stopped after %d rejections in a row; fix what the API rejected and send again",
		},
		"web.page.sub.unknown": {
			ES: "resultado desconocido (%s): puede haberse registrado. No se reenvía automáticamente: verifique en el ERP y resuélvalo en Historial, «Resultados desconocidos»%.0s",
			EN: "outcome unknown (%s): it may have been recorded. It is not resent automatically: check the ERP and settle it in History, \"Unknown outcomes\"%.0s",
		},
		// The catalogs' column titles: the command line names the kinds as
		// its commands do (venta, facturar); the page in the user's words.
		"web.page.catc.col.venta":    {ES: "sirve para ventas", EN: "usable in sales"},
		"web.page.catc.col.facturar": {ES: "sirve para facturar preventas", EN: "usable to invoice presales"},
		"web.page.sub.rejected.unchanged": {
			ES: "la API lo rechazó el %s: «%s». No se volvió a enviar porque no cambió desde entonces (igual sería rechazado): corrija el dato en la página y envíe de nuevo",
			EN: "the API rejected it on %s: «%s». It was not sent again because it has not changed since (it would be rejected again): fix the data in the page and send again",
		},
		"web.page.sub.stillunknown": {
			ES: "resultado desconocido de un envío anterior: verifique en el ERP y resuélvalo en Historial, «Resultados desconocidos»%.0s",
			EN: "outcome unknown from an earlier send: check the ERP and settle it in History, \"Unknown outcomes\"%.0s",
		},
	})
}

// pagePrefix prefixes the page's wording of a message: "web.page.K" says on
// the page what K says in a terminal.
const pagePrefix = "web.page."

// ForPage returns m as the page says it: under its page wording when it has
// one (the command line's points at a terminal: a command to run, a flag),
// and so its nested messages; a file it names (FileArg, Position, Error)
// by its base name, never the server's folders. The other arguments stay
// the same.
func ForPage(m Message) Message {
	if _, ok := catalog[pagePrefix+m.Key]; ok {
		m.Key = pagePrefix + m.Key
	}
	m = baseArgs(m)
	var args []any
	for i, a := range m.Args {
		if n, ok := a.(Message); ok {
			if args == nil {
				args = append([]any(nil), m.Args...)
			}
			args[i] = ForPage(n)
		}
	}
	if args != nil {
		m.Args = args
	}
	return m
}
