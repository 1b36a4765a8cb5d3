package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// The conformance suite walks the API spec (../shared/api/third-party-api.md)
// rule by rule; each test is named after the section it checks.

func TestSpec5_2_TokenMissingOrInvalid401(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ name, method, path, token string }{
		{"missing on venta", "POST", nxapi.PathVenta, ""},
		{"wrong on venta", "POST", nxapi.PathVenta, "other-token"},
		{"case differs", "GET", nxapi.PathConfig, strings.ToUpper(DefaultToken)},
		{"missing on webhooks", "GET", nxapi.PathWebhooks, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.doToken(tc.method, tc.path, venta(1), tc.token).expect(t, http.StatusUnauthorized, msgToken)
		})
	}
	if n := len(h.s.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers created without a valid token", n)
	}
	// A 401 must not have consumed the parameter window.
	h.do("GET", nxapi.PathConfig, nil).expect(t, http.StatusOK, `"appId":1`)
}

func TestSpec5_1_CustomToken(t *testing.T) {
	h := newHarness(t, Options{Token: "mi-token"})
	h.do("GET", nxapi.PathConfig, nil).expect(t, http.StatusUnauthorized, msgToken)
	h.doToken("GET", nxapi.PathConfig, nil, "mi-token").expect(t, http.StatusOK, `"appId":1`)
}

func TestSpec4_1_1_VentaBodyInvalid(t *testing.T) {
	h := newHarness(t, Options{})
	mod := func(f func(v *nxapi.Venta)) *nxapi.Venta { v := venta(10); f(v); return v }
	for _, tc := range []struct {
		name string
		body any
	}{
		{"malformed JSON", `{"ordenId": 10, `},
		{"wrong type", `{"ordenId": "diez"}`},
		{"empty body", ``},
		{"no products", mod(func(v *nxapi.Venta) { v.Productos = nil })},
		{"ordenId 0", mod(func(v *nxapi.Venta) { v.OrdenID = 0 })},
		{"cantidad 0", mod(func(v *nxapi.Venta) { v.Productos[0].Cantidad = dec("0") })},
		{"precio missing", mod(func(v *nxapi.Venta) { v.Productos[0].Precio = nil })},
		{"total missing", mod(func(v *nxapi.Venta) { v.Total = nil })},
		{"subtotal negative", mod(func(v *nxapi.Venta) { v.Subtotal = dec("-1") })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.do("POST", nxapi.PathVenta, tc.body).expect(t, http.StatusBadRequest, nxapi.MsgVentaInvalida)
		})
	}
	if n := len(h.s.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers from invalid bodies", n)
	}
	// An invalid body does not take the ordenId: the fixed sale goes through.
	h.do("POST", nxapi.PathVenta, venta(10)).expect(t, http.StatusOK, `"errores":false`)
}

func TestSpec4_1_2_VentaMedioPagoRequired(t *testing.T) {
	h := newHarness(t, Options{})
	v := venta(11)
	v.MedioPago = nil
	h.do("POST", nxapi.PathVenta, v).expect(t, http.StatusBadRequest, nxapi.MsgMedioPagoReq)
}

func TestSpec4_1_3_DuplicateOrdenWithin30s(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathVenta, venta(12)).expect(t, http.StatusOK, `"facturaId":50001`)
	h.clock.Advance(29 * time.Second)
	h.do("POST", nxapi.PathVenta, venta(12)).expect(t, http.StatusBadRequest, nxapi.MsgEnProceso)
	// A refused duplicate does not extend the hold.
	h.clock.Advance(time.Second)
	h.do("POST", nxapi.PathVenta, venta(12)).expect(t, http.StatusOK, `"facturaId":50002`)
	if got := h.s.State().Vouchers; len(got) != 2 || got[0].OrdenID != 12 || got[1].OrdenID != 12 {
		t.Fatalf("vouchers %+v, want two for ordenId 12 (the API does not dedupe after 30 s)", got)
	}
}

func TestSpec4_1_3_DuplicateHeldAfterRefusal(t *testing.T) {
	h := newHarness(t, Options{})
	bad := venta(13)
	bad.Total = dec("999")
	h.do("POST", nxapi.PathVenta, bad).expect(t, http.StatusOK, nxapi.MsgTotales)
	h.clock.Advance(10 * time.Second)
	h.do("POST", nxapi.PathVenta, venta(13)).expect(t, http.StatusBadRequest, nxapi.MsgEnProceso)
	h.clock.Advance(20 * time.Second)
	h.do("POST", nxapi.PathVenta, venta(13)).expect(t, http.StatusOK, `"errores":false`)
}

