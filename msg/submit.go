package msg

// Outcomes of sending (package pipeline).
func init() {
	register(map[string]Text{
		"sub.ok": {ES: "enviado y aceptado por la API", EN: "sent and accepted by the API"},
		"sub.rejected": {
			ES: "la API lo rechazó (HTTP %d): «%s». Corrija el dato y vuelva a ejecutar el archivo; lo ya enviado no se repite",
			EN: "the API rejected it (HTTP %d): «%s». Fix the data and run the file again; what was already sent is not repeated",
		},
		"sub.unknown": {
			ES: "resultado desconocido (%s): puede haberse registrado. No se reenvía automáticamente: verifique en el ERP y resuelva con «%s»",
			EN: "outcome unknown (%s): it may have been recorded. It is not resent automatically: check the ERP and settle it with «%s»",
		},
		"sub.rejected.unchanged": {
			ES: "la API lo rechazó el %s: «%s». No se volvió a enviar porque no cambió desde entonces (igual sería rechazado): corrija el dato y vuelva a ejecutar el archivo, o use --retry-rejected para enviarlo igual",
			EN: "the API rejected it on %s: «%s». It was not sent again because it has not changed since (it would be rejected again): fix the data and run the file again, or pass --retry-rejected to send it anyway",
		},
		"sub.stillunknown": {
			ES: "resultado desconocido de una ejecución anterior: verifique en el ERP y resuelva con «%s» (o use --retry-unknown si está seguro de que no se registró)",
			EN: "outcome unknown from an earlier run: check the ERP and settle it with «%s» (or pass --retry-unknown if you are sure it was not recorded)",
		},
		"sub.skipped": {
			ES: "ya enviado y aceptado el %s: no se vuelve a enviar",
			EN: "already sent and accepted on %s: not sent again",
		},
		"sub.conflict": {
			ES: "esta operación ya se envió y aceptó el %s con otros datos: no se envía de nuevo. Si es otra operación, use otro número",
			EN: "this request was already sent and accepted on %s with different data: it is not sent again. If it is a different one, give it another number",
		},
		"sub.conflict.stockrow": {
			ES: "esta fila ya se envió y aceptó con cantidad %s en el %s, el %s (%s); ahora tiene otros datos: no se envía de nuevo. Si es otro movimiento, distíngalo con la columna movimiento, la fecha o el detalle",
			EN: "this row was already sent and accepted with quantity %s in %s on %s (%s); it now has other data: it is not sent again. If it is a different movement, tell it apart with the movimiento, fecha or detalle column",
		},
		"sub.movid":  {ES: "movimiento %d de la API", EN: "the API's movement %d"},
		"sub.movkey": {ES: "movimiento %s del diario", EN: "journal movement %s"},
		"sub.unreachable": {
			ES: "no enviado: no se pudo conectar con la API en %s (%s). Revise NX_BASE_URL (o --base-url) y la red, y vuelva a ejecutar el archivo: se enviará entonces",
			EN: "not sent: the API at %s could not be reached (%s). Check NX_BASE_URL (or --base-url) and the network, and run again: it is sent then",
		},
		"sub.pending.journal": {
			ES: "no enviado: el diario no pudo registrar un envío y la ejecución se detuvo (vea el mensaje del diario); se enviará al volver a ejecutar el archivo",
			EN: "not sent: the journal could not record a request and the run stopped (see the journal's message); it is sent when the file is run again",
		},
		"sub.pending.maxerrors": {
			ES: "no enviado: la ejecución se detuvo al llegar al límite de rechazos seguidos (--max-errors %d); corrija el motivo de los rechazos y vuelva a ejecutar",
			EN: "not sent: the run stopped at the limit of rejections in a row (--max-errors %d); fix what the API rejected and run again",
		},
		"sub.notsent": {
			ES: "no se envió: la API lo rechazó antes de procesarlo (%s). Vuelva a ejecutar el archivo más tarde",
			EN: "not sent: the API refused it before processing it (%s). Run the file again later",
		},
		"sub.duprun": {
			ES: "la misma operación aparece también en %s: se envía una sola vez",
			EN: "the same request also appears in %s: it is sent only once",
		},
		"sub.unauthorized": {
			ES: "la API rechazó el token (HTTP 401): no se envió nada más. Revise NX_TOKEN o --token-file y vuelva a ejecutar",
			EN: "the API refused the token (HTTP 401): nothing more was sent. Check NX_TOKEN or --token-file and run again",
		},
		"sub.pending": {
			ES: "no enviado: la ejecución se detuvo antes; se enviará al volver a ejecutar el archivo",
			EN: "not sent: the run stopped first; it is sent when the file is run again",
		},
	})
}

// Why an outcome is unknown.
func init() {
	register(map[string]Text{
		"sub.reason.timeout":   {ES: "la API no respondió a tiempo", EN: "the API did not answer in time"},
		"sub.reason.cut":       {ES: "se cortó la conexión después de enviar la solicitud", EN: "the connection was cut after the request was sent"},
		"sub.reason.transport": {ES: "falla de conexión después de enviar: %s", EN: "connection failure after sending: %s"},
		"sub.reason.status":    {ES: "la API respondió con un error interno (HTTP %d)", EN: "the API answered with an internal error (HTTP %d)"},
		"sub.reason.nodata":    {ES: "la API respondió (HTTP %d) sin decir si la registró", EN: "the API answered (HTTP %d) without saying whether it was recorded"},
		"sub.reason.redirect":  {ES: "la API respondió con una redirección (HTTP %d), que no se sigue", EN: "the API answered with a redirect (HTTP %d), which is not followed"},
	})
}

// Log lines of sending, for cron logs.
func init() {
	register(map[string]Text{
		"log.resend.unsent": {ES: "%s: no se pudo conectar; se reintenta en %s (la solicitud no salió)", EN: "%s: could not connect; trying again in %s (the request never left)"},
		"log.resend.window": {ES: "%s: la API pidió esperar (HTTP %d); se reenvía en %s (no la procesó)", EN: "%s: the API asked to wait (HTTP %d); resending in %s (it did not process it)"},
	})
}
