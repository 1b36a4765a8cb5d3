// Package pipeline turns input files into API requests and reports:
// read (readers) → group rows into requests → build and validate each
// request (schema, validation) → submit (journaled, paced) → report
// (writers). It holds every row of a file in a compact store so that rows
// of one sale need not be contiguous, and the report lists every input row
// in input order with its outcome.
package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/cell"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules"
)

// LoadOptions say how to read and interpret input files.
type LoadOptions struct {
	Kind    schema.Kind    // "" detects the kind from each sheet's headers
	Mapping schema.Mapping // a user's own column names
	Reader  readers.Options
	Sep     schema.Sep // decimal separator; SepUnknown detects it per file
	// MaxArticulos is the most articles one stock movement request carries.
	MaxArticulos int
}

// File is one input file read into memory, split into its sheets.
type File struct {
	Path     string
	SHA256   string
	Sheets   []*Sheet
	Warnings []msg.Message // unknown columns, sheets without a kind
	// unchecked counts the warnings at the end of Warnings that
	// uncheckedWarning put there, so that a new check replaces them.
	unchecked int
}

// Sheet is one table of a known kind: a CSV file or one worksheet.
type Sheet struct {
	Info     readers.SheetInfo
	Kind     schema.Kind
	Layout   *schema.Layout
	Sep      schema.Sep // the decimal separator in force for text numbers
	Requests []*Request
	// Movements are a stock sheet's rows packed by movement (nil for the
	// other kinds).
	Movements []*Movement

	maxArticulos int // the most articles one movement request carries
	store        rowStore
	// priorIDs and priorRows are what an earlier nxbatch report fed back as
	// input says of its rows: a stock row's identity (result.rowId) and the
	// original file's row number (result.row), by row index.
	priorIDs  map[int32]string
	priorRows map[int32]int32
	// pending are the sends a run will put on the wire, set by Prepare
	// (prepared).
	pending  []*Send
	prepared bool
	// count is an inventory count's own state (count.go); nil for other
	// sheets.
	count    *countSheet
	problems map[int]*msg.Error // row index → malformed row
	reqOf    []int32            // row index → index into Requests
	// msgs holds the messages of the rows that have any; most rows of a
	// large clean file have none, so a map costs far less than a slice.
	msgs map[int32][]note
	// reqCols and lineCols are the kind's columns present in the header.
	reqCols, lineCols []presentCol
	// resolved holds, by row index, the ids each row's article resolved
	// to, for a sheet by the shop's keys (nil otherwise); articles is the
	// catalog they came from, for the article's name; unchecked are the
	// rows by id that no article catalog checked.
	resolved  []resolvedRow
	articles  *articulos.Index
	unchecked []int32
	keyed     bool // the sheet names articles by the shop's keys (byKeys)
	// sepGiven is true when Sep was given (LoadOptions.Sep), not told by
	// the sheet's amounts.
	sepGiven bool
	// grouper groups a sale or order sheet's rows while it is read; group
	// finishes it.
	grouper *keyGrouper
}

// presentCol is a column of the kind found in the header at idx.
type presentCol struct {
	schema.Column
	idx int
}

// Rows returns the number of data rows in the sheet.
func (s *Sheet) Rows() int { return s.store.len() }

// priorID is the identity an earlier report gave row i, "" if none.
func (s *Sheet) priorID(i int) string { return s.priorIDs[int32(i)] }

// Codes of the *msg.Error values Load returns for a whole file or sheet
// that cannot be used, for errors.Is; they count as configuration errors.
// A reader's problem comes back as the reader returned it (its codes are
// readers.Err*), a header's as ErrHeader wrapping schema's problems (their
// codes schema.ErrMissingColumn, schema.ErrDuplicateColumn...).
var (
	// ErrNoKind is a file or sheet whose header matches no kind.
	ErrNoKind = errors.New("no kind matches the header")
	// ErrHeader is a header that does not fit its kind.
	ErrHeader = errors.New("header does not fit its kind")
	// ErrNoRows is a sheet with a header and no rows.
	ErrNoRows = errors.New("no rows")
)

