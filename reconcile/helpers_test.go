package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// The tests run inside testing/synctest bubbles: the sandbox is served
// through an in-memory transport (no sockets, so the bubble's clock moves
// whenever everything waits) and its windows are the production ones, 10 s
// for GET /comprobante and 30 s for the exports, measured on the fake
// clock.

// tenant is the demo data's integration in production.
const tenant = "app1.production"

// memTransport serves requests with a handler in memory. It tells the
// client's trace that a connection was had and the request written, as a
// network transport would; drop, when set, says which requests lose their
// answer after the handler has served them (the connection cut on the way
// back: the API processed the request, the client cannot know).
type memTransport struct {
	h    http.Handler
	drop func(r *http.Request, body []byte) bool
}

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if tr := httptrace.ContextClientTrace(r.Context()); tr != nil {
		if tr.GotConn != nil {
			tr.GotConn(httptrace.GotConnInfo{})
		}
		if tr.WroteRequest != nil {
			tr.WroteRequest(httptrace.WroteRequestInfo{})
		}
	}
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	if m.drop != nil && m.drop(r, body) {
		return nil, errors.New("read: connection reset by peer")
	}
	return rec.Result(), nil
}

// world is one test's API sandbox, client and journal.
type world struct {
	t   *testing.T
	sb  *sandbox.Server
	api *apiclient.Client
	j   *boltjournal.Journal
}

// newWorld must be called inside a synctest bubble; it closes what it
// opened when the test ends.
func newWorld(t *testing.T, o sandbox.Options) *world {
	t.Helper()
	sb, err := sandbox.New(sandbox.DemoData(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return worldOver(t, sb, sb)
}

// worldOver is the world of sandbox sb whose client's requests h answers
// (the sandbox itself, or a handler in front of it).
func worldOver(t *testing.T, sb *sandbox.Server, h http.Handler) *world {
	t.Helper()
	api, err := apiclient.New(apiclient.Options{BaseURL: "https://sandbox.invalid", Token: apiclient.NewToken(sandbox.DefaultToken),
		Transport: memTransport{h: h}})
	if err != nil {
		t.Fatal(err)
	}
	j, err := boltjournal.Open(filepath.Join(t.TempDir(), "journal"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return &world{t: t, sb: sb, api: api, j: j}
}

// ventaBody is a valid one-line sale of the demo data.
func ventaBody(orden, pv int64, total int64, email string) []byte {
	d := nxapi.DecimalFromInt(total)
	zero := nxapi.Decimal(0)
	one := nxapi.DecimalFromInt(1)
	v := nxapi.Venta{OrdenID: orden, Numero: orden, PuntoVentaID: pv, Usuario: &nxapi.Usuario{Email: email},
		Productos: []nxapi.Producto{{ArticuloID: 105, Precio: &d, Cantidad: &one}},
		Subtotal:  &d, Descuento: &zero, Recargo: &zero, Envio: &zero, Total: &d, MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo}}
	b, _ := json.Marshal(v)
	return b
}

// sell journals one sale the way a run does, and ends it as state says:
// processed tells whether the API gets it (it is sent; otherwise, like a
// 500 before processing, nothing reaches the sandbox).
func (w *world) sell(orden, pv, total int64, processed bool, state journal.State) {
	w.t.Helper()
	k := journal.Key{Tenant: tenant, Kind: KindVenta, Business: fmt.Sprint(orden)}
	if _, err := w.j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "ventas.csv", Hold: sendrules.KeyHold}); err != nil {
		w.t.Fatal(err)
	}
	out := journal.Outcome{State: state, Message: "se cortó la conexión"}
	if processed {
		o := w.api.Venta(context.Background(), ventaBody(orden, pv, total, fmt.Sprintf("c%d@example.com", orden)))
		if o.Class != apiclient.OK {
			w.t.Fatalf("sale %d: %v %s %v", orden, o.Class, o.Message, o.Err)
		}
		if state == journal.OK {
			out.FacturaID, out.Numero, out.PVNumero = int64(o.Result.FacturaID), int64(o.Result.Numero), int64(o.Result.PVNumero)
		}
	}
	if err := w.j.Finish(context.Background(), k, out); err != nil {
		w.t.Fatal(err)
	}
}

// invoice journals one presale conversion as unknown; processed tells
// whether the sandbox converted it.
func (w *world) invoice(presale int64, processed bool) {
	w.t.Helper()
	k := journal.Key{Tenant: tenant, Kind: KindFacturar, Business: fmt.Sprint(presale)}
	if _, err := w.j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: sendrules.KeyHold}); err != nil {
		w.t.Fatal(err)
	}
	if processed {
		yes := true
		body, _ := json.Marshal(nxapi.Facturar{FacturaID: presale, PuntoVentaID: 1, Electronica: &yes, MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo}})
		if o := w.api.Facturar(context.Background(), body); o.Class != apiclient.OK {
			w.t.Fatalf("presale %d: %v %s", presale, o.Class, o.Message)
		}
	}
	if err := w.j.Finish(context.Background(), k, journal.Outcome{State: journal.Unknown, Message: "HTTP 500"}); err != nil {
		w.t.Fatal(err)
	}
}

