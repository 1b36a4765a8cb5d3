package apiclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// A ventatotales page as the public facts show one, with the appId the
// integration's vouchers carry and the nulls of an ERP-made voucher.
const ventaTotalesPage = `{"items":[
 {"facturaId":50007,"comprobanteTipo":2,"tipoDocumento":"FACTURA_VENTA","fecha":"14/11/2026 10:02:03","fechaText":"2026-11-14","horaText":"10:02:03","numeroFull":"0001-00700005","sucursalId":1,"sucursal":"Casa Central","appId":1,"cliente":"Ana","vendedor":null,"email":"ana@example.com","dni":"30111222","detalle":null,"subTotal":1500,"total":1500.00,"descuento":0,"recargo":0,"iva":0,"impuestosTotal":0,"cantidad":1,"formasPagoText":"EFECTIVO"},
 {"facturaId":"12","comprobanteTipo":4,"fecha":"14/11/2026 11:00:00","sucursalId":1,"appId":null,"email":null,"dni":null,"total":10.5}
],"totalRegistros":502,"totalPaginas":2,"paginaActual":1,"pageSize":500}`

func TestVentaTotalesQueryAndDecode(t *testing.T) {
	var got atomic.Pointer[string]
	_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
		q := r.Method + " " + r.URL.Path + "?" + r.URL.RawQuery
		got.Store(&q)
		_, _ = w.Write([]byte(ventaTotalesPage))
	})
	q := ExportQuery{SucursalID: 1, Desde: time.Date(2026, 11, 13, 23, 0, 0, 0, time.FixedZone("ART", -3*3600)),
		Hasta: time.Date(2026, 11, 14, 9, 0, 0, 0, time.UTC), Page: 1, PageSize: 500}
	p, err := c.VentaTotales(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	// 23:00 in Buenos Aires is already the 14th in UTC, the API's zone.
	want := "GET " + nxapi.PathVentaTotales + "?desde=2026-11-14&hasta=2026-11-14&page=1&pageSize=500&sucursalId=1"
	if *got.Load() != want {
		t.Errorf("request %s\nwant    %s", *got.Load(), want)
	}
	if p.TotalRegistros != 502 || p.TotalPaginas != 2 || p.PaginaActual != 1 || len(p.Items) != 2 {
		t.Fatalf("page = %+v", p)
	}
	a, b := p.Items[0], p.Items[1]
	if a.FacturaID != 50007 || a.AppID == nil || *a.AppID != 1 || a.Email != "ana@example.com" || a.Total != nxapi.DecimalFromInt(1500) ||
		a.Fecha != "14/11/2026 10:02:03" || a.NumeroFull != "0001-00700005" {
		t.Errorf("first item = %+v", a)
	}
	if b.FacturaID != 12 || b.AppID != nil || b.Email != "" || b.ComprobanteTipo != nxapi.ComprobanteNotaCredito {
		t.Errorf("second item = %+v, want the ERP's nulls read as empty", b)
	}
}

func TestVentaTotalesEmptyPage(t *testing.T) {
	_, c := newServer(t, NewToken("t"), 0, answer(200, `{"items":null,"totalRegistros":0,"totalPaginas":0,"paginaActual":3,"pageSize":500}`))
	p, err := c.VentaTotales(context.Background(), ExportQuery{SucursalID: 2, Desde: time.Now(), Hasta: time.Now(), Page: 3, PageSize: 500})
	if err != nil || p.Items == nil || len(p.Items) != 0 {
		t.Errorf("page = %+v, %v; want an empty, non-nil list", p, err)
	}
}

// A query the API would refuse is refused before it costs the exports'
// shared window.
func TestVentaTotalesRefusedLocally(t *testing.T) {
	day := time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)
	ok := ExportQuery{SucursalID: 1, Desde: day, Hasta: day.AddDate(0, 0, 29), Page: 1, PageSize: 500}
	tests := []struct {
		name   string
		change func(*ExportQuery)
		want   string // "" means accepted
	}{
		{"30 days, both included", func(*ExportQuery) {}, ""},
		{"31 days", func(q *ExportQuery) { q.Hasta = q.Hasta.AddDate(0, 0, 1) }, "more than 30 days"},
		{"hasta before desde", func(q *ExportQuery) { q.Hasta = q.Desde.AddDate(0, 0, -1) }, "before"},
		{"no branch", func(q *ExportQuery) { q.SucursalID = 0 }, "sucursalId"},
		{"no period", func(q *ExportQuery) { q.Desde = time.Time{} }, "desde and hasta"},
		{"page 0", func(q *ExportQuery) { q.Page = 0 }, "count from 1"},
		{"page size 501", func(q *ExportQuery) { q.PageSize = 501 }, "pageSize 501"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				_, _ = w.Write([]byte(`{"items":[]}`))
			})
			q := ok
			tt.change(&q)
			_, err := c.VentaTotales(context.Background(), q)
			switch {
			case tt.want == "" && (err != nil || calls.Load() != 1):
				t.Errorf("err %v, %d requests; want it sent", err, calls.Load())
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || calls.Load() != 0):
				t.Errorf("err %v, %d requests; want a local refusal mentioning %q", err, calls.Load(), tt.want)
			}
		})
	}
}

func TestVentaTotalesErrors(t *testing.T) {
	q := ExportQuery{SucursalID: 3, Desde: time.Now(), Hasta: time.Now(), Page: 1, PageSize: 10}
	tests := []struct {
		name   string
		status int
		body   string
		check  func(error) bool
	}{
		{"401", 401, ``, func(err error) bool { return errors.Is(err, ErrUnauthorized) }},
		{"window", 403, `{"error":"Debe esperar 30 segundos entre cada solicitud"}`, func(err error) bool {
			var we *WaitError
			return errors.As(err, &we) && we.Wait == 30*time.Second
		}},
		{"branch scope quoted", 403, `{"error":"La sucursal 3 no esta habilitada"}`, func(err error) bool {
			var ae *APIError
			return errors.As(err, &ae) && ae.Status == 403 && ae.Message == "La sucursal 3 no esta habilitada"
		}},
		{"half a page", 200, `{"items":[{"facturaId":1}`, func(err error) bool {
			return err != nil && strings.Contains(err.Error(), "decoding")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newServer(t, NewToken("t"), 0, answer(tt.status, tt.body))
			if _, err := c.VentaTotales(context.Background(), q); !tt.check(err) {
				t.Errorf("err = %v", err)
			}
		})
	}
}