func TestSpec4_1_4_VentaPaymentTypes(t *testing.T) {
	h := newHarness(t, Options{})
	for i, tc := range []struct {
		medio  nxapi.MedioPago
		status int
		text   string
	}{
		{nxapi.MedioPago{Tipo: nxapi.Efectivo}, 200, `"errores":false`},
		{nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}, 200, `"errores":false`},
		{nxapi.MedioPago{Tipo: nxapi.Virtual, ExternalID: "MP-1"}, 200, `"errores":false`},
		{nxapi.MedioPago{Tipo: nxapi.TarjetaMedio, TarjetaID: 20}, 400, nxapi.MsgMedioNoCompatible},
		{nxapi.MedioPago{Tipo: nxapi.CuentaCorriente}, 400, nxapi.MsgMedioNoCompatible},
		{nxapi.MedioPago{Tipo: 3}, 400, nxapi.MsgMedioNoCompatible},
	} {
		t.Run(tc.medio.Tipo.String(), func(t *testing.T) {
			v := venta(int64(100 + i))
			v.MedioPago = &tc.medio
			h.do("POST", nxapi.PathVenta, v).expect(t, tc.status, tc.text)
		})
	}
}

func TestSpec2_1_MedioPagoRequiredIds(t *testing.T) {
	h := newHarness(t, Options{})
	for i, tc := range []struct {
		name   string
		path   string
		medio  nxapi.MedioPago
		status int
		text   string
	}{
		{"venta deposito without cuenta", nxapi.PathVenta, nxapi.MedioPago{Tipo: nxapi.DepositoBanco}, 400, msgCuentaReq},
		{"venta deposito unknown cuenta", nxapi.PathVenta, nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 99}, 404, "La cuenta bancaria 99 no existe"},
		{"venta virtual without externalId", nxapi.PathVenta, nxapi.MedioPago{Tipo: nxapi.Virtual}, 400, msgExternalReq},
		{"facturar tarjeta without tarjetaId", nxapi.PathFacturar, nxapi.MedioPago{Tipo: nxapi.TarjetaMedio}, 400, msgTarjetaReq},
		{"facturar unknown tarjeta", nxapi.PathFacturar, nxapi.MedioPago{Tipo: nxapi.TarjetaMedio, TarjetaID: 99}, 404, "La tarjeta 99 no existe"},
		{"facturar deposito without cuenta", nxapi.PathFacturar, nxapi.MedioPago{Tipo: nxapi.DepositoBanco}, 400, msgCuentaReq},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.path == nxapi.PathVenta {
				v := venta(int64(200 + i))
				v.MedioPago = &tc.medio
				body = v
			} else {
				f := facturar(int64(1001 + i))
				f.MedioPago = &tc.medio
				body = f
			}
			h.do("POST", tc.path, body).expect(t, tc.status, tc.text)
		})
	}
	if n := len(h.s.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers despite missing payment ids", n)
	}
}

func TestSpec4_1_5_VentaDefaultsAndNumero(t *testing.T) {
	h := newHarness(t, Options{})
	res := h.do("POST", nxapi.PathVenta, venta(777)).result(t)
	if res.FacturaID != 50001 || res.Numero != 777 || res.PVNumero != 1 || res.Errores {
		t.Fatalf("default point of sale: %+v, want facturaId 50001, numero 777, pVNumero 1", res)
	}
	v := venta(778)
	v.PuntoVentaID = 2
	v.ListaPrecioID = 0
	if res := h.do("POST", nxapi.PathVenta, v).result(t); res.PVNumero != 2 || res.Numero != 778 {
		t.Fatalf("point of sale 2: %+v", res)
	}
	if c, _ := h.s.Comprobante(50002); c.PuntoVentaID != 2 || c.SucursalID != 2 {
		t.Fatalf("voucher 50002 %+v, want point of sale 2 of branch 2", c)
	}
}

func TestSpec2_1_UsuarioOrEntidadId(t *testing.T) {
	h := newHarness(t, Options{})
	for i, tc := range []struct {
		name    string
		entidad int64
		usuario *nxapi.Usuario
		status  int
		text    string
	}{
		{"neither", 0, nil, 400, msgUsuarioReq},
		{"usuario without dni cuit email", 0, &nxapi.Usuario{Nombre: "Ana"}, 400, msgUsuarioReq},
		{"usuario with email", 0, &nxapi.Usuario{Email: "ana@example.com"}, 200, `"errores":false`},
		{"usuario with cuit", 0, &nxapi.Usuario{CUIT: "20123456786"}, 200, `"errores":false`},
		{"active entidad", 501, nil, 200, `"errores":false`},
		{"inactive entidad", 502, nil, 403, "El entidadId 502 no es un cliente activo"},
		{"unknown entidad", 999, nil, 403, "El entidadId 999 no es un cliente activo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := venta(int64(300 + i))
			v.EntidadID, v.Usuario = tc.entidad, tc.usuario
			h.do("POST", nxapi.PathVenta, v).expect(t, tc.status, tc.text)
		})
	}
}

func TestSpec2_1_EmpleadoId(t *testing.T) {
	h := newHarness(t, Options{})
	for i, tc := range []struct {
		empleado int64
		status   int
	}{{0, 200}, {70, 200}, {71, 200}, {72, 403}, {79, 403}, {999, 403}} {
		t.Run(fmt.Sprint(tc.empleado), func(t *testing.T) {
			v := venta(int64(400 + i))
			v.EmpleadoID = tc.empleado
			text := `"errores":false`
			if tc.status == 403 {
				text = fmt.Sprintf("El empleadoId %d no es un empleado valido", tc.empleado)
			}
			h.do("POST", nxapi.PathVenta, v).expect(t, tc.status, text)
		})
	}
}

