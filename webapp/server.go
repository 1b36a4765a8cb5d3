// Package webapp is nxbatch's importer in the browser (`nxbatch serve`):
// server-rendered pages in Spanish (English with a switch) where an
// accountant uploads a spreadsheet, maps its columns, sees every error on
// its cell, fixes it, sends it through the same journal, pacing and
// classification as `nxbatch run` (package runner), watches the progress,
// downloads the reports and finds past imports.
//
// The pages are html/template with a small embedded script: htmx (vendored
// in static/, with its license) swaps the preview's pages and fixes in
// place, and app.js follows a send's progress with server-sent events;
// every form also works without them. Nothing is built outside Go.
//
// Safety: the server answers only requests whose Host is its own (a DNS
// name that is not localhost is refused, so a page of another site cannot
// rebind its name to this port), refuses cross-origin writes
// (http.CrossOriginProtection), caps uploads in size and rows, keeps them
// in an owner-only folder of the user's state, never shows the API token,
// and opens the journal only for the moment it needs it, so that a cron
// job's run and a send from the page never submit at the same time and
// neither keeps the other out for longer than its own work.
package webapp

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/runner"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Backend is the connection to the API and the journal, set up by the
// command: the same runner.Session as `nxbatch run`'s.
type Backend struct {
	// JournalPath is the journal (a file, or a postgres:// URL), asked for
	// its entries while another process holds the file.
	JournalPath string
	// Session connects to the API: the client, the tenant, its lease and
	// catalogs, and the journal, opened only while the page needs it. Its
	// state folder holds the uploads and the profiles.
	Session *runner.Session
}

// SendOptions are `nxbatch run`'s sending flags, for the page's sends.
type SendOptions struct {
	Workers      int
	Rate         float64
	Timeout      time.Duration
	MaxErrors    int
	MaxArticulos int
	// Wait is how long a send waits for another process that holds the
	// journal (a cron job's run) before it is refused.
	Wait time.Duration
}

// Limits bound what an upload may be.
type Limits struct {
	MaxBytes int64 // the upload's size
	MaxRows  int   // data rows, all sheets together
}

// DefaultLimits are the limits the page states.
var DefaultLimits = Limits{MaxBytes: 64 << 20, MaxRows: 300_000}

// Config configures a Server.
type Config struct {
	Backend Backend
	Send    SendOptions
	Limits  Limits
	// ReportDirs are report folders of other runs (a cron job's
	// --report-dir) whose summaries the history lists.
	ReportDirs []string
	// Addr is the address served (HOST:PORT); the Host header must name it,
	// an IP address, or localhost.
	Addr string
	// AllowHosts are further host names the Host header may carry (a name
	// this machine is reached by on the network).
	AllowHosts []string
	// Password, when not empty, lets the owner in on the login form (user
	// name "owner"): serve's --password-file.
	Password string
	// OwnerKey is the secret that lets the owner in (LoginURL); New makes
	// a random one when it is empty.
	OwnerKey string
	// Accounts are the users who may log in with a password; nil: the
	// owner alone.
	Accounts Accounts
	// ParseMemory is the memory budget of what the server parses at once
	// (0: DefaultParseMemory).
	ParseMemory int64
	// Timeouts bound a connection (0s: DefaultTimeouts); MaxStreams caps
	// the live-progress streams open at once (0: DefaultMaxStreams).
	Timeouts   Timeouts
	MaxStreams int
	// KeepUploads is how long an upload is kept after it was last
	// uploaded or sent (0: DefaultKeepUploads).
	KeepUploads time.Duration
	// CatalogTTL is how old a cached catalog may be before a send fetches
	// it again.
	CatalogTTL time.Duration
	Tool       string // "nxbatch v..."
	Log        *slog.Logger
	// Lang is the language of the log's lines (the run's --lang); "" is
	// Spanish. Each page speaks its visitor's own.
	Lang msg.Lang
	Now  func() time.Time
}

