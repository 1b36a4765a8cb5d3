package writers

// Neutralize returns cell made safe to open in a spreadsheet: a cell that
// Excel or LibreOffice would run as a formula (leading '=', '+', '-', '@',
// TAB or CR) gets a leading apostrophe.
//
// A negative number such as "-5" is neutralised too: in a report it is text
// the user typed, and a CSV cell cannot tell Excel "this is only a number"
// without also letting "-2+3" through. Unneutralize restores it exactly.
//
// A cell that already starts with an apostrophe followed by one of those
// characters, or by a second apostrophe, also gets one more, so that
// Unneutralize(Neutralize(x)) == x for every x.
func Neutralize(cell string) string {
	if cell == "" {
		return cell
	}
	if isFormulaLead(cell[0]) || escapesApostrophe(cell) {
		return "'" + cell
	}
	return cell
}

// Unneutralize is the inverse of Neutralize, for reading a report back: a
// leading apostrophe followed by '=', '+', '-', '@', TAB, CR or another
// apostrophe is removed; any other cell is returned unchanged.
func Unneutralize(cell string) string {
	if escapesApostrophe(cell) {
		return cell[1:]
	}
	return cell
}

func isFormulaLead(c byte) bool {
	switch c {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// escapesApostrophe reports whether s starts with the apostrophe that
// Neutralize adds.
func escapesApostrophe(s string) bool {
	return len(s) >= 2 && s[0] == '\'' && (isFormulaLead(s[1]) || s[1] == '\'')
}
