package sandbox

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

func TestBadInputAnswersJSONWithTheRightStatus(t *testing.T) {
	h := newHarness(t, Options{MaxBody: 1024, Env: "test"})
	huge := `{"ordenId":1,"detalle":"` + strings.Repeat("x", 2000) + `"}`
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		text               string
	}{
		{"huge venta", "POST", nxapi.PathVenta, huge, 400, nxapi.MsgVentaInvalida},
		{"huge facturar", "POST", nxapi.PathFacturar, huge, 400, nxapi.MsgFacturaIDReq},
		{"huge stock", "POST", nxapi.PathStock, huge, 403, nxapi.MsgStockIncorrecto},
		{"huge webhook", "POST", nxapi.PathWebhooks, huge, 400, msgJSONInvalido},
		{"array instead of object", "POST", nxapi.PathVenta, `[1,2]`, 400, nxapi.MsgVentaInvalida},
		{"trailing garbage", "POST", nxapi.PathVenta, `{"ordenId":1} x`, 400, nxapi.MsgVentaInvalida},
		{"decimal as text", "POST", nxapi.PathVenta, `{"ordenId":1,"productos":[{"articuloId":100,"precio":"diez","cantidad":1}]}`, 400, nxapi.MsgVentaInvalida},
		{"float ordenId", "POST", nxapi.PathVenta, `{"ordenId":1.5}`, 400, nxapi.MsgVentaInvalida},
		{"null body", "POST", nxapi.PathFacturar, `null`, 400, nxapi.MsgFacturaIDReq},
		{"unknown path", "GET", nxapi.Base + "/exportar/nada", nil, 404, msgNoEncontrado},
		{"outside the API", "GET", "/", nil, 404, msgNoEncontrado},
		{"empty comprobante id", "GET", nxapi.PathComprobante, nil, 404, msgNoEncontrado},
		{"nested webhook path", "DELETE", nxapi.PathWebhooks + "/1/x", nil, 404, msgNoEncontrado},
		{"edit a missing webhook", "POST", nxapi.PathWebhooks + "/77", webhookBody("http://127.0.0.1:9/y", nil), 404, fmt.Sprintf(msgWebhookNoHay, "77")},
		{"delete a missing webhook", "DELETE", nxapi.PathWebhooks + "/78", nil, 400, fmt.Sprintf(msgWebhookNoHay, "78")},
		{"GET venta", "GET", nxapi.PathVenta, nil, 405, msgMetodo},
		{"PUT webhook", "PUT", nxapi.PathWebhooks + "/1", nil, 405, msgMetodo},
		{"DELETE collection", "DELETE", nxapi.PathWebhooks, nil, 405, msgMetodo},
		{"POST inspection", "POST", InspectPath, nil, 405, msgMetodo},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(time.Minute)
			h.do(tc.method, tc.path, tc.body).expect(t, tc.status, tc.text)
		})
	}
	r := h.do("GET", nxapi.PathVenta, nil)
	if r.header.Get("Allow") != "POST" {
		t.Fatalf("Allow %q", r.header.Get("Allow"))
	}
	if r := h.do("PATCH", nxapi.PathWebhooks+"/1", nil); r.header.Get("Allow") != "POST, DELETE" {
		t.Fatalf("Allow %q", r.header.Get("Allow"))
	}
	st := h.s.State()
	if len(st.Vouchers)+len(st.Movements)+len(st.Webhooks) != 0 {
		t.Fatalf("bad input changed the state: %+v", st)
	}
	if st.Requests["GET "+nxapi.PathVenta][405] != 2 || st.Requests["GET "+unknownPath][404] != 3 {
		t.Fatalf("counters %v", st.Requests)
	}
}

func TestInspectionEndpoint(t *testing.T) {
	const secret = "s3creto-compartido"
	h := newHarness(t, Options{Env: "test"})
	h.do("POST", nxapi.PathVenta, venta(5)).expect(t, 200, `"errores":false`)
	h.do("POST", nxapi.PathStock, movimiento()).expect(t, 200, `"tipo":1`)
	h.do("POST", nxapi.PathWebhooks, webhookBody("http://user:pw-en-url@127.0.0.1:9/hook", nil,
		nxapi.WebhookHeader{Key: "X-NX-Secret", Value: secret})).expect(t, 200, `"id":1`)
	for _, tc := range []struct {
		name, token string
		status      int
	}{
		{"without token", "", 401},
		{"wrong token", "otro-token", 401},
		{"sandbox token", DefaultToken, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.doToken("GET", InspectPath, nil, tc.token)
			if r.status != tc.status {
				t.Fatalf("%d %s, want %d", r.status, r.body, tc.status)
			}
			if strings.Contains(r.body, secret) || strings.Contains(r.body, "pw-en-url") {
				t.Fatalf("the inspection shows a secret: %s", r.body)
			}
			if tc.status != 200 {
				if strings.Contains(r.body, "vouchers") {
					t.Fatalf("refused, but answered the state: %s", r.body)
				}
				return
			}
			var st State
			if err := json.Unmarshal([]byte(r.body), &st); err != nil {
				t.Fatalf("%s: %v", r.body, err)
			}
			if len(st.Vouchers) != 1 || st.Vouchers[0].OrdenID != 5 || st.Vouchers[0].CreatedAt.IsZero() || len(st.Movements) != 1 ||
				st.Requests["POST "+nxapi.PathVenta][200] != 1 || len(st.Stock) != 4*(5*6+15+2+3) {
				t.Fatalf("state %+v", st)
			}
			if wh := st.Webhooks; len(wh) != 1 || wh[0].Headers[0].Key != "X-NX-Secret" || wh[0].Headers[0].Value != RedactedValue ||
				!strings.Contains(wh[0].URL, "127.0.0.1:9/hook") {
				t.Fatalf("webhooks %+v, want the header key with its value redacted", wh)
			}
		})
	}
	// The in-process method keeps everything, for tests.
	if wh := h.s.State().Webhooks; wh[0].Headers[0].Value != secret {
		t.Fatalf("State() webhooks %+v", wh)
	}
}

