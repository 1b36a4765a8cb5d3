package webapp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// Who may use the page. Every request but the login page and the
// embedded assets must come from:
//
//   - the owner: whoever started `nxbatch serve`. The server makes a secret
//     key at start (OwnerKey) and hands it only to its owner: in the
//     address the command prints and in an owner-only file of the state
//     folder. Opening that address (/login?key=...) exchanges the key for
//     an HttpOnly, SameSite=Strict cookie. Another account on the same
//     machine reaches the same loopback port but knows no key: the Host
//     check and the cross-origin refusal stop browsers, this stops every
//     other client.
//   - a user with an account (`nxbatch serve user add`), logged in with a
//     password over the login form: the way others in the office use a
//     page served on a network address. Their sessions are kept in memory
//     and never carry the owner's key or token.

// LoginURLFile is the owner-only file of the state folder where the
// command keeps the owner's address (LoginURL) while it serves.
const LoginURLFile = "serve-url.txt"

// sessionCookie carries the owner's key or a user's session id; its
// name ends in the port (cookieName), since browsers share cookies among
// the ports of one host and two servers must not overwrite each other's.
const sessionCookie = "nxbatch_session"

// cookieName is the session cookie's name for the port r came to.
func cookieName(r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return sessionCookie + "_" + port
	}
	return sessionCookie
}

// OwnerName is who the audit lines name for the owner.
const OwnerName = "owner"

// sessionTTL is how long a user's session lasts after its login.
const sessionTTL = 12 * time.Hour

// maxSessions bounds the sessions kept: the oldest go first.
const maxSessions = 1000

// principal is who a request comes from.
type principal struct {
	name  string // the user's name, or OwnerName
	owner bool
}

type principalKey struct{}

// who names the request's principal for the audit lines; "" before
// authentication.
func who(r *http.Request) string {
	if p, ok := r.Context().Value(principalKey{}).(principal); ok {
		return p.name
	}
	return ""
}

// userOf names the request's user, "" for the owner or nobody.
func userOf(r *http.Request) string {
	if p, ok := r.Context().Value(principalKey{}).(principal); ok && !p.owner {
		return p.name
	}
	return ""
}

// session is a user's login.
type session struct {
	user    string
	expires time.Time
}

// sessionStore keeps the users' sessions by id.
type sessionStore struct {
	mu   sync.Mutex
	byID map[string]session
}

// newID is a random id of 32 bytes, in hex.
func newID() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// start opens a session for user and returns its id.
func (ss *sessionStore) start(user string, now time.Time) string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.byID == nil {
		ss.byID = map[string]session{}
	}
	for id, x := range ss.byID {
		if !now.Before(x.expires) {
			delete(ss.byID, id)
		}
	}
	for len(ss.byID) >= maxSessions {
		oldest, at := "", time.Time{}
		for id, x := range ss.byID {
			if oldest == "" || x.expires.Before(at) {
				oldest, at = id, x.expires
			}
		}
		delete(ss.byID, oldest)
	}
	id := newID()
	ss.byID[id] = session{user: user, expires: now.Add(sessionTTL)}
	return id
}

// user returns the session's user while it lasts.
func (ss *sessionStore) user(id string, now time.Time) (string, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	x, ok := ss.byID[id]
	if !ok || !now.Before(x.expires) {
		return "", false
	}
	return x.user, true
}

// end closes the session id.
func (ss *sessionStore) end(id string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.byID, id)
}

// OwnerKey is the secret that lets the owner in: the address LoginURL
// builds carries it.
func (s *Server) OwnerKey() string { return s.cfg.OwnerKey }

// LoginURL is the address that lets the owner in, for base
// (http://HOST:PORT): printed by the command and written to its
// owner-only file.
func (s *Server) LoginURL(base string) string {
	return strings.TrimSuffix(base, "/") + "/login?" + url.Values{"key": {s.cfg.OwnerKey}}.Encode()
}

// principalOf authenticates r by its cookie.
func (s *Server) principalOf(r *http.Request) (principal, bool) {
	c, err := r.Cookie(cookieName(r))
	if err != nil || c.Value == "" {
		return principal{}, false
	}
	if subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.cfg.OwnerKey)) == 1 {
		return principal{name: OwnerName, owner: true}, true
	}
	if u, ok := s.sessions.user(c.Value, s.now()); ok && s.cfg.Accounts != nil && s.cfg.Accounts.Has(u) {
		return principal{name: u}, true
	}
	return principal{}, false
}

