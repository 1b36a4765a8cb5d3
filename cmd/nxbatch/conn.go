package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/tenant"
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
	p, err := journal.DefaultPath(e.getenv)
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

// conn is an open connection to the API (or the embedded sandbox) with
// the journal that paces it.
type conn struct {
	client  *apiclient.Client
	journal journal.Store
	dir     string        // the state that stays on this machine (see openJournal)
	wait    time.Duration // --wait, for the tenant's lease
	scale   float64
	env     sendrules.Env
	lang    msg.Lang
	// tenant is the journal's tenant key, set by resolve; ident is what the
	// API says the tenant is.
	tenant string
	ident  tenant.Identity
	// embedded is the in-process sandbox, when --sandbox.
	embedded *sandbox.Running
	// tenantName is --tenant; stderr is where notes about the tenant go.
	tenantName string
	stderr     io.Writer
	closers    []func() error
}

// scaled multiplies an API window by --time-scale.
func (c *conn) scaled(d time.Duration) time.Duration { return sendrules.Scale(d, c.scale) }

// stateDir is the folder of the journal, which also holds the catalog
// cache and the resolved tenants.
func (c *conn) stateDir() string { return c.dir }

// catalogs returns the per-tenant catalog cache beside the journal. Its
// parameter window is the credential's, as GET /config's (the API counts
// it per token); the embedded sandbox answers its catalogs in-process.
func (c *conn) catalogs(ttl time.Duration) *catalog.Cache {
	cc := &catalog.Cache{Dir: filepath.Join(c.stateDir(), "catalogs"), Tenant: c.tenant, WindowKey: c.client.CredentialHash(),
		TTL: ttl, Window: c.scaled(c.env.Limit(sendrules.Params)), Scale: c.scale, Fetch: c.client, Windows: c.journal}
	if c.embedded != nil {
		cc.Local = sandboxCatalogs{c.embedded.Server}
	}
	return cc
}

// Close stops the sandbox and closes the journal.
func (c *conn) Close() {
	for i := len(c.closers) - 1; i >= 0; i-- {
		_ = c.closers[i]()
	}
}

// resolve learns which tenant the connection talks to (identify), then
// takes the tenant's lease in the journal.
func (c *conn) resolve(ctx context.Context, wait bool) error {
	if c.tenant != "" {
		return nil
	}
	if err := c.identify(ctx, wait); err != nil {
		return err
	}
	return c.lease(ctx)
}

// identify learns which tenant the connection talks to: the embedded
// sandbox is a tenant of its own, named after its state; anything else
// through package tenant (GET /config once per token, within the parameter
// window, waiting for it when wait). A fresh /config answer also goes into
// the tenant's catalog cache. What the user must hear once (a new tenant,
// a rotation) is said on stderr.
func (c *conn) identify(ctx context.Context, wait bool) error {
	if c.embedded != nil {
		cfg := c.embedded.Server.Config()
		st := tenant.StructureOf(&cfg)
		c.ident = tenant.Identity{ID: tenant.SandboxID(sandboxInstance(c.embedded), c.env), Env: c.env, AppID: cfg.AppID,
			Nombre: cfg.Nombre, Fingerprint: st.Fingerprint(), Structure: st, Sandbox: true, Resolved: time.Now()}
		c.tenant = c.ident.ID
		_ = c.resolver(false).Record(c.ident) // only for journal tenants
		return nil
	}
	res, err := c.resolver(wait).Resolve(ctx, tenant.Conn{Origin: c.client.Origin(), Binding: c.client.BindingHash(),
		Credential: c.client.CredentialHash(), Name: c.tenantName})
	if err != nil {
		return err
	}
	c.ident, c.tenant = res.Identity, res.Identity.ID
	for _, n := range res.Notes {
		c.say(n)
	}
	if res.Config != nil {
		_ = c.catalogs(0).StoreConfig(res.Config, time.Now()) // only a cache
	}
	return nil
}

// observe compares a /config the catalog cache fetched after the tenant
// was learned with what the tenant is known by: an administrator's change
// of structure keeps the tenant, and is stored and said once.
func (c *conn) observe() {
	if c.tenant == "" || c.embedded != nil {
		return
	}
	snap, err := c.catalogs(0).Load()
	if err != nil || snap.Config == nil || !snap.ConfigFetched.After(c.ident.Resolved) {
		return
	}
	notes, _ := c.resolver(false).Observe(c.tenant, snap.Config) // said when it can be stored
	for _, n := range notes {
		c.say(n)
	}
}

// resolver is package tenant's resolver for this connection.
func (c *conn) resolver(wait bool) *tenant.Resolver {
	r := &tenant.Resolver{Dir: c.stateDir(), Env: c.env, Read: c.client, Windows: c.journal, Scale: c.scale, Wait: wait}
	if c.journal != nil {
		r.Entries = c.journal
		// A journal that machines share keeps the tenants too.
		if reg, ok := c.journal.(tenant.Registry); ok {
			r.Registry = reg
		}
	}
	return r
}

// say prints one line for the user on stderr, when there is one.
func (c *conn) say(m msg.Message) {
	if c.stderr != nil {
		say(c.stderr, m.In(c.lang))
	}
}

