package msg

// Positions and reader errors.
func init() {
	register(map[string]Text{
		"pos.csv":       {ES: "%s, fila %d", EN: "%s, row %d"},
		"pos.sheet":     {ES: "%s, hoja %s, fila %d", EN: "%s, sheet %s, row %d"},
		"pos.sheetonly": {ES: "%s, hoja %s", EN: "%s, sheet %s"},
		"pos.column":    {ES: "%s, columna %s", EN: "%s, column %s"},
	})
}
