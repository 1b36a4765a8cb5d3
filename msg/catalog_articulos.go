package msg

// Texts of the article catalog's cache (keys "cata.") and of its pull.
func init() {
	register(map[string]Text{
		"catc.pull.masses": {
			ES: "la API permite una consulta del catálogo de artículos cada 10 minutos (compartida con las exportaciones masivas); se podrá pedir a las %s (en %d s)",
			EN: "the API allows one article catalog request every 10 minutes (shared with the bulk exports); it can be fetched at %s (in %d s)",
		},
		"cata.none": {
			ES: "no hay catálogo de artículos: %s. Los artículos de las filas no se pueden verificar en esta ejecución; ejecute nxbatch catalog pull --articulos",
			EN: "there is no article catalog: %s. The rows' articles cannot be checked in this run; run nxbatch catalog pull --articulos",
		},
		"cata.events": {
			ES: "al catálogo de artículos se le aplicaron %d avisos recibidos por nxbatch listen después de consultarlo (%d artículos cambiados)",
			EN: "%d events received by nxbatch listen after the article catalog was fetched were applied to it (%d articles changed)",
		},
		"cata.events.failed": {
			ES: "no se pudieron leer los avisos de nxbatch listen (%s): se usa el catálogo de artículos tal como se consultó",
			EN: "the events of nxbatch listen could not be read (%s): the article catalog is used as it was fetched",
		},
		"cata.waiting": {
			ES: "esperando la ventana de 10 minutos del catálogo de artículos hasta las %s…",
			EN: "waiting for the article catalog's 10-minute window until %s…",
		},
		"cata.pull.hint": {
			ES: "Para traer el catálogo de artículos: nxbatch catalog pull --articulos (o con --wait-window para esperar la ventana de 10 minutos)",
			EN: "To fetch the article catalog: nxbatch catalog pull --articulos (or with --wait-window to wait for the 10-minute window)",
		},
		"cata.empty": {
			ES: "la API respondió un catálogo de artículos vacío, lo que casi seguro es una falla del ERP",
			EN: "the API answered an empty article catalog, almost certainly a fault of the ERP",
		},
		"cata.unreadable": {
			ES: "la respuesta de la API no es un catálogo de artículos que se pueda leer (%s)",
			EN: "the API's answer is not an article catalog that can be read (%s)",
		},
		"cata.notfetched": {
			ES: "todavía no se consultó: ejecute nxbatch catalog pull --articulos",
			EN: "not fetched yet: run nxbatch catalog pull --articulos",
		},
		"catc.t.articulos":     {ES: "Artículos (código, variante y código de barras; articuloId, talleId, colorId)", EN: "Articles (code, variant and barcode; articuloId, talleId, colorId)"},
		"catc.empty.articulos": {ES: "el catálogo de artículos no tiene artículos", EN: "the article catalog has no articles"},
		"catc.col.codigo.art":  {ES: "código", EN: "code"},
		"catc.col.talle":       {ES: "talle", EN: "size"},
		"catc.col.color":       {ES: "color", EN: "colour"},
		"catc.col.barras":      {ES: "código de barras", EN: "barcode"},
		"catc.col.unidades":    {ES: "unidades", EN: "units"},
		"catc.col.activo":      {ES: "activo", EN: "active"},
	})
}
