package webapp

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/sandbox"
)

// TestConnectionEnteredInThePage: serve started without a connection
// shows only the connection page, to the owner only; a wrong token or an
// unreachable address is refused with what to change and nothing saved;
// the right one (tried against the sandbox) is saved owner-only where the
// commands read it, never shown again, and the owner is sent on to the
// page proper.
func TestConnectionEnteredInThePage(t *testing.T) {
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	dir := filepath.Join(t.TempDir(), "state")
	saved := make(chan connection.Saved, 1)
	st := &Setup{StateDir: dir, Saved: saved, Next: func(context.Context) (string, error) { return "/login?key=siguiente", nil }}
	ts := httptest.NewServer(st.Handler())
	t.Cleanup(ts.Close)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, form url.Values) (int, string, string) {
		t.Helper()
		var resp *http.Response
		var err error
		if method == http.MethodPost {
			resp, err = c.PostForm(ts.URL+path, form)
		} else {
			resp, err = c.Get(ts.URL + path)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header.Get("Location")
	}
	if code, body, _ := do("GET", "/", nil); code != http.StatusUnauthorized || strings.Contains(body, `id="token"`) {
		t.Fatalf("without the owner's key: %d, the form shown: %v", code, strings.Contains(body, `id="token"`))
	}
	if code, _, _ := do("GET", "/?key=otra", nil); code != http.StatusUnauthorized {
		t.Errorf("a wrong key: %d", code)
	}
	owner, err := st.URL(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := do("GET", strings.TrimPrefix(owner, ts.URL), nil); code != http.StatusSeeOther {
		t.Fatalf("the owner's address: %d", code)
	}
	if code, body, _ := do("GET", "/", nil); code != http.StatusOK || !strings.Contains(body, `id="token"`) || !strings.Contains(body, "Dirección de la API") {
		t.Fatalf("the connection page: %d\n%s", code, body)
	}
	for _, tt := range []struct {
		name, base, token, want string
	}{
		{"a wrong token", sb.URL, "otro-token", "La API rechazó el token (HTTP 401)"},
		{"no address", "api.example.com", sandbox.DefaultToken, "debe empezar con https://"},
		{"nobody there", "http://127.0.0.1:1", sandbox.DefaultToken, "No se pudo conectar con la API en http://127.0.0.1:1"},
		{"no token", sb.URL, "", "Falta el token"},
	} {
		code, body, _ := do("POST", "/connection", url.Values{"base_url": {tt.base}, "env": {"production"}, "token": {tt.token}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d, want %q\n%s", tt.name, code, tt.want, body)
		}
		if tt.token != "" && strings.Contains(body, tt.token) {
			t.Errorf("%s: the page shows the token", tt.name)
		}
		if _, _, err := connection.Load(dir); err == nil {
			t.Fatalf("%s: a connection was saved", tt.name)
		}
	}
	code, body, loc := do("POST", "/connection", url.Values{"base_url": {sb.URL + "/"}, "env": {"test"}, "token": {sandbox.DefaultToken}})
	if code != http.StatusSeeOther || loc != "/login?key=siguiente" {
		t.Fatalf("the right connection: %d %q\n%s", code, loc, body)
	}
	got := <-saved
	if got.BaseURL != sb.URL || got.Env != "test" {
		t.Errorf("saved %+v", got)
	}
	s, tok, err := connection.Load(dir)
	if err != nil || s != got {
		t.Fatalf("load: %+v %v", s, err)
	}
	for _, f := range []string{filepath.Join(dir, connection.File), tok} {
		if fi, err := os.Stat(f); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is not owner-only: %v", f, err)
		}
	}
}
