package e2e

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
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
