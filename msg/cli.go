package msg

// Lines the command line prints.
func init() {
	register(map[string]Text{
		"cli.warning": {ES: "aviso: %s", EN: "warning: %s"},
		"cli.stopping": {
			ES: "deteniendo: se terminan las solicitudes en curso y se escriben los informes; presione Ctrl-C otra vez para salir ya",
			EN: "stopping: the requests in flight are settled and the reports written; press Ctrl-C again to quit at once",
		},
		"cli.failed":            {ES: "no se pudo completar: %s", EN: "could not complete: %s"},
		"cli.parse":             {ES: "%s (vea «nxbatch --help»)", EN: "%s (see «nxbatch --help»)"},
		"cli.kong.unexpected":   {ES: "argumento inesperado: %s", EN: "unexpected argument: %s"},
		"cli.kong.missingflags": {ES: "faltan opciones obligatorias: %s", EN: "missing required flags: %s"},
		"cli.kong.expected":     {ES: "falta un argumento: %s", EN: "an argument is missing: %s"},
		"cli.kong.unknownflag":  {ES: "opción desconocida: %s", EN: "unknown flag: %s"},
		"cli.kong.enum":         {ES: "%s acepta uno de %s, pero se indicó %s", EN: "%s takes one of %s, but got %s"},
		"cli.kong.command":      {ES: "indique un comando: uno de %s", EN: "give a command: one of %s"},
		"cli.kong.badvalue":     {ES: "el valor de %s no es válido: %s", EN: "the value of %s is not valid: %s"},
		"cli.kong.other":        {ES: "la línea de comandos no es válida: %s", EN: "the command line is not valid: %s"},
		"cli.kong.novalue":      {ES: "falta el valor de %s", EN: "%s needs a value"},
		"cli.kong.type":         {ES: "el valor de %s no es válido: se esperaba %s y se indicó %s%s", EN: "the value of %s is not valid: expected %s, got %s%s"},
		"cli.kong.type.try":     {ES: "; si es un valor negativo, escríbalo así: %s", EN: "; if it is a negative value, write it as %s"},
		"cli.kong.t.duration":   {ES: "una duración (por ejemplo 30s, 5m o 1h)", EN: "a duration (for example 30s, 5m or 1h)"},
		"cli.kong.t.number":     {ES: "un número", EN: "a number"},
		"cli.kong.t.int":        {ES: "un número entero", EN: "a whole number"},
		"cli.kong.t.bool":       {ES: "true o false", EN: "true or false"},
		"cli.kong.t.path":       {ES: "la ruta de un archivo", EN: "a file path"},
		"cli.kong.t.keyvalue":   {ES: "NOMBRE=VALOR", EN: "NAME=VALUE"},
		"cli.kong.t.value":      {ES: "un valor", EN: "a value"},
		"log.error":             {ES: "ERROR", EN: "ERROR"},
		"progress.bar":          {ES: "enviando", EN: "sending"},
		"log.progress":          {ES: "enviadas %d de %s", EN: "%d of %s sent"},
		"log.progress.done":     {ES: "envío terminado: %d de %s", EN: "sending finished: %d of %s"},
		"log.warn":              {ES: "AVISO", EN: "WARNING"},
		"cli.reports":           {ES: "  filas a revisar: %s", EN: "  rows to check: %s"},
		"cli.filesummary":       {ES: "%s: %s: %s", EN: "%s: %s: %s"},
		// The statuses, counted, as the console tells them; the reports
		// keep the codes (ok, skipped...) in every language.
		"run.rejectedbefore.one": {ES: "  %d fila que la API rechazó en una ejecución anterior no se reenvió: no cambió (corríjala, o use --retry-rejected para enviarla igual)", EN: "  %d row the API rejected in an earlier run was not sent again: it has not changed (fix it, or pass --retry-rejected to send it anyway)"},
		"run.rejectedbefore":     {ES: "  %d filas que la API rechazó en una ejecución anterior no se reenviaron: no cambiaron (corríjalas, o use --retry-rejected para enviarlas igual)", EN: "  %d rows the API rejected in an earlier run were not sent again: they have not changed (fix them, or pass --retry-rejected to send them anyway)"},
		"st.count.ok.one":        {ES: "%d enviada y aceptada", EN: "%d sent and accepted"},
		"st.count.ok":            {ES: "%d enviadas y aceptadas", EN: "%d sent and accepted"},
		"st.count.skipped.one":   {ES: "%d ya enviada antes", EN: "%d already sent before"},
		"st.count.skipped":       {ES: "%d ya enviadas antes", EN: "%d already sent before"},
		"st.count.valid.one":     {ES: "%d válida", EN: "%d valid"},
		"st.count.valid":         {ES: "%d válidas", EN: "%d valid"},
		"st.count.invalid":       {ES: "%d con errores", EN: "%d with errors"},
		"st.count.rejected.one":  {ES: "%d rechazada por la API", EN: "%d rejected by the API"},
		"st.count.rejected":      {ES: "%d rechazadas por la API", EN: "%d rejected by the API"},
		"st.count.conflict":      {ES: "%d en conflicto con lo ya enviado", EN: "%d in conflict with what was sent"},
		"st.count.unknown":       {ES: "%d con resultado desconocido", EN: "%d with unknown outcome"},
		"st.count.pending.one":   {ES: "%d pendiente", EN: "%d pending"},
		"st.count.pending":       {ES: "%d pendientes", EN: "%d pending"},
	})
}

