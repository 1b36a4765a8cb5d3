package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// fakeAPI answers the parameter endpoints from memory, failing with fail
// when set, and counts the calls.
type fakeAPI struct {
	calls    []Name
	fail     map[Name]error
	failOnce bool // each failure happens once, then the call succeeds
	mp       *nxapi.MediosPagoConfig
}

func (f *fakeAPI) do(n Name) error {
	f.calls = append(f.calls, n)
	err := f.fail[n]
	if f.failOnce {
		delete(f.fail, n)
	}
	return err
}

func (f *fakeAPI) MediosPago(context.Context) (*nxapi.MediosPagoConfig, error) {
	if err := f.do(MediosPago); err != nil {
		return nil, err
	}
	if f.mp != nil {
		return f.mp, nil
	}
	return &nxapi.MediosPagoConfig{Medios: nxapi.WMedios{Efectivo: true}}, nil
}

func (f *fakeAPI) Motivos(context.Context) ([]nxapi.Motivo, error) {
	if err := f.do(Motivos); err != nil {
		return nil, err
	}
	return []nxapi.Motivo{{MotivoID: 1, Nombre: "Ajuste"}, {MotivoID: 2, Nombre: "Viejo", Eliminado: true}}, nil
}

func (f *fakeAPI) Config(context.Context) (*nxapi.Config, error) {
	if err := f.do(Config); err != nil {
		return nil, err
	}
	return &nxapi.Config{Depositos: []nxapi.Deposito{{DepositoID: 7, Nombre: "Central"}}}, nil
}

func (f *fakeAPI) Depositos(context.Context) ([]nxapi.Deposito, error) {
	if err := f.do(Depositos); err != nil {
		return nil, err
	}
	return []nxapi.Deposito{{DepositoID: 1, Nombre: "Depósito Central"}}, nil
}

func (f *fakeAPI) PuntosVenta(context.Context) ([]apiclient.PuntoVenta, error) {
	if err := f.do(PuntosVenta); err != nil {
		return nil, err
	}
	return []apiclient.PuntoVenta{{PuntoVentaID: 1, Numero: 1, Nombre: "Caja"}}, nil
}

func (f *fakeAPI) Empleados(context.Context) ([]apiclient.Empleado, error) {
	if err := f.do(Empleados); err != nil {
		return nil, err
	}
	return []apiclient.Empleado{{EmpleadoID: 70, Nombre: "Ana"}}, nil
}

// clock is a fake clock whose Sleep advances it.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }
func (c *clock) Sleep(_ context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return nil
}

var t0 = time.Date(2026, 9, 2, 10, 0, 0, 0, time.UTC)

func newCache(t *testing.T, api *fakeAPI) (*Cache, *clock, *sendrulestest.Windows) {
	t.Helper()
	clk := &clock{now: t0}
	w := &sendrulestest.Windows{}
	return &Cache{Dir: t.TempDir(), Tenant: "tenant", TTL: time.Hour, Window: ParamWindow,
		Fetch: api, Windows: w, Now: clk.Now}, clk, w
}

func statuses(ps []Pulled) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s=%d", p.Name, p.Status))
	}
	return strings.Join(parts, " ")
}

func TestPullSharedWindow(t *testing.T) {
	tests := []struct {
		name      string
		wait      bool
		only      []Name
		want      string
		wantCalls []Name
		wantNow   time.Time // the fake clock after the pull
	}{
		{name: "one catalog per window, the rest wait",
			only: []Name{MediosPago, Motivos, Depositos},
			want: "medios-pago=0 motivos=2 depositos=2", wantCalls: []Name{MediosPago}, wantNow: t0},
		{name: "--wait waits out the window between catalogs",
			wait: true, only: []Name{MediosPago, Motivos, Depositos},
			want: "medios-pago=0 motivos=0 depositos=0", wantCalls: []Name{MediosPago, Motivos, Depositos},
			wantNow: t0.Add(2 * ParamWindow)},
		{name: "every catalog with --wait",
			wait:      true,
			want:      "medios-pago=0 motivos=0 depositos=0 config=0 puntos-venta=0 empleados=0",
			wantCalls: Names, wantNow: t0.Add(5 * ParamWindow)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{}
			c, clk, w := newCache(t, api)
			_, got, err := c.Pull(context.Background(), PullOptions{Names: tt.only, Wait: tt.wait, Sleep: clk.Sleep})
			if err != nil {
				t.Fatal(err)
			}
			if s := statuses(got); s != tt.want {
				t.Errorf("statuses = %s, want %s", s, tt.want)
			}
			if diff := cmp.Diff(tt.wantCalls, api.calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if !clk.now.Equal(tt.wantNow) {
				t.Errorf("clock = %v, want %v", clk.now, tt.wantNow)
			}
			if next := w.Next("tenant", WindowName); !next.Equal(clk.now.Add(ParamWindow)) {
				t.Errorf("persisted window = %v, want one window after the last fetch", next)
			}
			// What was fetched is in the cache for the next process.
			s, err := c.Load()
			if err != nil {
				t.Fatal(err)
			}
			if s.MediosPago == nil || !s.MediosPagoFetched.Equal(t0) {
				t.Errorf("cached medios-pago = %v at %v", s.MediosPago, s.MediosPagoFetched)
			}
		})
	}
}

