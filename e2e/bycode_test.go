package e2e

import (
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// totalStock is the sandbox's stock per variant, every warehouse added.
func totalStock(st sandbox.State) map[[3]int64]nxapi.Decimal {
	m := map[[3]int64]nxapi.Decimal{}
	for _, s := range st.Stock {
		m[[3]int64{s.ArticuloID, s.TalleID, s.ColorID}] += s.Unidades
	}
	return m
}

// TestSalesAndStockByCode sends a sales file and a stock file that name
// articles as a shop does (code in any case, barcode, size and colour by
// name or code) against the sandbox: the ERP receives the right ids, and
// the rows it could not resolve (unknown code, an article with variants
// named without one, a deactivated article, an id and a code that
// disagree, a size the article lacks) are held back before any request.
func TestSalesAndStockByCode(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	before := totalStock(sb.Server.State())
	sales := writeFile(t, w.dir, "ventas.csv",
		"ordenId,usuario.email,productos.articuloId,productos.codigo,productos.talle,productos.color,productos.codigoBarras,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"+
			"81001,a@example.com,,A105,,,,100,2,200,0,0,0,200,EFECTIVO\n"+
			"81002,b@example.com,,a100,m,blanco,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81003,c@example.com,,,,,7791231010021,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81004,d@example.com,,A101,GR,ng,,100,3,300,0,0,0,300,EFECTIVO\n"+
			"81005,e@example.com,,00121,,,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81006,f@example.com,,A999,,,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81007,g@example.com,,A100,,,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81008,h@example.com,,A120,,,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81009,i@example.com,106,A105,,,,100,1,100,0,0,0,100,EFECTIVO\n"+
			"81010,j@example.com,,B122,XL,,,100,1,100,0,0,0,100,EFECTIVO\n")
	res := w.nx(t, w.runArgs(sales)...)
	if res.code != 1 {
		t.Fatalf("sales by code: exit %d, want 1 (rows with errors)\n%s", res.code, res)
	}
	report := w.readReport(t, sales)
	want := map[string]struct {
		status string
		ids    string // result.articuloId/talleId/colorId
		says   string
	}{
		"81001": {"ok", "105//", ""},
		"81002": {"ok", "100/2/2", ""},
		"81003": {"ok", "101/2/1", ""},
		"81004": {"ok", "101/3/1", ""},
		"81005": {"ok", "121//", ""},
		"81006": {"invalid", "//", "A999"},
		"81007": {"invalid", "//", "talle"},
		"81008": {"invalid", "//", "A120"},
		"81009": {"invalid", "//", "106"},
		"81010": {"invalid", "//", "XL"},
	}
	for _, r := range report {
		wr, ok := want[r["ordenId"]]
		if !ok {
			t.Errorf("unexpected row %v", r)
			continue
		}
		ids := r["result.articuloId"] + "/" + r["result.talleId"] + "/" + r["result.colorId"]
		if r["result.status"] != wr.status || (wr.status == "ok" && ids != wr.ids) || !strings.Contains(r["result.message"], wr.says) {
			t.Errorf("row %s: %s %s %q, want %s %s saying %q", r["ordenId"], r["result.status"], ids, r["result.message"], wr.status, wr.ids, wr.says)
		}
	}
	st := sb.Server.State()
	sent := 0
	for path, byStatus := range st.Requests {
		if strings.HasSuffix(path, "/venta") {
			for _, n := range byStatus {
				sent += n
			}
		}
	}
	if sent != 5 {
		t.Errorf("%d sales requests reached the API, want the 5 resolved", sent)
	}
	after := totalStock(st)
	for v, sold := range map[[3]int64]int64{{105, 0, 0}: 2, {100, 2, 2}: 1, {101, 2, 1}: 1, {101, 3, 1}: 3, {121, 0, 0}: 1} {
		if got := before[v] - after[v]; got != nxapi.Decimal(sold*10000) {
			t.Errorf("variant %v: the ERP's stock went down by %s, want %d", v, got, sold)
		}
	}

	stock := writeFile(t, w.dir, "stock.csv",
		"depositoId,motivoId,tipo,fecha,detalle,articulos.codigo,articulos.talle,articulos.color,articulos.codigoBarras,articulos.cantidad\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,A105,,,,4\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,,,,7791231220024,2\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,a100,S,Negro,,1\n")
	res = w.nx(t, w.runArgs(stock)...)
	if res.code != 0 {
		t.Fatalf("stock by code: %s", res)
	}
	mv := sb.Server.State().Movements
	if len(mv) != 1 {
		t.Fatalf("%d movements, want 1", len(mv))
	}
	var got []string
	for _, a := range mv[0].Body.Articulos {
		got = append(got, strings.Join([]string{itoa(a.ArticuloID), itoa(a.TalleID), itoa(a.ColorID), a.Cantidad.String()}, "/"))
	}
	if strings.Join(got, " ") != "105/0/0/4 122/2/0/2 100/1/1/1" {
		t.Errorf("the movement carried %v, want 105/0/0/4 122/2/0/2 100/1/1/1", got)
	}
	// The same rows by ids are the same rows: nothing is sent again.
	byID := writeFile(t, w.dir, "stock.csv",
		"depositoId,motivoId,tipo,fecha,detalle,articulos.articuloId,articulos.talleId,articulos.colorId,articulos.cantidad\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,105,,,4\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,122,2,,2\n"+
			"1,1,INGRESO_STOCK,2026-11-20,Compra,100,1,1,1\n")
	res = w.nx(t, w.runArgs(byID)...)
	if res.code != 0 || len(sb.Server.State().Movements) != 1 {
		t.Errorf("the same rows by id: exit %d, %d movements, want 0 and still 1\n%s", res.code, len(sb.Server.State().Movements), res)
	}
}

func itoa(n int64) string { return nxapi.Decimal(n * 10000).String() }

// goneAfterRead reads the article catalog through api into w's cache (so
// the runs that follow use that copy), then deactivates ids in the
// sandbox: a row naming one passes local checks and only the API refuses
// it, as with an article the ERP deactivated after the catalog was read.
func goneAfterRead(t *testing.T, w *workspace, sb *sandbox.Running, api, timeScale string, ids ...int64) {
	t.Helper()
	if r := w.nx(t, "catalog", "pull", "--articulos", "--base-url", api, "--time-scale", timeScale, "--journal", w.journal()); r.code != 0 {
		t.Fatalf("catalog pull --articulos: %s", r)
	}
	for _, id := range ids {
		if err := sb.Server.DeactivateArticulo(id); err != nil {
			t.Fatal(err)
		}
	}
}
