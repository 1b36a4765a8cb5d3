package apiclient

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

const secretText = "s3cr3t-TOKEN-value"

func TestTokenNeverPrints(t *testing.T) {
	tok := NewToken(secretText)
	type exported struct{ T Token }
	type unexported struct{ t Token }
	type pointer struct{ T *Token }

	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("sending", "token", tok, "options", Options{Token: tok})
	slog.New(slog.NewTextHandler(&logged, nil)).Info("sending", "token", tok)
	jsonOut, err := json.Marshal(exported{tok})
	if err != nil {
		t.Fatal(err)
	}
	textOut, err := tok.MarshalText()
	if err != nil {
		t.Fatal(err)
	}

	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", tok), "%s": fmt.Sprintf("%s", tok), "%q": fmt.Sprintf("%q", tok),
		"%x": fmt.Sprintf("%x", tok), "%X": fmt.Sprintf("%X", tok), "%d": fmt.Sprintf("%d", tok),
		"%+v": fmt.Sprintf("%+v", tok), "%#v": fmt.Sprintf("%#v", tok),
		"Print":                fmt.Sprint(tok),
		"exported field %+v":   fmt.Sprintf("%+v", exported{tok}),
		"exported field %#v":   fmt.Sprintf("%#v", exported{tok}),
		"unexported field %+v": fmt.Sprintf("%+v", unexported{tok}),
		"unexported field %#v": fmt.Sprintf("%#v", unexported{tok}),
		"pointer field %+v":    fmt.Sprintf("%+v", pointer{&tok}),
		"options %+v":          fmt.Sprintf("%+v", Options{BaseURL: "http://h", Token: tok}),
		"json":                 string(jsonOut),
		"text":                 string(textOut),
		"slog":                 logged.String(),
	}
	for name, out := range outputs {
		if strings.Contains(out, secretText) {
			t.Errorf("%s leaks the token: %s", name, out)
		}
	}
	for _, name := range []string{"%v", "%s", "%x", "%#v", "Print", "exported field %+v", "json", "text", "slog"} {
		if !strings.Contains(outputs[name], redacted) {
			t.Errorf("%s = %q, want it to say %s", name, outputs[name], redacted)
		}
	}
}

func TestLoadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // WriteFile's mode is subject to umask
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		env     string
		file    string
		want    string
		wantKey string // the msg key of the error, "" for success
	}{
		{name: "env trimmed", env: "  abc123\n", want: "abc123"},
		{name: "env empty", env: "", wantKey: "cli.token.missing"},
		{name: "env blank", env: " \t\n", wantKey: "cli.token.missing"},
		{name: "env with a line break inside", env: "abc\ndef", wantKey: "cli.token.invalid"},
		{name: "file 0600", env: "ignored-env", file: write("ok", "tok-from-file\n", 0o600), want: "tok-from-file"},
		{name: "file 0400", file: write("ro", "readonly", 0o400), want: "readonly"},
		{name: "file 0644 refused", file: write("world", "x", 0o644), wantKey: "cli.token.perms"},
		{name: "file 0640 refused", file: write("group", "x", 0o640), wantKey: "cli.token.perms"},
		{name: "file 0604 refused", file: write("other", "x", 0o604), wantKey: "cli.token.perms"},
		{name: "file empty", file: write("empty", "\n", 0o600), wantKey: "cli.token.emptyfile"},
		{name: "file missing", file: filepath.Join(dir, "nope"), wantKey: "cli.token.read"},
		{name: "file is a directory", file: dir, wantKey: "cli.token.notfile"},
		{name: "file is a FIFO (never opened: it would block)", file: fifo(t), wantKey: "cli.token.notfile"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(TokenEnv, tc.env)
			tok, err := LoadToken(tc.file)
			if tc.wantKey == "" {
				if err != nil {
					t.Fatalf("LoadToken: %v", err)
				}
				if tok.reveal() != tc.want {
					t.Errorf("token = %q, want %q", tok.reveal(), tc.want)
				}
				return
			}
			var me *msg.Error
			if !errors.As(err, &me) || me.Msg.Key != tc.wantKey {
				t.Fatalf("err = %v, want the message %s", err, tc.wantKey)
			}
			if !tok.IsZero() {
				t.Errorf("a failed load returned a non-empty token")
			}
		})
	}
}

func TestLoadTokenPermsMessageNamesFileAndFix(t *testing.T) {
	p := filepath.Join(t.TempDir(), "token.txt")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadToken(p)
	var me *msg.Error
	if !errors.As(err, &me) {
		t.Fatalf("err = %v, want a *msg.Error", err)
	}
	for _, lang := range []msg.Lang{msg.ES, msg.EN} {
		text := me.Msg.In(lang)
		if !strings.Contains(text, p) || !strings.Contains(text, "chmod 600 "+p) || !strings.Contains(text, "0644") {
			t.Errorf("%s: %q does not name the file, its mode and the chmod to run", lang, text)
		}
	}
}

func TestCredentialHash(t *testing.T) {
	want := func(base, tok string) string {
		sum := sha256.Sum256([]byte(base + "\n" + tok))
		return hex.EncodeToString(sum[:])[:16]
	}
	a := NewToken("token-a")
	tests := []struct {
		base string
		tok  Token
		want string
	}{
		{"http://127.0.0.1:1234", a, want("http://127.0.0.1:1234", "token-a")},
		{"http://127.0.0.1:1234/", a, want("http://127.0.0.1:1234", "token-a")},
		{" HTTP://Api.Example.COM:80/base/ ", a, want("http://api.example.com/base", "token-a")},
		{"https://api.example.com:443", a, want("https://api.example.com", "token-a")},
		{"http://127.0.0.1:1234", NewToken("token-b"), want("http://127.0.0.1:1234", "token-b")},
	}
	for _, tc := range tests {
		got := CredentialHash(tc.base, tc.tok)
		if got != tc.want {
			t.Errorf("CredentialHash(%q) = %s, want %s", tc.base, got, tc.want)
		}
		if len(got) != 16 {
			t.Errorf("CredentialHash(%q) has %d characters, want 16", tc.base, len(got))
		}
	}
	if CredentialHash("http://h", a) == CredentialHash("http://h", NewToken("token-b")) {
		t.Error("two tokens on one base URL give the same tenant hash")
	}
	if CredentialHash("http://h1", a) == CredentialHash("http://h2", a) {
		t.Error("one token on two base URLs gives the same tenant hash")
	}
}

// fifo makes a named pipe with no writer: opening it for reading would
// block forever.
func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return p
}
