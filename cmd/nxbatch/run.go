package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/writers"
)

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
	sandboxFlags
	stateFlags
	Workers      int           `help:"Concurrent venta/facturar requests." default:"4"`
	Rate         float64       `help:"Venta/facturar requests per second (0: no limit beyond --workers)." default:"20"`
	RetryUnknown bool          `help:"Send again requests whose outcome is unknown (only after checking the ERP: this may create a duplicate)."`
	MaxErrors    int           `help:"Stop after this many rejected requests in a row (0: never)." default:"50"`
	CatalogTTL   time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
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
	l := c.lang()
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) * c.TimeScale) }

	cn, err := connect(e, c.connFlags, c.sandboxFlags, c.stateFlags,
		journal.Options{KeyHold: scale(keyHold), RetryUnknown: c.RetryUnknown}, l)
	if err != nil {
		return err
	}
	defer cn.Close()
	client, tenant, jr := cn.client, cn.tenant, cn.journal

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
	cat, notes, err := cn.catalogs(c.CatalogTTL).Get(e.ctx, need)
	for _, n := range notes {
		fmt.Fprintln(e.stderr, n.In(l))
	}
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return &exitError{code: exitAborted, err: errors.New(msg.New("sub.unauthorized").In(l))}
	}
	if err != nil {
		return usageErr("catalogs: %v", err)
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
			Tool: "nxbatch " + version, Started: started, NoXLSX: c.NoXLSX})
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
