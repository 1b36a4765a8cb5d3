package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/writers"
)

// ReportOptions say where and how reports are written.
type ReportOptions struct {
	Dir     string // "" writes beside the input file
	Lang    msg.Lang
	Command string // "validate" or "run"
	Tool    string // "nxbatch v..."
	Started time.Time
	Now     func() time.Time
	// API names the API and tenant the run spoke to (nil: none).
	API *writers.API
	// NoXLSX skips the XLSX report (large files, cron jobs that read CSV).
	NoXLSX bool
	// Stopped says why the run stopped before sending everything (a
	// refused token, an API that cannot be reached, an interrupt); empty
	// when it did not.
	Stopped msg.Message
	// Name is where the reports go (ReportNames over the run's inputs);
	// zero chooses it for this file alone.
	Name ReportName
	// Say passes every row message through itself before it is written
	// (msg.ForPage for a send of the page: its reports point at the page's
	// controls, not at a flag); nil writes them as the command line says
	// them.
	Say func(msg.Message) msg.Message
}

// ReportPaths are the files a report run wrote.
type ReportPaths struct {
	CSV     []string
	Errors  []string
	XLSX    string
	Summary string
	// Run is the path prefix of this run's own copy of its result and
	// summary in NAME.runs/ ("" when it sent nothing and kept none).
	Run string
}

// sheetFileName makes a sheet name safe inside a file name.
func sheetFileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '\\', ':', '*', '?', '"', '<', '>', '|', 0:
			return '_'
		}
		return r
	}, s)
}

// Table returns the report table of the sheet: every input row in input
// order with its outcome.
func (sh *Sheet) Table(l msg.Lang) writers.Table { return sh.tableSaid(l, nil) }

// tableSaid is Table with every row message passed through say first.
func (sh *Sheet) tableSaid(l msg.Lang, say func(msg.Message) msg.Message) writers.Table {
	return writers.Table{
		Sheet:    sh.Info.Name,
		Header:   sh.Info.Header,
		Result:   sh.resultColumns(),
		Rows:     sh.rowsSaid(l, nil, false, false, say),
		Date1904: sh.Info.Date1904,
		Lang:     l,
	}
}

// XLSXTable is Table for the XLSX report, which people read: the amounts
// and dates of a CSV file, which says nothing of types, are given theirs
// where they parse, so that the workbook's columns sum and sort; amount
// columns are shown as amounts; statuses are words in language l (the CSV
// reports keep the codes, which scripts read).
func (sh *Sheet) XLSXTable(l msg.Lang) writers.Table { return sh.xlsxTableSaid(l, nil) }

// xlsxTableSaid is XLSXTable with every row message passed through say
// first.
func (sh *Sheet) xlsxTableSaid(l msg.Lang, say func(msg.Message) msg.Message) writers.Table {
	t := sh.tableSaid(l, say)
	t.Rows = sh.rowsSaid(l, nil, sh.untyped(), true, say)
	for i, typ := range sh.typeColumns() {
		if typ == schema.Number && isAmount(sh.Layout, i) {
			t.Amounts = append(t.Amounts, i)
		}
	}
	sort.Ints(t.Amounts)
	return t
}

// isAmount reports whether header column i, a number column of the kind,
// holds money (a price, a total) rather than a quantity.
func isAmount(layout *schema.Layout, i int) bool {
	for _, c := range []string{"productos.cantidad", "articulos.cantidad", "articulos.cantidadContada"} {
		if layout.Col(c) == i {
			return false
		}
	}
	return true
}

// untyped reports whether the sheet's file says nothing of types (CSV).
func (sh *Sheet) untyped() bool { return !sh.Info.RawNumbers }

// typeColumns lists, per header index, the type of the kind's column
// there, for the columns whose text promote gives a type.
func (sh *Sheet) typeColumns() map[int]schema.Type {
	out := map[int]schema.Type{}
	for _, c := range sh.Layout.Columns() {
		if c.Type != schema.Number && c.Type != schema.Date {
			continue
		}
		if i := sh.Layout.Col(c.Path); i >= 0 {
			out[i] = c.Type
		}
	}
	return out
}

