package tenant

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
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

// conn is a connection at origin with token tok, named as apiclient would.
func conn(origin, tok string) Conn {
	return Conn{Origin: origin, Binding: "b-" + origin + "-" + tok, Credential: "c-" + origin + "-" + tok}
}

// shop is a /config answer: appId, name and warehouses.
func shop(app int64, nombre string, deps ...int64) *nxapi.Config {
	cfg := &nxapi.Config{AppID: app, Nombre: nombre, SucursalesExportacion: []nxapi.Sucursal{{SucursalID: 1}}}
	for _, d := range deps {
		cfg.Depositos = append(cfg.Depositos, nxapi.Deposito{DepositoID: d, SucursalID: 1})
	}
	return cfg
}

func newResolver(t *testing.T, dir string, api *fakeConfig) *Resolver {
	t.Helper()
	return &Resolver{Dir: dir, Env: sendrules.Production, Read: api, Windows: &sendrulestest.Windows{}, Wait: true, Scale: 0.0001}
}

func keys(notes []msg.Message) []string {
	var out []string
	for _, n := range notes {
		out = append(out, n.Key)
	}
	return out
}

func TestResolveAsksOncePerToken(t *testing.T) {
	dir := t.TempDir()
	api := &fakeConfig{cfg: shop(7, "Tienda", 1, 2)}
	r := newResolver(t, dir, api)
	ctx := context.Background()
	a, err := r.Resolve(ctx, conn("https://erp.example", "t1"))
	if err != nil || a.Config == nil {
		t.Fatalf("first Resolve = %+v, %v", a, err)
	}
	if a.Identity.ID != "app7.production@erp.example" || a.Identity.Nombre != "Tienda" || !slices.Equal(keys(a.Notes), []string{"tenant.new"}) {
		t.Errorf("identity = %+v, notes %v; want app7.production@erp.example, said new", a.Identity, keys(a.Notes))
	}
	again, err := r.Resolve(ctx, conn("https://erp.example", "t1"))
	if err != nil || again.Config != nil || again.Identity.ID != a.Identity.ID || api.calls != 1 || len(again.Notes) != 0 {
		t.Errorf("second Resolve = %+v (%v) after %d calls; want the bound identity, no call, nothing said", again, err, api.calls)
	}
	fi, err := os.Stat(filepath.Join(dir, "tenants.json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("tenants.json: %v, %v; want owner-only", fi, err)
	}
}

// TestIdentityNeitherMergesNorSplits walks the rules of the package doc:
// each step resolves one connection against the tenants the earlier steps
// left, with what the API says it is.
func TestIdentityNeitherMergesNorSplits(t *testing.T) {
	type step struct {
		name    string
		c       Conn
		env     sendrules.Env
		cfg     *nxapi.Config
		want    string // tenant ID, or "" for a refusal
		wantErr any    // a pointer to the error type expected
		notes   []string
	}
	named := func(c Conn, name string) Conn { c.Name = name; return c }
	steps := []step{
		{name: "first shop", c: conn("https://erp.example", "a"), cfg: shop(1, "Tienda A", 10, 11), want: "app1.production@erp.example", notes: []string{"tenant.new"}},
		{name: "a rotated token: same origin, appId and structure", c: conn("https://erp.example", "a2"), cfg: shop(1, "Tienda A", 10, 11), want: "app1.production@erp.example", notes: []string{"tenant.rotated"}},
		{name: "another shop with the same appId behind the same address is refused", c: conn("https://erp.example", "b"), cfg: shop(1, "Tienda B", 20), wantErr: new(*AmbiguousError)},
		{name: "which --tenant settles as a new tenant", c: named(conn("https://erp.example", "b"), "tienda-b"), cfg: shop(1, "Tienda B", 20), want: "tienda-b", notes: []string{"tenant.new"}},
		{name: "a rotation after a change of structure is refused too", c: conn("https://erp.example", "a3"), cfg: shop(1, "Tienda A", 10, 11, 12), wantErr: new(*AmbiguousError)},
		{name: "and --tenant with the existing name records it", c: named(conn("https://erp.example", "a3"), "app1.production@erp.example"), cfg: shop(1, "Tienda A", 10, 11, 12), want: "app1.production@erp.example", notes: []string{"tenant.rotated.named", "tenant.structure"}},
		{name: "a bound token keeps its tenant", c: conn("https://erp.example", "a"), want: "app1.production@erp.example"},
		{name: "a bound token cannot be given to another tenant", c: named(conn("https://erp.example", "a"), "tienda-b"), wantErr: new(*NameError)},
		{name: "--tenant naming another API's tenant is refused", c: named(conn("http://localhost:8091", "x"), "tienda-b"), cfg: shop(1, "Tienda B", 20), wantErr: new(*NameError)},
		{name: "another port is another tenant", c: conn("http://localhost:8092", "a"), cfg: shop(1, "Tienda A", 10, 11, 12), want: "app1.production@localhost:8092", notes: []string{"tenant.new"}},
		{name: "the test environment is another tenant", c: conn("https://erp.example", "a"), env: sendrules.Test, cfg: shop(1, "Tienda A", 10, 11, 12), want: "app1.test@erp.example", notes: []string{"tenant.new"}},
		{name: "a name with a slash is refused", c: named(conn("https://erp.example", "z"), "a/b"), wantErr: new(*UsageError)},
	}
	dir := t.TempDir()
	for _, s := range steps {
		api := &fakeConfig{cfg: s.cfg}
		r := newResolver(t, dir, api)
		if s.env != "" {
			r.Env = s.env
		}
		got, err := r.Resolve(context.Background(), s.c)
		if s.wantErr != nil {
			if err == nil || !errors.As(err, s.wantErr) {
				t.Errorf("%s: Resolve = %+v, %v; want %T", s.name, got.Identity, err, s.wantErr)
			}
			continue
		}
		if err != nil || got.Identity.ID != s.want || !slices.Equal(keys(got.Notes), s.notes) {
			t.Errorf("%s: Resolve = %q, notes %v, %v; want %q, notes %v", s.name, got.Identity.ID, keys(got.Notes), err, s.want, s.notes)
		}
		if s.cfg == nil && api.calls != 0 {
			t.Errorf("%s: asked GET /config %d times; want none", s.name, api.calls)
		}
	}
	// The refusal names both tenants and both ways out, in Spanish.
	r := newResolver(t, dir, &fakeConfig{cfg: shop(1, "Tienda C", 30)})
	_, err := r.Resolve(context.Background(), conn("https://erp.example", "c"))
	var amb *AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("third shop: %v, want an AmbiguousError", err)
	}
	text := amb.Message().In(msg.ES)
	for _, want := range []string{"app1.production@erp.example", "tienda-b", "«Tienda C»", "--tenant app1.production@erp.example", "No se envió nada"} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal %q does not say %q", text, want)
		}
	}
}

