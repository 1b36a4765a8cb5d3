package msg

// Loading, grouping and row outcomes (package pipeline).
func init() {
	register(map[string]Text{
		"load.emptysheet": {ES: "la hoja %s está vacía y se omitió", EN: "sheet %s is empty and was skipped"},
		"load.sheetnokind": {
			ES: "la hoja %s no tiene una columna ordenId, facturaId ni depositoId y se omitió",
			EN: "sheet %s has no ordenId, facturaId or depositoId column and was skipped",
		},
		"load.nokind": {
			ES: "no se reconoce el tipo de archivo: el encabezado debe tener ordenId (ventas), facturaId (preventas a facturar) o depositoId (stock), o indique --kind venta|facturar|stock",
			EN: "the kind of file is not recognised: the header must have ordenId (sales), facturaId (presales to invoice) or depositoId (stock), or pass --kind venta|facturar|stock",
		},
		"load.norows": {
			ES: "el archivo tiene encabezado pero ninguna fila de datos: complete al menos una fila",
			EN: "the file has a header but no data rows: fill in at least one row",
		},
		"load.unknowncols": {
			ES: "%s: columnas que no corresponden a ningún campo y se copian al informe sin usarse: %s",
			EN: "%s: columns that fill no field, copied to the report and otherwise ignored: %s",
		},
		"load.unknowncols.more": {
			ES: "%s: columnas que no corresponden a ningún campo y se copian al informe sin usarse: %s y %d más",
			EN: "%s: columns that fill no field, copied to the report and otherwise ignored: %s and %d more",
		},
		"rep.name.sibling": {
			ES: "en la misma carpeta está %s, con el mismo nombre: los informes llevan la extensión para no pisarse",
			EN: "%s, with the same name, is in the same folder: the reports carry the extension so they do not overwrite each other",
		},
		"rep.name.samename": {
			ES: "%d archivos de esta ejecución se llaman igual: los informes llevan la carpeta de cada uno",
			EN: "%d files of this run have the same name: the reports carry each one's folder",
		},
		"rep.name.notice": {ES: "los informes de %s se llaman «%s»: %s", EN: "the reports of %s are named «%s»: %s"},
		"load.titlerows": {
			ES: "%[2]s: se omitieron %[1]d filas de título sobre el encabezado (fila %[3]d); si el encabezado es otro, indíquelo con --header-row",
			EN: "%[2]s: %[1]d title rows above the header (row %[3]d) were skipped; if the header is another row, give it with --header-row",
		},
		"load.titlerows.one": {
			ES: "%[2]s: se omitió %[1]d fila de título sobre el encabezado (fila %[3]d); si el encabezado es otro, indíquelo con --header-row",
			EN: "%[2]s: %[1]d title row above the header (row %[3]d) was skipped; if the header is another row, give it with --header-row",
		},
		"req.venta":    {ES: "venta %s", EN: "sale %s"},
		"req.stockmov": {ES: "movimiento %d", EN: "movement %d"},
		"row.duprowid": {
			ES: "la fila tiene la misma identidad (result.rowId %s) que la fila %d: es una copia. Quite una de las dos, o borre result.rowId de la fila que es un artículo nuevo",
			EN: "the row has the same identity (result.rowId %s) as row %d: it is a copy. Remove one of them, or clear result.rowId on the row that is a new article",
		},
		"req.facturar": {ES: "preventa %s", EN: "presale %s"},
		"req.row":      {ES: "fila %d", EN: "row %d"},
		"req.stock":    {ES: "movimiento %d (parte %d de %d)", EN: "movement %d (part %d of %d)"},
		"row.conflict": {
			ES: "la columna «%s» tiene valores distintos en filas de la misma operación (%s): déjela igual en todas o complétela en una sola",
			EN: "column «%s» has different values on rows of the same request (%s): make them equal or fill it on one row only",
		},
		"row.cell": {ES: "columna «%s»: %s", EN: "column «%s»: %s"},
		"row.dupfactura": {
			ES: "la preventa facturaId %s ya aparece en la fila %d: quite la fila repetida",
			EN: "presale facturaId %s already appears on row %d: remove the repeated row",
		},
		"row.internal": {ES: "error interno: %s", EN: "internal error: %s"},
		"row.otherrows": {
			ES: "esta fila está bien, pero no se envía porque la solicitud «%s» tiene errores en la(s) fila(s) %s",
			EN: "this row is fine, but it is not sent because the request «%s» has errors on row(s) %s",
		},
	})
}

// The plan printed before sending.
func init() {
	register(map[string]Text{
		"plan.line":              {ES: "%s: %s → %s (%s)", EN: "%s: %s → %s (%s)"},
		"plan.kind.venta":        {ES: "%d ventas", EN: "%d sales"},
		"plan.kind.venta.one":    {ES: "%d venta", EN: "%d sale"},
		"plan.kind.facturar":     {ES: "%d preventas a facturar", EN: "%d presales to invoice"},
		"plan.kind.facturar.one": {ES: "%d preventa a facturar", EN: "%d presale to invoice"},
		"plan.kind.count":        {ES: "un conteo de inventario (los movimientos salen de comparar con el stock del ERP)", EN: "an inventory count (its movements come from comparing it with the ERP's stock)"},
		"plan.kind.stock":        {ES: "%d movimientos de stock", EN: "%d stock movement requests"},
		"plan.kind.stock.one":    {ES: "%d movimiento de stock", EN: "%d stock movement request"},
		"n.rows":                 {ES: "%d filas", EN: "%d rows"},
		"n.rows.one":             {ES: "%d fila", EN: "%d row"},
		"n.requests":             {ES: "%d solicitudes", EN: "%d requests"},
		"n.requests.one":         {ES: "%d solicitud", EN: "%d request"},
		"n.witherrors":           {ES: "%d con errores", EN: "%d with errors"},
		"n.rowswitherrors":       {ES: "%d filas con errores", EN: "%d rows with errors"},
		"n.rowswitherrors.one":   {ES: "%d fila con errores", EN: "%d row with errors"},
		"plan.tosend": {
			ES: "a enviar: %s; tiempo mínimo que permiten los límites de la API: %s",
			EN: "to send: %s; least time the API's limits allow: %s",
		},
	})
}
