package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/listener"
)

// nx runs nxbatch in-process in dir and returns its exit code, stdout and
// stderr (the error main would print included).
func nx(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
		log: slog.New(slog.NewTextHandler(&errb, nil))}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	err = run(e, args)
	var ee *exitError
	if err != nil && (!errors.As(err, &ee) || ee.err != nil) {
		errb.WriteString(render(err, langOf(args)))
	}
	return exitCode(err), out.String(), errb.String()
}

// TestWebhooksSetSecretOverPlainHTTP: the shared secret is what keeps
// forged events out, and over plain http to another host anyone on the
// path reads it. webhooks set refuses that (before anything reaches the
// API or the store) unless --allow-insecure-http, and then warns; https
// and loopback http are fine, and so is http when no secret is sent.
func TestWebhooksSetSecretOverPlainHTTP(t *testing.T) {
	const refusedES, warnES = "usa http:// sin cifrar", "Atención: con --allow-insecure-http"
	tests := []struct {
		name       string
		url        string
		args       []string
		keptSecret bool // a secret from an earlier set is in the store
		code       int
		inStderr   string
		notStderr  string
	}{
		{"http to another host", "http://stock.example.com/eventos", []string{"--secret"}, false, exitUsage, refusedES, ""},
		{"http to an address of another host", "http://192.0.2.7:8092/", []string{"--secret"}, false, exitUsage, refusedES, ""},
		{"the kept secret over http", "http://stock.example.com/eventos", nil, true, exitUsage, refusedES, ""},
		{"in English", "http://stock.example.com/eventos", []string{"--secret", "--lang", "en"}, false, exitUsage, "uses unencrypted http://", ""},
		{"allowed, with a warning", "http://stock.example.com/eventos", []string{"--secret", "--allow-insecure-http"}, false, exitOK, warnES, ""},
		{"https", "https://stock.example.com/eventos", []string{"--secret"}, false, exitOK, "", "sin cifrar"},
		{"http to loopback", "http://127.0.0.1:8092/eventos", []string{"--secret"}, false, exitOK, "", "sin cifrar"},
		{"http to localhost", "http://localhost:8092/eventos", []string{"--secret"}, false, exitOK, "", "sin cifrar"},
		{"http to IPv6 loopback", "http://[::1]:8092/eventos", []string{"--secret"}, false, exitOK, "", "sin cifrar"},
		{"http without a secret", "http://stock.example.com/eventos", nil, false, exitOK, "", "sin cifrar"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			store := filepath.Join(dir, "store")
			if tt.keptSecret {
				if err := listener.SaveSecret(store, "kept-secret"); err != nil {
					t.Fatal(err)
				}
			}
			args := append([]string{"webhooks", "set", "--sandbox", "--env", "test", "--time-scale", "0.01",
				"--journal", filepath.Join(dir, "journal"), "--store", store, "--url", tt.url}, tt.args...)
			code, out, errOut := nx(t, dir, args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			if tt.inStderr != "" && !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.inStderr, errOut)
			}
			if tt.notStderr != "" && strings.Contains(errOut, tt.notStderr) {
				t.Errorf("stderr has %q:\n%s", tt.notStderr, errOut)
			}
			fi, statErr := os.Stat(filepath.Join(store, listener.SecretFile))
			created := statErr == nil && !tt.keptSecret
			switch wantNew := tt.code == exitOK && len(tt.args) > 0 && tt.args[0] == "--secret"; {
			case created != wantNew:
				t.Errorf("a new secret stored: %v, want %v", created, wantNew)
			case created && fi.Mode().Perm() != 0o600:
				t.Errorf("the secret has mode %v", fi.Mode().Perm())
			}
			// The embedded sandbox announces itself when a command reaches
			// the API; a refusal never does.
			if reached := strings.Contains(errOut, "sandbox de la API") || strings.Contains(errOut, "API sandbox"); reached != (tt.code == exitOK) {
				t.Errorf("reached the API: %v, want %v\n%s", reached, tt.code == exitOK, errOut)
			}
		})
	}
}

