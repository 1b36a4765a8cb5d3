package reconcile

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// The journal's kinds, as its keys spell them.
const (
	KindVenta    = "venta"
	KindFacturar = "facturar"
	KindStock    = "stock"
)

// Kinds lists the kinds reconciliation knows, in the order it reports them.
var Kinds = []string{KindFacturar, KindVenta, KindStock, KindPedido, KindCancelar}

// DefaultSettleAfter is how long after a sale's last attempt an export must
// have been read before the sale's absence from it counts: exports may lag
// behind the sale (API time, scaled by --time-scale like every window).
const DefaultSettleAfter = 10 * time.Minute

// ClockSkew is how far the API's clock may be from ours. A voucher dated
// before the first attempt cannot be the sale, but "before" is read with
// this margin, and the days read around the attempts are widened by it:
// a filter that is too tight would hide the sale and declare it failed,
// which would invoice it twice. It is real time, never scaled.
const ClockSkew = 10 * time.Minute

// API is what reconciliation reads (*apiclient.Client).
type API interface {
	Comprobante(ctx context.Context, id int64) (*nxapi.Comprobante, error)
	VentaTotales(ctx context.Context, q apiclient.ExportQuery) (*nxapi.ExportPage[nxapi.VentaTotal], error)
}

// Journal is what reconciliation needs of the journal; only its exported
// API, so that any implementation of it will do (*boltjournal.Journal).
type Journal interface {
	List(ctx context.Context, filter journal.State) ([]journal.Entry, error)
	Units(ctx context.Context, tenant, kind string, ids []string) (map[string]journal.UnitRecord, map[journal.Key]journal.Entry, error)
	Resolve(ctx context.Context, k journal.Key, v journal.Verdict) error
	NextAllowed(ctx context.Context, tenant, window string) (time.Time, error)
	// Reserve and SetNextAllowed pace the reads (sendrules.Paced).
	sendrules.WindowStore
}

// Scope is what the API says about where the integration's sales are:
// GET /config (appId, the default point of sale, the branches enabled for
// exports) and GET /puntos-venta (the branch of each point of sale).
type Scope struct {
	AppID             int64
	DefaultPuntoVenta int64
	// Branches are config.sucursalesExportacion: the only branches an
	// export may be read for, and, once configured, the only branches the
	// API creates vouchers in.
	Branches []int64
	// PuntoVentaBranch maps a point of sale to its branch; nil or
	// incomplete when /puntos-venta is not cached, and then a sale is
	// looked for in every enabled branch.
	PuntoVentaBranch map[int64]int64
	// MappedAt is when the map (and the default point of sale) was read
	// from the API; zero when unknown. See MappingFresh.
	MappedAt time.Time
}

// MappingFresh is how far from a sale's last attempt the point-of-sale map
// may have been read for the sale to be looked for in its point of sale's
// branch alone. A sale not found in an export is sent again, so a map that
// may predate a point of sale moving to another branch (or postdate it)
// must not narrow the search: the sale is then looked for in every enabled
// branch, at the cost of more export reads, never of a second invoice.
const MappingFresh = time.Hour

// ScopeOf builds a Scope from the cached /config and /puntos-venta (pvs may
// be nil).
func ScopeOf(cfg *nxapi.Config, pvs []apiclient.PuntoVenta) *Scope {
	s := &Scope{AppID: cfg.AppID, DefaultPuntoVenta: cfg.PuntoVentaID}
	for _, b := range cfg.SucursalesExportacion {
		s.Branches = append(s.Branches, b.SucursalID)
	}
	if len(pvs) > 0 {
		s.PuntoVentaBranch = map[int64]int64{}
		for _, pv := range pvs {
			if pv.SucursalID > 0 {
				s.PuntoVentaBranch[pv.PuntoVentaID] = pv.SucursalID
			}
		}
	}
	return s
}