// Server is the web app.
type Server struct {
	cfg     Config
	pages   map[string]*template.Template
	uploads *uploadStore
	gate    *gate
	now     func() time.Time
	log     *slog.Logger

	smu     sync.Mutex
	sending *sendJob // the send in progress, nil when none
	// reconciling is the history's last reconciliation (running or
	// ended), nil when none ran; under smu.
	reconciling *reconcileJob
	// lastJobs keeps each upload's last finished send, for its progress
	// page after the end.
	lastJobs sync.Map

	// notices are what POSTs had to say to the pages they redirect to.
	notices notices

	// sessions are the users' logins.
	sessions sessionStore
	// throttle counts failed logins; checks bounds the password checks
	// that run at once.
	throttle throttle
	checks   chan struct{}
	// parsing is the memory budget of the reads.
	parsing *parseBudget
	// streams counts the live-progress streams open.
	streams atomic.Int32
	// setmu orders the writes of the page's settings.
	setmu settingsStore
	// jgen counts the changes this server made to the journal: what the
	// pages read of it is read again after one.
	jgen atomic.Int64
	// warming counts the warmUp reads in the background, which Close
	// waits for.
	warming sync.WaitGroup
	// writing counts the background writes of fixed versions
	// (scheduleWrite), which Close waits for too.
	writing sync.WaitGroup
	// writeHook, when set (tests), is asked before each background write
	// of a fixed version; false drops it, as a server stopped before it
	// would.
	writeHook func(*upload) bool
	// stop is closed by Close: the background writes go on at once.
	stop     chan struct{}
	stopOnce sync.Once
}

// Accounts are the users who may log in with a password.
type Accounts interface {
	// Verify tells whether password is user's; an unknown user is not an
	// error, just false.
	Verify(user, password string) (bool, error)
	// Has tells whether user has an account now: a removed user's
	// session ends at its next request.
	Has(user string) bool
}