// TestWebhooksSetRefusesASymlinkedSecret: the secret file is checked
// before the API gets the new secret, so the ERP never sends one that
// listen cannot have.
func TestWebhooksSetRefusesASymlinkedSecret(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	if err := os.Mkdir(store, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, filepath.Join(store, listener.SecretFile)); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := nx(t, dir, "webhooks", "set", "--sandbox", "--env", "test", "--time-scale", "0.01",
		"--journal", filepath.Join(dir, "journal"), "--store", store, "--url", "https://stock.example.com/", "--secret")
	if code != exitUsage || !strings.Contains(errOut, "es un enlace simbólico") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if strings.Contains(errOut, "sandbox de la API") {
		t.Errorf("the API was called:\n%s", errOut)
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the link's target was created")
	}
}

// TestStockExportReportsRefusedEvents: events listen had to refuse are
// stock the export cannot show; stock export says so, in the user's
// language, and writes the file owner-only.
func TestStockExportReportsRefusedEvents(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	st, err := listener.Open(store, listener.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append([]byte(`[{"articuloId":7,"unidades":3}]`)); err != nil {
		t.Fatal(err)
	}
	st.Refuse(listener.TooLarge, 1)
	st.Refuse(listener.Malformed, 1)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, want string
	}{
		{"es", "Atención: eventos del ERP rechazados: 2 (no guardados: 0; demasiado grandes: 1; mal formados: 1)"},
		{"en", "Warning: events from the ERP refused: 2 (not stored: 0; too large: 1; malformed: 1)"},
	}
	for _, tt := range tests {
		out := filepath.Join(dir, "stock-"+tt.lang+".csv")
		code, stdout, errOut := nx(t, dir, "stock", "export", out, "--store", store, "--lang", tt.lang)
		if code != exitOK || !strings.Contains(errOut, tt.want) {
			t.Errorf("--lang %s: exit %d\nstdout:\n%s\nstderr:\n%s", tt.lang, code, stdout, errOut)
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("--lang %s: export %v %v, want mode 0600", tt.lang, fi, err)
		}
	}
	// And none when nothing was refused.
	clean := filepath.Join(dir, "clean")
	if err := listener.SaveSecret(clean, "x"); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := nx(t, dir, "stock", "export", filepath.Join(dir, "c.csv"), "--store", clean); code != exitOK || strings.Contains(errOut, "rechazaron") {
		t.Errorf("a store without refusals: exit %d\n%s", code, errOut)
	}
}

// TestListenAndStockExportRefuseSymlinks: a symbolic link at the store or
// at the export's path is refused with a message that names it.
func TestListenAndStockExportRefuseSymlinks(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "store")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "stock.csv")
	if err := os.Symlink(filepath.Join(dir, "nowhere.csv"), out); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		path string
	}{
		{"listen --store link", []string{"listen", "--addr", "127.0.0.1:0", "--store", link}, link},
		{"stock export --store link", []string{"stock", "export", filepath.Join(dir, "x.csv"), "--store", link}, link},
		{"stock export to a link", []string{"stock", "export", out, "--store", real}, out},
	}
	for _, tt := range tests {
		code, _, errOut := nx(t, dir, tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.path+" es un enlace simbólico") {
			t.Errorf("%s: exit %d, stderr:\n%s", tt.name, code, errOut)
		}
	}
	if entries, _ := os.ReadDir(real); len(entries) != 0 {
		t.Errorf("files were written through the link: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the export's dangling link's target was created")
	}
}

// TestStoreDefaultsToStateFolder: without --store, listen's store is
// listen/ in the user's state folder, so stock export run from any folder
// finds the snapshot that listen (a service started elsewhere) keeps.
func TestStoreDefaultsToStateFolder(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	st, err := listener.Open(filepath.Join(state, "nxbatch", "listen"), listener.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append([]byte(`[{"articuloId":7,"unidades":3}]`)); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(dir, "otra-carpeta")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	}
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: getenv,
		log: slog.New(slog.NewTextHandler(&errb, nil))}
	export := filepath.Join(elsewhere, "stock.csv")
	if err := run(e, []string{"stock", "export", export}); err != nil {
		t.Fatalf("stock export without --store: %s\n%s", render(err, "es"), errb.String())
	}
	data, err := os.ReadFile(export)
	if err != nil || !strings.Contains(string(data), "7") {
		t.Errorf("export %q (%v), want article 7 from the state folder's snapshot", data, err)
	}
}