func TestSpec7_TotalsMismatchIs200WithErrores(t *testing.T) {
	h := newHarness(t, Options{})
	for i, tc := range []struct {
		name                                       string
		subtotal, descuento, recargo, envio, total string
		ok                                         bool
	}{
		{"exact", "201", "1.5", "0.25", "10", "209.75", true},
		{"off by a cent", "201", "0", "0", "0", "201.01", false},
		{"discount ignored", "201", "10", "0", "0", "201", false},
		{"below a cent", "201", "0", "0", "0", "201.004", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := venta(int64(500 + i))
			v.Subtotal, v.Descuento, v.Recargo, v.Envio, v.Total = dec(tc.subtotal), dec(tc.descuento), dec(tc.recargo), dec(tc.envio), dec(tc.total)
			r := h.do("POST", nxapi.PathVenta, v)
			res := r.result(t)
			if r.status != 200 || res.Errores == tc.ok {
				t.Fatalf("got %d %s", r.status, r.body)
			}
			if !tc.ok && (res.Datos["error"] != nxapi.MsgTotales || res.FacturaID != 0) {
				t.Fatalf("datos.error %q facturaId %d, want %q and 0", res.Datos["error"], res.FacturaID, nxapi.MsgTotales)
			}
		})
	}
	if n := len(h.s.State().Vouchers); n != 2 {
		t.Fatalf("%d vouchers, want 2 (only the matching totals)", n)
	}
}

func TestSpec7_PuntoVentaOutsideScope403(t *testing.T) {
	h := newHarness(t, Options{})
	v := venta(600)
	v.PuntoVentaID = 9
	h.do("POST", nxapi.PathVenta, v).expect(t, 403, "El punto de venta 9 pertenece a una sucursal no habilitada")
	f := facturar(1001)
	f.PuntoVentaID = 9
	h.do("POST", nxapi.PathFacturar, f).expect(t, 403, "El punto de venta 9 pertenece a una sucursal no habilitada")
	if c, _ := h.s.Comprobante(1001); c.Estado != estadoPendiente {
		t.Fatalf("presale 1001 is %s after a refused invoicing", c.Estado)
	}
}

func TestSpec4_2_1_FacturaIdRequired(t *testing.T) {
	h := newHarness(t, Options{})
	for _, body := range []any{`{`, `{"facturaId":"x"}`, `{}`, facturar(0), facturar(-5)} {
		h.do("POST", nxapi.PathFacturar, body).expect(t, http.StatusBadRequest, nxapi.MsgFacturaIDReq)
	}
}

func TestSpec4_2_2_FacturarMedioPagoRequired(t *testing.T) {
	h := newHarness(t, Options{})
	f := facturar(1001)
	f.MedioPago = nil
	h.do("POST", nxapi.PathFacturar, f).expect(t, http.StatusBadRequest, nxapi.MsgMedioPagoReq)
}

func TestSpec4_2_3_PuntoVentaRequired(t *testing.T) {
	h := newHarness(t, Options{})
	for _, pv := range []int64{0, -1} {
		f := facturar(1001)
		f.PuntoVentaID = pv
		h.do("POST", nxapi.PathFacturar, f).expect(t, http.StatusBadRequest, nxapi.MsgPuntoVentaReq)
	}
}

func TestSpec2_1_ElectronicaRequired(t *testing.T) {
	h := newHarness(t, Options{})
	f := facturar(1001)
	f.Electronica = nil
	h.do("POST", nxapi.PathFacturar, f).expect(t, http.StatusBadRequest, msgElectronicaReq)
}

func TestSpec4_2_4_DuplicateFacturaWithin30s(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathFacturar, facturar(1002)).expect(t, 200, `"facturaId":1002`)
	h.clock.Advance(29 * time.Second)
	h.do("POST", nxapi.PathFacturar, facturar(1002)).expect(t, 400, nxapi.MsgEnProceso)
	h.clock.Advance(2 * time.Second)
	// After 30 s the key is free, and the presale is no longer PENDIENTE.
	h.do("POST", nxapi.PathFacturar, facturar(1002)).expect(t, 200, `"errores":true`)
	if n := len(h.s.State().Vouchers); n != 1 {
		t.Fatalf("%d vouchers, want 1", n)
	}
}

