package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// The paginated exports of public-facts.md, "Reading back what was
// created". Most tests run with Env "test", whose shared export window is
// 3 s, and step the clock past it before each export.

// exportWindowTest is the export window of Env "test".
const exportWindowTest = 3 * time.Second

// totales asks GET /exportar/ventatotales/paginado with query and decodes a
// 200 answer.
func (h *harness) totales(query string) (response, nxapi.ExportPage[nxapi.VentaTotal]) {
	h.t.Helper()
	r := h.do("GET", nxapi.PathVentaTotales+"?"+query, nil)
	var p nxapi.ExportPage[nxapi.VentaTotal]
	if r.status == http.StatusOK {
		if err := json.Unmarshal([]byte(r.body), &p); err != nil {
			h.t.Fatalf("export %s: %v", r.body, err)
		}
	}
	return r, p
}

func ids(p nxapi.ExportPage[nxapi.VentaTotal]) []int64 {
	var out []int64
	for _, it := range p.Items {
		out = append(out, int64(it.FacturaID))
	}
	return out
}

// withERPSale is the demo data plus a sale made in the ERP (not through the
// API) in branch 1 on 31/08/2026, and a credit note of branch 2.
func withERPSale() *Data {
	d := DemoData()
	d.Comprobantes = append(d.Comprobantes,
		DataComprobante{FacturaID: 3001, ComprobanteTipo: nxapi.ComprobanteVenta, Estado: estadoFacturaVenta, Numero: 101,
			PuntoVentaID: 1, EntidadID: 501, Fecha: "31/08/2026 09:30:00", Total: nxapi.DecimalFromInt(300),
			Items: []DataComprobanteItem{{ArticuloID: 105, Cantidad: nxapi.DecimalFromInt(3), Precio: nxapi.DecimalFromInt(100)}}},
		DataComprobante{FacturaID: 3002, ComprobanteTipo: nxapi.ComprobanteNotaCredito, Estado: "NOTA_CREDITO", Numero: 7,
			PuntoVentaID: 2, Fecha: "01/09/2026 08:00:00", Propio: true, Total: nxapi.DecimalFromInt(50),
			Items: []DataComprobanteItem{{ArticuloID: 105, Cantidad: nxapi.DecimalFromInt(1), Precio: nxapi.DecimalFromInt(50)}}})
	return d
}