// fileErr is a problem of a whole file (sheet "") or sheet.
func fileErr(path, sheet string, code error, m msg.Message) *msg.Error {
	return &msg.Error{Pos: msg.Position{File: path, Sheet: sheet}, Code: code, Msg: m}
}

// readErr is a reader's failure on a file or sheet: the reader's own
// positioned error, or err placed at the file or sheet.
func readErr(path, sheet string, err error) error {
	var me *msg.Error
	if errors.As(err, &me) && me.Pos.File != "" {
		return err
	}
	return &msg.Error{Pos: msg.Position{File: path, Sheet: sheet}, Err: err}
}

// Load reads path, matches each sheet's headers to a kind, and groups its
// rows into requests (not yet validated).
func Load(path string, o LoadOptions) (*File, error) {
	if o.MaxArticulos <= 0 {
		o.MaxArticulos = 500
	}
	sum := make(chan string, 1)
	go func() { sum <- hashFile(path) }()

	if o.Reader.IsHeader == nil && o.Reader.HeaderRow == 0 {
		o.Reader.IsHeader = HeaderProbe(o.Kind, o.Mapping)
	}
	rf, err := readers.Open(path, o.Reader)
	if err != nil {
		<-sum
		return nil, readErr(path, "", err)
	}
	defer rf.Close()
	f := &File{Path: path}
	names := rf.Sheets()
	for _, name := range names {
		if len(names) > 1 && schema.IsTemplateSheet(name) {
			// A filled template's own instructions and lists are not data.
			continue
		}
		sh, skip, err := loadSheet(rf, path, name, o)
		if err != nil {
			if len(names) > 1 && errors.Is(err, readers.ErrNoHeader) {
				f.Warnings = append(f.Warnings, msg.New("load.emptysheet", name))
				continue
			}
			<-sum
			return nil, err
		}
		if sh == nil {
			if skip != nil {
				f.Warnings = append(f.Warnings, *skip)
			}
			continue
		}
		if sh.Info.TitleRows > 0 {
			f.Warnings = append(f.Warnings, msg.Count("load.titlerows", sh.Info.TitleRows, msg.FileArg{File: path, Sheet: name}, sh.Info.HeaderRow))
		}
		if n := len(sh.Layout.Unknown); n > 0 {
			f.Warnings = append(f.Warnings, unknownColumns(msg.FileArg{File: path, Sheet: name}, sh.Layout.Unknown))
		}
		sh.maxArticulos = o.MaxArticulos
		group(sh)
		f.Sheets = append(f.Sheets, sh)
	}
	f.SHA256 = <-sum
	if len(f.Sheets) == 0 {
		return nil, fileErr(path, "", ErrNoKind, msg.New("load.nokind"))
	}
	return f, nil
}

// kindOfFile is the kind a file's name picks: one of the dot-separated
// parts of its name (a report's NAME.result.csv, NAME.SHEET.errors-2.csv,
// "NAME (a).result.csv") names it, and no other part names another.
func kindOfFile(path string) (schema.Kind, bool) {
	var found schema.Kind
	for part := range strings.SplitSeq(filepath.Base(path), ".") {
		part = strings.TrimSpace(part)
		if i := strings.LastIndex(part, " ("); i > 0 && strings.HasSuffix(part, ")") {
			part = part[:i]
		}
		k, ok := schema.KindOfName(part)
		switch {
		case !ok:
		case found != "" && found != k:
			return "", false
		default:
			found = k
		}
	}
	return found, found != ""
}

// sameKey reports whether a header detected as kind detected may be of
// kind named: an order's header is a sale's, a cancellation's has a
// presale's key.
func sameKey(named, detected schema.Kind) bool {
	return named.KeyColumn() == detected.KeyColumn()
}

