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

// What becomes of each counted row, and the plan's head.
func init() {
	register(map[string]Text{
		"cnt.row.send": {
			ES: "contado %s, el ERP tenía %s (leído el %s): se envía %s de %s en el movimiento %d",
			EN: "counted %s, the ERP had %s (read on %s): %s of %s is sent in movement %d",
		},
		"cnt.row.retry": {
			ES: "contado %s: se vuelve a enviar la misma línea que antes (%s de %s, calculada contra el stock leído el %s), sin recalcular (--retry-unknown)",
			EN: "counted %s: the same line as before is sent again (%s of %s, worked out against the stock read on %s), not recomputed (--retry-unknown)",
		},
		"cnt.row.equal": {
			ES: "contado %s, igual al stock del ERP leído el %s: no se envía nada",
			EN: "counted %s, equal to the ERP's stock read on %s: nothing is sent",
		},
		"cnt.row.done": {
			ES: "ya aplicado el %s: contado %s, el ERP tenía %s, se envió %s de %s (%s); no se vuelve a calcular ni a enviar",
			EN: "already applied on %s: counted %s, the ERP had %s, %s of %s was sent (%s); it is neither recomputed nor sent again",
		},
		"cnt.row.done.equal": {
			ES: "ya aplicado el %s: contado %s, igual al stock del ERP leído el %s, no hubo nada que enviar; no se vuelve a calcular",
			EN: "already applied on %s: counted %s, equal to the ERP's stock read on %s, there was nothing to send; it is not recomputed",
		},
		"cnt.row.conflict": {
			ES: "esta fila ya se aplicó el %s con %s contados (el ERP tenía %s): %s. Ahora dice %s y no se envía nada: si es un conteo nuevo, cárguelo con otra fecha o detalle; si no, deje la cantidad que se envió",
			EN: "this row was already applied on %s with %s counted (the ERP had %s): %s. It now says %s and nothing is sent: if it is a new count, load it with another fecha or detalle; if not, put back the quantity that was sent",
		},
		"cnt.sent.line": {
			ES: "se envió %s de %s (%s)",
			EN: "%s of %s was sent (%s)",
		},
		"cnt.sent.nothing": {
			ES: "no se envió nada porque era igual al stock",
			EN: "nothing was sent because it equalled the stock",
		},
		"cnt.sent.unknown": {
			ES: "%s de %s",
			EN: "%s of %s",
		},
		"cnt.row.unknown": {
			ES: "no se sabe si la API recibió el movimiento de esta fila (%s): no se recalcula ni se reenvía hasta que lo resuelva, después de revisar el ERP, con %s",
			EN: "it is not known whether the API received this row's movement (%s): it is neither recomputed nor sent again until you settle it, after checking the ERP, with %s",
		},
		"cnt.row.added": {
			ES: "agregada por --faltantes-en-cero: no figura en el conteo y el ERP tenía %s en el depósito %d, así que se cuenta como 0. %s",
			EN: "added by --faltantes-en-cero: it is not in the count and the ERP had %s in warehouse %d, so it is counted as 0. %s",
		},
		"cnt.mov.id": {
			ES: "movimiento %d",
			EN: "movement %d",
		},
		"cnt.mov.key": {
			ES: "envío %s del diario",
			EN: "journal request %s",
		},
		"cnt.plan.rows": {
			ES: "Conteo. Filas contadas: %d. Con diferencia: %d (ingresos: %d, egresos: %d), en solicitudes de movimiento: %d. Iguales al stock del ERP: %d. Ya aplicadas: %d. En conflicto: %d. Desconocidas: %d",
			EN: "Count. Rows counted: %d. With a difference: %d (in: %d, out: %d), in movement requests: %d. Equal to the ERP's stock: %d. Already applied: %d. In conflict: %d. Unknown: %d",
		},
		"cnt.plan.added": {
			ES: "Variantes con stock en los depósitos contados que no figuran en el conteo y se cuentan como 0 (--faltantes-en-cero): %d, cada una listada con su fila agregada",
			EN: "Variants with stock in the counted warehouses that are not in the count and are counted as 0 (--faltantes-en-cero): %d, each listed as an added row",
		},
		"cnt.plan.noreads": {
			ES: "No hizo falta leer el stock del ERP: ninguna fila queda por calcular",
			EN: "The ERP's stock did not need reading: no row is left to work out",
		},
		"cnt.plan.willread": {
			ES: "Se leerá el stock del ERP. Lecturas: %d, que llevan al menos %s (la ventana de consultas masivas permite una cada %s)",
			EN: "The ERP's stock will be read. Reads: %d, taking at least %s (the masses window allows one every %s)",
		},
		"cnt.plan.reads": {
			ES: "Stock del ERP. Lecturas: %d, que llevaron al menos %s",
			EN: "The ERP's stock. Reads: %d, taking at least %s",
		},
		"cnt.plan.read.all": {
			ES: "  todos los depósitos, leídos el %s",
			EN: "  every warehouse, read on %s",
		},
		"cnt.plan.read.dep": {
			ES: "  depósito %d, leído el %s",
			EN: "  warehouse %d, read on %s",
		},
		"cnt.plan.against": {
			ES: "Las diferencias se toman contra el stock del ERP leído en ese momento: lo vendido o movido entre el conteo y la lectura aparece como diferencia del conteo; revíselo antes de enviar",
			EN: "The differences are taken against the ERP's stock as read at that time: whatever was sold or moved between the count and the read shows as a difference of the count; check it before sending",
		},
	})
}

