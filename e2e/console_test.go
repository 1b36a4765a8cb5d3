package e2e

import (
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/sandbox"
)

// TestConsoleIsInert: text from a file (its name, a header, a cell) can
// carry a carriage return, a newline or a terminal escape sequence; on the
// console and in a cron log it is written as an escape, so it can neither
// forge a line ("0 errores") nor repaint the terminal.
func TestConsoleIsInert(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	forged := "todo bien, 0 errores"
	header := strings.TrimSuffix(salesHeader, "\n") + ",\"nota\r" + forged + "\n" + forged + "\x1b[2J\u202e\"\n"
	line := "790001,cliente@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO,x\n" +
		"790002,no-es-un-email,105,abc,1,1500.00,0,0,0,1500.00,EFECTIVO\x1b[31m,x\n"
	name := "ventas\r" + forged + "\n\x1b]0;titulo\x07.csv"
	path := writeFile(t, w.dir, name, header+line)

	for _, args := range [][]string{
		{"validate", "--no-xlsx", "--report-dir", w.reportDir(), path},
		w.runArgs(path),
	} {
		res := w.nx(t, args...)
		if res.code == 0 {
			t.Errorf("%s: exit 0, want the bad row reported\n%s", args[0], res)
		}
		for stream, text := range map[string]string{"stdout": res.stdout, "stderr": res.stderr} {
			if strings.ContainsAny(text, "\r\x1b\x07\u202e") {
				t.Errorf("%s %s carries a raw control character: %q", args[0], stream, text)
			}
			for _, l := range strings.Split(text, "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), forged) {
					t.Errorf("%s %s has a forged line %q:\n%s", args[0], stream, l, text)
				}
			}
		}
		if !strings.Contains(res.stdout+res.stderr, `ventas\r`+forged+`\n\x1b]0;titulo\a.csv`) {
			t.Errorf("%s: the console does not name the file with its characters escaped:\n%s", args[0], res)
		}
	}
}
