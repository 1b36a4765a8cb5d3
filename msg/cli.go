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
