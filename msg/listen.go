package msg

// Messages of listen and stock export.
func init() {
	register(map[string]Text{
		"lst.listening": {
			ES: "Recibiendo eventos de artículos en %s (guardados en %s). Ctrl-C para detener.",
			EN: "Receiving article events at %s (stored in %s). Ctrl-C to stop.",
		},
		"lst.secret": {
			ES: "Se exige el secreto compartido en el encabezado %s; los eventos sin él se rechazan y no se guardan",
			EN: "The shared secret is required in the %s header; events without it are refused and not stored",
		},
		"lst.nosecret": {
			ES: "Atención: no hay secreto compartido; se acepta cualquier evento. Configúrelo con «nxbatch webhooks set --secret»",
			EN: "Warning: there is no shared secret; any event is accepted. Set one with \"nxbatch webhooks set --secret\"",
		},
		"lst.locked": {
			ES: "Otro «nxbatch listen» está usando %s: deténgalo o use otro --store",
			EN: "Another \"nxbatch listen\" is using %s: stop it or use another --store",
		},
		"lst.stopped": {
			ES: "Recepción detenida: %d eventos aplicados en total, %d repeticiones ignoradas",
			EN: "Receiving stopped: %d events applied in all, %d replays ignored",
		},
		"lst.since.bad": {
			ES: "--since %q no se entiende: use una duración (24h, 90m) o una fecha (20/11/2026 o 2026-11-20)",
			EN: "--since %q is not understood: use a duration (24h, 90m) or a date (20/11/2026 or 2026-11-20)",
		},
		"lst.empty": {
			ES: "Todavía no se recibió ningún evento en %s: ¿está corriendo «nxbatch listen» y configurado el webhook?",
			EN: "No event has been received in %s yet: is \"nxbatch listen\" running and the webhook set?",
		},
		"lst.exported": {
			ES: "%d filas de stock escritas en %s",
			EN: "%d stock rows written to %s",
		},
	})
}