func loadSheet(rf *readers.File, path, name string, o LoadOptions) (*Sheet, *msg.Message, error) {
	sr, err := rf.Sheet(name)
	if err != nil {
		return nil, nil, readErr(path, name, err)
	}
	defer sr.Close()
	info := sr.Info()
	// A report neutralises its header like its cells; read it back as typed
	// so that kind detection and a mapping find the user's own names.
	for i, h := range info.Header {
		info.Header[i] = cell.Unneutralize(h)
	}
	kind := o.Kind
	if kind == "" {
		// Orders and cancellations share their key columns with sales and
		// invoicings: the sheet's name picks them.
		if k, ok := schema.KindOfName(name); ok {
			kind = k
		}
	}
	if kind == "" {
		k, ok := schema.DetectKind(info.Header, o.Mapping)
		if ok {
			// Or the file's name, its reports' included (pedidos.errors.csv,
			// libro.pedidos.result.csv): never may an order go as a sale.
			if byName, named := kindOfFile(path); named && sameKey(byName, k) {
				k = byName
			}
		}
		if !ok {
			if name != "" && len(rf.Sheets()) > 1 {
				if rf.Hidden(name) || schema.IsTemplateSheet(name) || isReportSummary(name, info.Header) {
					// A hidden sheet of lists, a template's own
					// instructions, or the summary sheet of a report fed
					// back as input, is not data.
					return nil, nil, nil
				}
				m := msg.New("load.sheetnokind", name)
				return nil, &m, nil
			}
			return nil, nil, fileErr(path, name, ErrNoKind, msg.New("load.nokind"))
		}
		kind = k
	}
	lay, herrs := schema.Match(kind, info.Header, o.Mapping)
	if len(herrs) > 0 {
		ms := make([]msg.Message, len(herrs))
		causes := make([]error, len(herrs))
		for i, he := range herrs {
			he.Pos.File, he.Pos.Sheet = path, name
			ms[i], causes[i] = he.Msg, he
		}
		fe := fileErr(path, name, ErrHeader, msg.Join(ms...))
		fe.Err = errors.Join(causes...)
		return nil, nil, fe
	}
	sh := &Sheet{Info: info, Kind: kind, Layout: lay, problems: map[int]*msg.Error{}, msgs: map[int32][]note{}}
	for _, c := range lay.Columns() {
		i := lay.Col(c.Path)
		switch {
		case i < 0 || c.Path == schema.Movimiento:
		case c.Level == schema.LineLevel:
			sh.lineCols = append(sh.lineCols, presentCol{c, i})
		default:
			sh.reqCols = append(sh.reqCols, presentCol{c, i})
		}
	}
	var det schema.SepDetector
	numCols := numberColumns(lay)
	ncol := len(info.Header)
	if kind == schema.Venta || kind == schema.Pedido {
		// Each row is grouped as it is stored: this goroutine waits on the
		// reading one, which parses the file, so grouping costs no time
		// of its own.
		sh.grouper = newKeyGrouper(sh, sendrules.KeyColumn(string(kind)))
	}
	// det is the reading goroutine's until batches is closed.
	batches, recycle, stop := readAhead(sr, func(rec *readers.Record) { fitRecord(rec, ncol, numCols, &det) })
	defer stop()
	for b := range batches {
		if b.err != nil {
			return nil, nil, readErr(path, name, b.err)
		}
		for _, rec := range b.recs {
			sh.keep(rec)
			if sh.grouper != nil {
				sh.grouper.add(sh.store.len() - 1)
			}
		}
		recycle(b)
	}
	if sh.store.len() == 0 {
		return nil, nil, fileErr(path, name, ErrNoRows, msg.New("load.norows"))
	}
	sh.Sep, sh.sepGiven = o.Sep, o.Sep != schema.SepUnknown
	if sh.Sep == schema.SepUnknown {
		sh.Sep = det.Result()
	}
	return sh, nil, nil
}

// isReportSummary reports whether a sheet is the summary sheet nxbatch
// writes into a result or errors workbook (in either language): its name
// and its title in the first cell.
func isReportSummary(name string, header []string) bool {
	if len(header) == 0 {
		return false
	}
	for _, l := range []msg.Lang{msg.ES, msg.EN} {
		if name == msg.New("rep.sheet.summary").In(l) && strings.TrimSpace(header[0]) == msg.New("rep.sum.title").In(l) {
			return true
		}
	}
	return false
}

