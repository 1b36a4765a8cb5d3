package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// closedPort is a loopback address where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// TestUnreachableAPIEndsQuickly: NX_BASE_URL at a port where nothing
// listens, once for a tenant never seen and once for one the journal
// knows: the run stops (time scale 1) with exit 4, names NX_BASE_URL,
// leaves every row pending, says why in summary.json and writes the
// reports. "Quickly" is the breaker's count (sendrules.Breaker: 5 failures
// to connect in a row), tested without a clock in pipeline's
// TestUnreachableAPIStopsTheRun (at most a handful of attempts, under
// synctest); this test does not time the process, so a loaded machine
// cannot fail it.
func TestUnreachableAPIEndsQuickly(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	known := newWorkspace(t, sb.URL)
	// A first run teaches the journal this tenant; then its API goes away.
	if res := known.nx(t, known.runArgs(writeSales(t, known.dir, 1, 740001))...); res.code != 0 {
		t.Fatalf("first run: %s", res)
	}
	dead := closedPort(t)
	tests := []struct {
		name string
		w    *workspace
		url  string
	}{
		{"a tenant never seen", newWorkspace(t, dead), dead},
		{"a tenant the journal knows", known, sb.URL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if tc.name == "a tenant the journal knows" {
				// Same spelling as before, so the tenant is known; the
				// server behind it is gone.
				sb.Close()
			}
			input := writeSales(t, tc.w.dir, 40, 741001)
			args := []string{"run", "--base-url", url, "--journal", tc.w.journal(), "--report-dir", tc.w.reportDir(), "--no-xlsx", input}
			res := tc.w.nx(t, args...)
			if res.code != 4 {
				t.Errorf("exit %d, want 4\n%s", res.code, res)
			}
			if !strings.Contains(res.stderr, "NX_BASE_URL") {
				t.Errorf("stderr does not name NX_BASE_URL:\n%s", res.stderr)
			}
			if got := statuses(tc.w.readReport(t, input)); got["pending"] != 40 {
				t.Errorf("rows %v, want all 40 pending", got)
			}
			s := tc.w.readSummary(t, input)
			if s.Stopped == "" || !strings.Contains(s.Stopped, url) {
				t.Errorf("summary.json stopped = %q, want why, naming %s", s.Stopped, url)
			}
		})
	}
}

// TestRedirectsAreUnknown: a server that answers creating POSTs with 301,
// 302, 303 or 307: every row is unknown (the sale may exist), the
// redirect's target is never contacted (the token would go with it), and
// a rerun sends nothing and still reports every row unknown.
//
// The server answers the parameter reads as the sandbox would (its demo
// /medios-pago), so the outcome does not depend on how fast the machine
// is: whether a run finds the parameter window (60 s, 0.6 s at this time
// scale) open after GET /config and fetches /medios-pago, or finds it
// closed and leaves the payment methods unchecked, the rows are valid
// either way. (Answering "{}" there made the rows invalid whenever a run
// came more than 0.6 s after the previous parameter read: on a loaded
// machine, the rerun always did.)
func TestRedirectsAreUnknown(t *testing.T) {
	medios := sandbox.DemoData().MediosPago
	var targetHits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		targetHits.Add(1)
	}))
	defer target.Close()
	for _, status := range []int{301, 302, 303, 307} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var posts atomic.Int64
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == "GET" && r.URL.Path == nxapi.PathConfig:
					json.NewEncoder(w).Encode(nxapi.Config{AppID: 42, Nombre: "redirige"})
				case r.Method == "GET" && r.URL.Path == nxapi.PathMediosPago:
					json.NewEncoder(w).Encode(medios)
				case r.Method == "GET":
					w.Write([]byte("{}"))
				case r.Method == "POST":
					posts.Add(1)
					http.Redirect(w, r, target.URL+"/resultado", status)
				}
			}))
			defer api.Close()
			w := newWorkspace(t, api.URL)
			input := writeSales(t, w.dir, 3, 750001)
			res := w.nx(t, w.runArgs(input)...)
			if res.code != 3 {
				t.Errorf("exit %d, want 3 (unknown)\n%s", res.code, res)
			}
			rows := w.readReport(t, input)
			for _, r := range rows {
				if r["result.status"] != "unknown" || !strings.Contains(r["result.message"], "redirección") {
					t.Errorf("row %s: %s %q, want unknown for the redirect", r["result.row"], r["result.status"], r["result.message"])
				}
			}
			sent := posts.Load()
			if sent != 3 {
				t.Errorf("%d POSTs, want one a sale (a redirect is never followed nor resent)", sent)
			}
			if res := w.nx(t, w.runArgs(input)...); res.code != 3 || posts.Load() != sent {
				t.Errorf("rerun: exit %d, %d more POSTs; want 3 and none\n%s", res.code, posts.Load()-sent, res)
			}
			for _, r := range w.readReport(t, input) {
				if r["result.status"] != "unknown" {
					t.Errorf("rerun, row %s: %s %q, want still unknown", r["result.row"], r["result.status"], r["result.message"])
				}
			}
		})
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("the redirect target was contacted %d times", n)
	}
}

// TestClearTextIsRefused: a run pointed at plain http:// on a host that is
// not this machine's loopback is refused before any connection is made,
// unless --allow-insecure-http says so (and then it warns).
func TestClearTextIsRefused(t *testing.T) {
	var ip net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			ip = n.IP
			break
		}
	}
	if ip == nil {
		t.Fatal("this machine has no address but loopback: the test needs one (a network namespace without interfaces?)")
	}
	ln, err := net.Listen("tcp", ip.String()+":0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var conns atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	url := "http://" + ln.Addr().String()
	w := newWorkspace(t, url)
	input := writeSales(t, w.dir, 1, 760001)
	res := w.nx(t, "run", "--base-url", url, "--journal", w.journal(), "--report-dir", w.reportDir(), input)
	if res.code != 2 || !strings.Contains(res.stderr, "sin cifrar") {
		t.Errorf("run over clear text: exit %d, want 2 and a message\n%s", res.code, res)
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("%d connections were made to a clear-text API", n)
	}
	res = w.nx(t, "run", "--base-url", url, "--allow-insecure-http", "--journal", w.journal(), "--report-dir", w.reportDir(), "--timeout", "2s", input)
	if !strings.Contains(res.stderr, "viaja sin cifrar") {
		t.Errorf("--allow-insecure-http does not warn:\n%s", res)
	}
}
