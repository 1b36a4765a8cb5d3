// Package writers writes nxbatch's reports: NAME.result.csv (every input row
// with its outcome), NAME.errors.csv (only the rows that need attention,
// ready to be fixed and fed back), NAME.result.xlsx (the same with colours,
// frozen header, autofilter and a summary sheet) and NAME.summary.json (for
// cron jobs and audits).
//
// Rows arrive through an iterator so that a report of a million rows never
// exists in memory as a slice. Every report is written atomically: a reader
// sees either the previous file or the complete new one.
//
// Every cell that a spreadsheet would run as a formula is neutralised (see
// Neutralize); Unneutralize is the exact inverse, applied on input so that a
// neutralised errors file can be fed back as it is.
package writers

import (
	"iter"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// Tone is how a report row is coloured: what its outcome asks of the
// reader. The pipeline decides it from the row's status.
type Tone int

// The tones of a row.
const (
	ToneNone    Tone = iota // no fill
	ToneDone                // green: sent and accepted, or already sent
	ToneReady               // light green: valid, would be sent
	ToneFix                 // red: must be fixed
	ToneCheck               // orange: the outcome must be checked in the ERP
	ToneWaiting             // grey: not sent yet
)

// ResultColumns are the columns a sales or invoicing report appends after
// the input's own. Readers drop result.* columns on input (but result.row
// and result.rowId, which they pass on), which keeps an errors file
// re-feedable.
var ResultColumns = []string{
	"result.status", "result.message", "result.row", "result.request",
	"result.facturaId", "result.numero", "result.pvNumero",
}

// numericResults are the result columns whose values are numbers (a row
// number, an id the API returned): the XLSX report writes them as numbers
// when Excel can hold them exactly.
var numericResults = map[string]bool{
	"result.row": true, "result.facturaId": true, "result.numero": true, "result.pvNumero": true,
	"result.movimientoId": true, "result.articuloId": true, "result.talleId": true, "result.colorId": true,
}

// messageColumn is the result column that may be wider than the others.
const messageColumn = "result.message"

// Row is one input row with its outcome.
type Row struct {
	// Cells is aligned with Table.Header. The iterator may reuse the slice
	// for the next row.
	Cells []string
	// Kinds is aligned with Cells: what each cell holds (see package cell);
	// nil when every cell is text. The iterator may reuse it.
	Kinds []cell.Kind
	Tone  Tone
	// Result holds the values of Table's result columns, in order, already
	// rendered in the report language; "" for none. The iterator may reuse
	// the slice for the next row, as Cells.
	Result []string
	// SourceRow is the spreadsheet row, to name it in a write error.
	SourceRow int
}

// Table is one input sheet's report.
type Table struct {
	Sheet  string   // input sheet name; "" for CSV input
	Header []string // the input's own header cells
	// Result names the result.* columns appended after the input's own;
	// nil means ResultColumns.
	Result []string
	Rows   iter.Seq[Row]
	// Spans, when set, gives the same rows as Rows by spans of their
	// source positions, so that the CSV report makes its rows on every
	// core, each goroutine formatting the rows it makes (the XLSX report
	// takes Rows). nil: the CSV report takes Rows too.
	Spans *Spans
	// Comma is the CSV reports' field separator; 0 means ';', the list
	// separator Excel uses in Argentine (Spanish) locale, so a double click
	// opens the report in columns. The pipeline may pass the input's own.
	Comma rune
	// Date1904 is the input workbook's date system, for its Date cells.
	Date1904 bool
	// Lang is the language of the words a report writes for a boolean
	// cell (VERDADERO/FALSO) and, in the XLSX report, for a row's status.
	Lang msg.Lang
	// Amounts are the indexes of the input columns that hold amounts: the
	// XLSX report shows their numbers #,##0.00 (1.234,50 in Spanish).
	Amounts []int
}

// resultColumns names t's result columns.
func (t Table) resultColumns() []string {
	if t.Result == nil {
		return ResultColumns
	}
	return t.Result
}

// resultCells returns r's result cells, n of them, appended to dst.
func resultCells(dst []string, r Row, n int) []string {
	for i := range n {
		v := ""
		if i < len(r.Result) {
			v = r.Result[i]
		}
		dst = append(dst, v)
	}
	return dst
}

// Spans gives a table's rows by spans of source positions: the rows of
// positions [from, to) are those Rows yields between them (a table of the
// rows that need attention skips the others), so the spans of 0..N, one
// after another, are every row Rows yields, in its order.
type Spans struct {
	// N is the number of source positions.
	N int
	// New returns a producer for one goroutine, with its own buffers and
	// caches: several producers run at once, one never does. A producer
	// calls emit with each row of positions [from, to), in order; the
	// Row's slices may be reused once emit returns.
	New func() func(from, to int, emit func(Row))
}