// api names the API and tenant for the reports; the tenant is empty
// while it is not known.
func (c *conn) api() *writers.API {
	return &writers.API{BaseURL: c.client.BaseURL(), Tenant: c.tenant, Sandbox: c.embedded != nil}
}

// tenantRefusal is the user's sentence for a tenant that package tenant
// refused to decide.
func tenantRefusal(err error) (msg.Message, bool) {
	var amb *tenant.AmbiguousError
	var ne *tenant.NameError
	var le *tenant.LegacyError
	var ue *tenant.UsageError
	switch {
	case errors.As(err, &amb):
		return amb.Message(), true
	case errors.As(err, &ne):
		return ne.Message(), true
	case errors.As(err, &le):
		return le.Message(), true
	case errors.As(err, &ue):
		return ue.Msg, true
	}
	return msg.Message{}, false
}

// resolveError turns a failure to learn the tenant into the error a user
// acts on, with its exit code.
func (c *conn) resolveError(err error) error {
	var we *tenant.WindowError
	var ee *exitError
	said, refused := tenantRefusal(err)
	switch {
	case errors.As(err, &ee): // the tenant's lease: already the user's words
		return err
	case errors.Is(err, apiclient.ErrUnauthorized):
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("sub.unauthorized")}}
	case errors.As(err, &we):
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("conn.tenantwindow", we.Next.Format("15:04:05"))}}
	case refused:
		return &exitError{code: exitUsage, err: &msg.Error{Msg: said, Err: err}}
	case errors.Is(err, tenant.ErrNoAppID):
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("conn.noappid", c.client.BaseURL())}}
	case errors.Is(err, context.Canceled):
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("run.interrupted")}}
	}
	return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("conn.unreachable", c.client.BaseURL(), msg.CauseOf(err)), Err: err}}
}

// connect reads the token (before anything is locked), starts the embedded
// sandbox when asked, builds the API client and opens the journal. The
// token comes only from NX_TOKEN or an owner-only --token-file. The tenant
// is resolved by resolve.
func connect(e *env, cf connFlags, sf sandboxFlags, st stateFlags, jo journal.Options, l msg.Lang) (*conn, error) {
	if cf.TimeScale <= 0 {
		return nil, usage("cli.timescale")
	}
	env, err := sendrules.ParseEnv(cf.Env)
	if err != nil {
		return nil, usage("cli.env", cf.Env)
	}
	c := &conn{scale: cf.TimeScale, env: env, lang: l, tenantName: cf.Tenant, stderr: e.stderr}
	baseURL, token := cf.BaseURL, apiclient.Token{}
	if !sf.Sandbox {
		if baseURL == "" {
			return nil, usage("cli.baseurl.empty")
		}
		// The token is read first: a token file that cannot be read must
		// not leave the journal locked while we wait on it.
		token, err = apiclient.LoadToken(cf.TokenFile)
		if err != nil {
			return nil, localized(err, l)
		}
	}
	path, err := st.journalPath(e)
	if err != nil {
		return nil, err
	}
	if sf.Sandbox {
		o := sandbox.Options{Env: cf.Env, TimeScale: cf.TimeScale, Logger: e.log.With(slog.String("component", "sandbox"))}
		if o.StateFile, err = sandboxStateFile(e, path, env); err != nil {
			return nil, err
		}
		sf.faultFlags.apply(&o)
		srv, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
		if err != nil {
			return nil, sandboxStartError(err)
		}
		c.embedded = srv
		c.closers = append(c.closers, srv.Close)
		baseURL, token = srv.URL, apiclient.NewToken(sandbox.DefaultToken)
		say(e.stderr, msg.New("run.sandbox", srv.URL).In(l))
	}
	c.client, err = newClient(e, cf, baseURL, token, l)
	if err != nil {
		c.Close()
		return nil, err
	}
	jr, dir, err := openJournal(e, path, st.Wait, jo, l)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.journal, c.dir, c.wait = jr, dir, st.Wait
	c.closers = append(c.closers, jr.Close)
	return c, nil
}

// newClient builds the API client every command and the page use: the
// one place where --allow-insecure-http lets the token travel over plain
// http to another host, always with a warning.
func newClient(e *env, cf connFlags, baseURL string, token apiclient.Token, l msg.Lang) (*apiclient.Client, error) {
	client, err := apiclient.New(apiclient.Options{BaseURL: baseURL, Token: token, Timeout: cf.Timeout,
		UserAgent: "nxbatch/" + version, AllowInsecureHTTP: cf.AllowInsecureHTTP})
	if err != nil {
		return nil, localized(err, l)
	}
	if apiclient.ClearText(client.BaseURL()) {
		say(e.stderr, msg.New("cli.baseurl.insecure.warn", client.BaseURL()).In(l))
	}
	return client, nil
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

// sandboxInstance names the embedded sandbox's state (see tenant.SandboxID):
// a lost state file is a new sandbox, and so a new tenant.
func sandboxInstance(r *sandbox.Running) string { return r.Server.InstanceID() }
