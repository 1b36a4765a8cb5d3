// Package readers reads the spreadsheets accountants hand to nxbatch, CSV and
// XLSX, into header-keyed records that remember where each came from (file,
// sheet, spreadsheet row). It knows nothing about kinds or API fields: it
// finds the header row, drops the result.* columns of an earlier report (so
// an error report can be fed back as it is), and yields the cells as text.
//
// CSV: delimiter detected among ',' ';' TAB; UTF-8 with or without BOM,
// UTF-16 with BOM, or Windows-1252, detected. XLSX: streamed row by row with
// excelize, raw cell values (numbers with '.' as decimal separator, dates as
// serial numbers), zip-bomb limits set.
package readers

import (
	"errors"
	"fmt"

	"github.com/nxbatch/nxbatch/msg"
)

// Position is where a record or cell sits in an input file. Row is the
// spreadsheet's own row number (the header is row 1 in a CSV file).
type Position struct {
	File  string
	Sheet string // empty for CSV
	Row   int
}

// String renders the position for logs: "ventas.xlsx, hoja Ventas, fila 12".
func (p Position) String() string { return p.Message().In(msg.ES) }

// Message renders the position as a catalog message.
func (p Position) Message() msg.Message {
	if p.Sheet == "" {
		return msg.New("pos.csv", p.File, p.Row)
	}
	return msg.New("pos.sheet", p.File, p.Sheet, p.Row)
}

// Options override what the reader would otherwise detect.
type Options struct {
	// Delimiter is the CSV field separator; 0 detects it from the header line
	// among ',' ';' and TAB.
	Delimiter rune
	// Encoding is "utf-8" or "windows-1252"; "" detects it.
	Encoding string
	// MaxCellBytes caps one cell (and one CSV record); 0 means 1 MiB. A larger
	// cell is an error naming its position, never an out-of-memory.
	MaxCellBytes int
}

// SheetInfo describes one table: a CSV file, or one worksheet of a workbook.
type SheetInfo struct {
	File      string   // the path as given
	Name      string   // worksheet name; empty for CSV
	Header    []string // header cells as typed (BOM and surrounding blanks removed), result.* columns dropped
	HeaderRow int      // spreadsheet row number of the header
	// RawNumbers is true for XLSX: numeric cells arrive as raw values with '.'
	// as decimal separator and dates as serial numbers.
	RawNumbers bool
	Date1904   bool   // the workbook's 1904 date system flag (XLSX)
	Delimiter  rune   // detected or given CSV delimiter
	Encoding   string // detected or given CSV encoding: "utf-8", "utf-8-bom", "utf-16", "windows-1252"
}

// Record is one non-empty row below the header.
type Record struct {
	Row int // spreadsheet row number
	// Cells are aligned with SheetInfo.Header: padded with "" when the row is
	// shorter; result.* columns dropped. The slice may be reused by the next
	// call to Next: copy what you keep.
	Cells []string
	// Problem is set when the row itself is malformed (e.g. more cells than
	// the header has columns). The row is still returned so that it appears in
	// the report, marked invalid with this message.
	Problem *Error
}

// Error is a problem at a position of an input file, with the sentence an
// accountant reads: what is wrong and what to change.
type Error struct {
	Pos    Position
	Column string // header of the column, or "" for a whole row or file
	Msg    msg.Message
	Err    error // underlying cause, if any
}

// Error renders the message in Spanish, with its position.
func (e *Error) Error() string { return e.In(msg.ES) }

// In renders the error with its position in language l.
func (e *Error) In(l msg.Lang) string {
	where := e.Pos.Message().In(l)
	if e.Pos.Row == 0 {
		where = e.Pos.File
		if e.Pos.Sheet != "" {
			where = msg.New("pos.sheetonly", e.Pos.File, e.Pos.Sheet).In(l)
		}
	}
	if e.Column != "" {
		where = msg.New("pos.column", where, e.Column).In(l)
	}
	return fmt.Sprintf("%s: %s", where, e.Msg.In(l))
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Sentinel causes, for errors.Is on a returned *Error.
var (
	ErrUnsupportedFormat = errors.New("unsupported file format")
	ErrEmptyFile         = errors.New("file is empty")
	ErrNoHeader          = errors.New("no header row")
	ErrNotText           = errors.New("not a text file")
	ErrCellTooLarge      = errors.New("cell too large")
	ErrNotXLSX           = errors.New("not a valid xlsx workbook")
	ErrTooLarge          = errors.New("workbook too large once uncompressed")
)