// promote gives the text cells of amount and date columns the type their
// text parses to (the stored form package cell describes); what does not
// parse, and every other column (identifiers above all), stays text.
func (sh *Sheet) promote(cells []string, kinds []cell.Kind, types map[int]schema.Type) {
	for i, t := range types {
		if i >= len(cells) || kinds[i] != cell.Text || cells[i] == "" {
			continue
		}
		switch t {
		case schema.Number:
			if d, err := schema.ParseNumber(cells[i], sh.Sep, false); err == nil {
				cells[i], kinds[i] = d.String(), cell.Number
			}
		case schema.Date:
			if iso, err := schema.ParseDate(cells[i], false, false); err == nil {
				if d, err := time.Parse("2006-01-02", iso); err == nil {
					if serial, ok := cell.SerialOf(d, sh.Info.Date1904); ok {
						cells[i], kinds[i] = strconv.FormatFloat(serial, 'f', -1, 64), cell.Date
					}
				}
			}
		}
	}
}

// stockResultColumns are the result columns of a stock report: a row's
// identity, which movement request it went in, and the id of the movement
// the API created.
var stockResultColumns = []string{
	"result.status", "result.message", "result.row", "result.rowId", "result.request", "result.movimientoId",
}

// resultColumns names the sheet's result columns, by kind; a sheet that
// names articles by the shop's keys adds what they resolved to.
func (sh *Sheet) resultColumns() []string {
	cols := writers.ResultColumns
	if sh.Kind == schema.Stock {
		cols = stockResultColumns
	}
	if sh.byKeys() {
		cols = append(slices.Clip(cols), articleResultColumns...)
	}
	return cols
}

// sourceRow is the row number result.row shows for row i: the original
// file's, when the row comes from a report fed back, else its own.
func (sh *Sheet) sourceRow(i int) int {
	if len(sh.priorRows) == 0 {
		return sh.store.rowNumber(i) // most files: none fed back
	}
	if r, ok := sh.priorRows[int32(i)]; ok {
		return int(r)
	}
	return sh.store.rowNumber(i)
}

// ErrorsTable is Table with only the rows that need attention, chosen
// before any row is rendered.
func (sh *Sheet) ErrorsTable(l msg.Lang) writers.Table { return sh.ErrorsTableFor(l, nil) }

// ErrorsTableFor is ErrorsTable with every row message passed through say
// first (msg.ForPage: a workbook downloaded from the page points at the
// page, not at a terminal).
func (sh *Sheet) ErrorsTableFor(l msg.Lang, say func(msg.Message) msg.Message) writers.Table {
	t := sh.tableSaid(l, say)
	t.Rows = sh.rowsSaid(l, NeedsAttention, false, false, say)
	return t
}

func (sh *Sheet) rows(l msg.Lang) iter.Seq[writers.Row] { return sh.rowsWhere(l, nil, false, false) }

// label is request ri's label in the maker's language. The labels of the
// requests whose rows are being made stay in a small cache, the maker's
// own: the rows of a request are usually together, or near (a spread
// file's sales 1,000 rows apart), and a label per request kept for the
// whole sheet would cost a one-line-sale file of a million rows tens of
// megabytes.
func (m *rowMaker) label(ri int32) string {
	slot := &m.labels[ri%int32(len(m.labels))]
	if slot.s == "" || slot.ri != ri {
		*slot = labelSlot{ri: ri, s: m.renderLabel(m.sh.Requests[ri])}
	}
	return slot.s
}

// renderLabel is r.Label().In(l). A sale's label, rendered once per row of
// a file of one-line sales, is its template's text around the key, split
// once per maker, written into its arena (no allocation of its own)
// instead of a message and fmt's work.
func (m *rowMaker) renderLabel(r *Request) string {
	if !r.sale || r.Key == "" {
		return r.Label().In(m.l)
	}
	t := &m.saleLabel
	if !t.ok {
		const mark = "\x00"
		s := msg.New("req.venta", mark).In(m.l)
		pre, suf, found := strings.Cut(s, mark)
		*t = labelTemplate{pre: pre, suf: suf, ok: true, usable: found && !strings.Contains(suf, mark)}
	}
	if !t.usable {
		return r.Label().In(m.l)
	}
	return m.arena.concat(t.pre, r.Key, t.suf)
}

// textArena hands out the short texts of report rows (a row number, a
// sale's label) from shared blocks instead of one allocation each: a
// report of a million one-line sales makes two million of them. Bytes are
// only ever appended past what was handed out, and a full block is left
// to the texts that point into it, so a text never changes.
type textArena struct{ buf []byte }

// textBlock is a textArena's block size.
const textBlock = 32 << 10

