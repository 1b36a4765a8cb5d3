package reconcile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

func TestFloor(t *testing.T) {
	const we, wc = 30 * time.Second, 10 * time.Second
	tests := []struct {
		name                       string
		exports, presales, cands   int
		waitExports, waitComprobar time.Duration
		want                       time.Duration
	}{
		{"nothing", 0, 0, 0, 0, 0, 0},
		{"one read of each is free", 1, 1, 0, 0, 0, 0},
		{"presales alone", 0, 4, 0, 0, 0, 30 * time.Second},
		{"candidates wait for the export", 2, 0, 6, 0, 0, 30*time.Second + 50*time.Second},
		{"presales overlap the export", 2, 9, 1, 0, 0, 90 * time.Second},
		{"a window still closed at the start", 1, 0, 1, 20 * time.Second, 5 * time.Second, 20 * time.Second},
	}
	for _, tt := range tests {
		if got := Floor(tt.exports, tt.presales, tt.cands, we, wc, tt.waitExports, tt.waitComprobar); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestConsistent(t *testing.T) {
	first := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	total := nxapi.DecimalFromInt(1500)
	row := func(fecha time.Time, tot int64, email, dni string) *exportRow {
		return &exportRow{VentaTotal: nxapi.VentaTotal{Total: nxapi.DecimalFromInt(tot), Email: nxapi.Text(email), DNI: nxapi.Text(dni)},
			fecha: fecha, fechaOK: true}
	}
	mk := func(f *SaleFacts) *sale {
		s := &sale{e: journal.Entry{First: first}}
		if f != nil {
			s.facts, s.hasFacts = *f, true
		}
		return s
	}
	all := filters{appID: 1, date: true}
	tests := []struct {
		name string
		s    *sale
		r    *exportRow
		f    filters
		want bool
	}{
		{"no facts, after the attempt", mk(nil), row(first.Add(time.Second), 9, "", ""), all, true},
		{"dated long before the attempt", mk(nil), row(first.Add(-time.Hour), 1500, "", ""), all, false},
		{"before, within the clocks' skew", mk(nil), row(first.Add(-5*time.Minute), 1500, "", ""), all, true},
		{"before, date check off", mk(nil), row(first.Add(-time.Hour), 1500, "", ""), filters{}, true},
		{"other total", mk(&SaleFacts{Total: &total}), row(first, 1600, "", ""), all, false},
		{"same total, email in other case", mk(&SaleFacts{Total: &total, Email: "Ana@X.com"}), row(first, 1500, " ana@x.com", ""), all, true},
		{"other email, same dni", mk(&SaleFacts{Email: "a@x.com", DNI: "30.111.222"}), row(first, 1, "b@x.com", "30111222"), all, true},
		{"other email and dni", mk(&SaleFacts{Email: "a@x.com", DNI: "30111222"}), row(first, 1, "b@x.com", "29000000"), all, false},
		{"export without customer data", mk(&SaleFacts{Email: "a@x.com"}), row(first, 1, "", ""), all, true},
		{"entidadId: the entity's data shows", mk(&SaleFacts{Email: "a@x.com", EntidadID: 500}), row(first, 1, "b@x.com", ""), all, true},
	}
	for _, tt := range tests {
		if got := consistent(tt.s, tt.r, tt.f); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCUITCustomerIsNotHidden: a sale sent with a CUIT and an e-mail may
// be attributed to the customer the ERP finds by that CUIT, whose own
// e-mail the export shows. The facts the journal keeps of its body must
// not make that voucher inconsistent with the sale: hidden, the sale would
// be declared failed and invoiced twice.
func TestCUITCustomerIsNotHidden(t *testing.T) {
	first := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	total := nxapi.DecimalFromInt(1500)
	zero := nxapi.Decimal(0)
	body, _ := json.Marshal(nxapi.Venta{OrdenID: 7, Numero: 7, Usuario: &nxapi.Usuario{Email: "compras@cliente.com", CUIT: "30-71234567-1"},
		Subtotal: &total, Descuento: &zero, Recargo: &zero, Envio: &zero, Total: &total})
	e := journal.Entry{Key: journal.Key{Tenant: tenant, Kind: KindVenta, Business: "7"}, First: first,
		Facts: IntentFacts(KindVenta, body)}
	facts, ok := JournalFacts(e)
	if !ok {
		t.Fatalf("facts %q not read back", e.Facts)
	}
	s := &sale{e: e, facts: facts, hasFacts: true}
	r := &exportRow{VentaTotal: nxapi.VentaTotal{Total: total, Email: "administracion@cliente.com"}, fecha: first, fechaOK: true}
	if !consistent(s, r, filters{appID: 1, date: true}) {
		t.Errorf("the customer's own e-mail hid the voucher of a sale sent with a CUIT (facts %s)", e.Facts)
	}
}

// TestPlanScans: the branches and days of the unknown sales become as few
// export reads as the 30-day limit allows; a sale that cannot be looked
// for says why.
func TestPlanScans(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		start := time.Now()
		w.sell(1, 0, 1, false, journal.Unknown)
		w.sell(2, 0, 1, false, journal.Unknown)
		time.Sleep(40 * 24 * time.Hour)
		w.sell(3, 0, 1, false, journal.Unknown)
		w.sell(4, 0, 1, false, journal.Unknown)
		time.Sleep(time.Hour)
		facts := map[string]SaleFacts{"2": {PuntoVentaID: 2}, "3": {PuntoVentaID: 9}, "4": {}}
		factsOf := func(e journal.Entry) (SaleFacts, bool) { f, ok := facts[e.Key.Business]; return f, ok }

		tests := []struct {
			name    string
			o       Options
			scans   []string
			blocked map[string]string // business → message key
		}{
			{"no scope", Options{}, nil, map[string]string{"1": "rec.noscope", "2": "rec.noscope", "3": "rec.noscope", "4": "rec.noscope"}},
			{"no branch enabled", Options{Scope: &Scope{AppID: 1}}, nil, map[string]string{"1": "rec.nobranches", "2": "rec.nobranches", "3": "rec.nobranches", "4": "rec.nobranches"}},
			{"no facts: every branch, two periods", Options{Scope: demoScope()},
				[]string{"1 1999-12-31..2000-01-01", "1 2000-02-09..2000-02-10", "2 1999-12-31..2000-01-01", "2 2000-02-09..2000-02-10"}, nil},
			{"facts: the branch of the point of sale, the default one for 4", Options{Scope: demoScope(), Facts: factsOf},
				[]string{"1 1999-12-31..2000-01-01", "1 2000-02-09..2000-02-10", "2 1999-12-31..2000-01-01"},
				map[string]string{"3": "rec.branch.disabled"}},
		}
		for _, tt := range tests {
			tt.o.Tenant = tenant
			p, err := Prepare(context.Background(), w.j, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range p.Scans {
				got = append(got, fmt.Sprintf("%d %s..%s", s.SucursalID, s.Desde.Format(time.DateOnly), s.Hasta.Format(time.DateOnly)))
			}
			if strings.Join(got, ", ") != strings.Join(tt.scans, ", ") {
				t.Errorf("%s: scans %v\nwant %v", tt.name, got, tt.scans)
			}
			for _, s := range p.sales {
				if want := tt.blocked[s.e.Key.Business]; s.blocked.Key != want {
					t.Errorf("%s: sale %s blocked %q, want %q", tt.name, s.e.Key.Business, s.blocked.Key, want)
				}
			}
		}
		if got := start.Format(time.DateOnly); got != "2000-01-01" {
			t.Fatalf("the bubble starts on %s: the expected days above assume 2000-01-01", got)
		}
	})
}

// pagedAPI serves an export of n rows of another integration (appId 7)
// dated at fecha, and lets a test spoil one page.
type pagedAPI struct {
	n     int
	fecha time.Time
	spoil func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error
}

func (f *pagedAPI) Comprobante(context.Context, int64) (*nxapi.Comprobante, error) {
	return nil, errors.New("no comprobante read expected: every row is older than the sale")
}

func (f *pagedAPI) VentaTotales(_ context.Context, q apiclient.ExportQuery) (*nxapi.ExportPage[nxapi.VentaTotal], error) {
	other := int64(7)
	p := &nxapi.ExportPage[nxapi.VentaTotal]{TotalRegistros: f.n, TotalPaginas: (f.n + q.PageSize - 1) / q.PageSize, PaginaActual: q.Page, PageSize: q.PageSize}
	for i := (q.Page - 1) * q.PageSize; i < min(q.Page*q.PageSize, f.n); i++ {
		p.Items = append(p.Items, nxapi.VentaTotal{FacturaID: nxapi.ID(80000 + i), ComprobanteTipo: 2, SucursalID: q.SucursalID,
			AppID: &other, Fecha: nxapi.Text(f.fecha.Format(fechaLayout)), Total: nxapi.DecimalFromInt(1500)})
	}
	if f.spoil != nil {
		if err := f.spoil(q.Page, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// TestPartialExportDecidesNothing: an export read of 3 pages decides a sale
// failed only when every page came, in order, and the count did not shrink.
func TestPartialExportDecidesNothing(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error
		want  journal.State // "" stays unknown
	}{
		{"complete", nil, journal.Failed},
		{"a row added while reading", func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error {
			if page > 1 {
				p.TotalRegistros++
				p.Items = append([]nxapi.VentaTotal{{FacturaID: nxapi.ID(80000 + 500*(page-1) - 1)}}, p.Items...)
			}
			return nil
		}, journal.Failed},
		{"page 2 fails", func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error {
			if page == 2 {
				return &apiclient.APIError{Status: 500, Message: "Error interno"}
			}
			return nil
		}, ""},
		{"the count shrinks", func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error {
			if page == 3 {
				p.TotalRegistros -= 2
			}
			return nil
		}, ""},
		{"the wrong page comes", func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error {
			if page == 2 {
				p.PaginaActual = 1
			}
			return nil
		}, ""},
		{"a page comes empty", func(page int, p *nxapi.ExportPage[nxapi.VentaTotal]) error {
			if page == 2 {
				p.Items = nil
			}
			return nil
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWorld(t, sandbox.Options{})
				w.sell(6, 0, 1500, false, journal.Unknown)
				// Rows of the day before the attempt: none could be the sale.
				api := &pagedAPI{n: 1200, fecha: time.Now().Add(-2 * time.Hour), spoil: tt.spoil}
				time.Sleep(11 * time.Minute)
				p, err := Prepare(context.Background(), w.j, Options{Tenant: tenant, Scope: &Scope{AppID: 1, Branches: []int64{1}}})
				if err != nil {
					t.Fatal(err)
				}
				res := Execute(t.Context(), api, w.j, p)
				if _, err := Commit(context.Background(), w.j, res); err != nil {
					t.Fatal(err)
				}
				e := w.entry(KindVenta, 6)
				want := tt.want
				if want == "" {
					want = journal.Unknown
				}
				if e.State != want {
					t.Fatalf("sale 6 is %s, want %s; undecided %+v", e.State, want, res.Undecided)
				}
				if want == journal.Failed {
					if ev := evidence(t, e); len(ev.Exports) != 1 || len(ev.Exports[0].Pages) != 3 {
						t.Errorf("evidence %+v, want the 3 pages read", ev.Exports)
					}
				} else if len(res.Undecided) != 1 || res.Undecided[0].Why.Key != "rec.venta.partial" || res.Undecided[0].RetryAt.IsZero() {
					t.Errorf("undecided %+v, want the partial read named, with a time to retry", res.Undecided)
				}
			})
		})
	}
}

// TestStock: an unknown movement is never decided; its rows are shown with
// what the local snapshot knows of their articles.
func TestStock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		k := journal.Key{Tenant: tenant, Kind: KindStock, Business: "m0123"}
		units := []journal.Unit{
			{ID: "r1", BodyHash: "a", Body: `{"articuloId":105,"cantidad":3}`, Source: "stock.csv row 2"},
			{ID: "r2", BodyHash: "b", Body: `{"articuloId":101,"cantidad":1,"colorId":1,"talleId":2}`, Source: "stock.csv row 3"},
		}
		if _, err := w.j.Begin(context.Background(), k, journal.Intent{BodyHash: "m", Units: units}); err != nil {
			t.Fatal(err)
		}
		if err := w.j.Finish(context.Background(), k, journal.Outcome{State: journal.Unknown}); err != nil {
			t.Fatal(err)
		}
		snap := listener.NewState()
		snap.Articulos[105] = &listener.Articulo{Variantes: []*listener.Variante{{Unidades: nxapi.DecimalFromInt(7),
			Depositos:   []nxapi.StockDeposito{{DepositoID: 1, Unidades: nxapi.DecimalFromInt(4)}, {DepositoID: 2, Unidades: nxapi.DecimalFromInt(3)}},
			Actualizado: time.Now().Add(time.Second)}}}
		_, res := w.reconcile(t.Context(), Options{Snapshot: snap}, true)
		if len(res.Decisions) != 0 || len(res.Stock) != 1 {
			t.Fatalf("decisions %+v stock %+v", res.Decisions, res.Stock)
		}
		rows := res.Stock[0].Rows
		if len(rows) != 2 || rows[0].Source != "stock.csv row 2" || rows[0].Articulo.ArticuloID != 105 || len(rows[0].Snapshot) != 2 ||
			rows[1].Articulo.ArticuloID != 101 || len(rows[1].Snapshot) != 0 {
			t.Errorf("rows %+v", rows)
		}
		if e := w.entry(KindStock, "m0123"); e.State != journal.Unknown {
			t.Errorf("the movement is %s, want unknown", e.State)
		}
	})
}

