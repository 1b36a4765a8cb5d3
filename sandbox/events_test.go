package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// receiver is a webhook endpoint that records what it gets.
type receiver struct {
	mu      sync.Mutex
	bodies  []string
	headers []http.Header
	srv     *httptest.Server
}

func newReceiver(t *testing.T, status int) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, string(b))
		rc.headers = append(rc.headers, r.Header.Clone())
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) got() ([]string, []http.Header) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.bodies...), append([]http.Header(nil), rc.headers...)
}

func flush(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestSpec6_2_FlatEventAfterStockMovement(t *testing.T) {
	h := newHarness(t, Options{})
	rc := newReceiver(t, 200)
	h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL+"/hook", nil, nxapi.WebhookHeader{Key: "X-Secreto", Value: "s3"})).expect(t, 200, `"id":1`)
	m := &nxapi.StockMovimiento{DepositoID: 2, MotivoID: 1, Tipo: nxapi.EgresoStock, Articulos: []nxapi.StockArticulo{
		{ArticuloID: 100, ColorID: 1, TalleID: 2, Cantidad: dec("3")}, {ArticuloID: 105, Cantidad: dec("1")},
		{ArticuloID: 100, ColorID: 2, TalleID: 2, Cantidad: dec("1")}}}
	h.do("POST", nxapi.PathStock, m).expect(t, 200, `"tipo":1`)
	flush(t, h.s)
	bodies, headers := rc.got()
	if len(bodies) != 2 {
		t.Fatalf("%d events, want one per touched article (100, 105): %v", len(bodies), bodies)
	}
	if headers[0].Get("X-Secreto") != "s3" || !strings.HasPrefix(headers[0].Get("Content-Type"), "application/json") {
		t.Fatalf("headers %v", headers[0])
	}
	var recs []nxapi.ArticuloConCurva
	if err := json.Unmarshal([]byte(bodies[0]), &recs); err != nil || len(recs) != 6 {
		t.Fatalf("article 100 flat: %v %s", err, bodies[0])
	}
	for _, r := range recs {
		want := nxapi.DecimalFromInt(40) // 4 warehouses × 10
		if r.ColorID == 1 && r.TalleID == 2 {
			want = nxapi.DecimalFromInt(37)
		}
		if r.ColorID == 2 && r.TalleID == 2 {
			want = nxapi.DecimalFromInt(39)
		}
		if r.ArticuloID != 100 || r.Codigo != "A100" || r.Unidades != want || r.StockDepositos != nil || r.ColorNombre == "" {
			t.Fatalf("record %+v, want unidades %s and no stockDepositos", r, want)
		}
	}
	if strings.Contains(bodies[1], "stockDepositos") || !strings.Contains(bodies[1], `"articuloId":105`) {
		t.Fatalf("article 105: %s", bodies[1])
	}
	if d := h.s.State().Deliveries; len(d) != 2 || d[0].Status != 200 || d[0].ArticuloIDs[0] != 100 {
		t.Fatalf("deliveries %+v", d)
	}
}

func TestSpec6_3_MultiWarehouseStockDepositos(t *testing.T) {
	for _, extra := range []*string{nil, ptr(nxapi.ExtraObjeto)} {
		h := newHarness(t, Options{FlujoDeposito: nxapi.FlujoMultiDeposito})
		rc := newReceiver(t, 200)
		h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL, extra)).expect(t, 200, `"id":1`)
		if err := h.s.SetStock(105, 0, 0, 3, 0); err != nil {
			t.Fatal(err)
		}
		if err := h.s.SetStock(105, 0, 0, 1, nxapi.DecimalFromInt(7)); err != nil {
			t.Fatal(err)
		}
		flush(t, h.s)
		bodies, _ := rc.got()
		if len(bodies) != 2 {
			t.Fatalf("%d events", len(bodies))
		}
		var deps []nxapi.StockDeposito
		var unidades nxapi.Decimal
		if extra == nil {
			var recs []nxapi.ArticuloConCurva
			if err := json.Unmarshal([]byte(bodies[1]), &recs); err != nil {
				t.Fatal(err)
			}
			deps, unidades = recs[0].StockDepositos, recs[0].Unidades
		} else {
			var a nxapi.Articulo
			if err := json.Unmarshal([]byte(bodies[1]), &a); err != nil {
				t.Fatal(err)
			}
			deps, unidades = a.Curva[0].StockDepositos, a.Curva[0].Unidades
			if a.StockTotal != nxapi.DecimalFromInt(27) {
				t.Fatalf("stockTotal %s, want 27", a.StockTotal)
			}
		}
		// unidades is the main warehouse; one item per integration warehouse, zeros included.
		sd := func(dep, u int64) nxapi.StockDeposito {
			return nxapi.StockDeposito{DepositoID: dep, Unidades: nxapi.DecimalFromInt(u)}
		}
		want := []nxapi.StockDeposito{sd(1, 7), sd(2, 10), sd(3, 0), sd(4, 10)}
		if unidades != nxapi.DecimalFromInt(7) || len(deps) != 4 {
			t.Fatalf("unidades %s deps %+v", unidades, deps)
		}
		for i := range want {
			if deps[i] != want[i] {
				t.Fatalf("stockDepositos %+v, want %+v", deps, want)
			}
		}
	}
}

