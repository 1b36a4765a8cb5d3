package webapp

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/accounts"
)

// fakeClock is the server's clock in tests: it moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestBruteForceIsSlowedAndLogged: a user's password is guessed 200 times
// from one connection. Five failures are free; then the address and the
// account are locked out for a delay that doubles, during which guesses
// are refused without a password check (even the right one); every
// failure is logged naming the account and the address. Once the delay
// passes, the right password lets the user in with a session of their
// own (never the owner's key), and their send's audit line names them.
func TestBruteForceIsSlowedAndLogged(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	store := &accounts.Store{Path: filepath.Join(t.TempDir(), accounts.FileName), Iterations: 1000}
	if err := store.Set("ana", "correcta-y-larga", clock.now()); err != nil {
		t.Fatal(err)
	}
	const canary = "CANARY-token-owner-5b1"
	b := newBed(t, bedOptions{accounts: store, now: clock.now, anonymous: true, token: canary})
	login := func(user, pw string) answer {
		t.Helper()
		return b.post("/login", url.Values{"user": {user}, "password": {pw}, "back": {"/history"}})
	}
	checked, refused := 0, 0
	for i := range 200 {
		switch a := login("ana", "adivinanza-"+string(rune('a'+i%26))); a.status {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
			refused++
			if a.header.Get("Retry-After") == "" || !strings.Contains(a.body, "Demasiados intentos fallidos") {
				t.Fatalf("a refused guess does not say why:\n%s", a.body)
			}
		default:
			t.Fatalf("guess %d: %d", i, a.status)
		}
	}
	if checked != freeFailures+1 || refused != 200-checked {
		t.Errorf("%d guesses checked, %d refused: want %d checked (the free ones and the one that starts the delay)", checked, refused, freeFailures+1)
	}
	logs := b.logs.String()
	if n := strings.Count(logs, `msg="login failed" user=ana from=127.0.0.1`); n != checked {
		t.Errorf("%d failures logged, want %d:\n%s", n, checked, logs)
	}
	if !strings.Contains(logs, `msg="login refused: too many failures" user=ana`) {
		t.Errorf("the refusals are not logged")
	}
	// Locked out: even the right password is refused, unchecked.
	if a := login("ana", "correcta-y-larga"); a.status != http.StatusTooManyRequests {
		t.Errorf("the right password during the delay: %d, want 429", a.status)
	}
	// Another account from the same address waits as well.
	if a := login("otro", "lo-que-sea-largo"); a.status != http.StatusTooManyRequests {
		t.Errorf("another account from the locked address: %d, want 429", a.status)
	}
	// The delay doubles: one more failure after the first delay waits 2 s.
	clock.advance(time.Second)
	if a := login("ana", "sigue-mal-la-clave"); a.status != http.StatusUnauthorized {
		t.Fatalf("after the delay a guess is checked again: %d", a.status)
	}
	clock.advance(time.Second)
	if a := login("ana", "correcta-y-larga"); a.status != http.StatusTooManyRequests {
		t.Errorf("1 s into a 2 s delay: %d, want 429", a.status)
	}
	clock.advance(time.Second)
	a := login("ana", "correcta-y-larga")
	if a.status != http.StatusSeeOther || a.location != "/history" {
		t.Fatalf("the right password after the delay: %d %q\n%s", a.status, a.location, a.body)
	}
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if strings.HasPrefix(c.Name, sessionCookie) && (c.Value == b.srv.OwnerKey() || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode) {
			t.Errorf("ana's cookie %+v: the owner's key, or not HttpOnly/Strict", c)
		}
	}
	if a := b.get("/history"); a.status != http.StatusOK || !strings.Contains(a.body, `<span id="who">ana</span>`) || strings.Contains(a.body, b.srv.OwnerKey()) {
		t.Fatalf("ana's page: %d", a.status)
	}
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	if want := `msg=audit who=ana from=127.0.0.1 action="POST ` + page + `/send" status=303`; !strings.Contains(b.logs.String(), want) {
		t.Errorf("no audit line naming ana for the send:\n%s", b.logs.String())
	}
	// The owner's token stays in the server: ana sends with it, sees it
	// nowhere.
	for _, p := range []string{"/", page, page + "/result", page + "/send", "/history", "/catalogs", page + "/files/ventas.result.csv", page + "/files/ventas.summary.json"} {
		if a := b.get(p); a.status != http.StatusOK || strings.Contains(a.body, canary) || strings.Contains(a.body, b.srv.OwnerKey()) {
			t.Errorf("ana's GET %s: %d, or it shows the owner's token or key", p, a.status)
		}
	}
	// A removed account's session ends at its next request.
	if err := store.Remove("ana"); err != nil {
		t.Fatal(err)
	}
	if a := b.get("/history"); a.status != http.StatusUnauthorized {
		t.Errorf("a removed user's session: %d, want 401", a.status)
	}
}

// TestThrottleCounts: the delays per key, and a success clears them.
func TestThrottleCounts(t *testing.T) {
	var th throttle
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	want := []time.Duration{0, 0, 0, 0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
	for i, w := range want {
		th.fail("user ana", now)
		if got := th.wait("user ana", now); got != w {
			t.Errorf("after %d failures: wait %v, want %v", i+1, got, w)
		}
	}
	for range 30 {
		th.fail("user ana", now)
	}
	if got := th.wait("user ana", now); got != maxLockout {
		t.Errorf("after many failures: wait %v, want the cap %v", got, maxLockout)
	}
	if got := th.wait("user otro", now); got != 0 {
		t.Errorf("another account waits %v", got)
	}
	th.ok("user ana")
	if got := th.wait("user ana", now); got != 0 {
		t.Errorf("after a login: wait %v", got)
	}
}
