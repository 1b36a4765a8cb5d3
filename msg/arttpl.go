package msg

// Texts of the templates' article catalog (the «Artículos» sheet and the
// code columns' lists) and of the page's article catalog (keys "tpla." and
// "web.arts.").
func init() {
	register(map[string]Text{
		"tpla.h.codigo":     {ES: "Código", EN: "Code"},
		"tpla.h.nombre":     {ES: "Nombre", EN: "Name"},
		"tpla.h.talle":      {ES: "Talle", EN: "Size"},
		"tpla.h.color":      {ES: "Color", EN: "Colour"},
		"tpla.h.barras":     {ES: "Código de barras", EN: "Barcode"},
		"tpla.title.codigo": {ES: "Códigos de artículo", EN: "Article codes"},
		"tpla.title.barras": {ES: "Códigos de barras", EN: "Barcodes"},
		"tpla.prompt.codigo": {
			ES: "Código de artículo del catálogo (%d artículos). Vea la hoja «Artículos»: código, nombre, talle, color y código de barras de cada variante.",
			EN: "An article code from the catalog (%d articles). See the «Artículos» sheet: code, name, size, colour and barcode of every variant.",
		},
		"tpla.prompt.barras": {
			ES: "Código de barras de una variante del catálogo (%d). Vea la hoja «Artículos».",
			EN: "A barcode of a variant in the catalog (%d). See the «Artículos» sheet.",
		},
		"tpla.error.codigo": {
			ES: "Ese código no está en el catálogo de artículos de la hoja «Artículos». Revise el código; nxbatch validate lo verificará contra el catálogo actual.",
			EN: "That code is not in the article catalog on the «Artículos» sheet. Check the code; nxbatch validate checks it against the current catalog.",
		},
		"tpla.error.barras": {
			ES: "Ese código de barras no está en la hoja «Artículos». Revíselo; nxbatch validate lo verificará contra el catálogo actual.",
			EN: "That barcode is not on the «Artículos» sheet. Check it; nxbatch validate checks it against the current catalog.",
		},
		"tpla.unknown": {
			ES: "no hay catálogo de artículos guardado, así que no hay hoja «Artículos» ni lista de códigos: ejecute nxbatch catalog pull --articulos y vuelva a generar la plantilla",
			EN: "there is no cached article catalog, so there is no «Artículos» sheet nor list of codes: run nxbatch catalog pull --articulos and make the template again",
		},
		"tpla.intro": {
			ES: "La hoja «Artículos» tiene el catálogo de artículos (una fila por variante: código, nombre, talle, color y código de barras). Puede identificar cada artículo por su código o su código de barras, y la variante por el nombre del talle y del color.",
			EN: "The «Artículos» sheet holds the article catalog (one row per variant: code, name, size, colour and barcode). Name each article by its code or barcode, and the variant by its size's and colour's names.",
		},
		"tpla.fetchfailed": {
			ES: "no se pudo consultar el catálogo de artículos (%s): la plantilla no tiene hoja «Artículos» ni lista de códigos",
			EN: "the article catalog could not be fetched (%s): the template has no «Artículos» sheet nor list of codes",
		},
		"web.arts.none": {
			ES: "Todavía no hay catálogo de artículos guardado: se consulta al revisar o enviar un archivo que nombra artículos por código (la API permite una consulta cada 10 minutos).",
			EN: "There is no cached article catalog yet: it is fetched when a file naming articles by code is checked or sent (the API allows one request every 10 minutes).",
		},
		"web.arts.search":    {ES: "Buscar por código, nombre o código de barras", EN: "Search by code, name or barcode"},
		"web.arts.find":      {ES: "Buscar", EN: "Search"},
		"web.arts.state":     {ES: "Estado", EN: "State"},
		"web.arts.active":    {ES: "activo", EN: "active"},
		"web.arts.eliminado": {ES: "dado de baja", EN: "deactivated"},
		"web.arts.count":     {ES: "%d variantes en el catálogo", EN: "%d variants in the catalog"},
		"web.arts.count.one": {ES: "%d variante en el catálogo", EN: "%d variant in the catalog"},
		"web.arts.found.one": {ES: "%d de %d variantes coincide con la búsqueda", EN: "%d of %d variants matches the search"},
		"web.arts.found":     {ES: "%d de %d variantes coinciden con la búsqueda", EN: "%d of %d variants match the search"},
		"web.page.tpla.error.codigo": {
			ES: "Ese código no está en el catálogo de artículos de la hoja «Artículos». Revise el código; la página lo verifica contra el catálogo actual al subir el archivo.",
			EN: "That code is not in the article catalog on the «Artículos» sheet. Check the code; the page checks it against the current catalog when the file is uploaded.",
		},
		"web.page.tpla.error.barras": {
			ES: "Ese código de barras no está en la hoja «Artículos». Revíselo; la página lo verifica contra el catálogo actual al subir el archivo.",
			EN: "That barcode is not on the «Artículos» sheet. Check it; the page checks it against the current catalog when the file is uploaded.",
		},
		"web.page.tpla.unknown": {
			ES: "no hay catálogo de artículos guardado, así que no hay hoja «Artículos» ni lista de códigos: se consulta al revisar o enviar en la página un archivo que nombra artículos por código; después descargue de nuevo la plantilla",
			EN: "there is no cached article catalog, so there is no «Artículos» sheet nor list of codes: it is fetched when the page checks or sends a file naming articles by code; then download the template again",
		},
		"tpla.catalog": {ES: "Catálogo de artículos", EN: "Article catalog"},
	})
}
