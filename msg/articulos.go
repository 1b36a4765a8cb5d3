package msg

// Articles named by the shop's own keys (package articulos, resolved in
// validation and pipeline): the column as the user wrote it, what it says
// and what to write instead.
func init() {
	register(map[string]Text{
		"hdr.missing.or":                 {ES: "%s (o %s)", EN: "%s (or %s)"},
		"hdr.or":                         {ES: " o ", EN: " or "},
		"tpl.col.productos.codigo":       {ES: "Código del artículo (el de su sistema, tal como está en el catálogo; se respetan los ceros a la izquierda). Reemplaza a articuloId.", EN: "The article's code (your own, as the catalog has it; leading zeros count). Stands in for articuloId."},
		"tpl.col.productos.codigoBarras": {ES: "Código de barras (EAN) de la variante: nombra el artículo, el talle y el color.", EN: "The variant's barcode (EAN): names the article, size and colour."},
		"tpl.col.productos.talle":        {ES: "Talle por nombre o código (M, 42...), si el artículo tiene talles.", EN: "Size by name or code (M, 42...), if the article has sizes."},
		"tpl.col.productos.color":        {ES: "Color por nombre o código (Rojo, RJ...), si el artículo tiene colores.", EN: "Colour by name or code (Rojo, RJ...), if the article has colours."},
		"tpl.col.articulos.codigo":       {ES: "Código del artículo (el de su sistema, tal como está en el catálogo; se respetan los ceros a la izquierda). Reemplaza a articuloId.", EN: "The article's code (your own, as the catalog has it; leading zeros count). Stands in for articuloId."},
		"tpl.col.articulos.codigoBarras": {ES: "Código de barras (EAN) de la variante: nombra el artículo, el talle y el color.", EN: "The variant's barcode (EAN): names the article, size and colour."},
		"tpl.col.articulos.talle":        {ES: "Talle por nombre o código (M, 42...), si el artículo tiene talles.", EN: "Size by name or code (M, 42...), if the article has sizes."},
		"tpl.col.articulos.color":        {ES: "Color por nombre o código (Rojo, RJ...), si el artículo tiene colores.", EN: "Colour by name or code (Rojo, RJ...), if the article has colours."},
	})
}