// New builds the server; Handler serves it.
func New(cfg Config) (*Server, error) {
	if cfg.Limits.MaxBytes <= 0 {
		cfg.Limits.MaxBytes = DefaultLimits.MaxBytes
	}
	if cfg.Limits.MaxRows <= 0 {
		cfg.Limits.MaxRows = DefaultLimits.MaxRows
	}
	if cfg.Send.Workers < 1 {
		cfg.Send.Workers = 4
	}
	if cfg.Send.MaxArticulos <= 0 {
		cfg.Send.MaxArticulos = 500
	}
	d := DefaultTimeouts
	for _, x := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&cfg.Timeouts.Header, d.Header}, {&cfg.Timeouts.Read, d.Read}, {&cfg.Timeouts.Write, d.Write}, {&cfg.Timeouts.Idle, d.Idle},
	} {
		if *x.v <= 0 {
			*x.v = x.def
		}
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.KeepUploads <= 0 {
		cfg.KeepUploads = DefaultKeepUploads
	}
	if cfg.ParseMemory <= 0 {
		cfg.ParseMemory = DefaultParseMemory
	}
	if cfg.CatalogTTL <= 0 {
		cfg.CatalogTTL = time.Hour
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.OwnerKey == "" {
		cfg.OwnerKey = newID()
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	us, err := newUploadStore(uploadsDir(cfg.Backend.Session.StateDir()))
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, pages: pages, uploads: us, now: cfg.Now, log: cfg.Log, checks: make(chan struct{}, concurrentChecks),
		parsing: newParseBudget(cfg.ParseMemory), stop: make(chan struct{}),
		gate: &gate{session: cfg.Backend.Session, path: cfg.Backend.JournalPath}}
	s.writeLeftOver()
	return s, nil
}

// writeLeftOver writes, in the background and one upload at a time, the
// fixed versions a server stopped before writing (their fixes are in
// edits.jsonl): the page would write each when its upload is opened, but
// the folder should hold what was fixed. Close waits for it.
func (s *Server) writeLeftOver() {
	var left []*upload
	for _, u := range s.uploads.all() {
		if u.meta.Unwritten > 0 {
			left = append(left, u)
		}
	}
	if len(left) == 0 {
		return
	}
	s.writing.Add(1)
	go func() {
		defer s.writing.Done()
		for _, u := range left {
			if err := s.upToDate(context.Background(), u); err != nil {
				s.log.Warn(s.logText("web.log.fixwrite"), "id", u.meta.ID, "err", err.Error())
			}
		}
	}()
}

// Handler returns the app with its guards: the Host check first (DNS
// rebinding), then who the request comes from (the owner's key or a
// user's login), then the cross-origin
// refusal of every write.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheStatic(http.FileServerFS(static))))
	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("POST /lang", s.setLang)
	mux.HandleFunc("GET /login", s.login)
	mux.HandleFunc("POST /login", s.passwordLogin)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("POST /uploads", s.upload)
	mux.HandleFunc("GET /u/{id}", s.importPage)
	mux.HandleFunc("GET /u/{id}/rows", s.rows)
	mux.HandleFunc("POST /u/{id}/cells", s.fixCell)
	mux.HandleFunc("POST /u/{id}/replace", s.replaceValues)
	mux.HandleFunc("GET /u/{id}/columns", s.columns)
	mux.HandleFunc("POST /u/{id}/columns", s.saveColumns)
	mux.HandleFunc("GET /u/{id}/errors.xlsx", s.errorsXLSX)
	mux.HandleFunc("GET /u/{id}/confirm", s.confirmPage)
	mux.HandleFunc("POST /u/{id}/options", s.saveOptions)
	mux.HandleFunc("POST /u/{id}/send", s.startSend)
	mux.HandleFunc("GET /u/{id}/send", s.progressPage)
	mux.HandleFunc("GET /u/{id}/events", s.capStreams(s.events))
	mux.HandleFunc("POST /u/{id}/stop", s.stopSend)
	mux.HandleFunc("GET /u/{id}/result", s.resultPage)
	mux.HandleFunc("GET /u/{id}/files/{name}", s.uploadFile)
	mux.HandleFunc("GET /history", s.history)
	mux.HandleFunc("GET /history/{dir}/{name}", s.reportFile)
	mux.HandleFunc("POST /settings/report-dir", s.saveReportDir)
	mux.HandleFunc("POST /journal/resolve", s.resolve)
	mux.HandleFunc("POST /journal/reconcile", s.startReconcile)
	mux.HandleFunc("GET /templates/{kind}", s.templateFile)
	mux.HandleFunc("GET /catalogs", s.catalogs)
	mux.HandleFunc("POST /catalogs/refresh", s.refreshCatalogs)

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusForbidden, msg.New("web.crossorigin"))
	}))
	h := s.authenticate(s.audited(cop.Handler(mux)))
	return s.headers(s.hostCheck(h))
}

// cacheStatic lets browsers keep the embedded assets for an hour: they
// change only with the binary.
func cacheStatic(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		h.ServeHTTP(w, r)
	})
}

// headers sets what every answer carries: no framing, no sniffing, scripts
// and styles only from this server.
func (s *Server) headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// hostCheck refuses a request whose Host header is a name other than
// localhost or the names the server was told: a page elsewhere that makes
// its own DNS name point at 127.0.0.1 (DNS rebinding) would otherwise read
// this server's pages as its own. An IP address cannot be rebound.
func (s *Server) hostCheck(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			s.log.Warn(s.logText("web.log.host"), slog.String("host", inert(r.Host)))
			s.fail(w, r, http.StatusMisdirectedRequest, msg.New("web.host", inert(r.Host)))
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	if h, _, err := net.SplitHostPort(s.cfg.Addr); err == nil && strings.EqualFold(h, host) {
		return true
	}
	for _, a := range s.cfg.AllowHosts {
		if strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// langCookie keeps the page's language.
const langCookie = "nxbatch_lang"

// lang is the request's language: the switch's cookie, Spanish otherwise.
func lang(r *http.Request) msg.Lang {
	if c, err := r.Cookie(langCookie); err == nil && c.Value == string(msg.EN) {
		return msg.EN
	}
	return msg.ES
}

// setLang switches the language and goes back to the page it came from.
func (s *Server) setLang(w http.ResponseWriter, r *http.Request) {
	l := msg.ES
	if r.FormValue("lang") == string(msg.EN) {
		l = msg.EN
	}
	http.SetCookie(w, &http.Cookie{Name: langCookie, Value: string(l), Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, localPath(r.FormValue("back")), http.StatusSeeOther)
}

// localPath keeps a redirect on this server: a path of its own, or "/".
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\\r\n") {
		return "/"
	}
	return path.Clean(p)
}

// logText is a line of the log in the run's language.
func (s *Server) logText(key string, args ...any) string {
	return msg.New(key, args...).In(s.cfg.Lang)
}

// fail answers an error page (or, for htmx, the alert alone) with status.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, m msg.Message) {
	l := lang(r)
	if r.Header.Get("HX-Request") == "true" {
		w.Header().Set("HX-Retarget", "#alerts")
		w.Header().Set("HX-Reswap", "innerHTML")
	}
	s.render(w, r, status, "error", &errorPage{base: s.base(r, "web.error.title"), Text: m.In(l)})
}

