package main

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/writers"
)

// embeddedSandboxURL names the in-process sandbox's tenant in the journal.
const embeddedSandboxURL = "http://sandbox.embedded"

// API windows (API spec section 8), before --time-scale.
const (
	stockWindow = 3 * time.Second
	keyHold     = 30 * time.Second
)

// connFlags say which API to talk to. The token is never a flag value: it
// comes from NX_TOKEN or an owner-only --token-file.
type connFlags struct {
	TokenFile string        `help:"File holding the integration token (readable by its owner only). Default: the NX_TOKEN environment variable." type:"path"`
	BaseURL   string        `name:"base-url" help:"API base URL." env:"NX_BASE_URL"`
	Timeout   time.Duration `help:"Timeout of one whole request." default:"30s"`
	Env       string        `help:"API environment whose windows apply: production or test." enum:"production,test" default:"production"`
	TimeScale float64       `help:"Multiply every API window and wait by this factor (tests against a sandbox started with the same factor)." default:"1"`
}

type runCmd struct {
	inputFlags
	connFlags
	Sandbox      bool          `help:"Run against an embedded API sandbox started in-process with the demo data (no token needed)."`
	Journal      string        `help:"Journal file (exactly-once record of every request)." default:".nxbatch/journal" type:"path"`
	Wait         time.Duration `help:"How long to wait for another nxbatch run that holds the journal (0: exit at once)." default:"0s"`
	Workers      int           `help:"Concurrent venta/facturar requests." default:"4"`
	Rate         float64       `help:"Venta/facturar requests per second (0: no limit beyond --workers)." default:"20"`
	RetryUnknown bool          `help:"Send again requests whose outcome is unknown (only after checking the ERP: this may create a duplicate)."`
	MaxErrors    int           `help:"Stop after this many rejected requests in a row (0: never)." default:"50"`
	CatalogTTL   time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
	faultFlags   `prefix:"sandbox-" group:"sandbox faults (with --sandbox)"`
}

// Run validates, submits and reports.
func (c *runCmd) Run(e *env) error {
	started := time.Now()
	lo, err := c.loadOptions()
	if err != nil {
		return err
	}
	if c.Workers < 1 {
		return usageErr("--workers must be at least 1")
	}
	if c.TimeScale <= 0 {
		return usageErr("--time-scale must be positive")
	}
	l := c.lang()
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) * c.TimeScale) }

	baseURL, token := c.BaseURL, apiclient.Token{}
	if c.Sandbox {
		o := sandbox.Options{Env: c.Env, TimeScale: c.TimeScale, Logger: e.log.With(slog.String("component", "sandbox"))}
		c.faultFlags.apply(&o)
		srv, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
		if err != nil {
			return usageErr("start the sandbox: %v", err)
		}
		defer srv.Close()
		baseURL, token = srv.URL, apiclient.NewToken(sandbox.DefaultToken)
		fmt.Fprintln(e.stdout, msg.New("run.sandbox", srv.URL).In(l))
	} else {
		if baseURL == "" {
			return usageErr("set NX_BASE_URL (or --base-url) to the API's base URL, or use --sandbox")
		}
		token, err = apiclient.LoadToken(c.TokenFile)
		if err != nil {
			return usageErr("%v", err)
		}
	}
	client, err := apiclient.New(apiclient.Options{BaseURL: baseURL, Token: token, Timeout: c.Timeout,
		UserAgent: "nxbatch/" + version})
	if err != nil {
		return usageErr("%v", err)
	}
	tenant := apiclient.TenantHash(client.BaseURL(), token)
	if c.Sandbox {
		// The embedded sandbox listens on a new port each run; its journal
		// entries must still be one tenant, so that a rerun skips.
		tenant = apiclient.TenantHash(embeddedSandboxURL, token)
	}

	jr, err := journal.Open(c.Journal, journal.Options{LockTimeout: c.Wait, KeyHold: scale(keyHold), RetryUnknown: c.RetryUnknown})
	if err != nil {
		if errors.Is(err, journal.ErrLocked) {
			return &exitError{code: exitAborted, err: err}
		}
		return usageErr("open journal: %v", err)
	}
	defer jr.Close()

	code := exitOK
	var files []*pipeline.File
	need := catalog.Need{}
	for _, path := range c.Files {
		f, err := pipeline.Load(path, lo)
		if err != nil {
			reportLoadError(e, path, err, l)
			code = exitUsage
			continue
		}
		for _, sh := range f.Sheets {
			if sh.Kind == schema.Stock {
				need.Motivos = true
			} else {
				need.MediosPago = true
			}
		}
		files = append(files, f)
	}
	cache := &catalog.Cache{Dir: filepath.Join(filepath.Dir(c.Journal), "catalogs"), Tenant: tenant,
		TTL: c.CatalogTTL, Window: scale(catalog.ParamWindow), Fetch: client, Windows: jr}
	cat, notes, err := cache.Get(e.ctx, need)
	if err != nil {
		return usageErr("catalogs: %v", err)
	}
	for _, n := range notes {
		fmt.Fprintln(e.stderr, n.In(l))
	}
	pacing := pipeline.Pacing{Rate: c.Rate, StockWindow: scale(stockWindow)}
	for _, f := range files {
		f.Validate(cat, true)
		printPlan(e, f, l)
	}
	so := pipeline.SubmitOptions{Tenant: tenant, Workers: c.Workers, Rate: c.Rate, StockWindow: scale(stockWindow),
		RetryUnknown: c.RetryUnknown, MaxErrors: c.MaxErrors, TimeScale: c.TimeScale, Log: e.log}
	toSend, err := pipeline.Prepare(files, jr, so)
	if err != nil {
		return &exitError{code: exitAborted, err: err}
	}
	fmt.Fprintln(e.stdout, msg.New("plan.tosend", toSend, pipeline.RunLeastTime(files, pacing).Round(time.Second).String()).In(l))
	prog := newProgress(e, toSend)
	so.Progress = prog.update
	res := pipeline.Submit(e.ctx, files, client, jr, so)
	prog.finish()

	for _, f := range files {
		f.MarkPending()
		paths, err := f.WriteReports(pipeline.ReportOptions{Dir: c.ReportDir, Lang: l, Command: "run",
			Tool: "nxbatch " + version, Started: started, RequestsSent: res.Sent, NoXLSX: c.NoXLSX})
		if err != nil {
			return &exitError{code: exitAborted, err: fmt.Errorf("write reports of %s: %w", f.Path, err)}
		}
		rows, _ := f.Counts()
		printFileSummary(e, f.Path, rows, paths, l)
		switch {
		case rows[writers.StatusUnknown] > 0:
			code = max(code, exitUnknown)
		case rows[writers.StatusInvalid]+rows[writers.StatusRejected]+rows[writers.StatusConflict] > 0:
			code = max(code, exitRowProblems)
		}
	}
	switch {
	case res.Err != nil:
		return &exitError{code: exitAborted, err: res.Err}
	case res.Aborted:
		return &exitError{code: exitAborted, err: errors.New(msg.New("sub.unauthorized").In(l))}
	case res.Interrupted:
		return &exitError{code: exitAborted, err: errors.New(msg.New("run.interrupted").In(l))}
	case res.MaxErrors:
		fmt.Fprintln(e.stderr, msg.New("run.maxerrors", c.MaxErrors).In(l))
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}