func init() {
	register(map[string]Text{
		"art.code.unknown": {
			ES: "%s «%s»: ningún artículo del catálogo tiene ese código; corríjalo (cuentan los ceros a la izquierda) o use articuloId",
			EN: "%s «%s»: no article of the catalog has that code; fix it (leading zeros count) or use articuloId",
		},
		"art.code.unknown.suggest": {
			ES: "%s «%s»: ningún artículo del catálogo tiene ese código; ¿quiso decir %s? Corríjalo (cuentan los ceros a la izquierda) o use articuloId",
			EN: "%s «%s»: no article of the catalog has that code; did you mean %s? Fix it (leading zeros count) or use articuloId",
		},
		"art.code.ambiguous": {
			ES: "%s «%s» corresponde a varios artículos: %s; escriba el código exacto, con sus mayúsculas, o use articuloId",
			EN: "%s «%s» names several articles: %s; write the exact code, with its capitals, or use articuloId",
		},
		"art.barcode.unknown": {
			ES: "%s «%s»: ningún artículo del catálogo tiene ese código de barras; corríjalo o use el código del artículo con su talle y color",
			EN: "%s «%s»: no article of the catalog has that barcode; fix it or use the article's code with its size and colour",
		},
		"art.barcode.ambiguous": {
			ES: "%s «%s» corresponde a varias variantes: %s; use el código del artículo con su talle y color",
			EN: "%s «%s» names several variants: %s; use the article's code with its size and colour",
		},
		"art.id.unknown": {
			ES: "%s %s: no existe en el catálogo de artículos; corrija el id o use el código del artículo",
			EN: "%s %s: it is not in the article catalog; fix the id or use the article's code",
		},
		"art.mismatch": {
			ES: "%s «%s» nombra %s, pero %s «%s» nombra %s: las dos columnas deben nombrar el mismo artículo; corrija una o deje vacía la que sobra",
			EN: "%s «%s» names %s, but %s «%s» names %s: both columns must name the same article; fix one or leave the extra one empty",
		},
		"art.mismatch.variant": {
			ES: "%s «%s» no coincide con %s «%s», que es %s: corrija una de las dos columnas o deje vacía la que sobra",
			EN: "%s «%s» does not match %s «%s», which is %s: fix one of the two columns or leave the extra one empty",
		},
		"art.variant.required": {
			ES: "%s «%s»: %s tiene talles y colores; complete %s (%s) y %s (%s)",
			EN: "%s «%s»: %s comes in sizes and colours; fill in %s (%s) and %s (%s)",
		},
		"art.variant.talle": {
			ES: "%s «%s»: %s tiene talles; complete %s (%s)",
			EN: "%s «%s»: %s comes in sizes; fill in %s (%s)",
		},
		"art.variant.color": {
			ES: "%s «%s»: %s tiene colores; complete %s (%s)",
			EN: "%s «%s»: %s comes in colours; fill in %s (%s)",
		},
		"art.talle.unknown": {
			ES: "%s «%s»: %s no tiene ese talle; sus talles son: %s",
			EN: "%s «%s»: %s has no such size; its sizes are: %s",
		},
		"art.color.unknown": {
			ES: "%s «%s»: %s no tiene ese color; sus colores son: %s",
			EN: "%s «%s»: %s has no such colour; its colours are: %s",
		},
		"art.talle.none": {
			ES: "%s «%s»: %s no tiene talles; deje la columna vacía",
			EN: "%s «%s»: %s has no sizes; leave the column empty",
		},
		"art.color.none": {
			ES: "%s «%s»: %s no tiene colores; deje la columna vacía",
			EN: "%s «%s»: %s has no colours; leave the column empty",
		},
		"art.variant.unknown": {
			ES: "%s no viene en %s; sus variantes son: %s. Corrija el talle o el color",
			EN: "%s does not come in %s; its variants are: %s. Fix the size or the colour",
		},
		"art.deactivated": {
			ES: "%s «%s»: %s está dado de baja en el ERP y no se puede vender ni mover; quite la fila o use otro artículo",
			EN: "%s «%s»: %s is deactivated in the ERP and cannot be sold or moved; remove the row or use another article",
		},
		"art.deactivated.variant": {
			ES: "%s «%s»: la variante %s de %s está dada de baja en el ERP; quite la fila o use otra variante",
			EN: "%s «%s»: variant %s of %s is deactivated in the ERP; remove the row or use another variant",
		},
		"art.none": {
			ES: "la fila no nombra ningún artículo: complete %s, %s o %s",
			EN: "the row names no article: fill in %s, %s or %s",
		},
		"art.nocatalog": {
			ES: "%s «%s»: sin el catálogo de artículos no se puede traducir a los ids que pide la API; descárguelo (nxbatch catalog pull --articulos, o --catalog CARPETA con su exportación) o use articuloId, talleId y colorId",
			EN: "%s «%s»: without the article catalog it cannot be turned into the ids the API takes; fetch it (nxbatch catalog pull --articulos, or --catalog FOLDER with its export) or use articuloId, talleId and colorId",
		},
		"art.unchecked": {
			ES: "%s: los artículos de las filas %s no se verificaron, porque esta ejecución no tiene el catálogo de artículos; la API dirá si existen",
			EN: "%s: the articles of rows %s were not checked, because this run has no article catalog; the API will say whether they exist",
		},
		"art.formula": {
			ES: "%s «%s» es una fórmula, no un código: escriba el código mismo (formatee la columna como Texto)",
			EN: "%s «%s» is a formula, not a code: write the code itself (format the column as Text)",
		},
		"art.scientific": {
			ES: "%s «%s»: la planilla convirtió el número en notación científica y perdió dígitos; formatee la columna como Texto y vuelva a escribir el código completo",
			EN: "%s «%s»: the spreadsheet turned the number into scientific notation and lost digits; format the column as Text and type the whole code again",
		},
	})
}
