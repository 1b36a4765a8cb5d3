package accounts

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// TestAccounts: passwords are kept as salted slow hashes in an owner-only
// file; short passwords and bad names are refused; a removed user is gone.
func TestAccounts(t *testing.T) {
	dir := t.TempDir()
	s := &Store{Path: filepath.Join(dir, FileName), Iterations: 2000}
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	refused := []struct{ name, pw, want string }{
		{"ana", "x", "al menos 12"},
		{"ana", "once-chars!", "al menos 12"},
		{"ana", strings.Repeat("a", 2000), "demasiado larga"},
		{"", "correcta-y-larga", "no sirve"},
		{"ana lópez", "correcta-y-larga", "no sirve"},
		{"ana\n", "correcta-y-larga", "no sirve"},
	}
	for _, tc := range refused {
		err := s.Set(tc.name, tc.pw, now)
		var me *msg.Error
		if !errors.As(err, &me) || !strings.Contains(me.Msg.In(msg.ES), tc.want) {
			t.Errorf("Set(%q, %d chars) = %v, want %q", tc.name, len(tc.pw), err, tc.want)
		}
	}
	for _, u := range []string{"ana", "beto"} {
		if err := s.Set(u, "la misma clave larga", now); err != nil {
			t.Fatal(err)
		}
	}
	st, err := os.Stat(s.Path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("users file: %v %v, want 0600", st, err)
	}
	raw, _ := os.ReadFile(s.Path)
	if strings.Contains(string(raw), "la misma clave") {
		t.Fatal("the users file holds a password")
	}
	users, _ := s.List()
	if len(users) != 2 || users[0].Hash == users[1].Hash || !strings.HasPrefix(users[0].Hash, "pbkdf2-sha256$2000$") {
		t.Fatalf("the same password is not salted apart: %+v", users)
	}
	tests := []struct {
		user, pw string
		ok       bool
	}{
		{"ana", "la misma clave larga", true},
		{"ana", "la misma clave largA", false},
		{"ana", "", false},
		{"carla", "la misma clave larga", false},
		{"ana", strings.Repeat("x", 5000), false},
	}
	for _, tc := range tests {
		if ok, err := s.Verify(tc.user, tc.pw); ok != tc.ok || err != nil {
			t.Errorf("Verify(%q, %q) = %v, %v; want %v", tc.user, tc.pw, ok, err, tc.ok)
		}
	}
	if err := s.Remove("ana"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Verify("ana", "la misma clave larga"); ok || s.Has("ana") || !s.Has("beto") {
		t.Error("a removed user still logs in")
	}
	if err := s.Remove("ana"); err == nil {
		t.Error("removing an unknown user is not an error")
	}
	// A file others can read is refused.
	_ = os.Chmod(s.Path, 0o644)
	if _, err := s.Verify("beto", "la misma clave larga"); err == nil {
		t.Error("a users file others can read is used")
	}
}

// FuzzCheck: a stored hash of any form never panics the check.
func FuzzCheck(f *testing.F) {
	h, _ := hash("correcta-y-larga", 10)
	f.Add(h, "correcta-y-larga")
	f.Add("pbkdf2-sha256$0$$", "x")
	f.Add("pbkdf2-sha256$9999999999$AAAA$AAAA", "x")
	f.Fuzz(func(t *testing.T, h, pw string) {
		if parts := strings.Split(h, "$"); len(parts) == 4 && len(parts[1]) > 3 {
			return // costly, not interesting
		}
		_, _ = check(h, pw)
	})
}

// FuzzLoad: a users file of any content is read or refused, never a
// panic; what is read is sorted by name, and its hashes are checked or
// refused.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"users":[{"name":"ana","hash":"pbkdf2-sha256$10$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","added":"2026-11-20T10:00:00Z"}]}`))
	f.Add([]byte(`{"users":null}`))
	f.Add([]byte(`[]`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Store{Path: filepath.Join(dir, FileName)}
		if err := os.WriteFile(s.Path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		users, err := s.List()
		if err != nil {
			return
		}
		for i, u := range users {
			if i > 0 && users[i-1].Name > u.Name {
				t.Fatalf("not sorted: %q before %q", users[i-1].Name, u.Name)
			}
			if parts := strings.Split(u.Hash, "$"); len(parts) == 4 && len(parts[1]) > 3 {
				continue // costly, not interesting
			}
			_, _ = check(u.Hash, "x")
		}
	})
}
