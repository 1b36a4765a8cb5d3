package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Issue 18, "read what the API really sends": the sandbox answers as the
// vendor's public types do (public-facts.md, "Wire types": enums as
// integers, /comprobante's ordenId a string or null), and the real binary
// reconciles sales against it.

// rawGet is one GET of the sandbox's API with its token, its body kept as
// the wire had it.
func rawGet(t *testing.T, base, path string) map[string]json.RawMessage {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(nxapi.TokenHeader, sandbox.DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var m map[string]json.RawMessage
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &m) != nil {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	return m
}

// TestReconcileVendorWire: sales whose answers were lost (processed, then
// the connection cut) or refused with a 500 before processing are left
// unknown by the run; reconcile, reading the vendor's wire from the
// sandbox, settles the ones that exist as ok with the sandbox's ids, found
// by their ordenId written as a string, and the absent ones as failed.
func TestReconcileVendorWire(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Fail500: 0.15, DropAfter: 0.15, Seed: 18})
	w := newWorkspace(t, sb.URL)
	const sales, first = 40, 180001
	input := writeSales(t, w.dir, sales, first)
	if res := w.nx(t, w.runArgs("--workers", "4", "--rate", "0", input)...); res.code != 3 {
		t.Fatalf("run: exit %d, want 3 (some unknown)\n%s", res.code, res)
	}
	entries := recEntries(t, w)
	unknown := unknownKeys(entries, "venta")
	counts := sb.Server.State().Requests[postVenta]
	if counts[500] == 0 || counts[0] == 0 {
		t.Fatalf("the sandbox injected no 500 or no dropped answer (%v): pick another seed", counts)
	}
	recSleepUntil(recLastAttempt(entries).Add(sendrules.Scale(3*time.Minute, scale) + 100*time.Millisecond))
	if res := w.nx(t, w.recArgs("--settle-after", "3m")...); res.code != 0 {
		t.Fatalf("reconcile: exit %d, want 0 (everything settled)\n%s", res.code, res)
	}
	failed := settledAgainstSandbox(t, w, sb, "venta", unknown, false)
	if len(failed) == 0 || len(failed) == len(unknown) {
		t.Fatalf("%d of %d unknown sales failed: want some found and some absent (pick another seed)", len(failed), len(unknown))
	}

	// What reconcile read was the vendor's wire: the evidence of a sale
	// found keeps the ordenId as the API wrote it, and the sandbox writes
	// it as a string, with estado and comprobanteTipo as integers.
	var found journal.Entry
	for _, e := range recEntries(t, w) {
		if _, ok := unknown[e.Key.Business]; ok && e.State == journal.OK {
			found = e
			break
		}
	}
	if !strings.Contains(found.Evidence, `"ordenId":"`+found.Key.Business+`"`) {
		t.Errorf("%s: evidence %s, want the ordenId read as the string the wire carries", found.Key, found.Evidence)
	}
	time.Sleep(sendrules.Scale(10*time.Second, scale)) // the comprobante window the reads took
	m := rawGet(t, sb.URL, nxapi.PathComprobante+strconv.FormatInt(found.FacturaID, 10))
	if got := string(m["ordenId"]); got != strconv.Quote(found.Key.Business) {
		t.Errorf("the sandbox wrote ordenId %s, want the string %q", got, found.Key.Business)
	}
	for _, f := range []string{"estado", "comprobanteTipo"} {
		if _, err := strconv.Atoi(string(m[f])); err != nil {
			t.Errorf("the sandbox wrote %s %s, want an integer", f, m[f])
		}
	}
}
