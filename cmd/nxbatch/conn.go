package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/writers"
)

// stateFlags say where nxbatch keeps its state: the journal (which also
// persists the API's rate windows) and, beside it, the catalog cache and
// the tenants it resolved.
type stateFlags struct {
	Journal string        `help:"Journal (exactly-once record of every request, and the API's rate windows): a file, or a postgres:// URL (or a host=... keyword string) shared by several machines. Default: the user's state folder ($XDG_STATE_HOME/nxbatch/journal, else ~/.local/state/nxbatch/journal), shared by runs from any folder." env:"NXBATCH_JOURNAL"`
	Wait    time.Duration `help:"How long to wait for another nxbatch process that holds the journal, or with PostgreSQL the tenant (0: exit at once)." default:"0s"`
}

// stateDir is the folder of what stays on this machine: the journal
// file's, or the user's state folder when the journal is in PostgreSQL.
func (st stateFlags) stateDir(e *env) (string, error) {
	spec, err := st.journalPath(e)
	if err != nil {
		return "", err
	}
	return stateDirOf(e, spec)
}

// journalPath is --journal, or the default in the user's state folder.
func (st stateFlags) journalPath(e *env) (string, error) {
	if st.Journal != "" {
		return st.Journal, nil
	}
	p, err := boltjournal.DefaultPath(e.getenv)
	if err != nil {
		return "", usage("cli.nohome")
	}
	return p, nil
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

// connect opens the connection these flags describe and resolves its
// tenant.
func (f apiFlags) connect(e *env, jo journal.Options) (*conn, error) {
	cn, err := connect(e, f.connFlags, f.sandboxFlags, f.stateFlags, jo, f.lang())
	if err != nil {
		return nil, err
	}
	if err := cn.resolve(e.ctx, true); err != nil {
		cn.Close()
		return nil, cn.resolveError(err)
	}
	return cn, nil
}

// sandboxFlags start the embedded sandbox instead of talking to NX_BASE_URL.
type sandboxFlags struct {
	Sandbox    bool `help:"Use an embedded API sandbox started in-process with the demo data (no token needed)."`
	faultFlags `prefix:"sandbox-" group:"sandbox faults (with --sandbox)"`
}

// conn is a command's open connection to the API (or the embedded
// sandbox): a runner.Session with the journal it opened, and what the
// commands read of it by name.
type conn struct {
	*runner.Session
	client  *apiclient.Client
	journal journal.Store
	scale   float64
	closers []func() error
}

// scaled multiplies an API window by --time-scale.
func (c *conn) scaled(d time.Duration) time.Duration { return c.Scaled(d) }

// catalogs returns the per-tenant catalog cache beside the journal.
func (c *conn) catalogs(ttl time.Duration) *catalog.Cache { return c.Catalogs(c.journal, ttl) }

// observe compares a /config the catalog cache fetched after the tenant
// was learned with what the tenant is known by (runner.Session.Observe).
func (c *conn) observe(ctx context.Context) { c.Observe(ctx, c.journal) }

// api names the API and tenant for the reports.
func (c *conn) api() *writers.API { return c.API() }

// Close lets the lease go, closes the journal and stops the sandbox.
func (c *conn) Close() {
	c.Session.Close()
	for i := len(c.closers) - 1; i >= 0; i-- {
		_ = c.closers[i]()
	}
}

// resolve learns which tenant the connection talks to (waiting for the
// parameter window when wait), then takes the tenant's lease in the
// journal.
func (c *conn) resolve(ctx context.Context, wait bool) error {
	if err := c.Identify(ctx, c.journal, wait); err != nil {
		return err
	}
	if err := c.Lease(ctx, c.journal); err != nil {
		return leaseError(err)
	}
	return nil
}

// leaseError is a tenant's lease that could not be taken, with its exit
// code: a lease held elsewhere is a *msg.Error that still matches
// journal.ErrLocked, rendered in the run's language at the end.
func leaseError(err error) error {
	if errors.Is(err, context.Canceled) {
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("run.interrupted")}}
	}
	return &exitError{code: exitAborted, err: err}
}

// resolveError turns a failure to learn the tenant into the error a user
// acts on (runner.Session.Refusal), with its exit code.
func (c *conn) resolveError(err error) error {
	var ee *exitError
	if errors.As(err, &ee) { // the tenant's lease: already the user's words
		return err
	}
	me, isUsage := c.Refusal(err)
	if isUsage {
		return &exitError{code: exitUsage, err: me}
	}
	return &exitError{code: exitAborted, err: me}
}