// Lines of the run command.
func init() {
	register(map[string]Text{
		"run.sandbox": {ES: "sandbox de la API en %s (datos de demostración)", EN: "API sandbox at %s (demo data)"},
		"run.catalogwait": {
			ES: "%s: nunca se consultó para esta empresa y sin él no se pueden verificar los ids; la API permite una consulta de parámetros por minuto: esperando %s (hasta las %s)",
			EN: "%s: never fetched for this company, and without it the ids cannot be checked; the API allows one parameter request a minute: waiting %s (until %s)",
		},
		"run.articuloswait": {
			ES: "%s: el catálogo de artículos nunca se leyó para esta empresa y sin él no se pueden verificar los artículos; la API permite una consulta masiva cada 10 minutos: esperando %s (hasta las %s)",
			EN: "%s: the article catalog was never read for this company, and without it the articles cannot be checked; the API allows one mass read every 10 minutes: waiting %s (until %s)",
		},
		"run.preview": {
			ES: "vista previa (--preview): no se envió nada; el mensaje de la fila dice lo que se enviaría",
			EN: "preview (--preview): nothing was sent; the row's message says what would be sent",
		},
		"run.interrupted": {ES: "ejecución interrumpida: lo enviado quedó registrado y el resto queda pendiente", EN: "run interrupted: what was sent is journaled and the rest is pending"},
		"run.maxerrors":   {ES: "se detuvo el envío al llegar al límite de rechazos seguidos (--max-errors %d): revise el motivo en el informe", EN: "sending stopped at the limit of rejections in a row (--max-errors %d): check the reason in the report"},
	})
}

// Lines of the validate command.
func init() {
	register(map[string]Text{
		"cmd.nocatalogsource": {
			ES: "no se verifican los ids (cuentas bancarias, tarjetas, motivos) contra ningún catálogo: indique --catalog CARPETA, o defina NX_BASE_URL (o use --sandbox) para consultarlos en la API",
			EN: "ids (bank accounts, cards, reasons) are not checked against any catalog: give --catalog FOLDER, or set NX_BASE_URL (or use --sandbox) to fetch them from the API",
		},
		"cmd.nocatalog": {
			ES: "no se verifican los ids contra los catálogos de la API: %s (use --catalog CARPETA, o --offline para no intentarlo)",
			EN: "ids are not checked against the API's catalogs: %s (use --catalog FOLDER, or --offline not to try)",
		},
	})
}

// Connecting: which tenant, and why it could not be learned.
func init() {
	register(map[string]Text{
		"conn.unreachable": {
			ES: "no se pudo conectar con la API en %s (%s): no se envió nada. Revise NX_BASE_URL (o --base-url) y la red, y vuelva a ejecutar; los informes quedan escritos con las filas pendientes",
			EN: "the API at %s could not be reached (%s): nothing was sent. Check NX_BASE_URL (or --base-url) and the network, and run again; the reports are written with the rows pending",
		},
		"conn.tenantwindow": {
			ES: "la API permite una consulta de parámetros por minuto, y todavía no se puede preguntar qué integración es (GET /config): vuelva a ejecutar después de las %s",
			EN: "the API allows one parameter request a minute, and it cannot be asked yet which integration this is (GET /config): run again after %s",
		},
		"conn.noappid": {
			ES: "la API en %s no dice qué integración es (GET /config sin appId): nxbatch no puede saber qué ya se envió a esta cuenta, y no envía nada. Verifique la dirección",
			EN: "the API at %s does not say which integration it is (GET /config without appId): nxbatch cannot tell what was already sent to this account, and sends nothing. Check the address",
		},
	})
}

