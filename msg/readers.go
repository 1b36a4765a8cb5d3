package msg

// Positions and reader errors. Reader texts follow a position ("ventas.csv,
// fila 12: ...") so they start in lower case, say what is wrong, then what to
// change in the file.
func init() {
	register(map[string]Text{
		"pos.csv":       {ES: "%s, fila %d", EN: "%s, row %d"},
		"pos.sheet":     {ES: "%s, hoja %s, fila %d", EN: "%s, sheet %s, row %d"},
		"pos.sheetonly": {ES: "%s, hoja %s", EN: "%s, sheet %s"},
		"pos.column":    {ES: "%s, columna %s", EN: "%s, column %s"},

		// Opening a file.
		"rd.unsupported": {
			ES: "no se pueden leer archivos %s: use un libro de Excel .xlsx o un archivo de texto .csv o .txt",
			EN: "%s files cannot be read: use an Excel .xlsx workbook or a .csv or .txt text file",
		},
		"rd.noext": {
			ES: "el archivo no tiene extensión: use un libro de Excel .xlsx o un archivo de texto .csv o .txt",
			EN: "the file has no extension: use an Excel .xlsx workbook or a .csv or .txt text file",
		},
		"rd.xls": {
			ES: "es un libro de Excel 97-2003 (.xls), que no se puede leer: ábralo en Excel y use «Guardar como» > «Libro de Excel (.xlsx)»",
			EN: "it is an Excel 97-2003 workbook (.xls), which cannot be read: open it in Excel and use \"Save As\" > \"Excel Workbook (.xlsx)\"",
		},
		"rd.saveas": {
			ES: "no se pueden leer archivos %s: ábralo y guárdelo como libro de Excel (.xlsx) o como CSV",
			EN: "%s files cannot be read: open it and save it as an Excel workbook (.xlsx) or as CSV",
		},
		"rd.notfound": {
			ES: "el archivo no existe: revise el nombre y la carpeta",
			EN: "the file does not exist: check its name and folder",
		},
		"rd.denied": {
			ES: "no hay permiso para leer el archivo: revise los permisos o cópielo a una carpeta propia",
			EN: "there is no permission to read the file: check its permissions or copy it to a folder of your own",
		},
		"rd.isdir": {
			ES: "es una carpeta, no un archivo: indique el archivo .xlsx o .csv a importar",
			EN: "it is a folder, not a file: give the .xlsx or .csv file to import",
		},
		"rd.io": {
			ES: "no se pudo leer el archivo (%s): verifique que el disco o la carpeta compartida estén disponibles y vuelva a intentar",
			EN: "the file could not be read (%s): check that the disk or shared folder is available and try again",
		},
		"rd.encoding": {
			ES: "la codificación «%s» no se conoce: use utf-8 o windows-1252",
			EN: "the encoding \"%s\" is unknown: use utf-8 or windows-1252",
		},
		"rd.filetoolarge": {
			ES: "el archivo ocupa %d MB, más que el máximo de %d MB: divídalo en archivos más chicos e impórtelos por separado",
			EN: "the file takes %d MB, more than the maximum of %d MB: split it into smaller files and import them one by one",
		},
		"rd.delimiter": {
			ES: "el separador «%s» no sirve para CSV: use coma (,), punto y coma (;) o tabulación",
			EN: "the separator \"%s\" cannot be used for CSV: use a comma (,), a semicolon (;) or a tab",
		},

		// CSV content.
		"rd.empty": {
			ES: "el archivo está vacío: la primera fila debe tener los títulos de las columnas y las siguientes, los datos",
			EN: "the file is empty: the first row must hold the column titles and the next rows the data",
		},
		"rd.noheader": {
			ES: "no hay ninguna fila con datos: la primera fila no vacía debe tener los títulos de las columnas",
			EN: "there is no row with data: the first non-empty row must hold the column titles",
		},
		"rd.nottext": {
			ES: "no es un archivo de texto CSV (tiene contenido binario): si es una planilla, ábrala y guárdela como .xlsx o como CSV",
			EN: "it is not a CSV text file (it has binary content): if it is a spreadsheet, open it and save it as .xlsx or as CSV",
		},
		"rd.xlsxascsv": {
			ES: "es un libro de Excel .xlsx con la extensión cambiada: renómbrelo a .xlsx o guárdelo como CSV desde Excel",
			EN: "it is an Excel .xlsx workbook with a changed extension: rename it to .xlsx or save it as CSV from Excel",
		},
		"rd.xlsascsv": {
			ES: "es un libro de Excel 97-2003 (.xls) con la extensión cambiada: ábralo en Excel y guárdelo como .xlsx o como CSV",
			EN: "it is an Excel 97-2003 workbook (.xls) with a changed extension: open it in Excel and save it as .xlsx or as CSV",
		},
		"rd.barequote": {
			ES: "hay una comilla (\") dentro de una celda sin comillas (línea %d del archivo): escriba la celda entera entre comillas y duplique la comilla interna (\"\"), o quítela",
			EN: "there is a quote (\") inside an unquoted cell (line %d of the file): put the whole cell in quotes and double the inner quote (\"\"), or remove it",
		},
		"rd.quote": {
			ES: "una comilla (\") está mal cerrada (línea %d del archivo): cierre la comilla al final de la celda; si la comilla es parte del texto, duplíquela (\"\")",
			EN: "a quote (\") is not closed properly (line %d of the file): close the quote at the end of the cell; if the quote is part of the text, double it (\"\")",
		},
		"rd.csvrows": {
			ES: "el archivo tiene más de %s filas, el máximo (el de una hoja de Excel): divídalo en archivos más chicos e impórtelos por separado",
			EN: "the file has more than %s rows, the maximum (that of an Excel sheet): split it into smaller files and import them one by one",
		},
		"rd.rowtoolarge": {
			ES: "la fila ocupa más de %d bytes: suele faltar una comilla de cierre (\") en una celda de esta fila; corríjala o acorte el texto",
			EN: "the row takes more than %d bytes: usually a cell in this row lacks its closing quote (\"); fix it or shorten the text",
		},

		// The header row, both formats.
		"rd.headerrow": {
			ES: "la fila %d, indicada como fila de títulos (--header-row), está vacía o no existe: indique el número de la fila que tiene los títulos de las columnas",
			EN: "row %d, given as the header row (--header-row), is empty or missing: give the number of the row that holds the column titles",
		},
		"rd.columns.report": {
			ES: "el encabezado tiene %s columnas, y con las del resultado el informe no entraría en una hoja de Excel: se admiten hasta %s. Borre las columnas que no se importan",
			EN: "the header has %s columns, and with the result columns the report would not fit an Excel sheet: up to %s are accepted. Delete the columns that are not imported",
		},
		"rd.columns": {
			ES: "el encabezado tiene más de %s columnas, el máximo (el de Excel): borre las columnas que no se importan",
			EN: "the header has more than %s columns, the maximum (Excel's): delete the columns that are not imported",
		},

		// Cells and rows, both formats.
		"rd.celltoolarge": {
			ES: "la celda tiene %d bytes, más que el máximo de %d: acorte el texto",
			EN: "the cell has %d bytes, more than the maximum of %d: shorten the text",
		},
		"rd.ragged": {
			ES: "la fila tiene %d celdas, más que las columnas del encabezado (%d; las de más dicen %s): borre las celdas de más o agregue un título a esa columna en el encabezado",
			EN: "the row has %d cells, more than the header's columns (%d; the extra ones say %s): delete the extra cells or add a title for that column to the header",
		},
		"rd.ragged.more": {ES: "%s y %d más", EN: "%s and %d more"},
		"rd.xlsxrowtoolarge": {
			ES: "los textos de la fila suman más de %d bytes y se omitieron los últimos: acorte los textos de esta fila",
			EN: "the row's texts add up to more than %d bytes and the last ones were left out: shorten the texts of this row",
		},

		// XLSX.
		"rd.notxlsx": {
			ES: "no es un archivo .xlsx válido (puede ser otro tipo de archivo renombrado, o estar dañado): ábralo en Excel y guárdelo de nuevo como .xlsx",
			EN: "it is not a valid .xlsx file (it may be another kind of file renamed, or damaged): open it in Excel and save it again as .xlsx",
		},
		"rd.xlsxprotected": {
			ES: "el libro está protegido con contraseña o es un .xls antiguo: quite la contraseña y guárdelo como libro de Excel (.xlsx)",
			EN: "the workbook is protected with a password or is an old .xls: remove the password and save it as an Excel workbook (.xlsx)",
		},
		"rd.xlsxtoolarge": {
			ES: "el libro ocupa más de %d MB descomprimido: divídalo en libros más chicos",
			EN: "the workbook takes more than %d MB uncompressed: split it into smaller workbooks",
		},
		"rd.xlsxentries": {
			ES: "el libro tiene %s partes internas, más que el máximo de %s: no parece un libro de Excel; ábralo en Excel y guárdelo de nuevo como .xlsx",
			EN: "the workbook has %s internal parts, more than the maximum of %s: it does not look like an Excel workbook; open it in Excel and save it again as .xlsx",
		},
		"rd.xlsxsheets": {
			ES: "el libro tiene más de %s hojas, el máximo: divídalo en libros más chicos",
			EN: "the workbook has more than %s sheets, the maximum: split it into smaller workbooks",
		},
		"rd.sstcount": {
			ES: "el libro tiene más de %s textos distintos, el máximo: divídalo en libros más chicos o guarde las hojas como CSV",
			EN: "the workbook has more than %s distinct texts, the maximum: split it into smaller workbooks or save its sheets as CSV",
		},
		"rd.sstbytes": {
			ES: "los textos del libro ocupan más de %d MB, el máximo: divídalo en libros más chicos o guarde las hojas como CSV",
			EN: "the workbook's texts take more than %d MB, the maximum: split it into smaller workbooks or save its sheets as CSV",
		},
		"rd.xlsxpart": {
			ES: "una parte interna del libro (%s) está dañada (%s): ábralo en Excel y guárdelo de nuevo como .xlsx",
			EN: "an internal part of the workbook (%s) is damaged (%s): open it in Excel and save it again as .xlsx",
		},
		"rd.xlsxrows": {
			ES: "la hoja tiene más de %s filas, el máximo de Excel: divídala en hojas o libros más chicos",
			EN: "the sheet has more than %s rows, Excel's maximum: split it into smaller sheets or workbooks",
		},
		"rd.xlsxrownumber": {
			ES: "la hoja tiene una fila numerada %s, más allá de la última fila de Excel (%s): el libro está dañado; ábralo en Excel y guárdelo de nuevo",
			EN: "the sheet has a row numbered %s, past Excel's last row (%s): the workbook is damaged; open it in Excel and save it again",
		},
		"rd.xlsxrowcells": {
			ES: "la fila tiene más de %s celdas, el máximo de Excel: el libro está dañado; ábralo en Excel y guárdelo de nuevo",
			EN: "the row has more than %s cells, Excel's maximum: the workbook is damaged; open it in Excel and save it again",
		},
		"rd.xlsxsheettext": {
			ES: "los textos de la hoja suman más de %d MB, el máximo: divídala en hojas o libros más chicos",
			EN: "the sheet's texts add up to more than %d MB, the maximum: split it into smaller sheets or workbooks",
		},
		"rd.nosheet": {
			ES: "no hay una hoja llamada «%s»: revise el nombre de la hoja",
			EN: "there is no sheet named \"%s\": check the sheet name",
		},
		// Why a workbook is damaged: the argument of rd.xlsxpart and
		// rd.sheetdamaged, in the language of the sentence.
		"rd.why.taglong":        {ES: "una etiqueta XML pasa de %d MB", EN: "an XML tag is longer than %d MB"},
		"rd.why.doctype":        {ES: "el XML tiene una declaración DOCTYPE, que un libro de Excel nunca tiene", EN: "the XML has a DOCTYPE, which an Excel workbook never has"},
		"rd.why.xmltruncated":   {ES: "el XML se corta en medio de un elemento", EN: "the XML ends in the middle of an element"},
		"rd.why.xmlsyntax":      {ES: "el XML está mal formado", EN: "the XML is malformed"},
		"rd.why.zipformat":      {ES: "el contenedor zip está dañado", EN: "the zip container is damaged"},
		"rd.why.zipalgorithm":   {ES: "usa un método de compresión que Excel no usa", EN: "it uses a compression method Excel does not use"},
		"rd.why.zipchecksum":    {ES: "su suma de control no coincide", EN: "its checksum does not match"},
		"rd.why.zipcorrupt":     {ES: "los datos comprimidos están cortados o dañados", EN: "the compressed data is cut short or damaged"},
		"rd.why.unreadable":     {ES: "no se puede leer", EN: "it cannot be read"},
		"rd.why.nobook":         {ES: "falta la parte %s, la lista de hojas", EN: "the part %s, the list of sheets, is missing"},
		"rd.why.nosheets":       {ES: "el libro no lista ninguna hoja", EN: "the workbook lists no sheet"},
		"rd.why.rownumber":      {ES: "una fila tiene el número «%s», que no es un número de fila", EN: "a row has the number \"%s\", which is not a row number"},
		"rd.why.cellref":        {ES: "una celda tiene la referencia «%s», que no es una celda", EN: "a cell has the reference \"%s\", which is not a cell"},
		"rd.why.pastcolumn":     {ES: "una celda está más allá de la columna %s, la última de Excel", EN: "a cell lies past column %s, Excel's last"},
		"rd.why.nosharedstring": {ES: "una celda usa el texto compartido número %s, que el libro no tiene", EN: "a cell uses shared text number %s, which the workbook does not have"},
		"rd.why.nopart":         {ES: "falta su parte interna %s", EN: "its internal part %s is missing"},
		"rd.why.norel":          {ES: "el libro no dice dónde está su contenido", EN: "the workbook does not say where its content is"},
		"rd.sheetdamaged": {
			ES: "el contenido de la hoja está dañado (%s): ábrala en Excel y guarde el libro de nuevo",
			EN: "the sheet's content is damaged (%s): open it in Excel and save the workbook again",
		},
	})
}
