package e2e

import (
	"context"
	bbin "encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/sandbox"
)

// baseArgs are run's flags without --journal (tests of the default
// journal) against baseURL.
func baseArgs(baseURL string, w *workspace, extra ...string) []string {
	args := []string{"run", "--base-url", baseURL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
		"--report-dir", w.reportDir(), "--no-xlsx"}
	return append(args, extra...)
}

// TestTheSameTenantUnderAnotherName: another spelling of the same host
// (127.0.0.1, localhost, a trailing slash) is the same tenant: a rerun
// sends no sale again.
func TestTheSameTenantUnderAnotherName(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 20, 700001)
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("first run: %s", res)
	}
	sent := sum(sb.Server.State(), postVenta)

	localhost := strings.Replace(sb.URL, "127.0.0.1", "localhost", 1) + "/"
	res := w.nx(t, append([]string{"run", "--base-url", localhost}, w.runArgs(input)[3:]...)...)
	if res.code != 0 || sum(sb.Server.State(), postVenta) != sent {
		t.Errorf("rerun addressed as %s: exit %d, %d more sales sent; want none\n%s", localhost, res.code, sum(sb.Server.State(), postVenta)-sent, res)
	}
	if got := statuses(w.readReport(t, input)); got["skipped"] != 20 {
		t.Errorf("rerun as localhost: %v, want 20 skipped", got)
	}

	// A rotated token is the same tenant only at the same origin: see
	// TestTwoTenantsBehindOneURL; another port is another API
	// (TestTwoPortsAreTwoTenants).
}

// TestTheDefaultJournalIsSharedByEveryFolder: with no --journal, runs
// started from two folders share the journal in the user's state folder.
func TestTheDefaultJournalIsSharedByEveryFolder(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 10, 710001)
	for i, folder := range []string{"cron", "escritorio"} {
		dir := filepath.Join(w.dir, folder)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		cmd, out, errb := w.command(context.Background(), baseArgs(sb.URL, w, input)...)
		cmd.Dir = dir
		res := ended(t, cmd.Run(), out, errb)
		if res.code != 0 {
			t.Fatalf("run from %s: %s", folder, res)
		}
		if i == 1 {
			if n := sum(sb.Server.State(), postVenta); n != 10 {
				t.Errorf("%d sales sent by the two runs, want 10 (the second sends nothing)", n)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(w.stateHome(), "nxbatch", "journal")); err != nil {
		t.Errorf("the default journal is not in the state folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(w.dir, "cron", ".nxbatch")); err == nil {
		t.Error("a journal was made in the working folder")
	}
}

// TestUntrustworthyJournalsAreRefused: an empty journal, one whose newest
// meta page was zeroed after a kill, and one with a damaged data page are
// each refused with a message saying what to do: nothing is sent, no Go
// trace.
func TestUntrustworthyJournalsAreRefused(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string)
		want  string
	}{
		{"empty", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "está vacío"},
		{"newest meta page zeroed after a kill", zeroNewestMeta, "está atrasado"},
		{"damaged data page", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for i := 2 * 4096; i < len(data); i++ {
				data[i] ^= 0x5a
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "está dañado"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sb := startSandbox(t, sandbox.Options{})
			w := newWorkspace(t, sb.URL)
			first := writeSales(t, w.dir, 5, 720001)
			if res := w.nx(t, w.runArgs(first)...); res.code != 0 {
				t.Fatalf("first run: %s", res)
			}
			tc.spoil(t, w.journal())
			before := sum(sb.Server.State(), postVenta)
			res := w.nx(t, w.runArgs(first)...)
			if res.code != 2 {
				t.Errorf("exit %d, want 2\n%s", res.code, res)
			}
			if !strings.Contains(res.stderr, tc.want) || !strings.Contains(res.stderr, w.journal()) {
				t.Errorf("stderr does not say %q about %s:\n%s", tc.want, w.journal(), res.stderr)
			}
			for _, trace := range []string{"goroutine ", "panic:", "SIGBUS", "runtime."} {
				if strings.Contains(res.stderr, trace) {
					t.Errorf("stderr shows a Go trace (%q):\n%s", trace, res.stderr)
				}
			}
			if n := sum(sb.Server.State(), postVenta) - before; n != 0 {
				t.Errorf("%d sales sent with a refused journal", n)
			}
		})
	}
}