// A count's rows, checked before anything is read or sent.
func init() {
	register(map[string]Text{
		"val.count.required": {
			ES: "%s está vacío: escriba la cantidad contada (0 si no hay ninguno)",
			EN: "%s is empty: write the counted quantity (0 if there are none)",
		},
		"val.count.negative": {
			ES: "%s vale %s: la cantidad contada no puede ser negativa; escriba lo que hay (0 si no hay ninguno) y nxbatch calcula la diferencia con el ERP",
			EN: "%s is %s: a counted quantity cannot be negative; write what there is (0 if there are none) and nxbatch works out the difference with the ERP",
		},
		"val.count.deposito": {
			ES: "el depósito %d no es de las sucursales de la integración, así que no se puede contar ni mover por la API; depósitos válidos: %s",
			EN: "warehouse %d does not belong to the integration's branches, so it cannot be counted nor moved through the API; valid warehouses: %s",
		},
		"cnt.repeated": {
			ES: "el artículo %d (talle %d, color %d) del depósito %d ya se contó en la fila %d: deje una sola fila por artículo y variante, con el total contado",
			EN: "article %d (size %d, colour %d) of warehouse %d was already counted on row %d: keep one row per article and variant, with the total counted",
		},
	})
}

// Working a count out before sending.
func init() {
	register(map[string]Text{
		"cnt.read.failed": {
			ES: "no se pudo leer el stock del ERP para calcular las diferencias del conteo, así que no se envió nada del conteo: %s",
			EN: "the ERP's stock could not be read to work out the count's differences, so nothing of the count was sent: %s",
		},
		"cnt.notread": {
			ES: "no se leyó el stock del ERP, así que no se calculó la diferencia de esta fila ni se envió nada: vuelva a ejecutar el envío",
			EN: "the ERP's stock was not read, so this row's difference was not worked out and nothing was sent: run the sending again",
		},
	})
}

func init() {
	register(map[string]Text{
		"cnt.row.outcome": {
			ES: "%s. %s",
			EN: "%s. %s",
		},
	})
}

func init() {
	register(map[string]Text{
		"cnt.duprun": {
			ES: "este artículo y variante del mismo depósito ya se cuenta en %s, en esta misma ejecución: se envía solo ese conteo; deje el artículo en un solo archivo",
			EN: "this article and variant of the same warehouse is already counted in %s, in this same run: only that count is sent; keep the article in one file only",
		},
	})
}

func init() {
	register(map[string]Text{
		"cnt.zero.blocked": {
			ES: "--faltantes-en-cero no puso nada en 0: hay filas con errores (%s) y no se sabe qué artículo cuentan, así que cualquiera podría ser uno de los faltantes. Corríjalas y vuelva a enviar el archivo: entonces se ponen en 0 los que falten",
			EN: "--faltantes-en-cero set nothing to 0: some rows have errors (%s) and it is not known which article they count, so any of them could be one of the missing ones. Fix them and send the file again: the missing ones are then set to 0",
		},
	})
}

func init() {
	register(map[string]Text{
		"cnt.read.wait": {
			ES: "leer el stock del ERP espera la ventana de consultas masivas de la API: %s (hasta las %s)",
			EN: "reading the ERP's stock waits for the API's masses window: %s (until %s)",
		},
	})
}