// demoScope is the demo data's /config and /puntos-venta, read now (in a
// test's bubble: when the test starts).
func demoScope() *Scope {
	return &Scope{AppID: 1, DefaultPuntoVenta: 1, Branches: []int64{1, 2}, PuntoVentaBranch: map[int64]int64{1: 1, 2: 2, 9: 3}, MappedAt: time.Now()}
}

// reconcile runs the three steps; commit says whether to write.
func (w *world) reconcile(ctx context.Context, o Options, commit bool) (*Plan, *Result) {
	w.t.Helper()
	if o.Tenant == "" {
		o.Tenant = tenant
	}
	p, err := Prepare(context.Background(), w.j, o)
	if err != nil {
		w.t.Fatal(err)
	}
	res := Execute(ctx, w.api, w.j, p)
	if commit {
		if _, err := Commit(context.Background(), w.j, res); err != nil {
			w.t.Fatal(err)
		}
	}
	return p, res
}

// entry returns the journal's entry of kind and business key.
func (w *world) entry(kind string, business any) journal.Entry {
	w.t.Helper()
	e, ok, err := w.j.Get(context.Background(), journal.Key{Tenant: tenant, Kind: kind, Business: fmt.Sprint(business)})
	if err != nil || !ok {
		w.t.Fatalf("entry %s/%v: %v %v", kind, business, ok, err)
	}
	return e
}

// evidence decodes an entry's evidence.
func evidence(t *testing.T, e journal.Entry) Evidence {
	t.Helper()
	var ev Evidence
	if err := json.Unmarshal([]byte(e.Evidence), &ev); err != nil {
		t.Fatalf("%s: evidence %q: %v", e.Key, e.Evidence, err)
	}
	return ev
}

// countingAPI wraps an API, counting reads and letting a test refuse one.
type countingAPI struct {
	API
	mu     sync.Mutex
	comps  []int64
	pages  []apiclient.ExportQuery
	refuse func(kind string, n int) error // n counts reads of that kind from 1
}

func (c *countingAPI) Comprobante(ctx context.Context, id int64) (*nxapi.Comprobante, error) {
	c.mu.Lock()
	c.comps = append(c.comps, id)
	n := len(c.comps)
	c.mu.Unlock()
	if c.refuse != nil {
		if err := c.refuse("comprobante", n); err != nil {
			return nil, err
		}
	}
	return c.API.Comprobante(ctx, id)
}

func (c *countingAPI) VentaTotales(ctx context.Context, q apiclient.ExportQuery) (*nxapi.ExportPage[nxapi.VentaTotal], error) {
	c.mu.Lock()
	c.pages = append(c.pages, q)
	n := len(c.pages)
	c.mu.Unlock()
	if c.refuse != nil {
		if err := c.refuse("export", n); err != nil {
			return nil, err
		}
	}
	return c.API.VentaTotales(ctx, q)
}

// refusedByWindow counts the sandbox's 403 answers of method+pattern.
func refusedByWindow(sb *sandbox.Server, endpoint string) int {
	return sb.State().Requests[endpoint][http.StatusForbidden]
}

const (
	getComprobante = "GET " + nxapi.PathComprobante + "{id}"
	getVentaTotal  = "GET " + nxapi.PathVentaTotales
)