// fitRecord fits one record's cells to the header, reads them back from a
// report's neutralised form and gives det what they tell of the decimal
// separator. It runs on the reading goroutine (readAhead), which shares
// the work of a row with the one that stores it (keep).
func fitRecord(rec *readers.Record, ncol int, numCols []int, det *schema.SepDetector) {
	cells, kinds := rec.Cells, rec.Kinds
	if len(cells) != ncol {
		cells = fitCells(cells, ncol)
	}
	if kinds != nil && len(kinds) != ncol {
		kinds = fitKinds(kinds, ncol)
	}
	for i, c := range cells {
		if kinds != nil && kinds[i] != cell.Text {
			continue // a stored number or date is never a neutralised text
		}
		if u := cell.Unneutralize(c); len(u) != len(c) {
			cells[i] = u
		}
	}
	for _, ci := range numCols {
		// Only what the user typed tells the file's decimal separator.
		if c := cells[ci]; c != "" && (kinds == nil || kinds[ci] == cell.Text) {
			det.Add(c)
		}
	}
	rec.Cells, rec.Kinds = cells, kinds
}

// keep stores one record of the sheet, fitted by fitRecord: its cells,
// and its problem and prior identity if any.
func (sh *Sheet) keep(rec readers.Record) {
	cells, kinds := rec.Cells, rec.Kinds
	if rec.Problem != nil {
		sh.problems[sh.store.len()] = rec.Problem
	}
	if rec.Prior.RowID != "" || rec.Prior.Row > 0 {
		sh.remember(sh.store.len(), rec.Prior)
	}
	sh.store.add(rec.Row, cells, kinds)
}

// recordBatch is a run of records read ahead, their cells copied out of
// the reader's reused slices into one backing array; err ends the sheet.
type recordBatch struct {
	recs  []readers.Record
	cells []string
	kinds []cell.Kind
	err   error
}

// readAheadRows is how many records a batch holds.
const readAheadRows = 512

// readAhead reads the sheet's records on a goroutine of its own, so that
// parsing the file and storing its rows use two cores: a batch at a time,
// a few batches ahead. A batch the consumer is done with goes back through
// recycle, so that reading costs the batches in flight, not the file's
// size. fit runs on each record on the reading goroutine, before the
// record is handed over. stop ends the reading early (the consumer failed)
// and waits for it, so that the sheet may be closed after it.
func readAhead(sr *readers.SheetReader, fit func(*readers.Record)) (batches <-chan recordBatch, recycle func(recordBatch), stop func()) {
	out := make(chan recordBatch, 4)
	free := make(chan recordBatch, 6)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer close(out)
		send := func(b recordBatch) bool {
			select {
			case out <- b:
				return true
			case <-done:
				return false
			}
		}
		var b recordBatch
		started := false
		for {
			rec, err := sr.Next()
			if err != nil {
				if err != io.EOF {
					b.err = err
				}
				if len(b.recs) > 0 || b.err != nil {
					send(b)
				}
				return
			}
			if !started {
				select {
				case b = <-free:
				default:
					b = recordBatch{recs: make([]readers.Record, 0, readAheadRows),
						cells: make([]string, 0, readAheadRows*len(rec.Cells))}
				}
				started = true
			}
			// The strings never change (the readers' contract); only the
			// slices holding them are reused.
			at := len(b.cells)
			b.cells = append(b.cells, rec.Cells...)
			rec.Cells = b.cells[at:len(b.cells):len(b.cells)]
			if rec.Kinds != nil {
				at := len(b.kinds)
				b.kinds = append(b.kinds, rec.Kinds...)
				rec.Kinds = b.kinds[at:len(b.kinds):len(b.kinds)]
			}
			b.recs = append(b.recs, rec)
			// Fitted where it is kept: &rec would put every record on
			// the heap.
			fit(&b.recs[len(b.recs)-1])
			if len(b.recs) == readAheadRows {
				if !send(b) {
					return
				}
				b, started = recordBatch{}, false
			}
		}
	}()
	recycle = func(b recordBatch) {
		clear(b.recs) // let go of the rows' problems
		b.recs, b.cells, b.kinds = b.recs[:0], b.cells[:0], b.kinds[:0]
		select {
		case free <- b:
		default:
		}
	}
	var once sync.Once
	stop = func() {
		once.Do(func() { close(done) })
		<-finished
	}
	return out, recycle, stop
}

