package runner

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/articulos"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/tenant"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// Config is what a Session connects with: the command's flags, or the
// page's, turned into values.
type Config struct {
	// BaseURL is the API (NX_BASE_URL); ignored with Sandbox.
	BaseURL string
	// TokenFile is --token-file; empty reads NX_TOKEN (apiclient.LoadToken).
	TokenFile string
	// Token, when not zero, is the token itself instead of TokenFile's
	// (the embedded sandbox's well-known token is the default with
	// Sandbox).
	Token             apiclient.Token
	Timeout           time.Duration
	UserAgent         string
	AllowInsecureHTTP bool
	Env               sendrules.Env
	// TimeScale multiplies every API window and wait (--time-scale; 0 is 1).
	TimeScale float64
	// TenantName is --tenant, for a token only the user can place.
	TenantName string
	// Sandbox is the embedded sandbox (--sandbox), started by the caller:
	// its URL is the API and it is a tenant of its own, known in-process.
	Sandbox *sandbox.Running
	// Local, when set, answers the catalogs in-process (the embedded
	// sandbox's): no parameter window is spent on them.
	Local catalog.Fetcher
	// StateDir is the folder of what stays on this machine (the journal
	// file's, or the user's state folder): catalogs and tenants.json.
	StateDir string
	// ListenStore is `nxbatch listen`'s store, whose article events since
	// the article catalog was read are applied over it; "" is listen/ in
	// StateDir.
	ListenStore string
	// Wait is --wait: how long opening the journal and taking the tenant's
	// lease wait for another process that holds them.
	Wait time.Duration
	// OpenJournal opens the journal (a bbolt file or PostgreSQL), waiting
	// at most wait for another process's lock; journal.ErrLocked when it
	// is held.
	OpenJournal func(wait time.Duration) (journal.Store, error)
	// Say tells the user something once (a tenant learned, a catalog
	// waited for, a warning); nil says nothing.
	Say func(msg.Message)
}

// ErrNoBaseURL is a Session without an API to talk to.
var ErrNoBaseURL = errors.New("runner: no API base URL")

// Session is one connection to the API: the token, the one client every
// command and the page use (so --allow-insecure-http means the same
// everywhere), the tenant it talks to, the tenant's lease, its catalogs,
// and the journal, opened when needed. A CLI command keeps one journal for
// its whole run (Open); the page opens one only while it needs it and
// passes it to the methods that use it. The tenant, once learned, is kept
// for the Session's life.
type Session struct {
	cfg    Config
	client *apiclient.Client

	// learning is held while the tenant is learned: two callers at once
	// (the page's requests) ask the API once.
	learning sync.Mutex
	mu       sync.Mutex
	ident    tenant.Identity
	journal  journal.Store
	closeJ   func()
	leased   func() error
}

// Connect reads the token (before anything is locked: a token file that
// cannot be read must not leave the journal locked while it waits) and
// builds the API client, warning when the token travels in clear text.
// Its errors are apiclient's (a token file refused, a base URL refused) or
// ErrNoBaseURL.
func Connect(cfg Config) (*Session, error) {
	if cfg.TimeScale <= 0 {
		cfg.TimeScale = 1
	}
	if cfg.Env == "" {
		cfg.Env = sendrules.Production
	}
	baseURL, token := cfg.BaseURL, cfg.Token
	if cfg.Sandbox != nil {
		baseURL = cfg.Sandbox.URL
		if token.IsZero() {
			token = apiclient.NewToken(sandbox.DefaultToken)
		}
	} else {
		if baseURL == "" {
			return nil, ErrNoBaseURL
		}
		if token.IsZero() {
			var err error
			if token, err = apiclient.LoadToken(cfg.TokenFile); err != nil {
				return nil, err
			}
		}
	}
	client, err := apiclient.New(apiclient.Options{BaseURL: baseURL, Token: token, Timeout: cfg.Timeout,
		UserAgent: cfg.UserAgent, AllowInsecureHTTP: cfg.AllowInsecureHTTP})
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: cfg, client: client}
	if apiclient.ClearText(client.BaseURL()) {
		s.say(msg.New("cli.baseurl.insecure.warn", client.BaseURL()))
	}
	return s, nil
}

// Client is the API client.
func (s *Session) Client() *apiclient.Client { return s.client }

// BaseURL names the API in messages (never with the token).
func (s *Session) BaseURL() string { return s.client.BaseURL() }

// Sandbox is the embedded sandbox; nil for a real API.
func (s *Session) Sandbox() *sandbox.Running { return s.cfg.Sandbox }