func TestSpec6_2_GroupedEventPerExtra(t *testing.T) {
	h := newHarness(t, Options{})
	rc := newReceiver(t, 200)
	h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL, ptr(nxapi.ExtraObjeto))).expect(t, 200, `"id":1`)
	if err := h.s.TriggerArticuloChange(101); err != nil {
		t.Fatal(err)
	}
	flush(t, h.s)
	bodies, _ := rc.got()
	var a nxapi.Articulo
	if len(bodies) != 1 || json.Unmarshal([]byte(bodies[0]), &a) != nil {
		t.Fatalf("bodies %v", bodies)
	}
	if a.ArticuloID != 101 || len(a.Curva) != 6 || a.StockTotal != nxapi.DecimalFromInt(240) || a.Curva[0].Unidades != nxapi.DecimalFromInt(40) {
		t.Fatalf("grouped %+v", a)
	}
}

func TestSpec6_4_DeactivationEvent(t *testing.T) {
	for _, tc := range []struct {
		extra *string
		want  string
	}{{nil, `[{"articuloId":110,"eliminado":true}]`}, {ptr(nxapi.ExtraObjeto), `{"articuloId":110,"eliminado":true}`}} {
		h := newHarness(t, Options{})
		rc := newReceiver(t, 200)
		h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL, tc.extra)).expect(t, 200, `"id":1`)
		if err := h.s.DeactivateArticulo(110); err != nil {
			t.Fatal(err)
		}
		flush(t, h.s)
		if bodies, _ := rc.got(); len(bodies) != 1 || bodies[0] != tc.want {
			t.Fatalf("bodies %v, want %s", bodies, tc.want)
		}
		// A deactivated article takes no part any more.
		m := movimiento()
		m.Articulos[0].ArticuloID = 110
		h.do("POST", nxapi.PathStock, m).expect(t, 200, "El articulo 110 no existe")
	}
}

func TestSpec6_5_ActivoDoesNotStopDeliveryDeleteDoes(t *testing.T) {
	h := newHarness(t, Options{Env: "test"})
	rc := newReceiver(t, 200)
	b := webhookBody(rc.srv.URL, nil)
	b.Activo = ptr(false)
	h.do("POST", nxapi.PathWebhooks, b).expect(t, 200, `"activo":false`)
	h.s.TriggerArticuloChange(105)
	h.clock.Advance(3 * time.Second)
	h.do("DELETE", nxapi.PathWebhooks+"/1", nil).expect(t, 200, "[]")
	h.s.TriggerArticuloChange(105)
	flush(t, h.s)
	if bodies, _ := rc.got(); len(bodies) != 1 {
		t.Fatalf("%d events, want 1 (inactive delivers, deleted does not)", len(bodies))
	}
}

func TestSpec6_1_DeliveryTimeoutAndFailuresRecorded(t *testing.T) {
	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	defer close(release)
	refusing := newReceiver(t, 500)
	// 10 s × 0.2 = 2 s for the receiver to answer: the slow one never
	// does, and the refusing one answers at once even on a loaded machine
	// (10 ms, at 0.001, was not always enough for it).
	h := newHarness(t, Options{TimeScale: 0.2})
	h.do("POST", nxapi.PathWebhooks, webhookBody(slow.URL, nil)).expect(t, 200, `"id":1`)
	h.s.TriggerArticuloChange(105)
	h.clock.Advance(time.Minute)
	h.do("POST", nxapi.PathWebhooks+"/1", webhookBody(refusing.srv.URL, nil)).expect(t, 200, `"id":1`)
	h.s.TriggerArticuloChange(106)
	flush(t, h.s)
	d := h.s.State().Deliveries
	if len(d) != 2 || d[0].Error == "" || d[0].Status != 0 || d[1].Status != 500 || d[1].Error != "" {
		t.Fatalf("deliveries %+v, want a timeout then a 500", d)
	}
}

func TestSpec6_2_ChangeThroughTheDataFile(t *testing.T) {
	h := newHarness(t, Options{})
	rc := newReceiver(t, 200)
	h.do("POST", nxapi.PathWebhooks, webhookBody(rc.srv.URL, nil)).expect(t, 200, `"id":1`)
	d := DemoData()
	d.Articulos[6].Precio1 = nxapi.DecimalFromInt(5)                                                         // 106: price
	d.Stock = append(d.Stock, StockLevel{ArticuloID: 108, DepositoID: 2, Unidades: nxapi.DecimalFromInt(3)}) // 108: stock
	d.Articulos = slices.Delete(d.Articulos, 19, 20)                                                         // 119: gone
	if err := h.s.Reload(d); err != nil {
		t.Fatal(err)
	}
	flush(t, h.s)
	bodies, _ := rc.got()
	if len(bodies) != 3 || !strings.Contains(bodies[0], `"precio1":5`) || !strings.Contains(bodies[1], `"unidades":33`) ||
		bodies[2] != `[{"articuloId":119,"eliminado":true}]` {
		t.Fatalf("events %v", bodies)
	}
	if err := h.s.Reload(d); err != nil {
		t.Fatal(err)
	}
	flush(t, h.s)
	if bodies, _ := rc.got(); len(bodies) != 3 {
		t.Fatalf("reloading the same file sent %d more events", len(bodies)-3)
	}
}