// errorPage is an error told on a page of its own.
type errorPage struct {
	base
	Text string
}

// tenantKey returns the tenant, learning it with j when not yet known
// (never waiting for the parameter window); the error is in the user's
// words.
func (s *Server) tenantKey(ctx context.Context, j journal.Store) (string, error) {
	sess := s.cfg.Backend.Session
	if err := sess.Identify(ctx, j, false); err != nil {
		me, _ := sess.Refusal(err)
		return "", me
	}
	return sess.Tenant(), nil
}

// knownTenant is the tenant when already learned, "" otherwise.
func (s *Server) knownTenant() string { return s.cfg.Backend.Session.Tenant() }

// catalogCache is the tenant's catalog cache, paced by w (nil reads the
// cache only).
func (s *Server) catalogCache(w catalog.Windows) *catalog.Cache {
	return s.cfg.Backend.Session.Catalogs(w, s.cfg.CatalogTTL)
}

// inert makes text from a request safe for a log line.
func inert(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// errLocked tells whether err is the journal held by another process.
func errLocked(err error) bool { return errors.Is(err, journal.ErrLocked) }

// Warm fetches, in the background, the catalogs validation checks ids
// against when the cache lacks them, one per parameter window, without
// keeping the journal between fetches: a file uploaded a minute after the
// server starts is checked against them. It returns when both are cached
// or ctx ends.
func (s *Server) Warm(ctx context.Context) {
	for _, n := range []catalog.Name{catalog.MediosPago, catalog.Motivos} {
		for ctx.Err() == nil {
			wait, done := s.warmOne(ctx, n)
			if done {
				break
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}
}

// warmOne fetches catalog n if it is missing; it says how long to wait
// before trying again when it could not.
func (s *Server) warmOne(ctx context.Context, n catalog.Name) (time.Duration, bool) {
	j, release, err := s.gate.acquire(0)
	if err != nil {
		return 30 * time.Second, false
	}
	defer release()
	_, err = s.tenantKey(ctx, j)
	if err != nil {
		return time.Minute, false
	}
	cache := s.catalogCache(j)
	_, pulled, err := cache.Pull(ctx, catalog.PullOptions{Names: []catalog.Name{n}, MaxAge: s.cfg.CatalogTTL})
	if err != nil || len(pulled) == 0 {
		return time.Minute, false
	}
	p := pulled[0]
	switch p.Status {
	case catalog.Fetched, catalog.Fresh:
		s.log.Info(s.logText("web.log.catalog.ready", n))
		return 0, true
	case catalog.Waiting:
		return max(time.Until(p.Next)+100*time.Millisecond, 100*time.Millisecond), false
	}
	// The API refused (a 401, a network failure): trying again every
	// minute would only spend windows; a send or the catalogs page asks
	// again when someone needs it.
	s.log.Warn(s.logText("web.log.catalog.notfetched", n), "reason", p.Message(time.Now()).In(s.cfg.Lang))
	return 0, true
}
