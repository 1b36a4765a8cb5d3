package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// sandboxCLI runs `nxbatch sandbox ARGS` in-process with a context that is
// already done, so a sandbox that starts prints its lines and stops at once.
func sandboxCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	e := &env{ctx: ctx, stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	err := run(e, append([]string{"sandbox"}, args...))
	if err != nil {
		errb.WriteString(render(err, langOf(args)))
	}
	return exitCode(err), out.String(), errb.String()
}

// TestSandboxCmdStaysLocal is issue 13: an address beyond this machine is
// refused unless --allow-remote, which then warns; the console lines are
// the catalog's, in Spanish by default and in English with --lang en.
func TestSandboxCmdStaysLocal(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		inStdout []string
		inStderr []string
	}{
		{"loopback, Spanish", []string{"--addr", "127.0.0.1:0"}, exitOK,
			[]string{"Sandbox de la API en http://127.0.0.1:", "NX_BASE_URL=http://127.0.0.1:", "no un secreto", "/_sandbox/state", "X-NX-TOKEN", "Sandbox detenido"}, nil},
		{"loopback, English", []string{"--addr", "localhost:0", "--lang", "en"}, exitOK,
			[]string{"API sandbox serving http://127.0.0.1:", "not a secret", "Sandbox stopped"}, nil},
		{"all interfaces", []string{"--addr", "0.0.0.0:0"}, exitUsage,
			nil, []string{"--addr 0.0.0.0:0", "--allow-remote"}},
		{"empty host", []string{"--addr", ":0", "--lang", "en"}, exitUsage,
			nil, []string{"is not a local address", "--allow-remote"}},
		{"a host name", []string{"--addr", "sandbox.example.com:8091"}, exitUsage,
			nil, []string{"no es una dirección local"}},
		{"not HOST:PORT", []string{"--addr", "127.0.0.1"}, exitUsage,
			nil, []string{"no es una dirección válida"}},
		{"export lag", []string{"--addr", "127.0.0.1:0", "--export-lag", "2m", "--lang", "en"}, exitOK,
			[]string{"sales appear in the exports 2 minutes (API time) after they were created"}, nil},
		{"negative export lag", []string{"--addr", "127.0.0.1:0", "--export-lag=-1m"}, exitUsage,
			nil, []string{"No se pudo iniciar el sandbox en 127.0.0.1:0", "export lag -1m0s must not be negative"}},
		{"remote allowed, warned", []string{"--addr", "0.0.0.0:0", "--allow-remote"}, exitOK,
			[]string{"Sandbox de la API en http://"}, []string{"Atención: el sandbox escucha en http://", "fuera de esta máquina"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := sandboxCLI(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			for _, s := range tt.inStdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			for _, s := range tt.inStderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tt.code != exitOK && stdout != "" {
				t.Errorf("a refused address printed %q: nothing may be served", stdout)
			}
		})
	}
}

func TestSandboxLoopbackAddr(t *testing.T) {
	tests := []struct {
		addr    string
		local   bool
		invalid bool
	}{
		{"127.0.0.1:8091", true, false},
		{"127.10.0.3:0", true, false},
		{"[::1]:8091", true, false},
		{"LocalHost:1", true, false},
		{"0.0.0.0:8091", false, false},
		{"[::]:8091", false, false},
		{":8091", false, false},
		{"192.168.1.10:8091", false, false},
		{"localhost.example.com:1", false, false},
		{"127.0.0.1", false, true},
	}
	for _, tt := range tests {
		local, err := loopbackAddr(tt.addr)
		if local != tt.local || (err != nil) != tt.invalid {
			t.Errorf("loopbackAddr(%q) = %v, %v; want %v, invalid %v", tt.addr, local, err, tt.local, tt.invalid)
		}
	}
}
