package webapp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Setup is what nxbatch serve shows when it was started without an API
// connection (no --base-url, no NX_BASE_URL, none saved, no --sandbox):
// one page where the owner enters the API's address, its environment and
// the token, checked against the API and kept owner-only in the state
// folder (package connection), where every command reads it. Once saved,
// Saved is told, and the page waits for the address of the page proper
// (Next) to send the owner there. Only the owner gets in: the address
// printed (and opened) carries a key, as the page proper's does.
type Setup struct {
	// StateDir is the state folder the connection is saved in.
	StateDir string
	// Saved receives the connection once it is saved and checked.
	Saved chan<- connection.Saved
	// Next waits for the owner's address of the page proper.
	Next func(ctx context.Context) (string, error)
	// Timeout bounds the check against the API (0: 20 s).
	Timeout time.Duration
	Log     *slog.Logger
	// Lang is the log's language (--lang).
	Lang msg.Lang

	once  sync.Once
	key   string
	pages map[string]*template.Template
	err   error
	done  sync.Once
}

// setupCookie carries the setup page's key once the owner's address was
// opened.
const setupCookie = "nxbatch_setup"

// init makes the key and parses the page, once.
func (s *Setup) init() error {
	s.once.Do(func() {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		s.key = hex.EncodeToString(b)
		s.pages, s.err = parsePages()
		if s.Timeout <= 0 {
			s.Timeout = 20 * time.Second
		}
		if s.Log == nil {
			s.Log = slog.New(slog.DiscardHandler)
		}
	})
	return s.err
}

// URL is the owner's address of the setup page on base ("http://host:port/").
func (s *Setup) URL(base string) (string, error) {
	if err := s.init(); err != nil {
		return "", err
	}
	return strings.TrimSuffix(base, "/") + "/?" + url.Values{"key": {s.key}}.Encode(), nil
}

// setupData is the connection page.
type setupData struct {
	base
	BaseURL, Env string
	Problem      string
	Envs         []kindOption
	// Locked: not the owner; the form is not shown.
	Locked bool
}

// Handler serves the connection page; anything else answers it too.
func (s *Setup) Handler() http.Handler {
	_ = s.init()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); ip == nil && host != "localhost" {
			http.Error(w, msg.New("web.host", inert(r.Host)).In(lang(r)), http.StatusMisdirectedRequest)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/static/") {
			cacheStatic(http.FileServerFS(staticFS)).ServeHTTP(w, r)
			return
		}
		if k := r.URL.Query().Get("key"); k != "" && r.Method == http.MethodGet {
			if subtle.ConstantTimeCompare([]byte(k), []byte(s.key)) != 1 {
				s.render(w, r, http.StatusUnauthorized, setupData{Locked: true, Problem: msg.New("web.login.badkey").In(lang(r))})
				return
			}
			http.SetCookie(w, &http.Cookie{Name: setupCookie, Value: s.key, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		if c, err := r.Cookie(setupCookie); err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.key)) != 1 {
			s.render(w, r, http.StatusUnauthorized, setupData{Locked: true, Problem: msg.New("web.login.owner").In(lang(r))})
			return
		}
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/lang":
			l := msg.ES
			if r.FormValue("lang") == string(msg.EN) {
				l = msg.EN
			}
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: string(l), Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteStrictMode})
			http.Redirect(w, r, "/", http.StatusSeeOther)
		case r.Method == http.MethodPost && r.URL.Path == "/connection":
			s.save(w, r)
		default:
			s.render(w, r, http.StatusOK, setupData{Env: string(sendrules.Production)})
		}
	})
}

// save checks the connection against the API, saves it and sends the
// owner on to the page proper.
func (s *Setup) save(w http.ResponseWriter, r *http.Request) {
	l := lang(r)
	d := setupData{BaseURL: strings.TrimSpace(r.FormValue("base_url")), Env: r.FormValue("env")}
	token := strings.TrimSpace(r.FormValue("token"))
	env, err := sendrules.ParseEnv(d.Env)
	switch {
	case !connection.CheckURL(d.BaseURL):
		d.Problem = msg.New("web.conn.badurl").In(l)
	case err != nil:
		d.Problem = msg.New("web.conn.badenv").In(l)
	case token == "":
		d.Problem = msg.New("web.conn.notoken").In(l)
	}
	if d.Problem == "" {
		if p := s.check(r.Context(), d.BaseURL, token); p != nil {
			d.Problem = p.In(l)
		}
	}
	if d.Problem != "" {
		s.render(w, r, http.StatusUnprocessableEntity, d)
		return
	}
	saved := connection.Saved{BaseURL: strings.TrimRight(d.BaseURL, "/"), Env: string(env)}
	if err := connection.Save(s.StateDir, saved, token); err != nil {
		d.Problem = msg.New("web.conn.savefailed", msg.CauseOf(err)).In(l)
		s.render(w, r, http.StatusInternalServerError, d)
		return
	}
	s.Log.Info(msg.New("web.log.connection").In(s.Lang), "api", d.BaseURL)
	s.done.Do(func() { s.Saved <- saved })
	next, err := s.Next(r.Context())
	if err != nil {
		d.Problem = msg.New("web.conn.startfailed", msg.CauseOf(err)).In(l)
		s.render(w, r, http.StatusInternalServerError, d)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// check asks the API for the integration's configuration with the token:
// nil when it answered (a window's wait is an answer too), else what to
// change.
func (s *Setup) check(ctx context.Context, base, token string) msg.Localizer {
	c, err := apiclient.New(apiclient.Options{BaseURL: base, Token: apiclient.NewToken(token), Timeout: s.Timeout, UserAgent: "nxbatch",
		AllowInsecureHTTP: isLoopbackURL(base)})
	if err != nil {
		return msg.New("web.conn.badurl")
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	_, err = c.Config(ctx)
	var we *apiclient.WaitError
	var ue *url.Error
	switch {
	case err == nil, errors.As(err, &we):
		return nil
	case errors.Is(err, apiclient.ErrUnauthorized):
		return msg.New("web.conn.unauthorized")
	case errors.As(err, &ue):
		return msg.New("web.conn.unreachable", base)
	}
	return msg.New("web.conn.failed", msg.CauseOf(err))
}

// isLoopbackURL reports whether base is on this machine, where plain http
// carries the token nowhere.
func isLoopbackURL(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return h == "localhost" || (ip != nil && ip.IsLoopback())
}

func (s *Setup) render(w http.ResponseWriter, r *http.Request, status int, d setupData) {
	l := lang(r)
	other := msg.EN
	if l == msg.EN {
		other = msg.ES
	}
	d.base = base{Lang: l, Title: msg.New("web.conn.title").In(l), Path: "/", Other: other}
	if d.Env == "" {
		d.Env = string(sendrules.Production)
	}
	for _, e := range []struct {
		env sendrules.Env
		key string
	}{{sendrules.Production, "web.conn.env.production"}, {sendrules.Test, "web.conn.env.test"}} {
		d.Envs = append(d.Envs, kindOption{Value: string(e.env), Text: msg.New(e.key).In(l), Selected: string(e.env) == d.Env})
	}
	var b bytes.Buffer
	if err := s.pages["connection"].ExecuteTemplate(&b, "layout", d); err != nil {
		http.Error(w, "render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