func TestSpec4_2_5_PresaleMustExistAndBePendiente(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathFacturar, facturar(9999)).expect(t, 404, "El comprobante 9999 no existe")
	h.do("POST", nxapi.PathFacturar, facturar(2001)).expect(t, 404, "El comprobante 2001 no existe")
	r := h.do("POST", nxapi.PathFacturar, facturar(1013))
	if res := r.result(t); r.status != 200 || !res.Errores || !strings.Contains(res.ErrorText(), "PAGADO") {
		t.Fatalf("presale PAGADO: %d %s", r.status, r.body)
	}
	f := facturar(1003)
	f.PuntoVentaID = 2
	f.Electronica = ptr(true)
	res := h.do("POST", nxapi.PathFacturar, f).result(t)
	if res.Errores || res.FacturaID != 1003 || res.PVNumero != 2 || res.CAE == "" {
		t.Fatalf("invoicing 1003: %+v", res)
	}
	c, _ := h.s.Comprobante(1003)
	if c.Estado != estadoFacturaVenta || c.ComprobanteTipo != nxapi.ComprobanteVenta || c.PuntoVentaID != 2 {
		t.Fatalf("presale after invoicing: %+v, want FACTURA_VENTA type 2 at point of sale 2", c)
	}
	st := h.s.State()
	if len(st.Vouchers) != 1 || st.Vouchers[0].PresaleID != 1003 || !st.Vouchers[0].Electronica {
		t.Fatalf("vouchers %+v", st.Vouchers)
	}
}

func TestSpec4_2_6_FacturarSupportsAllFivePaymentTypes(t *testing.T) {
	h := newHarness(t, Options{})
	for i, m := range []nxapi.MedioPago{
		{Tipo: nxapi.Efectivo}, {Tipo: nxapi.TarjetaMedio, TarjetaID: 21}, {Tipo: nxapi.CuentaCorriente},
		{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 11}, {Tipo: nxapi.Virtual, ExternalID: "x"},
	} {
		f := facturar(int64(1004 + i))
		f.MedioPago = &m
		if res := h.do("POST", nxapi.PathFacturar, f).result(t); res.Errores || int64(res.FacturaID) != f.FacturaID {
			t.Fatalf("%s: %+v", m.Tipo, res)
		}
	}
	f := facturar(1010)
	f.MedioPago = &nxapi.MedioPago{Tipo: 2}
	h.do("POST", nxapi.PathFacturar, f).expect(t, 400, nxapi.MsgMedioNoCompatible)
	if c, _ := h.s.Comprobante(1006); c.Totales.Saldo != c.Totales.Total || c.Totales.Saldo == 0 {
		t.Fatalf("cuenta corriente leaves the total as saldo: %+v", c.Totales)
	}
}

func TestSpec4_3_MediosPago(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do("GET", nxapi.PathMediosPago, nil)
	var m nxapi.MediosPagoConfig
	if err := json.Unmarshal([]byte(r.body), &m); err != nil || r.status != 200 {
		t.Fatalf("%d %s: %v", r.status, r.body, err)
	}
	if !m.Medios.Efectivo || !m.Medios.Virtual || m.Medios.Cheque || len(m.Tarjetas) != 3 || len(m.Bancos) != 2 {
		t.Fatalf("medios-pago %+v", m)
	}
	if c := m.CuentasBancarias[0]; c.CuentaBancariaID != 10 || c.Alias != "DEMO.NACION" || len(c.CBU) != 22 {
		t.Fatalf("cuenta 10 %+v", c)
	}
	for _, key := range []string{`"botonesRapidos":[]`, `"recargosTipoMedio":[]`, `"tarjetasReglas":[`} {
		if !strings.Contains(r.body, key) {
			t.Errorf("body lacks %s", key)
		}
	}
}

func TestSpec4_4_1_MotivoRequired(t *testing.T) {
	h := newHarness(t, Options{})
	m := movimiento()
	m.MotivoID = 0
	h.do("POST", nxapi.PathStock, m).expect(t, 400, nxapi.MsgMotivoReq)
	h.clock.Advance(3 * time.Second)
	m.MotivoID = -2
	h.do("POST", nxapi.PathStock, m).expect(t, 400, nxapi.MsgMotivoReq)
	if n := len(h.s.State().Movements); n != 0 {
		t.Fatalf("%d movements", n)
	}
}

func TestSpec4_4_2_MalformedStockBody403(t *testing.T) {
	h := newHarness(t, Options{})
	for _, body := range []any{
		`{"depositoId":1,`, `{"depositoId":"uno","motivoId":1,"tipo":6,"articulos":[]}`,
		`{"depositoId":1,"motivoId":1,"tipo":8,"articulos":[{"articuloId":105,"cantidad":1}]}`,
		`{"depositoId":1,"motivoId":1,"tipo":6,"articulos":[]}`,
		`{"depositoId":1,"motivoId":1,"tipo":6,"articulos":[{"articuloId":105}]}`,
	} {
		h.clock.Advance(3 * time.Second)
		h.do("POST", nxapi.PathStock, body).expect(t, 403, nxapi.MsgStockIncorrecto)
	}
}

