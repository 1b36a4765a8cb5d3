// Package readers reads the spreadsheets accountants hand to nxbatch, CSV and
// XLSX, into header-keyed records that remember where each came from (file,
// sheet, spreadsheet row). It knows nothing about kinds or API fields: it
// finds the header row, drops the result.* columns of an earlier report (so
// an error report can be fed back as it is, keeping result.row and
// result.rowId as the record's Prior), and yields the cells as text with,
// for XLSX, the kind of each (package cell).
//
// CSV: delimiter detected among ',' ';' TAB; UTF-8 with or without BOM,
// UTF-16 with BOM, or Windows-1252, detected; parsed with encoding/csv's
// grammar by the package's own parser (csvparse.go, several times cheaper
// on lines without quotes; FuzzCSVParser holds it to encoding/csv), with a
// CR LF inside a quoted cell kept as typed. Every CSV cell is text.
//
// XLSX is read by this package over archive/zip, not by excelize, because
// excelize holds sharedStrings.xml whole as one Go string per entry and
// spills large sheets to temporary files: a 637 KB workbook took 6.5 GB. The
// reader here opens workbook.xml (sheets in order, names, hidden state, the
// 1904 date system) and its relationships, loads sharedStrings.xml into one
// byte arena with an offset per entry, reads from styles.xml which cell
// formats show dates, and streams each sheet's XML row by row.
//
// The XML is read by a small purpose-built scanner (xmlscan.go) rather than
// encoding/xml, whose Decoder buffers a whole run of character data (a
// gigabyte of whitespace is a gigabyte of memory), allocates per token, and
// was several times slower than a bare excelize read, which the reader must
// stay within 1.5x of. The scanner's memory is bounded by design: one 64 KiB
// window, tags of at most 1 MiB, text copied only where a cell or shared
// string is read and only up to its cap; everything else is skipped as it
// streams past. Each input byte is looked at a bounded number of times, so
// time is linear in the size of the XML. It handles what spreadsheet
// programs write: namespace prefixes (<x:row>), the predefined entities and
// character references, CDATA, comments, self-closing tags, inline strings
// and rich text runs (phonetic runs left out), OOXML's _xHHHH_ escapes,
// cells without an r attribute (the next column) and rows without one (the
// next row). Rows are returned in file order, each with its own number,
// even when a crafted file has them out of order. A DOCTYPE is refused.
//
// Limits (limits.go) bound every dimension a crafted file could inflate:
// file size, uncompressed size, zip entries, sheets, shared strings (count
// and bytes), rows, columns, bytes a cell and a row, text a sheet. Each ends
// in a sentence naming the file and sheet and saying what to do.
package readers

import (
	"errors"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// Options override what the reader would otherwise detect.
type Options struct {
	// Delimiter is the CSV field separator; 0 detects it from the header line
	// among ',' ';' and TAB.
	Delimiter rune
	// Encoding is "utf-8" or "windows-1252"; "" detects it.
	Encoding string
	// MaxCellBytes caps one cell, one CSV record and the text of one XLSX
	// row; 0 means DefaultMaxCellBytes. A larger cell is an error naming its
	// position (a row's Problem in XLSX), never an out-of-memory.
	MaxCellBytes int
	// HeaderRow, when above 0, is the spreadsheet row number of the header
	// (--header-row): the rows above it are titles, counted in
	// SheetInfo.TitleRows. An empty or missing row is a *msg.Error with code
	// ErrNoHeader.
	HeaderRow int
	// IsHeader, when set and HeaderRow is not, is asked about the first
	// HeaderProbeRows non-empty rows (their cells as a header would keep
	// them): the first it accepts is the header, so that a title row or
	// merged title cells above the table are skipped. When it accepts none,
	// the first non-empty row is the header, as without it.
	IsHeader func(cells []string) bool
}

// SheetInfo describes one table: a CSV file, or one worksheet of a workbook.
type SheetInfo struct {
	File      string   // the path as given
	Name      string   // worksheet name; empty for CSV
	Header    []string // header cells as typed (BOM and surrounding blanks removed), result.* columns dropped
	HeaderRow int      // spreadsheet row number of the header
	// TitleRows counts the non-empty rows above the header that were
	// skipped as titles (Options.HeaderRow or IsHeader chose a later row).
	TitleRows int
	// RawNumbers is true for XLSX: numeric cells arrive as raw values with '.'
	// as decimal separator and dates as serial numbers. Record.Kinds says
	// the same per cell and will replace it.
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
	// call to Next: copy what you keep (the strings themselves never change).
	Cells []string
	// Kinds are aligned with Cells and say what each cell holds, per
	// package cell's contract (a Number's stored value "4252.5", a Date's
	// serial "46346", a Bool's "1" or "0", Empty exactly when the cell is
	// ""). Kinds is nil when no cell is a Number, Date or Bool: read every
	// cell as Text then (always so for CSV). Reused like Cells.
	Kinds []cell.Kind
	// Prior is where the row came from when the file is an earlier report
	// fed back (its result.row and result.rowId columns); zero otherwise.
	Prior Prior
	// Problem is set when the row itself is malformed (e.g. more cells than
	// the header has columns). The row is still returned so that it appears in
	// the report, marked invalid with this message.
	Problem *msg.Error
}

// Prior identifies a fed-back report row's original: Row is the original
// file's row number (result.row), so that a re-fed errors file keeps
// pointing at the rows the user knows; RowID is a stock row's stable
// identity (result.rowId), which survives the user fixing the row's other
// cells. Row is 0 and RowID "" when the column is absent or the cell blank
// (or, for Row, not a whole number).
type Prior struct {
	Row   int
	RowID string
}

// Codes of a returned *msg.Error (its Code), for errors.Is. Every problem
// the package returns is a *msg.Error positioned at its file, sheet, row
// and column; its Err is the underlying cause, if any.
var (
	ErrUnsupportedFormat = errors.New("unsupported file format")
	ErrEmptyFile         = errors.New("file is empty")
	ErrNoHeader          = errors.New("no header row")
	ErrNotText           = errors.New("not a text file")
	ErrCellTooLarge      = errors.New("cell too large")
	ErrNotXLSX           = errors.New("not a valid xlsx workbook")
	ErrTooLarge          = errors.New("input past a stated limit")
)

// isCode reports whether err is one of the package's codes.
func isCode(err error) bool {
	switch err {
	case ErrUnsupportedFormat, ErrEmptyFile, ErrNoHeader, ErrNotText, ErrCellTooLarge, ErrNotXLSX, ErrTooLarge:
		return true
	}
	return false
}

// errAt is the problem m at pos: err is its code when it is one of the
// package's (Err*), else its underlying cause.
func errAt(pos msg.Position, err error, m msg.Message) *msg.Error {
	e := &msg.Error{Pos: pos, Msg: m}
	if isCode(err) {
		e.Code = err
	} else {
		e.Err = err
	}
	return e
}