// connect starts the embedded sandbox when asked, connects (runner.Connect:
// the token first, before anything is locked) and opens the journal. The
// tenant is resolved by resolve.
func connect(e *env, cf connFlags, sf sandboxFlags, st stateFlags, jo journal.Options, l msg.Lang) (*conn, error) {
	sess, stop, err := openSession(e, cf, sf, st, jo, l)
	if err != nil {
		return nil, err
	}
	c := &conn{Session: sess, client: sess.Client(), scale: sess.TimeScale(), closers: []func() error{stop}}
	jr, err := sess.Open(false)
	if err != nil {
		c.Close()
		return nil, journalError(err, l)
	}
	c.journal = jr
	return c, nil
}

// openSession is the one place a command (run, serve and the others)
// turns its flags into a runner.Session: it starts the embedded sandbox
// when asked (stop stops it), and leaves the journal to be opened when
// needed.
func openSession(e *env, cf connFlags, sf sandboxFlags, st stateFlags, jo journal.Options, l msg.Lang) (sess *runner.Session, stop func() error, err error) {
	if cf.TimeScale <= 0 {
		return nil, nil, usage("cli.timescale")
	}
	path, err := st.journalPath(e)
	if err != nil {
		return nil, nil, err
	}
	stateDir, err := stateDirOf(e, path)
	if err != nil {
		return nil, nil, err
	}
	if !sf.Sandbox && cf.BaseURL == "" {
		// The connection entered in the page, kept in the state folder.
		saved, tokenFile, err := connection.Load(stateDir)
		if err != nil {
			return nil, nil, usage("cli.baseurl.empty")
		}
		cf.BaseURL = saved.BaseURL
		if cf.TokenFile == "" && strings.TrimSpace(e.getenv(apiclient.TokenEnv)) == "" {
			cf.TokenFile = tokenFile
		}
		if saved.Env != "" && cf.Env == string(sendrules.Production) {
			cf.Env = saved.Env
		}
	}
	env, err := sendrules.ParseEnv(cf.Env)
	if err != nil {
		return nil, nil, usage("cli.env", cf.Env)
	}
	cfg := runner.Config{BaseURL: cf.BaseURL, TokenFile: cf.TokenFile, Timeout: cf.Timeout, UserAgent: "nxbatch/" + version,
		AllowInsecureHTTP: cf.AllowInsecureHTTP, Env: env, TimeScale: cf.TimeScale, TenantName: cf.Tenant, Wait: st.Wait,
		Say: func(m msg.Message) { say(e.stderr, m.In(l)) }, StateDir: stateDir}
	// listen's own default store, whatever --journal says: the events it
	// received keep the article catalog current between reads.
	if err := defaultStore(e, &cfg.ListenStore); err != nil {
		cfg.ListenStore = ""
	}
	cfg.OpenJournal = func(wait time.Duration) (journal.Store, error) {
		j, _, err := openStore(e, path, wait, jo)
		return j, err
	}
	stop = func() error { return nil }
	if sf.Sandbox {
		o := sandbox.Options{Env: cf.Env, TimeScale: cf.TimeScale, Logger: e.log.With(slog.String("component", "sandbox"))}
		if o.StateFile, err = sandboxStateFile(e, path, env); err != nil {
			return nil, nil, err
		}
		sf.faultFlags.apply(&o)
		srv, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
		if err != nil {
			return nil, nil, sandboxStartError(err)
		}
		cfg.Sandbox, cfg.Local, stop = srv, sandboxCatalogs{srv.Server}, srv.Close
		say(e.stderr, msg.New("run.sandbox", srv.URL).In(l))
	}
	// The token is read here, before the journal is opened: a token file
	// that cannot be read must not leave the journal locked meanwhile.
	sess, err = runner.Connect(cfg)
	if err != nil {
		_ = stop()
		return nil, nil, localized(err, l)
	}
	return sess, stop, nil
}

// journalError is the command's error for a journal that could not be
// opened, with its exit code.
func journalError(err error, l msg.Lang) error {
	var me *msg.Error
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return err
	case errors.As(err, &me) && errors.Is(err, pgjournal.ErrUnreachable):
		// The shared journal cannot be reached: like an unreachable API,
		// the run is aborted, not misconfigured.
		return &exitError{code: exitAborted, err: me}
	case errors.Is(err, journal.ErrLocked):
		return &exitError{code: exitAborted, err: localized(err, l)}
	}
	return localized(err, l)
}

// localized is an error that carries a catalog message, as a usage error
// unless it already has an exit code; main renders it in the run's
// language.
func localized(err error, _ msg.Lang) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitUsage, err: err}
}
