package validation

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// emailReference is Email as it was written first (labels split, every
// rune of the local part tested the long way): Email's faster form must
// answer the same for every input.
func emailReference(s string) bool {
	if len(s) > 254 {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || strings.Contains(domain, "@") {
		return false
	}
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	for _, r := range local {
		if r <= ' ' || r == 0x7f || r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) ||
			strings.ContainsRune(`()<>[]\,;:"`, r) {
			return false
		}
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, label := range labels {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
				r > 0x7f && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	return len(tld) >= 2 && strings.Trim(tld, "0123456789") != ""
}

func FuzzEmailMatchesReference(f *testing.F) {
	for _, s := range []string{"ana@example.com", "josé@ñandú.com.ar", "a b@x.com", "a\u00a0b@x.com", "a@x.12",
		"a@x..com", "a@-x.com", "a@x.com.", "a\x7f@x.com", "a\xff@x.com", "a(b)@x.com", "a@" + strings.Repeat("b", 64) + ".com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Email(s), emailReference(s); got != want {
			t.Errorf("Email(%q) = %v, the reference says %v", s, got, want)
		}
	})
}