func TestExport_VentaTotalesListsEverySale(t *testing.T) {
	h := newHarnessWith(t, withERPSale(), Options{Env: "test"})
	v := venta(4242)
	v.EntidadID, v.Usuario, v.Detalle, v.EmpleadoID = 0, &nxapi.Usuario{Nombre: "Ana", Email: "ana@example.com", DNI: "30123456"}, "pedido web", 70
	v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}
	h.do("POST", nxapi.PathVenta, v).expect(t, 200, `"facturaId":50001`)
	f := facturar(1003)
	f.PuntoVentaID = 2
	h.do("POST", nxapi.PathFacturar, f).expect(t, 200, `"facturaId":1003`)

	r, p := h.totales("sucursalId=1&desde=2026-08-31&hasta=01/09/2026")
	if r.status != 200 || !slices.Equal(ids(p), []int64{3001, 50001}) || p.TotalRegistros != 2 || p.TotalPaginas != 1 ||
		p.PaginaActual != 1 || p.PageSize != DefaultExportPageSize {
		t.Fatalf("branch 1: %d %s", r.status, r.body)
	}
	if strings.Contains(r.body, "ordenId") {
		t.Fatalf("export rows carry no ordenId: %s", r.body)
	}
	erp, api := p.Items[0], p.Items[1]
	if erp.AppID != nil || !strings.Contains(r.body, `"appId":null`) || erp.Cliente != "Comercial del Sur SRL" ||
		erp.NumeroFull != "0001-00000101" || erp.Fecha != "31/08/2026 09:30:00" || erp.Total != nxapi.DecimalFromInt(300) ||
		erp.Cantidad != nxapi.DecimalFromInt(3) || erp.FormasPago != nil {
		t.Errorf("ERP sale %+v, want appId null and the seeded figures", erp)
	}
	want := nxapi.VentaTotal{FacturaID: 50001, ComprobanteTipo: 2, TipoDocumento: tipoDocB, Fecha: "01/09/2026 12:00:00",
		FechaText: "2026-09-01", HoraText: "12:00:00", NumeroFull: "0001-00004242", SucursalID: 1, Sucursal: "Casa Central",
		Cliente: "Ana", Vendedor: "Ana Gómez", Email: "ana@example.com", DNI: "30123456", Detalle: "pedido web",
		SubTotal: nxapi.DecimalFromInt(201), Total: nxapi.DecimalFromInt(201), Cantidad: nxapi.DecimalFromInt(2),
		FormasPagoText: "DEPOSITO_BANCO"}
	if api.AppID == nil || *api.AppID != 1 {
		t.Errorf("API sale appId %v, want the integration's appId 1", api.AppID)
	}
	api.AppID = nil
	if fmt.Sprintf("%+v", api) != fmt.Sprintf("%+v", want) {
		t.Errorf("API sale\n got %+v\nwant %+v", api, want)
	}

	// Branch 2: the presale converted by /facturar (now a sale) and the
	// seeded credit note; presales never appear.
	h.clock.Advance(exportWindowTest)
	r, p = h.totales("sucursalId=2&fecha=01/09/2026&incluirMediosPago=true")
	if r.status != 200 || !slices.Equal(ids(p), []int64{3002, 1003}) {
		t.Fatalf("branch 2: %d %s", r.status, r.body)
	}
	nc, conv := p.Items[0], p.Items[1]
	if nc.ComprobanteTipo != nxapi.ComprobanteNotaCredito || nc.TipoDocumento != tipoDocB || !strings.Contains(r.body, `"tipoDocumento":2,`) || nc.AppID == nil {
		t.Errorf("credit note %+v", nc)
	}
	if conv.ComprobanteTipo != nxapi.ComprobanteVenta || conv.NumeroFull != "0002-00000003" || conv.AppID == nil ||
		conv.Total != *dec("1751.50") || conv.Cliente != "Juan Pérez" ||
		len(conv.FormasPago) != 1 || conv.FormasPago[0].Tipo != nxapi.Efectivo || conv.FormasPago[0].Importe != conv.Total ||
		conv.FormasPago[0].FacturaID != 1003 {
		t.Errorf("converted presale %+v", conv)
	}
	// State still lists every voucher the API created, with its time.
	if st := h.s.State(); len(st.Vouchers) != 2 || st.Vouchers[1].PresaleID != 1003 || st.Vouchers[0].CreatedAt.IsZero() {
		t.Errorf("state vouchers %+v", st.Vouchers)
	}
}

func TestExport_Paging(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	var all []int64
	for i := int64(1); i <= 7; i++ {
		h.clock.Advance(time.Minute) // distinct dates, kept in order
		h.do("POST", nxapi.PathVenta, venta(100+i)).expect(t, 200, `"errores":false`)
		all = append(all, 50000+i)
	}
	var got []int64
	for _, tc := range []struct{ page, items int }{{1, 3}, {2, 3}, {3, 1}, {4, 0}} {
		h.clock.Advance(exportWindowTest)
		r, p := h.totales(fmt.Sprintf("sucursalId=1&anio=2026&mes=09&pageSize=3&page=%d", tc.page))
		if r.status != 200 || len(p.Items) != tc.items || p.TotalRegistros != 7 || p.TotalPaginas != 3 ||
			p.PaginaActual != tc.page || p.PageSize != 3 || p.Items == nil {
			t.Fatalf("page %d: %d %s", tc.page, r.status, r.body)
		}
		got = append(got, ids(p)...)
	}
	if !slices.Equal(got, all) {
		t.Fatalf("pages gave %v, want %v in order", got, all)
	}
	// The largest page allowed holds them all; an empty period is no error.
	h.clock.Advance(exportWindowTest)
	if r, p := h.totales("sucursalId=1&fecha=2026-09-01&pageSize=500"); r.status != 200 || len(p.Items) != 7 {
		t.Fatalf("pageSize 500: %d %s", r.status, r.body)
	}
	h.clock.Advance(exportWindowTest)
	if r, p := h.totales("sucursalId=1&fecha=2026-09-02"); r.status != 200 || p.TotalRegistros != 0 || p.TotalPaginas != 0 ||
		!strings.Contains(r.body, `"items":[]`) {
		t.Fatalf("empty day: %d %s", r.status, r.body)
	}
}

