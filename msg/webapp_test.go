package msg

import (
	"strings"
	"testing"
)

// TestPageWordingsTakeTheSameArguments: a page wording ("web.page.K") is
// rendered with K's arguments, so it has K's verbs, in both languages.
func TestPageWordingsTakeTheSameArguments(t *testing.T) {
	n := 0
	for _, k := range Keys() {
		base, ok := strings.CutPrefix(k, pagePrefix)
		if !ok {
			continue
		}
		n++
		orig, found := Lookup(base)
		if !found {
			t.Errorf("%s words %s for the page, which is not in the catalog", k, base)
			continue
		}
		page, _ := Lookup(k)
		if a, b := len(verb.FindAllString(orig.ES, -1)), len(verb.FindAllString(page.ES, -1)); a != b {
			t.Errorf("%s has %d verbs, %s has %d: ForPage keeps the arguments", k, b, base, a)
		}
	}
	if n == 0 {
		t.Fatal("no page wordings found: the scan is broken")
	}
	m := ForPage(New("pos.column", New("run.maxerrors", 3), "x"))
	if got := m.In(ES); !strings.Contains(got, "el límite con que se inició esta página") || strings.Contains(got, "--max-errors") {
		t.Errorf("a nested message is not worded for the page: %q", got)
	}
	if got := New("run.maxerrors", 3).In(ES); !strings.Contains(got, "--max-errors") {
		t.Errorf("the command line's wording changed: %q", got)
	}
}
