package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// interceptor decides the fate of the n-th creating POST (from 1) that
// reaches a proxy: answer it itself (ok true) or pass it to the sandbox.
type interceptor func(n int64, r *http.Request) (status int, body string, ok bool)

// proxy is a test-only reverse proxy in front of a sandbox that can answer
// creating POSTs itself: a token refused mid-run, a rate window.
type proxy struct {
	url       string
	creating  atomic.Int64 // creating POSTs that reached the proxy
	intercept atomic.Pointer[interceptor]
}

func startProxy(t *testing.T, target string, f interceptor) *proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{}
	p.intercept.Store(&f)
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && creatingPath(r.URL.Path) {
			n := p.creating.Add(1)
			if f := *p.intercept.Load(); f != nil {
				if status, body, ok := f(n, r); ok {
					_, _ = io.Copy(io.Discard, r.Body)
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(status)
					_, _ = io.WriteString(w, body)
					return
				}
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

func creatingPath(p string) bool {
	return p == nxapi.PathVenta || p == nxapi.PathFacturar || p == nxapi.PathStock
}

// TestUnauthorizedMidRun: the token is refused after 10 creating requests.
// The run stops at once with exit 4, the rest of the rows stay pending
// (none rejected or unknown), and a rerun with the token accepted again
// skips the first ten and sends the rest, once.
func TestUnauthorizedMidRun(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	const accepted, sales = 10, 60
	var refuse atomic.Bool
	refuse.Store(true)
	px := startProxy(t, sb.URL, func(n int64, _ *http.Request) (int, string, bool) {
		if refuse.Load() && n > accepted {
			return http.StatusUnauthorized, `{"error":"Token invalido"}`, true
		}
		return 0, "", false
	})
	w := newWorkspace(t, px.url)
	input := writeSales(t, w.dir, sales, 600001)
	args := w.runArgs("--workers", "4", "--rate", "0", input)

	res := w.nx(t, args...)
	if res.code != 4 {
		t.Errorf("exit %d, want 4\n%s", res.code, res)
	}
	st := sb.Server.State()
	rows := w.readReport(t, input)
	got := statuses(rows)
	if got["ok"] != len(st.Vouchers) || got["ok"] != accepted {
		t.Errorf("rows %v with %d vouchers; want %d ok", got, len(st.Vouchers), accepted)
	}
	if got["ok"]+got["pending"] != sales {
		t.Errorf("rows %v: want only ok and pending", got)
	}
	// The run stopped: at most the workers in flight met the 401.
	if n := px.creating.Load(); n > accepted+4 {
		t.Errorf("%d creating requests reached the API, %d after the first 401", n, n-accepted-1)
	}

	refuse.Store(false)
	res = w.nx(t, args...)
	if res.code != 0 {
		t.Fatalf("rerun with the token accepted: %s", res)
	}
	st = sb.Server.State()
	noDuplicates(t, st)
	got = statuses(w.readReport(t, input))
	if got["skipped"] != accepted || got["ok"] != sales-accepted || len(st.Vouchers) != sales {
		t.Errorf("rerun rows %v, %d vouchers; want %d skipped, %d ok", got, len(st.Vouchers), accepted, sales-accepted)
	}
}

// TestRateWindowWaitedOut: the API answers a creating request 403 "Debe
// esperar 1 segundos entre cada solicitud". The run waits, resends it, and
// no row is rejected.
func TestRateWindowWaitedOut(t *testing.T) {
	tests := []struct {
		file, path string
	}{
		{"ventas.csv", nxapi.PathVenta},
		{"stock.csv", nxapi.PathStock},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			sb := startSandbox(t, sandbox.Options{})
			var refused atomic.Int64
			px := startProxy(t, sb.URL, func(_ int64, r *http.Request) (int, string, bool) {
				if r.URL.Path == tc.path && refused.CompareAndSwap(0, 1) {
					return http.StatusForbidden, `{"error":"` + strings.ReplaceAll(nxapi.MsgEsperarFmt, "%d", "1") + `"}`, true
				}
				return 0, "", false
			})
			w := newWorkspace(t, px.url)
			input := sample(t, tc.file)
			res := w.nx(t, w.runArgs(input)...)
			if res.code != 0 {
				t.Errorf("exit %d, want 0\n%s", res.code, res)
			}
			if refused.Load() != 1 {
				t.Fatal("the proxy refused nothing")
			}
			for _, r := range w.readReport(t, input) {
				if r["result.status"] != "ok" {
					t.Errorf("row %s: %q (%s), want ok", r["result.row"], r["result.status"], r["result.message"])
				}
			}
			st := sb.Server.State()
			noDuplicates(t, st)
			if n := px.creating.Load(); int(n) != sum(st, "POST "+tc.path)+1 {
				t.Errorf("%d creating requests, %d reached the sandbox: want exactly the refused one more", n, sum(st, "POST "+tc.path))
			}
		})
	}
}
