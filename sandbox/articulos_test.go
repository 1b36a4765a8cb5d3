package sandbox

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/nxapi"
)

// masses is the masses window of both environments (spec 8).
const masses = 10 * time.Minute

func (h *harness) curva(t *testing.T, query string) []nxapi.ArticuloConCurva {
	t.Helper()
	r := h.do("GET", nxapi.PathGetDataCurva+query, nil)
	if r.status != 200 {
		t.Fatalf("GetDataCurva%s: %d %s", query, r.status, r.body)
	}
	recs, err := nxapi.DecodeGetDataCurva([]byte(r.body))
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(masses)
	return recs
}

func (h *harness) grouped(t *testing.T, query string) []nxapi.Articulo {
	t.Helper()
	r := h.do("GET", nxapi.PathGetData+query, nil)
	if r.status != 200 {
		t.Fatalf("GetData%s: %d %s", query, r.status, r.body)
	}
	arts, err := nxapi.DecodeGetData([]byte(r.body))
	if err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(masses)
	return arts
}

func find(recs []nxapi.ArticuloConCurva, art, color, talle int64) nxapi.ArticuloConCurva {
	for _, r := range recs {
		if r.ArticuloID == art && r.ColorID == color && r.TalleID == talle {
			return r
		}
	}
	return nxapi.ArticuloConCurva{}
}

func TestCatalogFlatRecords(t *testing.T) {
	h := newHarness(t, Options{})
	recs := h.curva(t, "")
	// 5 articles of 6 variants, 16 without, one of 3 sizes, one deactivated.
	if len(recs) != 5*6+16+3+1 {
		t.Fatalf("%d records", len(recs))
	}
	for _, tc := range []struct {
		art, color, talle int64
		want              nxapi.ArticuloConCurva
	}{
		{100, 1, 2, nxapi.ArticuloConCurva{Codigo: "A100", Nombre: "Remera básica", TalleColor: nxapi.TallesColores,
			ColorNombre: "Negro", ColorCodigo: "NG", ColorHex: "#000000", TalleNombre: "M", TalleCodigo: "MD",
			CodigoBarras: "7791231000022", Unidades: nxapi.DecimalFromInt(40)}},
		{121, 0, 0, nxapi.ArticuloConCurva{Codigo: "00121", Nombre: "Yerba mate 1 kg", TalleColor: nxapi.SinCurva,
			CodigoBarras: "7791231210001", Unidades: nxapi.DecimalFromInt(40)}},
		{122, 0, 3, nxapi.ArticuloConCurva{Codigo: "B122", Nombre: "Remera estampada", TalleColor: nxapi.SoloTalles,
			TalleNombre: "L", TalleCodigo: "GR", CodigoBarras: "7791231220031", Unidades: nxapi.DecimalFromInt(40)}},
		{120, 0, 0, nxapi.ArticuloConCurva{Codigo: "A120", Nombre: "Campera discontinuada", Eliminado: true}},
	} {
		got := find(recs, tc.art, tc.color, tc.talle)
		got.ArticuloID, got.ColorID, got.TalleID, got.Precio1, got.Descripcion = 0, 0, 0, nil, ""
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("article %d %d/%d (-want +got):\n%s", tc.art, tc.color, tc.talle, d)
		}
	}
}

// TestCatalogGroupedMatchesFlat: GetData lists the same variants as
// GetDataCurva, grouped, without the deactivated article.
func TestCatalogGroupedMatchesFlat(t *testing.T) {
	h := newHarness(t, Options{FlujoDeposito: nxapi.FlujoMultiDeposito})
	arts := h.grouped(t, "")
	flat := h.curva(t, "")
	active := slices.DeleteFunc(slices.Clone(flat), func(r nxapi.ArticuloConCurva) bool { return r.Eliminado })
	if d := cmp.Diff(active, nxapi.Flatten(arts)); d != "" {
		t.Fatalf("GetData flattened differs from GetDataCurva (-curva +data):\n%s", d)
	}
	for _, a := range arts {
		if a.ArticuloID == 120 {
			t.Fatal("GetData lists the deactivated article")
		}
		if a.ArticuloID == 100 && (a.StockTotal != nxapi.DecimalFromInt(6*40) || len(a.Curva) != 6) {
			t.Errorf("article 100: stockTotal %s, %d variants", a.StockTotal, len(a.Curva))
		}
	}
	// Multi-warehouse mode: one entry per warehouse of the integration,
	// unidades the main warehouse's.
	r := find(flat, 100, 1, 1)
	if len(r.StockDepositos) != 4 || r.Unidades != nxapi.DecimalFromInt(10) {
		t.Errorf("multi-warehouse record %+v", r)
	}
}

