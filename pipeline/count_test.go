package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// erpStock answers the ERP's stock per warehouse, as the application's
// GetDataCurva reader does for a tenant without multi-warehouse mode.
type erpStock struct {
	units map[inventario.Variant]nxapi.Decimal
	reads int
}

func (s *erpStock) AllAtOnce() bool { return false }

func (s *erpStock) ReadStock(_ context.Context, dep int64) (inventario.Snapshot, error) {
	s.reads++
	out := inventario.Snapshot{At: time.Date(2026, 12, 1, 12, s.reads, 0, 0, time.UTC), Units: map[inventario.Variant]nxapi.Decimal{}}
	for v, u := range s.units {
		if v.DepositoID == dep {
			out.Units[v] = u
		}
	}
	return out, nil
}

const countFile = "depositoId,motivoId,fecha,articulos.articuloId,articulos.talleId,articulos.colorId,Cantidad contada\n" +
	"1,3,2026-11-30,100,,,12\n" + // row 2: ERP 10, ingreso 2
	"1,3,2026-11-30,101,5,9,3\n" + // row 3: ERP 8, egreso 5
	"1,3,2026-11-30,101,6,9,4\n" + // row 4: equal
	"1,3,2026-11-30,102,,,-1\n" + // row 5: negative
	"1,3,2026-11-30,101,5,9,2\n" + // row 6: row 3 again
	"1,3,2026-11-30,103,,,2.5\n" // row 7: none in the ERP, ingreso 2.5

func erpOf() *erpStock {
	v := func(a, t, c int64) inventario.Variant {
		return inventario.Variant{DepositoID: 1, ArticuloID: a, TalleID: t, ColorID: c}
	}
	d := nxapi.DecimalFromInt
	return &erpStock{units: map[inventario.Variant]nxapi.Decimal{v(100, 0, 0): d(10), v(101, 5, 9): d(8), v(101, 6, 9): d(4), v(102, 0, 0): d(7)}}
}

// runCount loads content as a count, works it out against st and sends it.
func runCount(t *testing.T, content string, j Journal, send Sender, st *erpStock) *File {
	t.Helper()
	f := load(t, "conteo.csv", content, LoadOptions{MaxArticulos: 500})
	if !f.Sheets[0].Layout.Count || !HasCounts([]*File{f}) {
		t.Fatal("the count file did not load as a count")
	}
	o := fastOptions()
	if err := PrepareCounts(context.Background(), []*File{f}, j, o, CountOptions{Stock: st}); err != nil {
		t.Fatal(err)
	}
	if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
		t.Fatal(err)
	}
	if res := Submit(context.Background(), []*File{f}, send, j, o); res.Err != nil {
		t.Fatal(res.Err)
	}
	return f
}

func rowTexts(f *File) map[int]string {
	sh := f.Sheets[0]
	out := map[int]string{}
	for i := 0; i < sh.Rows(); i++ {
		v := sh.RowView(i, msg.ES)
		out[sh.store.rowNumber(i)] = v.Status.String() + ": " + v.Message
	}
	return out
}