func TestObserveKeepsTheTenantAndSaysTheChangeOnce(t *testing.T) {
	dir := t.TempDir()
	r := newResolver(t, dir, &fakeConfig{cfg: shop(3, "Tienda", 1)})
	got, err := r.Resolve(context.Background(), conn("https://erp.example", "a"))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{1, 0} {
		notes, err := r.Observe(context.Background(), got.Identity.ID, shop(3, "Tienda", 1, 2))
		if err != nil || len(notes) != want {
			t.Errorf("Observe #%d = %v, %v; want %d note", i+1, keys(notes), err, want)
		}
	}
	again, err := r.Resolve(context.Background(), conn("https://erp.example", "a"))
	if err != nil || again.Identity.ID != got.Identity.ID || !slices.Equal(again.Identity.Structure.Depositos, []int64{1, 2}) {
		t.Errorf("after the change: %+v, %v; want the same tenant with warehouses 1,2", again.Identity, err)
	}
}

// TestJournalsOfThePreviousFormat: tenants.json of the previous format
// (credential@env -> app<appId>.<env>) is carried over when it shows one
// integration under the old key, and refused otherwise.
func TestJournalsOfThePreviousFormat(t *testing.T) {
	legacy := func(entries map[string]legacyIdentity) string {
		dir := t.TempDir()
		b, _ := json.Marshal(entries)
		if err := os.WriteFile(filepath.Join(dir, "tenants.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	c := conn("https://erp.example", "a")
	mine := c.Credential + "@production"
	cases := []struct {
		name  string
		file  map[string]legacyIdentity
		cfg   *nxapi.Config
		c     Conn
		want  string
		notes []string
	}{
		{"one integration under the old key, this credential", map[string]legacyIdentity{mine: {ID: "app7.production", AppID: 7, Nombre: "Tienda", Env: "production"}},
			shop(7, "Tienda", 1), c, "app7.production", []string{"tenant.legacy.carried"}},
		{"two integrations under the old key", map[string]legacyIdentity{mine: {ID: "app7.production", AppID: 7, Nombre: "Tienda", Env: "production"}, "other@production": {ID: "app7.production", AppID: 7, Nombre: "Otra", Env: "production"}},
			shop(7, "Tienda", 1), c, "", nil},
		{"the old key bound to another credential only", map[string]legacyIdentity{"other@production": {ID: "app7.production", AppID: 7, Nombre: "Tienda", Env: "production"}},
			shop(7, "Tienda", 1), c, "", nil},
		{"appId 1, which the old embedded sandbox also wrote under", map[string]legacyIdentity{mine: {ID: "app1.production", AppID: 1, Nombre: "Tienda", Env: "production"}},
			shop(1, "Tienda", 1), c, "", nil},
		{"--tenant with the old key claims it", map[string]legacyIdentity{mine: {ID: "app1.production", AppID: 1, Nombre: "Tienda", Env: "production"}},
			shop(1, "Tienda", 1), Conn{Origin: c.Origin, Binding: c.Binding, Credential: c.Credential, Name: "app1.production"}, "app1.production", []string{"tenant.legacy.claimed"}},
		{"no binding under the old key: the sandbox's entries are not carried", map[string]legacyIdentity{"other@production": {ID: "app9.production", AppID: 9, Nombre: "X", Env: "production"}},
			shop(1, "Tienda", 1), c, "app1.production@erp.example", []string{"tenant.new"}},
	}
	for _, tc := range cases {
		r := newResolver(t, legacy(tc.file), &fakeConfig{cfg: tc.cfg})
		got, err := r.Resolve(context.Background(), tc.c)
		if tc.want == "" {
			var le *LegacyError
			if !errors.As(err, &le) {
				t.Errorf("%s: Resolve = %q, %v; want a LegacyError", tc.name, got.Identity.ID, err)
			}
			continue
		}
		if err != nil || got.Identity.ID != tc.want || !slices.Equal(keys(got.Notes), tc.notes) {
			t.Errorf("%s: Resolve = %q, notes %v, %v; want %q, %v", tc.name, got.Identity.ID, keys(got.Notes), err, tc.want, tc.notes)
		}
	}
}

func TestADamagedTenantsFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tenants.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newResolver(t, dir, &fakeConfig{cfg: shop(1, "T", 1)})
	var ue *UsageError
	if _, err := r.Resolve(context.Background(), conn("https://erp.example", "a")); !errors.As(err, &ue) {
		t.Errorf("Resolve over a damaged file = %v; want a UsageError (bindings are never dropped silently)", err)
	}
}

func TestResolveRespectsTheParameterWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		api := &fakeConfig{cfg: &nxapi.Config{AppID: 1}}
		w := &sendrulestest.Windows{}
		w.SetNextAllowed(context.Background(), "cred", string(sendrules.Params), time.Now().Add(20*time.Second))
		r := &Resolver{Dir: t.TempDir(), Env: sendrules.Production, Read: api, Windows: w}
		var we *WindowError
		if _, err := r.Resolve(context.Background(), Conn{Origin: "https://x", Binding: "b", Credential: "cred"}); !errors.As(err, &we) || api.calls != 0 {
			t.Fatalf("Resolve inside the window = %v after %d calls; want a WindowError and no call", err, api.calls)
		}
		r.Wait = true
		start := time.Now()
		res, err := r.Resolve(context.Background(), Conn{Origin: "https://x", Binding: "b", Credential: "cred"})
		id := res.Identity
		if err != nil || time.Since(start) != 20*time.Second {
			t.Fatalf("patient Resolve = %v after %v; want to wait the 20 s left", err, time.Since(start))
		}
		// The tenant's own parameter window now counts the request, so the
		// catalogs that follow wait for it.
		next, _ := w.NextAllowed(context.Background(), id.ID, string(sendrules.Params))
		if time.Until(next) != 60*time.Second {
			t.Errorf("the tenant's parameter window is next at +%v, want +60s", time.Until(next))
		}
	})
}

