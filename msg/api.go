package msg

// Messages that quote the API or describe an outcome of sending.
func init() {
	register(map[string]Text{
		"api.quoted": {ES: "La API respondió: «%s»", EN: "The API answered: «%s»"},
		"api.undecodable": {
			ES: "%s respondió algo que no es lo que la API documenta, así que la respuesta no se pudo leer",
			EN: "%s answered something other than what the API documents, so the answer could not be read",
		},
		"api.wait":        {ES: "la API pide esperar %s antes del próximo pedido: «%s»", EN: "the API asks to wait %s before the next request: «%s»"},
		"api.status":      {ES: "la API respondió HTTP %d", EN: "the API answered HTTP %d"},
		"api.status.text": {ES: "la API respondió HTTP %d: «%s»", EN: "the API answered HTTP %d: «%s»"},
		"api.wiretype": {
			ES: "%s respondió el campo %q con un valor de un tipo que la API no usa («%s»), así que la respuesta no se pudo leer",
			EN: "%s answered field %q with a value of a type the API does not use («%s»), so the answer could not be read",
		},
	})
}
