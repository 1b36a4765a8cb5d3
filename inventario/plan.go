package inventario

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
)

// Kind is the journal kind count rows are kept under: they are stock rows,
// so a count and a movements file never send one row twice between them.
const Kind = "stock"

// StockReader reads the ERP's current stock. The application backs it with
// GetDataCurva, paced by the masses window.
type StockReader interface {
	// AllAtOnce reports whether one read answers every warehouse (the
	// tenant is in multi-warehouse mode: GetDataCurva without depositoId
	// carries stockDepositos).
	AllAtOnce() bool
	// ReadStock reads the stock of warehouse depositoID, or of every
	// warehouse when it is 0 (only when AllAtOnce).
	ReadStock(ctx context.Context, depositoID int64) (Snapshot, error)
}

// Snapshot is one read of the ERP's stock.
type Snapshot struct {
	// At is when the read was answered: the differences are taken against
	// the stock as it was then.
	At time.Time
	// Units is the stock of every variant the read covers; a variant
	// missing from it has none.
	Units map[Variant]nxapi.Decimal
}

// Journal is what counting needs of the journal (*boltjournal.Journal): the
// units it knows among ids, with the entry of the request that last
// carried each.
type Journal interface {
	Units(ctx context.Context, tenant, kind string, ids []string) (map[string]journal.UnitRecord, map[journal.Key]journal.Entry, error)
}

// Options configure a count.
type Options struct {
	Tenant string
	Tipos  Tipos
	// MissingAsZero counts as 0 every variant with stock in a counted
	// warehouse that the file does not list (--faltantes-en-cero).
	MissingAsZero bool
	// Listed are variants the file names in rows that are not counted
	// (rows with errors): MissingAsZero never adds them, so a mistyped
	// count is never taken for a missing article and zeroed.
	Listed []Variant
	// RetryUnknown sends again the line journaled with a row whose outcome
	// is unknown (--retry-unknown): the same line, never a recomputed one.
	RetryUnknown bool
}

// State is what becomes of a count row.
type State int

// The states of a count row.
const (
	// Send: its difference goes in a movement (Line.Movement).
	Send State = iota
	// Equal: the count equals the ERP's stock: nothing is sent.
	Equal
	// Done: journaled ok with this same count: nothing is sent again.
	Done
	// Conflict: journaled ok with another counted quantity: nothing is
	// sent; Line.Sent says what was.
	Conflict
	// Unknown: its movement's outcome is unknown: never resent nor
	// recomputed until settled (or RetryUnknown).
	Unknown
)

// Line is one counted row in the plan: the count, the ERP's stock, the
// difference and the movement it goes into.
type Line struct {
	Count
	State State
	// ERP is the stock the count was compared with: this run's read, or
	// for a journaled row the stock its first sending read.
	ERP  nxapi.Decimal
	Diff nxapi.Decimal
	// Tipo and Qty are the line the difference becomes (Tipo 0: none).
	Tipo nxapi.TipoStock
	Qty  nxapi.Decimal
	// Read is the index in Plan.Reads of the read the difference was taken
	// against; -1 when it comes from the journal.
	Read int
	// ReadAt is when the stock compared was read (this run's or the
	// journaled one).
	ReadAt time.Time
	// Movement is the index in Plan.Movements of the movement its line goes
	// into; -1 when none.
	Movement int
	// Sent is what the journal keeps of the row (Done, Conflict, Unknown,
	// and a retried unknown), with the entry of its request.
	Sent  *Journaled
	Entry journal.Entry
}

// Read is one stock read the count took.
type Read struct {
	DepositoID int64 // 0: every warehouse at once
	At         time.Time
}

// Movement is the lines of one movement: the same warehouse, reason,
// type, date and detail.
type Movement struct {
	Head  nxapi.StockMovimiento // without Articulos
	Lines []int                 // indexes into Plan.Lines, in file order
}

// Plan is a count worked out: every row (the file's, then the added ones),
// the reads taken, and the movements to send.
type Plan struct {
	Lines     []Line
	Reads     []Read
	Movements []Movement
	opts      Options
	snaps     []Snapshot // the reads' answers, by index of Reads
}

// Prepare works out the count: it asks the journal what became of every
// row, reads the stock of the warehouses whose rows still need sending
// (one read for all when the reader can, else one per warehouse), adds the
// unlisted variants when MissingAsZero, and computes every pending row's
// difference. Rows the journal settled are never compared again. counts
// must be valid (ids resolved, counted ≥ 0, no variant twice).
func Prepare(ctx context.Context, j Journal, r StockReader, counts []Count, o Options) (*Plan, error) {
	p := &Plan{opts: o}
	if err := p.settle(ctx, j, counts); err != nil {
		return nil, err
	}
	if deps := p.warehouses(); len(deps) > 0 {
		snaps, err := p.read(ctx, r, deps)
		if err != nil {
			return nil, err
		}
		if o.MissingAsZero {
			if err := p.addMissing(ctx, j, deps, snaps); err != nil {
				return nil, err
			}
		}
		p.compare(snaps)
	}
	p.pack()
	return p, nil
}

