package e2e

import (
	"testing"

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
	res = w.nx(t, w.runArgs("--faltantes-en-cero", december)...)
	if res.code != 0 {
		t.Fatalf("count with --faltantes-en-cero: %s", res)
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