func TestCountFileExactlyOnce(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	st := erpOf()
	f := runCount(t, countFile, j, send, st)
	rows := rowTexts(f)
	for row, parts := range map[int][]string{
		2: {"ok", "contado 12, el ERP tenía 10", "se envía INGRESO_STOCK de 2 en el movimiento 1"},
		3: {"ok", "contado 3, el ERP tenía 8", "EGRESO_STOCK de 5 en el movimiento 2"},
		4: {"skipped", "igual al stock del ERP", "no se envía nada"},
		5: {"invalid", "cantidad contada no puede ser negativa"},
		6: {"invalid", "artículo 101 (talle 5, color 9) del depósito 1 ya se contó en la fila 3"},
		7: {"ok"},
	} {
		for _, p := range parts {
			if !strings.Contains(rows[row], p) {
				t.Errorf("row %d: %q lacks %q", row, rows[row], p)
			}
		}
	}
	if send.count("stock") != 2 || st.reads != 1 {
		t.Fatalf("%d movements, %d reads; want 2 and 1", send.count("stock"), st.reads)
	}
	if moved := f.Summary(ReportOptions{Lang: msg.ES}).UnitsMoved; moved["INGRESO_STOCK"] != "4.5" || moved["EGRESO_STOCK"] != "5" {
		t.Errorf("summary's units moved %v, want INGRESO_STOCK 4.5 and EGRESO_STOCK 5", moved)
	}
	var in, out nxapi.StockMovimiento
	if err := json.Unmarshal([]byte(send.bodies["stock"][0]), &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(send.bodies["stock"][1]), &out); err != nil {
		t.Fatal(err)
	}
	if in.Tipo != nxapi.IngresoStock || len(in.Articulos) != 2 || in.Articulos[0].Cantidad.String() != "2" || in.Articulos[1].Cantidad.String() != "2.5" ||
		out.Tipo != nxapi.EgresoStock || len(out.Articulos) != 1 || out.Articulos[0].Cantidad.String() != "5" || out.Articulos[0].TalleID != 5 {
		t.Errorf("bodies %s", send.bodies["stock"])
	}

	// The stock moves (sales after the count); the same file again sends
	// and reads nothing, equal row included.
	for v := range st.units {
		st.units[v] -= nxapi.DecimalFromInt(1)
	}
	f = runCount(t, countFile, j, send, st)
	if send.count("stock") != 2 || st.reads != 1 {
		t.Errorf("the rerun sent %d movements and read %d times", send.count("stock")-2, st.reads-1)
	}
	rows = rowTexts(f)
	for _, row := range []int{2, 3, 4, 7} {
		if !strings.HasPrefix(rows[row], "skipped: ya aplicado") {
			t.Errorf("rerun row %d: %q", row, rows[row])
		}
	}

	// A changed count of a row already sent is a conflict naming what was
	// sent; the fixed rows 5 and 6 go (compared against a new read).
	changed := strings.Replace(countFile, "101,5,9,3\n", "101,5,9,4\n", 1)
	changed = strings.Replace(changed, "102,,,-1\n", "102,,,7\n", 1)
	changed = strings.Replace(changed, "101,5,9,2\n", "104,,,1\n", 1)
	f = runCount(t, changed, j, send, st)
	rows = rowTexts(f)
	if !strings.Contains(rows[3], "conflict") || !strings.Contains(rows[3], "con 3 contados") || !strings.Contains(rows[3], "EGRESO_STOCK de 5") || !strings.Contains(rows[3], "Ahora dice 4") {
		t.Errorf("row 3: %q", rows[3])
	}
	if !strings.HasPrefix(rows[5], "ok") || !strings.HasPrefix(rows[6], "ok") || st.reads != 2 || send.count("stock") != 3 { // both ingresos: one movement
		t.Errorf("fixed rows: 5 %q, 6 %q; %d reads, %d movements", rows[5], rows[6], st.reads, send.count("stock"))
	}
}

func TestCountWithoutTheStockSendsNothing(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	f := load(t, "conteo.csv", countFile+"7,3,2026-11-30,100,,,1\n", LoadOptions{})
	if n := CountWarehouses([]*File{f}); n != 2 {
		t.Errorf("CountWarehouses = %d, want 2", n)
	}
	o := fastOptions()
	if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
		t.Fatal(err)
	}
	Submit(context.Background(), []*File{f}, send, j, o)
	if send.count("stock") != 0 {
		t.Fatalf("%d movements sent without reading the stock", send.count("stock"))
	}
	if got := statusCount(f); got[StatusPending] != 5 || got[StatusInvalid] != 2 {
		t.Errorf("statuses %v, want 5 pending and 2 invalid", got)
	}
}