// room makes room for n more bytes.
func (a *textArena) room(n int) {
	if cap(a.buf)-len(a.buf) < n {
		a.buf = make([]byte, 0, max(textBlock, n))
	}
}

// done returns the text appended since at.
func (a *textArena) done(at int) string {
	if len(a.buf) == at {
		return ""
	}
	return unsafe.String(&a.buf[at], len(a.buf)-at)
}

// itoa is strconv.Itoa(n).
func (a *textArena) itoa(n int) string {
	a.room(20)
	at := len(a.buf)
	a.buf = strconv.AppendInt(a.buf, int64(n), 10)
	return a.done(at)
}

// concat is the texts one after another.
func (a *textArena) concat(texts ...string) string {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	a.room(n)
	at := len(a.buf)
	for _, t := range texts {
		a.buf = append(a.buf, t...)
	}
	return a.done(at)
}

// labelTemplate is a label's template split around its one argument.
type labelTemplate struct {
	pre, suf   string
	ok, usable bool
}

// labelSlot is one entry of a row maker's label cache.
type labelSlot struct {
	ri int32
	s  string
}

// labelCache is how many labels a row maker keeps.
const labelCache = 4096

// rowText is what result.message says of row i: the outcome of sending
// its request, then what the row itself says.
func (sh *Sheet) rowText(i int, out *Result, l msg.Lang, say func(msg.Message) msg.Message) string {
	text := sh.rowMessage(i, l, say)
	if out.Outcome.Key != "" {
		text = strings.TrimSuffix(said(out.Outcome, say).In(l)+"; "+text, "; ")
	}
	return text
}

// rowsWhere yields the report rows of the rows whose status keep accepts
// (nil: every row); promoteText types the amounts and dates of a file
// that has no types (see XLSXTable); words puts the status's word in
// language l where the CSV reports put its code.
func (sh *Sheet) rowsWhere(l msg.Lang, keep func(Status) bool, promoteText, words bool) iter.Seq[writers.Row] {
	return sh.rowsSaid(l, keep, promoteText, words, nil)
}

// rowsSaid is rowsWhere with the row messages passed through say.
func (sh *Sheet) rowsSaid(l msg.Lang, keep func(Status) bool, promoteText, words bool, say func(msg.Message) msg.Message) iter.Seq[writers.Row] {
	return func(yield func(writers.Row) bool) {
		m := sh.newRowMaker(l, keep, promoteText, words, say)
		for i := 0; i < sh.store.len(); i++ {
			if row, ok := m.row(i); ok && !yield(row) {
				return
			}
		}
	}
}

// spansSaid gives the rows rowsSaid yields by spans of row indexes, for
// the CSV writer to make them on every core: each of its goroutines has a
// row maker of its own.
func (sh *Sheet) spansSaid(l msg.Lang, keep func(Status) bool, say func(msg.Message) msg.Message) *writers.Spans {
	return &writers.Spans{
		N: sh.store.len(),
		New: func() func(from, to int, emit func(writers.Row)) {
			m := sh.newRowMaker(l, keep, false, false, say)
			return func(from, to int, emit func(writers.Row)) {
				for i := from; i < to; i++ {
					if row, ok := m.row(i); ok {
						emit(row)
					}
				}
			}
		},
	}
}

// noResult is what a request carries when it was never prepared or sent.
var noResult Result

// rowMaker makes a sheet's report rows. It only reads the sheet; what it
// writes (its buffers, its label cache, the arena its texts come from) is
// its own, so that makers on several goroutines make a report's rows at
// once.
type rowMaker struct {
	sh     *Sheet
	l      msg.Lang
	keep   func(Status) bool
	words  bool
	say    func(msg.Message) msg.Message
	types  map[int]schema.Type // the columns promote types; nil: none
	byKeys bool
	// buf, kbuf and res are the row's cells, kinds and result cells,
	// reused from row to row.
	buf  []string
	kbuf []cell.Kind
	res  []string
	// arena holds the row numbers and sale labels; the labels cached point
	// into its blocks.
	arena     textArena
	labels    []labelSlot
	saleLabel labelTemplate
}

