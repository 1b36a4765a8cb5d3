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
			ES: "Recepción detenida: eventos aplicados en total: %d; repeticiones ignoradas: %d",
			EN: "Receiving stopped: events applied in all: %d; replays ignored: %d",
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
		"lst.exported.one": {
			ES: "%d fila de stock escrita en %s",
			EN: "%d stock row written to %s",
		},
		"lst.refused.status": {
			ES: "Atención: eventos del ERP rechazados: %d (no guardados: %d; demasiado grandes: %d; mal formados: %d), el último el %s. El ERP no los reenvía: el stock local puede estar desactualizado; haga una resincronización completa del stock",
			EN: "Warning: events from the ERP refused: %d (not stored: %d; too large: %d; malformed: %d), the last on %s. The ERP does not resend them: the local stock may be out of date; do a full stock resync",
		},
		"lst.unavailable": {
			ES: "Atención: al detenerse todavía no se podía escribir en el disco: %v",
			EN: "Warning: when stopping, the disk still refused writes: %v",
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
		"lst.secret.read": {
			ES: "No se pudo leer el secreto %s: %s. Revise --store y los permisos de esa carpeta",
			EN: "The secret %s could not be read: %s. Check --store and that folder's permissions",
		},
		"lst.open": {
			ES: "No se pudo abrir el almacén de eventos %s: %s. Revise --store y los permisos de esa carpeta",
			EN: "The event store %s could not be opened: %s. Check --store and that folder's permissions",
		},
		"lst.secret.empty": {
			ES: "El secreto %s está vacío: genere uno con «nxbatch webhooks set --secret»",
			EN: "The secret %s is empty: generate one with \"nxbatch webhooks set --secret\"",
		},
		// Log lines of listen (also when no terminal is attached).
		"lst.log.badsecret": {
			ES: "Evento rechazado (401): falta el encabezado %s o no trae el secreto compartido",
			EN: "Event refused (401): the %s header is missing or does not carry the shared secret",
		},
		"lst.log.toolarge": {
			ES: "Evento rechazado (413): el cuerpo supera %d bytes (--max-body). El ERP no lo reenvía: haga una resincronización completa del stock",
			EN: "Event refused (413): the body exceeds %d bytes (--max-body). The ERP does not resend it: do a full stock resync",
		},
		"lst.log.toomany": {
			ES: "Evento rechazado (413): trae más de %d ítems (variantes y depósitos; --max-items). El ERP no lo reenvía: haga una resincronización completa del stock",
			EN: "Event refused (413): it has more than %d items (variants and warehouses; --max-items). The ERP does not resend it: do a full stock resync",
		},
		"lst.log.notjson": {
			ES: "Evento rechazado (400): el cuerpo de %d bytes no es JSON",
			EN: "Event refused (400): the %d-byte body is not JSON",
		},
		"lst.log.notevent": {
			ES: "Evento rechazado (400): el cuerpo de %d bytes no es un evento de artículos (una lista de objetos o un objeto)",
			EN: "Event refused (400): the %d-byte body is not an article event (a list of objects or one object)",
		},
		"lst.log.stored": {
			ES: "Evento %d guardado (%d bytes, respondido en %s)",
			EN: "Event %d stored (%d bytes, answered in %s)",
		},
		"lst.log.unstored.first": {
			ES: "No se puede guardar en el disco: se responde 503 a cada evento hasta que se pueda escribir (el ERP no los reenvía). Se reintenta con cada evento nuevo y cada %s, sin reiniciar",
			EN: "The disk refuses writes: every event is answered 503 until it can be written (the ERP does not resend them). Retrying with every new event and every %s, without a restart",
		},
		"lst.log.unstored": {
			ES: "Eventos rechazados (503) por no poder guardarlos: %d ahora, %d desde que el disco dejó de aceptar escrituras, %d en total",
			EN: "Events refused (503) because they could not be stored: %d now, %d since the disk stopped accepting writes, %d in all",
		},
		"lst.log.healed": {
			ES: "El disco vuelve a aceptar escrituras: se reanuda la recepción. Eventos rechazados: %d, desde el %s; el stock local no los refleja: haga una resincronización completa del stock",
			EN: "The disk accepts writes again: receiving resumes. Events refused: %d, since %s; the local stock does not reflect them: do a full stock resync",
		},
		"lst.log.refused.before": {
			ES: "Eventos rechazados en total: %d, el último el %s: si no hizo una resincronización completa del stock después, hágala",
			EN: "Events refused in all: %d, the last on %s: if no full stock resync was done after that, do one",
		},
		"lst.log.refused.unsaved": {
			ES: "No se pudo guardar la cuenta de eventos rechazados; se reintenta con el próximo rechazo",
			EN: "The count of refused events could not be saved; retrying at the next refusal",
		},
		"lst.log.refused.unreadable": {
			ES: "%s no se puede leer; la cuenta de eventos rechazados vuelve a empezar",
			EN: "%s cannot be read; the count of refused events starts again",
		},
		"lst.log.snapshot.rebuild": {
			ES: "La instantánea de stock no sirve; se reconstruye desde el registro de eventos",
			EN: "The stock snapshot cannot be used; rebuilding it from the event log",
		},
		"lst.log.snapshot.failed": {
			ES: "No se pudo guardar la instantánea de stock; el registro de eventos conserva todos los eventos y se reintenta",
			EN: "The stock snapshot could not be saved; the event log still holds every event, and it is retried",
		},
		"lst.log.snapshot.saved": {
			ES: "La instantánea de stock se vuelve a guardar",
			EN: "The stock snapshot is saved again",
		},
		"lst.log.corrupt": {
			ES: "El registro de eventos está dañado; la instantánea puede no reflejar algunos eventos",
			EN: "The event log is damaged; the snapshot may miss some events",
		},
		// Answers to the ERP (plain text bodies).
		"lst.http.post": {
			ES: "solo se acepta POST",
			EN: "POST only",
		},
		"lst.http.badsecret": {
			ES: "falta %s o es incorrecto",
			EN: "missing or wrong %s",
		},
		"lst.http.unread": {
			ES: "no se pudo leer el cuerpo",
			EN: "body not read",
		},
		"lst.http.unstored": {
			ES: "evento no guardado: el disco no acepta escrituras; reintente más tarde",
			EN: "event not stored: the disk refuses writes; try again later",
		},
	})
}
