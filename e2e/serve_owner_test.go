package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesAnotherAccount: the page on loopback serves its owner
// alone. Another account of the machine (nobody, with curl: no browser,
// so neither the Host check nor the cross-origin refusal stops it) reads,
// uploads and sends nothing, and cannot read the owner's address from the
// state folder; the owner, with the address the command printed, gets in.
func TestServeRefusesAnotherAccount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("this test runs curl as the account nobody: it needs root (CI runs as root)")
	}
	if _, err := user.Lookup("nobody"); err != nil {
		t.Fatalf("no account nobody: %v", err)
	}
	w := newWorkspace(t, "")
	srv := w.serve(t)
	urlFile := filepath.Join(filepath.Dir(w.journal()), "serve-url.txt")
	// Let nobody walk to the state folder: only the file's own mode keeps
	// the address from it.
	for d := filepath.Dir(urlFile); d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(urlFile)
	if err != nil {
		t.Fatalf("the owner's address is not kept: %v", err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", urlFile, st.Mode().Perm())
	}
	kept, _ := os.ReadFile(urlFile)
	if strings.TrimSpace(string(kept)) != srv.login {
		t.Errorf("%s holds %q, want the printed %q", urlFile, kept, srv.login)
	}
	as := func(account string, args ...string) (string, error) {
		if account != "" {
			args = append([]string{"runuser", "-u", account, "--"}, args...)
		}
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		return string(out), err
	}
	if out, err := as("nobody", "cat", urlFile); err == nil || strings.Contains(out, "key=") {
		t.Errorf("nobody reads the owner's address: %q", out)
	}
	curl := func(account string, extra ...string) string {
		t.Helper()
		out, err := as(account, append([]string{"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}"}, extra...)...)
		if err != nil {
			t.Fatalf("curl as %q: %v\n%s", account, err, out)
		}
		return out
	}
	for _, req := range [][]string{
		{srv.url + "/"},
		{srv.url + "/history"},
		{srv.url + "/catalogs"},
		{srv.url + "/templates/venta"},
		{"-X", "POST", "-d", "key=t/venta/1&as=ok&note=x", srv.url + "/journal/resolve"},
		{"-X", "POST", srv.url + "/catalogs/refresh"},
		{"-F", "file=@-;filename=ventas.csv", srv.url + "/uploads"},
		{"-H", "Cookie: nxbatch_session_" + srv.url[strings.LastIndexByte(srv.url, ':')+1:] + "=" + strings.Repeat("0", 64), srv.url + "/"},
		{srv.url + "/login?key=" + strings.Repeat("0", 64)},
	} {
		if got := curl("nobody", req...); got != "401" {
			t.Errorf("nobody: curl %v: %s, want 401", req, got)
		}
	}
	// The owner, with the printed address, gets in (the check can fail).
	jar := filepath.Join(t.TempDir(), "jar")
	if got := curl("", "-c", jar, srv.login); got != "303" {
		t.Fatalf("the owner's address: %s, want 303", got)
	}
	if got := curl("", "-b", jar, srv.url+"/history"); got != "200" {
		t.Errorf("the owner, logged in: %s, want 200", got)
	}
}

// TestServeUserLogsIn: what docs/serve.md tells the owner to do for a
// colleague: `serve user add` (a short password refused), then the
// colleague logs in on the page's form with it (a wrong one refused and
// logged), and their writes are audited under their name.
func TestServeUserLogsIn(t *testing.T) {
	w := newWorkspace(t, "")
	add := func(pw string) result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd, out, errb := w.command(ctx, "serve", "--journal", w.journal(), "user", "add", "ana")
		cmd.Stdin = strings.NewReader(pw + "\n")
		return ended(t, cmd.Run(), out, errb)
	}
	if r := add("x"); r.code != 2 || !strings.Contains(r.stderr, "al menos 12") {
		t.Fatalf("a 1-character password:\n%s", r)
	}
	if r := add("una frase larga de ana"); r.code != 0 {
		t.Fatalf("serve user add:\n%s", r)
	}
	if r := w.nx(t, "serve", "--journal", w.journal(), "user", "list"); r.code != 0 || !strings.HasPrefix(r.stdout, "ana\t") {
		t.Fatalf("serve user list:\n%s", r)
	}
	srv := w.serve(t)
	jar, _ := cookiejar.New(nil)
	ana := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := ana.Get(srv.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	login := func(pw string) int {
		t.Helper()
		resp, err := ana.PostForm(srv.url+"/login", url.Values{"user": {"ana"}, "password": {pw}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code, body := get("/"); code != http.StatusUnauthorized || !strings.Contains(body, `id="login"`) {
		t.Fatalf("before logging in: %d", code)
	}
	if code := login("una frase larga de otro"); code != http.StatusUnauthorized {
		t.Errorf("a wrong password: %d", code)
	}
	if code := login("una frase larga de ana"); code != http.StatusSeeOther {
		t.Fatalf("ana's password: %d", code)
	}
	if code, body := get("/history"); code != http.StatusOK || !strings.Contains(body, `<span id="who">ana</span>`) {
		t.Errorf("ana's history: %d", code)
	}
	resp, err := ana.PostForm(srv.url+"/catalogs/refresh", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	srv.waitLog(t, "login failed component=serve user=ana from=127.0.0.1", "audit component=serve who=ana from=127.0.0.1 action=POST /catalogs/refresh")
}
