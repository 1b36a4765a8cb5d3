package msg

// Catalog fetching and caching (package catalog).
func init() {
	register(map[string]Text{
		"cat.unchecked":   {ES: "%s: sus ids no se verifican localmente en esta ejecución", EN: "%s: its ids are not checked locally in this run"},
		"cat.fetchfailed": {ES: "no se pudo consultar: %s", EN: "could not be fetched: %s"},
		"cat.dir.empty": {
			ES: "la carpeta de catálogos %s no tiene %s ni %s: guarde allí las respuestas de la API, o use «nxbatch catalog export CARPETA/»",
			EN: "the catalog folder %s has neither %s nor %s: keep the API's answers there, or use «nxbatch catalog export FOLDER/»",
		},
		"cat.file.notjson": {
			ES: "el catálogo %s no es la respuesta JSON de la API (%s)",
			EN: "the catalog %s is not the API's JSON answer (%s)",
		},
		"cat.file.read": {ES: "no se pudo leer el catálogo %s: %s", EN: "the catalog %s could not be read: %s"},
	})
}
