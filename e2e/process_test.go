package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/sandbox"
)

// TestConcurrentRunsOneJournal starts two runs of the same file on one
// journal at once: one submits, the other exits 4 saying the journal is
// taken; with --wait the second waits for the first and skips everything.
// Nothing is invoiced twice either way.
func TestConcurrentRunsOneJournal(t *testing.T) {
	tests := []struct {
		name     string
		extra    []string
		wantBusy bool // one run refuses to start
	}{
		{"exit at once", nil, true},
		{"wait", []string{"--wait", "1m"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb := startSandbox(t, sandbox.Options{Latency: 20 * time.Millisecond})
			w := newWorkspace(t, sb.URL)
			const sales = 80
			input := writeSales(t, w.dir, sales, 500001)
			args := w.runArgs(append(tc.extra, "--workers", "2", "--rate", "0", input)...)

			results := make(chan result, 2)
			for range 2 {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					cmd, out, errb := w.command(ctx, args...)
					results <- ended(t, cmd.Run(), out, errb)
				}()
			}
			a, b := <-results, <-results
			if a.code != 0 {
				a, b = b, a
			}
			if a.code != 0 {
				t.Fatalf("neither run succeeded:\n%s\n---\n%s", a, b)
			}
			switch {
			case tc.wantBusy && b.code != 4:
				t.Errorf("second run: exit %d, want 4\n%s", b.code, b)
			case tc.wantBusy && !strings.Contains(b.stderr, w.journal()):
				t.Errorf("second run does not name the journal it found taken:\n%s", b)
			case !tc.wantBusy && b.code != 0:
				t.Errorf("waiting run: exit %d, want 0\n%s", b.code, b)
			}
			st := sb.Server.State()
			noDuplicates(t, st)
			if len(st.Vouchers) != sales || sum(st, postVenta) != sales {
				t.Errorf("%d vouchers from %d requests, want %d of each", len(st.Vouchers), sum(st, postVenta), sales)
			}
			if !tc.wantBusy {
				// The report is the later run's: it found everything done.
				if got := statuses(w.readReport(t, input)); got["skipped"] != sales {
					t.Errorf("report of the later run: %v, want all %d skipped", got, sales)
				}
			}
		})
	}
}

// TestInterruptSettlesInFlight sends SIGINT mid-run: the run stops taking
// work, settles the requests in flight (none left unknown), writes the
// reports with the rest pending, and exits 4; a rerun finishes the job.
func TestInterruptSettlesInFlight(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 40 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	const sales = 150
	input := writeSales(t, w.dir, sales, 400001)
	args := w.runArgs("--workers", "3", "--rate", "0", input)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); sum(sb.Server.State(), postVenta) < 20; {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no 20 requests in a minute: %s", ended(t, cmd.Wait(), out, errb))
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	res := ended(t, cmd.Wait(), out, errb)
	if res.code != 4 {
		t.Errorf("exit %d, want 4\n%s", res.code, res)
	}
	st := sb.Server.State()
	got := statuses(w.readReport(t, input))
	if got["ok"] != len(st.Vouchers) || got["ok"]+got["pending"] != sales || got["pending"] == 0 {
		t.Errorf("rows %v, %d vouchers: want ok for each voucher and the rest pending", got, len(st.Vouchers))
	}
	if n := sum(st, postVenta); n != len(st.Vouchers) {
		t.Errorf("%d requests reached the sandbox, %d vouchers: an in-flight request was abandoned", n, len(st.Vouchers))
	}
	j, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := j.List(context.Background(), journal.Unknown)
	j.Close()
	if err != nil || len(unknown) != 0 {
		t.Errorf("journal after the interrupt: %d unknown entries (%v)", len(unknown), err)
	}

	if res := w.nx(t, args...); res.code != 0 {
		t.Fatalf("rerun: %s", res)
	}
	st = sb.Server.State()
	noDuplicates(t, st)
	if len(st.Vouchers) != sales {
		t.Errorf("%d vouchers after the rerun, want %d", len(st.Vouchers), sales)
	}
}

// TestTokenNeverWritten runs with a canary token, through faults, a refused
// token, a token file and the journal commands, and then looks for the
// canary in every byte nxbatch wrote: stdout, stderr, reports, summaries,
// the journal and the catalog cache.
func TestTokenNeverWritten(t *testing.T) {
	const canary = "CANARY-7f3c9e1d-token-must-never-leak"
	sb := startSandbox(t, sandbox.Options{Token: canary, Fail500: 0.1, DropAfter: 0.1, Seed: 3})
	other := startSandbox(t, sandbox.Options{Token: "another-token"})
	w := newWorkspace(t, sb.URL)
	w.token = canary
	var outputs []string
	record := func(r result, want int) {
		t.Helper()
		if r.code != want {
			t.Errorf("exit %d, want %d\n%s", r.code, want, r)
		}
		outputs = append(outputs, r.stdout, r.stderr)
	}

	sales := writeSales(t, w.dir, 50, 300001)
	all := w.runArgs(sample(t, "ventas.csv"), sample(t, "facturar.csv"), sample(t, "stock.csv"), sales)
	record(w.nx(t, all...), 3) // faults leave some outcomes unknown
	record(w.nx(t, w.runArgs("--lang", "en", sales)...), 3)
	record(w.nx(t, "journal", "list", "--journal", w.journal()), 0)

	// The token refused (401), read from a file instead of the environment.
	tokenFile := filepath.Join(w.dir, "token")
	if err := os.WriteFile(tokenFile, []byte(canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.token = ""
	refused := w.runArgs("--token-file", tokenFile, sales)
	refused[2] = other.URL // --base-url
	record(w.nx(t, refused...), 4)

	for i, o := range outputs {
		if strings.Contains(o, canary) {
			t.Errorf("output %d shows the token:\n%s", i, o)
		}
	}
	files := 0
	err := filepath.WalkDir(w.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == tokenFile {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if strings.Contains(string(data), canary) {
			t.Errorf("%s holds the token", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 8 {
		t.Errorf("only %d files written: the runs did not get far enough to prove anything", files)
	}
}