func TestPullWaitingSaysWhen(t *testing.T) {
	c, clk, _ := newCache(t, &fakeAPI{})
	if _, _, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}}); err != nil {
		t.Fatal(err)
	}
	clk.now = clk.now.Add(20 * time.Second)
	_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago, Motivos}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != Waiting || !got[1].Next.Equal(t0.Add(ParamWindow)) {
		t.Fatalf("got %+v, want both waiting until one window after the first pull", got)
	}
	tests := []struct {
		p    Pulled
		want string
	}{
		{got[0], "medios-pago: no se consultó (la API permite una consulta de parámetros por minuto para todos los catálogos juntos; se podrá pedir a las 10:01:00 (en 40 s)); queda la copia guardada de hace 20 segundos"},
		{got[1], "motivos: no se consultó (la API permite una consulta de parámetros por minuto para todos los catálogos juntos; se podrá pedir a las 10:01:00 (en 40 s)) y no hay copia guardada"},
	}
	for _, tt := range tests {
		if s := tt.p.Message(clk.now).In(msg.ES); s != tt.want {
			t.Errorf("message\n got %s\nwant %s", s, tt.want)
		}
	}
}

func TestPullFreshCopyIsKept(t *testing.T) {
	api := &fakeAPI{}
	c, clk, _ := newCache(t, api)
	if _, _, err := c.Pull(context.Background(), PullOptions{Names: []Name{Motivos}}); err != nil {
		t.Fatal(err)
	}
	clk.now = clk.now.Add(10 * time.Minute)
	_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{Motivos}, MaxAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != Fresh || len(api.calls) != 1 {
		t.Errorf("got %+v after %d calls, want Fresh without a second call", got, len(api.calls))
	}
	if s := got[0].Message(clk.now).In(msg.EN); s != "motivos: the cached copy is 10 minutes old; no need to fetch it" {
		t.Errorf("message = %s", s)
	}
}

func TestPullFailures(t *testing.T) {
	unauthorized := fmt.Errorf("GET /motivos: %w", apiclient.ErrUnauthorized)
	tests := []struct {
		name      string
		fail      map[Name]error
		want      string
		wantCalls int
		wantNext  time.Duration // persisted window after the pull, from t0
	}{
		{name: "401 stops: the rest would fail the same way",
			fail: map[Name]error{MediosPago: unauthorized}, want: "medios-pago=3 motivos=3 depositos=3",
			wantCalls: 1, wantNext: ParamWindow},
		{name: "a 403 window moves ours to the server's count",
			fail: map[Name]error{MediosPago: &apiclient.WaitError{Wait: 45 * time.Second}}, want: "medios-pago=3 motivos=2 depositos=2",
			wantCalls: 1, wantNext: 45 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{fail: tt.fail}
			c, clk, w := newCache(t, api)
			_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago, Motivos, Depositos}, Wait: false, Sleep: clk.Sleep})
			if err != nil {
				t.Fatal(err)
			}
			if s := statuses(got); s != tt.want {
				t.Errorf("statuses = %s, want %s", s, tt.want)
			}
			if len(api.calls) != tt.wantCalls {
				t.Errorf("calls = %v, want %d", api.calls, tt.wantCalls)
			}
			if next := w.Next("tenant", WindowName); !next.Equal(t0.Add(tt.wantNext)) {
				t.Errorf("window = %v, want t0+%v", next, tt.wantNext)
			}
			if !errors.Is(got[0].Err, tt.fail[MediosPago]) {
				t.Errorf("err = %v", got[0].Err)
			}
		})
	}
}

func TestPullWaitRetriesAfterTheServersWindow(t *testing.T) {
	api := &fakeAPI{fail: map[Name]error{MediosPago: &apiclient.WaitError{Wait: 10 * time.Second}}, failOnce: true}
	c, clk, w := newCache(t, api)
	_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}, Wait: true, Sleep: clk.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != Fetched || len(api.calls) != 2 || !clk.now.Equal(t0.Add(10*time.Second)) {
		t.Errorf("got %+v after calls %v at %v, want fetched on the second try 10 s later", got, api.calls, clk.now)
	}
	if next := w.Next("tenant", WindowName); !next.Equal(clk.now.Add(ParamWindow)) {
		t.Errorf("window = %v, want one window after the second try", next)
	}
}

