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
	"github.com/nxbatch/nxbatch/sandbox"
)

// embeddedSandboxURL names the in-process sandbox's tenant in the journal.
const embeddedSandboxURL = "http://sandbox.embedded"

// stateFlags say where nxbatch keeps its state: the journal (which also
// persists the API's rate windows) and, beside it, the catalog cache.
type stateFlags struct {
	Journal string        `help:"Journal file (exactly-once record of every request, and the API's rate windows)." default:".nxbatch/journal" type:"path"`
	Wait    time.Duration `help:"How long to wait for another nxbatch process that holds the journal (0: exit at once)." default:"0s"`
}

// langFlag is the language of messages and reports.
type langFlag struct {
	Lang string `help:"Language of messages and reports: es or en." enum:"es,en" default:"es"`
}

func (f langFlag) lang() msg.Lang {
	l, _ := msg.ParseLang(f.Lang)
	return l
}

// apiFlags are what every command that talks to the API takes.
type apiFlags struct {
	connFlags
	sandboxFlags
	stateFlags
	langFlag
}

// connect opens the connection these flags describe.
func (f apiFlags) connect(e *env, jo journal.Options) (*conn, error) {
	return connect(e, f.connFlags, f.sandboxFlags, f.stateFlags, jo, f.lang())
}

// sandboxFlags start the embedded sandbox instead of talking to NX_BASE_URL.
type sandboxFlags struct {
	Sandbox    bool `help:"Use an embedded API sandbox started in-process with the demo data (no token needed)."`
	faultFlags `prefix:"sandbox-" group:"sandbox faults (with --sandbox)"`
}

// conn is an open connection to the API (or the embedded sandbox) with
// the journal that paces it.
type conn struct {
	client  *apiclient.Client
	tenant  string
	journal *journal.Journal
	scale   float64
	closers []func() error
}

// scaled multiplies an API window by --time-scale.
func (c *conn) scaled(d time.Duration) time.Duration { return time.Duration(float64(d) * c.scale) }

// catalogs returns the per-tenant catalog cache beside the journal.
func (c *conn) catalogs(ttl time.Duration) *catalog.Cache {
	return &catalog.Cache{Dir: filepath.Join(filepath.Dir(c.journal.Path()), "catalogs"), Tenant: c.tenant,
		TTL: ttl, Window: c.scaled(catalog.ParamWindow), Fetch: c.client, Windows: c.journal}
}

func (c *conn) Close() {
	for i := len(c.closers) - 1; i >= 0; i-- {
		_ = c.closers[i]()
	}
}

// connect opens the journal, starts the embedded sandbox when asked, and
// builds the API client. The token comes only from NX_TOKEN or an
// owner-only --token-file.
func connect(e *env, cf connFlags, sf sandboxFlags, st stateFlags, jo journal.Options, l msg.Lang) (*conn, error) {
	if cf.TimeScale <= 0 {
		return nil, usageErr("--time-scale must be positive")
	}
	c := &conn{scale: cf.TimeScale}
	jo.LockTimeout = st.Wait
	jr, err := journal.Open(st.Journal, jo)
	if err != nil {
		if errors.Is(err, journal.ErrLocked) {
			return nil, &exitError{code: exitAborted, err: err}
		}
		return nil, usageErr("open journal: %v", err)
	}
	c.journal = jr
	c.closers = append(c.closers, jr.Close)

	baseURL, token := cf.BaseURL, apiclient.Token{}
	if sf.Sandbox {
		o := sandbox.Options{Env: cf.Env, TimeScale: cf.TimeScale, Logger: e.log.With(slog.String("component", "sandbox"))}
		sf.faultFlags.apply(&o)
		srv, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
		if err != nil {
			c.Close()
			return nil, usageErr("start the sandbox: %v", err)
		}
		c.closers = append(c.closers, srv.Close)
		baseURL, token = srv.URL, apiclient.NewToken(sandbox.DefaultToken)
		fmt.Fprintln(e.stderr, msg.New("run.sandbox", srv.URL).In(l))
	} else {
		if baseURL == "" {
			c.Close()
			return nil, usageErr("set NX_BASE_URL (or --base-url) to the API's base URL, or use --sandbox")
		}
		token, err = apiclient.LoadToken(cf.TokenFile)
		if err != nil {
			c.Close()
			return nil, usageErr("%v", err)
		}
	}
	c.client, err = apiclient.New(apiclient.Options{BaseURL: baseURL, Token: token, Timeout: cf.Timeout,
		UserAgent: "nxbatch/" + version})
	if err != nil {
		c.Close()
		return nil, usageErr("%v", err)
	}
	c.tenant = apiclient.TenantHash(c.client.BaseURL(), token)
	if sf.Sandbox {
		// The embedded sandbox listens on a new port each time; its journal
		// entries must still be one tenant, so that a rerun skips.
		c.tenant = apiclient.TenantHash(embeddedSandboxURL, token)
	}
	return c, nil
}
