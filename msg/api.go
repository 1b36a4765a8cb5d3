package msg

// Messages that quote the API or describe an outcome of sending.
func init() {
	register(map[string]Text{
		"api.quoted": {ES: "La API respondió: «%s»", EN: "The API answered: «%s»"},
	})
}