func TestResolveRefusesAConfigWithoutAppID(t *testing.T) {
	r := &Resolver{Dir: t.TempDir(), Env: sendrules.Production, Read: &fakeConfig{cfg: &nxapi.Config{}}, Windows: &sendrulestest.Windows{}}
	if _, err := r.Resolve(context.Background(), Conn{Origin: "https://x", Binding: "b", Credential: "cred"}); !errors.Is(err, ErrNoAppID) {
		t.Errorf("Resolve = %v, want ErrNoAppID", err)
	}
}

// memRegistry is a registry shared by machines, swapped as PostgreSQL
// does.
type memRegistry struct {
	mu  sync.Mutex
	doc []byte
}

func (m *memRegistry) Document(context.Context, string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.doc, nil
}

func (m *memRegistry) SwapDocument(_ context.Context, _ string, old, doc []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if string(m.doc) != string(old) || (m.doc == nil) != (old == nil) {
		return false, nil
	}
	m.doc = doc
	return true, nil
}

// heldEntries says the journal holds entries under some keys.
type heldEntries map[string]bool

func (h heldEntries) HasTenant(_ context.Context, t string) (bool, error) { return h[t], nil }

// TestMachinesSharingAJournalShareTheTenants: with the registry in the
// shared journal, a second machine with an empty state folder knows what
// the first bound: shop B is refused there too, and shop A's token is
// bound without asking.
func TestMachinesSharingAJournalShareTheTenants(t *testing.T) {
	reg := &memRegistry{}
	one := newResolver(t, t.TempDir(), &fakeConfig{cfg: shop(1, "Tienda A", 10)})
	one.Registry = reg
	if _, err := one.Resolve(context.Background(), conn("https://erp.example", "a")); err != nil {
		t.Fatal(err)
	}
	apiB := &fakeConfig{cfg: shop(1, "Tienda B", 20)}
	two := newResolver(t, t.TempDir(), apiB)
	two.Registry = reg
	var amb *AmbiguousError
	if _, err := two.Resolve(context.Background(), conn("https://erp.example", "b")); !errors.As(err, &amb) {
		t.Errorf("shop B on the second machine = %v; want an AmbiguousError (never merged into shop A)", err)
	}
	apiA := &fakeConfig{cfg: shop(1, "Tienda A", 10)}
	two.Read = apiA
	got, err := two.Resolve(context.Background(), conn("https://erp.example", "a"))
	if err != nil || got.Identity.ID != "app1.production@erp.example" || apiA.calls != 0 {
		t.Errorf("shop A's token on the second machine = %q, %v after %d calls; want its tenant, bound, no call", got.Identity.ID, err, apiA.calls)
	}
}

// TestEntriesUnderAnOldKeyWithNoRecordAreRefused: a journal that holds
// entries under app7.production, on a machine with no tenants.json (a
// pod's empty state folder): whose they are is the user's to say.
func TestEntriesUnderAnOldKeyWithNoRecordAreRefused(t *testing.T) {
	dir := t.TempDir()
	r := newResolver(t, dir, &fakeConfig{cfg: shop(7, "Tienda", 1)})
	r.Entries = heldEntries{"app7.production": true}
	var le *LegacyError
	_, err := r.Resolve(context.Background(), conn("https://erp.example", "a"))
	if !errors.As(err, &le) || !strings.Contains(le.Message().In(msg.ES), "--tenant app7.production") {
		t.Fatalf("Resolve = %v; want a LegacyError naming --tenant app7.production", err)
	}
	c := conn("https://erp.example", "a")
	c.Name = "app7.production"
	got, err := r.Resolve(context.Background(), c)
	if err != nil || got.Identity.ID != "app7.production" {
		t.Errorf("with --tenant app7.production: %q, %v", got.Identity.ID, err)
	}
}
