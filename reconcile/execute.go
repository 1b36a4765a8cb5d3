package reconcile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Decision is a verdict reached on evidence, ready for the journal.
type Decision struct {
	Key      journal.Key
	Verdict  journal.Verdict
	Evidence Evidence
	// Why is the decision in words (the verdict's note is its Spanish
	// rendering).
	Why msg.Message
}

// Undecided is an entry left unknown, and why.
type Undecided struct {
	Key journal.Key
	Why msg.Message
	// RetryAt is when another reconciliation may settle it; zero when no
	// amount of waiting will (a person must look in the ERP).
	RetryAt time.Time
}

// Reads is what the reads cost against the windows' floor.
type Reads struct {
	Exports      int // export pages requested (refused ones included)
	Comprobantes int // GET /comprobante requested (refused ones included)
	Refused      int // of them, refused for the window and asked again
	Presales     int // GET /comprobante of presales
	Candidates   int // GET /comprobante of export rows
	// Started and Ended are the first read's start and the last one's
	// answer.
	Started, Ended time.Time
	// Floor is the least time the API's windows allow for these reads.
	Floor time.Duration
}

// Took is the time from the first read to the last answer.
func (r Reads) Took() time.Duration {
	if r.Started.IsZero() {
		return 0
	}
	return r.Ended.Sub(r.Started)
}

// Result is what Execute read and decided.
type Result struct {
	Decisions []Decision
	Undecided []Undecided
	Stock     []StockReport
	// Warnings are facts a person should know that decide nothing (a
	// voucher that carries an ordenId twice, a verdict no longer needed).
	Warnings []msg.Message
	Reads    Reads
	// Unauthorized: a read got 401; the reads stopped and Commit writes
	// nothing.
	Unauthorized bool
	// Interrupted: ctx ended before every read was made; the decisions made
	// rest on complete evidence all the same.
	Interrupted bool
	// Err is a journal failure (a window could not be persisted): the reads
	// stopped.
	Err error
}

// executor is one Execute.
type executor struct {
	p      *Plan
	o      Options
	api    API
	j      Journal
	cancel context.CancelFunc

	exports, comp *lane

	mu           sync.Mutex
	res          Result
	presaleReads int
	candReads    int
}

// Execute makes the plan's reads, each paced by its window, and decides
// what the evidence allows. Presales are read while the exports are; the
// export's candidates after it. It writes nothing but the windows: Commit
// writes the decisions.
func Execute(ctx context.Context, api API, j Journal, p *Plan) *Result {
	o := p.o
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	x := &executor{p: p, o: o, api: api, j: j, cancel: cancel,
		exports: newLane(sendrules.Exports, j, o),
		comp:    newLane(sendrules.Comprobante, j, o)}
	x.res.Undecided = append(x.res.Undecided, p.Recent...)
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, e := range p.Facturar {
			x.facturar(run, e)
		}
	})
	wg.Go(func() { x.ventas(run) })
	wg.Go(func() {
		for _, e := range p.Pedidos {
			x.pedido(run, e)
		}
	})
	wg.Wait()
	if err := x.stock(ctx); err != nil && x.res.Err == nil {
		x.res.Err = err
	}
	x.res.Interrupted = ctx.Err() != nil
	x.finish()
	return &x.res
}

// stopped reports whether err must stop every read (a 401, a journal
// failure, the end of ctx), recording why.
func (x *executor) stopped(ctx context.Context, err error) bool {
	var je errJournal
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		x.mu.Lock()
		x.res.Unauthorized = true
		x.mu.Unlock()
		x.cancel()
		return true
	case errors.As(err, &je):
		x.mu.Lock()
		if x.res.Err == nil {
			x.res.Err = je
		}
		x.mu.Unlock()
		x.cancel()
		return true
	}
	return ctx.Err() != nil
}

func (x *executor) decide(d Decision) {
	d.Verdict.Note = d.Why.In(msg.ES)
	d.Verdict.Evidence = d.Evidence.JSON()
	x.mu.Lock()
	x.res.Decisions = append(x.res.Decisions, d)
	x.mu.Unlock()
}

func (x *executor) leave(k journal.Key, why msg.Message, retry time.Time) {
	x.mu.Lock()
	x.res.Undecided = append(x.res.Undecided, Undecided{Key: k, Why: why, RetryAt: retry})
	x.mu.Unlock()
}