// Env is the API environment whose windows apply.
func (s *Session) Env() sendrules.Env { return s.cfg.Env }

// TimeScale is what every API window is multiplied by.
func (s *Session) TimeScale() float64 { return s.cfg.TimeScale }

// StateDir is the folder of what stays on this machine.
func (s *Session) StateDir() string { return s.cfg.StateDir }

// Scaled multiplies an API window by the time scale.
func (s *Session) Scaled(d time.Duration) time.Duration { return sendrules.Scale(d, s.cfg.TimeScale) }

// Pacing is what the API's limits allow a send at rate requests a second,
// for the least-time estimate.
func (s *Session) Pacing(rate float64) pipeline.Pacing {
	return pipeline.Pacing{Rate: rate, StockWindow: s.Scaled(s.cfg.Env.Limit(sendrules.Stock))}
}

// say tells the user m, when someone listens.
func (s *Session) say(m msg.Message) {
	if s.cfg.Say != nil {
		s.cfg.Say(m)
	}
}

// Open opens the journal for the rest of the Session (a command's run),
// waiting Config.Wait for another process that holds it; with listing, it
// answers `nxbatch journal list` for other processes while it is open.
// Close closes it.
func (s *Session) Open(listing bool) (journal.Store, error) {
	j, closeJ, err := s.OpenJournal(s.cfg.Wait, listing)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.journal, s.closeJ = j, closeJ
	s.mu.Unlock()
	return j, nil
}

// Journal is the journal Open opened; nil before.
func (s *Session) Journal() journal.Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.journal
}

// OpenJournal opens the journal for as long as the caller needs it (the
// page), waiting at most wait for another process that holds it; with
// listing it answers `nxbatch journal list` while open. closeJ stops
// listing and closes it.
func (s *Session) OpenJournal(wait time.Duration, listing bool) (j journal.Store, closeJ func(), err error) {
	if s.cfg.OpenJournal == nil {
		return nil, nil, errors.New("runner: no journal")
	}
	j, err = s.cfg.OpenJournal(wait)
	if err != nil {
		return nil, nil, err
	}
	stop := func() {}
	if listing {
		if st, lerr := j.ServeListing(); lerr == nil {
			stop = st
		}
	}
	return j, func() { stop(); _ = j.Close() }, nil
}

// Close lets the tenant's lease go and closes the journal Open opened.
func (s *Session) Close() {
	s.LetGo()
	s.mu.Lock()
	closeJ := s.closeJ
	s.journal, s.closeJ = nil, nil
	s.mu.Unlock()
	if closeJ != nil {
		closeJ()
	}
}

// Tenant is the journal's key for the tenant; empty until learned.
func (s *Session) Tenant() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ident.ID
}

// Identity is what the API says the tenant is; zero until learned.
func (s *Session) Identity() tenant.Identity {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ident
}

// API names the API and tenant for the reports; the tenant is empty while
// it is not known.
func (s *Session) API() *writers.API {
	return &writers.API{BaseURL: s.client.BaseURL(), Tenant: s.Tenant(), Sandbox: s.cfg.Sandbox != nil}
}

// Identify learns which tenant the connection talks to, once per Session:
// the embedded sandbox is a tenant of its own, named after its state;
// anything else through package tenant (GET /config once per token, within
// the parameter window paced by j, waiting for it when wait). A fresh
// /config answer also goes into the tenant's catalog cache. What the user
// must hear once (a new tenant, a rotation) is said. Its errors are
// package tenant's and apiclient's; Refusal says them in the user's words.
func (s *Session) Identify(ctx context.Context, j journal.Store, wait bool) error {
	s.learning.Lock()
	defer s.learning.Unlock()
	if s.Tenant() != "" {
		return nil
	}
	if sb := s.cfg.Sandbox; sb != nil {
		cfg := sb.Server.Config()
		st := tenant.StructureOf(&cfg)
		id := tenant.Identity{ID: tenant.SandboxID(sb.Server.InstanceID(), s.cfg.Env), Env: s.cfg.Env, AppID: cfg.AppID,
			Nombre: cfg.Nombre, Fingerprint: st.Fingerprint(), Structure: st, Sandbox: true, Resolved: time.Now()}
		s.mu.Lock()
		s.ident = id
		s.mu.Unlock()
		_ = s.resolver(j, false).Record(ctx, id) // only for journal tenants
		return nil
	}
	res, err := s.resolver(j, wait).Resolve(ctx, tenant.Conn{Origin: s.client.Origin(), Binding: s.client.BindingHash(),
		Credential: s.client.CredentialHash(), Name: s.cfg.TenantName})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.ident = res.Identity
	s.mu.Unlock()
	for _, n := range res.Notes {
		s.say(n)
	}
	if res.Config != nil {
		_ = s.Catalogs(j, 0).StoreConfig(res.Config, time.Now()) // only a cache
	}
	return nil
}

