package pgjournal_test

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
)

// TestPasswordOfAnyCharacter: a role whose password holds a space and every
// character that means something in a URL or a keyword string opens the
// journal in each way of writing it (the user part, ?password= with %20 or
// with every character escaped, a keyword/value string, quoted), and no
// display of it shows the password.
func TestPasswordOfAnyCharacter(t *testing.T) {
	name, _ := newDB(t)
	ctx := context.Background()
	role, pw := name+"_any", `a b+c&d=e%f#g'h\i@j:k/l?m ñ`
	if err := srv.Exec(ctx, "postgres", `CREATE ROLE `+role+` LOGIN PASSWORD '`+strings.ReplaceAll(pw, `'`, `''`)+`'`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Exec(ctx, name, `DROP OWNED BY `+role)
		_ = srv.Exec(ctx, "postgres", `DROP ROLE `+role)
	})
	if err := srv.Exec(ctx, "postgres", `GRANT ALL ON DATABASE `+name+` TO `+role); err != nil {
		t.Fatal(err)
	}
	if err := srv.Exec(ctx, name, `GRANT ALL ON SCHEMA public TO `+role); err != nil {
		t.Fatal(err)
	}
	host := "127.0.0.1:" + strconv.Itoa(srv.Port)
	pathEsc := strings.NewReplacer("&", "%26", "=", "%3D", "#", "%23", "?", "%3F", "+", "%2B").Replace(url.PathEscape(pw))
	kwQuoted := "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw) + "'"
	forms := []struct{ name, spec string }{
		{"user part", (&url.URL{Scheme: "postgres", User: url.UserPassword(role, pw), Host: host, Path: "/" + name, RawQuery: "sslmode=disable"}).String()},
		{"?password= with %20", "postgres://" + role + "@" + host + "/" + name + "?sslmode=disable&password=" + pathEsc},
		{"?password= every byte escaped", "postgres://" + role + "@" + host + "/" + name + "?password=" + escapeAll(pw) + "&sslmode=disable"},
		{"keyword string", fmt.Sprintf("host=127.0.0.1 port=%d dbname=%s user=%s password=%s sslmode=disable", srv.Port, name, role, kwQuoted)},
		{"keyword string, spaces around =", fmt.Sprintf("  host = 127.0.0.1  port=%d dbname = %s user=%s password = %s sslmode=disable lease_ttl=5s", srv.Port, name, role, kwQuoted)},
	}
	if !strings.Contains(forms[1].spec, "%20") {
		t.Fatalf("the query form %q has no %%20", forms[1].spec)
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			if !pgjournal.IsURL(f.spec) {
				t.Fatalf("%q is not recognised as PostgreSQL", f.spec)
			}
			s, err := openPG(t, f.spec, journal.Options{})
			if err != nil {
				t.Fatalf("open: %v %s", err, msgOf(err))
			}
			defer s.Close()
			acquire(t, s, "t")
			for _, shown := range []string{s.Path(), pgjournal.Redact(f.spec)} {
				if strings.Contains(shown, pw) || strings.Contains(shown, "ñ") || strings.Contains(shown, "password") {
					t.Errorf("the display shows the password: %q", shown)
				}
				if !strings.Contains(shown, role) || !strings.Contains(shown, "127.0.0.1") {
					t.Errorf("the display %q does not say which journal it is", shown)
				}
			}
		})
	}
	// A wrong password in the keyword form: refused, and neither password
	// is in what the user reads.
	bad := fmt.Sprintf("host=127.0.0.1 port=%d dbname=%s user=%s password='%s'", srv.Port, name, role, "wrong-secret-42")
	_, err := openPG(t, bad, journal.Options{})
	if err == nil {
		t.Fatal("a wrong password opened the journal")
	}
	if text := err.Error() + msgOf(err); strings.Contains(text, "wrong-secret-42") || !strings.Contains(text, "host=127.0.0.1") {
		t.Errorf("the refusal shows the password, or not the journal: %s", text)
	}
}

// escapeAll percent-escapes every byte of s.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// TestIsURLAndRedact: what is taken for PostgreSQL rather than a file, and
// its display.
func TestIsURLAndRedact(t *testing.T) {
	cases := []struct {
		spec     string
		pg       bool
		redacted string
	}{
		{"postgres://u:secret@h:5432/db?sslmode=require", true, "postgres://u@h:5432/db?sslmode=require"},
		{"postgres://u@h/db?password=a%20b&sslmode=require", true, "postgres://u@h/db?sslmode=require"},
		{"postgresql://u@h/db?sslmode=require&password=x+y&application_name=a%20b", true, "postgresql://u@h/db?sslmode=require&application_name=a%20b"},
		{"host=db.internal dbname=nx user=nxbatch password=secret", true, "host=db.internal dbname=nx user=nxbatch"},
		{"dbname=nx password='se cret' host=db", true, "dbname=nx host=db"},
		{"  user = nx password=s3", true, "user=nx"},
		{"journal", false, ""},
		{"/var/lib/nxbatch/journal", false, ""},
		{"hostile=1", false, ""},
		{"./host=db", false, ""},
	}
	for _, c := range cases {
		if got := pgjournal.IsURL(c.spec); got != c.pg {
			t.Errorf("IsURL(%q) = %v, want %v", c.spec, got, c.pg)
		}
		if c.pg {
			if got := pgjournal.Redact(c.spec); got != c.redacted {
				t.Errorf("Redact(%q) = %q, want %q", c.spec, got, c.redacted)
			}
		}
	}
}
