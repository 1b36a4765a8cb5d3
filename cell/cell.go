// Package cell names what a spreadsheet cell holds, decided once by the
// reader from what the source file says and carried unchanged to the
// reports, so that a number typed as a number comes back as a number, a date
// as a date and an identifier typed as text (leading zeros included) as
// text.
//
// A cell travels as its kind and its raw text:
//
//	Text    the text as typed
//	Number  the stored value, '.' as decimal separator, no thousands
//	        separator ("4252.5", "-3", "1e-05")
//	Date    the stored spreadsheet serial number ("46346", "46346.5");
//	        the workbook's 1904 flag travels with the sheet
//	Bool    "1" or "0"
//	Empty   ""
//
// A CSV file says nothing about types: every non-empty cell of a CSV file is
// Text, and it is the schema (which knows that a column holds an amount)
// that parses it.
package cell

// Kind is what a cell holds.
type Kind uint8

// The kinds of cell. The zero value is Text, so that a reader that says
// nothing about a cell's kind keeps today's meaning.
const (
	Text Kind = iota
	Number
	Date
	Bool
	Empty
)

// String names the kind, for tests and diagnostics.
func (k Kind) String() string {
	switch k {
	case Text:
		return "text"
	case Number:
		return "number"
	case Date:
		return "date"
	case Bool:
		return "bool"
	case Empty:
		return "empty"
	}
	return "kind?"
}

// Typed reports whether the source gave the cell a type other than text:
// its raw text is then a stored value, not what the user typed.
func (k Kind) Typed() bool { return k == Number || k == Date || k == Bool }