func TestSpec4_4_3_StockWindow3s(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	h.clock.Advance(1200 * time.Millisecond)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 403, "Debe esperar 2 segundos entre cada solicitud")
	h.clock.Advance(1800 * time.Millisecond)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	// An invalid movement still uses the window, as a rate limit would.
	h.clock.Advance(3 * time.Second)
	h.do("POST", nxapi.PathStock, `{`).expect(t, 403, nxapi.MsgStockIncorrecto)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 403, "Debe esperar 3 segundos")
	st := h.s.State()
	if len(st.Movements) != 2 || st.Movements[1].Arrived.Sub(st.Movements[0].Arrived) != 3*time.Second {
		t.Fatalf("movements %+v", st.Movements)
	}
	if got := h.s.StockOf(105, 0, 0, 1); got != nxapi.DecimalFromInt(20) {
		t.Fatalf("stock of 105 in warehouse 1 = %s, want 20", got)
	}
}

func TestSpec4_4_4_TransferenciaMovesBetweenWarehouses(t *testing.T) {
	h := newHarness(t, Options{})
	m := &nxapi.StockMovimiento{DepositoID: 1, DepositoDosID: 3, SucursalDosID: 2, MotivoID: 3, Tipo: nxapi.Transferencia,
		Articulos: []nxapi.StockArticulo{{ArticuloID: 100, ColorID: 2, TalleID: 3, Cantidad: dec("4")}}}
	h.do("POST", nxapi.PathStock, m).expect(t, 200, `"tipo":1`)
	if from, to := h.s.StockOf(100, 2, 3, 1), h.s.StockOf(100, 2, 3, 3); from != nxapi.DecimalFromInt(6) || to != nxapi.DecimalFromInt(14) {
		t.Fatalf("after transfer: origin %s destination %s, want 6 and 14", from, to)
	}
	for _, tc := range []struct {
		name string
		mod  func(m *nxapi.StockMovimiento)
		text string
	}{
		{"no destination", func(m *nxapi.StockMovimiento) { m.DepositoDosID = 0 }, msgTransferDestino},
		{"same warehouse", func(m *nxapi.StockMovimiento) { m.DepositoDosID = 1 }, msgTransferDestino},
		{"branch mismatch", func(m *nxapi.StockMovimiento) { m.SucursalDosID = 1 }, "El sucursalDosId 1 no coincide con la sucursal del deposito 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(3 * time.Second)
			bad := *m
			tc.mod(&bad)
			r := h.do("POST", nxapi.PathStock, &bad)
			if res := r.nx(t); r.status != 200 || res.Tipo != nxapi.NxValidacion || !strings.Contains(r.body, tc.text) {
				t.Fatalf("got %d %s", r.status, r.body)
			}
		})
	}
}

func TestSpec2_3_StockMovementTypesAndValidation(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		name  string
		tipo  nxapi.TipoStock
		want  int64
		extra func(m *nxapi.StockMovimiento)
		text  string
	}{
		{"INGRESO_STOCK", nxapi.IngresoStock, 15, nil, ""},
		{"EGRESO_STOCK", nxapi.EgresoStock, 10, nil, ""},
		{"INGRESO_MANUAL", nxapi.IngresoManual, 15, nil, ""},
		{"EGRESO_MANUAL", nxapi.EgresoManual, 10, nil, ""},
		{"deleted motivo", nxapi.IngresoStock, 10, func(m *nxapi.StockMovimiento) { m.MotivoID = 4 }, "El motivo 4 no existe o fue eliminado"},
		{"unknown article", nxapi.IngresoStock, 10, func(m *nxapi.StockMovimiento) { m.Articulos[0].ArticuloID = 999 }, "El articulo 999 no existe"},
		{"missing variant", nxapi.IngresoStock, 10, func(m *nxapi.StockMovimiento) { m.Articulos[0].ArticuloID = 101 }, "El articulo 101 no tiene la variante"},
		{"negative quantity", nxapi.IngresoStock, 10, func(m *nxapi.StockMovimiento) { m.Articulos[0].Cantidad = dec("-1") }, "debe ser mayor a cero"},
		{"bad fecha", nxapi.IngresoStock, 10, func(m *nxapi.StockMovimiento) { m.Fecha = "31/12/2026" }, "no es valida"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(3 * time.Second)
			m := movimiento()
			m.Tipo = tc.tipo
			m.Fecha = "2026-09-01"
			if tc.extra != nil {
				tc.extra(m)
			}
			r := h.do("POST", nxapi.PathStock, m)
			res := r.nx(t)
			if tc.text == "" && res.Tipo != nxapi.NxOK || tc.text != "" && (res.Tipo != nxapi.NxValidacion || !strings.Contains(r.body, tc.text)) {
				t.Fatalf("got %d %s", r.status, r.body)
			}
			if got := h.s.StockOf(105, 0, 0, 1); got != nxapi.DecimalFromInt(tc.want) {
				t.Fatalf("stock %s, want %d", got, tc.want)
			}
		})
	}
}