// FuzzServeHTTP checks that no body makes the sandbox panic or answer
// something that is not JSON.
func FuzzServeHTTP(f *testing.F) {
	for _, s := range []string{`{"ordenId":1}`, `{"facturaId":1001,"puntoVentaId":1,"electronica":true,"medioPago":{"tipo":1}}`,
		`{"depositoId":1,"motivoId":1,"tipo":10,"articulos":[{"articuloId":100,"cantidad":1e3}]}`, `{"url":"http://a","topic":"articulos","headers":[{}]}`, `[]`, `"`,
		`{"ordenId":9,"numero":9,"entidadId":500,"productos":[{"articuloId":100,"precio":1,"cantidad":1}],"subtotal":1,"descuento":0,"recargo":0,"envio":0,"total":1,"pagado":true}`, `50001`} {
		f.Add(s)
	}
	paths := []string{nxapi.PathVenta, nxapi.PathFacturar, nxapi.PathStock, nxapi.PathWebhooks, nxapi.PathWebhooks + "/1"}
	f.Fuzz(func(t *testing.T, body string) {
		h := newHarness(t, Options{})
		// An order's cancellation takes its id in the query, not the body.
		for _, p := range append(paths, nxapi.PathPedido, nxapi.PathPedidoCancelar+"?facturaid="+url.QueryEscape(body)) {
			r := h.do("POST", p, body)
			if r.status >= 500 || !json.Valid([]byte(r.body)) {
				t.Fatalf("%s %q: %d %s", p, body, r.status, r.body)
			}
		}
	})
}

func TestConcurrentRequestsAreSafe(t *testing.T) {
	h := newHarness(t, Options{})
	rc := newReceiver(t, 200)
	h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL, nil)).expect(t, 200, `"id":1`)
	const workers, ordenes = 8, 60
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ordenes {
				// Every worker sends every ordenId: only one may create a voucher.
				h.do("POST", nxapi.PathVenta, venta(int64(1+(i+w)%ordenes)))
				h.do("GET", nxapi.PathComprobante+"50001", nil)
				if i%10 == 0 {
					h.do("POST", nxapi.PathStock, movimiento())
					h.do("POST", nxapi.PathFacturar, facturar(int64(1001+w)))
					h.s.State()
				}
			}
		}()
	}
	wg.Wait()
	flush(t, h.s)
	st := h.s.State()
	// The fake clock never moves: every ordenId and presale is held for the whole test.
	ventas, presales := map[int64]int{}, map[int64]int{}
	for _, v := range st.Vouchers {
		if v.PresaleID != 0 {
			presales[v.PresaleID]++
		} else {
			ventas[v.OrdenID]++
		}
	}
	if len(ventas) != ordenes || len(presales) != workers {
		t.Fatalf("%d ordenIds and %d presales invoiced, want %d and %d", len(ventas), len(presales), ordenes, workers)
	}
	for id, n := range ventas {
		if n != 1 {
			t.Fatalf("ordenId %d invoiced %d times", id, n)
		}
	}
	total := 0
	for _, n := range st.Requests["POST "+nxapi.PathVenta] {
		total += n
	}
	if total != workers*ordenes {
		t.Fatalf("counted %d venta requests, want %d", total, workers*ordenes)
	}
	if len(st.Movements) != 1 || h.s.StockOf(105, 0, 0, 1) != nxapi.DecimalFromInt(15) {
		t.Fatalf("%d movements, stock %s: want one inside the 3 s window", len(st.Movements), h.s.StockOf(105, 0, 0, 1))
	}
	// One event for the movement and one per sale: each moves its
	// article's units.
	if bodies, _ := rc.got(); len(bodies) != 1+ordenes {
		t.Fatalf("%d events, want %d", len(bodies), 1+ordenes)
	}
}