// newRowMaker returns a row maker of the rows whose status keep accepts
// (nil: every row); promoteText types the amounts and dates of a file
// that has no types (see XLSXTable); words puts the status's word in
// language l where the CSV reports put its code.
func (sh *Sheet) newRowMaker(l msg.Lang, keep func(Status) bool, promoteText, words bool, say func(msg.Message) msg.Message) *rowMaker {
	n := len(sh.Info.Header)
	m := &rowMaker{sh: sh, l: l, keep: keep, words: words, say: say, byKeys: sh.byKeys(),
		buf: make([]string, 0, n), kbuf: make([]cell.Kind, 0, n),
		res:    make([]string, 0, len(stockResultColumns)+1+len(articleResultColumns)),
		labels: make([]labelSlot, labelCache)}
	if promoteText {
		m.types = sh.typeColumns()
	}
	return m
}

// row makes row i's report row; false when keep leaves it out. The row's
// slices are reused by the next call.
func (m *rowMaker) row(i int) (writers.Row, bool) {
	sh := m.sh
	ri := sh.reqOf[i]
	r := sh.Requests[ri]
	if m.keep != nil && !m.keep(r.Status) {
		return writers.Row{}, false
	}
	// The outcome of sending comes first, then what the row itself says.
	// (What the request carries is read in place: copied per row, it cost
	// a report more than its row messages.)
	out := r.res
	if out == nil {
		out = &noResult
	}
	text := sh.rowText(i, out, m.l, m.say)
	res := m.res[:0]
	code := r.Status.String()
	if m.words {
		code = r.Status.Word().In(m.l)
	}
	res = append(res, code, text, m.arena.itoa(sh.sourceRow(i)))
	if sh.Kind == schema.Stock {
		res = append(res, r.Key, m.label(ri), idText(out.FacturaID))
	} else {
		res = append(res, m.label(ri), idText(out.FacturaID), idText(out.Numero), idText(out.PVNumero))
	}
	if m.byKeys {
		res = sh.articleResults(res, i)
	}
	m.res = res
	m.buf, m.kbuf = sh.store.cellsKinds(i, len(sh.Info.Header), m.buf, m.kbuf)
	row := writers.Row{
		Cells:     m.buf,
		Kinds:     m.kbuf,
		Tone:      r.Status.Tone(),
		Result:    res,
		SourceRow: sh.store.rowNumber(i),
	}
	if len(m.types) > 0 {
		sh.promote(row.Cells, row.Kinds, m.types)
	}
	return row, true
}

