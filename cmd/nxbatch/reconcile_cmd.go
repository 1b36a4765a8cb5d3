package main

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules"
)

// reconcileCmd settles unknown journal entries from what the API shows
// (issue 10; package reconcile).
type reconcileCmd struct {
	connFlags
	stateFlags
	langFlag
	Since       string        `help:"Only unknown entries whose last attempt is at or after this: a duration back from now (24h) or a date (2026-11-20, 20/11/2026, RFC 3339)."`
	Kind        string        `help:"Only entries of this kind: venta, facturar or stock." enum:",venta,facturar,stock" default:""`
	DryRun      bool          `name:"dry-run" help:"Read and print the decisions without writing them to the journal."`
	SettleAfter time.Duration `name:"settle-after" help:"A sale absent from the sales export counts as not created only if the export was read at least this long after its last attempt (exports may lag behind)." default:"10m"`
	Store       string        `help:"listen's store directory: show what the local stock snapshot knows of the articles of unknown stock movements." type:"path"`
	CatalogTTL  time.Duration `name:"catalog-ttl" help:"Reuse a cached GET /config (branches enabled for exports) younger than this." default:"1h"`
}

// Run reads back what the API holds for every unknown entry, prints the
// plan and the decisions, and writes them with their evidence unless
// --dry-run. Exit: 0 everything settled, 3 some entries stay unknown, 4 a
// refused token, an interrupt or a journal failure.
func (c *reconcileCmd) Run(e *env) error {
	l := c.lang()
	since, err := parseSince(c.Since, time.Now())
	if err != nil {
		return usage("lst.since.bad", c.Since)
	}
	if c.SettleAfter < 0 {
		return usage("cli.settleafter")
	}
	var snap *listener.State
	if c.Store != "" {
		if snap, err = listener.Load(c.Store, listener.Options{Log: e.log}); err != nil {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.snapshot.read", c.Store), Err: err}}
		}
	}
	cn, err := connect(e, c.connFlags, sandboxFlags{}, c.stateFlags, journal.Options{}, l)
	if err != nil {
		return err
	}
	defer cn.Close()
	if stop, err := cn.journal.ServeListing(); err == nil {
		defer stop()
	}
	if err := cn.resolve(e.ctx, true); err != nil {
		return cn.resolveError(err)
	}
	// No facts of its own: what the journal kept with each sale's attempt
	// narrows the search (reconcile.JournalFacts).
	o := reconcile.Options{Since: since, SettleAfter: c.SettleAfter, Snapshot: snap, Timeout: c.Timeout}
	if c.Kind != "" {
		o.Kinds = []string{c.Kind}
	}
	_, err = reconcileOn(e, cn, o, c.CatalogTTL, c.DryRun, snap != nil, l)
	return err
}