func TestExport_ParametersChecked(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	for _, tc := range []struct {
		name, query string
		status      int
		text        string
	}{
		{"no period", "sucursalId=1", 400, msgPeriodoReq},
		{"two periods", "sucursalId=1&fecha=01/09/2026&anio=2026&mes=09", 400, msgPeriodoUno},
		{"desde without hasta", "sucursalId=1&desde=01/09/2026", 400, msgDesdeHasta},
		{"anio without mes", "sucursalId=1&anio=2026", 400, msgAnioMes},
		{"30 days, both included", "sucursalId=1&desde=01/09/2026&hasta=30/09/2026", 200, `"items"`},
		{"31 days", "sucursalId=1&desde=01/09/2026&hasta=01/10/2026", 400, "El rango de fechas no puede superar los 30 dias"},
		{"31 days, ISO", "sucursalId=1&desde=2026-08-01&hasta=2026-08-31", 400, "no puede superar los 30 dias"},
		{"hasta before desde", "sucursalId=1&desde=02/09/2026&hasta=01/09/2026", 400, msgHastaAntes},
		{"date with slashes reversed", "sucursalId=1&fecha=2026/09/01", 400, `La fecha \"2026/09/01\" no es valida`},
		{"month/day order", "sucursalId=1&fecha=09/31/2026", 400, "no es valida"},
		{"mes of one digit", "sucursalId=1&anio=2026&mes=9", 400, `El mes \"9\" no es valido`},
		{"mes 13", "sucursalId=1&anio=2026&mes=13", 400, "El mes"},
		{"anio of two digits", "sucursalId=1&anio=26&mes=09", 400, "El anio"},
		{"a whole month of 31 days", "sucursalId=1&anio=2026&mes=10", 200, `"items"`},
		{"page 0", "sucursalId=1&fecha=01/09/2026&page=0", 400, `El page \"0\"`},
		{"pageSize 501", "sucursalId=1&fecha=01/09/2026&pageSize=501", 400, `El pageSize \"501\" no es valido: debe ser de 1 a 500`},
		{"pageSize 0", "sucursalId=1&fecha=01/09/2026&pageSize=0", 400, "El pageSize"},
		{"pageSize 500", "sucursalId=1&fecha=01/09/2026&pageSize=500", 200, `"pageSize":500`},
		{"incluirMediosPago si", "sucursalId=1&fecha=01/09/2026&incluirMediosPago=si", 400, "incluirMediosPago"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(exportWindowTest)
			h.do("GET", nxapi.PathVentaTotales+"?"+tc.query, nil).expect(t, tc.status, tc.text)
		})
	}
}