func idText(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// Counts returns rows and requests per status. A stock sheet's requests
// are its movement requests: those this run sent, by outcome, or, before a
// run, those its valid rows make.
func (f *File) Counts() (rows, requests map[Status]int) {
	rows, requests = map[Status]int{}, map[Status]int{}
	// Counted by status in arrays, then into the maps: a map's increment
	// per request cost a file of a million one-line sales tens of
	// milliseconds, after its report was written. A status is in a map
	// once a request has it, even with no rows.
	var nrows, nreqs [256]int
	var hasRows, hasReqs [256]bool
	for _, sh := range f.Sheets {
		stock := sh.Kind == schema.Stock
		for _, r := range sh.Requests {
			nrows[r.Status] += len(r.Rows)
			hasRows[r.Status] = true
			if !stock {
				nreqs[r.Status]++
				hasReqs[r.Status] = true
			}
		}
	}
	for st := range nrows {
		if hasRows[st] {
			rows[Status(st)] = nrows[st]
		}
		if hasReqs[st] {
			requests[Status(st)] = nreqs[st]
		}
	}
	for _, sh := range f.Sheets {
		if sh.Kind != schema.Stock {
			continue
		}
		if !sh.prepared {
			if n := sh.stockRequests(sh.maxArticulos); n > 0 {
				requests[StatusValid] += n
			}
			continue
		}
		for _, sd := range sh.pending {
			requests[sd.Units[0].Status]++
		}
	}
	return rows, requests
}

// counts keys counts by status code, as summary.json writes them.
func counts(m map[Status]int) map[string]int {
	out := make(map[string]int, len(m))
	for st, n := range m {
		out[st.String()] = n
	}
	return out
}

// Summary builds the machine-readable summary of the file.
func (f *File) Summary(o ReportOptions) writers.Summary {
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	fin := now()
	rows, reqs := f.Counts()
	s := writers.Summary{
		File: f.Path, SHA256: f.SHA256, Tool: o.Tool, Command: o.Command, API: o.API,
		Started: o.Started, Finished: fin, Seconds: fin.Sub(o.Started).Seconds(),
		Rows: counts(rows), Requests: counts(reqs),
		Created: []writers.Created{},
	}
	var total nxapi.Decimal
	moved := map[nxapi.TipoStock]nxapi.Decimal{}
	kinds := map[string]bool{}
	for _, sh := range f.Sheets {
		kinds[string(sh.Kind)] = true
		if sh.Kind == schema.Stock {
			s.RequestsPlanned += len(sh.pending)
			if !sh.prepared {
				s.RequestsPlanned += sh.stockRequests(sh.maxArticulos)
			}
		} else {
			s.RequestsPlanned += len(sh.Requests)
		}
		for _, sd := range sh.pending {
			s.RequestsSent += sd.Sent
		}
		// What the API created, with the rows that went into it: one entry
		// per voucher or movement, in input order.
		byID := map[int64]int{}
		for _, r := range sh.Requests {
			if r.Status != StatusOK && r.Status != StatusSkipped {
				continue
			}
			if sh.Kind == schema.Venta && r.Status == StatusOK {
				total += sh.requestTotal(r)
			}
			if sh.Kind == schema.Stock && r.Status == StatusOK {
				if tipo, q, ok := sh.unitsOf(r); ok {
					moved[tipo] += q
				}
			}
			out := r.Result()
			if out.FacturaID == 0 {
				continue
			}
			at, seen := byID[out.FacturaID]
			if !seen {
				label := r.Label()
				if sh.Kind == schema.Stock {
					label = msg.New("req.stockmov", int(r.pack))
				}
				at = len(s.Created)
				byID[out.FacturaID] = at
				s.Created = append(s.Created, writers.Created{Request: label.In(o.Lang), FacturaID: out.FacturaID, Numero: out.Numero, PVNumero: out.PVNumero})
			}
			for _, row := range r.Rows {
				s.Created[at].Rows = writers.AddRow(s.Created[at].Rows, sh.store.rowNumber(int(row)))
			}
		}
	}
	for k := range kinds {
		s.Kinds = append(s.Kinds, k)
	}
	for _, st := range AllStatuses {
		s.Statuses = append(s.Statuses, writers.StatusLine{Code: st.String(), Word: st.Word().In(o.Lang), Meaning: st.Meaning().In(o.Lang),
			Rows: rows[st], Requests: reqs[st], Tone: st.Tone()})
	}
	sort.Strings(s.Kinds)
	if kinds[string(schema.Venta)] {
		s.TotalInvoiced = total.String()
	}
	if kinds[string(schema.Pedido)] || kinds[string(schema.Cancelar)] {
		oc := f.Orders()
		s.Orders = &writers.OrderCounts{Created: oc.Created, Paid: oc.Paid, Cancelled: oc.Cancelled}
	}
	if kinds[string(schema.Stock)] {
		s.UnitsMoved = map[string]string{}
		for tipo, q := range moved {
			s.UnitsMoved[tipo.String()] = q.String()
		}
	}
	if o.Stopped.Key != "" {
		s.Stopped = o.Stopped.In(o.Lang)
	}
	if o.Name.Because.Key != "" {
		s.ReportName = filepath.Base(o.Name.Base)
		s.RenamedBecause = o.Name.Because.In(o.Lang)
	}
	for _, w := range f.Warnings {
		s.Warnings = append(s.Warnings, w.In(o.Lang))
	}
	s.RejectedBefore = f.RejectedBefore()
	return s
}

// unitsOf returns the movement type and the quantity of a stock row that
// was sent (its article line and its movement's head are kept for a run).
func (sh *Sheet) unitsOf(r *Request) (nxapi.TipoStock, nxapi.Decimal, bool) {
	if sh.count != nil {
		return countUnits(r)
	}
	if int(r.pack) < 1 || int(r.pack) > len(sh.Movements) {
		return 0, 0, false
	}
	var line nxapi.StockArticulo
	var head nxapi.StockMovimiento
	mv := sh.Movements[r.pack-1]
	if json.Unmarshal(r.Result().Body, &line) != nil || line.Cantidad == nil || json.Unmarshal(append(append([]byte(nil), mv.head...), '}'), &head) != nil {
		return 0, 0, false
	}
	return head.Tipo, *line.Cantidad, true
}

// requestTotal returns the sale's total as typed in its rows.
func (sh *Sheet) requestTotal(r *Request) nxapi.Decimal {
	b := newBuilder(sh)
	b.reset(r)
	text, kind, ok := b.requestText("total")
	if !ok {
		return 0
	}
	d, err := schema.ParseNumber(text, sh.Sep, kind == cell.Number)
	if err != nil {
		return 0
	}
	return d
}

// WriteReports writes NAME.result.csv, NAME.errors.csv (per sheet for a
// workbook), NAME.result.xlsx and NAME.summary.json.
func (f *File) WriteReports(o ReportOptions) (ReportPaths, error) {
	var p ReportPaths
	if o.Dir != "" {
		if err := os.MkdirAll(o.Dir, 0o700); err != nil {
			return p, fmt.Errorf("create report folder: %w", err)
		}
	}
	rn := o.Name
	if rn.Base == "" {
		rn = ReportNames([]string{f.Path}, o.Dir)[f.Path]
	}
	base := rn.Base
	sheets := make([]string, len(f.Sheets))
	if len(f.Sheets) > 1 {
		names := make([]string, len(f.Sheets))
		for i, sh := range f.Sheets {
			names[i] = sh.Info.Name
		}
		sheets = sheetNames(names)
	}
	var tables []writers.Table
	for i, sh := range f.Sheets {
		res, errs := rn.Prefix(sheets[i])+".result.csv", rn.ErrorsPath(sheets[i])
		// The CSV reports have their rows made on every core (Spans); the
		// workbook's come one after another.
		result := sh.tableSaid(o.Lang, o.Say)
		result.Spans = sh.spansSaid(o.Lang, nil, o.Say)
		if err := writers.WriteCSV(res, result); err != nil {
			return p, err
		}
		tables = append(tables, sh.xlsxTableSaid(o.Lang, o.Say))
		p.CSV = append(p.CSV, res)
		if len(sh.CountAdded()) > 0 {
			// The variants --faltantes-en-cero counted as 0 have no input
			// row: they are listed in a report of their own.
			added := rn.Prefix(sheets[i]) + ".faltantes.csv"
			if err := writers.WriteCSV(added, sh.addedTableSaid(o.Lang, o.Say)); err != nil {
				return p, err
			}
			p.CSV = append(p.CSV, added)
		}
		// No errors file when no row needs attention: a header-only file
		// would send the user looking for rows to fix. One left by an
		// earlier run of the same input is removed, so that it is never
		// taken for this run's.
		if !sh.needsAttention() {
			if errs == f.Path {
				continue // never the input itself
			}
			if err := removeStale(errs); err != nil {
				return p, err
			}
			continue
		}
		errTable := sh.ErrorsTableFor(o.Lang, o.Say)
		errTable.Spans = sh.spansSaid(o.Lang, NeedsAttention, o.Say)
		if err := writers.WriteCSV(errs, errTable); err != nil {
			return p, err
		}
		p.Errors = append(p.Errors, errs)
	}
	sum := f.Summary(o)
	if !o.NoXLSX {
		p.XLSX = base + ".result.xlsx"
	}
	p.Summary = base + ".summary.json"
	kept := append(append([]string(nil), p.CSV...), p.Summary)
	if p.XLSX != "" {
		kept = append(kept, p.XLSX)
	}
	var prefix string
	if keepsRun(o, sum.RequestsSent) {
		suffixes := make([]string, len(kept))
		for i, k := range kept {
			suffixes[i] = strings.TrimPrefix(k, base)
		}
		prefix = runStamp(base, o.Started, suffixes)
		sum.RunReports = filepath.Base(base) + runsSuffix + "/" + filepath.Base(prefix)
	}
	if p.XLSX != "" {
		if err := writers.WriteXLSX(p.XLSX, tables, sum, o.Lang); err != nil {
			return p, err
		}
	}
	if err := writers.WriteSummaryJSON(p.Summary, sum); err != nil {
		return p, err
	}
	if prefix != "" {
		if err := keepRun(base, prefix, kept); err != nil {
			return p, err
		}
		p.Run = prefix
	}
	return p, nil
}

// needsAttention reports whether any row of the sheet goes into its errors
// file.
func (sh *Sheet) needsAttention() bool {
	for _, r := range sh.Requests {
		if NeedsAttention(r.Status) && len(r.Rows) > 0 {
			return true
		}
	}
	return false
}

// removeStale removes the file at path, if there is one: a report of an
// earlier run that this run has no rows for. A symbolic link planted there
// is removed as a link, never followed.
func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove the errors file of an earlier run: %w", err)
	}
	if fi.IsDir() {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the errors file of an earlier run: %w", err)
	}
	return nil
}