// Lease takes the tenant's lease in j for the Session, waiting up to
// Config.Wait for another run of the same tenant (on this machine or any
// other) to end; a bbolt file's lock already covers every tenant. It is
// let go by LetGo or Close. Taking it again while held does nothing.
func (s *Session) Lease(ctx context.Context, j journal.Process) error {
	s.mu.Lock()
	held := s.leased != nil
	s.mu.Unlock()
	if held {
		return nil
	}
	release, err := j.Acquire(ctx, s.Tenant(), s.cfg.Wait)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.leased = release
	s.mu.Unlock()
	return nil
}

// LetGo lets the tenant's lease go, when held.
func (s *Session) LetGo() {
	s.mu.Lock()
	release := s.leased
	s.leased = nil
	s.mu.Unlock()
	if release != nil {
		_ = release()
	}
}

// Resolve learns the tenant (Identify, waiting for the parameter window)
// and takes its lease in the journal Open opened: what every command that
// writes to the journal does before anything else.
func (s *Session) Resolve(ctx context.Context) error {
	j := s.Journal()
	if err := s.Identify(ctx, j, true); err != nil {
		return err
	}
	return s.Lease(ctx, j)
}

// resolver is package tenant's resolver for this connection, paced by j.
func (s *Session) resolver(j journal.Store, wait bool) *tenant.Resolver {
	r := &tenant.Resolver{Dir: s.cfg.StateDir, Env: s.cfg.Env, Read: s.client, Scale: s.cfg.TimeScale, Wait: wait}
	if j != nil {
		r.Windows, r.Entries = j, j
		// A journal that machines share keeps the tenants too.
		if reg, ok := j.(tenant.Registry); ok {
			r.Registry = reg
		}
	}
	return r
}

// Catalogs returns the tenant's catalog cache beside the journal, paced by
// w (nil reads the cache only). Its parameter window is the credential's,
// as GET /config's (the API counts it per token); Config.Local answers the
// catalogs in-process.
func (s *Session) Catalogs(w catalog.Windows, ttl time.Duration) *catalog.Cache {
	cc := &catalog.Cache{Dir: filepath.Join(s.cfg.StateDir, "catalogs"), Tenant: s.Tenant(), WindowKey: s.client.CredentialHash(),
		TTL: ttl, Window: s.Scaled(s.cfg.Env.Limit(sendrules.Params)), Scale: s.cfg.TimeScale, Fetch: s.client, Local: s.cfg.Local}
	if w != nil {
		cc.Windows = w
	}
	return cc
}

// LoadCatalogs is the one place the catalogs validation checks against
// are loaded for a send or a validation (Need says which files need): from
// the cache when younger than ttl, else fetched when the parameter window
// allows, else the stale copy; notes say what was fetched, kept or left
// unchecked. With waiting set, a catalog never fetched is waited for
// (waiting is told for how long) rather than skipped: a send must not send
// ids nobody checked. A 401 is returned as apiclient.ErrUnauthorized:
// nothing else would be accepted with that token either. A /config fetched
// on the way is compared with what the tenant is known by (Observe).
func (s *Session) LoadCatalogs(ctx context.Context, j journal.Store, need catalog.Need, ttl time.Duration,
	waiting func(n catalog.Name, next time.Time)) (*validation.Catalog, []msg.Message, error) {
	cache := s.Catalogs(j, ttl)
	cache.WaitMissing = waiting
	cat, notes, err := cache.Get(ctx, need)
	if err == nil && need.Articulos {
		var idx *articulos.Index
		idx, notes, err = s.articulos(ctx, cache, waiting, notes)
		if cat != nil {
			cat.Articulos = idx
		}
	}
	if cat != nil && cat.Depositos == nil && s.cfg.Sandbox != nil {
		// The embedded sandbox's /config is its own, never cached.
		cfg := s.cfg.Sandbox.Server.Config()
		cat.Depositos, _ = (&catalog.Snapshot{Config: &cfg}).Warehouses()
	}
	s.Observe(ctx, j)
	return cat, notes, err
}