func TestExport_BranchScope(t *testing.T) {
	only := func(enabled ...int64) *Data {
		d := DemoData()
		for i := range d.Sucursales {
			d.Sucursales[i].Habilitada = slices.Contains(enabled, d.Sucursales[i].SucursalID)
		}
		return d
	}
	for _, tc := range []struct {
		name   string
		data   *Data
		query  string
		status int
		text   string
	}{
		{"branch not enabled", DemoData(), "sucursalId=3", 403, "La sucursal 3 no esta habilitada"},
		{"branch unknown", DemoData(), "sucursalId=99", 403, "La sucursal 99 no esta habilitada"},
		{"lists the enabled ones", DemoData(), "sucursalId=3", 403, "1 (Casa Central), 2 (Sucursal Norte)"},
		{"omitted, two enabled", DemoData(), "", 403, "Debe indicar sucursalId"},
		{"not a number", DemoData(), "sucursalId=uno", 400, `El sucursalId \"uno\" no es valido`},
		{"omitted, one enabled", only(2), "", 200, `"totalRegistros":0`},
		{"enabled", only(2), "sucursalId=2", 200, `"totalRegistros":0`},
		{"none enabled", only(), "sucursalId=1", 403, msgSinSucursal},
		{"none enabled, omitted", only(), "", 403, msgSinSucursal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarnessWith(t, tc.data, Options{})
			q := "fecha=01/09/2026"
			if tc.query != "" {
				q += "&" + tc.query
			}
			h.do("GET", nxapi.PathVentaTotales+"?"+q, nil).expect(t, tc.status, tc.text)
		})
	}
}

// TestSpec8_ExportsShareOneWindow: the four paginated exports share one
// window, 30 s in production and 3 s in test, that every request reaching
// them takes (a refused one too), apart from the other windows.
func TestSpec8_ExportsShareOneWindow(t *testing.T) {
	q := "?sucursalId=1&fecha=01/09/2026"
	for _, tc := range []struct {
		env    string
		window time.Duration
	}{{"production", 30 * time.Second}, {"test", 3 * time.Second}} {
		t.Run(tc.env, func(t *testing.T) {
			h := newHarness(t, Options{Env: tc.env})
			h.do("GET", nxapi.PathVentaTotales+q, nil).expect(t, 200, `"items"`)
			h.clock.Advance(time.Second)
			wait := fmt.Sprintf("Debe esperar %d segundos entre cada solicitud", int(tc.window.Seconds())-1)
			for _, p := range []string{nxapi.PathVentaItems, nxapi.PathCompraTotales, nxapi.PathCompraItems, nxapi.PathVentaTotales} {
				h.do("GET", p+q, nil).expect(t, 403, wait)
			}
			// Other windows are other buckets.
			h.do("GET", nxapi.PathConfig, nil).expect(t, 200, `"appId"`)
			h.do("GET", nxapi.PathComprobante+"1001", nil).expect(t, 200, `"facturaId":1001`)
			h.clock.Advance(tc.window - time.Second)
			// A refused export (400) reached the endpoint: it takes the window.
			h.do("GET", nxapi.PathCompraItems+"?sucursalId=1", nil).expect(t, 400, msgPeriodoReq)
			h.clock.Advance(tc.window - time.Millisecond)
			h.do("GET", nxapi.PathVentaItems+q, nil).expect(t, 403, "Debe esperar 1 segundos")
			h.clock.Advance(time.Millisecond)
			h.do("GET", nxapi.PathCompraTotales+q, nil).expect(t, 200, `"totalRegistros":0`)
		})
	}
}

func TestExport_VentaItems(t *testing.T) {
	h := newHarnessWith(t, withERPSale(), Options{Env: "test"})
	v := venta(9)
	v.Productos = append(v.Productos, nxapi.Producto{ArticuloID: 105, Precio: dec("10"), Cantidad: dec("1")})
	v.Subtotal, v.Total = dec("211"), dec("211")
	h.do("POST", nxapi.PathVenta, v).expect(t, 200, `"facturaId":50001`)
	r := h.do("GET", nxapi.PathVentaItems+"?sucursalId=1&desde=31/08/2026&hasta=01/09/2026&pageSize=2&page=1", nil)
	var p nxapi.ExportPage[VentaItem]
	if err := json.Unmarshal([]byte(r.body), &p); err != nil || r.status != 200 {
		t.Fatalf("%d %s: %v", r.status, r.body, err)
	}
	if p.TotalRegistros != 3 || p.TotalPaginas != 2 || len(p.Items) != 2 {
		t.Fatalf("page %+v, want 3 lines on 2 pages", p)
	}
	erp, line := p.Items[0], p.Items[1]
	if erp.FacturaID != 3001 || erp.AppID != nil || erp.Cantidad != nxapi.DecimalFromInt(3) ||
		line.FacturaID != 50001 || line.AppID == nil || line.ArticuloID != 100 || line.Subtotal != nxapi.DecimalFromInt(201) ||
		line.NumeroFull != "0001-00000009" || line.Descripcion == "" {
		t.Fatalf("lines %+v", p.Items)
	}
}