func (x *executor) warn(m msg.Message) {
	x.mu.Lock()
	x.res.Warnings = append(x.res.Warnings, m)
	x.mu.Unlock()
}

// stopReason is what an entry left unread says.
func (x *executor) stopReason() msg.Message {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.res.Unauthorized {
		return msg.New("rec.stopped.401")
	}
	return msg.New("rec.stopped")
}

// readComprobante reads GET /comprobante/{id} in its window.
func (x *executor) readComprobante(ctx context.Context, id int64) (ComprobanteRead, *nxapi.Comprobante, error) {
	var c *nxapi.Comprobante
	var at time.Time
	err := x.comp.do(ctx, func(ctx context.Context) error {
		at = x.o.Now()
		var err error
		c, err = x.api.Comprobante(ctx, id)
		return err
	})
	r := comprobanteRead(at, id, c)
	switch {
	case errors.Is(err, apiclient.ErrNotFound):
		r.NotFound = true
	case err != nil:
		r.Error = err.Error()
	}
	return r, c, err
}

// facturar settles one presale from GET /comprobante/{facturaId}.
func (x *executor) facturar(ctx context.Context, e journal.Entry) {
	if ctx.Err() != nil {
		x.leave(e.Key, x.stopReason(), time.Time{})
		return
	}
	id, perr := strconv.ParseInt(e.Key.Business, 10, 64)
	if perr != nil || id <= 0 {
		x.leave(e.Key, msg.New("rec.badkey", e.Key.Business), time.Time{})
		return
	}
	r, c, err := x.readComprobante(ctx, id)
	if !r.Read.IsZero() {
		x.mu.Lock()
		x.presaleReads++
		x.mu.Unlock()
	}
	if err != nil && !r.NotFound && x.stopped(ctx, err) {
		x.leave(e.Key, x.stopReason(), time.Time{})
		return
	}
	hold := x.o.scaled(sendrules.KeyHold)
	last := lastAttempt(e)
	ev := Evidence{Decided: x.o.Now(), LastAttempt: last, KeyHold: hold.String(), Comprobante: &r}
	switch {
	case r.NotFound:
		// Not the integration's voucher, or gone: nothing the API shows
		// says whether the request was processed.
		x.leave(e.Key, msg.New("rec.facturar.notfound", id), time.Time{})
	case err != nil:
		x.leave(e.Key, readFailed(id, err), retryAfter(err, x.o.Now()))
	case c.FacturaID != 0 && c.FacturaID != id:
		x.leave(e.Key, msg.New("rec.facturar.otherid", id, c.FacturaID), time.Time{})
	case c.ComprobanteTipo == nxapi.ComprobanteVenta:
		// A presale converted by /facturar shows as a sale (public facts,
		// "Wire types"); estado's codes are not public and decide nothing.
		ev.Rule = RuleConverted
		x.decide(Decision{Key: e.Key, Evidence: ev,
			Verdict: journal.Verdict{As: journal.OK, FacturaID: id, Numero: c.Numero, PVNumero: c.PVNumero},
			Why:     msg.New("rec.facturar.ok", id, clock(r.Read), numeroFull(c.PVNumero, c.Numero))})
	case c.ComprobanteTipo == nxapi.ComprobantePreventa:
		if ready := last.Add(hold); r.Read.Before(ready) {
			// Inside the key hold the API may still be converting it.
			x.leave(e.Key, msg.New("rec.recent", clock(ready)), ready)
			return
		}
		ev.Rule = RulePending
		x.decide(Decision{Key: e.Key, Evidence: ev, Verdict: journal.Verdict{As: journal.Failed},
			Why: msg.New("rec.facturar.failed", id, clock(r.Read), duration(r.Read.Sub(last)))})
	default:
		x.leave(e.Key, msg.New("rec.facturar.state", id, c.ComprobanteTipo, string(c.Estado)), time.Time{})
	}
}

// readFailed says why a GET /comprobante/{id} that got an answer or an
// error is no evidence: an answer with a field of a type the vendor's
// types do not allow is quoted, so a person can see it.
func readFailed(id int64, err error) msg.Message {
	var we *nxapi.WireError
	if errors.As(err, &we) {
		return msg.New("rec.wire", id, we.Field, we.Got)
	}
	return msg.New("rec.readfailed", msg.CauseOf(err))
}

