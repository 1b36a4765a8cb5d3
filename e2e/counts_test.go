package e2e

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// variantStock is a warehouse's stock per variant as the sandbox holds it
// (GetDataCurva with depositoId), deactivated articles left out.
func variantStock(t *testing.T, sb *sandbox.Running, dep int64) map[[3]int64]nxapi.Decimal {
	t.Helper()
	recs, err := sb.Server.ArticulosCurva(dep)
	if err != nil {
		t.Fatal(err)
	}
	m := map[[3]int64]nxapi.Decimal{}
	for _, r := range recs {
		if !r.Eliminado {
			m[[3]int64{r.ArticuloID, r.TalleID, r.ColorID}] = r.Unidades
		}
	}
	return m
}

// TestInventoryCount sends a count of warehouse 1 with rows above, below
// and equal to its stock, a varianted article among them: the sandbox's
// stock then equals the counted quantities and warehouse 2 is untouched; a
// rerun sends nothing; a later count with --faltantes-en-cero leaves every
// unlisted variant of the warehouse at 0.
func TestInventoryCount(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	other := variantStock(t, sb, 2)
	before := variantStock(t, sb, 1)
	counted := map[[3]int64]nxapi.Decimal{
		{105, 0, 0}: nxapi.Decimal(25 * 10000),
		{106, 0, 0}: nxapi.Decimal(3 * 10000),
		{107, 0, 0}: before[[3]int64{107, 0, 0}], // equal: nothing sent
		{101, 3, 2}: 0,
	}
	count := writeFile(t, w.dir, "conteo.csv", "depositoId,motivoId,fecha,detalle,articulos.articuloId,articulos.talleId,articulos.colorId,articulos.cantidadContada\n"+
		"1,1,2026-11-30,Conteo noviembre,105,,,25\n"+
		"1,1,2026-11-30,Conteo noviembre,106,,,3\n"+
		"1,1,2026-11-30,Conteo noviembre,107,,,"+before[[3]int64{107, 0, 0}].String()+"\n"+
		"1,1,2026-11-30,Conteo noviembre,101,3,2,0\n")
	res := w.nx(t, w.runArgs(count)...)
	if res.code != 0 {
		t.Fatalf("count: %s", res)
	}
	if got := statuses(w.readReport(t, count)); got["ok"] != 3 || got["skipped"] != 1 {
		t.Errorf("count rows %v, want 3 ok and the equal one skipped", got)
	}
	after := variantStock(t, sb, 1)
	for v, q := range counted {
		if after[v] != q {
			t.Errorf("variant %v: stock %s after the count, want the counted %s", v, after[v], q)
		}
	}
	for v, q := range before {
		if _, ok := counted[v]; !ok && after[v] != q {
			t.Errorf("variant %v not counted moved from %s to %s", v, q, after[v])
		}
	}
	for v, q := range variantStock(t, sb, 2) {
		if other[v] != q {
			t.Errorf("warehouse 2, variant %v: %s, was %s", v, q, other[v])
		}
	}

	movements := len(sb.Server.State().Movements)
	res = w.nx(t, w.runArgs(count)...)
	if res.code != 0 || len(sb.Server.State().Movements) != movements {
		t.Fatalf("rerun: exit %d, %d new movements, want 0 and none\n%s", res.code, len(sb.Server.State().Movements)-movements, res)
	}
	if got := statuses(w.readReport(t, count)); got["skipped"] != 4 {
		t.Errorf("rerun rows %v, want all 4 skipped", got)
	}

	december := writeFile(t, w.dir, "diciembre.csv", "depositoId,motivoId,fecha,detalle,articulos.articuloId,articulos.cantidadContada\n"+
		"1,1,2026-12-01,Conteo diciembre,105,25\n")
	held := variantStock(t, sb, 1)
	res = w.nx(t, w.runArgs("--faltantes-en-cero", december)...)
	if res.code != 0 {
		t.Fatalf("count with --faltantes-en-cero: %s", res)
	}
	// The added rows are listed in a report of their own, each saying
	// what the ERP held.
	path := filepath.Join(w.reportDir(), "diciembre.faltantes.csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	added := parseReport(t, path, data)
	wantAdded := 0
	for v, q := range held {
		if q != 0 && v != [3]int64{105, 0, 0} {
			wantAdded++
		}
	}
	if len(added) != wantAdded || added[0]["result.status"] != "ok" || added[0]["articulos.cantidadContada"] != "0" ||
		!strings.Contains(added[0]["result.message"], "--faltantes-en-cero") {
		t.Errorf("faltantes report: %d rows (want %d), first %v", len(added), wantAdded, added[0])
	}
	for v, q := range variantStock(t, sb, 1) {
		want := nxapi.Decimal(0)
		if v == [3]int64{105, 0, 0} {
			want = nxapi.Decimal(25 * 10000)
		}
		if q != want {
			t.Errorf("after --faltantes-en-cero, variant %v holds %s, want %s", v, q, want)
		}
	}
	for v, q := range variantStock(t, sb, 2) {
		if other[v] != q {
			t.Errorf("warehouse 2, variant %v: %s after --faltantes-en-cero, was %s", v, q, other[v])
		}
	}
}

// TestCountKilledNeverAppliedTwice kills a count three times while its
// movements are in flight, then runs it to the end: every variant of the
// warehouse holds either its counted quantity or, for a row whose movement
// was in flight at a kill and never arrived, what it held before; never a
// difference applied twice. Rows the journal settled are never worked out
// again against the stock that moved under them.
func TestCountKilledNeverAppliedTwice(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{Latency: 40 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	before := variantStock(t, sb, 1)
	var b strings.Builder
	b.WriteString("depositoId,motivoId,fecha,detalle,articulos.articuloId,articulos.talleId,articulos.colorId,articulos.cantidadContada\n")
	counted := map[[3]int64]nxapi.Decimal{}
	for i, v := range sortedVariants(before) {
		q := int64(i%9) * 3 // some equal to the stock (10 is never hit), most not
		counted[v] = nxapi.Decimal(q * 10000)
		fmt.Fprintf(&b, "1,1,2026-11-30,Conteo,%d,%s,%s,%d\n", v[0], idCell(v[1]), idCell(v[2]), q)
	}
	count := writeFile(t, w.dir, "conteo.csv", b.String())
	args := w.runArgs("--max-articulos", "2", count)

	for kill := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd, out, errb := w.command(ctx, args...)
		start := sum(sb.Server.State(), postStock)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		done := false
		for !done && sum(sb.Server.State(), postStock) < start+2+kill {
			select {
			case err := <-waited:
				t.Logf("run %d ended before its kill: %s", kill+1, ended(t, err, out, errb))
				done = true
			case <-time.After(2 * time.Millisecond):
			}
		}
		if !done {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-waited
		}
		cancel()
	}
	res := w.nx(t, args...)
	if res.code != 0 && res.code != 3 {
		t.Fatalf("final run: exit %d, want 0 or 3 (unknowns left by the kills)\n%s", res.code, res)
	}
	rows := w.readReport(t, count)
	t.Logf("final run: rows %v, %d movements", statuses(rows), len(sb.Server.State().Movements))
	status := map[[3]int64]string{}
	for _, r := range rows {
		v := [3]int64{atoi(r["articulos.articuloId"]), atoi(r["articulos.talleId"]), atoi(r["articulos.colorId"])}
		status[v] = r["result.status"]
		switch r["result.status"] {
		case "ok", "skipped", "unknown":
		default:
			t.Errorf("row %s: %s (%s)", r["result.row"], r["result.status"], r["result.message"])
		}
	}
	after := variantStock(t, sb, 1)
	for v, want := range counted {
		switch got := after[v]; {
		case got == want:
		case status[v] == "unknown" && got == before[v]:
			// its movement was in flight at a kill and never arrived
		default:
			t.Errorf("variant %v (%s): holds %s, counted %s, held %s before: a difference applied twice or lost", v, status[v], got, want, before[v])
		}
	}
}

func sortedVariants(m map[[3]int64]nxapi.Decimal) [][3]int64 {
	out := make([][3]int64, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b [3]int64) int {
		for i := range a {
			if c := cmp.Compare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}

func idCell(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}
