package msg

// The journal failing during a run: the run stops, and every sentence
// says what happened to the requests concerned.
func init() {
	register(map[string]Text{
		"sub.journal.read": {
			ES: "no se pudo leer el diario para saber qué ya se envió, así que no se envió nada: %s",
			EN: "the journal could not be read to learn what was already sent, so nothing was sent: %s",
		},
		"sub.journal.window": {
			ES: "no se pudo leer en el diario cuándo se envió el último movimiento de stock, así que no se envió ningún movimiento: %s",
			EN: "the journal could not say when the last stock movement was sent, so no movement was sent: %s",
		},
		"sub.journal.intent": {
			ES: "el diario no pudo registrar el envío de %s, y sin ese registro no sale nada: la ejecución se detiene sin enviarlo: %s",
			EN: "the journal could not record the sending of %s, and nothing leaves without that record: the run stops without sending it: %s",
		},
		"sub.journal.outcome": {
			ES: "el diario no pudo registrar la respuesta de la API a %s: %s. La ejecución se detiene; los informes dicen lo que respondió la API",
			EN: "the journal could not record the API's answer to %s: %s. The run stops; the reports say what the API answered",
		},
		"sub.ok.unjournaled": {
			ES: "la API la registró, pero el diario no pudo guardarlo: la próxima ejecución la mostrará como desconocida y no la reenviará; resuélvala con %s (como ok)",
			EN: "the API registered it, but the journal could not keep that: the next run will show it as unknown and will not send it again; settle it with %s (as ok)",
		},
	})
}
