package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// stockCount writes an inventory count of n rows in one movement (warehouse
// 1, INGRESO_STOCK, reason 1), cycling through the 15 articles without
// variants (105 to 119), row i with quantity i%7+1; detalle tells counts
// apart.
func stockCount(t *testing.T, dir, name string, n int, detalle string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("depositoId,motivoId,tipo,fecha,detalle,articulos.articuloId,articulos.cantidad\n")
	for i := range n {
		fmt.Fprintf(&b, "1,1,INGRESO_STOCK,2026-11-20,%s,%d,%d\n", detalle, 105+i%15, i%7+1)
	}
	return writeFile(t, dir, name, b.String())
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// unitsMoved adds, per article, the quantities of every movement the
// sandbox accepted.
func unitsMoved(st sandbox.State) map[int64]nxapi.Decimal {
	m := map[int64]nxapi.Decimal{}
	for _, mv := range st.Movements {
		for _, a := range mv.Body.Articulos {
			m[a.ArticuloID] += *a.Cantidad
		}
	}
	return m
}

// wantMoved is what a count file should move per article: the sum of its
// rows.
func wantMoved(t *testing.T, path string) map[int64]nxapi.Decimal {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[int64]nxapi.Decimal{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		f := strings.Split(line, ",")
		art, _ := strconv.ParseInt(f[5], 10, 64)
		q, _ := strconv.ParseInt(f[6], 10, 64)
		m[art] += nxapi.Decimal(q * 10000)
	}
	return m
}

// TestStockRowsExactlyOnce walks an inventory count through the cases that
// doubled stock or left it unsent: articles repeating across chunks, a row
// added, a quantity changed, another --max-articulos. The sandbox's
// movements are the judge.
func TestStockRowsExactlyOnce(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	const rows = 1200
	count := stockCount(t, w.dir, "conteo.csv", rows, "Recuento")
	res := w.nx(t, w.runArgs("--max-articulos", "500", count)...)
	if res.code != 0 {
		t.Fatalf("first run: %s", res)
	}
	st := sb.Server.State()
	if got := statuses(w.readReport(t, count)); got["ok"] != rows {
		t.Fatalf("first run: %v, want %d ok", got, rows)
	}
	if n := len(st.Movements); n != 3 {
		t.Errorf("%d movements for %d rows by 500, want 3", n, rows)
	}
	want := wantMoved(t, count)
	var total nxapi.Decimal
	for art, q := range unitsMoved(st) {
		if q != want[art] {
			t.Errorf("article %d moved %s, want %s (the sum of its rows)", art, q, want[art])
		}
		total += q
	}
	// The summary speaks stock: units moved per type, and the rows of each
	// movement as ranges, not one number per row.
	sum := w.readSummary(t, count)
	if sum.UnitsMoved["INGRESO_STOCK"] != total.String() || sum.TotalInvoiced != "" {
		t.Errorf("summary: unitsMoved %v, totalInvoiced %q; want INGRESO_STOCK %s and no invoiced total", sum.UnitsMoved, sum.TotalInvoiced, total)
	}
	if len(sum.Created) != 3 || len(sum.Created[0].Rows) != 1 || sum.Created[0].Rows[0] != [2]int{2, 501} {
		t.Errorf("summary created = %+v, want 3 movements, the first with rows 2-501", sum.Created)
	}

	original, _ := os.ReadFile(count)
	steps := []struct {
		name          string
		content       string
		args          []string
		wantCode      int
		wantMovements int
		want          map[string]int
	}{
		{"rerun", string(original), nil, 0, 0, map[string]int{"skipped": rows}},
		{"other --max-articulos", string(original), []string{"--max-articulos", "25"}, 0, 0, map[string]int{"skipped": rows}},
		{"a row added", string(original) + "1,1,INGRESO_STOCK,2026-11-20,Recuento,110,9\n", nil, 0, 1,
			map[string]int{"skipped": rows, "ok": 1}},
		{"a quantity changed", strings.Replace(string(original), ",105,1\n", ",105,50\n", 1), nil, 1, 0,
			map[string]int{"skipped": rows - 1, "conflict": 1}},
	}
	for _, s := range steps {
		before := len(sb.Server.State().Movements)
		if err := os.WriteFile(count, []byte(s.content), 0o600); err != nil {
			t.Fatal(err)
		}
		args := append(append([]string{}, s.args...), count)
		res := w.nx(t, w.runArgs(args...)...)
		if res.code != s.wantCode {
			t.Errorf("%s: exit %d, want %d\n%s", s.name, res.code, s.wantCode, res)
		}
		after := sb.Server.State().Movements
		if n := len(after) - before; n != s.wantMovements {
			t.Errorf("%s: %d new movements, want %d", s.name, n, s.wantMovements)
		}
		report := w.readReport(t, count)
		got := statuses(report)
		for k, n := range s.want {
			if got[k] != n {
				t.Errorf("%s: rows %v, want %v", s.name, got, s.want)
				break
			}
		}
		switch s.name {
		case "a row added":
			last := after[len(after)-1].Body.Articulos
			if len(last) != 1 || last[0].ArticuloID != 110 || *last[0].Cantidad != nxapi.Decimal(90000) {
				t.Errorf("the new movement carried %+v, want only the added row", last)
			}
		case "a quantity changed":
			msg := report[0]["result.message"]
			if report[0]["result.status"] != "conflict" || !strings.Contains(msg, "cantidad 1 ") || !strings.Contains(msg, "movimiento 1 de la API") {
				t.Errorf("conflict row: %s %q, want the quantity sent and the movement", report[0]["result.status"], msg)
			}
		}
	}
}

// TestStockKilledMidCountResumes kills a chunked count while movements are
// in flight, reruns it, and checks that no row moved stock twice: every row
// is ok, skipped, or unknown for exactly the movements in flight at the
// kill.
func TestStockKilledMidCountResumes(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 40 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	count := stockCount(t, w.dir, "conteo.csv", 400, "Recuento")
	args := w.runArgs("--max-articulos", "25", count)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for sum(sb.Server.State(), postStock) < 5 {
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
	j, err := journal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	inFlight := map[string]bool{} // row identities of movements in flight
	unknown, _ := j.List(context.Background(), journal.Unknown)
	for _, e := range unknown {
		for _, u := range e.Units {
			inFlight[u] = true
		}
	}
	j.Close()

	res := w.nx(t, args...)
	wantCode := 0
	if len(inFlight) > 0 {
		wantCode = 3
	}
	if res.code != wantCode {
		t.Errorf("rerun: exit %d, want %d\n%s", res.code, wantCode, res)
	}
	st := sb.Server.State()
	moved := unitsMoved(st)
	want := wantMoved(t, count)
	rows := w.readReport(t, count)
	for _, r := range rows {
		switch r["result.status"] {
		case "ok", "skipped":
		case "unknown":
			if !inFlight[r["result.rowId"]] {
				t.Errorf("row %s is unknown but was not in a movement in flight", r["result.row"])
			}
		default:
			t.Errorf("row %s: %s (%s)", r["result.row"], r["result.status"], r["result.message"])
		}
	}
	if got := statuses(rows)["unknown"]; got != len(inFlight) {
		t.Errorf("%d unknown rows, %d rows in movements in flight", got, len(inFlight))
	}
	// No row moved twice: every article moved at most what its rows say
	// (less only by the rows of a movement in flight that never arrived).
	for art, q := range moved {
		if q > want[art] {
			t.Errorf("article %d moved %s, more than its rows' %s: a row moved twice", art, q, want[art])
		}
	}
	if len(inFlight) == 0 {
		for art, q := range want {
			if moved[art] != q {
				t.Errorf("article %d moved %s, want %s", art, moved[art], q)
			}
		}
	}
	windowKept(t, st, 3*time.Second, scale)
	if n := st.Requests[postStock][403]; n != 0 {
		t.Errorf("%d movements were refused for the window after the restart", n)
	}
}

// TestStockWindowAcrossRuns: twenty runs one after the other on one
// journal, at time scale 0.1 (a 300 ms window), chunked by 25: no movement
// is refused for the window, within a run or across the restarts.
func TestStockWindowAcrossRuns(t *testing.T) {
	const runScale = 0.1
	sb := startSandbox(t, sandbox.Options{TimeScale: runScale})
	w := newWorkspace(t, sb.URL)
	for i := range 20 {
		count := stockCount(t, w.dir, fmt.Sprintf("conteo-%d.csv", i), 60, fmt.Sprintf("Recuento %d", i))
		args := []string{"run", "--base-url", w.baseURL, "--time-scale", strconv.FormatFloat(runScale, 'g', -1, 64),
			"--journal", w.journal(), "--report-dir", w.reportDir(), "--no-xlsx", "--max-articulos", "25", count}
		if res := w.nx(t, args...); res.code != 0 {
			t.Fatalf("run %d: %s", i, res)
		}
	}
	st := sb.Server.State()
	if n := len(st.Movements); n != 60 {
		t.Errorf("%d movements, want 60 (20 runs of 3)", n)
	}
	if n := st.Requests[postStock][403]; n != 0 {
		t.Errorf("%d of %d movements were refused for the window", n, sum(st, postStock))
	}
	windowKept(t, st, 3*time.Second, runScale)
}

// windowKept fails when two movements the sandbox accepted arrived closer
// than the stock window (scaled by factor).
func windowKept(t *testing.T, st sandbox.State, window time.Duration, factor float64) {
	t.Helper()
	w := time.Duration(float64(window) * factor)
	for i := 1; i < len(st.Movements); i++ {
		if gap := st.Movements[i].Arrived.Sub(st.Movements[i-1].Arrived); gap < w {
			t.Errorf("movements %d and %d arrived %v apart, inside the %v window", st.Movements[i-1].ID, st.Movements[i].ID, gap, w)
		}
	}
}

// TestStockErrorsFileRefed: a count partly refused by the API (an article
// that does not exist in one movement), its errors file fixed and fed back:
// only the refused rows are sent, once; the original file run again
// afterwards sends nothing.
func TestStockErrorsFileRefed(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	var b strings.Builder
	b.WriteString("depositoId,motivoId,tipo,fecha,detalle,articulos.articuloId,articulos.cantidad\n")
	for i := range 30 {
		art := 105 + i%15
		if i == 25 {
			art = 121 // deactivated after the catalog was read: its movement is refused
		}
		fmt.Fprintf(&b, "1,1,INGRESO_STOCK,2026-11-20,Recuento,%d,%d\n", art, i+1)
	}
	count := writeFile(t, w.dir, "conteo.csv", b.String())
	// The article catalog is read while 121 is active; the ERP deactivates
	// it afterwards, which only the API can then say.
	pull := []string{"catalog", "pull", "--articulos", "--base-url", sb.URL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64), "--journal", w.journal()}
	if res := w.nx(t, pull...); res.code != 0 {
		t.Fatalf("catalog pull: %s", res)
	}
	if err := sb.Server.DeactivateArticulo(121); err != nil {
		t.Fatal(err)
	}
	if res := w.nx(t, w.runArgs("--max-articulos", "10", count)...); res.code != 1 {
		t.Fatalf("first run: exit %d, want 1 (one movement refused)\n%s", res.code, res)
	}
	got := statuses(w.readReport(t, count))
	if got["ok"] != 20 || got["rejected"] != 10 {
		t.Fatalf("first run: %v, want 20 ok and the 10 rows of the refused movement rejected", got)
	}
	movements := len(sb.Server.State().Movements)

	errs, err := os.ReadFile(filepath.Join(w.reportDir(), "conteo.errors.csv"))
	if err != nil {
		t.Fatal(err)
	}
	fixed := writeFile(t, w.dir, "conteo.errors.csv", strings.Replace(string(errs), ";121;", ";110;", 1))
	if res := w.nx(t, w.runArgs("--max-articulos", "10", fixed)...); res.code != 0 {
		t.Fatalf("the fixed errors file: %s", res)
	}
	st := sb.Server.State()
	if n := len(st.Movements) - movements; n != 1 || len(st.Movements[len(st.Movements)-1].Body.Articulos) != 10 {
		t.Fatalf("the fixed errors file made %d movements, want 1 carrying its 10 rows", n)
	}
	movements = len(st.Movements)

	res := w.nx(t, w.runArgs("--max-articulos", "10", count)...)
	if n := len(sb.Server.State().Movements) - movements; n != 0 {
		t.Errorf("the original file run again sent %d movements, want none\n%s", n, res)
	}
	got = statuses(w.readReport(t, count))
	if got["skipped"] != 29 || got["conflict"] != 1 {
		t.Errorf("the original file again: %v, want 29 skipped and the fixed row a conflict (it was sent as 110)", got)
	}
}