func TestCatalogWarehouse(t *testing.T) {
	d := DemoData()
	d.Depositos = append(d.Depositos, DataDeposito{DepositoID: 5, Nombre: "Fuera", SucursalID: 1})
	h := newHarnessWith(t, d, Options{})
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`) // +5 of 105 in warehouse 1
	if r := find(h.curva(t, "?depositoId=1"), 105, 0, 0); r.Unidades != nxapi.DecimalFromInt(15) || r.StockDepositos != nil {
		t.Errorf("warehouse 1's own units: %+v", r)
	}
	if r := find(h.curva(t, "?depositoid=2"), 105, 0, 0); r.Unidades != nxapi.DecimalFromInt(10) {
		t.Errorf("warehouse 2's own units: %+v", r)
	}
	for _, a := range h.grouped(t, "?depositoId=1") {
		if a.ArticuloID == 105 && a.StockTotal != nxapi.DecimalFromInt(15) {
			t.Errorf("grouped, warehouse 1: stockTotal %s", a.StockTotal)
		}
	}
	for _, tc := range []struct {
		query  string
		status int
		text   string
	}{
		{"?depositoId=5", 403, "El deposito 5 no esta configurado en esta integracion"},
		{"?depositoId=9", 403, "El deposito 9 pertenece a una sucursal no habilitada"},
		{"?depositoId=abc", 400, `depositoId \"abc\"`},
	} {
		h.do("GET", nxapi.PathGetData+tc.query, nil).expect(t, tc.status, tc.text)
		h.clock.Advance(masses)
	}
}

// TestCatalogMassesWindow: GetData, GetDataCurva and the non-paginated
// exports share one 10-minute window in both environments (spec 8), the
// paths matched without regard to case.
func TestCatalogMassesWindow(t *testing.T) {
	for _, env := range []string{"production", "test"} {
		t.Run(env, func(t *testing.T) {
			h := newHarness(t, Options{Env: env})
			h.do("GET", "/integraciones/Terceros/GetData", nil).expect(t, 200, `"codigo":"A100"`)
			h.clock.Advance(masses - time.Second)
			r := h.do("GET", strings.ToLower(nxapi.PathGetDataCurva), nil)
			r.expect(t, 403, "Debe esperar 1 segundos")
			h.clock.Advance(time.Second)
			h.do("GET", nxapi.PathGetDataCurva, nil).expect(t, 200, `"codigoBarras"`)
			h.clock.Advance(time.Minute)
			h.do("GET", nxapi.PathGetData, nil).expect(t, 403, "Debe esperar 540 segundos")
			// Other windows are not the masses'.
			h.do("GET", nxapi.PathMotivos, nil).expect(t, 200, "motivoId")
		})
	}
	h := newHarness(t, Options{TimeScale: 0.01})
	h.do("GET", nxapi.PathGetData, nil).expect(t, 200, "A100")
	h.clock.Advance(6 * time.Second)
	h.do("GET", nxapi.PathGetData, nil).expect(t, 200, "A100")
}

// TestCatalogStockMoves: every accepted movement and sale shows in the
// next read; a refused one does not.
func TestCatalogStockMoves(t *testing.T) {
	h := newHarness(t, Options{})
	before := h.curva(t, "")
	h.do("POST", nxapi.PathVenta, venta(1)).expect(t, 200, `"errores":false`) // 2 × 100 negro S, point of sale 1
	h.clock.Advance(3 * time.Second)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	h.clock.Advance(3 * time.Second)
	bad := movimiento()
	bad.Articulos[0].ArticuloID = 120 // deactivated: refused
	h.do("POST", nxapi.PathStock, bad).expect(t, 200, "120")
	h.clock.Advance(3 * time.Second)
	h.do("POST", nxapi.PathStock, &nxapi.StockMovimiento{DepositoID: 1, MotivoID: 1, Tipo: nxapi.Transferencia,
		DepositoDosID: 3, Articulos: []nxapi.StockArticulo{{ArticuloID: 122, TalleID: 2, Cantidad: dec("4")}}}).expect(t, 200, `"tipo":1`)
	after := h.curva(t, "")
	for _, tc := range []struct {
		art, color, talle int64
		delta             int64
	}{
		{100, 1, 1, -2}, {105, 0, 0, 5}, {120, 0, 0, 0}, {122, 0, 2, 0}, {100, 2, 1, 0},
	} {
		b, a := find(before, tc.art, tc.color, tc.talle).Unidades, find(after, tc.art, tc.color, tc.talle).Unidades
		if a-b != nxapi.DecimalFromInt(tc.delta) {
			t.Errorf("article %d %d/%d: %s -> %s, want %+d", tc.art, tc.color, tc.talle, b, a, tc.delta)
		}
	}
	if h.s.StockOf(100, 1, 1, 1) != nxapi.DecimalFromInt(8) || h.s.StockOf(122, 0, 2, 3) != nxapi.DecimalFromInt(14) {
		t.Errorf("sale from warehouse 1: %s; transfer into 3: %s", h.s.StockOf(100, 1, 1, 1), h.s.StockOf(122, 0, 2, 3))
	}
	inproc, err := h.s.ArticulosCurva(0)
	if err != nil || !cmp.Equal(inproc, after) {
		t.Errorf("ArticulosCurva differs from GetDataCurva: %v", err)
	}
	if _, err := h.s.ArticulosCurva(9); err == nil || !strings.Contains(err.Error(), "sucursal no habilitada") {
		t.Errorf("ArticulosCurva(9) = %v", err)
	}
}
