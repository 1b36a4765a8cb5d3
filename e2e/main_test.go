package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/writers"
)

// binary is the nxbatch executable TestMain builds from this tree.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nxbatch-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "nxbatch")
	build := exec.Command("go", "build", "-o", binary, "./cmd/nxbatch")
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build nxbatch:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	stopPostgres()
	os.RemoveAll(dir)
	os.Exit(code)
}

// scale is the time scale of every sandbox and run here: the API's 3 s
// stock window becomes 30 ms, its 30 s key hold 300 ms.
const scale = 0.01

// Counter keys of the sandbox's creating endpoints.
var (
	postVenta    = "POST " + nxapi.PathVenta
	postFacturar = "POST " + nxapi.PathFacturar
	postStock    = "POST " + nxapi.PathStock
)

// startSandbox serves the demo data on a loopback port until the test ends.
func startSandbox(t *testing.T, o sandbox.Options) *sandbox.Running {
	t.Helper()
	if o.TimeScale == 0 {
		o.TimeScale = scale
	}
	sb, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

// workspace is one test's state: journal, reports and inputs in a temp dir.
type workspace struct {
	dir     string
	baseURL string
	token   string
}

func newWorkspace(t *testing.T, baseURL string) *workspace {
	return &workspace{dir: t.TempDir(), baseURL: baseURL, token: sandbox.DefaultToken}
}

func (w *workspace) journal() string   { return filepath.Join(w.dir, "state", "journal") }
func (w *workspace) stateHome() string { return filepath.Join(w.dir, "xdg-state") }
func (w *workspace) reportDir() string { return filepath.Join(w.dir, "reports") }

// runArgs are the flags every run against w's API takes, then extra.
func (w *workspace) runArgs(extra ...string) []string {
	args := []string{"run", "--base-url", w.baseURL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
		"--journal", w.journal(), "--report-dir", w.reportDir(), "--no-xlsx"}
	return append(args, extra...)
}

// result is how one nxbatch process ended.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// command prepares nxbatch with args, NX_TOKEN set to w's token and the
// working directory in w (so no default path escapes the temp dir).
func (w *workspace) command(ctx context.Context, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "NX_TOKEN="+w.token, "NX_BASE_URL=", "XDG_STATE_HOME="+w.stateHome())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return cmd, &out, &errb
}

// nx runs nxbatch to its end (at most two minutes).
func (w *workspace) nx(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	err := cmd.Run()
	return ended(t, err, out, errb)
}

// ended turns a finished process into a result; only a failure to run it
// at all fails the test.
func ended(t *testing.T, err error, out, errb *bytes.Buffer) result {
	t.Helper()
	r := result{stdout: out.String(), stderr: errb.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run nxbatch: %v\n%s", err, r)
		}
		r.code = ee.ExitCode()
	}
	return r
}

// row is one row of a result report: column name -> cell.
type row map[string]string

// readReport reads NAME.result.csv of input file name from w's report dir.
func (w *workspace) readReport(t *testing.T, input string) []row {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(input), filepath.Ext(input))
	path := filepath.Join(w.reportDir(), base+".result.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read report: %v", err)
	}
	return parseReport(t, path, data)
}

// parseReport reads the rows of a CSV report: column name -> cell.
func parseReport(t *testing.T, path string, data []byte) []row {
	t.Helper()
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = ';'
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s is empty", path)
	}
	var rows []row
	for _, rec := range recs[1:] {
		m := row{}
		for i, name := range recs[0] {
			if i < len(rec) {
				m[name] = rec[i]
			}
		}
		rows = append(rows, m)
	}
	return rows
}

// id parses an integer cell; "" is 0.
func id(t *testing.T, cell string) int64 {
	t.Helper()
	if cell == "" {
		return 0
	}
	n, err := strconv.ParseInt(cell, 10, 64)
	if err != nil {
		t.Fatalf("cell %q is not an id: %v", cell, err)
	}
	return n
}

// statuses counts rows per result.status.
func statuses(rows []row) map[string]int {
	m := map[string]int{}
	for _, r := range rows {
		m[r["result.status"]]++
	}
	return m
}

// salesHeader is the header of generated sales files.
const salesHeader = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"

// writeSales writes a sales file of n one-line sales with ordenIds from
// first on, all valid against the demo data.
func writeSales(t *testing.T, dir string, n int, first int64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(salesHeader)
	for i := range int64(n) {
		fmt.Fprintf(&b, "%d,cliente%d@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n", first+i, first+i)
	}
	path := filepath.Join(dir, fmt.Sprintf("ventas-%d.csv", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// vouchersByOrden groups the sandbox's vouchers by ordenId.
func vouchersByOrden(st sandbox.State) map[int64][]sandbox.Voucher {
	m := map[int64][]sandbox.Voucher{}
	for _, v := range st.Vouchers {
		if v.OrdenID != 0 {
			m[v.OrdenID] = append(m[v.OrdenID], v)
		}
	}
	return m
}

// noDuplicates fails when any ordenId or presale has more than one voucher.
func noDuplicates(t *testing.T, st sandbox.State) {
	t.Helper()
	orden, presale := map[int64]int{}, map[int64]int{}
	for _, v := range st.Vouchers {
		if v.OrdenID != 0 {
			orden[v.OrdenID]++
		}
		if v.PresaleID != 0 {
			presale[v.PresaleID]++
		}
	}
	for o, n := range orden {
		if n > 1 {
			t.Errorf("ordenId %d has %d vouchers", o, n)
		}
	}
	for p, n := range presale {
		if n > 1 {
			t.Errorf("presale %d was invoiced %d times", p, n)
		}
	}
}

// sum adds the counts of an endpoint's statuses.
func sum(st sandbox.State, endpoint string) int {
	n := 0
	for _, c := range st.Requests[endpoint] {
		n += c
	}
	return n
}

// readSummary reads the summary.json of input's reports.
func (w *workspace) readSummary(t *testing.T, input string) writers.Summary {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(input), filepath.Ext(input))
	data, err := os.ReadFile(filepath.Join(w.reportDir(), base+".summary.json"))
	if err != nil {
		t.Fatalf("read summary: %v", err)
	}
	var s writers.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("parse summary: %v", err)
	}
	return s
}
