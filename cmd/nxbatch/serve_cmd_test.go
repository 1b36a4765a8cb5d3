package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/accounts"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sendrules"
)

// TestServeRefusesWhatItMustNot: the page never opens on another
// interface without a password, and the password file is checked as the
// token file is.
func TestServeRefusesWhatItMustNot(t *testing.T) {
	dir := t.TempDir()
	open := filepath.Join(dir, "open.txt")
	_ = os.WriteFile(open, []byte("s3creta\n"), 0o644)
	empty := filepath.Join(dir, "empty.txt")
	_ = os.WriteFile(empty, []byte("\n"), 0o600)
	short := filepath.Join(dir, "short.txt")
	_ = os.WriteFile(short, []byte("x\n"), 0o600)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"non-loopback without a password", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0"}, "--password-file"},
		{"a name that may not be local", []string{"serve", "--sandbox", "--addr", "servidor:8080"}, "no es una dirección local"},
		{"a password file others can read", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0", "--password-file", open}, "chmod 600"},
		{"an empty password file", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0", "--password-file", empty}, "está vacío"},
		{"a 1-character password file", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0", "--password-file", short}, "tiene 1 caracteres: debe tener al menos 12"},
		{"an address that is not one", []string{"serve", "--sandbox", "--addr", "ocho-mil"}, "HOST:PUERTO"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(stateEnv(dir, &out, &errb), tc.args)
			if code := exitCode(err); code != exitUsage {
				t.Fatalf("exit %d, want %d (%v)", code, exitUsage, err)
			}
			if got := render(err, "es"); !strings.Contains(got, tc.want) {
				t.Errorf("says %q, want %q", got, tc.want)
			}
		})
	}
}

// TestServeHonoursAllowInsecureHTTP: the page builds its client where the
// command line does, so --allow-insecure-http means the same: without it a
// plain http:// base URL of another host is refused before any connection;
// with it the page starts and warns. No request is made: building the
// backend only builds the client.
func TestServeHonoursAllowInsecureHTTP(t *testing.T) {
	t.Setenv("NX_TOKEN", "token-de-prueba")
	dir := t.TempDir()
	for _, allow := range []bool{false, true} {
		var out, errb bytes.Buffer
		e := stateEnv(dir, &out, &errb)
		c := &serveCmd{connFlags: connFlags{BaseURL: "http://erp.nxbatch-prueba.invalid:8080", AllowInsecureHTTP: allow, TimeScale: 1, Env: "production"}}
		_, closeAPI, err := c.backend(e, sendrules.Production, filepath.Join(dir, "journal"), msg.ES)
		if closeAPI != nil {
			closeAPI()
		}
		switch {
		case !allow && (exitCode(err) != exitUsage || !strings.Contains(render(err, "es"), "http://")):
			t.Errorf("without --allow-insecure-http: %v (exit %d); want a usage error naming the plain http address", err, exitCode(err))
		case allow && err != nil:
			t.Errorf("with --allow-insecure-http: %v; want the page's backend", err)
		case allow && !strings.Contains(errb.String(), "erp.nxbatch-prueba.invalid"):
			t.Errorf("with --allow-insecure-http the page does not warn:\n%s", errb.String())
		}
	}
}

// stateEnv is a command's environment whose state folder is dir; output
// and log lines go to out and errb.
func stateEnv(dir string, out, errb *bytes.Buffer) *env {
	return &env{ctx: context.Background(), stdout: out, stderr: errb, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}, log: slog.New(slog.NewTextHandler(errb, nil))}
}

// TestServeUsers: `serve user add|list|remove` keep the users of the
// journal's state folder; a short password or a bad name is refused.
func TestServeUsers(t *testing.T) {
	dir := t.TempDir()
	jpath := filepath.Join(dir, "state", "journal")
	cmd := func(stdin string, args ...string) (string, string, error) {
		var out, errb bytes.Buffer
		e := stateEnv(dir, &out, &errb)
		e.stdin = strings.NewReader(stdin)
		err := run(e, append([]string{"serve", "--journal", jpath, "user"}, args...))
		return out.String(), errb.String(), err
	}
	refused := []struct {
		stdin string
		args  []string
		want  string
	}{
		{"x\n", []string{"add", "ana"}, "tiene 1 caracteres: debe tener al menos 12"},
		{"", []string{"add", "ana"}, "no se recibió ninguna contraseña"},
		{"correcta-y-larga\n", []string{"add", "ana lópez"}, "no sirve"},
		{"", []string{"remove", "nadie"}, "no hay ningún usuario"},
	}
	for _, tc := range refused {
		_, _, err := cmd(tc.stdin, tc.args...)
		if exitCode(err) != exitUsage || !strings.Contains(render(err, "es"), tc.want) {
			t.Errorf("serve user %v: %v, want %q", tc.args, err, tc.want)
		}
	}
	if out, _, err := cmd("correcta-y-larga\n", "add", "ana"); err != nil || !strings.Contains(out, "usuario ana guardado") {
		t.Fatalf("add: %v\n%s", err, out)
	}
	store := accounts.In(filepath.Join(dir, "state"))
	if ok, err := store.Verify("ana", "correcta-y-larga"); !ok || err != nil {
		t.Fatalf("the added user does not log in: %v", err)
	}
	if out, _, _ := cmd("", "list"); !strings.HasPrefix(out, "ana\t") {
		t.Errorf("list: %q", out)
	}
	if _, _, err := cmd("", "remove", "ana"); err != nil || store.Has("ana") {
		t.Errorf("remove: %v", err)
	}
	if out, errOut, _ := cmd("", "list"); out != "" || !strings.Contains(errOut, "no hay usuarios") {
		t.Errorf("list after remove: %q %q", out, errOut)
	}
}
