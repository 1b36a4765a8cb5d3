package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// route is one canned answer of a fake API, checked for method and path.
type route struct {
	method, path string
	status       int
	body         string
}

// fakeAPI answers each request from routes and records what it got.
type fakeAPI struct {
	t      *testing.T
	routes []route
	got    []string // method + path + body of every request
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.got = append(f.got, r.Method+" "+r.URL.Path+" "+string(b))
	for _, rt := range f.routes {
		if rt.method == r.Method && rt.path == r.URL.Path {
			w.WriteHeader(rt.status)
			_, _ = io.WriteString(w, rt.body)
			return
		}
	}
	f.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
	w.WriteHeader(http.StatusTeapot)
}

func TestReadsDecode(t *testing.T) {
	f := &fakeAPI{t: t, routes: []route{
		{"GET", nxapi.PathMediosPago, 200, `{"medios":{"efectivo":true,"deposito":true},"cuentasBancarias":[{"cuentaBancariaId":12,"descripcion":"Galicia CC"}],"tarjetas":[{"tarjetaId":3,"nombre":"Visa"}]}`},
		{"GET", nxapi.PathMotivos, 200, `[{"motivoId":4,"nombre":"Ajuste","eliminado":false},{"motivoId":5,"nombre":"Viejo","eliminado":true}]`},
		{"GET", nxapi.PathConfig, 200, `{"appId":1,"flujoDeposito":3,"depositos":[{"depositoId":2,"nombre":"Central","sucursalId":1,"default":true}]}`},
		{"GET", nxapi.PathDepositos, 200, `null`},
		{"GET", nxapi.PathComprobante + "77", 200, `{"facturaId":77,"ordenId":7,"comprobanteTipo":2,"pVNumero":4,"totales":{"total":10.5}}`},
		{"GET", nxapi.PathComprobante + "78", 404, ``},
	}}
	_, c := newServer(t, NewToken("t"), 0, f.ServeHTTP)
	ctx := context.Background()

	mp, err := c.MediosPago(ctx)
	if err != nil {
		t.Fatalf("MediosPago: %v", err)
	}
	if !mp.Medios.Efectivo || !mp.Medios.Deposito || len(mp.CuentasBancarias) != 1 || mp.CuentasBancarias[0].CuentaBancariaID != 12 || mp.Tarjetas[0].TarjetaID != 3 {
		t.Errorf("MediosPago = %+v", mp)
	}
	mot, err := c.Motivos(ctx)
	if err != nil {
		t.Fatalf("Motivos: %v", err)
	}
	if diff := cmp.Diff([]nxapi.Motivo{{MotivoID: 4, Nombre: "Ajuste"}, {MotivoID: 5, Nombre: "Viejo", Eliminado: true}}, mot); diff != "" {
		t.Errorf("Motivos (-want +got):\n%s", diff)
	}
	cfg, err := c.Config(ctx)
	if err != nil {
		t.Fatalf("Config: %v", err)
	}
	if cfg.FlujoDeposito != nxapi.FlujoMultiDeposito || len(cfg.Depositos) != 1 || !cfg.Depositos[0].Default {
		t.Errorf("Config = %+v", cfg)
	}
	deps, err := c.Depositos(ctx)
	if err != nil || deps == nil || len(deps) != 0 {
		t.Errorf("Depositos = %#v, %v; want an empty list for null", deps, err)
	}
	comp, err := c.Comprobante(ctx, 77)
	if err != nil {
		t.Fatalf("Comprobante: %v", err)
	}
	if comp.OrdenID != "7" || comp.PVNumero != 4 || comp.Totales.Total != nxapi.NewDecimal(10, 5000) {
		t.Errorf("Comprobante = %+v", comp)
	}
	_, err = c.Comprobante(ctx, 78)
	var apiErr *APIError
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Errorf("Comprobante(78) err = %v, want ErrNotFound", err)
	}
}