// Observe compares a /config the catalog cache fetched after the tenant
// was learned with what the tenant is known by: an administrator's change
// of structure keeps the tenant, and is stored and said once.
func (s *Session) Observe(ctx context.Context, j journal.Store) {
	id := s.Identity()
	if id.ID == "" || s.cfg.Sandbox != nil {
		return
	}
	snap, err := s.Catalogs(nil, 0).Load()
	if err != nil || snap.Config == nil || !snap.ConfigFetched.After(id.Resolved) {
		return
	}
	notes, _ := s.resolver(j, false).Observe(ctx, id.ID, snap.Config) // said when it can be stored
	for _, n := range notes {
		s.say(n)
	}
}

// Refusal says a failure to learn the tenant in the user's words, and
// whether it is the user's to fix by calling nxbatch differently (usage)
// rather than a run cut short.
func (s *Session) Refusal(err error) (e *msg.Error, usage bool) {
	var we *tenant.WindowError
	said, refused := tenantRefusal(err)
	switch {
	case errors.Is(err, apiclient.ErrUnauthorized):
		return &msg.Error{Msg: msg.New("sub.unauthorized")}, false
	case errors.As(err, &we):
		return &msg.Error{Msg: msg.New("conn.tenantwindow", we.Next.Format("15:04:05"))}, false
	case refused:
		return &msg.Error{Msg: said, Err: err}, true
	case errors.Is(err, tenant.ErrNoAppID):
		return &msg.Error{Msg: msg.New("conn.noappid", s.client.BaseURL())}, true
	case errors.Is(err, context.Canceled):
		return &msg.Error{Msg: msg.New("run.interrupted")}, false
	}
	return &msg.Error{Msg: msg.New("conn.unreachable", s.client.BaseURL(), msg.CauseOf(err)), Err: err}, false
}

// Unsent is what the rows left unsent say when the tenant could not be
// learned.
func (s *Session) Unsent(err error) msg.Message {
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return msg.New("sub.unauthorized")
	}
	if m, ok := tenantRefusal(err); ok {
		return m
	}
	return msg.New("sub.unreachable", s.client.BaseURL(), msg.CauseOf(err))
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

// articulos loads the article catalog for a send or a validation (one
// record per variant, with listen's events since it was read) and indexes
// it. Without one (never read and the masses window closed, or the API
// failing) the notes say that rows by code cannot be checked, and the run
// goes on without it: those rows are held back. waiting set waits for the
// masses window when no copy was ever read (a send: waiting is told),
// as for the other catalogs. A 401 is returned: nothing would be accepted with that token.
func (s *Session) articulos(ctx context.Context, cache *catalog.Cache, waiting func(catalog.Name, time.Time),
	notes []msg.Message) (*articulos.Index, []msg.Message, error) {
	cache.Events = s.ArticleEvents()
	recs, _, err := cache.Articulos(ctx, catalog.ArticulosOptions{Wait: waiting != nil,
		OnWait: func(next time.Time) {
			if waiting != nil {
				waiting(catalog.Articulos, next)
			}
		},
		Note: func(m msg.Message) { notes = append(notes, m) }})
	var none *catalog.NoArticulosError
	switch {
	case errors.As(err, &none):
		return nil, append(notes, none.Message()), nil
	case err != nil:
		return nil, notes, err
	}
	return articulos.Build(recs), notes, nil
}

// ArticleEvents is the store of `nxbatch listen` whose article events are
// applied over the cached article catalog (catalog.Cache.Events).
func (s *Session) ArticleEvents() string {
	if s.cfg.ListenStore != "" {
		return s.cfg.ListenStore
	}
	return filepath.Join(s.cfg.StateDir, "listen")
}

// ArticulosIndex is the article catalog's index for a preview, which never
// waits: fetched when the cached copy is older than ttl and the masses
// window allows (paced in j), else the copy as it is; nil when there is
// none. With j nil only the cached copy (or the embedded sandbox, which
// takes no window) is read.
func (s *Session) ArticulosIndex(ctx context.Context, j journal.Windows, ttl time.Duration) *articulos.Index {
	if j == nil && s.cfg.Local == nil {
		cp, err := s.Catalogs(nil, ttl).LoadArticulos()
		if err != nil || cp.Fetched.IsZero() {
			return nil
		}
		return articulos.Build(cp.Articulos)
	}
	var w catalog.Windows
	if j != nil {
		w = j
	}
	idx, _, _ := s.articulos(ctx, s.Catalogs(w, ttl), nil, nil)
	return idx
}