func TestSpec7_DepositoOutsideScope403(t *testing.T) {
	h := newHarness(t, Options{})
	m := movimiento()
	m.DepositoID = 9
	h.do("POST", nxapi.PathStock, m).expect(t, 403, "El deposito 9 pertenece a una sucursal no habilitada")
	h.clock.Advance(3 * time.Second)
	m = &nxapi.StockMovimiento{DepositoID: 1, DepositoDosID: 9, MotivoID: 3, Tipo: nxapi.Transferencia,
		Articulos: []nxapi.StockArticulo{{ArticuloID: 105, Cantidad: dec("1")}}}
	h.do("POST", nxapi.PathStock, m).expect(t, 403, "El deposito 9 pertenece a una sucursal no habilitada")
	h.clock.Advance(3 * time.Second)
	m.DepositoID, m.Tipo = 42, nxapi.IngresoStock
	h.do("POST", nxapi.PathStock, m).expect(t, 404, "El deposito 42 no existe")
	if got := h.s.StockOf(105, 0, 0, 1); got != nxapi.DecimalFromInt(10) {
		t.Fatalf("stock changed by refused movements: %s", got)
	}
}

func TestSpec7_NoEnabledBranchesBlocksStock(t *testing.T) {
	d := DemoData()
	for i := range d.Sucursales {
		d.Sucursales[i].Habilitada = false
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := &harness{t: t, s: s}
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 403, msgSinSucursal)
	// Voucher creation does not block while the list is unconfigured.
	h.do("POST", nxapi.PathVenta, venta(1)).expect(t, 200, `"errores":false`)
}

func TestSpec4_5_Motivos(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do("GET", nxapi.PathMotivos, nil)
	var ms []nxapi.Motivo
	if err := json.Unmarshal([]byte(r.body), &ms); err != nil || len(ms) != 5 {
		t.Fatalf("%s: %v", r.body, err)
	}
	if !ms[3].Eliminado || ms[3].MotivoID != 4 || ms[0].Eliminado || ms[0].Creado == "" || len(ms[0].Modulos) == 0 {
		t.Fatalf("motivos %+v", ms)
	}
}

func TestSpec8_ParameterEndpointsShareOne60sWindow(t *testing.T) {
	params := []string{nxapi.PathConfig, nxapi.PathDepositos, nxapi.PathMediosPago, nxapi.PathMotivos, nxapi.PathPuntosVenta, nxapi.PathEmpleados}
	for _, first := range params {
		for _, second := range params {
			t.Run(first+" then "+second, func(t *testing.T) {
				h := newHarness(t, Options{})
				h.do("GET", first, nil).expect(t, 200, "")
				h.clock.Advance(20 * time.Second)
				h.do("GET", second, nil).expect(t, 403, "Debe esperar 40 segundos entre cada solicitud")
				h.clock.Advance(40 * time.Second)
				h.do("GET", second, nil).expect(t, 200, "")
			})
		}
	}
}

func TestSpec8_WebhookWindows(t *testing.T) {
	for _, tc := range []struct {
		env         string
		list, write time.Duration
	}{{"production", 10 * time.Second, 30 * time.Second}, {"test", 3 * time.Second, 3 * time.Second}} {
		t.Run(tc.env, func(t *testing.T) {
			h := newHarness(t, Options{Env: tc.env})
			h.do("GET", nxapi.PathWebhooks, nil).expect(t, 200, "[]")
			h.do("GET", nxapi.PathWebhooks, nil).expect(t, 403, fmt.Sprintf("Debe esperar %d segundos", int(tc.list.Seconds())))
			h.do("POST", nxapi.PathWebhooks, webhookBody("http://127.0.0.1:9/x", nil)).expect(t, 200, `"id":1`)
			h.clock.Advance(tc.write - time.Second)
			// Create, edit and delete share one window; listing had its own.
			h.do("DELETE", nxapi.PathWebhooks+"/1", nil).expect(t, 403, "Debe esperar 1 segundos")
			h.do("POST", nxapi.PathWebhooks+"/1", webhookBody("http://127.0.0.1:9/y", nil)).expect(t, 403, "Debe esperar 1 segundos")
			h.clock.Advance(time.Second)
			h.do("DELETE", nxapi.PathWebhooks+"/1", nil).expect(t, 200, "[]")
		})
	}
}

func TestSpec8_TimeScaleMultipliesWindows(t *testing.T) {
	h := newHarness(t, Options{TimeScale: 0.01})
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	h.clock.Advance(10 * time.Millisecond)
	// 20 ms real are 2 API seconds: a client with the same scale waits 2 × 0.01 s.
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 403, "Debe esperar 2 segundos")
	h.clock.Advance(20 * time.Millisecond)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	h.do("POST", nxapi.PathVenta, venta(1)).expect(t, 200, `"errores":false`)
	h.clock.Advance(300 * time.Millisecond)
	h.do("POST", nxapi.PathVenta, venta(1)).expect(t, 200, `"errores":false`)
}

func webhookBody(url string, extra *string, headers ...nxapi.WebhookHeader) *nxapi.WebhookGuardar {
	return &nxapi.WebhookGuardar{URL: url, Topic: nxapi.TopicArticulos, Extra: extra, Headers: headers}
}