// settle appends counts to the plan as the journal has them.
func (p *Plan) settle(ctx context.Context, j Journal, counts []Count) error {
	ids := make([]string, len(counts))
	for i, c := range counts {
		ids[i] = c.ID
	}
	units, reqs, err := j.Units(ctx, p.opts.Tenant, Kind, ids)
	if err != nil {
		return fmt.Errorf("inventario: read the journal: %w", err)
	}
	for _, c := range counts {
		p.Lines = append(p.Lines, settled(c, units, reqs, p.opts.RetryUnknown))
	}
	return nil
}

// settled is the line of c as the journal has it: Send (to be compared)
// when it holds nothing that keeps it.
func settled(c Count, units map[string]journal.UnitRecord, reqs map[journal.Key]journal.Entry, retry bool) Line {
	l := Line{Count: c, State: Send, Read: -1, Movement: -1}
	u, found := units[c.ID]
	e, carried := reqs[u.Request]
	if !found || !carried {
		return l
	}
	jd, isCount := ParseJournaled(u.Body)
	switch e.State {
	case journal.OK:
		l.State, l.Entry = Done, e
		if u.BodyHash != c.Hash() {
			l.State = Conflict
		}
	case journal.Unknown, journal.Sending:
		l.State, l.Entry = Unknown, e
		if retry && isCount {
			// The very line first sent goes again (or, for a row settled
			// equal, nothing): never a recomputed one.
			l.State = Send
			if jd.Linea == nil {
				l.State = Equal
			}
		}
	default:
		return l // refused, failed or never left: compared afresh
	}
	if isCount {
		l.Sent = &jd
		l.ERP, l.ReadAt, l.Tipo = jd.ERP, jd.Leido, jd.Tipo
		l.Diff = jd.Contada - jd.ERP
		if jd.Linea != nil && jd.Linea.Cantidad != nil {
			l.Qty = *jd.Linea.Cantidad
		}
	}
	return l
}

// warehouses are the warehouses with rows to compare, in ascending order.
func (p *Plan) warehouses() []int64 {
	var deps []int64
	for _, l := range p.Lines {
		if l.State == Send && l.Sent == nil && !slices.Contains(deps, l.DepositoID) {
			deps = append(deps, l.DepositoID)
		}
	}
	slices.Sort(deps)
	return deps
}

// ReadsNeeded is how many stock reads a count of warehouses deps takes:
// one when the reader answers every warehouse at once, else one each.
func ReadsNeeded(deps int, allAtOnce bool) int {
	if deps > 0 && allAtOnce {
		return 1
	}
	return deps
}

// read takes the fewest reads that cover deps; snaps maps each warehouse
// to the index of the read that covers it.
func (p *Plan) read(ctx context.Context, r StockReader, deps []int64) (map[int64]int, error) {
	snaps := map[int64]int{}
	var taken []Snapshot
	targets := deps
	if r.AllAtOnce() {
		targets = []int64{0}
	}
	for _, d := range targets {
		s, err := r.ReadStock(ctx, d)
		if err != nil {
			if d == 0 {
				return nil, fmt.Errorf("inventario: read the stock of every warehouse: %w", err)
			}
			return nil, fmt.Errorf("inventario: read the stock of warehouse %d: %w", d, err)
		}
		p.Reads = append(p.Reads, Read{DepositoID: d, At: s.At})
		taken = append(taken, s)
		if d != 0 {
			snaps[d] = len(taken) - 1
		}
	}
	if r.AllAtOnce() {
		for _, d := range deps {
			snaps[d] = 0
		}
	}
	p.snaps = taken
	return snaps, nil
}

// addMissing adds, for every warehouse compared, the variants with stock
// the file does not list, counted as 0 under the movement fields of the
// warehouse's first row; added rows the journal already settled are
// reported as it has them.
func (p *Plan) addMissing(ctx context.Context, j Journal, deps []int64, snaps map[int64]int) error {
	listed := make(map[Variant]bool, len(p.Lines)+len(p.opts.Listed))
	for _, v := range p.opts.Listed {
		listed[v] = true
	}
	first := map[int64]Count{}
	for _, l := range p.Lines {
		listed[l.Variant] = true
		if _, ok := first[l.DepositoID]; !ok {
			first[l.DepositoID] = l.Count
		}
	}
	var added []Count
	for _, d := range deps {
		s := p.snaps[snaps[d]]
		var vs []Variant
		for v, u := range s.Units {
			if v.DepositoID == d && u != 0 && !listed[v] {
				vs = append(vs, v)
			}
		}
		sort.Slice(vs, func(a, b int) bool { return less(vs[a], vs[b]) })
		like := first[d]
		for _, v := range vs {
			c := Count{ID: AddedID(like, v), Variant: v, MotivoID: like.MotivoID, Fecha: like.Fecha,
				Detalle: like.Detalle, Sref: like.Sref, Added: true}
			c.Source = fmt.Sprintf("--faltantes-en-cero depositoId %d", d)
			added = append(added, c)
		}
	}
	if len(added) == 0 {
		return nil
	}
	return p.settle(ctx, j, added)
}

