package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/sandbox"
)

// TestFaultsNeverDuplicate runs 400 sales against a sandbox that answers 5%
// of them 500, processes 2% and then drops the connection, and leaves 1%
// hanging past the client's timeout. No sale may be invoiced twice; every
// faulted request is unknown and every other one ok with the sandbox's ids;
// a rerun sends nothing; and an operator's `journal resolve` settles an
// unknown either way.
func TestFaultsNeverDuplicate(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Fail500: 0.05, DropAfter: 0.02, Hang: 0.01, Seed: 4})
	w := newWorkspace(t, sb.URL)
	const sales = 400
	input := writeSales(t, w.dir, sales, 700001)
	args := w.runArgs("--workers", "8", "--rate", "0", "--timeout", "300ms", input)

	res := w.nx(t, args...)
	if res.code != 3 {
		t.Errorf("exit %d, want 3 (some outcomes unknown)\n%s", res.code, res)
	}
	st := sb.Server.State()
	noDuplicates(t, st)
	counts := st.Requests[postVenta]
	t.Logf("sandbox answers: %v", counts)
	if counts[500] == 0 || counts[0] == 0 {
		t.Fatalf("the sandbox injected no 500 or no dropped/hung request (%v): pick another seed", counts)
	}
	if n := sum(st, postVenta); n != sales {
		t.Errorf("%d requests reached /venta for %d sales: something was resent or lost", n, sales)
	}
	vouchers := vouchersByOrden(st)
	rows := w.readReport(t, input)
	var processedUnknown, lostUnknown []string
	for _, r := range rows {
		orden := r["ordenId"]
		vs := vouchers[id(t, orden)]
		switch r["result.status"] {
		case "ok":
			if len(vs) != 1 {
				t.Errorf("ordenId %s ok with %d vouchers", orden, len(vs))
				continue
			}
			sameIDs(t, r, vs[0])
		case "unknown":
			if len(vs) == 0 {
				lostUnknown = append(lostUnknown, orden)
			} else {
				processedUnknown = append(processedUnknown, orden)
			}
		default:
			t.Errorf("ordenId %s: status %q (%s), want ok or unknown", orden, r["result.status"], r["result.message"])
		}
	}
	faulted := sales - counts[200]
	if got := statuses(rows)["unknown"]; got != faulted {
		t.Errorf("%d rows unknown, %d requests faulted", got, faulted)
	}
	if len(processedUnknown) == 0 || len(lostUnknown) == 0 {
		t.Fatalf("want unknowns both processed (dropped after commit: %v) and not (500 or hung: %v)",
			processedUnknown, lostUnknown)
	}

	// A rerun sends nothing: unknown stays unknown until an operator says.
	if res := w.nx(t, args...); res.code != 3 {
		t.Errorf("rerun: exit %d, want 3\n%s", res.code, res)
	}
	if n := sum(sb.Server.State(), postVenta); n != sales {
		t.Errorf("the rerun sent %d requests", n-sales)
	}

	// The operator checks the ERP: one sale is there, one is not.
	tenant := journalTenant(t, w)
	for _, v := range []struct{ orden, as string }{{processedUnknown[0], "ok"}, {lostUnknown[0], "failed"}} {
		key := tenant + "/venta/" + v.orden
		if res := w.nx(t, "journal", "resolve", "--journal", w.journal(), key, "--as", v.as, "--note", "checked in the ERP"); res.code != 0 {
			t.Fatalf("resolve %s: %s", key, res)
		}
	}
	res = w.nx(t, args...)
	if res.code != 3 {
		t.Errorf("run after resolving: exit %d, want 3 (the other unknowns remain)\n%s", res.code, res)
	}
	st = sb.Server.State()
	noDuplicates(t, st)
	if n := sum(st, postVenta); n != sales+1 {
		t.Errorf("after resolving one sale as failed, %d requests were sent, want 1", n-sales)
	}
	for _, r := range w.readReport(t, input) {
		want := ""
		switch r["ordenId"] {
		case processedUnknown[0]:
			want = "skipped"
		case lostUnknown[0]:
			want = "ok"
		}
		if want != "" && r["result.status"] != want {
			t.Errorf("after resolving, ordenId %s is %q, want %s", r["ordenId"], r["result.status"], want)
		}
	}
}

// journalTenant reads the tenant part of the journal's keys.
func journalTenant(t *testing.T, w *workspace) string {
	t.Helper()
	j, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	all, err := j.List(context.Background(), "")
	if err != nil || len(all) == 0 {
		t.Fatalf("journal entries: %v, %v", all, err)
	}
	if strings.Contains(all[0].Key.Tenant, "/") {
		t.Fatalf("tenant %q", all[0].Key.Tenant)
	}
	return all[0].Key.Tenant
}
