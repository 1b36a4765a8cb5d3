package runner

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules"
)

// ReconcileProgress follows a reconciliation as it goes: what it plans
// before the reads, and the waits the API's windows impose.
type ReconcileProgress interface {
	// Holding is told, after a send, how long the key hold of its last
	// attempts is waited out before anything is read.
	Holding(d time.Duration)
	// Waiting is told before a wait for a window longer than a moment.
	Waiting(w sendrules.Window, d time.Duration)
	// Planned is told what will be read, before the first read.
	Planned(p *reconcile.Plan)
}

// ReconcileOptions configure Reconcile.
type ReconcileOptions struct {
	// Options are package reconcile's; the tenant, the environment and the
	// time scale are the Session's.
	reconcile.Options
	// CatalogTTL is how old a cached GET /config (the branches enabled for
	// exports) may be before it is fetched again.
	CatalogTTL time.Duration
	// DryRun reads and decides without writing the decisions.
	DryRun bool
	// Progress follows it; nil follows nothing.
	Progress ReconcileProgress
}

// Reconciled is what a reconciliation did.
type Reconciled struct {
	// Result is what was read and decided; nil when nothing was left to
	// reconcile.
	Result *reconcile.Result
	// Written is how many decisions went into the journal.
	Written int
	// Warned is how many of Result.Warnings were there before the
	// decisions were written: the rest came from writing them.
	Warned int
}

// ErrReconcileUnauthorized is a token refused while learning where the
// sales are: nothing was read.
var ErrReconcileUnauthorized = &msg.Error{Msg: msg.New("rec.unauthorized")}

// Reconcile is `nxbatch reconcile`: it plans what to read for every
// unknown entry of the tenant in j (learning first, for sales, which
// branches to look in: GET /config and /puntos-venta through the catalog
// cache), reads it back from the API within its windows, and writes the
// decisions with their evidence unless DryRun. The error is the journal's,
// or ErrReconcileUnauthorized; a 401 during the reads is in the Result.
func Reconcile(ctx context.Context, s *Session, j journal.Store, o ReconcileOptions) (Reconciled, error) {
	p := o.Progress
	if p == nil {
		p = quietReconcile{}
	}
	ro := o.Options
	ro.Tenant, ro.Env, ro.Scale = s.Tenant(), s.Env(), s.TimeScale()
	ro.Waiting = p.Waiting
	plan, err := reconcile.Prepare(ctx, j, ro)
	if err == nil && len(plan.Ventas()) > 0 {
		// Only sales need to know where to look, and learning it may cost
		// the parameter window: plan again once it is known. A sale whose
		// point of sale is known (the run's or the journal's facts) is
		// looked for in its branch only if /puntos-venta says which it is.
		pointOfSale := false
		for _, v := range plan.Ventas() {
			if _, ok := reconcile.JournalFacts(v); ok {
				pointOfSale = true
			} else if ro.Facts != nil {
				_, ok = ro.Facts(v)
				pointOfSale = pointOfSale || ok
			}
		}
		scope, why, serr := s.reconcileScope(ctx, j, o.CatalogTTL, pointOfSale, p)
		if serr != nil {
			return Reconciled{}, serr
		}
		ro.Scope, ro.ScopeWhy = scope, why
		plan, err = reconcile.Prepare(ctx, j, ro)
	}
	if err != nil {
		return Reconciled{}, err
	}
	if plan.Empty() {
		return Reconciled{}, nil
	}
	p.Planned(plan)
	res := reconcile.Execute(ctx, s.Client(), j, plan)
	out := Reconciled{Result: res, Warned: len(res.Warnings)}
	if !o.DryRun && !res.Unauthorized {
		out.Written, err = reconcile.Commit(ctx, j, res)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// ReconcileAfterSend is run --reconcile: once a send has sent everything,
// it waits out the key hold of its last attempts and settles the unknowns
// (this send's and earlier ones') with what the send knows of its sales
// (SendFacts), then concludes the files' unknown rows: ok with the ids
// found, pending when the request was not created (the next run sends it;
// notCreated counts them). A wait cut short returns ctx's error.
func ReconcileAfterSend(ctx context.Context, s *Session, j journal.Store, files []*pipeline.File, o ReconcileOptions) (rec Reconciled, notCreated int, err error) {
	if o.Progress == nil {
		o.Progress = quietReconcile{}
	}
	// Every attempt of the send has answered by now: once the key hold has
	// passed, the API holds none of them, and all are older than the hold.
	hold := s.Scaled(sendrules.KeyHold)
	o.Progress.Holding(hold)
	if err := sendrules.Sleep(ctx, hold); err != nil {
		return Reconciled{}, 0, err
	}
	o.Kinds = []string{reconcile.KindFacturar, reconcile.KindVenta, reconcile.KindPedido}
	o.Facts = SendFacts(files)
	rec, err = Reconcile(ctx, s, j, o)
	if rec.Result == nil || rec.Result.Unauthorized {
		return rec, 0, err
	}
	verdicts := map[journal.Key]reconcile.Decision{}
	for _, d := range rec.Result.Decisions {
		verdicts[d.Key] = d
	}
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.Kind != schema.Venta && sh.Kind != schema.Facturar && sh.Kind != schema.Pedido {
				continue
			}
			for _, r := range sh.Requests {
				d, ok := verdicts[journal.Key{Tenant: s.Tenant(), Kind: string(sh.Kind), Business: r.JournalKey()}]
				if !ok || r.Status != pipeline.StatusUnknown {
					continue
				}
				if d.Verdict.As == journal.OK {
					r.Conclude(pipeline.StatusOK, msg.New("rec.row.ok", d.Why))
					res := r.Record()
					res.FacturaID, res.Numero, res.PVNumero = d.Verdict.FacturaID, d.Verdict.Numero, d.Verdict.PVNumero
				} else {
					// Not created: nothing of it is in the ERP, and the next
					// run sends it.
					r.Conclude(pipeline.StatusPending, msg.New("rec.row.failed", d.Why))
					notCreated++
				}
			}
		}
	}
	return rec, notCreated, err
}

