package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"non-loopback without a password", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0"}, "--password-file"},
		{"a name that may not be local", []string{"serve", "--sandbox", "--addr", "servidor:8080"}, "no es una dirección local"},
		{"a password file others can read", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0", "--password-file", open}, "chmod 600"},
		{"an empty password file", []string{"serve", "--sandbox", "--addr", "0.0.0.0:0", "--password-file", empty}, "está vacío"},
		{"an address that is not one", []string{"serve", "--sandbox", "--addr", "ocho-mil"}, "HOST:PUERTO"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(k string) string {
				if k == "XDG_STATE_HOME" {
					return dir
				}
				return ""
			}, log: slog.New(slog.NewTextHandler(&errb, nil))}
			err := run(e, tc.args)
			if code := exitCode(err); code != exitUsage {
				t.Fatalf("exit %d, want %d (%v)", code, exitUsage, err)
			}
			if got := render(err, "es"); !strings.Contains(got, tc.want) {
				t.Errorf("says %q, want %q", got, tc.want)
			}
		})
	}
}
