package main

import (
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// connFlags say which API to talk to. The token is never a flag value: it
// comes from NX_TOKEN or an owner-only --token-file.
type connFlags struct {
	TokenFile string        `help:"File holding the integration token (readable by its owner only). Default: the NX_TOKEN environment variable." type:"path"`
	BaseURL   string        `name:"base-url" help:"API base URL." env:"NX_BASE_URL"`
	Timeout   time.Duration `help:"Timeout of one whole request." default:"30s"`
	Env       string        `help:"API environment whose windows apply: production or test." enum:"production,test" default:"production"`
	TimeScale float64       `help:"Multiply every API window and wait by this factor (tests against a sandbox started with the same factor)." default:"1"`
	// AllowInsecureHTTP lets a secret (the token, a webhook's shared
	// secret) go over plain http to another host.
	AllowInsecureHTTP bool `name:"allow-insecure-http" help:"Let a secret (the token; with webhooks set, the shared secret) travel over plain http:// to a host that is not this machine (refused otherwise)."`
	// Tenant names the tenant a token belongs to, when only the user knows.
	Tenant string `help:"Name of the tenant this token belongs to: an existing tenant's name records a new token for it (a rotation), a new name starts a tenant of its own. Needed only when nxbatch cannot tell (it says so); see journal tenants." env:"NXBATCH_TENANT"`
}

type runCmd struct {
	inputFlags
	connFlags
	sandboxFlags
	stateFlags
	Workers       int           `help:"Concurrent venta/facturar requests." default:"4"`
	Rate          float64       `help:"Venta/facturar requests per second (0: no limit beyond --workers)." default:"20"`
	RetryUnknown  bool          `help:"Send again requests whose outcome is unknown (only after checking the ERP: this may create a duplicate)."`
	RetryRejected bool          `help:"Send again requests the API rejected in an earlier run even though they did not change (by default they are not: they would be rejected again)."`
	MaxErrors     int           `help:"Stop after this many rejected requests in a row (0: never)." default:"50"`
	CatalogTTL    time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
	Reconcile     bool          `help:"At the end of the run, settle unknown outcomes older than the key hold from what the API shows, as nxbatch reconcile does."`
}

// Run validates, submits and reports. Whatever stops it (a refused token,
// an API that cannot be reached, an interrupt), every file gets its
// reports: the rows not sent are pending and the summary says why.
func (c *runCmd) Run(e *env) error {
	started := time.Now()
	lo, err := c.loadOptions(e, c.stateFlags)
	if err != nil {
		return err
	}
	if c.Workers < 1 {
		return usage("cli.workers")
	}
	l := c.lang()
	cn, err := connect(e, c.connFlags, c.sandboxFlags, c.stateFlags, journal.Options{RetryUnknown: c.RetryUnknown}, l)
	if err != nil {
		return err
	}
	defer cn.Close()
	if stop, err := cn.journal.ServeListing(); err == nil {
		defer stop()
	}

	code := exitOK
	var files []*pipeline.File
	for _, path := range c.Files {
		f, err := pipeline.Load(path, lo)
		if err != nil {
			reportLoadError(e, path, err, l)
			code = exitUsage
			continue
		}
		files = append(files, f)
	}
	need := runner.Need(files)
	rep := reporter{e: e, c: c, l: l, started: started}

	err = cn.resolve(e.ctx, true)
	rep.api = cn.api()
	if err != nil {
		if errors.Is(err, journal.ErrLocked) {
			// Another run has this tenant: its reports are not ours to
			// overwrite (as when a bbolt journal is locked at the start).
			return cn.resolveError(err)
		}
		// Without knowing the tenant the journal cannot be asked what was
		// sent: nothing is sent, and the reports say why.
		stopErr := cn.resolveError(err)
		for _, f := range files {
			f.Validate(nil, false)
		}
		return rep.stopped(files, stopReason(err, cn), stopErr, code)
	}

	cache := cn.catalogs(c.CatalogTTL)
	// A catalog never fetched for this tenant is waited for, not skipped:
	// without it ids nobody checked would be sent (validate skips it).
	cache.WaitMissing = func(n catalog.Name, next time.Time) {
		say(e.stderr, msg.New("run.catalogwait", string(n), msg.Duration(time.Until(next)), next.Format("15:04:05")).In(l))
	}
	cat, notes, err := cache.Get(e.ctx, need)
	for _, n := range notes {
		say(e.stderr, n.In(l))
	}
	cn.observe()
	if errors.Is(err, apiclient.ErrUnauthorized) {
		for _, f := range files {
			f.Validate(nil, false)
		}
		return rep.stopped(files, msg.New("sub.unauthorized"), &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("sub.unauthorized")}}, code)
	}
	if err != nil {
		cat = &validation.Catalog{}
		say(e.stderr, msg.New("cmd.nocatalog", err.Error()).In(l))
	}
	pacing := pipeline.Pacing{Rate: c.Rate, StockWindow: cn.scaled(cn.env.Limit(sendrules.Stock))}
	for _, f := range files {
		f.Validate(cat, true)
		printPlan(e, f, l)
	}
	so := pipeline.SubmitOptions{Tenant: cn.tenant, Workers: c.Workers, Rate: c.Rate, Env: cn.env, TimeScale: c.TimeScale,
		Timeout: c.Timeout, RetryUnknown: c.RetryUnknown, RetryRejected: c.RetryRejected, MaxErrors: c.MaxErrors, Log: e.log, Lang: l,
		Facts: reconcile.IntentFacts}
	var prog *progress
	res, err := runner.Send(e.ctx, files, cn.client, cn.journal, runner.Options{Submit: so, Pacing: pacing,
		BaseURL: cn.client.BaseURL(), Planned: func(toSend int, least time.Duration) func(int) {
			say(e.stdout, msg.New("plan.tosend", msg.Count("n.requests", toSend), msg.Duration(least.Round(time.Second))).In(l))
			prog = newProgress(e, toSend, l)
			return prog.update
		}})
	if err != nil {
		return &exitError{code: exitAborted, err: err}
	}
	prog.finish()

	why := res.Why
	var stopErr error
	switch {
	case res.Err != nil:
		stopErr = &exitError{code: exitAborted, err: res.Err}
	case res.Stopped():
		stopErr = &exitError{code: exitAborted, err: &msg.Error{Msg: res.Said}}
	case res.MaxErrors:
		say(e.stderr, res.Said.In(l))
	}
	// --reconcile (issue 10): only after a run that was not stopped.
	if c.Reconcile && stopErr == nil {
		code, stopErr = reconcileAfterRun(e, cn, files, c.CatalogTTL, c.Timeout, code, l)
	} else if c.Reconcile {
		say(e.stderr, msg.New("rec.run.skipped").In(l))
	}
	return rep.stopped(files, why, stopErr, code)
}

