package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Tenant identity end to end (issue 18): the journal never merges two
// tenants (rows reported sent that were never sent to this one) and never
// splits one (rows sent twice).

// route sends the requests of one token to a sandbox, under the sandbox's
// own token.
type route struct {
	to    *sandbox.Running
	token string
}

// tokenProxy is one URL in front of several sandboxes, routing by token:
// two tenants behind one address, as an ERP's gateway is.
func tokenProxy(t *testing.T, routes map[string]route) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt, ok := routes[r.Header.Get(nxapi.TokenHeader)]
		if !ok {
			http.Error(w, "token", http.StatusUnauthorized)
			return
		}
		target, _ := url.Parse(rt.to.URL)
		r.Header.Set(nxapi.TokenHeader, rt.token)
		httputil.NewSingleHostReverseProxy(target).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// otherShop is the demo data of another shop that was given the same appId:
// another name and another set of warehouses.
func otherShop() *sandbox.Data {
	d := sandbox.DemoData()
	d.Config.Nombre = "Tienda Dos"
	for i := range d.Depositos {
		if d.Depositos[i].Integracion && !d.Depositos[i].Principal {
			d.Depositos[i].Integracion = false
			break
		}
	}
	return d
}

func startData(t *testing.T, d *sandbox.Data, o sandbox.Options) *sandbox.Running {
	t.Helper()
	if o.TimeScale == 0 {
		o.TimeScale = scale
	}
	sb, err := sandbox.Start(d, o, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

// summaryAPI reads the api part of input's summary.json.
func summaryAPI(t *testing.T, w *workspace, input string) map[string]any {
	t.Helper()
	base := strings.TrimSuffix(filepath.Base(input), filepath.Ext(input))
	b, err := os.ReadFile(filepath.Join(w.reportDir(), base+".summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		API map[string]any `json:"api"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s.API
}

// TestTwoTenantsBehindOneURL: two shops with the same appId behind one
// address. The second shop's token is refused before anything is sent
// (never told its rows were sent), names both tenants and both ways out,
// and with --tenant it receives every row; a rotated token of the first
// shop sends nothing.
func TestTwoTenantsBehindOneURL(t *testing.T) {
	shopA := startSandbox(t, sandbox.Options{})
	shopB := startData(t, otherShop(), sandbox.Options{})
	proxy := tokenProxy(t, map[string]route{
		"token-a":  {shopA, sandbox.DefaultToken},
		"token-a2": {shopA, sandbox.DefaultToken}, // the same shop after a rotation
		"token-b":  {shopB, sandbox.DefaultToken},
	})
	w := newWorkspace(t, proxy.URL)
	w.token = "token-a"
	input := writeSales(t, w.dir, 12, 810001)
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("shop A: %s", res)
	}
	if n := sum(shopA.Server.State(), postVenta); n != 12 {
		t.Fatalf("shop A received %d sales, want 12", n)
	}
	api := summaryAPI(t, w, input)
	if api["tenant"] != "app1.production@localhost:"+strings.Split(proxy.URL, ":")[2] || api["baseUrl"] != proxy.URL || api["sandbox"] != false {
		t.Errorf("summary.json api = %v; want the tenant and base URL of shop A", api)
	}

	// Shop B: same address, same appId, another structure.
	w.token = "token-b"
	res := w.nx(t, w.runArgs(input)...)
	if res.code != 2 || sum(shopB.Server.State(), postVenta) != 0 {
		t.Fatalf("shop B without --tenant: exit %d, %d sales sent; want 2 and none\n%s", res.code, sum(shopB.Server.State(), postVenta), res)
	}
	for _, want := range []string{"app1.production@localhost", "«Tienda Dos»", "--tenant"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, res.stderr)
		}
	}
	for _, r := range w.readReport(t, input) {
		if r["result.status"] == "skipped" || r["result.status"] == "ok" {
			t.Fatalf("shop B's rows were reported %s: never sent there", r["result.status"])
		}
	}
	res = w.nx(t, w.runArgs("--tenant", "tienda-dos", input)...)
	if res.code != 0 || sum(shopB.Server.State(), postVenta) != 12 {
		t.Fatalf("shop B with --tenant: exit %d, %d sales; want 0 and 12\n%s", res.code, sum(shopB.Server.State(), postVenta), res)
	}
	if api := summaryAPI(t, w, input); api["tenant"] != "tienda-dos" {
		t.Errorf("summary.json names tenant %v, want tienda-dos", api["tenant"])
	}
	// Once bound, the token needs no --tenant: a rerun sends nothing.
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 || sum(shopB.Server.State(), postVenta) != 12 {
		t.Errorf("shop B rerun: exit %d, %d sales; want 0 and still 12\n%s", res.code, sum(shopB.Server.State(), postVenta), res)
	}

	// Shop A's token rotated: the same tenant, said once; nothing is sent.
	w.token = "token-a2"
	res = w.nx(t, w.runArgs(input)...)
	if res.code != 0 || sum(shopA.Server.State(), postVenta) != 12 {
		t.Errorf("rotated token: exit %d, shop A has %d sales; want 0 and still 12\n%s", res.code, sum(shopA.Server.State(), postVenta), res)
	}
	if !strings.Contains(res.stderr, "rotación") {
		t.Errorf("the rotation is not said:\n%s", res.stderr)
	}
	if got := statuses(w.readReport(t, input)); got["skipped"] != 12 {
		t.Errorf("rotated token report: %v, want 12 skipped", got)
	}
	noDuplicates(t, shopA.Server.State())
	noDuplicates(t, shopB.Server.State())

	// journal tenants shows both, each with its 12 sales.
	res = w.nx(t, "journal", "tenants", "--journal", w.journal())
	lines := strings.Split(res.stdout, "\n")
	for _, want := range []string{"app1.production@localhost", "tienda-dos"} {
		found := false
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 0 && strings.HasPrefix(f[0], want) && f[len(f)-1] == "12" {
				found = true
			}
		}
		if !found {
			t.Errorf("journal tenants does not list %s with 12 entries:\n%s", want, res)
		}
	}
}