// public tells the requests anyone may make: the login page, the
// embedded assets it uses and the language switch.
func public(r *http.Request) bool {
	switch {
	case r.URL.Path == "/login", r.URL.Path == "/logout", r.URL.Path == "/lang" && r.Method == http.MethodPost,
		strings.HasPrefix(r.URL.Path, "/static/") && r.Method == http.MethodGet:
		return true
	}
	return false
}

// authenticate lets through the owner and logged-in users; anyone else
// gets the login page.
func (s *Server) authenticate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p, ok := s.principalOf(r); ok {
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
			return
		}
		if public(r) {
			h.ServeHTTP(w, r)
			return
		}
		s.log.Warn("refused a request without a login", slog.String("from", remoteIP(r)), slog.String("path", inert(r.URL.Path)))
		s.loginPage(w, r, http.StatusUnauthorized, nil)
	})
}

// remoteIP is the address a request comes from, without its port.
func remoteIP(r *http.Request) string {
	addr := r.RemoteAddr
	if i := strings.LastIndexByte(addr, ':'); i > 0 {
		addr = addr[:i]
	}
	return inert(strings.Trim(addr, "[]"))
}

// loginView is the login page.
type loginView struct {
	base
	Problem  string
	Accounts bool // users may log in with a password
	Back     string
	User     string
}

// loginPage answers the login page with status, saying problem when set.
func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, status int, problem msg.Localizer) {
	l := lang(r)
	v := &loginView{base: s.base(r, "web.login.title"), Accounts: s.cfg.Accounts != nil || s.cfg.Password != "", Back: "/"}
	if r.Method == http.MethodGet && r.URL.Path != "/login" {
		v.Back = localPath(r.URL.RequestURI())
	} else if b := r.FormValue("back"); b != "" {
		v.Back = localPath(b)
	}
	if problem != nil {
		v.Problem = problem.In(l)
	}
	v.User = r.PostFormValue("user")
	if status == http.StatusUnauthorized && v.Accounts {
		// Not Basic: the form is the one way in, so that every attempt
		// goes through the throttle.
		w.Header().Set("WWW-Authenticate", `FormBased realm="nxbatch"`)
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, status, "login", v)
}

// login shows the login page, or lets the owner in with the key of the
// address the command printed (GET /login?key=...).
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	key := r.URL.Query().Get("key")
	if key == "" {
		s.loginPage(w, r, http.StatusOK, nil)
		return
	}
	if subtle.ConstantTimeCompare([]byte(key), []byte(s.cfg.OwnerKey)) != 1 {
		s.log.Warn("login refused: a wrong owner key", slog.String("from", remoteIP(r)))
		s.loginPage(w, r, http.StatusUnauthorized, msg.New("web.login.badkey"))
		return
	}
	s.setSession(w, r, s.cfg.OwnerKey, 0)
	s.log.Info("login", slog.String("who", OwnerName), slog.String("from", remoteIP(r)))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// setSession sets the session cookie: HttpOnly (no script reads it) and
// SameSite=Strict (no other site's page sends it); maxAge 0 lasts while
// the browser does.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, value string, maxAge time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: value, Path: "/", MaxAge: int(maxAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

// logout ends the session and forgets the cookie.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(cookieName(r)); err == nil {
		s.sessions.end(c.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// audited logs every write (an upload, a fix, a send, a stop, a
// settlement, a catalog refresh) naming who made it and how it ended.
func (s *Server) audited(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || public(r) {
			h.ServeHTTP(w, r)
			return
		}
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		attrs := []any{slog.String("who", who(r)), slog.String("from", remoteIP(r)), slog.String("action", r.Method+" "+inert(r.URL.Path)),
			slog.Int("status", sw.status)}
		if r.URL.Path == "/journal/resolve" {
			attrs = append(attrs, slog.String("key", inert(r.PostFormValue("key"))), slog.String("as", inert(r.PostFormValue("as"))))
		}
		s.log.Info("audit", attrs...)
	})
}

// statusWriter remembers the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush passes a flush on.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