// SendFacts tells what a send knows of its sales (total, customer and
// point of sale, from the bodies it built), for the body an entry's last
// attempt carried only: an unknown sale of an earlier run may have been
// edited in this run's file since, and facts of another body could hide
// its voucher. Where it knows nothing (a sale of an earlier run not in
// these files), reconcile uses what the journal kept with the entry.
func SendFacts(files []*pipeline.File) func(journal.Entry) (reconcile.SaleFacts, bool) {
	type fact struct {
		facts    reconcile.SaleFacts
		bodyHash string
	}
	known := map[string]fact{}
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.Kind != schema.Venta {
				continue
			}
			for _, r := range sh.Requests {
				var v nxapi.Venta
				res := r.Result()
				if r.Key == "" || len(res.Body) == 0 || json.Unmarshal(res.Body, &v) != nil {
					continue
				}
				known[r.Key] = fact{facts: reconcile.FactsOf(&v), bodyHash: res.BodyHash}
			}
		}
	}
	return func(e journal.Entry) (reconcile.SaleFacts, bool) {
		f, ok := known[e.Key.Business]
		return f.facts, ok && e.Key.Kind == reconcile.KindVenta && f.bodyHash == e.BodyHash
	}
}

// reconcileScope learns where the integration's sales are: GET /config
// from the catalog cache (fetched when older than ttl, waiting for the
// parameter window) and /puntos-venta, the branch of each point of sale.
// A stale /config is not used: a branch enabled since would be missed, and
// a sale missed there declared not created. /puntos-venta is fetched the
// same way when pointOfSale (some sale's point of sale is known), more
// than one branch is enabled and the parameter window allows it sooner
// than the export reads it saves (worthAsking); otherwise, or when it
// cannot be read, the cached copy is used if there is one (a point of sale
// it does not know is looked for in every branch). A 401 stops it.
func (s *Session) reconcileScope(ctx context.Context, j journal.Windows, ttl time.Duration, pointOfSale bool, p ReconcileProgress) (*reconcile.Scope, msg.Message, error) {
	if sb := s.Sandbox(); sb != nil {
		cfg := sb.Server.Config()
		return reconcile.ScopeOf(&cfg, nil), msg.Message{}, nil
	}
	cache := s.Catalogs(j, ttl)
	snap, err := cache.Load()
	if err == nil && (snap.Config == nil || time.Since(snap.ConfigFetched) > ttl) {
		snap, err = s.pullParam(ctx, j, cache, catalog.Config, ttl, p)
	}
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		return nil, msg.Message{}, ErrReconcileUnauthorized
	case err != nil:
		return nil, msg.New("rec.noscope.because", msg.CauseOf(err)), nil
	case snap.Config == nil:
		return nil, msg.New("rec.noscope"), nil
	}
	if pointOfSale && len(snap.Config.SucursalesExportacion) > 1 &&
		(len(snap.PuntosVenta) == 0 || time.Since(snap.PuntosVentaFetched) > ttl) && s.worthAsking(ctx, j, len(snap.Config.SucursalesExportacion)) {
		pvs, perr := s.pullParam(ctx, j, cache, catalog.PuntosVenta, ttl, p)
		switch {
		case errors.Is(perr, apiclient.ErrUnauthorized):
			return nil, msg.Message{}, ErrReconcileUnauthorized
		case perr == nil:
			snap.PuntosVenta, snap.PuntosVentaFetched = pvs.PuntosVenta, pvs.PuntosVentaFetched
		}
	}
	sc := reconcile.ScopeOf(snap.Config, snap.PuntosVenta)
	if len(snap.PuntosVenta) > 0 {
		// The map of points of sale to branches is as old as the older of
		// the two answers it comes from.
		sc.MappedAt = snap.PuntosVentaFetched
		if snap.ConfigFetched.Before(sc.MappedAt) {
			sc.MappedAt = snap.ConfigFetched
		}
	}
	return sc, msg.Message{}, nil
}