// HeaderProbe tells the header row from the title rows above it: the
// first row that identifies a kind (or, with --kind, that has every
// column the kind requires). It is Load's readers.Options.IsHeader when
// no header row is given, and the page's, so that both see one header.
func HeaderProbe(k schema.Kind, m schema.Mapping) func([]string) bool {
	return func(cells []string) bool {
		h := make([]string, len(cells))
		for i, c := range cells {
			h[i] = cell.Unneutralize(c)
		}
		if k == "" {
			// The kind is this row's own: assigning to k would make the
			// first sheet's kind every later sheet's.
			k, ok := schema.DetectKind(h, m)
			if !ok {
				return false
			}
			// A line of text that happens to name the key column (a
			// column list in a sheet of notes) is not a header: a header
			// names at least one other column of its kind.
			lay, _ := schema.Match(k, h, m)
			return lay != nil && len(lay.Index) >= 2
		}
		_, errs := schema.Match(k, h, m)
		return len(errs) == 0
	}
}

// fitKinds pads or trims a record's kinds to the header's width, as
// fitCells its cells.
func fitKinds(kinds []cell.Kind, n int) []cell.Kind {
	if len(kinds) > n {
		return kinds[:n]
	}
	out := make([]cell.Kind, n)
	copy(out, kinds)
	for i := len(kinds); i < n; i++ {
		out[i] = cell.Empty
	}
	return out
}

// remember keeps what an earlier report fed back says of row i: its
// original row number and, for a stock row, its identity.
func (s *Sheet) remember(i int, p readers.Prior) {
	if s.priorIDs == nil {
		s.priorIDs, s.priorRows = map[int32]string{}, map[int32]int32{}
	}
	if p.RowID != "" {
		s.priorIDs[int32(i)] = cell.Unneutralize(p.RowID)
	}
	if p.Row > 0 {
		s.priorRows[int32(i)] = int32(p.Row)
	}
}

// fitCells pads or trims a record to the header's width; a longer record
// already carries a reader Problem.
func fitCells(cells []string, n int) []string {
	if len(cells) > n {
		return cells[:n]
	}
	for len(cells) < n {
		cells = append(cells, "")
	}
	return cells
}

// numberColumns lists the header indexes of the layout's number columns,
// the only ones whose text tells the decimal separator.
func numberColumns(lay *schema.Layout) []int {
	var out []int
	for _, c := range lay.Columns() {
		if c.Type == schema.Number {
			if i := lay.Col(c.Path); i >= 0 {
				out = append(out, i)
			}
		}
	}
	return out
}

func hashFile(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

func sheetLabel(path, sheet string) string {
	if sheet == "" {
		return path
	}
	return fmt.Sprintf("%s [%s]", path, sheet)
}

func joinQuoted(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("«")
		b.WriteString(it)
		b.WriteString("»")
	}
	return b.String()
}

// maxNamed is how many unknown columns a warning names; the rest are
// counted, so that a header of 150,000 stray columns is one short line.
const maxNamed = 10

// unknownColumns is the warning that lists columns filling no field.
func unknownColumns(where msg.FileArg, cols []string) msg.Message {
	if len(cols) <= maxNamed {
		return msg.New("load.unknowncols", where, joinQuoted(cols))
	}
	return msg.New("load.unknowncols.more", where, joinQuoted(cols[:maxNamed]), len(cols)-maxNamed)
}
