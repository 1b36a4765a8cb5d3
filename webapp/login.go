package webapp

import (
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// Logging in with a password (users on a network address). Guessing is
// made slow three ways: each password is checked against a slow salted
// hash (package accounts), at most two checks run at a time, and failures
// are counted per address and per account: after freeFailures, each
// further one locks that address and that account out for a delay that
// doubles (1 s, 2 s, 4 s... up to maxLockout), during which attempts are
// refused without checking the password. Every failure is logged with
// who was tried, from where and how many failures in a row.

// freeFailures are the failures allowed before the delays start.
const freeFailures = 5

// maxLockout caps the delay after a failure.
const maxLockout = 15 * time.Minute

// forgetFailures is how long a quiet address or account is remembered.
const forgetFailures = 24 * time.Hour

// maxThrottled bounds the addresses and accounts remembered.
const maxThrottled = 10000

// concurrentChecks is how many password checks may run at a time.
const concurrentChecks = 2

// failures are one address's or one account's failed logins in a row.
type failures struct {
	n     int
	last  time.Time
	until time.Time // no attempt before this
}

// throttle counts failed logins per address and per account.
type throttle struct {
	mu sync.Mutex
	m  map[string]*failures
}

// wait is how long key must still wait before its next attempt.
func (t *throttle) wait(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if f := t.m[key]; f != nil && now.Before(f.until) {
		return f.until.Sub(now)
	}
	return 0
}

// fail counts a failure of key and returns how many in a row.
func (t *throttle) fail(key string, now time.Time) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*failures{}
	}
	f := t.m[key]
	if f == nil || now.Sub(f.last) > forgetFailures {
		if len(t.m) >= maxThrottled {
			t.forget(now)
		}
		f = &failures{}
		t.m[key] = f
	}
	f.n++
	f.last = now
	if f.n > freeFailures {
		d := time.Second << min(f.n-freeFailures-1, 20)
		f.until = now.Add(min(d, maxLockout))
	}
	return f.n
}

// forget drops quiet keys, and the oldest when none is quiet; t.mu is
// held.
func (t *throttle) forget(now time.Time) {
	oldest, at := "", time.Time{}
	for k, f := range t.m {
		if now.Sub(f.last) > forgetFailures {
			delete(t.m, k)
			continue
		}
		if oldest == "" || f.last.Before(at) {
			oldest, at = k, f.last
		}
	}
	if len(t.m) >= maxThrottled {
		delete(t.m, oldest)
	}
}

// ok clears key's failures after a login.
func (t *throttle) ok(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
}

// passwordLogin checks a user's password from the login form (POST
// /login) and starts their session.
func (s *Server) passwordLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	user, pw := r.PostFormValue("user"), r.PostFormValue("password")
	if s.cfg.Accounts == nil && s.cfg.Password == "" {
		s.loginPage(w, r, http.StatusUnauthorized, msg.New("web.login.failed"))
		return
	}
	from := remoteIP(r)
	now := s.now()
	byAddr, byUser := "addr "+from, "user "+user
	if d := max(s.throttle.wait(byAddr, now), s.throttle.wait(byUser, now)); d > 0 {
		s.log.Warn("login refused: too many failures", slog.String("user", inert(user)), slog.String("from", from),
			slog.Duration("wait", d))
		w.Header().Set("Retry-After", retryAfter(d))
		s.loginPage(w, r, http.StatusTooManyRequests, msg.New("web.login.throttled", msg.Duration(d.Round(time.Second))))
		return
	}
	select {
	case s.checks <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	name, ok, err := s.checkPassword(user, pw)
	<-s.checks
	if err != nil {
		s.log.Error("login: the accounts cannot be read", slog.String("err", err.Error()))
	}
	if !ok {
		nu, na := s.throttle.fail(byUser, now), s.throttle.fail(byAddr, now)
		s.log.Warn("login failed", slog.String("user", inert(user)), slog.String("from", from),
			slog.Int("failures_user", nu), slog.Int("failures_addr", na))
		s.loginPage(w, r, http.StatusUnauthorized, msg.New("web.login.failed"))
		return
	}
	s.throttle.ok(byUser)
	s.throttle.ok(byAddr)
	if name == OwnerName {
		s.setSession(w, r, s.cfg.OwnerKey, 0)
	} else {
		s.setSession(w, r, s.sessions.start(name, now), sessionTTL)
	}
	s.log.Info("login", slog.String("who", name), slog.String("from", from))
	http.Redirect(w, r, localPath(r.PostFormValue("back")), http.StatusSeeOther)
}

// checkPassword tells who user and pw let in: the owner with the
// password file's password (user name "owner"), or an account.
func (s *Server) checkPassword(user, pw string) (string, bool, error) {
	if user == OwnerName {
		if s.cfg.Password == "" {
			return "", false, nil
		}
		return OwnerName, subtle.ConstantTimeCompare([]byte(pw), []byte(s.cfg.Password)) == 1, nil
	}
	if s.cfg.Accounts == nil {
		return "", false, nil
	}
	ok, err := s.cfg.Accounts.Verify(user, pw)
	return user, ok && err == nil, err
}

// retryAfter is d in whole seconds, for the Retry-After header.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}
