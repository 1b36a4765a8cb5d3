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
		// Files of the store and of the export.
		"lst.symlink": {
			ES: "%s es un enlace simbólico: nxbatch no escribe a través de enlaces (podría cambiar otro archivo). Bórrelo o indique la ruta real",
			EN: "%s is a symbolic link: nxbatch does not write through links (it could change another file). Remove it or give the real path",
		},
		"lst.notregular": {
			ES: "%s no es un archivo común (¿una carpeta?): indique otra ruta",
			EN: "%s is not a regular file (a folder?): give another path",
		},
		"lst.notdir": {
			ES: "%s no es una carpeta: indique en --store una carpeta para los eventos",
			EN: "%s is not a folder: give --store a folder for the events",
		},
		"lst.export.ext": {
			ES: "No se puede exportar a %s: el archivo debe terminar en .csv o .xlsx",
			EN: "Cannot export to %s: the file must end in .csv or .xlsx",
		},
		"lst.secret.open": {
			ES: "El secreto %s lo pueden leer otros usuarios (permisos %s): ejecute chmod 600 %s",
			EN: "The secret %s is readable by other users (mode %s): run chmod 600 %s",
		},
		"lst.secret.empty": {
			ES: "El secreto %s está vacío: genere uno con «nxbatch webhooks set --secret»",
			EN: "The secret %s is empty: generate one with \"nxbatch webhooks set --secret\"",
		},
	})
}
