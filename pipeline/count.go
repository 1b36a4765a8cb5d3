package pipeline

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// An inventory count (a stock sheet whose Layout.Count is set) goes through
// the stock path up to validation: its rows are grouped into movements and
// given identities like any stock row, and each is checked by
// validation.Count. What it sends is only known once the ERP's stock is
// read: PrepareCounts asks package inventario, which settles every row
// against the journal, reads the stock of the warehouses still to compare,
// and gives each row's line; the rows then travel as stock units, whose
// journaled body is the count and its difference (inventario.Journaled) and
// whose body hash is the count's (inventario.Count.Hash), so the journal's
// unit checks keep a count exactly once.

// countSheet is what a count sheet carries beyond a stock sheet's.
type countSheet struct {
	rows map[*Request]inventario.Count // every row whose line was built
	plan *inventario.Plan              // set by PrepareCounts
	// added are the rows --faltantes-en-cero added, which no input row
	// holds; their Key is the added row's identity.
	added   []*Request
	sources map[*Request]string // journal sources of the added rows
	// lines say, for each row sent, its count, the ERP's stock, the
	// difference and its movement: kept in its outcome once answered.
	lines map[*Request]msg.Message
	// zeroBlocked are the rows (numbers) whose errors kept
	// --faltantes-en-cero from adding anything.
	zeroBlocked []string
}

// CountOptions configure the working out of count sheets.
type CountOptions struct {
	// Stock reads the ERP's current stock (GetDataCurva through the masses
	// window).
	Stock inventario.StockReader
	// Tipos picks INGRESO/EGRESO_STOCK or, with --tipos manual, _MANUAL.
	Tipos inventario.Tipos
	// MissingAsZero is --faltantes-en-cero.
	MissingAsZero bool
}

// stockIssues checks a stock movement, or a count's rows with their
// counted quantities (which buildStock leaves in Cantidad).
func (b *builder) stockIssues(m *nxapi.StockMovimiento, cat *validation.Catalog) []validation.Issue {
	if !b.sh.Layout.Count {
		return validation.Stock(m, cat)
	}
	counted := make([]*nxapi.Decimal, len(m.Articulos))
	for i, a := range m.Articulos {
		counted[i] = a.Cantidad
	}
	return validation.Count(m, counted, cat)
}

// keepCount records the count of unit u, the k-th line of movement m, when
// the sheet is a count and the line names an article and a quantity.
func (sh *Sheet) keepCount(u *Request, m *nxapi.StockMovimiento, k int) {
	if !sh.Layout.Count {
		return
	}
	a := m.Articulos[k]
	if a.ArticuloID <= 0 || a.Cantidad == nil {
		return
	}
	if sh.count == nil {
		sh.count = &countSheet{rows: map[*Request]inventario.Count{}}
	}
	row := u.Rows[0]
	sh.count.rows[u] = inventario.Count{ID: u.Key, Row: sh.store.rowNumber(int(row)), Source: rowSource(sh, row),
		Variant:  inventario.Variant{DepositoID: m.DepositoID, ArticuloID: a.ArticuloID, TalleID: a.TalleID, ColorID: a.ColorID},
		MotivoID: m.MotivoID, Fecha: m.Fecha, Detalle: m.Detalle, Sref: m.Sref, Counted: *a.Cantidad}
}

// repeatedCounts makes invalid every later row of a count that counts a
// variant of a warehouse an earlier row already counted, naming that row.
func (b *builder) repeatedCounts() {
	sh := b.sh
	if sh.count == nil {
		return
	}
	var reqs []*Request
	var counts []inventario.Count
	for _, r := range sh.Requests {
		if c, ok := sh.count.rows[r]; ok {
			reqs = append(reqs, r)
			counts = append(counts, c)
		}
	}
	for later, first := range inventario.Repeated(counts) {
		r := reqs[later]
		r.Status = StatusInvalid
		b.msgs[r.Rows[0]] = appendUnique(b.msgs[r.Rows[0]],
			note{"articulos.articuloId", inventario.RepeatedMessage(counts[later].Variant, counts[first].Row)})
	}
}

// HasCounts reports whether any sheet of files is an inventory count, which
// PrepareCounts must work out before Prepare.
func HasCounts(files []*File) bool {
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.Layout != nil && sh.Layout.Count {
				return true
			}
		}
	}
	return false
}

// PrepareCounts works out every count sheet of files for a run (after
// Validate with keepBodies, before Prepare): the journal settles each valid
// row (done, conflict, unknown), the stock of the warehouses still to
// compare is read through c.Stock, each row's difference becomes its line
// (or nothing, when equal), and the lines are packed into the sheet's
// sends. Nothing is sent nor journaled here. A read that fails returns its
// error and leaves the sheet unprepared: nothing of it is sent.
func PrepareCounts(ctx context.Context, files []*File, j Journal, o SubmitOptions, c CountOptions) error {
	// A variant counted by two sheets of one run would move twice, both
	// differences taken against the same stock: the later is a conflict.
	seen := map[inventario.Variant]string{}
	for _, f := range files {
		for _, sh := range f.Sheets {
			if !sh.Layout.Count || sh.count == nil {
				continue
			}
			if err := sh.prepareCount(ctx, j, o, c, sheetLabel(f.Path, sh.Info.Name), seen); err != nil {
				return err
			}
		}
	}
	return nil
}