func TestSpec4_6_WebhookAdministration(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	step := func() { h.clock.Advance(3 * time.Second) }
	h.do("GET", nxapi.PathWebhooks, nil).expect(t, 200, "[]")
	body := map[string]any{"id": 77, "url": "https://erp.example.com/hook", "topic": "articulos", "extra": nil,
		"headers": []map[string]string{{"key": "X-Secreto", "value": "abc"}}}
	r := h.do("POST", nxapi.PathWebhooks, body)
	var list []nxapi.Webhook
	if err := json.Unmarshal([]byte(r.body), &list); err != nil || r.status != 200 || len(list) != 1 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if wh := list[0]; wh.ID != 1 || !wh.Activo || wh.Extra != nil || wh.Headers[0].Key != "X-Secreto" {
		t.Fatalf("created %+v: id must be assigned (77 ignored), activo default true", wh)
	}
	step()
	h.do("POST", nxapi.PathWebhooks, body).expect(t, 400, "Ya existe un webhook para el topic articulos")
	step()
	edit := webhookBody("http://127.0.0.1:8080/h", ptr("objeto"))
	edit.Activo = ptr(false)
	h.do("POST", nxapi.PathWebhooks+"/1", edit).expect(t, 200, `"extra":"objeto"`)
	if wh := h.s.State().Webhooks[0]; wh.ID != 1 || wh.Activo || wh.URL != "http://127.0.0.1:8080/h" || len(wh.Headers) != 0 {
		t.Fatalf("edited %+v", wh)
	}
	step()
	h.do("POST", nxapi.PathWebhooks+"/5", edit).expect(t, 404, "No existe el webhook 5")
	step()
	h.do("DELETE", nxapi.PathWebhooks+"/1", nil).expect(t, 200, "[]")
	step()
	h.do("DELETE", nxapi.PathWebhooks+"/1", nil).expect(t, 400, "No existe el webhook 1")
	step()
	h.do("DELETE", nxapi.PathWebhooks+"/abc", nil).expect(t, 400, "No existe el webhook abc")
	step()
	// After deleting, the topic is free again and ids never repeat.
	h.do("POST", nxapi.PathWebhooks, webhookBody("http://a.example/x", nil)).expect(t, 200, `"id":2`)
}

func TestSpec4_6_WebhookFieldRules(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	hdr := func(k, v string) nxapi.WebhookHeader { return nxapi.WebhookHeader{Key: k, Value: v} }
	many := make([]nxapi.WebhookHeader, 11)
	for i := range many {
		many[i] = hdr(fmt.Sprintf("K%d", i), "v")
	}
	for _, tc := range []struct {
		name string
		body any
		text string
	}{
		{"url missing", webhookBody("", nil), msgURLReq},
		{"url relative", webhookBody("/hook", nil), msgURLInvalida},
		{"url ftp", webhookBody("ftp://example.com/x", nil), msgURLInvalida},
		{"url too long", webhookBody("https://example.com/"+strings.Repeat("a", 481), nil), msgURLLarga},
		{"topic missing", &nxapi.WebhookGuardar{URL: "https://e.com"}, msgTopicReq},
		{"topic other", &nxapi.WebhookGuardar{URL: "https://e.com", Topic: "pedidos"}, `El topic \"pedidos\" no es valido`},
		{"extra other", webhookBody("https://e.com", ptr("plano")), `El extra \"plano\" no es valido`},
		{"11 headers", webhookBody("https://e.com", nil, many...), msgHeadersMax},
		{"key missing", webhookBody("https://e.com", nil, hdr("", "v")), "El header 1 no tiene key"},
		{"key with space", webhookBody("https://e.com", nil, hdr("X Token", "v")), `La key \"X Token\" contiene espacios`},
		{"key special", webhookBody("https://e.com", nil, hdr("X:Token", "v")), "contiene espacios o caracteres especiales"},
		{"key too long", webhookBody("https://e.com", nil, hdr(strings.Repeat("k", 101), "v")), "supera los 100 caracteres"},
		{"key repeated in other case", webhookBody("https://e.com", nil, hdr("X-A", "1"), hdr("x-a", "2")), `La key \"x-a\" esta repetida`},
		{"value missing", webhookBody("https://e.com", nil, hdr("X-A", "")), `El header \"X-A\" no tiene valor`},
		{"value too long", webhookBody("https://e.com", nil, hdr("X-A", strings.Repeat("v", 501))), "supera los 500 caracteres"},
		{"value line break", webhookBody("https://e.com", nil, hdr("X-A", "a\r\nb: c")), "contiene saltos de linea"},
		{"malformed JSON", `{"url":`, msgJSONInvalido},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(3 * time.Second)
			r := h.do("POST", nxapi.PathWebhooks, tc.body)
			r.expect(t, 400, tc.text)
			if e := r.errBody(t); len(e.Mensajes) == 0 {
				t.Fatalf("no mensajes in %s", r.body)
			}
		})
	}
	// Limits are inclusive.
	h.clock.Advance(3 * time.Second)
	ok := webhookBody("https://example.com/"+strings.Repeat("a", 480), ptr("curva"), hdr(strings.Repeat("k", 100), strings.Repeat("v", 500)))
	h.do("POST", nxapi.PathWebhooks, ok).expect(t, 200, `"extra":"curva"`)
	// Several failures are all listed.
	h.clock.Advance(3 * time.Second)
	r := h.do("POST", nxapi.PathWebhooks+"/1", &nxapi.WebhookGuardar{URL: "x", Topic: "y"})
	if e := r.errBody(t); r.status != 400 || len(e.Mensajes) != 2 {
		t.Fatalf("want both url and topic in mensajes: %d %s", r.status, r.body)
	}
}