// zeroNewestMeta zeroes the bbolt meta page with the higher transaction
// id, as a crash between the page's write and its sync can leave it.
func zeroNewestMeta(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	txid := func(i int) uint64 { return bbin.LittleEndian.Uint64(data[i*page+64:]) }
	newest := 0
	if txid(1) > txid(0) {
		newest = 1
	}
	clear(data[newest*page : (newest+1)*page])
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestKillWhileWritingReportsLeavesNoTemporaryFiles kills a validate while
// it writes a large report, then validates again: the second run removes
// what the first left.
func TestKillWhileWritingReportsLeavesNoTemporaryFiles(t *testing.T) {
	w := newWorkspace(t, "")
	input := writeSales(t, w.dir, 60000, 800001)
	tmp := filepath.Join(w.reportDir(), ".nxbatch-tmp")
	killed := false
	for attempt := 0; attempt < 5 && !killed; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd, _, _ := w.command(ctx, "validate", "--offline", "--report-dir", w.reportDir(), input)
		if err := cmd.Start(); err != nil {
			cancel()
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
	watch:
		for {
			select {
			case <-done:
				break watch
			case <-time.After(time.Millisecond):
				if es, _ := os.ReadDir(tmp); len(es) > 0 {
					cmd.Process.Signal(syscall.SIGKILL)
					<-done
					killed = true
					break watch
				}
			}
		}
		cancel()
	}
	if !killed {
		t.Fatal("never caught the run while it wrote its reports")
	}
	if es, _ := os.ReadDir(tmp); len(es) == 0 {
		t.Fatal("the killed run left nothing to clean: the test proves nothing")
	}
	if res := w.nx(t, "validate", "--offline", "--report-dir", w.reportDir(), input); res.code != 0 {
		t.Fatalf("validate after the kill: %s", res)
	}
	es, _ := os.ReadDir(w.reportDir())
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left in the report folder: %s", e.Name())
		}
	}
}

// TestKillWhileSpillingLeavesNoTemporaryFiles kills a validate while the
// XLSX library spills a large report to disk: its spill files are in a
// private folder, and the next command, whatever it is, removes them.
func TestKillWhileSpillingLeavesNoTemporaryFiles(t *testing.T) {
	w := newWorkspace(t, "")
	input := writeSales(t, w.dir, 150000, 810001)
	sysTmp := filepath.Join(w.dir, "tmp")
	os.MkdirAll(sysTmp, 0o700)
	t.Setenv("TMPDIR", sysTmp) // the children inherit it
	files := func() []string {
		var out []string
		filepath.WalkDir(sysTmp, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, _, _ := w.command(ctx, "validate", "--offline", "--report-dir", w.reportDir(), input)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	killed := false
	for !killed {
		select {
		case <-done:
			t.Fatal("the run ended before the XLSX library spilled: the test proves nothing")
		case <-time.After(5 * time.Millisecond):
			if fs := files(); len(fs) > 0 {
				if !strings.Contains(fs[0], "nxbatch-") {
					t.Fatalf("a spill file outside nxbatch's private folder: %s", fs[0])
				}
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				killed = true
			}
		}
	}
	if len(files()) == 0 {
		t.Fatal("the killed run left nothing to clean: the test proves nothing")
	}
	// Any command cleans it: here, listing a journal.
	w.nx(t, "journal", "list", "--journal", w.journal())
	if left := files(); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestJournalListDuringARun: while a run holds the journal, journal list
// answers from the run.
func TestJournalListDuringARun(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 30 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 200, 730001)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, w.runArgs("--workers", "1", "--rate", "0", input)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for sum(sb.Server.State(), postVenta) < 5 {
		time.Sleep(5 * time.Millisecond)
	}
	res := w.nx(t, "journal", "list", "--journal", w.journal(), "--format", "csv")
	if res.code != 0 {
		t.Fatalf("journal list during a run: %s\nrun: %s %s", res, out, errb)
	}
	if lines := strings.Count(res.stdout, "\n"); lines < 5 || !strings.Contains(res.stdout, "/venta/7300") {
		t.Errorf("journal list during a run listed %d lines:\n%s", lines, res.stdout)
	}
}