// TestAppIDFilter: rows are kept by appId only when the vouchers the
// journal knows to be ours confirm that they carry it, every one of them.
func TestAppIDFilter(t *testing.T) {
	first := time.Date(2026, 11, 14, 10, 0, 0, 0, time.UTC)
	app := func(v int64) *int64 { return &v }
	row := func(id int64, appID *int64) *exportRow {
		return &exportRow{VentaTotal: nxapi.VentaTotal{FacturaID: nxapi.ID(id), ComprobanteTipo: nxapi.ComprobanteVenta, AppID: appID},
			fecha: first.Add(time.Minute), fechaOK: true}
	}
	okEntry := journal.Entry{Key: journal.Key{Tenant: tenant, Kind: KindVenta, Business: "1"}, State: journal.OK, First: first}
	tests := []struct {
		name  string
		ours  []*exportRow // tied to ok entries
		want  []int64      // candidates among 901 (no appId), 902 (ours), 903 (another's)
		appID int64
	}{
		{"confirmed: only ours", []*exportRow{row(1, app(1)), row(2, app(1))}, []int64{902}, 1},
		{"one of ours without appId: no filter", []*exportRow{row(1, app(1)), row(2, nil)}, []int64{901, 902, 903}, 0},
		{"nothing known of ours: no filter", nil, []int64{901, 902, 903}, 0},
	}
	for _, tt := range tests {
		p := &Plan{okFacturas: map[int64]journal.Entry{}, presales: map[int64]bool{}}
		sc := &scanned{}
		for _, r := range tt.ours {
			p.okFacturas[int64(r.FacturaID)] = okEntry
			sc.rows = append(sc.rows, r)
		}
		sc.rows = append(sc.rows, row(901, nil), row(902, app(1)), row(903, app(7)))
		p.sales = []*sale{{e: journal.Entry{First: first}, scans: []int{0}}}
		x := &executor{p: p, o: Options{Scope: &Scope{AppID: 1}}}
		f := x.chooseFilters([]*scanned{sc})
		var got []int64
		for _, c := range x.candidates([]*scanned{sc}, f) {
			got = append(got, int64(c.row.FacturaID))
		}
		if f.appID != tt.appID || fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: appId filter %d, candidates %v; want %d, %v", tt.name, f.appID, got, tt.appID, tt.want)
		}
	}
}
