package connection

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/apiclient"
)

// TestSaveLoad: a saved connection reads back, both files owner-only, and
// its token file is one --token-file takes.
func TestSaveLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if _, _, err := Load(dir); !errors.Is(err, ErrNone) {
		t.Fatalf("nothing saved: %v, want ErrNone", err)
	}
	if err := Save(dir, Saved{BaseURL: " https://api.example.com/ ", Env: "test"}, " secreto-123 \n"); err != nil {
		t.Fatal(err)
	}
	s, tok, err := Load(dir)
	if err != nil || s.BaseURL != "https://api.example.com" || s.Env != "test" || tok != filepath.Join(dir, TokenFile) {
		t.Fatalf("load: %+v %q %v", s, tok, err)
	}
	for _, f := range []string{File, TokenFile} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v, want owner-only", f, st.Mode(), err)
		}
	}
	token, err := apiclient.LoadToken(tok)
	if err != nil || token.IsZero() || apiclient.CredentialHash("x", token) != apiclient.CredentialHash("x", apiclient.NewToken("secreto-123")) {
		t.Errorf("the token file is not one --token-file takes: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, File))
	if len(b) == 0 || strings.Contains(string(b), "secreto") {
		t.Errorf("the connection file holds the token: %s", b)
	}
}

// TestCheckURL: only http(s) addresses with a host, without credentials.
func TestCheckURL(t *testing.T) {
	for _, tt := range []struct {
		in string
		ok bool
	}{{"https://api.example.com", true}, {"http://127.0.0.1:8080", true}, {"api.example.com", false},
		{"ftp://x", false}, {"https://user:pw@x", false}, {"", false}} {
		if got := CheckURL(tt.in); got != tt.ok {
			t.Errorf("CheckURL(%q) = %v", tt.in, got)
		}
	}
}