// stopReason is what the rows left unsent say when the tenant could not be
// learned.
func stopReason(err error, cn *conn) msg.Message {
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return msg.New("sub.unauthorized")
	}
	if m, ok := tenantRefusal(err); ok {
		return m
	}
	return msg.New("sub.unreachable", cn.client.BaseURL(), msg.CauseOf(err))
}

// reporter writes a run's reports and chooses its exit code.
type reporter struct {
	e       *env
	c       *runCmd
	l       msg.Lang
	started time.Time
	api     *writers.API
}

// stopped marks what was not sent as pending (why says why, when the run
// stopped early), writes every file's reports and returns the run's exit:
// stopErr when the run stopped, else the worst of the rows' outcomes.
func (r reporter) stopped(files []*pipeline.File, why msg.Message, stopErr error, code int) error {
	written, err := runner.Report(files, why, runner.ReportOptions{Names: reportNames(r.e, files, r.c.ReportDir, r.l),
		ReportOptions: pipeline.ReportOptions{Dir: r.c.ReportDir, Lang: r.l, Command: "run",
			Tool: "nxbatch " + version, Started: r.started, NoXLSX: r.c.NoXLSX, API: r.api}})
	for _, w := range written {
		rows, f, paths := w.Rows, w.File, w.Paths
		printFileSummary(r.e, f.Path, rows, paths, r.l)
		// A row the API rejected in an earlier run, unchanged and not sent
		// again, is no new problem: a nightly cron job that meets it again
		// exits 0 (the reports still list it).
		before := f.RejectedBefore()
		if before > 0 {
			say(r.e.stdout, msg.Count("run.rejectedbefore", before).In(r.l))
		}
		switch {
		case rows[pipeline.StatusUnknown] > 0:
			code = max(code, exitUnknown)
		case rows[pipeline.StatusInvalid]+rows[pipeline.StatusRejected]+rows[pipeline.StatusConflict]-before > 0:
			code = max(code, exitRowProblems)
		}
	}
	if err != nil {
		// The other files' reports are written and summed up above.
		var re *runner.ReportError
		path := ""
		if errors.As(err, &re) {
			path, err = re.Path, re.Err
		}
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("cli.reports.failed", path, msg.CauseText(err, r.l)), Err: err}}
	}
	if stopErr != nil {
		return stopErr
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}
