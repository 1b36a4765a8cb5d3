package msg

// Catalog fetching and caching (package catalog).
func init() {
	register(map[string]Text{
		"cat.unchecked":   {ES: "%s: sus ids no se verifican localmente en esta ejecución", EN: "%s: its ids are not checked locally in this run"},
		"cat.fetchfailed": {ES: "no se pudo consultar: %s", EN: "could not be fetched: %s"},
	})
}