// reconcileOn runs the three steps of package reconcile on cn's journal
// and API, printing the plan first, then each decision, what stays unknown
// and the reads against the windows' floor. It returns the result (nil when
// there was nothing to reconcile) and the command's exit.
func reconcileOn(e *env, cn *conn, o reconcile.Options, ttl time.Duration, dryRun, store bool, l msg.Lang) (*reconcile.Result, error) {
	o.Tenant, o.Env, o.Scale = cn.Tenant(), cn.env, cn.scale
	o.Waiting = func(w sendrules.Window, d time.Duration) {
		say(e.stderr, msg.New("rec.waiting", msg.Duration(d), string(w)).In(l))
	}
	p, err := reconcile.Prepare(cn.journal, o)
	if err == nil && len(p.Ventas()) > 0 {
		// Only sales need to know where to look, and learning it may cost
		// the parameter window: plan again once it is known. A sale whose
		// point of sale is known (the run's or the journal's facts) is
		// looked for in its branch only if /puntos-venta says which it is.
		pointOfSale := false
		for _, v := range p.Ventas() {
			if _, ok := reconcile.JournalFacts(v); ok {
				pointOfSale = true
			} else if o.Facts != nil {
				_, ok = o.Facts(v)
				pointOfSale = pointOfSale || ok
			}
		}
		scope, why, serr := reconcileScope(e, cn, ttl, pointOfSale, l)
		if serr != nil {
			return nil, serr
		}
		o.Scope, o.ScopeWhy = scope, why
		p, err = reconcile.Prepare(cn.journal, o)
	}
	if err != nil {
		return nil, &exitError{code: exitAborted, err: err}
	}
	if p.Empty() {
		say(e.stdout, msg.New("rec.none").In(l))
		return nil, nil
	}
	for _, m := range p.Messages() {
		say(e.stdout, m.In(l))
	}
	res := reconcile.Execute(e.ctx, cn.client, cn.journal, p)
	printReconcile(e, res, store, l)
	written := 0
	if !dryRun && !res.Unauthorized {
		printed := len(res.Warnings)
		written, err = reconcile.Commit(cn.journal, res)
		for _, w := range res.Warnings[printed:] {
			say(e.stderr, w.In(l))
		}
		if err != nil {
			return res, &exitError{code: exitAborted, err: err}
		}
	}
	ok, failed := 0, 0
	for _, d := range res.Decisions {
		if d.Verdict.As == journal.OK {
			ok++
		} else {
			failed++
		}
	}
	say(e.stdout, msg.New("rec.summary", len(res.Decisions), ok, failed, len(res.Undecided)+len(res.Stock)).In(l))
	switch {
	case dryRun:
		say(e.stdout, msg.New("rec.dryrun").In(l))
	case written > 0:
		say(e.stdout, msg.New("rec.written", written).In(l))
	}
	if r := res.Reads; r.Exports+r.Comprobantes > 0 {
		say(e.stdout, msg.New("rec.reads", r.Exports, r.Comprobantes, r.Refused,
			msg.Duration(r.Took()), msg.Duration(r.Floor)).In(l))
	}
	var retry time.Time
	later := 0
	for _, u := range res.Undecided {
		if !u.RetryAt.IsZero() {
			later++
			if u.RetryAt.After(retry) {
				retry = u.RetryAt
			}
		}
	}
	if later > 0 {
		say(e.stdout, msg.New("rec.retry", retry.Local().Format("02/01/2006 15:04:05"), later).In(l))
	}
	switch {
	case res.Unauthorized:
		return res, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.unauthorized")}}
	case res.Err != nil:
		return res, &exitError{code: exitAborted, err: res.Err}
	case res.Interrupted:
		return res, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.interrupted")}}
	case len(res.Undecided)+len(res.Stock) > 0:
		return res, &exitError{code: exitUnknown}
	}
	return res, nil
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
// it does not know is looked for in every branch). A 401 stops the
// command.
func reconcileScope(e *env, cn *conn, ttl time.Duration, pointOfSale bool, l msg.Lang) (*reconcile.Scope, msg.Message, error) {
	if cn.embedded != nil {
		cfg := cn.embedded.Server.Config()
		return reconcile.ScopeOf(&cfg, nil), msg.Message{}, nil
	}
	cache := cn.catalogs(ttl)
	snap, err := cache.Load()
	if err == nil && (snap.Config == nil || time.Since(snap.ConfigFetched) > ttl) {
		snap, err = pullParam(e, cn, cache, catalog.Config, ttl, l)
	}
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		return nil, msg.Message{}, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.unauthorized")}}
	case err != nil:
		return nil, msg.New("rec.noscope.because", msg.CauseOf(err)), nil
	case snap.Config == nil:
		return nil, msg.New("rec.noscope"), nil
	}
	if pointOfSale && len(snap.Config.SucursalesExportacion) > 1 &&
		(len(snap.PuntosVenta) == 0 || time.Since(snap.PuntosVentaFetched) > ttl) && worthAsking(cn, len(snap.Config.SucursalesExportacion)) {
		pvs, perr := pullParam(e, cn, cache, catalog.PuntosVenta, ttl, l)
		switch {
		case errors.Is(perr, apiclient.ErrUnauthorized):
			return nil, msg.Message{}, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.unauthorized")}}
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
func worthAsking(cn *conn, branches int) bool {
	next, err := cn.journal.NextAllowed(cn.client.CredentialHash(), catalog.WindowName)
	if err != nil {
		return false
	}
	return time.Until(next) <= time.Duration(branches-1)*cn.scaled(cn.env.Limit(sendrules.Exports))
}

// pullParam fetches one parameter catalog older than ttl into the cache,
// waiting for the shared parameter window (and saying so when the wait is
// long), and returns the cache's snapshot.
func pullParam(e *env, cn *conn, cache *catalog.Cache, name catalog.Name, ttl time.Duration, l msg.Lang) (catalog.Snapshot, error) {
	if next, nerr := cn.journal.NextAllowed(cn.client.CredentialHash(), catalog.WindowName); nerr == nil && time.Until(next) > time.Second {
		say(e.stderr, msg.New("rec.waiting", msg.Duration(time.Until(next)), catalog.WindowName).In(l))
	}
	snap, pulled, err := cache.Pull(e.ctx, catalog.PullOptions{Names: []catalog.Name{name}, MaxAge: ttl, Wait: true})
	for _, p := range pulled {
		if p.Status == catalog.Failed && err == nil {
			err = p.Err
		}
	}
	return snap, err
}

// printReconcile prints each decision, what stays unknown and why, the
// warnings, and the unknown stock movements with what the snapshot knows.
func printReconcile(e *env, res *reconcile.Result, store bool, l msg.Lang) {
	for _, d := range res.Decisions {
		say(e.stdout, msg.New("rec.decided", d.Key.String(), string(d.Verdict.As), d.Why).In(l))
	}
	for _, u := range res.Undecided {
		say(e.stdout, msg.New("rec.left", u.Key.String(), u.Why).In(l))
	}
	for _, w := range res.Warnings {
		say(e.stderr, w.In(l))
	}
	for _, s := range res.Stock {
		say(e.stdout, msg.New("rec.stock.head", s.Key.String(), s.LastAttempt.Local().Format("02/01/2006 15:04:05"),
			msg.Source(s.Source, l), s.Key.String()).In(l))
		for _, r := range s.Rows {
			if r.Unreadable {
				say(e.stdout, msg.New("rec.stock.unreadable", r.ID).In(l))
				continue
			}
			a := r.Articulo
			qty := "?"
			if a.Cantidad != nil {
				qty = a.Cantidad.String()
			}
			say(e.stdout, msg.New("rec.stock.row", msg.Source(r.Source, l), a.ArticuloID, a.ColorID, a.TalleID, qty).In(l))
			if !store {
				continue
			}
			if len(r.Snapshot) == 0 {
				say(e.stdout, msg.New("rec.stock.nosnap").In(l))
			}
			for _, sn := range r.Snapshot {
				when := msg.New("rec.stock.before")
				if sn.Actualizado.After(s.LastAttempt) {
					when = msg.New("rec.stock.after")
				}
				say(e.stdout, msg.New("rec.stock.snap", sn.DepositoID, sn.Unidades.String(),
					sn.Actualizado.Local().Format("02/01/2006 15:04:05"), when).In(l))
			}
		}
	}
	if len(res.Stock) > 0 && !store {
		say(e.stdout, msg.New("rec.stock.nostore").In(l))
	}
}

// reconcileAfterRun is run --reconcile: once a run has sent everything, it
// waits out the key hold of its last attempts and settles the unknowns
// (this run's and earlier runs') with what the run knows of its sales, and
// updates this run's rows: ok with the ids found, pending when the request
// was not created (the next run sends it). It returns the run's exit code
// raised for those pending rows, and an exit error when reconciliation was
// stopped (a refused token, an interrupt).
func reconcileAfterRun(e *env, cn *conn, files []*pipeline.File, ttl, timeout time.Duration, code int, l msg.Lang) (int, error) {
	// Every attempt of the run has answered by now: once the key hold has
	// passed, the API holds none of them, and all are older than the hold.
	hold := cn.scaled(sendrules.KeyHold)
	say(e.stderr, msg.New("rec.run.hold", msg.Duration(hold)).In(l))
	if err := sendrules.Sleep(e.ctx, hold); err != nil {
		return code, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.interrupted")}}
	}
	o := reconcile.Options{Timeout: timeout, Kinds: []string{reconcile.KindFacturar, reconcile.KindVenta},
		Facts: runFacts(files)}
	res, err := reconcileOn(e, cn, o, ttl, false, false, l)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitUnknown {
		err = nil // the rows say which stay unknown
	}
	if res == nil || res.Unauthorized {
		return code, err
	}
	verdicts := map[journal.Key]reconcile.Decision{}
	for _, d := range res.Decisions {
		verdicts[d.Key] = d
	}
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.Kind != schema.Venta && sh.Kind != schema.Facturar {
				continue
			}
			for _, r := range sh.Requests {
				d, ok := verdicts[journal.Key{Tenant: cn.Tenant(), Kind: string(sh.Kind), Business: r.Key}]
				if !ok || r.Status != pipeline.StatusUnknown {
					continue
				}
				if d.Verdict.As == journal.OK {
					r.Conclude(pipeline.StatusOK, msg.New("rec.row.ok", d.Why))
					res := r.Record()
					res.FacturaID, res.Numero, res.PVNumero = d.Verdict.FacturaID, d.Verdict.Numero, d.Verdict.PVNumero
				} else {
					// Not created: nothing of it is in the ERP, and the next
					// run sends it; a cron job's exit says so.
					r.Conclude(pipeline.StatusPending, msg.New("rec.row.failed", d.Why))
					code = max(code, exitRowProblems)
				}
			}
		}
	}
	return code, err
}

// runFacts tells what the run knows of its sales (total, customer and
// point of sale, from the bodies it built), for the body an entry's last
// attempt carried only: an unknown sale of an earlier run may have been
// edited in this run's file since, and facts of another body could hide
// its voucher. Where it knows nothing (a sale of an earlier run not in
// this run's files), reconcile uses what the journal kept with the entry.
func runFacts(files []*pipeline.File) func(journal.Entry) (reconcile.SaleFacts, bool) {
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
