package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// fakeClock is the injected Options.Now of the conformance tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// harness drives a sandbox over the demo data through its ServeHTTP.
type harness struct {
	t     *testing.T
	s     *Server
	clock *fakeClock
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	return newHarnessWith(t, DemoData(), opts)
}

// newHarnessWith is newHarness over data d.
func newHarnessWith(t *testing.T, d *Data, opts Options) *harness {
	t.Helper()
	clock := &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
	opts.Now = clock.Now
	s, err := New(d, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &harness{t: t, s: s, clock: clock}
}

// response is an answer of the sandbox.
type response struct {
	status int
	body   string
	header http.Header
}

// do sends a request with the demo token; body is a string sent as is, or a
// value marshalled to JSON.
func (h *harness) do(method, path string, body any) response {
	h.t.Helper()
	return h.doToken(method, path, body, DefaultToken)
}

func (h *harness) doToken(method, path string, body any, token string) response {
	h.t.Helper()
	var s string
	switch b := body.(type) {
	case nil:
	case string:
		s = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		s = string(raw)
	}
	req := httptest.NewRequest(method, path, strings.NewReader(s))
	if token != "" {
		req.Header.Set(nxapi.TokenHeader, token)
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.s.ServeHTTP(rec, req)
	return response{rec.Code, rec.Body.String(), rec.Header()}
}

// expect checks status and that the body holds text (the API's words, as a
// client matches them on the raw body).
func (r response) expect(t *testing.T, status int, text string) {
	t.Helper()
	if r.status != status || !strings.Contains(r.body, text) {
		t.Fatalf("got %d %s, want %d with %q", r.status, r.body, status, text)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q, want JSON", ct)
	}
}

func (r response) result(t *testing.T) nxapi.FacturaResult {
	t.Helper()
	var res nxapi.FacturaResult
	if err := json.Unmarshal([]byte(r.body), &res); err != nil {
		t.Fatalf("result %s: %v", r.body, err)
	}
	return res
}

func (r response) nx(t *testing.T) nxapi.NxResultado {
	t.Helper()
	var res nxapi.NxResultado
	if err := json.Unmarshal([]byte(r.body), &res); err != nil {
		t.Fatalf("NxResultado %s: %v", r.body, err)
	}
	return res
}

func (r response) errBody(t *testing.T) errorBody {
	t.Helper()
	var e errorBody
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("error body %s: %v", r.body, err)
	}
	return e
}

func dec(s string) *nxapi.Decimal {
	d, err := nxapi.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return &d
}

// venta is a valid sale of the demo data: 2 × 100.50 in cash to customer 500.
func venta(orden int64) *nxapi.Venta {
	return &nxapi.Venta{
		OrdenID: orden, Numero: orden, EntidadID: 500,
		Productos: []nxapi.Producto{{ArticuloID: 100, ColorID: 1, TalleID: 1, Precio: dec("100.50"), Cantidad: dec("2")}},
		Subtotal:  dec("201"), Descuento: dec("0"), Recargo: dec("0"), Envio: dec("0"), Total: dec("201"),
		MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo},
	}
}

func facturar(id int64) *nxapi.Facturar {
	yes := false
	return &nxapi.Facturar{FacturaID: id, PuntoVentaID: 1, Electronica: &yes, MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo}}
}

// movimiento is a valid INGRESO_STOCK of 5 units of article 105 in warehouse 1.
func movimiento() *nxapi.StockMovimiento {
	return &nxapi.StockMovimiento{DepositoID: 1, MotivoID: 1, Tipo: nxapi.IngresoStock,
		Articulos: []nxapi.StockArticulo{{ArticuloID: 105, Cantidad: dec("5")}}}
}

func ptr[T any](v T) *T { return &v }
