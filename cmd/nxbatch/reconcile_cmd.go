package main

import (
	"context"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/sendrules"
)

// reconcileCmd settles unknown journal entries from what the API shows
// (issue 10; package reconcile).
type reconcileCmd struct {
	connFlags
	stateFlags
	langFlag
	Since       string        `help:"Only unknown entries whose last attempt is at or after this: a duration back from now (24h) or a date (2026-11-20, 20/11/2026, RFC 3339)."`
	Kind        string        `help:"Only entries of this kind: venta, facturar, stock, pedido or cancelar." enum:",venta,facturar,stock,pedido,cancelar" default:""`
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

// reconcileOn runs runner.Reconcile on cn's journal and API, printing the
// plan first, then each decision, what stays unknown and the reads against
// the windows' floor. It returns the result (nil when there was nothing to
// reconcile) and the command's exit.
func reconcileOn(e *env, cn *conn, o reconcile.Options, ttl time.Duration, dryRun, store bool, l msg.Lang) (*reconcile.Result, error) {
	rec, err := runner.Reconcile(e.ctx, cn.Session, cn.journal, runner.ReconcileOptions{Options: o, CatalogTTL: ttl, DryRun: dryRun,
		Progress: reconcilePrinter{e: e, l: l}})
	return reportReconcile(e, rec, err, dryRun, store, l)
}

// reconcilePrinter prints a reconciliation's plan and waits as they come.
type reconcilePrinter struct {
	e *env
	l msg.Lang
}

// Holding says the key hold is waited out.
func (p reconcilePrinter) Holding(d time.Duration) {
	say(p.e.stderr, msg.New("rec.run.hold", msg.Duration(d)).In(p.l))
}

// Waiting says a window is waited for.
func (p reconcilePrinter) Waiting(w sendrules.Window, d time.Duration) {
	say(p.e.stderr, msg.New("rec.waiting", msg.Duration(d), string(w)).In(p.l))
}

// Planned prints what will be read.
func (p reconcilePrinter) Planned(plan *reconcile.Plan) {
	for _, m := range plan.Messages() {
		say(p.e.stdout, m.In(p.l))
	}
}

// reportReconcile prints what a reconciliation decided, what stays unknown
// and the reads against the windows' floor, and returns its result and the
// command's exit: 0 everything settled, 3 some entries stay unknown, 4 a
// refused token, an interrupt or a journal failure.
func reportReconcile(e *env, rec runner.Reconciled, err error, dryRun, store bool, l msg.Lang) (*reconcile.Result, error) {
	res := rec.Result
	if res == nil {
		if err != nil {
			return nil, &exitError{code: exitAborted, err: err}
		}
		say(e.stdout, msg.New("rec.none").In(l))
		return nil, nil
	}
	// The warnings of writing the decisions come after them.
	committed := res.Warnings[rec.Warned:]
	res.Warnings = res.Warnings[:rec.Warned]
	printReconcile(e, res, store, l)
	res.Warnings = append(res.Warnings, committed...)
	for _, w := range committed {
		say(e.stderr, w.In(l))
	}
	if err != nil {
		return res, &exitError{code: exitAborted, err: err}
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
	case rec.Written > 0:
		say(e.stdout, msg.New("rec.written", rec.Written).In(l))
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

// reconcileAfterRun is run --reconcile (runner.ReconcileAfterSend): it
// prints what the reconciliation did and returns the run's exit code
// raised for the rows found not created (pending: the next run sends
// them), and an exit error when reconciliation was stopped (a refused
// token, an interrupt).
func reconcileAfterRun(e *env, cn *conn, files []*pipeline.File, ttl, timeout time.Duration, code int, l msg.Lang) (int, error) {
	rec, notCreated, err := runner.ReconcileAfterSend(e.ctx, cn.Session, cn.journal, files, runner.ReconcileOptions{
		Options: reconcile.Options{Timeout: timeout}, CatalogTTL: ttl, Progress: reconcilePrinter{e: e, l: l}})
	if rec.Result == nil && errors.Is(err, context.Canceled) {
		return code, &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("rec.interrupted")}}
	}
	_, err = reportReconcile(e, rec, err, false, false, l)
	var ee *exitError
	if errors.As(err, &ee) && ee.code == exitUnknown {
		err = nil // the rows say which stay unknown
	}
	if notCreated > 0 {
		// Not created: the next run sends them; a cron job's exit says so.
		code = max(code, exitRowProblems)
	}
	return code, err
}
