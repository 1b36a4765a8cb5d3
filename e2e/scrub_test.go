package e2e

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// echoHeaders is an error answer that repeats the request's headers, the
// way some APIs and proxies write their error pages; the n-th creating
// request picks one of several shapes.
func echoHeaders(n int64, r *http.Request) (int, string) {
	tok := r.Header.Get(nxapi.TokenHeader)
	switch n % 4 {
	case 0:
		return http.StatusBadRequest, fmt.Sprintf("Solicitud invalida\r\nX-Nx-Token: %s\r\nUser-Agent: %s\r\n", tok, r.UserAgent())
	case 1:
		b, _ := json.Marshal(map[string]any{"error": "encabezados recibidos", "mensajes": []string{"X-Nx-Token: " + tok}, "headers": r.Header})
		return http.StatusInternalServerError, string(b)
	case 2:
		b, _ := json.Marshal(map[string]any{"errores": true, "facturaId": 0, "datos": map[string]any{"error": "token " + tok + " sin permiso"}})
		return http.StatusOK, string(b)
	}
	return http.StatusBadGateway, "<html><pre>upstream refused X-Nx-Token: " + tok + "</pre></html>"
}

// startForwardProxy is an HTTP forward proxy on loopback (for HTTP_PROXY)
// that sends every request to target, except that it answers creating
// requests, and with catalogs the reads of /medios-pago and /motivos, with
// an echo of the request's headers.
func startForwardProxy(t *testing.T, target string, catalogs bool) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(u) }}
	var n int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodPost && creatingPath(r.URL.Path)) ||
			(catalogs && (r.URL.Path == nxapi.PathMediosPago || r.URL.Path == nxapi.PathMotivos)) {
			n++
			status, body := echoHeaders(n, r)
			_, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestEchoedTokenNeverWritten: an API and a proxy that echo the request's
// headers (the token among them) in their error answers, through a run,
// the journal's listings and a catalog pull. Afterwards no output, report
// (CSV and every part of the XLSX), journal or state file holds the token.
func TestEchoedTokenNeverWritten(t *testing.T) {
	const canary = "CANARY-91d2e0-echoed-token-must-never-leak"
	sb := startSandbox(t, sandbox.Options{Token: canary})
	direct := startProxy(t, sb.URL, func(n int64, r *http.Request) (int, string, bool) {
		status, body := echoHeaders(n, r)
		return status, body, true
	})
	w := newWorkspace(t, direct.url)
	w.token = canary
	var outputs []string
	record := func(what string, r result, want ...int) {
		t.Helper()
		ok := false
		for _, c := range want {
			ok = ok || r.code == c
		}
		if !ok {
			t.Errorf("%s: exit %d, want one of %v\n%s", what, r.code, want, r)
		}
		outputs = append(outputs, r.stdout, r.stderr)
	}

	// Straight to an echoing API.
	sales := writeSales(t, w.dir, 12, 410001)
	args := []string{"run", "--base-url", w.baseURL, "--time-scale", "0.01", "--journal", w.journal(), "--report-dir", w.reportDir(), sales}
	res := w.nx(t, args...)
	record("run", res, 1, 3)
	if !strings.Contains(res.stdout+res.stderr, "[redacted]") && !reportSays(t, w, "[redacted]") {
		t.Errorf("no message says where the echoed token was: the echo did not reach the reports\n%s", res)
	}

	// Through a forward proxy (HTTP_PROXY) that echoes: the API's address
	// is a name, so Go's transport uses the proxy; only loopback is dialled.
	fwd := startForwardProxy(t, sb.URL, false)
	stock := writeSales(t, w.dir, 8, 420001)
	viaProxy := []string{"HTTP_PROXY=" + fwd, "http_proxy=" + fwd, "NO_PROXY=", "no_proxy="}
	args = []string{"run", "--base-url", "http://api.nx.test", "--allow-insecure-http", "--time-scale", "0.01",
		"--journal", w.journal(), "--report-dir", w.reportDir(), stock}
	record("run via proxy", nxEnv(t, w, viaProxy, args...), 1, 3)

	for _, list := range [][]string{
		{"journal", "list", "--journal", w.journal()},
		{"journal", "list", "--journal", w.journal(), "--format", "csv"},
		{"journal", "list", "--journal", w.journal(), "--status", "unknown"},
	} {
		record(strings.Join(list, " "), w.nx(t, list...), 0)
	}

	// A catalog pull whose reads get the echo.
	fwdCat := startForwardProxy(t, sb.URL, true)
	viaProxy = []string{"HTTP_PROXY=" + fwdCat, "http_proxy=" + fwdCat, "NO_PROXY=", "no_proxy="}
	record("catalog pull", nxEnv(t, w, viaProxy, "catalog", "pull", "--base-url", "http://api.nx.test",
		"--allow-insecure-http", "--journal", w.journal()), 0, 1, 2, 3)

	for i, o := range outputs {
		if strings.Contains(o, canary) {
			t.Errorf("output %d shows the token:\n%s", i, o)
		}
	}
	files := 0
	err := filepath.WalkDir(w.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		for part, data := range fileTexts(t, path) {
			if strings.Contains(data, canary) {
				t.Errorf("%s%s holds the token", path, part)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 6 {
		t.Errorf("only %d files written: the runs did not get far enough to prove anything", files)
	}
}

// nxEnv runs nxbatch like w.nx with extra environment variables.
func nxEnv(t *testing.T, w *workspace, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	cmd.Env = append(cmd.Env, env...)
	return ended(t, cmd.Run(), out, errb)
}

// fileTexts is a file's bytes, or for a zip (an XLSX) each part's bytes
// uncompressed, keyed by the part's name.
func fileTexts(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{"": string(data)}
	if !strings.HasPrefix(string(data), "PK") {
		return out
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return out
	}
	defer zr.Close()
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out["#"+f.Name] = string(b)
	}
	return out
}

// reportSays reports whether any report in w's report folder holds s.
func reportSays(t *testing.T, w *workspace, s string) bool {
	t.Helper()
	entries, _ := os.ReadDir(w.reportDir())
	for _, e := range entries {
		for _, data := range fileTexts(t, filepath.Join(w.reportDir(), e.Name())) {
			if strings.Contains(data, s) {
				return true
			}
		}
	}
	return false
}
