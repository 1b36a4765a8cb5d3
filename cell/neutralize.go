package cell

import (
	"unicode/utf8"
)

// Neutralize returns cell made safe to open in a spreadsheet: a cell that
// Excel or LibreOffice would run as a formula gets a leading apostrophe.
// That is a cell starting with '=', '+', '-', '@', TAB or CR, or with their
// full-width forms ('＝', '＋', '－', '＠'), also when blanks or invisible
// characters (a space, a no-break space, a zero-width character) come
// first: spreadsheets skip those before deciding.
//
// A plain number ("-3", "+5", "1.234,56") is never touched: it is not a
// formula, and an apostrophe would turn it into text that no longer sums.
//
// A cell that already starts with the apostrophe Neutralize would add (an
// apostrophe followed by what needs one, or by a second apostrophe) gets
// one more, so that Unneutralize(Neutralize(x)) == x for every x.
func Neutralize(s string) string {
	if s == "" || s[0] < utf8.RuneSelf && !guardFirst[s[0]] {
		// Most cells: an ASCII first character that is neither blank
		// (skipped before a formula) nor one a formula or the guard
		// itself starts with. Short enough to be inlined: a report calls
		// this for every cell.
		return s
	}
	return neutralize(s)
}

// neutralize is Neutralize of a cell that may need a guard.
func neutralize(s string) string {
	if needsGuard(s) || escapesApostrophe(s) {
		return "'" + s
	}
	return s
}

// guardFirst marks the ASCII characters a cell that may need a guard
// starts with: the blank a spreadsheet skips, a formula's first characters
// and the apostrophe of the guard itself.
var guardFirst = [utf8.RuneSelf]bool{' ': true, '=': true, '+': true, '-': true, '@': true, '\t': true, '\r': true, '\'': true}

// Unneutralize is the inverse of Neutralize, for reading a report back: the
// apostrophe Neutralize adds is removed; any other cell is returned
// unchanged.
func Unneutralize(s string) string {
	if escapesApostrophe(s) {
		return s[1:]
	}
	return s
}

// needsGuard reports whether a spreadsheet would take s for a formula.
func needsGuard(s string) bool {
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !invisible(r) {
			break
		}
		i += w
	}
	if i == len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	switch r {
	case '=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠':
		return !plainNumber(s)
	}
	return false
}

// invisible reports whether r is a blank or invisible character that a
// spreadsheet skips before looking for a formula.
func invisible(r rune) bool {
	switch r {
	case ' ', '\u00a0', '\u2007', '\u202f', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

// plainNumber reports whether s is a number and nothing else: a sign,
// digits with '.' or ',' among them, and an optional exponent.
func plainNumber(s string) bool {
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	digits, exp := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case (c == '.' || c == ',') && digits > 0 && !exp:
		case (c == 'e' || c == 'E') && digits > 0 && !exp:
			exp = true
			if i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
		default:
			return false
		}
	}
	last := s[len(s)-1]
	return digits > 0 && last >= '0' && last <= '9'
}

// escapesApostrophe reports whether s starts with the apostrophe that
// Neutralize adds.
func escapesApostrophe(s string) bool {
	return len(s) >= 2 && s[0] == '\'' && (s[1] == '\'' || needsGuard(s[1:]))
}
