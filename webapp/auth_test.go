package webapp

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestOnlyTheOwnerGetsIn: on loopback, a client that does not carry the
// owner's key (another account of the machine: curl needs no browser, so
// the Host check and the cross-origin refusal do not stop it) reads,
// uploads, sends and settles nothing; the address the command printed
// lets the owner in with an HttpOnly, SameSite=Strict cookie.
func TestOnlyTheOwnerGetsIn(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	if want := "msg=audit who=owner from=127.0.0.1 action=\"POST " + page + "/send\" status=303"; !strings.Contains(b.logs.String(), want) {
		t.Errorf("no audit line %q for the send:\n%s", want, b.logs.String())
	}

	other := newBed(t, bedOptions{anonymous: true})
	other.ts.Close()
	other.ts = b.ts // the owner's server, reached by a client without its key
	other.srv = b.srv
	requests := []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/history"},
		{"GET", "/catalogs"},
		{"GET", page},
		{"GET", page + "/rows"},
		{"GET", page + "/result"},
		{"GET", page + "/files/ventas.result.csv"},
		{"GET", page + "/errors.xlsx"},
		{"GET", page + "/events"},
		{"GET", "/templates/venta"},
		{"POST", "/uploads"},
		{"GET", page + "/confirm"},
		{"POST", page + "/send"},
		{"POST", page + "/stop"},
		{"POST", page + "/cells"},
		{"POST", "/journal/resolve"},
		{"POST", "/catalogs/refresh"},
	}
	name := sessionCookie + "_" + b.ts.URL[strings.LastIndexByte(b.ts.URL, ':')+1:]
	cookies := []string{"", name + "=" + strings.Repeat("0", 64), name + "=" + b.srv.OwnerKey()[:63], sessionCookie + "=" + b.srv.OwnerKey()}
	for _, c := range cookies {
		for _, rq := range requests {
			req, _ := http.NewRequest(rq.method, b.ts.URL+rq.path, strings.NewReader(url.Values{"key": {"t/venta/1"}, "as": {"ok"}, "note": {"x"}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if c != "" {
				req.Header.Set("Cookie", c)
			}
			a := other.do(req)
			if a.status != http.StatusUnauthorized || strings.Contains(a.body, "ventas.csv") || strings.HasPrefix(a.body, "PK") {
				t.Errorf("%s %s with cookie %q: %d, want 401 and nothing of the owner's", rq.method, rq.path, c, a.status)
			}
		}
	}
	// A wrong key is refused, logged, and lets nothing in.
	if a := other.get("/login?key=" + strings.Repeat("a", 64)); a.status != http.StatusUnauthorized || !strings.Contains(a.body, "no tiene la clave") {
		t.Errorf("a wrong key: %d\n%s", a.status, a.body)
	}
	if !strings.Contains(b.logs.String(), "wrong owner key") {
		t.Errorf("a wrong key is not logged:\n%s", b.logs.String())
	}
	if a := other.get("/"); a.status != http.StatusUnauthorized {
		t.Errorf("after a wrong key: %d", a.status)
	}
	// The login page, its assets and nothing else answer without a login.
	if a := other.get("/login"); a.status != http.StatusOK || !strings.Contains(a.body, "serve-url.txt") {
		t.Errorf("login page: %d\n%s", a.status, a.body)
	}
	if a := other.get("/static/style.css"); a.status != http.StatusOK {
		t.Errorf("the login page's style: %d", a.status)
	}
	// The owner's address: a cookie no script and no other site gets.
	a := other.get("/login?key=" + b.srv.OwnerKey())
	if a.status != http.StatusSeeOther || a.location != "/" {
		t.Fatalf("owner login: %d %q", a.status, a.location)
	}
	var sc *http.Cookie
	for _, c := range (&http.Response{Header: a.header}).Cookies() {
		if strings.HasPrefix(c.Name, sessionCookie+"_") {
			sc = c
		}
	}
	if sc == nil || !sc.HttpOnly || sc.SameSite != http.SameSiteStrictMode || sc.Path != "/" {
		t.Fatalf("session cookie %+v, want HttpOnly, SameSite=Strict, Path=/", sc)
	}
	if a := other.get(page + "/result"); a.status != http.StatusOK || !strings.Contains(a.body, "ventas.csv") {
		t.Errorf("the owner, logged in: %d", a.status)
	}
	if got := b.srv.LoginURL("http://127.0.0.1:8080/"); got != "http://127.0.0.1:8080/login?key="+b.srv.OwnerKey() {
		t.Errorf("LoginURL = %q", got)
	}
}