// TestTwoPortsAreTwoTenants: two sandboxes on two ports, with the same
// appId and the same data, are two APIs: each receives every row.
func TestTwoPortsAreTwoTenants(t *testing.T) {
	one := startSandbox(t, sandbox.Options{})
	two := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, one.URL)
	input := writeSales(t, w.dir, 5, 820001)
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("first API: %s", res)
	}
	w.baseURL = two.URL
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("second API: %s", res)
	}
	if a, b := sum(one.Server.State(), postVenta), sum(two.Server.State(), postVenta); a != 5 || b != 5 {
		t.Errorf("the APIs received %d and %d sales; want 5 each", a, b)
	}
	if got := statuses(w.readReport(t, input)); got["ok"] != 5 {
		t.Errorf("second API's report: %v, want 5 ok (never 'already sent')", got)
	}
}

// TestAJournalOfThePreviousFormatSendsNothing: a journal written when every
// tenant was "app<appId>.<env>", with its tenants.json, is carried over by
// the new identity: the rerun sends nothing and reports every row skipped.
func TestAJournalOfThePreviousFormatSendsNothing(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	input := writeSales(t, w.dir, 8, 830001)
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("first run: %s", res)
	}
	// Rewrite the journal as the previous version wrote it: every key under
	// app1.production, and tenants.json by credential.
	j, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []journal.Record
	err = j.Export(context.Background(), func(r journal.Record) error {
		switch {
		case r.Entry != nil:
			e := *r.Entry
			e.Key.Tenant = "app1.production"
			r.Entry = &e
		case r.Unit != nil:
			u := *r.Unit
			u.Request.Tenant = "app1.production"
			r.Unit = &u
		case r.Window != nil:
			m := *r.Window
			m.Tenant = "app1.production"
			r.Window = &m
		}
		recs = append(recs, r)
		return nil
	})
	j.Close()
	if err != nil || len(recs) == 0 {
		t.Fatalf("export: %d records, %v", len(recs), err)
	}
	state := filepath.Dir(w.journal())
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	old, err := boltjournal.Open(w.journal(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Import(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
	old.Close()
	cred := apiclient.CredentialHash(sb.URL, apiclient.NewToken(sandbox.DefaultToken))
	legacy := map[string]any{cred + "@production": map[string]any{"id": "app1.production", "appId": 1, "nombre": "Demo Integración", "env": "production"}}
	b, _ := json.Marshal(legacy)
	if err := os.WriteFile(filepath.Join(state, "tenants.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}

	sent := sum(sb.Server.State(), postVenta)
	res := w.nx(t, w.runArgs(input)...)
	if res.code != 0 || sum(sb.Server.State(), postVenta) != sent {
		t.Fatalf("after the upgrade: exit %d, %d more sales; want 0 and none\n%s", res.code, sum(sb.Server.State(), postVenta)-sent, res)
	}
	if got := statuses(w.readReport(t, input)); got["skipped"] != 8 {
		t.Errorf("after the upgrade: %v, want 8 skipped", got)
	}
	if !strings.Contains(res.stderr, "app1.production") {
		t.Errorf("the carried-over journal is not said:\n%s", res.stderr)
	}
}

// TestAnotherAPIWithTheSameAppIDCreatesNoDuplicate is the measured hole of
// issue 18: a file sent to one API, then to a second API that also says
// appId 1 and loses answers; reconcile on the second, then the file again.
// The second API receives every sale (none is "already sent"), reconcile
// settles its unknowns from its own vouchers, and no sale is invoiced twice
// on either.
func TestAnotherAPIWithTheSameAppIDCreatesNoDuplicate(t *testing.T) {
	first := startSandbox(t, sandbox.Options{})
	second := startSandbox(t, sandbox.Options{Fail500: 0.1, DropAfter: 0.1, Seed: 5})
	w := newWorkspace(t, first.URL)
	const sales = 40
	input := writeSales(t, w.dir, sales, 840001)
	if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
		t.Fatalf("first API: %s", res)
	}
	w.baseURL = second.URL
	run := w.runArgs("--workers", "4", "--rate", "0", input)
	res := w.nx(t, run...)
	if res.code != 3 && res.code != 1 {
		t.Fatalf("second API with faults: exit %d, want 3 (unknown outcomes) or 1\n%s", res.code, res)
	}
	if got := statuses(w.readReport(t, input)); got["skipped"] != 0 {
		t.Fatalf("second API: %v: rows reported already sent that it never received", got)
	}
	counts := second.Server.State().Requests[postVenta]
	if counts[0] == 0 {
		t.Fatalf("the second sandbox dropped no answer (%v): pick another seed", counts)
	}
	settleReal := sendrules.Scale(3*time.Minute, scale)
	for round := 0; ; round++ {
		entries := recEntries(t, w)
		left := 0
		for _, e := range entries {
			if e.State == journal.Unknown && strings.Contains(e.Key.Tenant, strings.TrimPrefix(second.URL, "http://127.0.0.1")) {
				left++
			}
		}
		if left == 0 {
			break
		}
		if round == 6 {
			t.Fatalf("still %d unknown after 6 rounds", left)
		}
		recSleepUntil(recLastAttempt(entries).Add(settleReal + 100*time.Millisecond))
		if res := w.nx(t, w.recArgs("--settle-after", "3m")...); res.code != 0 {
			t.Fatalf("round %d reconcile on the second API: %s", round, res)
		}
		w.nx(t, run...)
	}
	for _, sb := range []*sandbox.Running{first, second} {
		st := sb.Server.State()
		noDuplicates(t, st)
		byOrden := vouchersByOrden(st)
		for o := int64(840001); o < 840001+sales; o++ {
			if len(byOrden[o]) != 1 {
				t.Errorf("%s: ordenId %d has %d invoices, want 1", sb.URL, o, len(byOrden[o]))
			}
		}
	}
}