func (sh *Sheet) prepareCount(ctx context.Context, j Journal, o SubmitOptions, c CountOptions, label string, seen map[inventario.Variant]string) error {
	var reqs []*Request
	var counts []inventario.Count
	var listed []inventario.Variant // variants of rows not counted
	var unnamed []string            // rows with errors whose variant is unknown
	mine := map[inventario.Variant]bool{}
	for _, r := range sh.Requests {
		cnt, ok := sh.count.rows[r]
		if r.Status != StatusValid {
			if ok {
				listed = append(listed, cnt.Variant)
			} else if r.Status == StatusInvalid {
				unnamed = append(unnamed, strconv.Itoa(sh.store.rowNumber(int(r.Rows[0]))))
			}
			continue
		}
		if !ok {
			continue
		}
		if where, dup := seen[cnt.Variant]; dup && !mine[cnt.Variant] {
			r.Conclude(StatusConflict, msg.New("cnt.duprun", where))
			listed = append(listed, cnt.Variant)
			continue
		}
		seen[cnt.Variant], mine[cnt.Variant] = label, true
		reqs = append(reqs, r)
		counts = append(counts, cnt)
	}
	// A row with an error might be any article: while one is left, no
	// variant is zeroed as missing (the run after it is fixed does it).
	zero := c.MissingAsZero && len(unnamed) == 0
	sh.count.zeroBlocked = nil
	if c.MissingAsZero && !zero {
		sh.count.zeroBlocked = unnamed
	}
	p, err := inventario.Prepare(ctx, j, c.Stock, counts, inventario.Options{Tenant: o.Tenant, Tipos: c.Tipos,
		MissingAsZero: zero, Listed: listed, RetryUnknown: o.RetryUnknown})
	if err != nil {
		return &msg.Error{Msg: msg.New("cnt.read.failed", msg.CauseOf(err)), Err: err}
	}
	sh.count.plan = p
	sh.count.added, sh.count.sources, sh.count.lines = nil, map[*Request]string{}, map[*Request]msg.Message{}
	byLine := make([]*Request, len(p.Lines))
	copy(byLine, reqs)
	for i := len(reqs); i < len(p.Lines); i++ {
		r := &Request{Key: p.Lines[i].ID, Status: StatusValid}
		sh.count.added = append(sh.count.added, r)
		sh.count.sources[r] = p.Lines[i].Source
		byLine[i] = r
	}
	for i := range p.Lines {
		l := &p.Lines[i]
		r := byLine[i]
		why := l.Message(resolveHint)
		switch l.State {
		case inventario.Send:
			r.Status = StatusPending
			r.Record().Outcome = why
			sh.count.lines[r] = why
		case inventario.Equal:
			r.Conclude(StatusSkipped, why)
		case inventario.Done:
			r.Record().FacturaID = l.Entry.FacturaID
			r.Conclude(StatusSkipped, why)
		case inventario.Conflict:
			r.Conclude(StatusConflict, why)
		case inventario.Unknown:
			r.Conclude(StatusUnknown, why)
		}
	}
	sh.pending = sh.pending[:0]
	for _, pr := range p.Requests(sh.maxArticulos) {
		s := &Send{Kind: sh.Kind, Key: pr.Key, Body: pr.Body, BodyHash: pr.BodyHash, Units: make([]*Request, len(pr.Lines))}
		for k, li := range pr.Lines {
			r := byLine[li]
			res := r.Record()
			res.Body, res.BodyHash = []byte(pr.Units[k].Body), pr.Units[k].BodyHash
			r.pack = int32(pr.Movement + 1)
			s.Units[k] = r
		}
		sh.pending = append(sh.pending, s)
	}
	sh.prepared = true
	return nil
}

// prepareCountUnread settles a count sheet PrepareCounts did not work out
// (it was not called, or the sheet has no valid row): nothing of it can be
// sent without the ERP's stock.
func (sh *Sheet) prepareCountUnread() {
	sh.pending = sh.pending[:0]
	for _, r := range sh.Requests {
		if r.Status == StatusValid {
			r.Conclude(StatusPending, msg.New("cnt.notread"))
		}
	}
}