// SaleFacts is what reconciliation would like to know of an unknown sale
// beyond its ordenId: its total, its customer and its point of sale. They
// only narrow the search (fewer export branches, fewer candidates to
// confirm); the ordenId of GET /comprobante decides. A run has them in
// memory for its own sales, and the journal keeps them as JSON with each
// attempt (IntentFacts, JournalFacts), for every later reconciliation.
type SaleFacts struct {
	Total *nxapi.Decimal `json:"total,omitempty"`
	Email string         `json:"email,omitempty"`
	DNI   string         `json:"dni,omitempty"`
	// CUIT is the customer's CUIT as sent: the ERP may find the customer
	// by it and show that customer's own e-mail and document.
	CUIT         string `json:"cuit,omitempty"`
	EntidadID    int64  `json:"entidadId,omitempty"`
	PuntoVentaID int64  `json:"puntoVentaId,omitempty"`
}

// FactsOf takes the facts of a sale from its body.
func FactsOf(v *nxapi.Venta) SaleFacts {
	f := SaleFacts{Total: v.Total, EntidadID: v.EntidadID, PuntoVentaID: v.PuntoVentaID}
	if v.Usuario != nil {
		f.Email, f.DNI, f.CUIT = v.Usuario.Email, v.Usuario.DNI, v.Usuario.CUIT
	}
	return f
}

// IntentFacts is what the journal keeps with an attempt of a request of
// kind whose exact body is body (pipeline.SubmitOptions.Facts): for a sale,
// its SaleFacts as JSON (about 100 bytes); "" for any other kind, or a
// body that is not a sale.
func IntentFacts(kind string, body []byte) string {
	if kind != KindVenta {
		return ""
	}
	var v nxapi.Venta
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	b, err := json.Marshal(FactsOf(&v))
	if err != nil {
		return ""
	}
	return string(b)
}

// JournalFacts are the facts the journal kept with an unknown sale's last
// attempt (IntentFacts): Begin writes them with the attempt's BodyHash, so
// they are the facts of the body the entry carries. False when the entry
// has none (written before the journal kept them, or by a caller that gave
// none) or they cannot be read.
func JournalFacts(e journal.Entry) (SaleFacts, bool) {
	if e.Key.Kind != KindVenta || e.Facts == "" {
		return SaleFacts{}, false
	}
	var f SaleFacts
	if json.Unmarshal([]byte(e.Facts), &f) != nil {
		return SaleFacts{}, false
	}
	return f, true
}

// Options configure a reconciliation.
type Options struct {
	Tenant string
	// Env picks the API environment's windows; Scale (--time-scale)
	// multiplies every window, the key hold and SettleAfter.
	Env   sendrules.Env
	Scale float64
	// Timeout bounds one read (the client's); a read that left at t has
	// arrived by t+Timeout, and its window counts from there until it
	// answers.
	Timeout time.Duration
	// Kinds limits the kinds settled; nil is all.
	Kinds []string
	// Since keeps only entries whose last attempt is at or after it.
	Since time.Time
	// SettleAfter: see DefaultSettleAfter (unscaled; 0 is the default).
	SettleAfter time.Duration
	// Scope is where to look for sales; nil means it could not be learned
	// (ScopeWhy says why), and no sale can be settled.
	Scope    *Scope
	ScopeWhy msg.Message
	// Facts gives what is known of an unknown sale beyond the journal (a
	// run's own bodies); where it does not answer (or is nil) the facts
	// the journal kept with the entry are used (JournalFacts), and a sale
	// with neither is looked for knowing only its ordenId. It must answer
	// only for the body the entry's last attempt carried (its BodyHash):
	// facts of another body could hide the sale's voucher.
	Facts func(journal.Entry) (SaleFacts, bool)
	// Snapshot is listen's stock snapshot, shown with unknown stock
	// movements; nil when the user did not point at one.
	Snapshot *listener.State
	// MaxRefusals bounds how often one read is resent after the API refused
	// it for its window ("Debe esperar N segundos"; the refusal means it was
	// not answered, so asking again is safe). 0 is 3.
	MaxRefusals int
	// Waiting, when set, is told before a wait for a window longer than a
	// second, so the command can say why it is quiet.
	Waiting func(window sendrules.Window, d time.Duration)
	Now     func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Env == "" {
		o.Env = sendrules.Production
	}
	if o.Scale <= 0 {
		o.Scale = 1
	}
	if o.SettleAfter <= 0 {
		o.SettleAfter = DefaultSettleAfter
	}
	if o.MaxRefusals <= 0 {
		o.MaxRefusals = 3
	}
	if o.Timeout <= 0 {
		o.Timeout = apiclient.DefaultTimeout
	}
	return o
}