// System failures, in the users' words (CauseText).
func init() {
	register(map[string]Text{
		"cause.notexist":    {ES: "no existe", EN: "it does not exist"},
		"cause.permission":  {ES: "no hay permiso", EN: "permission denied"},
		"cause.nospace":     {ES: "no queda espacio en el disco", EN: "no space left on the disk"},
		"cause.readonly":    {ES: "el disco es de solo lectura", EN: "the disk is read-only"},
		"cause.isdir":       {ES: "es una carpeta, no un archivo", EN: "it is a folder, not a file"},
		"cause.symlink.at":  {ES: "%s es un enlace simbólico, y nxbatch no escribe a través de enlaces: bórrelo o elija otro lugar", EN: "%s is a symbolic link, and nxbatch does not write through links: remove it or choose another place"},
		"cause.symlink":     {ES: "en ese lugar hay un enlace simbólico, y nxbatch no escribe a través de enlaces: bórrelo o elija otro nombre", EN: "a symbolic link is in that place, and nxbatch does not write through links: remove it or choose another name"},
		"cause.notdir":      {ES: "una parte de la ruta no es una carpeta", EN: "part of the path is not a folder"},
		"cause.addrinuse":   {ES: "la dirección ya está en uso: otro programa escucha en ese puerto", EN: "the address is in use: another program listens on that port"},
		"cause.refused":     {ES: "la conexión fue rechazada: no hay nada escuchando en esa dirección", EN: "the connection was refused: nothing listens at that address"},
		"cause.dns":         {ES: "no se encontró el servidor (DNS)", EN: "the server was not found (DNS)"},
		"cause.timeout":     {ES: "se agotó el tiempo de espera", EN: "the time ran out"},
		"cause.reset":       {ES: "la conexión se cortó", EN: "the connection was cut"},
		"cause.unreachable": {ES: "la red no llega a esa dirección", EN: "the network does not reach that address"},
		"pos.file":          {ES: "%s", EN: "%s"},
		"msg.join":          {ES: "%s", EN: "%s"}, // messages joined by Join
	})
}

// Usage and configuration errors of the command line.
func init() {
	register(map[string]Text{
		"cli.only.bad":        {ES: "--only %s: no es un catálogo; use %s", EN: "--only %s: not a catalog; use %s"},
		"cli.catalogs.failed": {ES: "no se pudieron usar las copias guardadas de los catálogos: %s", EN: "the cached catalogs could not be used: %s"},
		"cli.export.failed":   {ES: "no se pudieron exportar los catálogos a %s: %s", EN: "the catalogs could not be exported to %s: %s"},
		"cli.nohome": {
			ES: "no hay carpeta personal donde guardar el diario: indique --journal ARCHIVO o defina XDG_STATE_HOME",
			EN: "there is no home folder to keep the journal in: give --journal FILE or set XDG_STATE_HOME",
		},
		"cli.timescale":       {ES: "--time-scale debe ser mayor que cero", EN: "--time-scale must be greater than zero"},
		"cli.env":             {ES: "--env %s: use production o test", EN: "--env %s: use production or test"},
		"cli.sandbox.start":   {ES: "no se pudo iniciar el sandbox: %s", EN: "the sandbox could not be started: %s"},
		"cli.key.bad":         {ES: "%s no es una clave del diario: cópiela como la muestra «nxbatch journal list» (integración/tipo/clave)", EN: "%s is not a journal key: copy it as «nxbatch journal list» shows it (integration/kind/key)"},
		"cli.listen.addr":     {ES: "no se puede escuchar en %s: revise que la dirección sea de esta máquina y que el puerto esté libre, o indique otra con --addr", EN: "cannot listen on %s: check that the address is this machine's and the port is free, or give another with --addr"},
		"cli.settleafter":     {ES: "--settle-after no puede ser negativo", EN: "--settle-after must not be negative"},
		"cli.snapshot.read":   {ES: "no se pudo leer la foto de stock de %s", EN: "the stock snapshot in %s could not be read"},
		"cli.headerrow":       {ES: "--header-row debe ser un número de fila, desde 1", EN: "--header-row must be a row number, from 1"},
		"cli.workers":         {ES: "--workers debe ser al menos 1", EN: "--workers must be at least 1"},
		"cli.maxarticulos":    {ES: "--max-articulos debe ser al menos 1", EN: "--max-articulos must be at least 1"},
		"cli.kind.bad":        {ES: "--kind %s: use venta, facturar o stock", EN: "--kind %s: use venta, facturar or stock"},
		"cli.delimiter":       {ES: "--delimiter %q: use ',' ';' '|' o tab", EN: "--delimiter %q: use ',' ';' '|' or tab"},
		"cli.decimal":         {ES: "--decimal %q: use comma (coma) o dot (punto)", EN: "--decimal %q: use comma or dot"},
		"cli.reports.failed":  {ES: "no se pudieron escribir los informes de %s: %s", EN: "the reports of %s could not be written: %s"},
		"cli.template.xlsx":   {ES: "la plantilla es un libro de Excel: nómbrela ARCHIVO.xlsx", EN: "the template is an Excel workbook: name it FILE.xlsx"},
		"cli.template.failed": {ES: "no se pudo escribir la plantilla %s: %s", EN: "the template %s could not be written: %s"},
	})
}