// TestExport_Lag: with Options.ExportLag a sale appears in the exports only
// that long (API time, scaled) after it was created, while GET
// /comprobante/{id} and State show it at once.
func TestExport_Lag(t *testing.T) {
	const lag = 2 * time.Minute
	for _, scale := range []float64{1, 0.01} {
		t.Run(fmt.Sprint("scale ", scale), func(t *testing.T) {
			h := newHarness(t, Options{Env: "test", TimeScale: scale, ExportLag: lag})
			scaled := func(d time.Duration) time.Duration { return time.Duration(float64(d) * scale) }
			export := func() []int64 {
				t.Helper()
				r, p := h.totales(url.Values{"sucursalId": {"1"}, "fecha": {"01/09/2026"}}.Encode())
				if r.status != 200 {
					t.Fatalf("%d %s", r.status, r.body)
				}
				return ids(p)
			}
			h.do("POST", nxapi.PathVenta, venta(1)).expect(t, 200, `"facturaId":50001`)
			h.clock.Advance(time.Millisecond)
			h.do("POST", nxapi.PathVenta, venta(2)).expect(t, 200, `"facturaId":50002`)
			if got := export(); len(got) != 0 {
				t.Fatalf("right after creation the export shows %v", got)
			}
			h.do("GET", nxapi.PathComprobante+"50002", nil).expect(t, 200, `"ordenId":"2"`)
			if n := len(h.s.State().Vouchers); n != 2 {
				t.Fatalf("state lists %d vouchers", n)
			}
			h.clock.Advance(scaled(lag) - time.Millisecond) // the first is exactly lag old, the second 1 ms less
			if got := export(); !slices.Equal(got, []int64{50001}) {
				t.Fatalf("at the lag: %v, want only the first sale", got)
			}
			h.clock.Advance(scaled(exportWindowTest))
			if got := export(); !slices.Equal(got, []int64{50001, 50002}) {
				t.Fatalf("after the lag: %v, want both", got)
			}
		})
	}
}

// TestExport_ShowsWhatFaultsProcessed is what reconciliation relies on: a
// sale whose answer was dropped is in the export (it was processed), one
// answered 500 is not.
func TestExport_ShowsWhatFaultsProcessed(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Options
		want int
	}{{"drop after", Options{DropAfter: 1}, 1}, {"500", Options{Fail500: 1}, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
			tc.opts.Now = clock.Now
			r := start(t, tc.opts)
			send(t, http.DefaultClient, r.URL, nxapi.PathVenta, venta(77))
			req, _ := http.NewRequest("GET", r.URL+nxapi.PathVentaTotales+"?sucursalId=1&fecha=01/09/2026", nil)
			req.Header.Set(nxapi.TokenHeader, DefaultToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p nxapi.ExportPage[nxapi.VentaTotal]
			if err := json.NewDecoder(resp.Body).Decode(&p); err != nil || resp.StatusCode != 200 {
				t.Fatalf("%d: %v", resp.StatusCode, err)
			}
			if p.TotalRegistros != tc.want {
				t.Fatalf("%d sales in the export, want %d", p.TotalRegistros, tc.want)
			}
		})
	}
}