func (o Options) scaled(d time.Duration) time.Duration { return sendrules.Scale(d, o.Scale) }

func (o Options) window(w sendrules.Window) time.Duration { return o.scaled(o.Env.Limit(w)) }

func (o Options) wants(kind string) bool { return len(o.Kinds) == 0 || slices.Contains(o.Kinds, kind) }

// lastAttempt is the latest moment the entry's last attempt could have
// reached the API: its answer (or the recovery after a crash), else the
// moment it left.
func lastAttempt(e journal.Entry) time.Time {
	if e.Held.After(e.Last) {
		return e.Held
	}
	return e.Last
}

// day is t's date in UTC (the API's dates are UTC), at midnight.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// sale is an unknown sale in the plan.
type sale struct {
	e        journal.Entry
	orden    int64
	facts    SaleFacts
	hasFacts bool
	branches []int64
	from, to time.Time // the days to read, UTC, both included
	scans    []int     // indexes into Plan.Scans
	blocked  msg.Message
}

// Scan is one export read of the plan: every page of the sales export of
// a branch over a period of at most 30 days.
type Scan struct {
	SucursalID   int64
	Desde, Hasta time.Time // UTC days, both included
}

// Plan is what Prepare found to settle and the reads it takes.
type Plan struct {
	o Options

	Facturar []journal.Entry
	Stock    []journal.Entry
	// Pedidos are the unknown order requests: creations, paid updates and
	// cancellations.
	Pedidos []journal.Entry
	// pedidoIDs are the facturaIds of the orders the journal has created,
	// by ordenId: what a paid update reads back.
	pedidoIDs map[string]int64
	sales     []*sale
	Scans     []Scan
	// Recent are the unknown entries still inside the key hold of their
	// last attempt: the API may be processing them; they are left for a
	// later reconciliation.
	Recent []Undecided

	// okFacturas are the vouchers the journal ties to an ok entry, never a
	// candidate for an unknown sale.
	okFacturas map[int64]journal.Entry
	// presales are the facturaIds the journal has as facturar keys: a
	// converted presale appears in the sales export, and is never a sale's.
	presales map[int64]bool
	// okOrdenes are the ok sales, to notice a voucher that carries one of
	// their ordenIds again (a duplicate already in the ERP).
	okOrdenes map[int64]journal.Entry

	nextExports, nextComprobante time.Time // persisted windows when planned
	planned                      time.Time
}

// Ventas are the unknown sales of the plan, in key order.
func (p *Plan) Ventas() []journal.Entry {
	out := make([]journal.Entry, len(p.sales))
	for i, s := range p.sales {
		out[i] = s.e
	}
	return out
}

// Empty reports whether there is nothing to settle or show.
func (p *Plan) Empty() bool {
	return len(p.Facturar)+len(p.sales)+len(p.Stock)+len(p.Pedidos)+len(p.Recent) == 0
}

