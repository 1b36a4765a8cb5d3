package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/writers"
)

// TestCSVReportRowsMadeOnEveryCore: the CSV reports, whose rows are made
// by spans on every core (each goroutine with its own label cache and text
// arena), are byte for byte what the rows made one after another give, for
// the result and the errors file, in both languages, with the page's
// wording, and with requests that carry an outcome and ids. The sheet has
// rows for several spans per goroutine, so that -race sees the makers run
// at once.
func TestCSVReportRowsMadeOnEveryCore(t *testing.T) {
	var sb, later strings.Builder
	sb.WriteString(ventaHeader)
	const sales = 6000
	for i := range sales {
		total, email := "10", fmt.Sprintf("c%d@x.com", i)
		switch {
		case i%7 == 0:
			total = "11" // wrong: subtotal 10
		case i%11 == 0:
			email = "=cmd()" // neutralised, and invalid
		case i%13 == 0:
			email = `"dice; hola"@x.com` // quoted
		}
		fmt.Fprintf(&sb, "%d,\"%s\",100,5,1,10,0,0,0,%s,EFECTIVO\n", 10_000+i, strings.ReplaceAll(email, `"`, `""`), total)
		if i%3 == 0 {
			// A second line, far away: a request whose rows fall in
			// different spans.
			fmt.Fprintf(&later, "%d,,101,5,1,,,,,,\n", 10_000+i)
		}
	}
	sb.WriteString(later.String())
	f := load(t, "v.csv", sb.String(), LoadOptions{})
	sh := f.Sheets[0]
	if n := sh.Rows(); n < 4*1024 {
		t.Fatalf("%d rows: too few for several spans per goroutine", n)
	}
	for k, r := range sh.Requests {
		switch {
		case r.Status == StatusValid && k%5 == 0:
			r.Conclude(StatusOK, msg.New("sub.ok"))
			r.Record().FacturaID, r.Record().Numero, r.Record().PVNumero = int64(900_000+k), int64(k), 3
		case r.Status == StatusValid && k%9 == 0:
			r.Conclude(StatusRejected, msg.New("sub.rejected", "no; nunca"))
		}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		l      msg.Lang
		errors bool
		say    func(msg.Message) msg.Message
	}{
		{"result es", msg.ES, false, nil},
		{"result en", msg.EN, false, nil},
		{"errors es", msg.ES, true, nil},
		{"errors en, page wording", msg.EN, true, msg.ForPage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			serial := sh.tableSaid(tc.l, tc.say)
			var keep func(Status) bool
			if tc.errors {
				serial = sh.ErrorsTableFor(tc.l, tc.say)
				keep = NeedsAttention
			}
			spans := serial
			spans.Spans = sh.spansSaid(tc.l, keep, tc.say)
			var got [2][]byte
			for k, tab := range []writers.Table{serial, spans} {
				path := filepath.Join(dir, fmt.Sprintf("%s.%d.csv", strings.ReplaceAll(tc.name, " ", "_"), k))
				if err := writers.WriteCSV(path, tab); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				got[k] = b
			}
			if lines := bytes.Count(got[0], []byte("\r\n")); lines < 100 {
				t.Fatalf("only %d lines: the test does not test", lines)
			}
			if !bytes.Equal(got[0], got[1]) {
				a, b := strings.Split(string(got[0]), "\r\n"), strings.Split(string(got[1]), "\r\n")
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Fatalf("line %d by spans:\n%s\nwant, as the rows give it:\n%s", i+1, b[i], a[i])
					}
				}
				t.Fatalf("by spans %d lines, want %d", len(b), len(a))
			}
		})
	}
}
