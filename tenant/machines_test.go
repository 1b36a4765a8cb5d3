package tenant_test

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/tenant"
)

// Counter keys of the sandbox's parameter endpoints.
var (
	getConfig     = "GET " + nxapi.PathConfig
	getMediosPago = "GET " + nxapi.PathMediosPago
)

// machine is one nxbatch starting with an empty state folder: it learns
// its tenant (GET /config), then reads the catalog a venta file needs, as
// run does.
type machine struct {
	dir     string
	journal journal.Store
}

// start runs m against the sandbox at url, scaled as the sandbox is.
func (m machine) start(ctx context.Context, url string, scale float64, withCatalog bool) error {
	client, err := apiclient.New(apiclient.Options{BaseURL: url, Token: apiclient.NewToken(sandbox.DefaultToken)})
	if err != nil {
		return err
	}
	r := &tenant.Resolver{Dir: m.dir, Env: sendrules.Production, Read: client, Windows: m.journal, Scale: scale, Wait: true,
		Entries: m.journal}
	if reg, ok := m.journal.(tenant.Registry); ok {
		r.Registry = reg
	}
	res, err := r.Resolve(ctx, tenant.Conn{Origin: client.Origin(), Binding: client.BindingHash(), Credential: client.CredentialHash()})
	id := res.Identity
	if err != nil || !withCatalog {
		return err
	}
	c := &catalog.Cache{Dir: filepath.Join(m.dir, "catalogs"), Tenant: id.ID, WindowKey: client.CredentialHash(),
		TTL: 0, Window: sendrules.Scale(sendrules.Production.Limit(sendrules.Params), scale), Scale: scale,
		Fetch: client, Windows: m.journal}
	_, pulled, err := c.Pull(ctx, catalog.PullOptions{Names: []catalog.Name{catalog.MediosPago}, Wait: true})
	if err == nil && pulled[0].Status != catalog.Fetched {
		err = errors.New("medios-pago not fetched: " + pulled[0].Message(pulled[0].Next).In(msg.EN))
	}
	return err
}

// startTogether starts every machine at once and waits for them all.
func startTogether(t *testing.T, url string, scale float64, withCatalog bool, ms ...machine) {
	t.Helper()
	ready := make(chan struct{})
	errs := make(chan error, len(ms))
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(func() {
			<-ready
			errs <- m.start(context.Background(), url, scale, withCatalog)
		})
	}
	close(ready)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// TestMachinesSharingAJournalReadOncePerWindow: two machines with empty
// state folders and one PostgreSQL journal, started together, read the
// parameter endpoints (/config, then /medios-pago) one per window between
// them: the sandbox, which refuses a second read inside a window as the API
// does, refuses none.
func TestMachinesSharingAJournalReadOncePerWindow(t *testing.T) {
	srv, err := pgtest.Start()
	if err != nil {
		t.Fatalf("PostgreSQL for the test: %v", err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	url, err := srv.NewDatabase(context.Background(), "machines")
	if err != nil {
		t.Fatal(err)
	}
	const scale = 0.005 // a 60 s window is 300 ms
	api, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.Close() })
	var ms []machine
	for _, name := range []string{"a", "b"} {
		j, err := pgjournal.Open(context.Background(), url, pgjournal.Options{Host: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = j.Close() })
		ms = append(ms, machine{dir: filepath.Join(t.TempDir(), name), journal: j})
	}
	startTogether(t, api.URL, scale, true, ms...)

	reqs := api.Server.State().Requests
	for _, c := range []struct {
		key  string
		want map[int]int
	}{
		// The second machine finds the first one's binding in the journal
		// once its turn comes: no second read.
		{getConfig, map[int]int{200: 1}},
		{getMediosPago, map[int]int{200: 2}},
	} {
		if got := reqs[c.key]; !maps.Equal(got, c.want) {
			t.Errorf("%s answered %v, want %v (no 403: one read per window)", c.key, got, c.want)
		}
	}
}

// TestMachinesWithTheirOwnJournalsWaitOutTheRefusal: two machines that
// share nothing cannot coordinate: both read /config inside one window, the
// API refuses the second, and that one waits as the API says and reads it
// again.
func TestMachinesWithTheirOwnJournalsWaitOutTheRefusal(t *testing.T) {
	// A 60 s window is 3 s: both machines start well inside the first one.
	const scale = 0.05
	api, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.Close() })
	var ms []machine
	for _, name := range []string{"a", "b"} {
		dir := filepath.Join(t.TempDir(), name)
		j, err := boltjournal.Open(filepath.Join(dir, "journal"), journal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = j.Close() })
		ms = append(ms, machine{dir: dir, journal: j})
	}
	startTogether(t, api.URL, scale, false, ms...)

	if got, want := api.Server.State().Requests[getConfig], map[int]int{200: 2, 403: 1}; !maps.Equal(got, want) {
		t.Errorf("%s answered %v, want %v: one refused, then read after the wait it asked", getConfig, got, want)
	}
}