// Prepare lists the tenant's unknown entries that o asks for and plans the
// reads that settle them. It reads the journal only.
func Prepare(ctx context.Context, j Journal, o Options) (*Plan, error) {
	o = o.withDefaults()
	all, err := j.List(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("reconcile: list the journal: %w", err)
	}
	now := o.Now()
	p := &Plan{o: o, okFacturas: map[int64]journal.Entry{}, presales: map[int64]bool{},
		okOrdenes: map[int64]journal.Entry{}, pedidoIDs: map[string]int64{}, planned: now}
	hold := o.scaled(sendrules.KeyHold)
	for _, e := range all {
		if e.Key.Tenant != o.Tenant {
			continue
		}
		id, idErr := strconv.ParseInt(e.Key.Business, 10, 64)
		if e.Key.Kind == KindFacturar && idErr == nil {
			p.presales[id] = true
		}
		if e.Key.Kind == KindPedido && e.State == journal.OK && e.FacturaID > 0 {
			if orden, paid := sendrules.OrderOf(e.Key.Business); !paid {
				p.pedidoIDs[orden] = e.FacturaID
			}
		}
		if e.State == journal.OK {
			// A stock entry's FacturaID is its movement's id, numbered apart
			// from vouchers: only sales and presales name a voucher.
			if e.FacturaID > 0 && (e.Key.Kind == KindVenta || e.Key.Kind == KindFacturar) {
				p.okFacturas[e.FacturaID] = e
			}
			if e.Key.Kind == KindVenta && idErr == nil {
				p.okOrdenes[id] = e
			}
		}
		if e.State != journal.Unknown || !o.wants(e.Key.Kind) || (!o.Since.IsZero() && lastAttempt(e).Before(o.Since)) {
			continue
		}
		if h := sendrules.HoldOf(e.Key.Kind); h > 0 {
			if ready := lastAttempt(e).Add(hold); now.Before(ready) {
				p.Recent = append(p.Recent, Undecided{Key: e.Key, RetryAt: ready, Why: msg.New("rec.recent", clock(ready))})
				continue
			}
		}
		switch e.Key.Kind {
		case KindFacturar:
			p.Facturar = append(p.Facturar, e)
		case KindStock:
			p.Stock = append(p.Stock, e)
		case KindPedido, KindCancelar:
			p.Pedidos = append(p.Pedidos, e)
		case KindVenta:
			s := &sale{e: e, orden: id}
			if idErr != nil || id <= 0 {
				s.blocked = msg.New("rec.badkey", e.Key.Business)
			}
			if o.Facts != nil {
				s.facts, s.hasFacts = o.Facts(e)
			}
			if !s.hasFacts {
				s.facts, s.hasFacts = JournalFacts(e)
			}
			p.sales = append(p.sales, s)
		}
	}
	p.planScans(now)
	if p.nextExports, err = j.NextAllowed(ctx, o.Tenant, string(sendrules.Exports)); err != nil {
		return nil, fmt.Errorf("reconcile: %w", err)
	}
	if p.nextComprobante, err = j.NextAllowed(ctx, o.Tenant, string(sendrules.Comprobante)); err != nil {
		return nil, fmt.Errorf("reconcile: %w", err)
	}
	return p, nil
}

// branchesOf says which branches an unknown sale may be in, or why it
// cannot be looked for.
func (p *Plan) branchesOf(s *sale) ([]int64, msg.Message) {
	sc := p.o.Scope
	switch {
	case sc == nil:
		why := p.o.ScopeWhy
		if why.Key == "" {
			why = msg.New("rec.noscope")
		}
		return nil, why
	case len(sc.Branches) == 0:
		return nil, msg.New("rec.nobranches")
	case len(sc.Branches) == 1 || !s.hasFacts:
		// Without its point of sale the sale may be in any enabled branch:
		// once branches are configured the API creates vouchers only there.
		return sc.Branches, msg.Message{}
	}
	pv := s.facts.PuntoVentaID
	if pv == 0 {
		pv = sc.DefaultPuntoVenta // API spec 4.1 rule 5
	}
	b, ok := sc.PuntoVentaBranch[pv]
	switch {
	case !ok:
		return sc.Branches, msg.Message{}
	case sc.MappedAt.IsZero() || s.e.Last.Sub(sc.MappedAt).Abs() > MappingFresh:
		return sc.Branches, msg.Message{}
	case !slices.Contains(sc.Branches, b):
		return nil, msg.New("rec.branch.disabled", b, pv)
	}
	return []int64{b}, msg.Message{}
}

