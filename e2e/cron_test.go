package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/sandbox"
)

// TestCronDoesNotResendAnUnchangedRejection is the nightly cron job that
// meets the same file every night: a sale the API rejected (an article that
// does not exist) is sent once; the next nights it is not sent again while
// its row is unchanged, its report row says why, summary.json counts it,
// and the run exits 0 (nothing new went wrong) while a new failure beside
// it still exits 1; --retry-rejected sends it anyway, and a fixed row is
// sent.
func TestCronDoesNotResendAnUnchangedRejection(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	// 121 and 119 are deactivated after the catalog was read: only the
	// API refuses them.
	goneAfterRead(t, w, sb, sb.URL, strconv.FormatFloat(scale, 'g', -1, 64), 121, 119)
	bad := "820001,cliente@example.com,121,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"
	good := "820002,cliente@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"
	newBad := "820003,cliente@example.com,119,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"
	fixed := strings.Replace(bad, ",121,", ",105,", 1)
	nights := []struct {
		name       string
		content    string
		extra      []string
		wantCode   int
		wantSent   int    // creating requests this night
		wantBefore int    // rows not sent again
		wantSaid   string // on the console
	}{
		{"first night: rejected", bad + good, nil, 1, 2, 0, ""},
		{"second night: not sent again", bad + good, nil, 0, 0, 1, "no se reenvió"},
		{"third night: still quiet", bad + good, nil, 0, 0, 1, "no se reenvió"},
		{"a new rejection beside it", bad + good + newBad, nil, 1, 1, 1, "no se reenvió"},
		{"--retry-rejected", bad + good + newBad, []string{"--retry-rejected"}, 1, 2, 0, ""},
		{"the row fixed", fixed + good + newBad, nil, 0, 1, 1, "no se reenvió"},
	}
	input := writeFile(t, w.dir, "ventas.csv", "")
	for _, n := range nights {
		writeFile(t, w.dir, "ventas.csv", salesHeader+n.content)
		before := sum(sb.Server.State(), postVenta)
		res := w.nx(t, w.runArgs(append(n.extra, input)...)...)
		if res.code != n.wantCode {
			t.Errorf("%s: exit %d, want %d\n%s", n.name, res.code, n.wantCode, res)
		}
		if sent := sum(sb.Server.State(), postVenta) - before; sent != n.wantSent {
			t.Errorf("%s: %d sales sent, want %d", n.name, sent, n.wantSent)
		}
		if n.wantSaid != "" && !strings.Contains(res.stdout, n.wantSaid) {
			t.Errorf("%s: the console does not say what was not sent again:\n%s", n.name, res.stdout)
		}
		if s := w.readSummary(t, input); s.RejectedBefore != n.wantBefore {
			t.Errorf("%s: summary.json rejectedBefore %d, want %d", n.name, s.RejectedBefore, n.wantBefore)
		}
		for _, r := range w.readReport(t, input) {
			if r["ordenId"] != "820001" || n.wantBefore == 0 || n.name == "the row fixed" {
				continue
			}
			if r["result.status"] != "rejected" || !strings.Contains(r["result.message"], "no cambió") {
				t.Errorf("%s: row of 820001 is %s %q, want rejected saying why it was not sent again", n.name, r["result.status"], r["result.message"])
			}
		}
	}
}
