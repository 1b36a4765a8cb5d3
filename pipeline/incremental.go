package pipeline

import (
	"encoding/binary"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
)

// A fix in the page changes a few cells of a file of perhaps 100,000 rows.
// Reading the file again and validating every request costs most of a
// second; WithCells instead builds the next state from the last one,
// validating again only the requests whose rows changed and those a rule
// across rows ties to them:
//
//   - a sale's or an order's rows are grouped by ordenId: a change of that
//     column regroups the sheet (cheap), and every request whose rows,
//     key or first row changed is validated again;
//   - a presale's or a cancellation's facturaId must not repeat an earlier
//     row's: a change of that column works the repeats out again over the
//     sheet, and every request whose repeat changed is validated again;
//   - the decimal separator is told by the file's amounts: a change of an
//     amount works it out again over the sheet, and when it changes every
//     request of the sheet is validated again;
//   - a stock sheet's rows get identities from their movement, variant and
//     occurrence, are packed into movements and checked per movement, and
//     a count's repeated variants are errors: a stock sheet is grouped and
//     validated again whole (from memory, without reading the file);
//   - the file's warning of rows whose articles no catalog checked is
//     worked out again from every sheet.
//
// The result is what Load and Validate give for the file with those cells
// changed (the page's tests compare both after random fixes).

// CellEdit is one cell to set: row Row (an index into the sheet's rows)
// of column Col (an index into Info.Header) takes Value, as text.
type CellEdit struct {
	Row, Col int
	Value    string
}

// WithCells returns the state of f, validated against cat (the catalog f's
// last validation used, preview only: no bodies are kept), with the edits
// applied to sheet si: what Load and Validate give for the file with those
// cells set to text, when the file was written as CSV by the page (one
// line a row). f itself is not changed: pages may read it meanwhile.
//
// ok is false, and nothing is returned, when the change is one only a new
// reading of the file can tell: a value or a former value with a line end
// (the rows after it move), one a CSV reader would read back otherwise,
// a row left blank (the reader skips it), or a file already prepared for
// a send.
func (f *File) WithCells(si int, edits []CellEdit, cat *validation.Catalog) (*File, bool) {
	if si < 0 || si >= len(f.Sheets) || len(edits) == 0 {
		return nil, false
	}
	sh := f.Sheets[si]
	if sh.prepared || sh.reqOf == nil {
		return nil, false
	}
	width := len(sh.Info.Header)
	for _, e := range edits {
		if e.Row < 0 || e.Row >= sh.store.len() || e.Col < 0 || e.Col >= width {
			return nil, false
		}
		if !plainValue(e.Value) || !plainValue(sh.store.text(e.Row, e.Col)) {
			return nil, false
		}
	}
	ns, ok := sh.withCells(edits, cat)
	if !ok {
		return nil, false
	}
	nf := *f // what else the file carries, as it is
	nf.Sheets, nf.Warnings = slices.Clone(f.Sheets), slices.Clone(f.Warnings)
	nf.Sheets[si] = ns
	nf.uncheckedWarning()
	return &nf, true
}

// plainValue reports whether text is read back from a CSV line as it is
// written: no line end (which would also move the line numbers of every
// row after it), no NUL, valid UTF-8 (the reader would take the file for
// Latin-1), and neutralised and read back to itself.
func plainValue(s string) bool {
	return !strings.ContainsAny(s, "\r\n\x00") && utf8.ValidString(s) && cell.Unneutralize(cell.Neutralize(s)) == s
}

// wholeFrom is the share of a sheet's rows (one in wholeFrom) above which
// a change validates the whole sheet again, from memory: a replacement
// over thousands of rows touches most requests anyway, and the whole
// validation splits them across cores.
const wholeFrom = 8

