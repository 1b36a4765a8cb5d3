package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Conformance to the vendor's wire, beyond the API spec: the public facts
// gathered from the vendor's public types and client
// (../shared/api/public-facts.md). Each test cites the fact it holds.

// fields decodes a JSON object's fields, raw.
func fields(t *testing.T, body string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return m
}

// wantInteger checks that field is a JSON integer in m.
func wantInteger(t *testing.T, where string, m map[string]json.RawMessage, field string) {
	t.Helper()
	raw := string(m[field])
	var n int64
	if raw == "" || raw[0] == '"' || json.Unmarshal([]byte(raw), &n) != nil {
		t.Errorf("%s: %s is %s, want an integer", where, field, raw)
	}
}

// public-facts.md, "Wire types": every enum is an integer on the wire,
// estado in the creating results and in /comprobante, and comprobanteTipo.
func TestWireTypes_EnumsAsIntegers(t *testing.T) {
	h := newHarness(t, Options{})
	r := h.do("POST", nxapi.PathVenta, venta(4242))
	r.expect(t, 200, `"facturaId":50001`)
	wantInteger(t, "venta result", fields(t, r.body), "estado")

	yes := true
	r = h.do("POST", nxapi.PathFacturar, &nxapi.Facturar{FacturaID: 1003, PuntoVentaID: 2, Electronica: &yes,
		MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo}})
	r.expect(t, 200, `"facturaId":1003`)
	wantInteger(t, "facturar result", fields(t, r.body), "estado")

	for _, id := range []string{"50001", "1003", "1001"} {
		h.clock.Advance(10 * time.Second) // the comprobante window
		r = h.do("GET", nxapi.PathComprobante+id, nil)
		if r.status != 200 {
			t.Fatalf("comprobante %s: %d %s", id, r.status, r.body)
		}
		m := fields(t, r.body)
		wantInteger(t, "comprobante "+id, m, "estado")
		wantInteger(t, "comprobante "+id, m, "comprobanteTipo")
	}
	// The sandbox's own codes are consistent: a sale's estado is not a
	// pending presale's, though no client may decide anything from them.
	if wireEstado(estadoPendiente) == wireEstado(estadoFacturaVenta) || wireEstado("PAGADO") == wireEstado(estadoPendiente) {
		t.Errorf("estado codes collide: %v", estadoCodes)
	}
	// State keeps the names: the inspection endpoint is the sandbox's.
	if v := h.s.State().Vouchers[0]; v.Estado != estadoFacturaVenta {
		t.Errorf("State shows estado %q, want the name", v.Estado)
	}
}

// public-facts.md, "Wire types": in /comprobante ordenId is a string or
// null ("77003"), not a number.
func TestWireTypes_ComprobanteOrdenIDString(t *testing.T) {
	d := DemoData()
	d.Comprobantes[0].OrdenID = 0 // presale 1001, made without an ordenId
	h := newHarnessWith(t, d, Options{})
	h.do("POST", nxapi.PathVenta, venta(4242)).expect(t, 200, `"facturaId":50001`)
	for _, tc := range []struct{ id, want string }{
		{"50001", `"4242"`},
		{"1002", `"9002"`},
		{"1001", `null`},
	} {
		h.clock.Advance(10 * time.Second)
		r := h.do("GET", nxapi.PathComprobante+tc.id, nil)
		if got := string(fields(t, r.body)["ordenId"]); r.status != 200 || got != tc.want {
			t.Errorf("comprobante %s: %d ordenId %s, want %s", tc.id, r.status, got, tc.want)
		}
	}
}

// public-facts.md, "Wire types": tipoDocumento (A=1, B=2, C=3, E=4, R=5,
// X=6, M=7) and comprobanteTipo are integers in the exports too.
func TestWireTypes_ExportEnumsAsIntegers(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	ri := 2 // RESPONSABLE_INSCRIPTO: letter A, the sandbox's own rule
	v := venta(4243)
	v.EntidadID, v.Usuario = 0, &nxapi.Usuario{Nombre: "Empresa SA", CUIT: "30-71234567-1", Condicion: &ri}
	h.do("POST", nxapi.PathVenta, venta(4242)).expect(t, 200, `"facturaId":50001`)
	h.do("POST", nxapi.PathVenta, v).expect(t, 200, `"facturaId":50002`)
	r, p := h.totales("sucursalId=1&fecha=01/09/2026")
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var raw struct {
		Items []map[string]json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.body), &raw); err != nil {
		t.Fatal(err)
	}
	letters := map[int64]string{}
	for i, it := range raw.Items {
		wantInteger(t, "ventatotales row", it, "tipoDocumento")
		wantInteger(t, "ventatotales row", it, "comprobanteTipo")
		letters[int64(p.Items[i].FacturaID)] = string(it["tipoDocumento"])
	}
	if letters[50001] != "2" || letters[50002] != "1" {
		t.Errorf("tipoDocumento %v, want B (2) for a consumer and A (1) for a responsable inscripto", letters)
	}
}

// public-facts.md, "Paths": the vendor's client writes some routes with
// capitals (/integraciones/Terceros/...); the server treats paths without
// regard to case. The inspection endpoint, the sandbox's own, is not the
// API's and keeps its one spelling.
func TestPaths_WithoutRegardToCase(t *testing.T) {
	h := newHarness(t, Options{})
	upper := func(p string) string { return strings.Replace(p, "/terceros/", "/Terceros/", 1) }
	h.do("POST", upper(nxapi.PathVenta), venta(4242)).expect(t, 200, `"facturaId":50001`)
	h.do("GET", strings.ToUpper(nxapi.PathConfig), nil).expect(t, 200, `"appId":1`)
	h.do("GET", upper(nxapi.PathComprobante)+"50001", nil).expect(t, 200, `"ordenId":"4242"`)
	h.do("GET", "/Integraciones/Terceros/Config/Webhooks", nil).expect(t, 200, `[]`)
	// One endpoint whatever the spelling: the counters and the windows
	// are the pattern's.
	st := h.s.State()
	if st.Requests["POST "+nxapi.PathVenta][200] != 1 || st.Requests["GET "+nxapi.PathComprobante+"{id}"][200] != 1 {
		t.Errorf("requests %v, want them counted under the API's paths", st.Requests)
	}
	h.do("GET", upper(nxapi.PathConfig), nil).expect(t, http.StatusForbidden, "Debe esperar")
	h.do("GET", strings.ToUpper(InspectPath), nil).expect(t, http.StatusNotFound, msgNoEncontrado)
	h.do("GET", InspectPath, nil).expect(t, http.StatusOK, `"vouchers"`)
}

// API spec 5.2 (a missing or invalid token gives 401) before spec 7's 404:
// the token is checked before the path is looked up, on any path.
func TestSpec5_2_TokenBefore404(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ name, path, token string }{
		{"unknown API path, no token", nxapi.Base + "/no-existe", ""},
		{"unknown API path, wrong token", nxapi.Base + "/no-existe", "otro"},
		{"outside the API, no token", "/otra/cosa", ""},
		{"root, wrong token", "/", "otro"},
		{"unknown voucher, no token", nxapi.PathComprobante + "99999", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.doToken("GET", tc.path, nil, tc.token).expect(t, http.StatusUnauthorized, msgToken)
		})
	}
	h.do("GET", nxapi.Base+"/no-existe", nil).expect(t, http.StatusNotFound, msgNoEncontrado)
	h.do("GET", "/otra/cosa", nil).expect(t, http.StatusNotFound, msgNoEncontrado)
}