// less orders variants by article, size and colour.
func less(a, b Variant) bool {
	if a.ArticuloID != b.ArticuloID {
		return a.ArticuloID < b.ArticuloID
	}
	if a.TalleID != b.TalleID {
		return a.TalleID < b.TalleID
	}
	return a.ColorID < b.ColorID
}

// compare takes the difference of every row still to compare against the
// read that covers its warehouse.
func (p *Plan) compare(snaps map[int64]int) {
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.State != Send || l.Sent != nil {
			continue
		}
		ri := snaps[l.DepositoID]
		s := p.snaps[ri]
		l.Read, l.ReadAt = ri, s.At
		l.ERP = s.Units[l.Variant]
		l.Diff, l.Tipo, l.Qty = Difference(l.Counted, l.ERP, p.opts.Tipos)
		if l.Tipo == 0 {
			l.State = Equal
		}
	}
}

// packKey is what puts lines into one movement.
type packKey struct {
	dep, motivo          int64
	tipo                 nxapi.TipoStock
	fecha, detalle, sref string
}

// pack groups the lines to send into movements, in file order of their
// first line.
func (p *Plan) pack() {
	index := map[packKey]int{}
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.State != Send {
			continue
		}
		k := packKey{l.DepositoID, l.MotivoID, l.Tipo, l.Fecha, l.Detalle, l.Sref}
		m, ok := index[k]
		if !ok {
			m = len(p.Movements)
			index[k] = m
			p.Movements = append(p.Movements, Movement{Head: nxapi.StockMovimiento{DepositoID: k.dep,
				MotivoID: k.motivo, Tipo: k.tipo, Fecha: k.fecha, Detalle: k.detalle, Sref: k.sref}})
		}
		l.Movement = m
		p.Movements[m].Lines = append(p.Movements[m].Lines, i)
	}
}

// article is the line a row sends: its variant and the difference's
// quantity.
func (l *Line) article() nxapi.StockArticulo {
	q := l.Qty
	return nxapi.StockArticulo{ArticuloID: l.ArticuloID, Cantidad: &q, TalleID: l.TalleID, ColorID: l.ColorID}
}

// journaled is what the journal keeps of the row when its line is sent
// (or when it is settled equal).
func (l *Line) journaled() Journaled {
	if l.Sent != nil {
		return *l.Sent // a retried unknown: the very line first sent
	}
	j := Journaled{Contada: l.Counted, ERP: l.ERP, Leido: l.ReadAt.UTC()}
	if l.Tipo != 0 {
		a := l.article()
		j.Tipo, j.Linea = l.Tipo, &a
	}
	return j
}

// unit is the row as a journal unit: its identity, the count's hash, and
// the count with its difference.
func (l *Line) unit() journal.Unit {
	body, _ := json.Marshal(l.journaled()) // cannot fail with these types
	return journal.Unit{ID: l.ID, BodyHash: l.Hash(), Body: string(body), Source: l.Source}
}

// Request is one movement request on the wire with the journal units it
// carries.
type Request struct {
	// Key is the journal's business key: a hash of the identities of the
	// rows it carries, like any stock request's.
	Key      string
	Body     []byte
	BodyHash string
	Units    []journal.Unit
	// Lines are the indexes into Plan.Lines it carries.
	Lines    []int
	Movement int
}

// Requests splits every movement into requests of at most max lines, in
// order; the journal's intent for each carries Units.
func (p *Plan) Requests(max int) []Request {
	if max < 1 {
		max = 1
	}
	var out []Request
	for mi, mv := range p.Movements {
		for start := 0; start < len(mv.Lines); start += max {
			part := mv.Lines[start:min(start+max, len(mv.Lines))]
			m := mv.Head
			m.Articulos = make([]nxapi.StockArticulo, len(part))
			r := Request{Lines: part, Movement: mi, Units: make([]journal.Unit, len(part))}
			ids := make([]string, len(part))
			for k, li := range part {
				l := &p.Lines[li]
				if l.Sent != nil && l.Sent.Linea != nil {
					m.Articulos[k] = *l.Sent.Linea
				} else {
					m.Articulos[k] = l.article()
				}
				r.Units[k] = l.unit()
				ids[k] = l.ID
			}
			r.Body, _ = json.Marshal(m) // cannot fail with these types
			r.Key = requestKey(ids)
			bh := sha256.Sum256(r.Body)
			r.BodyHash = hex.EncodeToString(bh[:])
			out = append(out, r)
		}
	}
	return out
}

// requestKey is the business key of a request carrying the rows ids: the
// pipeline's rule for stock requests (sorted identities, hashed).
func requestKey(ids []string) string {
	s := slices.Clone(ids)
	slices.Sort(s)
	h := sha256.New()
	for _, id := range s {
		h.Write([]byte(id))
		h.Write([]byte{0})
	}
	return "m" + hex.EncodeToString(h.Sum(nil)[:8])
}