// withCells is WithCells for one sheet: a new sheet sharing what did not
// change with sh.
func (sh *Sheet) withCells(edits []CellEdit, cat *validation.Catalog) (*Sheet, bool) {
	// By row, each row's edits in the order given (a later one wins).
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b CellEdit) int { return a.Row - b.Row })
	width := len(sh.Info.Header)
	ns := &Sheet{Info: sh.Info, Kind: sh.Kind, Layout: sh.Layout, Sep: sh.Sep, sepGiven: sh.sepGiven,
		maxArticulos: sh.maxArticulos, priorIDs: sh.priorIDs, priorRows: sh.priorRows, problems: sh.problems,
		reqCols: sh.reqCols, lineCols: sh.lineCols}
	// The rows changed are written again in new arena chunks of their own;
	// every other row stays where it is, shared.
	ns.store.chunks = slices.Clip(sh.store.chunks)
	// The blocks of references are shared too; a block is copied the first
	// time one of its rows is written again.
	ns.store.refs = slices.Clone(sh.store.refs)
	ns.store.n = sh.store.n
	copied := map[int]bool{}
	var chunk []byte
	var cells []string
	var kinds []cell.Kind
	var rows []int
	for k := 0; k < len(edits); {
		row := edits[k].Row
		cells, kinds = sh.store.cellsKinds(row, width, cells, kinds)
		for ; k < len(edits) && edits[k].Row == row; k++ {
			cells[edits[k].Col], kinds[edits[k].Col] = edits[k].Value, cell.Text
		}
		need := 0
		blank := true
		for _, c := range cells {
			need += binary.MaxVarintLen64 + len(c)
			if blank && strings.TrimSpace(c) != "" {
				blank = false
			}
		}
		if blank {
			return nil, false // the reader skips a blank row: the rows after it move
		}
		if cap(chunk)-len(chunk) < need {
			if chunk != nil {
				ns.store.chunks = append(ns.store.chunks, chunk)
			}
			chunk = make([]byte, 0, max(need, min(chunkSize, need*(len(edits)-k+1))))
		}
		if b := row >> refBits; !copied[b] {
			ns.store.refs[b] = slices.Clone(ns.store.refs[b])
			copied[b] = true
		}
		ns.store.refs[row>>refBits][row&(refBlock-1)] = rowRef{chunk: uint32(len(ns.store.chunks)), off: uint32(len(chunk)), row: sh.store.ref(row).row}
		for i, c := range cells {
			kind := kinds[i]
			if c == "" {
				kind = cell.Text
			}
			chunk = binary.AppendUvarint(chunk, uint64(len(c))<<kindBits|uint64(kind))
			chunk = append(chunk, c...)
		}
		rows = append(rows, row)
	}
	ns.store.chunks = append(ns.store.chunks, chunk)
	ns.store.rewritten = sh.store.rewritten + len(chunk)
	if ns.store.rewritten > ns.store.size()/2 {
		// Rows written again leave their former bytes behind: past half
		// the arena, the rows are laid out anew.
		ns.store = ns.store.compact(width)
	}

	cols := map[int]bool{}
	for _, e := range edits {
		cols[e.Col] = true
	}
	// The decimal separator, when the file's amounts tell it: an amount
	// changed may tell it otherwise.
	if !ns.sepGiven {
		for _, ci := range numberColumns(ns.Layout) {
			if cols[ci] {
				ns.Sep = ns.detectSep()
				break
			}
		}
	}
	if ns.Kind == schema.Stock || ns.Sep != sh.Sep || len(rows)*wholeFrom > ns.store.len() {
		// Everything is checked again, from memory.
		ns.msgs = map[int32][]note{}
		group(ns)
		ns.validate(cat, false)
		return ns, true
	}
	changed := make(map[int]bool, len(rows))
	for _, row := range rows {
		changed[row] = true
	}
	ns.incremental(sh, changed, cols, cat)
	return ns, true
}

// size is the bytes the store's chunks hold.
func (s *rowStore) size() int {
	n := 0
	for _, c := range s.chunks {
		n += len(c)
	}
	return n
}

// compact is the store with every row (of width cells) written again in
// order into new chunks: what the rows written again left behind is let go.
func (s *rowStore) compact(width int) rowStore {
	var out rowStore
	var cells []string
	var kinds []cell.Kind
	for i := range s.n {
		cells, kinds = s.cellsKinds(i, width, cells, kinds)
		out.add(int(s.ref(i).row), cells, kinds)
	}
	return out
}