// recordEqual journals, before anything of the run is sent, the count rows
// equal to the ERP's stock, so that a later run never compares them again.
func recordEqual(ctx context.Context, files []*File, j Journal) error {
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.count == nil || sh.count.plan == nil {
				continue
			}
			if err := sh.count.plan.RecordEqual(ctx, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// countOutcome is what a sent row's report says once its movement is
// answered: the outcome, then for a count's row what it was worked out
// from (counted, the ERP's stock, the difference and its movement).
func (sh *Sheet) countOutcome(u *Request, outcome msg.Message) msg.Message {
	if sh.count == nil {
		return outcome
	}
	if line, ok := sh.count.lines[u]; ok {
		return msg.New("cnt.row.outcome", outcome, line)
	}
	return outcome
}

// countUnits returns the movement type and quantity a count row sent,
// from what the journal keeps of it (its body is the count, not a line).
func countUnits(r *Request) (nxapi.TipoStock, nxapi.Decimal, bool) {
	j, ok := inventario.ParseJournaled(string(r.Result().Body))
	if !ok || j.Linea == nil || j.Linea.Cantidad == nil {
		return 0, 0, false
	}
	return j.Tipo, *j.Linea.Cantidad, true
}

// countSource is the journal source of an added count row, which no input
// row holds.
func (sh *Sheet) countSource(r *Request) string {
	if sh.count == nil {
		return ""
	}
	return sh.count.sources[r]
}

// CountPlan is the count sheet's plan once PrepareCounts worked it out:
// every row with the counted quantity, the ERP's, the difference and its
// movement, the added rows, and the reads; nil before.
func (sh *Sheet) CountPlan() *inventario.Plan {
	if sh.count == nil {
		return nil
	}
	return sh.count.plan
}

// CountAdded are the rows --faltantes-en-cero added to the count sheet, in
// the order of CountPlan's lines after the file's, with their statuses.
func (sh *Sheet) CountAdded() []*Request {
	if sh.count == nil {
		return nil
	}
	return sh.count.added
}

// CountSummary is the count sheet's plan head (inventario.Plan.Summary),
// empty before PrepareCounts.
func (sh *Sheet) CountSummary(window time.Duration) []msg.Message {
	p := sh.CountPlan()
	if p == nil {
		return nil
	}
	out := p.Summary(sh.maxArticulos, window)
	if len(sh.count.zeroBlocked) > 0 {
		out = append(out, msg.New("cnt.zero.blocked", strings.Join(sh.count.zeroBlocked, ", ")))
	}
	return out
}

// journalUnitSource is where unit u came from for the journal: its input
// row, or for an added count row, the option that added it.
func journalUnitSource(sh *Sheet, u *Request) string {
	if len(u.Rows) == 0 {
		return sh.countSource(u)
	}
	return rowSource(sh, u.Rows[0])
}

// The submission journal is the one a count is settled against and its
// equal rows recorded in.
var (
	_ inventario.Journal  = Journal(nil)
	_ inventario.Recorder = Journal(nil)
)

// CountWarehouses is how many warehouses the valid rows of the count
// sheets of files name: the most a run's PrepareCounts reads one by one
// (rows the journal already settled need none), for the plan said before
// reading (inventario.ReadPlan).
func CountWarehouses(files []*File) int {
	deps := map[int64]bool{}
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.count == nil {
				continue
			}
			for r, c := range sh.count.rows {
				if r.Status == StatusValid {
					deps[c.DepositoID] = true
				}
			}
		}
	}
	return len(deps)
}

// AddedTable is the rows --faltantes-en-cero added to the count sheet, for
// a report of their own beside the result (they have no row in the input):
// the warehouse and variant, counted as 0, the movement fields of the
// count, and what became of each (its message says the ERP's stock and the
// movement). Its Rows is empty when none was added.
func (sh *Sheet) AddedTable(l msg.Lang) writers.Table { return sh.addedTableSaid(l, nil) }

// addedTableSaid is AddedTable with every message passed through say first.
func (sh *Sheet) addedTableSaid(l msg.Lang, say func(msg.Message) msg.Message) writers.Table {
	t := writers.Table{Lang: l,
		Header: []string{"depositoId", "motivoId", "fecha", "detalle", "articulos.articuloId", "articulos.talleId",
			"articulos.colorId", "articulos.cantidadContada"},
		Result: []string{"result.status", "result.message", "result.rowId"}}
	added := sh.CountAdded()
	p := sh.CountPlan()
	t.Rows = func(yield func(writers.Row) bool) {
		if p == nil || len(added) == 0 {
			return
		}
		first := len(p.Lines) - len(added)
		for i, r := range added {
			c := p.Lines[first+i].Count
			id := func(n int64) string {
				if n == 0 {
					return ""
				}
				return strconv.FormatInt(n, 10)
			}
			res := r.Result()
			row := writers.Row{
				Cells: []string{id(c.DepositoID), id(c.MotivoID), c.Fecha, c.Detalle, id(c.ArticuloID), id(c.TalleID),
					id(c.ColorID), c.Counted.String()},
				Result: []string{r.Status.String(), said(res.Outcome, say).In(l), r.Key},
				Tone:   r.Status.Tone(),
			}
			if !yield(row) {
				return
			}
		}
	}
	return t
}