// planScans chooses the branches and days of every unknown sale and covers
// them with as few export reads as the 30-day limit allows.
func (p *Plan) planScans(now time.Time) {
	slices.SortFunc(p.sales, func(a, b *sale) int { return cmp.Compare(a.orden, b.orden) })
	days := map[int64]map[time.Time]bool{}
	settle := p.o.scaled(p.o.SettleAfter)
	for _, s := range p.sales {
		if s.blocked.Key != "" {
			continue
		}
		s.branches, s.blocked = p.branchesOf(s)
		if s.blocked.Key != "" {
			continue
		}
		// The voucher is dated when the API processed the request: after
		// the first attempt left and, give or take the clocks, before its
		// last one could no longer arrive; a slow API may date it a little
		// later, so the days run to the settle time (or now).
		s.from = day(s.e.First.Add(-ClockSkew))
		end := lastAttempt(s.e).Add(settle + ClockSkew)
		if end.After(now) {
			end = now
		}
		s.to = day(end)
		if s.to.Before(s.from) {
			s.to = s.from
		}
		for _, b := range s.branches {
			if days[b] == nil {
				days[b] = map[time.Time]bool{}
			}
			for d := s.from; !d.After(s.to); d = d.AddDate(0, 0, 1) {
				days[b][d] = true
			}
		}
	}
	branches := make([]int64, 0, len(days))
	for b := range days {
		branches = append(branches, b)
	}
	slices.Sort(branches)
	for _, b := range branches {
		var ds []time.Time
		for d := range days[b] {
			ds = append(ds, d)
		}
		slices.SortFunc(ds, time.Time.Compare)
		// Greedy: a range starts at the first day not yet covered and takes
		// every later day within 30 days of it, gaps included (a day with
		// nothing to read costs nothing; a second request costs a window).
		for i := 0; i < len(ds); {
			k := i
			for k+1 < len(ds) && ds[k+1].Sub(ds[i]) < sendrules.ExportMaxDays*24*time.Hour {
				k++
			}
			p.Scans = append(p.Scans, Scan{SucursalID: b, Desde: ds[i], Hasta: ds[k]})
			i = k + 1
		}
	}
	for _, s := range p.sales {
		if s.blocked.Key != "" {
			continue
		}
		for i, sc := range p.Scans {
			if slices.Contains(s.branches, sc.SucursalID) && !sc.Desde.After(s.to) && !sc.Hasta.Before(s.from) {
				s.scans = append(s.scans, i)
			}
		}
	}
}

// Floor is the least time the API's windows allow for reads: exports
// export pages, presales comprobante reads of presales and candidates
// comprobante reads of export rows, which can only start once the export
// is read. waitExports and waitComprobante are how long each window is
// still closed at the start. Both windows count from the previous answer;
// the reads themselves take no time here.
func Floor(exports, presales, candidates int, we, wc, waitExports, waitComprobante time.Duration) time.Duration {
	var exportLane time.Duration
	if exports > 0 {
		exportLane = waitExports + time.Duration(exports-1)*we
	}
	chain := exportLane
	if candidates > 0 && exports > 0 {
		chain += time.Duration(candidates-1) * wc
	}
	var comprobanteLane time.Duration
	if n := presales + candidates; n > 0 {
		comprobanteLane = waitComprobante + time.Duration(n-1)*wc
	}
	return max(exportLane, chain, comprobanteLane)
}

// LeastTime is the plan's floor: every presale read and one page per
// export read, before any candidate is known.
func (p *Plan) LeastTime() time.Duration {
	we, wc := p.o.window(sendrules.Exports), p.o.window(sendrules.Comprobante)
	return Floor(len(p.Scans), len(p.Facturar), 0, we, wc, until(p.planned, p.nextExports), until(p.planned, p.nextComprobante))
}

func until(now, t time.Time) time.Duration { return max(t.Sub(now), 0) }

// Messages is the plan as the command prints it first: what is unknown,
// which reads it takes, and the least time they take.
func (p *Plan) Messages() []msg.Message {
	out := []msg.Message{msg.New("rec.plan", len(p.Facturar)+len(p.sales)+len(p.Stock)+len(p.Recent),
		len(p.Facturar), len(p.sales), len(p.Stock), len(p.Recent))}
	if len(p.Facturar) > 0 {
		out = append(out, msg.New("rec.plan.presales", len(p.Facturar)))
	}
	if len(p.Scans) > 0 {
		var scans []string
		for _, s := range p.Scans {
			d := s.Desde.Format("02/01/2006")
			if !s.Hasta.Equal(s.Desde) {
				d += "–" + s.Hasta.Format("02/01/2006")
			}
			scans = append(scans, fmt.Sprintf("%d %s", s.SucursalID, d))
		}
		out = append(out, msg.New("rec.plan.exports", len(p.Scans), strings.Join(scans, ", "), duration(p.o.window(sendrules.Comprobante))))
	}
	if len(p.Facturar)+len(p.Scans) > 0 {
		out = append(out, msg.New("rec.plan.floor", duration(p.LeastTime())))
	}
	return out
}

// clock renders a time for messages: the user's local time.
func clock(t time.Time) string { return t.Local().Format("02/01/2006 15:04:05") }

// duration renders a wait for messages, in words of the message's
// language.
func duration(d time.Duration) msg.Duration { return msg.Duration(d) }
