package msg

// Lines the command line prints.
func init() {
	register(map[string]Text{
		"cli.warning": {ES: "aviso: %s", EN: "warning: %s"},
		"cli.reports": {ES: "  filas a revisar: %s", EN: "  rows to check: %s"},
	})
}

// Lines of the run command.
func init() {
	register(map[string]Text{
		"run.sandbox":     {ES: "sandbox de la API en %s (datos de demostración)", EN: "API sandbox at %s (demo data)"},
		"run.interrupted": {ES: "ejecución interrumpida: lo enviado quedó registrado y el resto queda pendiente", EN: "run interrupted: what was sent is journaled and the rest is pending"},
		"run.maxerrors":   {ES: "se detuvo el envío tras %d rechazos seguidos (--max-errors): revise el motivo en el informe", EN: "sending stopped after %d rejections in a row (--max-errors): check the reason in the report"},
	})
}

// Lines of the validate command.
func init() {
	register(map[string]Text{
		"cmd.nocatalog": {
			ES: "no se verifican los ids contra los catálogos de la API: %s (use --catalog DIR, o --offline para no intentarlo)",
			EN: "ids are not checked against the API's catalogs: %s (use --catalog DIR, or --offline not to try)",
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
			ES: "la ventana de 60 s de los parámetros de la API no permite todavía preguntar qué integración es (GET /config) hasta las %s: vuelva a ejecutar después",
			EN: "the API's 60 s parameter window does not yet allow asking which integration this is (GET /config) until %s: run again then",
		},
		"conn.noappid": {
			ES: "la API en %s no dice qué integración es (GET /config sin appId): nxbatch no puede saber qué ya se envió a esta cuenta, y no envía nada. Verifique la dirección",
			EN: "the API at %s does not say which integration it is (GET /config without appId): nxbatch cannot tell what was already sent to this account, and sends nothing. Check the address",
		},
	})
}
