package catalog

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// TestPullPacesOnTheWindowKey: the window is kept under WindowKey (the
// credential, as /config is paced), not under the tenant, when set.
func TestPullPacesOnTheWindowKey(t *testing.T) {
	tests := []struct {
		name      string
		windowKey string
		wantKey   string
	}{
		{"the credential's key when given", "cred-hash", "cred-hash"},
		{"the tenant's when not", "", "tenant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{}
			c, clk, w := newCache(t, api)
			c.WindowKey = tt.windowKey
			// /config was just read under the credential: a catalog must
			// wait for that window whatever the tenant's says.
			w.Set("cred-hash", WindowName, clk.now.Add(20*time.Second))
			_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{Motivos}, Sleep: clk.Sleep})
			if err != nil {
				t.Fatal(err)
			}
			if w.Len() > 2 || !w.Next(tt.wantKey, WindowName).After(clk.now) {
				t.Errorf("%d windows after the pull, %s at %v; want %s moved", w.Len(), tt.wantKey, w.Next(tt.wantKey, WindowName), tt.wantKey)
			}
			wantStatus := Fetched
			if tt.windowKey != "" {
				wantStatus = Waiting
			}
			if got[0].Status != wantStatus {
				t.Errorf("status = %d, want %d", got[0].Status, wantStatus)
			}
		})
	}
}

// TestPullScalesTheServersWait: under --time-scale the API's "Debe esperar
// 60" is 60 s of its time, and this run's wait is scaled as every other.
func TestPullScalesTheServersWait(t *testing.T) {
	tests := []struct {
		name     string
		scale    float64
		wantWait time.Duration
	}{
		{"unscaled", 0, 60 * time.Second},
		{"a hundredth", 0.01, 600 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := &fakeAPI{fail: map[Name]error{MediosPago: &apiclient.WaitError{Wait: 60 * time.Second}}, failOnce: true}
			c, clk, _ := newCache(t, api)
			c.Scale = tt.scale
			c.Window = time.Duration(float64(ParamWindow) * max(tt.scale, 0.0001))
			_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{MediosPago}, Wait: true, Sleep: clk.Sleep})
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Status != Fetched || len(api.calls) != 2 || clk.now.Sub(t0) != tt.wantWait {
				t.Errorf("got %+v after calls %v, waited %v; want fetched on the second try after %v", got, api.calls, clk.now.Sub(t0), tt.wantWait)
			}
		})
	}
}

// TestGetWaitMissing: with WaitMissing (run), a catalog never fetched is
// waited for and the wait is told; a stale copy is used without waiting;
// without it (validate) the ids are left unchecked. Get waits on a real
// timer: synctest's clock makes the wait exact and instant.
func TestGetWaitMissing(t *testing.T) {
	tests := []struct {
		name      string
		patient   bool
		cached    bool // a copy older than the TTL is in the cache
		wantTold  bool
		wantCalls int
		wantMP    bool // the catalog checks ids
		wantWait  time.Duration
	}{
		{name: "run waits for a catalog it never fetched", patient: true, wantTold: true, wantCalls: 1, wantMP: true, wantWait: 20 * time.Second},
		{name: "run uses a stale copy rather than wait", patient: true, cached: true, wantMP: true},
		{name: "validate does not wait", patient: false, wantCalls: 0, wantMP: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				api := &fakeAPI{}
				w := &sendrulestest.Windows{}
				c := &Cache{Dir: t.TempDir(), Tenant: "tenant", TTL: time.Hour, Window: ParamWindow, Fetch: api, Windows: w}
				if tt.cached {
					if _, _, err := c.Get(context.Background(), Need{MediosPago: true}); err != nil {
						t.Fatal(err)
					}
					api.calls = nil
					time.Sleep(2 * c.TTL)
				}
				start := time.Now()
				w.Set("tenant", WindowName, start.Add(20*time.Second)) // another read just took the window
				var told []Name
				if tt.patient {
					c.WaitMissing = func(n Name, next time.Time) {
						if !next.Equal(start.Add(20 * time.Second)) {
							t.Errorf("told the window opens at %v, want +20s", next)
						}
						told = append(told, n)
					}
				}
				cat, notes, err := c.Get(context.Background(), Need{MediosPago: true})
				if err != nil {
					t.Fatal(err)
				}
				if got := len(told) == 1 && told[0] == MediosPago; got != tt.wantTold {
					t.Errorf("told %v, want told: %v", told, tt.wantTold)
				}
				if len(api.calls) != tt.wantCalls || time.Since(start) != tt.wantWait {
					t.Errorf("calls %v after waiting %v; want %d calls after %v", api.calls, time.Since(start), tt.wantCalls, tt.wantWait)
				}
				if got := cat.MediosPago != nil; got != tt.wantMP {
					t.Errorf("medios-pago checked = %v (notes %v), want %v", got, notes, tt.wantMP)
				}
			})
		})
	}
}

