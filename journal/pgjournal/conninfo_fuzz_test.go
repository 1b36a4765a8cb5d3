package pgjournal

import (
	"strings"
	"testing"
)

// FuzzConnectionString: whatever is given to --journal, reading it never
// panics, a keyword string read back from its written form gives the same
// parameters, and the display of one with a password never shows it.
func FuzzConnectionString(f *testing.F) {
	f.Add("host=db port=5432 password='a b\\'c' sslmode=disable", "s3cr3t-pw")
	f.Add("postgres://u@h/db?password=a%20b&sslmode=require", "zz-secret")
	f.Add("user = x password=\\ y", "q9-secret")
	f.Fuzz(func(t *testing.T, spec, pw string) {
		_ = IsURL(spec)
		_ = Redact(spec)
		_, _, _ = asURL(spec)
		ps, err := parseKeywords(spec)
		if err != nil {
			return
		}
		again, err := parseKeywords(writeKeywords(ps))
		if err != nil || len(again) != len(ps) {
			t.Fatalf("%q written as %q reads back as %v, %v", spec, writeKeywords(ps), again, err)
		}
		for i := range ps {
			if ps[i].key != again[i].key || ps[i].value != again[i].value {
				t.Fatalf("%q: parameter %d %q=%q reads back as %q=%q", spec, i, ps[i].key, ps[i].value, again[i].key, again[i].value)
			}
		}
		if pw == "" || strings.ContainsAny(pw, " \t\r\n'\\=") {
			return
		}
		withPW := "host=db password=" + pw + " " + spec
		shown, err := parseKeywords(Redact(withPW))
		if err != nil {
			t.Fatalf("Redact(%q) = %q does not read back: %v", withPW, Redact(withPW), err)
		}
		if _, ok := lookup(shown, "password"); ok {
			t.Fatalf("Redact(%q) = %q shows a password", withPW, Redact(withPW))
		}
	})
}