// retryAfter is when reading again may help: at once after a failed read,
// never for an answer of an unexpected type (the same answer would come:
// a person must look in the ERP).
func retryAfter(err error, now time.Time) time.Time {
	var we *nxapi.WireError
	if errors.As(err, &we) {
		return time.Time{}
	}
	return now
}

// numeroFull writes a voucher's number as the export does: 0001-00000101.
func numeroFull(pv, numero int64) string { return fmt.Sprintf("%04d-%08d", pv, numero) }

// exportRow is a ventatotales row read, with its page and its date.
type exportRow struct {
	nxapi.VentaTotal
	page    int
	fecha   time.Time
	fechaOK bool
}

func (r *exportRow) show() *ExportRow {
	return &ExportRow{FacturaID: int64(r.FacturaID), Fecha: string(r.Fecha), NumeroFull: string(r.NumeroFull),
		SucursalID: r.SucursalID, AppID: r.AppID, Total: r.Total, Page: r.page}
}

// fechaLayout is how the API writes dates: dd/MM/yyyy HH:mm:ss, UTC.
const fechaLayout = "02/01/2006 15:04:05"

// scanned is one export read: its record and the rows it found.
type scanned struct {
	ScanRead
	rows []*exportRow
}

// scan reads every page of one export read. The rows are sorted oldest
// first and only ever added, so a voucher that appears while the pages are
// read shifts later rows forward (read twice, kept once) and never hides a
// row that was there when the first page was read. A count that shrinks
// breaks that, and so does a page that is not the one asked for: either
// leaves the read incomplete.
func (x *executor) scan(ctx context.Context, sc Scan) *scanned {
	r := &scanned{ScanRead: ScanRead{SucursalID: sc.SucursalID, Desde: sc.Desde.Format(time.DateOnly), Hasta: sc.Hasta.Format(time.DateOnly)}}
	seen := map[nxapi.ID]bool{}
	first := -1
	for page := 1; ; page++ {
		var pg *nxapi.ExportPage[nxapi.VentaTotal]
		var at time.Time
		err := x.exports.do(ctx, func(ctx context.Context) error {
			at = x.o.Now()
			var err error
			pg, err = x.api.VentaTotales(ctx, apiclient.ExportQuery{SucursalID: sc.SucursalID, Desde: sc.Desde, Hasta: sc.Hasta,
				Page: page, PageSize: sendrules.ExportMaxPageSize})
			return err
		})
		if page == 1 {
			r.Started = at
		}
		if err != nil {
			x.stopped(ctx, err)
			r.Error = err.Error()
			return r
		}
		r.Pages = append(r.Pages, PageRead{Page: page, Read: at, Items: len(pg.Items), TotalRegistros: pg.TotalRegistros, TotalPaginas: pg.TotalPaginas})
		switch {
		case pg.PaginaActual != 0 && pg.PaginaActual != page:
			r.Error = fmt.Sprintf("asked for page %d, the API answered page %d", page, pg.PaginaActual)
			return r
		case pg.TotalRegistros < first:
			r.Error = fmt.Sprintf("the export shrank from %d to %d rows while it was read", first, pg.TotalRegistros)
			return r
		case len(pg.Items) == 0 && page < pg.TotalPaginas:
			r.Error = fmt.Sprintf("page %d of %d came empty", page, pg.TotalPaginas)
			return r
		}
		if first < 0 {
			first = pg.TotalRegistros
		}
		for _, it := range pg.Items {
			if seen[it.FacturaID] {
				continue
			}
			seen[it.FacturaID] = true
			row := &exportRow{VentaTotal: it, page: page}
			row.fecha, row.fechaOK = parseFecha(string(it.Fecha))
			r.rows = append(r.rows, row)
		}
		if page >= pg.TotalPaginas || len(pg.Items) == 0 {
			break
		}
	}
	if len(r.rows) < first {
		r.Error = fmt.Sprintf("read %d rows of the %d the export counted", len(r.rows), first)
		return r
	}
	r.Complete = true
	return r
}

func parseFecha(s string) (time.Time, bool) {
	t, err := time.Parse(fechaLayout, strings.TrimSpace(s))
	return t, err == nil
}

