package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/sandbox"
)

// TestKeyHoldCountsFromTheAnswer: a sale the API refused after taking its
// ordenId is run again at once. The first request reached the API late (a
// slow network), so the API holds the key until well after 30 s from the
// journaled intent; the rerun must wait for the API's hold, not the
// journal's, and get the same refusal again, not "La solicitud ya se esta
// procesando" (which would make it unknown).
func TestKeyHoldCountsFromTheAnswer(t *testing.T) {
	const timeScale = "0.1" // the 30 s hold becomes 3 s
	sb := startSandbox(t, sandbox.Options{TimeScale: 0.1})
	px := startProxy(t, sb.URL, func(n int64, _ *http.Request) (int, string, bool) {
		if n == 1 {
			time.Sleep(1500 * time.Millisecond) // the first request arrives late
		}
		return 0, "", false
	})
	w := newWorkspace(t, px.url)
	input := filepath.Join(w.dir, "ventas.csv")
	// Article 121 is deactivated after the catalog was read: the API
	// refuses the sale after taking its ordenId.
	goneAfterRead(t, w, sb, px.url, timeScale, 121)
	sale := salesHeader + "810001,cliente@example.com,121,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"
	if err := os.WriteFile(input, []byte(sale), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--base-url", px.url, "--time-scale", timeScale, "--journal", w.journal(),
		"--report-dir", w.reportDir(), "--no-xlsx", input}

	for run := 1; run <= 2; run++ {
		if run == 2 {
			// Unchanged, a rejected sale is sent again only when asked.
			args = append([]string{"run", "--retry-rejected"}, args[1:]...)
		}
		res := w.nx(t, args...)
		if res.code != 1 {
			t.Errorf("run %d: exit %d, want 1 (rejected)\n%s", run, res.code, res)
		}
		for _, r := range w.readReport(t, input) {
			if r["result.status"] != "rejected" {
				t.Errorf("run %d: row %s is %q (%s), want rejected", run, r["result.row"], r["result.status"], r["result.message"])
			}
		}
	}
	if n := px.creating.Load(); n != 2 {
		t.Errorf("%d creating requests, want 2 (one per run)", n)
	}
}
