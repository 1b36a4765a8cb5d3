package msg

// Inventory counts (nxbatch.md 3.6): the count file's header and rows, and
// the plan that says what each counted row becomes.
func init() {
	register(map[string]Text{
		"hdr.count.missing": {
			ES: "para un archivo de conteo de inventario faltan columnas obligatorias: %s. Agréguelas al encabezado o indique con --map cómo se llaman en su planilla",
			EN: "an inventory count file lacks required columns: %s. Add them to the header or name your own columns with --map",
		},
		"hdr.count.mixed": {
			ES: "la columna «%s» es la cantidad a mover, pero este archivo es un conteo (tiene la cantidad contada): un conteo lleva solo la cantidad contada y nxbatch calcula la diferencia. Quite esa columna o pase esas filas a otro archivo de movimientos",
			EN: "the column «%s» is the quantity to move, but this file is a count (it has the counted quantity): a count carries only the counted quantity and nxbatch works out the difference. Remove that column or move those rows to a separate movements file",
		},
		"hdr.count.tipo": {
			ES: "la columna «%s» es el tipo de movimiento, pero este archivo es un conteo (tiene la cantidad contada): en un conteo el tipo sale de la diferencia con el stock del ERP (INGRESO_STOCK o EGRESO_STOCK). Quite esa columna",
			EN: "the column «%s» is the movement type, but this file is a count (it has the counted quantity): in a count the type comes from the difference with the ERP's stock (INGRESO_STOCK or EGRESO_STOCK). Remove that column",
		},
	})
}

func init() {
	register(map[string]Text{
		"cnt.jrn.equal": {
			ES: "conteo igual al stock del ERP: no se envió nada",
			EN: "count equal to the ERP's stock: nothing was sent",
		},
	})
}
