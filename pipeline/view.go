package pipeline

import (
	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// RowView is one row of a sheet as a page shows it: the cells as read, the
// row's outcome and its problems on the cells they are about. A page of a
// 100,000-row preview is built from a few dozen of these, without walking
// the rest of the sheet.
type RowView struct {
	Index int // the row's index in the sheet (0 is the first data row)
	// Row is the spreadsheet row of the file read; SourceRow the original
	// file's (they differ for a report fed back, whose result.row says it).
	Row, SourceRow int
	// Cells are aligned with Info.Header; the strings stay valid as long
	// as the sheet.
	Cells   []string
	Status  Status
	Message string // what result.message says: the outcome, then the row's own problems
	Issues  []CellIssue
	Request string // the request the row is part of, as result.request
	// Key is the request's identity in the journal (ordenId, facturaId, a
	// stock row's identity); PriorID is the identity an earlier report fed
	// back gave the row ("" when none).
	Key, PriorID                string
	FacturaID, Numero, PVNumero int64
}

// RowStatus returns the status of row i, cheaply: a filter over a large
// sheet asks it of every row.
func (sh *Sheet) RowStatus(i int) Status { return sh.Requests[sh.reqOf[i]].Status }

// CellAndKind returns row i's cell in column col (an index into
// Info.Header) and its kind: what the page adds up (the amount to
// invoice) without rendering the row.
func (sh *Sheet) CellAndKind(i, col int) (string, cell.Kind) { return sh.store.cell(i, col) }

// RowView returns row i rendered in language l. It only reads the sheet,
// so pages may call it from several goroutines at once.
func (sh *Sheet) RowView(i int, l msg.Lang) RowView { return sh.RowViewFor(i, l, nil) }

// RowViewFor is RowView with every message of the row passed through say
// first: a page says with it what the command line's wording would send
// to a terminal (msg.ForPage).
func (sh *Sheet) RowViewFor(i int, l msg.Lang, say func(msg.Message) msg.Message) RowView {
	ri := sh.reqOf[i]
	r := sh.Requests[ri]
	out := r.Result()
	return RowView{
		Index: i, Row: sh.store.rowNumber(i), SourceRow: sh.sourceRow(i),
		Cells:  sh.store.cells(i, len(sh.Info.Header), nil),
		Status: r.Status, Message: sh.rowText(i, &out, l, say), Issues: sh.rowIssues(i, l, say),
		Request: r.Label().In(l), Key: r.Key, PriorID: sh.priorID(i),
		FacturaID: out.FacturaID, Numero: out.Numero, PVNumero: out.PVNumero,
	}
}

// CellKinds returns the kinds of row i's cells (aligned with Info.Header,
// as RowView's Cells), into dst (reused): a date cell's text is its serial
// number, which only its kind says.
func (sh *Sheet) CellKinds(i int, dst []cell.Kind) []cell.Kind {
	return sh.store.kinds(i, len(sh.Info.Header), dst)
}

// HasPriorIDs reports whether the sheet came with stock row identities of
// an earlier report (result.rowId), which a copy of the sheet must keep.
func (sh *Sheet) HasPriorIDs() bool { return len(sh.priorIDs) > 0 }

// Cell returns the text of cell col of row i (as RowView's Cells hold it)
// without rendering the row: a page counting the rows that share one
// value asks it of every row of a large sheet.
func (sh *Sheet) Cell(i, col int) string {
	if col < 0 || col >= len(sh.Info.Header) {
		return ""
	}
	return sh.store.text(i, col)
}

// RowCells returns row i's cells and their kinds (into dst and kdst,
// reused), its row in the file read (Row) and in the accountant's original
// (SourceRow), and the identity an earlier report gave it: what a copy of
// the sheet needs, without rendering the row's messages as RowView does
// (a fixed version of a 100,000-row file copies every row).
func (sh *Sheet) RowCells(i int, dst []string, kdst []cell.Kind) (cells []string, kinds []cell.Kind, row, sourceRow int, priorID string) {
	cells, kinds = sh.store.cellsKinds(i, len(sh.Info.Header), dst, kdst)
	return cells, kinds, sh.store.rowNumber(i), sh.sourceRow(i), sh.priorID(i)
}