// candidate is an export row that may be an unknown sale.
type candidate struct {
	row   *exportRow
	scan  int
	sales []*sale // the unknown sales it is consistent with
	read  *ComprobanteRead
	ok    bool // read, and the answer (found or 404) is evidence
	// why, when the answer read is no evidence, is what a sale it may be
	// is left unknown with, for a person to look (no retry time).
	why msg.Message
}

// filters are the consistency checks in force for one reconciliation.
type filters struct {
	// appID, when not 0, keeps only the rows that carry it: the export's
	// vouchers of the integration carry its appId, the ERP's carry none.
	appID int64
	date  bool
}

func (f filters) names(facts bool) []string {
	var out []string
	if f.appID != 0 {
		out = append(out, "appId")
	}
	if f.date {
		out = append(out, "date")
	}
	if facts {
		out = append(out, "total", "customer")
	}
	return out
}

// chooseFilters decides the checks from the vouchers the journal knows to
// be ours (tied to an ok entry). That the export's rows carry the
// integration's appId is an inference of the public facts: it is used only
// when those vouchers confirm it, every one of them carrying it; then the
// rows without it are the ERP's or another integration's. The date check
// holds unless one of them is dated before its own first attempt (the
// API's clock is further from ours than ClockSkew). A check that hid our
// own voucher would declare a sale failed that exists, and invoice it
// twice.
func (x *executor) chooseFilters(scans []*scanned) filters {
	f := filters{date: true}
	confirmed, contradicted := false, false
	for _, sc := range scans {
		if sc == nil {
			continue
		}
		for _, r := range sc.rows {
			e, ours := x.p.okFacturas[int64(r.FacturaID)]
			if !ours {
				continue
			}
			if r.AppID != nil && *r.AppID == x.o.Scope.AppID {
				confirmed = true
			} else {
				contradicted = true
			}
			if e.Key.Kind == KindVenta && r.fechaOK && r.fecha.Before(e.First.Add(-ClockSkew)) {
				f.date = false
			}
		}
	}
	if confirmed && !contradicted {
		f.appID = x.o.Scope.AppID
	}
	return f
}

// consistent reports whether export row r may be unknown sale s.
func consistent(s *sale, r *exportRow, f filters) bool {
	if f.date && r.fechaOK && r.fecha.Before(s.e.First.Add(-ClockSkew)) {
		return false
	}
	if !s.hasFacts {
		return true
	}
	if t := s.facts.Total; t != nil && t.Cents() != r.Total.Cents() {
		return false
	}
	if s.facts.EntidadID != 0 {
		// The export shows the customer entity's data, not what was sent.
		return true
	}
	return sameCustomer(s.facts, string(r.Email), string(r.DNI))
}

// sameCustomer: the ERP may match the sent customer to an existing one and
// show that one's data, so one identifier in common is enough, and a side
// without identifiers proves nothing. A CUIT sent may be what the ERP found
// the customer by, and that customer's own e-mail and document then show:
// with a CUIT sent, the customer decides nothing.
func sameCustomer(f SaleFacts, email, dni string) bool {
	if f.CUIT != "" {
		return true
	}
	known := false
	if a, b := normEmail(f.Email), normEmail(email); a != "" && b != "" {
		if a == b {
			return true
		}
		known = true
	}
	if a, b := digits(f.DNI), digits(dni); a != "" && b != "" {
		if a == b {
			return true
		}
		known = true
	}
	return !known
}

func normEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ventas reads the exports, confirms the candidates and decides every
// unknown sale.
func (x *executor) ventas(ctx context.Context) {
	p := x.p
	if len(p.sales) == 0 {
		return
	}
	scans := make([]*scanned, len(p.Scans))
	for i, sc := range p.Scans {
		if ctx.Err() != nil {
			break
		}
		scans[i] = x.scan(ctx, sc)
	}
	var f filters
	if p.o.Scope != nil {
		f = x.chooseFilters(scans)
	}
	cands := x.candidates(scans, f)
	byOrden := map[int64]*sale{}
	for _, s := range p.sales {
		byOrden[s.orden] = s
	}
	found := map[*sale][]*candidate{}
	for _, c := range cands {
		if ctx.Err() != nil {
			break
		}
		if !slices.ContainsFunc(c.sales, func(s *sale) bool { return len(found[s]) == 0 }) {
			continue // every sale it could be was found elsewhere
		}
		id := int64(c.row.FacturaID)
		r, comp, err := x.readComprobante(ctx, id)
		if !r.Read.IsZero() {
			x.mu.Lock()
			x.candReads++
			x.mu.Unlock()
		}
		if err != nil && !r.NotFound && x.stopped(ctx, err) {
			break
		}
		c.read = &r
		switch {
		case r.NotFound:
			c.ok = true // not the integration's: it is no sale of ours
		case err != nil:
			var we *nxapi.WireError
			if errors.As(err, &we) {
				// An answer of an unexpected type: reading it again
				// would bring the same; a person looks.
				c.why = readFailed(id, err)
			}
		case comp.ComprobanteTipo != nxapi.ComprobanteVenta:
			c.ok = true
		case comp.OrdenID == "":
			// No ordenId: not a sale /venta made (its ordenId is the key).
			c.ok = true
		default:
			// The vendor's wire writes ordenId as a string ("77003"); the
			// journal's key is the number sent: compared by value.
			orden, isNum := comp.OrdenID.Int()
			if !isNum {
				c.why = msg.New("rec.venta.ordenid", id, string(comp.OrdenID))
				break
			}
			c.ok = true
			if s := byOrden[orden]; s != nil {
				found[s] = append(found[s], c)
			} else if e, ok := p.okOrdenes[orden]; ok && e.FacturaID != id {
				x.warn(msg.New("rec.duplicate", id, orden, e.FacturaID))
			}
		}
	}
	for _, s := range p.sales {
		x.decideSale(ctx, s, scans, cands, found[s], f)
	}
}

