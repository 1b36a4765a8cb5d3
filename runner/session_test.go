package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/tenant"
)

// startSandbox starts a sandbox on loopback for one test.
func startSandbox(t *testing.T, o sandbox.Options) *sandbox.Running {
	t.Helper()
	if o.TimeScale == 0 {
		o.TimeScale = 0.01
	}
	sb, err := sandbox.Start(sandbox.DemoData(), o, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

// sessionConfig is a Config for a state folder of its own, the journal a
// bbolt file in it; said collects what the Session tells the user.
func sessionConfig(t *testing.T, said *[]msg.Message) Config {
	t.Helper()
	dir := t.TempDir()
	return Config{Timeout: 5 * time.Second, TimeScale: 0.01, StateDir: dir,
		OpenJournal: func(wait time.Duration) (journal.Store, error) {
			return boltjournal.Open(filepath.Join(dir, "journal"), journal.Options{LockTimeout: wait})
		},
		Say: func(m msg.Message) { *said = append(*said, m) }}
}

// TestConnect: the one client constructor refuses what it must (no API,
// a token that cannot be read, the token over plain http to another host)
// and warns when --allow-insecure-http lets it through.
func TestConnect(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	dir := t.TempDir()
	open := filepath.Join(dir, "token")
	if err := os.WriteFile(open, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		cfg     func(*Config)
		wantErr func(error) bool
		wantURL string
		warned  bool
	}{
		{"the embedded sandbox", func(c *Config) { c.Sandbox = sb }, nil, sb.URL, false},
		{"no base URL", func(c *Config) {}, func(err error) bool { return errors.Is(err, ErrNoBaseURL) }, "", false},
		{"a token file others can read", func(c *Config) { c.BaseURL, c.TokenFile = sb.URL, open },
			func(err error) bool { var me *msg.Error; return errors.As(err, &me) }, "", false},
		{"plain http to another host", func(c *Config) {
			c.BaseURL, c.Token = "http://erp.nxbatch-prueba.invalid:8080", apiclient.NewToken("t")
		}, func(err error) bool { return err != nil }, "", false},
		{"plain http allowed", func(c *Config) {
			c.BaseURL, c.Token, c.AllowInsecureHTTP = "http://erp.nxbatch-prueba.invalid:8080", apiclient.NewToken("t"), true
		}, nil, "http://erp.nxbatch-prueba.invalid:8080", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var said []msg.Message
			cfg := sessionConfig(t, &said)
			tc.cfg(&cfg)
			s, err := Connect(cfg)
			if tc.wantErr != nil {
				if !tc.wantErr(err) {
					t.Fatalf("Connect: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.BaseURL(); got != tc.wantURL {
				t.Errorf("BaseURL %q, want %q", got, tc.wantURL)
			}
			warned := len(said) == 1 && said[0].Key == "cli.baseurl.insecure.warn"
			if warned != tc.warned {
				t.Errorf("said %v, want a warning: %v", said, tc.warned)
			}
		})
	}
}

// TestIdentify: the tenant is learned once per Session: in-process for
// the embedded sandbox, by GET /config for an API (bound to the token in
// tenants.json, so that a second Session does not ask again); a refused
// token is the user's words and not a usage error.
func TestIdentify(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	tests := []struct {
		name      string
		cfg       func(*Config)
		wantID    func(s *Session) string
		configGET int // GET /config the first Session asked
		refused   bool
	}{
		{"embedded sandbox", func(c *Config) { c.Sandbox = sb },
			func(*Session) string { return tenant.SandboxID(sb.Server.InstanceID(), c0.Env) }, 0, false},
		{"an API", func(c *Config) { c.BaseURL, c.Token = sb.URL, apiclient.NewToken(sandbox.DefaultToken) },
			func(s *Session) string {
				return tenant.DefaultID(s.Client().Origin(), c0.Env, sb.Server.Config().AppID)
			}, 1, false},
		{"a refused token", func(c *Config) { c.BaseURL, c.Token = sb.URL, apiclient.NewToken("otro") }, nil, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var said []msg.Message
			cfg := sessionConfig(t, &said)
			tc.cfg(&cfg)
			before := configGETs(sb)
			s, err := Connect(cfg)
			if err != nil {
				t.Fatal(err)
			}
			j, err := s.Open(false)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Identify(context.Background(), j, true)
			if tc.refused {
				me, usage := s.Refusal(err)
				if err == nil || usage || me.Msg.Key != "sub.unauthorized" || s.Tenant() != "" {
					t.Fatalf("refused token: %v → %v usage %v, tenant %q", err, me, usage, s.Tenant())
				}
				s.Close()
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.wantID(s); s.Tenant() != want || s.API().Tenant != want {
				t.Errorf("tenant %q (reports %q), want %q", s.Tenant(), s.API().Tenant, want)
			}
			if err := s.Identify(context.Background(), j, true); err != nil {
				t.Fatal(err)
			}
			s.Close()
			// A second Session of the same token finds it bound.
			again, err := Connect(cfg)
			if err != nil {
				t.Fatal(err)
			}
			j2, err := again.Open(false)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if err := again.Identify(context.Background(), j2, true); err != nil || again.Tenant() != s.Tenant() {
				t.Fatalf("second session: %q %v, want %q", again.Tenant(), err, s.Tenant())
			}
			if got := configGETs(sb) - before; got != tc.configGET {
				t.Errorf("%d GET /config, want %d", got, tc.configGET)
			}
		})
	}
}

// c0 is a Config with the defaults Connect fills in.
var c0 = func() Config {
	s, _ := Connect(Config{BaseURL: "http://127.0.0.1:1", Token: apiclient.NewToken("t")})
	return s.cfg
}()

// configGETs is how many GET /config the sandbox answered.
func configGETs(sb *sandbox.Running) int {
	n := 0
	for route, byStatus := range sb.Server.State().Requests {
		if strings.HasPrefix(route, "GET ") && strings.Contains(route, "config") {
			for _, c := range byStatus {
				n += c
			}
		}
	}
	return n
}

// TestLeaseAndCatalogs: the lease is taken once and let go; the catalogs
// validation checks against come through LoadCatalogs, in-process when
// Local answers them, from the API otherwise, and a 401 is
// apiclient.ErrUnauthorized.
func TestLeaseAndCatalogs(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	tests := []struct {
		name    string
		cfg     func(*Config)
		wantErr error
		fetched bool // read from the API, not in-process
		// waited for the parameter window: GET /config, just read to learn
		// the tenant, spent it
		waited bool
	}{
		{"an API", func(c *Config) { c.BaseURL, c.Token = sb.URL, apiclient.NewToken(sandbox.DefaultToken) }, nil, true, true},
		{"the embedded sandbox in-process", func(c *Config) { c.Sandbox, c.Local = sb, localCatalogs{sb.Server} }, nil, false, false},
		{"the embedded sandbox, a refused token", func(c *Config) { c.Sandbox, c.Token = sb, apiclient.NewToken("otro") },
			apiclient.ErrUnauthorized, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var said []msg.Message
			cfg := sessionConfig(t, &said)
			tc.cfg(&cfg)
			s, err := Connect(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			j, err := s.Open(false)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Resolve(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := s.Lease(context.Background(), j); err != nil {
				t.Fatalf("a lease taken again: %v", err)
			}
			before := sb.Server.State().Requests
			waited := false
			cat, _, err := s.LoadCatalogs(context.Background(), j, catalog.Need{MediosPago: true, Motivos: true}, time.Hour,
				func(catalog.Name, time.Time) { waited = true })
			if waited != tc.waited {
				t.Errorf("waited for the parameter window: %v, want %v", waited, tc.waited)
			}
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("LoadCatalogs: %v, want %v", err, tc.wantErr)
			}
			after := sb.Server.State().Requests
			if asked := requests(after) > requests(before); asked != tc.fetched {
				t.Errorf("asked the API: %v, want %v", asked, tc.fetched)
			}
			if tc.wantErr == nil && (cat == nil || cat.MediosPago == nil || len(cat.Motivos) == 0) {
				t.Errorf("catalogs %+v, want both", cat)
			}
		})
	}
}

// requests counts every request a sandbox answered.
func requests(byRoute map[string]map[int]int) int {
	n := 0
	for _, byStatus := range byRoute {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}

// localCatalogs answers a sandbox's catalogs in-process, as the command
// line does for its embedded sandbox.
type localCatalogs struct{ s *sandbox.Server }

func (l localCatalogs) MediosPago(context.Context) (*nxapi.MediosPagoConfig, error) {
	m := l.s.MediosPago()
	return &m, nil
}

func (l localCatalogs) Motivos(context.Context) ([]nxapi.Motivo, error) { return l.s.Motivos(), nil }
