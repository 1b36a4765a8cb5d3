package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
)

// hostile is text with every kind of character that must not reach a
// terminal as it is: a line break that forges a line, an escape sequence
// that repaints the screen, a TAB that shifts columns, a C1 control, DEL, a
// bidi override and a line separator.
const hostile = "ok\r\nAPPROVED todo bien\x1b[2J\x1b]0;title\x07\tcol\u009b31m\x7f\u202eevil\u2028end"

// TestListingsEscapeControlCharacters: every format of journal list (the
// table, --format csv, --status unknown, --evidence) shows notes, API
// messages, sources and evidence with their control characters escaped,
// and keeps the rest of the text.
func TestListingsEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "journal")
	j, err := boltjournal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range []journal.State{journal.Rejected, journal.Unknown, journal.Unknown} {
		k := journal.Key{Tenant: "app7@production", Kind: "venta", Business: fmt.Sprint(700 + i)}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "ventas" + hostile + ".csv rows 2", Hold: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		if err := j.Finish(context.Background(), k, journal.Outcome{State: st, Message: "La API dijo: " + hostile}); err != nil {
			t.Fatal(err)
		}
	}
	settled := journal.Key{Tenant: "app7@production", Kind: "venta", Business: "702"}
	if err := j.Resolve(context.Background(), settled, journal.Verdict{As: journal.Failed, Note: "nota " + hostile, Evidence: `{"leido":"` + hostile + `"}`}); err != nil {
		t.Fatal(err)
	}
	j.Close()

	for _, args := range [][]string{
		{"journal", "list", "--journal", path},
		{"journal", "list", "--journal", path, "--evidence"},
		{"journal", "list", "--journal", path, "--format", "csv"},
		{"journal", "list", "--journal", path, "--status", "unknown"},
		{"journal", "list", "--journal", path, "--status", "unknown", "--format", "csv"},
		{"journal", "list", "--journal", path, "--lang", "en", "--format", "csv"},
	} {
		t.Run("list "+strings.Join(args[4:], " "), func(t *testing.T) {
			code, out, errb := runCLI(t, dir, args...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, errb)
			}
			for i, r := range out {
				if r != '\n' && needsEscapeForTest(r) {
					t.Fatalf("raw %U at byte %d of the listing:\n%q", r, i, out)
				}
			}
			if lines := strings.Count(out, "\n"); lines > 1+3+6 {
				t.Errorf("%d lines: a control character started lines of its own:\n%s", lines, out)
			}
			if !strings.Contains(out, `ok\r\nAPPROVED todo bien\x1b[2J`) || !strings.Contains(out, `\u202eevil\u2028end`) {
				t.Errorf("the text is not kept, escaped:\n%s", out)
			}
		})
	}
}

// needsEscapeForTest is the rule the listings must follow, written apart
// from the code under test: C0 and C1 controls, DEL, bidi controls and the
// line and paragraph separators.
func needsEscapeForTest(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) ||
		(r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c || r == 0x2028 || r == 0x2029
}
