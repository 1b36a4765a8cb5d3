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
		"web.confirm.needed":         {ES: "No se envió nada: el envío necesita su confirmación. Revise lo que se envía y confirme abajo.", EN: "Nothing was sent: the send needs your confirmation. Check what is sent and confirm below."},
		"web.confirm.changed":        {ES: "No se envió nada: el archivo o sus opciones cambiaron desde que confirmó. Revise lo que se envía ahora y confirme de nuevo.", EN: "Nothing was sent: the file or its options changed since you confirmed. Check what is sent now and confirm again."},
	})
}