func TestPullFailureKeepsCachedCopy(t *testing.T) {
	api := &fakeAPI{}
	c, clk, _ := newCache(t, api)
	if _, _, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}}); err != nil {
		t.Fatal(err)
	}
	clk.now = clk.now.Add(2 * time.Hour)
	api.fail = map[Name]error{MediosPago: errors.New("dial tcp 127.0.0.1:1: connection refused")}
	s, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}})
	if err != nil {
		t.Fatal(err)
	}
	if s.MediosPago == nil || !got[0].Fetched.Equal(t0) {
		t.Fatalf("snapshot lost the cached copy: %+v %+v", s, got)
	}
	want := "medios-pago: not fetched (could not be fetched: dial tcp 127.0.0.1:1: connection refused); the cached copy from 2 hours ago stays"
	if m := got[0].Message(clk.now).In(msg.EN); m != want {
		t.Errorf("message\n got %s\nwant %s", m, want)
	}
}

func TestParseNames(t *testing.T) {
	tests := []struct {
		in      []string
		want    []Name
		wantErr bool
	}{
		{in: nil, want: Names},
		{in: []string{"motivos, medios-pago", "motivos"}, want: []Name{Motivos, MediosPago}},
		{in: []string{"config/depositos"}, want: []Name{Depositos}},
		{in: []string{"tarjetas"}, wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseNames(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseNames(%q) err = %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); !tt.wantErr && diff != "" {
			t.Errorf("ParseNames(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestPullRefusalSaysWhatToDo: a refused token and the server's own 403
// window are told in the user's language, with what to do; the API's text is
// quoted as it came, and a catalog not tried after a 401 names no other
// catalog's path.
func TestPullRefusalSaysWhatToDo(t *testing.T) {
	unauthorized := fmt.Errorf("GET /integraciones/terceros/medios-pago: %w", apiclient.ErrUnauthorized)
	wait := fmt.Errorf("GET /integraciones/terceros/medios-pago: %w",
		&apiclient.WaitError{Wait: 45 * time.Second, Message: "Debe esperar 45 segundos entre cada solicitud"})
	tests := []struct {
		name string
		fail error
		want []string
	}{
		{name: "401", fail: unauthorized, want: []string{
			"medios-pago: no se consultó (la API rechazó el token (HTTP 401): revise NX_TOKEN o --token-file) y no hay copia guardada",
			"motivos: no se consultó (la API rechazó el token (HTTP 401): revise NX_TOKEN o --token-file) y no hay copia guardada",
		}},
		{name: "403 window", fail: wait, want: []string{
			"medios-pago: no se consultó (la API pidió esperar 45 s: «Debe esperar 45 segundos entre cada solicitud»; se podrá pedir a las 10:00:45) y no hay copia guardada",
			"motivos: no se consultó (la API permite una consulta de parámetros por minuto para todos los catálogos juntos; se podrá pedir a las 10:00:45 (en 45 s)) y no hay copia guardada",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, clk, _ := newCache(t, &fakeAPI{fail: map[Name]error{MediosPago: tt.fail}})
			_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago, Motivos}})
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tt.want {
				if s := got[i].Message(clk.now).In(msg.ES); s != want {
					t.Errorf("message\n got %s\nwant %s", s, want)
				}
			}
		})
	}
}

// TestWarehousesInEnabledBranches: a warehouse of a branch the integration
// may not use is refused by the API (403 "El deposito N pertenece a una
// sucursal no habilitada"), so when /config says which branches are enabled
// the lists leave it out.
func TestWarehousesInEnabledBranches(t *testing.T) {
	deps := []nxapi.Deposito{{DepositoID: 1, SucursalID: 1}, {DepositoID: 9, SucursalID: 3}}
	tests := []struct {
		name string
		s    Snapshot
		want []int64
	}{
		{name: "branches unknown", s: Snapshot{Depositos: deps}, want: []int64{1, 9}},
		{name: "config/depositos, branch 3 not enabled",
			s:    Snapshot{Depositos: deps, Config: &nxapi.Config{SucursalesExportacion: []nxapi.Sucursal{{SucursalID: 1}}}},
			want: []int64{1}},
		{name: "only /config, branch 3 not enabled",
			s:    Snapshot{Config: &nxapi.Config{Depositos: deps, SucursalesExportacion: []nxapi.Sucursal{{SucursalID: 1}, {SucursalID: 2}}}},
			want: []int64{1}},
		{name: "config without the branch list", s: Snapshot{Config: &nxapi.Config{Depositos: deps}}, want: []int64{1, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.s.Warehouses()
			var ids []int64
			for _, d := range got {
				ids = append(ids, d.DepositoID)
			}
			if !ok || !cmp.Equal(ids, tt.want) {
				t.Errorf("Warehouses() = %v, %v; want %v", ids, ok, tt.want)
			}
		})
	}
}