// detectSep works out the decimal separator from the sheet's amounts, as
// loadSheet does while it reads them.
func (sh *Sheet) detectSep() schema.Sep {
	var det schema.SepDetector
	numCols := numberColumns(sh.Layout)
	for i := range sh.store.len() {
		for _, ci := range numCols {
			if c, k := sh.store.cell(i, ci); c != "" && k == cell.Text {
				det.Add(c)
			}
		}
	}
	return det.Result()
}

// incremental groups and validates ns, whose store is old's with the rows
// changed changed in the columns cols, from old's state: only the
// requests whose rows changed, or whose place in a rule across rows did,
// are checked again.
func (ns *Sheet) incremental(old *Sheet, changed map[int]bool, cols map[int]bool, cat *validation.Catalog) {
	keyCol := ns.Layout.Col(sendrules.KeyColumn(string(ns.Kind)))
	redo := map[*Request]bool{}
	switch {
	case cols[keyCol] && (ns.Kind == schema.Venta || ns.Kind == schema.Pedido):
		// The rows are grouped again; a request the same rows make under
		// the same key keeps its outcome.
		group(ns)
		for ri, r := range ns.Requests {
			or := old.Requests[old.reqOf[r.Rows[0]]]
			same := or.Key == r.Key && or.firstRow == r.firstRow && slices.Equal(or.Rows, r.Rows)
			for _, row := range r.Rows {
				if !same {
					break
				}
				if changed[int(row)] {
					same = false
				}
			}
			if same {
				ns.Requests[ri] = or // never changed once validated: shared
				continue
			}
			redo[r] = true
		}
	default:
		ns.Requests = slices.Clone(old.Requests)
		ns.reqOf = old.reqOf
		for row := range changed {
			ri := old.reqOf[row]
			if r := ns.Requests[ri]; !redo[r] {
				c := *r
				c.res = nil
				ns.Requests[ri] = &c
				redo[&c] = true
			}
		}
		if (ns.Kind == schema.Facturar || ns.Kind == schema.Cancelar) && cols[keyCol] {
			for row := range changed {
				r := ns.Requests[ns.reqOf[row]]
				r.Key = keyText(ns.store.cell(row, keyCol))
			}
		}
	}
	var dups map[*Request]int32
	if ns.Kind == schema.Facturar || ns.Kind == schema.Cancelar {
		dups = ns.repeatedKeys()
		if cols[keyCol] {
			// A request whose repeat changed (it repeats now, no longer,
			// or another first row) is checked again.
			was := old.repeatedKeys()
			for ri, r := range ns.Requests {
				or := old.Requests[ri]
				f, dup := dups[r]
				of, odup := was[or]
				if dup != odup || f != of {
					if !redo[r] {
						c := *r
						c.res = nil
						ns.Requests[ri] = &c
						redo[&c] = true
						if dup {
							delete(dups, r)
							dups[&c] = f
						}
					}
				}
			}
		}
	}
	// What the requests checked again said is dropped; what the others
	// said stays.
	ns.msgs = maps.Clone(old.msgs)
	ns.articles = old.articles
	if cat != nil {
		ns.articles = cat.Articulos
	}
	ns.keyed = old.keyed
	if old.resolved != nil {
		ns.resolved = slices.Clone(old.resolved)
	}
	redoRows := map[int32]bool{}
	for r := range redo {
		for _, row := range r.Rows {
			redoRows[row] = true
			delete(ns.msgs, row)
			if ns.resolved != nil {
				ns.resolved[row] = resolvedRow{}
			}
		}
	}
	for _, row := range old.unchecked {
		if !redoRows[row] {
			ns.unchecked = append(ns.unchecked, row)
		}
	}
	b := newBuilder(ns)
	// In the sheet's order, as Validate checks them.
	for _, r := range ns.Requests {
		if !redo[r] {
			continue
		}
		first, dup := dups[r]
		b.check(r, cat, false, first, dup)
	}
	for row, ms := range b.msgs {
		ns.msgs[row] = append(ns.msgs[row], ms...)
	}
	ns.unchecked = append(ns.unchecked, b.unchecked...)
}
