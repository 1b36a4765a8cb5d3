package msg

// Header matching and cell parsing (package schema).
func init() {
	register(map[string]Text{
		"map.read": {
			ES: "no se pudo leer el archivo de equivalencias %s (--map): revise el nombre y los permisos",
			EN: "the mapping file %s (--map) could not be read: check its name and permissions",
		},
		"map.toolarge": {
			ES: "el archivo de equivalencias %s (--map) pesa más de %d MB, el máximo: un archivo de equivalencias nombra columnas y ocupa unos pocos KB; revise que sea el archivo correcto",
			EN: "the mapping file %s (--map) is larger than %d MB, the most allowed: a mapping file names columns and takes a few KB; check that it is the right file",
		},
		"map.toomany": {
			ES: "el archivo de equivalencias %s (--map) tiene más entradas que las %d permitidas (una por columna de la planilla más ancha): revise que sea el archivo correcto",
			EN: "the mapping file %s (--map) has more entries than the %d allowed (one per column of the widest sheet): check that it is the right file",
		},
		"profile.read": {
			ES: "no se pudo leer el perfil de columnas %s",
			EN: "the column profile %s could not be read",
		},
		"profile.toolarge": {
			ES: "el perfil de columnas %s pesa más de %d MB, el máximo: no es un perfil guardado por nxbatch; bórrelo y vuelva a elegir las columnas en la página",
			EN: "the column profile %s is larger than %d MB, the most allowed: it is not a profile nxbatch saved; delete it and choose the columns again on the page",
		},
		"profile.toomany": {
			ES: "el perfil de columnas %s tiene más columnas que las %d permitidas: no es un perfil guardado por nxbatch; bórrelo y vuelva a elegir las columnas en la página",
			EN: "the column profile %s has more columns than the %d allowed: it is not a profile nxbatch saved; delete it and choose the columns again on the page",
		},
		"profile.damaged": {
			ES: "el perfil de columnas %s está dañado (no es JSON válido): bórrelo y vuelva a elegir las columnas en la página",
			EN: "the column profile %s is damaged (not valid JSON): delete it and choose the columns again on the page",
		},
		"map.syntax": {
			ES: "el archivo de equivalencias %s (--map) no es JSON ni YAML válido (%s): debe ser un objeto de pares \"su columna\": \"campoApi\"",
			EN: "the mapping file %s (--map) is not valid JSON or YAML (%s): it must be an object of \"your column\": \"apiField\" pairs",
		},
		"map.notobject": {
			ES: "el archivo de equivalencias %s (--map), línea %d: cada entrada debe ser un par \"su columna\": \"campoApi\", con textos simples",
			EN: "the mapping file %s (--map), line %d: each entry must be a \"your column\": \"apiField\" pair of plain texts",
		},
		"map.notcolumn": {
			ES: "el archivo de equivalencias %s (--map) asigna «%s» a «%s», que no es una columna de ningún tipo de archivo: use la ruta del campo de la API (por ejemplo ordenId o productos.precio)",
			EN: "the mapping file %s (--map) maps «%s» to «%s», which is not a column of any kind of file: use the API field's path (for example ordenId or productos.precio)",
		},
		"map.duplicate": {
			ES: "el archivo de equivalencias %s (--map) repite la columna «%s» (líneas %d y %d): deje una sola",
			EN: "the mapping file %s (--map) repeats the column «%s» (lines %d and %d): keep only one",
		},
		"map.conflict": {
			ES: "el archivo de equivalencias %s (--map) asigna «%s» a %s y «%s» a %s, pero son la misma columna (se ignoran mayúsculas, espacios, guiones bajos y acentos): deje una sola",
			EN: "the mapping file %s (--map) maps «%s» to %s and «%s» to %s, but they are the same column (case, blanks, underscores and accents are ignored): keep only one",
		},
		"hdr.missing": {
			ES: "para un archivo de tipo %s faltan columnas obligatorias: %s. Agréguelas al encabezado o indique con --map cómo se llaman en su planilla",
			EN: "a file of kind %s lacks required columns: %s. Add them to the header or name your own columns with --map",
		},
		"hdr.duplicate": {
			ES: "las columnas «%s» y «%s» completan el mismo campo %s: deje una sola",
			EN: "the columns «%s» and «%s» both fill the field %s: keep only one",
		},
		"cell.notnumber": {
			ES: "«%s» no es un número: escriba solo cifras, con coma o punto decimal (por ejemplo 1234,56)",
			EN: "«%s» is not a number: write digits only, with a decimal comma or point (for example 1234.56)",
		},
		"cell.ambiguous": {
			ES: "el número «%s» es ambiguo: puede ser miles o decimales; escríbalo sin separador de miles (1234 o 1,234) o indique --decimal comma|dot",
			EN: "the number «%s» is ambiguous: it may be thousands or decimals; write it without a thousands separator (1234 or 1.234) or pass --decimal comma|dot",
		},
		"cell.badnumber": {
			ES: "«%s» no es un número válido en este archivo, que usa %s como separador decimal: corrija los separadores (por ejemplo 1.234,56 o 1234,56)",
			EN: "«%s» is not a valid number in this file, which uses %s as decimal separator: fix the separators (for example 1,234.56 or 1234.56)",
		},
		"cell.sep.comma": {ES: "coma", EN: "a comma"},
		"cell.sep.dot":   {ES: "punto", EN: "a point"},
		"cell.precision": {
			ES: "«%s» tiene demasiados decimales: use como máximo %d",
			EN: "«%s» has too many decimal places: use at most %d",
		},
		"cell.toolarge": {ES: "«%s» es un número demasiado grande", EN: "«%s» is too large a number"},
		"cell.notint": {
			ES: "«%s» no es un número entero: escriba solo cifras, sin puntos ni decimales",
			EN: "«%s» is not a whole number: write digits only, without separators or decimals",
		},
		"cell.notbool": {
			ES: "«%s» no es sí ni no: escriba si/no, true/false, 1/0, o x para sí",
			EN: "«%s» is neither yes nor no: write si/no, true/false, 1/0, or x for yes",
		},
		"cell.badmedio": {
			ES: "«%s» no es un medio de pago: use EFECTIVO, TARJETA, CUENTA_CORRIENTE, DEPOSITO_BANCO o VIRTUAL (o su número 1, 5, 6, 9, 11)",
			EN: "«%s» is not a payment type: use EFECTIVO, TARJETA, CUENTA_CORRIENTE, DEPOSITO_BANCO or VIRTUAL (or its number 1, 5, 6, 9, 11)",
		},
		"cell.badtipostock": {
			ES: "«%s» no es un tipo de movimiento: use INGRESO_MANUAL, EGRESO_MANUAL, INGRESO_STOCK, EGRESO_STOCK o TRANSFERENCIA (o 4, 5, 6, 7, 10)",
			EN: "«%s» is not a movement type: use INGRESO_MANUAL, EGRESO_MANUAL, INGRESO_STOCK, EGRESO_STOCK or TRANSFERENCIA (or 4, 5, 6, 7, 10)",
		},
		"cell.badcondicion": {
			ES: "«%s» no es una condición de IVA: use Consumidor Final (CF), Responsable Inscripto (RI), Monotributo, Exento, Responsable No Inscripto (RNI), Sin categoría, o el código del ERP 0 a 5",
			EN: "«%s» is not a VAT condition: use Consumidor Final (CF), Responsable Inscripto (RI), Monotributo, Exento, Responsable No Inscripto (RNI), Sin categoría, or the ERP code 0 to 5",
		},
		"cell.baddate": {
			ES: "«%s» no es una fecha válida: escriba día/mes/año (por ejemplo 23/11/2026) o 2026-11-23",
			EN: "«%s» is not a valid date: write day/month/year (for example 23/11/2026) or 2026-11-23",
		},
		"cell.badsepflag": {ES: "--decimal «%s»: use comma o dot", EN: "--decimal «%s»: use comma or dot"},
	})
}
