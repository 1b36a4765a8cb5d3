package e2e

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/sandbox"
)

// TestCrashExactlyOnce kills the real binary with SIGKILL at several points
// of a 500-sale run against a slow sandbox, reruns it after each kill, and
// then proves through the sandbox's state that no ordenId was invoiced
// twice and that the final report accounts for every sale: ok, skipped with
// the ids the sandbox holds, or unknown for exactly the requests that were
// in flight at a kill.
func TestCrashExactlyOnce(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 25 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	const sales, workers = 500, 4
	input := writeSales(t, w.dir, sales, 900001)
	args := w.runArgs("--workers", strconv.Itoa(workers), "--rate", "0", input)

	inFlight := map[string]bool{} // ordenIds journaled as sending when a kill came
	for _, killAt := range []int{30, 120, 260, 400} {
		killWhen(t, w, func() bool { return sum(sb.Server.State(), postVenta) >= killAt }, args...)
		// What the killed run left as sending is what was in flight: the next
		// open turns it into unknown.
		unknown := journalUnknown(t, w)
		fresh := 0
		for _, e := range unknown {
			if !inFlight[e.Key.Business] {
				inFlight[e.Key.Business] = true
				fresh++
			}
		}
		if fresh > workers {
			t.Errorf("kill at %d: %d requests were in flight with %d workers", killAt, fresh, workers)
		}
		t.Logf("killed after %d requests reached the sandbox; %d in flight", killAt, fresh)
		noDuplicates(t, sb.Server.State())
	}

	res := w.nx(t, args...)
	wantCode := 0
	if len(inFlight) > 0 {
		wantCode = 3
	}
	if res.code != wantCode {
		t.Errorf("final run: exit %d, want %d\n%s", res.code, wantCode, res)
	}
	st := sb.Server.State()
	noDuplicates(t, st)
	vouchers := vouchersByOrden(st)
	rows := w.readReport(t, input)
	if len(rows) != sales {
		t.Fatalf("final report has %d rows, want %d", len(rows), sales)
	}
	for _, r := range rows {
		orden := r["ordenId"]
		vs := vouchers[id(t, orden)]
		switch r["result.status"] {
		case "ok", "skipped":
			if len(vs) != 1 {
				t.Errorf("ordenId %s is %s but has %d vouchers", orden, r["result.status"], len(vs))
				continue
			}
			sameIDs(t, r, vs[0])
		case "unknown":
			if !inFlight[orden] {
				t.Errorf("ordenId %s is unknown but was not in flight at any kill", orden)
			}
		default:
			t.Errorf("ordenId %s: status %q (%s), want ok, skipped or unknown", orden, r["result.status"], r["result.message"])
		}
	}
	got := statuses(rows)
	t.Logf("final report: %v; %d vouchers; creating requests %v", got, len(st.Vouchers), st.Requests[postVenta])
	if got["skipped"] == 0 || got["ok"] == 0 {
		t.Errorf("final report %v: want both rows skipped (sent before a kill) and ok (sent by the last run)", got)
	}
	if got["unknown"] != len(inFlight) {
		t.Errorf("%d unknown rows, %d requests in flight at the kills", got["unknown"], len(inFlight))
	}
	// One request per sale at most: nothing was resent.
	if n := sum(st, postVenta); n > sales || n < got["ok"]+got["skipped"] {
		t.Errorf("%d requests reached /venta for %d sales, %d created", n, sales, got["ok"]+got["skipped"])
	}
}

// killWhen starts the real binary with args and kills it with SIGKILL as
// soon as reached reports true (polled every 2 ms), then waits for it to
// die. A run that ends before fails the test.
func killWhen(t *testing.T, w *workspace, reached func() bool, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for !reached() {
		select {
		case err := <-waited:
			t.Fatalf("the run ended before it was killed: %s", ended(t, err, out, errb))
		case <-time.After(2 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-waited
}

// journalUnknown lists the workspace journal's unknown entries. Opened
// after a kill, they are the requests the killed run had in flight: the
// open turns what it left as sending into unknown.
func journalUnknown(t *testing.T, w *workspace) []journal.Entry {
	t.Helper()
	j, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	unknown, err := j.List(context.Background(), journal.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	return unknown
}
