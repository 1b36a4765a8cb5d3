package msg

// Messages that quote the API or describe an outcome of sending.
func init() {
	register(map[string]Text{
		"api.quoted": {ES: "La API respondió: «%s»", EN: "The API answered: «%s»"},
		"api.wiretype": {
			ES: "%s respondió el campo %q con un valor de un tipo que la API no usa («%s»), así que la respuesta no se pudo leer",
			EN: "%s answered field %q with a value of a type the API does not use («%s»), so the answer could not be read",
		},
	})
}
