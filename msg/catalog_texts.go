package msg

// Catalog fetching and caching (package catalog).
func init() {
	register(map[string]Text{
		"cat.window":      {ES: "la API permite una consulta de parámetros por minuto; faltan %d s", EN: "the API allows one parameter request a minute; %d s to go"},
		"cat.fetchfailed": {ES: "no se pudo consultar: %s", EN: "could not be fetched: %s"},
		"cat.fetched":     {ES: "catálogo %s actualizado desde la API", EN: "catalog %s fetched from the API"},
		"cat.usingcache":  {ES: "catálogo %s: %s; se usa la copia guardada de hace %s", EN: "catalog %s: %s; using the cached copy from %s ago"},
		"cat.skipped":     {ES: "catálogo %s: %s; no hay copia guardada, así que sus ids no se verifican localmente", EN: "catalog %s: %s; there is no cached copy, so its ids are not checked locally"},
	})
}
