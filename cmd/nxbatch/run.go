package main

import (
	"context"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/runner"
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
	Workers         int           `help:"Concurrent venta/facturar requests." default:"4"`
	Rate            float64       `help:"Venta/facturar requests per second (0: no limit beyond --workers)." default:"20"`
	RetryUnknown    bool          `help:"Send again requests whose outcome is unknown (only after checking the ERP: this may create a duplicate)."`
	RetryRejected   bool          `help:"Send again requests the API rejected in an earlier run even though they did not change (by default they are not: they would be rejected again)."`
	MaxErrors       int           `help:"Stop after this many rejected requests in a row (0: never)." default:"50"`
	CatalogTTL      time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
	Reconcile       bool          `help:"At the end of the run, settle unknown outcomes older than the key hold from what the API shows, as nxbatch reconcile does."`
	Tipos           string        `help:"Movement types an inventory count's differences become: stock (INGRESO_STOCK/EGRESO_STOCK) or manual (INGRESO_MANUAL/EGRESO_MANUAL)." enum:"stock,manual" default:"stock"`
	FaltantesEnCero bool          `name:"faltantes-en-cero" help:"In an inventory count, count as 0 every variant with stock in a counted warehouse that the file does not list."`
}

// Run validates, submits and reports (runner.Send). Whatever stops it (a
// refused token, an API that cannot be reached, an interrupt), every file
// gets its reports: the rows not sent are pending and the summary says why.
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
	var stopErr error
	prog := &runProgress{e: e, l: l}
	sent := runner.Send(e.ctx, cn.Session, cn.journal, runner.SendOptions{
		Paths: c.Files, Load: lo,
		LoadFailed: func(path string, err error) {
			reportLoadError(e, path, err, l)
			code = exitUsage
		},
		Submit: pipeline.SubmitOptions{Workers: c.Workers, Rate: c.Rate, Timeout: c.Timeout, RetryUnknown: c.RetryUnknown, RetryRejected: c.RetryRejected,
			MaxErrors: c.MaxErrors, Log: e.log, Lang: l},
		CatalogTTL: c.CatalogTTL, WaitTenant: true, ReportUnstarted: true,
		Report: pipeline.ReportOptions{Dir: c.ReportDir, Lang: l, Command: "run", Tool: "nxbatch " + version,
			Started: started, NoXLSX: c.NoXLSX},
		Names: func(files []*pipeline.File) map[string]pipeline.ReportName {
			return reportNames(e, files, c.ReportDir, l)
		},
		AfterSubmit: func(_ context.Context, sent *runner.Sent) {
			prog.finish()
			switch {
			case sent.Err != nil:
				stopErr = &exitError{code: exitAborted, err: sent.Err}
			case sent.Stopped():
				stopErr = &exitError{code: exitAborted, err: &msg.Error{Msg: sent.Said}}
			case sent.MaxErrors:
				say(e.stderr, sent.Said.In(l))
			}
			// --reconcile (issue 10): only after a run that was not stopped.
			if c.Reconcile && stopErr == nil {
				code, stopErr = reconcileAfterRun(e, cn, sent.Files, c.CatalogTTL, c.Timeout, code, l)
			} else if c.Reconcile {
				say(e.stderr, msg.New("rec.run.skipped").In(l))
			}
		},
		Progress: prog, Count: c.countOptions()})

	var se *runner.StartError
	if errors.As(sent.NotStarted, &se) {
		switch se.Step {
		case runner.StepJournal:
			return &exitError{code: exitAborted, err: se.Err}
		case runner.StepLease:
			stopErr = leaseError(se.Err)
			if errors.Is(se.Err, journal.ErrLocked) {
				// Another run has this tenant: no reports were written.
				return stopErr
			}
		default:
			stopErr = cn.resolveError(se.Err)
		}
	}
	if sent.Stopped() && stopErr == nil {
		// The token was refused reading the catalogs: nothing was sent.
		stopErr = &exitError{code: exitAborted, err: &msg.Error{Msg: sent.Said}}
	}
	return finishRun(e, sent, stopErr, code, l)
}

// runProgress is the command line's view of a send: notes on stderr, each
// file's plan, the requests to send and the least time, and the bar.
type runProgress struct {
	e   *env
	l   msg.Lang
	bar *progress
}

// Note says m on stderr.
func (p *runProgress) Note(m msg.Message) { say(p.e.stderr, m.In(p.l)) }

// Validated prints the file's warnings and plan.
func (p *runProgress) Validated(f *pipeline.File) { printPlan(p.e, f, p.l) }

// Planned says how many requests will be sent and in how long at least,
// and starts the bar.
func (p *runProgress) Planned(toSend int, least time.Duration) {
	say(p.e.stdout, msg.New("plan.tosend", msg.Count("n.requests", toSend), msg.Duration(least.Round(time.Second))).In(p.l))
	p.bar = newProgress(p.e, toSend, p.l)
}

// Settled moves the bar.
func (p *runProgress) Settled(done int, _ pipeline.Settled) { p.bar.update(done) }

// finish ends the bar, when there is one.
func (p *runProgress) finish() {
	if p.bar != nil {
		p.bar.finish()
	}
}

// finishRun prints every file's summary and returns the run's exit:
// stopErr when the run stopped, else the worst of the rows' outcomes.
func finishRun(e *env, sent runner.Sent, stopErr error, code int, l msg.Lang) error {
	for _, w := range sent.Written {
		rows, f, paths := w.Rows, w.File, w.Paths
		printFileSummary(e, f.Path, rows, paths, l)
		// A row the API rejected in an earlier run, unchanged and not sent
		// again, is no new problem: a nightly cron job that meets it again
		// exits 0 (the reports still list it).
		before := f.RejectedBefore()
		if before > 0 {
			say(e.stdout, msg.Count("run.rejectedbefore", before).In(l))
		}
		switch {
		case rows[pipeline.StatusUnknown] > 0:
			code = max(code, exitUnknown)
		case rows[pipeline.StatusInvalid]+rows[pipeline.StatusRejected]+rows[pipeline.StatusConflict]-before > 0:
			code = max(code, exitRowProblems)
		}
	}
	if err := sent.ReportErr; err != nil {
		// The other files' reports are written and summed up above.
		var re *runner.ReportError
		path := ""
		if errors.As(err, &re) {
			path, err = re.Path, re.Err
		}
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("cli.reports.failed", path, msg.CauseText(err, l)), Err: err}}
	}
	if stopErr != nil {
		return stopErr
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// countOptions are the inventory count's flags.
func (c *runCmd) countOptions() runner.CountOptions {
	o := runner.CountOptions{MissingAsZero: c.FaltantesEnCero}
	if c.Tipos == "manual" {
		o.Tipos = inventario.TiposManual
	}
	return o
}