func TestSpec4_7_ComprobanteOnlyOwnVouchers(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", nxapi.PathVenta, venta(4242)).expect(t, 200, `"facturaId":50001`)
	r := h.do("GET", nxapi.PathComprobante+"50001", nil)
	var c nxapi.Comprobante
	if err := json.Unmarshal([]byte(r.body), &c); err != nil || r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if c.OrdenID != "4242" || c.ComprobanteTipo != nxapi.ComprobanteVenta || c.Totales.Total != nxapi.DecimalFromInt(201) || len(c.Items) != 1 || c.Fecha != "01/09/2026 12:00:00" {
		t.Fatalf("comprobante %+v", c)
	}
	h.clock.Advance(10 * time.Second) // the comprobante window
	h.do("GET", nxapi.PathComprobante+"1001", nil).expect(t, 200, `"comprobanteTipo":33`)
	for _, id := range []string{"2001", "99999", "abc", "-1"} {
		h.clock.Advance(10 * time.Second)
		r := h.do("GET", nxapi.PathComprobante+id, nil)
		if r.status != 404 {
			t.Fatalf("comprobante %s: %d %s, want 404 (never 403)", id, r.status, r.body)
		}
	}
}

// TestSpec8_ComprobanteWindow: GET /comprobante/{id} is a parameter-like
// bucket of its own (public facts, "Reading back"), 10 s in production and
// 3 s in test, counted from every request that reaches it, a 404 included,
// and independent of the parameter endpoints' 60 s window.
func TestSpec8_ComprobanteWindow(t *testing.T) {
	for _, tc := range []struct {
		env    string
		window time.Duration
	}{{"production", 10 * time.Second}, {"test", 3 * time.Second}, {"", 10 * time.Second}} {
		t.Run("env "+tc.env, func(t *testing.T) {
			h := newHarness(t, Options{Env: tc.env})
			read := func() response { return h.do("GET", nxapi.PathComprobante+"1001", nil) }
			read().expect(t, 200, `"facturaId":1001`)
			h.clock.Advance(time.Second)
			read().expect(t, 403, fmt.Sprintf("Debe esperar %d segundos entre cada solicitud", int(tc.window.Seconds())-1))
			// The parameter window is another bucket: /config goes through.
			h.do("GET", nxapi.PathConfig, nil).expect(t, 200, `"appId":1`)
			h.clock.Advance(tc.window - time.Second)
			// A 404 is a request that reached the endpoint: it takes the window.
			h.do("GET", nxapi.PathComprobante+"2001", nil).expect(t, 404, "El comprobante 2001 no existe")
			h.clock.Advance(tc.window - time.Millisecond)
			read().expect(t, 403, "Debe esperar 1 segundos")
			h.clock.Advance(time.Millisecond)
			read().expect(t, 200, `"facturaId":1001`)
		})
	}
}

func TestSpec4_7_Config(t *testing.T) {
	for _, tc := range []struct {
		override, want int
	}{{0, 1}, {3, 3}} {
		h := newHarness(t, Options{FlujoDeposito: tc.override})
		var c nxapi.Config
		r := h.do("GET", nxapi.PathConfig, nil)
		if err := json.Unmarshal([]byte(r.body), &c); err != nil {
			t.Fatal(err)
		}
		var deps, sucs []int64
		for _, d := range c.Depositos {
			deps = append(deps, d.DepositoID)
		}
		for _, s := range c.SucursalesExportacion {
			sucs = append(sucs, s.SucursalID)
		}
		if c.FlujoDeposito != tc.want || !slices.Equal(deps, []int64{1, 2, 3, 4}) || !slices.Equal(sucs, []int64{1, 2}) ||
			!c.Depositos[0].Default || c.PuntoVentaID != 1 || c.Nombre != "Demo Integración" {
			t.Fatalf("config %+v", c)
		}
	}
}

func TestSpec4_7_PuntosVentaAndEmpleadosInScope(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("GET", nxapi.PathPuntosVenta, nil).expect(t, 200, `"puntoVentaId":2`)
	h.clock.Advance(time.Minute)
	r := h.do("GET", nxapi.PathEmpleados, nil)
	var es []Empleado
	if err := json.Unmarshal([]byte(r.body), &es); err != nil || len(es) != 2 || es[0].EmpleadoID != 70 || es[1].EmpleadoID != 71 {
		t.Fatalf("empleados %s", r.body)
	}
}