// candidates lists, oldest first, the export rows that may be one of the
// unknown sales: a sale (not a credit note), not tied to an ok entry nor a
// presale of the journal, with the integration's appId when that check is
// in force, and consistent with at least one unknown sale whose reads
// include it.
func (x *executor) candidates(scans []*scanned, f filters) []*candidate {
	var out []*candidate
	seen := map[nxapi.ID]bool{}
	for i, sc := range scans {
		if sc == nil {
			continue
		}
		for _, r := range sc.rows {
			id := int64(r.FacturaID)
			_, ours := x.p.okFacturas[id]
			switch {
			case seen[r.FacturaID], ours, x.p.presales[id], r.ComprobanteTipo != nxapi.ComprobanteVenta,
				f.appID != 0 && (r.AppID == nil || *r.AppID != f.appID):
				continue
			}
			seen[r.FacturaID] = true
			c := &candidate{row: r, scan: i}
			for _, s := range x.p.sales {
				if slices.Contains(s.scans, i) && consistent(s, r, f) {
					c.sales = append(c.sales, s)
				}
			}
			if len(c.sales) > 0 {
				out = append(out, c)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *candidate) int {
		return cmp.Or(a.row.fecha.Compare(b.row.fecha), cmp.Compare(a.row.FacturaID, b.row.FacturaID))
	})
	return out
}

// decideSale settles one unknown sale: found (ok), or absent from complete
// evidence read late enough (failed), or left unknown with the reason.
func (x *executor) decideSale(ctx context.Context, s *sale, scans []*scanned, cands []*candidate, found []*candidate, f filters) {
	last := lastAttempt(s.e)
	settle := x.o.scaled(x.o.SettleAfter)
	ev := Evidence{Decided: x.o.Now(), LastAttempt: last, Filters: f.names(s.hasFacts)}
	if len(found) > 0 {
		slices.SortFunc(found, func(a, b *candidate) int { return cmp.Compare(a.row.FacturaID, b.row.FacturaID) })
		c := found[0]
		if len(found) > 1 {
			var ids []string
			for _, o := range found {
				ids = append(ids, strconv.FormatInt(int64(o.row.FacturaID), 10))
			}
			x.warn(msg.New("rec.twice", s.orden, strings.Join(ids, ", ")))
		}
		ev.Rule, ev.Comprobante, ev.Found = RuleFound, c.read, c.row.show()
		ev.Exports = []ScanRead{scans[c.scan].ScanRead}
		x.decide(Decision{Key: s.e.Key, Evidence: ev,
			Verdict: journal.Verdict{As: journal.OK, FacturaID: int64(c.row.FacturaID), Numero: c.read.Numero, PVNumero: c.read.PVNumero},
			Why: msg.New("rec.venta.ok", s.orden, int64(c.row.FacturaID), numeroFull(c.read.PVNumero, c.read.Numero),
				c.row.SucursalID, clock(c.read.Read))})
		return
	}
	if s.blocked.Key != "" {
		x.leave(s.e.Key, s.blocked, time.Time{})
		return
	}
	var started time.Time
	pages := 0
	var branches []string
	for _, i := range s.scans {
		sc := scans[i]
		switch {
		case sc == nil:
			x.leave(s.e.Key, x.stopReason(), time.Time{})
			return
		case !sc.Complete:
			x.leave(s.e.Key, msg.New("rec.venta.partial", sc.SucursalID, sc.Error), x.o.Now())
			return
		}
		ev.Exports = append(ev.Exports, sc.ScanRead)
		pages += len(sc.Pages)
		branches = append(branches, strconv.FormatInt(sc.SucursalID, 10))
		if started.IsZero() || sc.Started.Before(started) {
			started = sc.Started
		}
	}
	for _, c := range cands {
		if !slices.Contains(c.sales, s) {
			continue
		}
		if !c.ok {
			switch {
			case c.read == nil:
				x.leave(s.e.Key, x.stopReason(), time.Time{})
			case c.why.Key != "":
				x.leave(s.e.Key, msg.New("rec.venta.candidate.why", int64(c.row.FacturaID), c.why), time.Time{})
			default:
				x.leave(s.e.Key, msg.New("rec.venta.candidate", int64(c.row.FacturaID), c.read.Error), x.o.Now())
			}
			return
		}
		ev.Candidates = append(ev.Candidates, *c.read)
	}
	if ready := last.Add(settle); started.Before(ready) {
		// The export may not show the sale yet: its absence proves nothing.
		x.leave(s.e.Key, msg.New("rec.venta.wait", s.orden, duration(settle), clock(ready)), ready)
		return
	}
	ev.Rule, ev.SettleAfter = RuleAbsent, settle.String()
	period := s.from.Format("02/01/2006")
	if !s.to.Equal(s.from) {
		period += "–" + s.to.Format("02/01/2006")
	}
	x.decide(Decision{Key: s.e.Key, Evidence: ev, Verdict: journal.Verdict{As: journal.Failed},
		Why: msg.New("rec.venta.failed", s.orden, pages, strings.Join(slices.Compact(branches), ", "), period,
			clock(started), duration(started.Sub(last)), len(ev.Candidates))})
}

// finish sorts the result and totals the reads.
func (x *executor) finish() {
	r := &x.res
	slices.SortFunc(r.Decisions, func(a, b Decision) int { return compareKeys(a.Key, b.Key) })
	slices.SortFunc(r.Undecided, func(a, b Undecided) int { return compareKeys(a.Key, b.Key) })
	en, eRefused, eFirst, eLast, eWait := x.exports.stats()
	cn, cRefused, cFirst, cLast, cWait := x.comp.stats()
	r.Reads = Reads{Exports: en, Comprobantes: cn, Refused: eRefused + cRefused, Presales: x.presaleReads, Candidates: x.candReads}
	for _, t := range []time.Time{eFirst, cFirst} {
		if !t.IsZero() && (r.Reads.Started.IsZero() || t.Before(r.Reads.Started)) {
			r.Reads.Started = t
		}
	}
	r.Reads.Ended = eLast
	if cLast.After(eLast) {
		r.Reads.Ended = cLast
	}
	r.Reads.Floor = Floor(en-eRefused, x.presaleReads, x.candReads, x.o.window(sendrules.Exports),
		x.o.window(sendrules.Comprobante), eWait, cWait)
}

// compareKeys orders keys by kind, then business key as a number when both
// are numbers.
func compareKeys(a, b journal.Key) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	na, ea := strconv.ParseInt(a.Business, 10, 64)
	nb, eb := strconv.ParseInt(b.Business, 10, 64)
	if ea == nil && eb == nil {
		return cmp.Compare(na, nb)
	}
	return cmp.Compare(a.Business, b.Business)
}