func TestWebhookCalls(t *testing.T) {
	const list = `[{"id":7,"url":"https://example.com/hook","topic":"articulos","activo":true,"extra":null,"headers":[{"key":"X-Secret","value":"v"}]}]`
	f := &fakeAPI{t: t, routes: []route{
		{"GET", nxapi.PathWebhooks, 200, `[]`},
		{"POST", nxapi.PathWebhooks, 200, list},
		{"POST", nxapi.PathWebhooks + "/7", 200, list},
		{"DELETE", nxapi.PathWebhooks + "/7", 200, `[]`},
		{"DELETE", nxapi.PathWebhooks + "/8", 400, `{"mensajes":["El webhook 8 no existe"]}`},
	}}
	_, c := newServer(t, NewToken("t"), 0, f.ServeHTTP)
	ctx := context.Background()
	w := nxapi.WebhookGuardar{URL: "https://example.com/hook", Topic: nxapi.TopicArticulos,
		Headers: []nxapi.WebhookHeader{{Key: "X-Secret", Value: "v"}}}
	wantList := []nxapi.Webhook{{ID: 7, URL: "https://example.com/hook", Topic: "articulos", Activo: true,
		Headers: []nxapi.WebhookHeader{{Key: "X-Secret", Value: "v"}}}}
	wBody, _ := json.Marshal(w)

	got, err := c.Webhooks(ctx)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("Webhooks = %#v, %v; want an empty list", got, err)
	}
	got, err = c.CreateWebhook(ctx, w)
	if err != nil {
		t.Fatalf("CreateWebhook: %v", err)
	}
	if diff := cmp.Diff(wantList, got); diff != "" {
		t.Errorf("CreateWebhook (-want +got):\n%s", diff)
	}
	if _, err := c.EditWebhook(ctx, 7, w); err != nil {
		t.Fatalf("EditWebhook: %v", err)
	}
	if got, err := c.DeleteWebhook(ctx, 7); err != nil || len(got) != 0 {
		t.Errorf("DeleteWebhook = %v, %v", got, err)
	}
	_, err = c.DeleteWebhook(ctx, 8)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || !cmp.Equal(apiErr.Mensajes, []string{"El webhook 8 no existe"}) ||
		apiErr.Message != "El webhook 8 no existe" {
		t.Errorf("DeleteWebhook(8) err = %#v, want a 400 APIError with its mensajes", err)
	}

	wantCalls := []string{
		"GET " + nxapi.PathWebhooks + " ",
		"POST " + nxapi.PathWebhooks + " " + string(wBody),
		"POST " + nxapi.PathWebhooks + "/7 " + string(wBody),
		"DELETE " + nxapi.PathWebhooks + "/7 ",
		"DELETE " + nxapi.PathWebhooks + "/8 ",
	}
	if diff := cmp.Diff(wantCalls, f.got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		check   func(error) bool
		explain string
	}{
		{"401", 401, "", func(err error) bool { return errors.Is(err, ErrUnauthorized) }, "ErrUnauthorized"},
		{"403 wait", 403, "Debe esperar 60 segundos entre cada solicitud", func(err error) bool {
			var we *WaitError
			return errors.As(err, &we) && we.Wait == 60*time.Second && we.Message == "Debe esperar 60 segundos entre cada solicitud"
		}, "a WaitError of 60s"},
		{"403 branch scope", 403, "La integracion no tiene sucursales habilitadas", func(err error) bool {
			var ae *APIError
			return errors.As(err, &ae) && ae.Status == 403 && ae.Message == "La integracion no tiene sucursales habilitadas"
		}, "a 403 APIError"},
		{"500", 500, "boom", func(err error) bool {
			var ae *APIError
			return errors.As(err, &ae) && ae.Status == 500 && !errors.Is(err, ErrNotFound)
		}, "a 500 APIError"},
		{"200 garbage", 200, "<html>", func(err error) bool {
			var ae *APIError
			return err != nil && !errors.As(err, &ae)
		}, "a decode error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, NewToken("t"), 0, answer(tc.status, tc.body))
			_, err := c.MediosPago(context.Background())
			if !tc.check(err) {
				t.Errorf("err = %v, want %s", err, tc.explain)
			}
		})
	}

	c, err := New(Options{BaseURL: "http://" + closedPort(t), Token: NewToken("t")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Motivos(context.Background())
	var ue *url.Error
	if !errors.As(err, &ue) {
		t.Errorf("closed port err = %v, want a *url.Error", err)
	}
}

// TestComprobanteVendorWire: GET /comprobante as the vendor's public types
// write it (public-facts.md, "Wire types": enums as integers, ordenId a
// string or null) is read; a field of an unexpected type is a
// *WireTypeError that names it and quotes what came, in Spanish.
func TestComprobanteVendorWire(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		orden nxapi.OrdenRef
		tipo  int
		quote string // "" when the answer must be read
	}{
		{"vendor", `{"facturaId":501,"ordenId":"77003","comprobanteTipo":2,"estado":1,"numero":101,"pVNumero":1,` +
			`"fecha":"01/09/2026 12:00:00","sucursalId":1,"puntoVentaId":1,"empleadoId":0,"sref":null,` +
			`"totales":{"subTotal":201,"descuento":0,"recargo":0,"envio":0,"total":201,"pagado":201,"saldo":0},"items":[]}`, "77003", 2, ""},
		{"null ordenId", `{"facturaId":501,"ordenId":null,"comprobanteTipo":33,"estado":1}`, "", 33, ""},
		{"object type", `{"facturaId":501,"ordenId":"77003","comprobanteTipo":{"v":2},"estado":1}`, "", 0, `campo "comprobanteTipo"`},
		{"array estado", `{"facturaId":501,"ordenId":"77003","comprobanteTipo":2,"estado":[1]}`, "", 0, `«array [1]»`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeAPI{t: t, routes: []route{{"GET", nxapi.PathComprobante + "501", 200, tt.body}}}
			_, c := newServer(t, NewToken("t"), 0, f.ServeHTTP)
			comp, err := c.Comprobante(context.Background(), 501)
			if tt.quote == "" {
				if err != nil || comp.OrdenID != tt.orden || comp.ComprobanteTipo != tt.tipo || comp.FacturaID != 501 {
					t.Fatalf("Comprobante = %+v, %v", comp, err)
				}
				return
			}
			var we *WireTypeError
			if !errors.As(err, &we) || comp != nil {
				t.Fatalf("Comprobante = %+v, %v; want a *WireTypeError", comp, err)
			}
			if es := msg.CauseText(err, msg.ES); !strings.Contains(es, tt.quote) || !strings.Contains(es, "GET "+nxapi.PathComprobante+"501") {
				t.Errorf("in Spanish %q, want %q in it", es, tt.quote)
			}
		})
	}
}