// localCatalogs answers the two catalogs in-process, as the embedded
// sandbox does.
type localCatalogs struct{ calls int }

func (l *localCatalogs) MediosPago(context.Context) (*nxapi.MediosPagoConfig, error) {
	l.calls++
	return &nxapi.MediosPagoConfig{Medios: nxapi.WMedios{Tarjeta: true}}, nil
}

func (l *localCatalogs) Motivos(context.Context) ([]nxapi.Motivo, error) {
	l.calls++
	return []nxapi.Motivo{{MotivoID: 9, Nombre: "Local"}}, nil
}

// TestLocalCatalogsTakeNoWindow: with Local, /medios-pago and /motivos
// come from it at once, even inside a closed window, and move no window;
// the other catalogs still go to the API.
func TestLocalCatalogsTakeNoWindow(t *testing.T) {
	api := &fakeAPI{}
	c, clk, w := newCache(t, api)
	local := &localCatalogs{}
	c.Local = local
	closed := clk.now.Add(time.Hour)
	w.Set("tenant", WindowName, closed)
	cat, notes, err := c.Get(context.Background(), Need{MediosPago: true, Motivos: true})
	if err != nil {
		t.Fatal(err)
	}
	if local.calls != 2 || len(api.calls) != 0 || !w.Next("tenant", WindowName).Equal(closed) || clk.now != t0 {
		t.Errorf("local calls %d, API calls %v, window %v, clock +%v; want both local, none to the API, the window untouched, no wait",
			local.calls, api.calls, w.Next("tenant", WindowName), clk.now.Sub(t0))
	}
	if cat.MediosPago == nil || !cat.MediosPago.Medios.Tarjeta || len(cat.Motivos) != 1 || cat.Motivos[0].MotivoID != 9 {
		t.Errorf("catalog = %+v, want the local answers (notes %v)", cat, notes)
	}
	// Fresh from now on: a second Get reads nothing.
	if _, _, err := c.Get(context.Background(), Need{MediosPago: true, Motivos: true}); err != nil || local.calls != 2 {
		t.Errorf("second Get: %v after %d local calls, want the cached copies", err, local.calls)
	}
	_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{Depositos}, Sleep: clk.Sleep})
	if err != nil || got[0].Status != Waiting || slices.Contains(api.calls, Depositos) {
		t.Errorf("depositos with a local fetcher = %+v, %v; want waiting for the API's window", got, err)
	}
}

// TestPullGivesUpOnAServerThatKeepsRefusing: each "Debe esperar" is waited
// out and the read tried again, up to maxRefusals times; then the catalog
// is reported failed, with when the server's window allows it.
func TestPullGivesUpOnAServerThatKeepsRefusing(t *testing.T) {
	api := &fakeAPI{fail: map[Name]error{Motivos: &apiclient.WaitError{Wait: 30 * time.Second}}}
	c, clk, w := newCache(t, api)
	_, got, err := c.Pull(context.Background(), PullOptions{Names: []Name{Motivos}, Wait: true, Sleep: clk.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != Failed || len(api.calls) != maxRefusals+1 || !got[0].Next.Equal(w.Next("tenant", WindowName)) {
		t.Errorf("got %+v after calls %v, window %v; want failed after %d tries, next as the window", got, api.calls, w.Next("tenant", WindowName), maxRefusals+1)
	}
}
