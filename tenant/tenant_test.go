package tenant

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// fakeConfig answers GET /config with cfg and counts the calls.
type fakeConfig struct {
	cfg   *nxapi.Config
	calls int
}

func (f *fakeConfig) Config(context.Context) (*nxapi.Config, error) {
	f.calls++
	return f.cfg, nil
}

// memWindows keeps windows in memory, as the journal does on disk.
type memWindows struct {
	mu sync.Mutex
	m  map[string]time.Time
}

func (w *memWindows) NextAllowed(tenant, window string) (time.Time, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.m[tenant+"/"+window], nil
}

func (w *memWindows) SetNextAllowed(tenant, window string, t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[string]time.Time{}
	}
	w.m[tenant+"/"+window] = t
	return nil
}

func TestResolveAsksOncePerCredential(t *testing.T) {
	dir := t.TempDir()
	api := &fakeConfig{cfg: &nxapi.Config{AppID: 7, Nombre: "Tienda"}}
	r := &Resolver{Dir: dir, Env: sendrules.Production, Read: api, Windows: &memWindows{}, Wait: true, Scale: 0.0001}
	ctx := context.Background()
	a, cfg, err := r.Resolve(ctx, "cred-127")
	if err != nil || cfg == nil {
		t.Fatalf("first Resolve = %+v, %v, %v", a, cfg, err)
	}
	if a.ID != "app7.production" || a.Nombre != "Tienda" {
		t.Errorf("identity = %+v, want app7.production", a)
	}
	again, cfg, err := r.Resolve(ctx, "cred-127")
	if err != nil || cfg != nil || again.ID != a.ID || api.calls != 1 {
		t.Errorf("second Resolve = %+v (cfg %v, %v) after %d calls; want the cached identity and no call", again, cfg, err, api.calls)
	}
	// Another spelling of the host, or a rotated token: another
	// credential, the same tenant.
	other, _, err := r.Resolve(ctx, "cred-localhost")
	if err != nil || other.ID != a.ID || api.calls != 2 {
		t.Errorf("other credential = %+v, %v after %d calls; want the same tenant, asked once more", other, err, api.calls)
	}
	// The test environment is another tenant.
	r.Env = sendrules.Test
	test, _, err := r.Resolve(ctx, "cred-127")
	if err != nil || test.ID != "app7.test" {
		t.Errorf("test environment = %+v, %v; want app7.test", test, err)
	}
	fi, err := os.Stat(filepath.Join(dir, "tenants.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("tenants.json: %v, %v; want owner-only", fi, err)
	}
}

func TestResolveRespectsTheParameterWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := &fakeConfig{cfg: &nxapi.Config{AppID: 1}}
		w := &memWindows{}
		w.SetNextAllowed("cred", string(sendrules.Params), time.Now().Add(20*time.Second))
		r := &Resolver{Dir: t.TempDir(), Env: sendrules.Production, Read: api, Windows: w}
		var we *WindowError
		if _, _, err := r.Resolve(context.Background(), "cred"); !errors.As(err, &we) || api.calls != 0 {
			t.Fatalf("Resolve inside the window = %v after %d calls; want a WindowError and no call", err, api.calls)
		}
		r.Wait = true
		start := time.Now()
		id, _, err := r.Resolve(context.Background(), "cred")
		if err != nil || time.Since(start) != 20*time.Second {
			t.Fatalf("patient Resolve = %v after %v; want to wait the 20 s left", err, time.Since(start))
		}
		// The tenant's own parameter window now counts the request, so the
		// catalogs that follow wait for it.
		next, _ := w.NextAllowed(id.ID, string(sendrules.Params))
		if next.Sub(time.Now()) != 60*time.Second {
			t.Errorf("the tenant's parameter window is next at +%v, want +60s", next.Sub(time.Now()))
		}
	})
}

func TestResolveRefusesAConfigWithoutAppID(t *testing.T) {
	r := &Resolver{Dir: t.TempDir(), Env: sendrules.Production, Read: &fakeConfig{cfg: &nxapi.Config{}}, Windows: &memWindows{}}
	if _, _, err := r.Resolve(context.Background(), "cred"); !errors.Is(err, ErrNoAppID) {
		t.Errorf("Resolve = %v, want ErrNoAppID", err)
	}
}