// worthAsking says whether /puntos-venta is worth its read: the parameter
// window (shared with /config, 60 s) opens no later than the export reads
// it may save take (one export window per other enabled branch, 30 s
// each). Right after /config was fetched it does not with two branches, and
// every branch is read instead; a run's --reconcile, or a second
// reconciliation, finds the window open.
func (s *Session) worthAsking(ctx context.Context, j journal.Windows, branches int) bool {
	next, err := j.NextAllowed(ctx, s.client.CredentialHash(), catalog.WindowName)
	if err != nil {
		return false
	}
	return time.Until(next) <= time.Duration(branches-1)*s.Scaled(s.cfg.Env.Limit(sendrules.Exports))
}

// pullParam fetches one parameter catalog older than ttl into the cache,
// waiting for the shared parameter window (and saying so when the wait is
// long), and returns the cache's snapshot.
func (s *Session) pullParam(ctx context.Context, j journal.Windows, cache *catalog.Cache, name catalog.Name, ttl time.Duration, p ReconcileProgress) (catalog.Snapshot, error) {
	if next, nerr := j.NextAllowed(ctx, s.client.CredentialHash(), catalog.WindowName); nerr == nil && time.Until(next) > time.Second {
		p.Waiting(sendrules.Params, time.Until(next))
	}
	snap, pulled, err := cache.Pull(ctx, catalog.PullOptions{Names: []catalog.Name{name}, MaxAge: ttl, Wait: true})
	for _, pl := range pulled {
		if pl.Status == catalog.Failed && err == nil {
			err = pl.Err
		}
	}
	return snap, err
}

// quietReconcile follows nothing.
type quietReconcile struct{}

func (quietReconcile) Holding(time.Duration)                   {}
func (quietReconcile) Waiting(sendrules.Window, time.Duration) {}
func (quietReconcile) Planned(*reconcile.Plan)                 {}
