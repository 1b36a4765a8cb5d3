package msg

import (
	"regexp"
	"strings"
	"testing"
)

// terminal finds what only a terminal user can act on: a flag (--map) or
// an nxbatch command (nxbatch run, `nxbatch catalog show`).
var terminal = regexp.MustCompile("(^|[\\s(«\"'`])--[a-z]|nxbatch (run|validate|serve|catalog|journal|reconcile|template|report|listen|profile|user)\\b")

// pageFamilies are the messages, besides the page's own (web.*), that the
// page shows through ForPage: the rows' problems, a file's, a send's
// outcomes and the templates and workbooks it hands out.
var pageFamilies = []string{"val.", "cell.", "load.", "sub.", "tpl.", "rd.", "conn.", "run.maxerrors", "catc.", "cata."}

// notOnThePage are keys of those families the page never shows, and why.
var notOnThePage = map[string]string{
	"cell.badsepflag": "checks the command line's --decimal flag",
	"catc.export.ext": "catalog export is a command", "catc.export.nothing": "catalog export is a command",
	"catc.pull.hint": "the catalogs page words its own hint (web.catalogs.*)", "catc.notfetched": "the catalogs page words its own (web.catalogs.*)",
	"catc.pull.unauthorized": "the page says web.catalogs.pull.unauthorized",
	"cata.events":            "the command's listener", "cata.events.failed": "the command's listener", "cata.none": "catalog pull, a command",
	"cata.notfetched": "catalog pull, a command", "cata.pull.hint": "catalog pull, a command",
}

// TestPageNeverSendsToTheTerminal: no wording a page user can see names a
// flag or a command: the page's own messages (its log aside, which goes
// to the terminal that started it) and the page's wording of every
// message it shows from the rows, the files, the sends and the templates.
// The command line keeps its own words.
func TestPageNeverSendsToTheTerminal(t *testing.T) {
	checked := 0
	for _, k := range Keys() {
		page := strings.HasPrefix(k, "web.") && !strings.HasPrefix(k, "web.log.")
		for _, f := range pageFamilies {
			if strings.HasPrefix(k, f) {
				page = true
			}
		}
		if _, skip := notOnThePage[k]; !page || skip || strings.HasPrefix(k, pagePrefix) {
			continue
		}
		checked++
		m := ForPage(New(k))
		tx, _ := Lookup(m.Key)
		for _, text := range []string{tx.ES, tx.EN} {
			if terminal.MatchString(text) {
				t.Errorf("%s (as the page says it, %s) sends the user to a terminal: %q", k, m.Key, text)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d keys checked: the scan is broken", checked)
	}
	for k := range notOnThePage {
		if _, ok := Lookup(k); !ok {
			t.Errorf("notOnThePage lists %q, which is not in the catalog", k)
		}
	}
	// The command line keeps its words.
	for k, want := range map[string]string{"load.titlerows": "--header-row", "tpl.intro.run": "nxbatch validate", "val.medioPago.cuenta": "nxbatch catalog show"} {
		if tx, _ := Lookup(k); !strings.Contains(tx.ES, want) {
			t.Errorf("the command line's %s no longer says %s: %q", k, want, tx.ES)
		}
	}
}
