package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
)

// followed records what a send told its Progress.
type followed struct {
	mu        sync.Mutex
	notes     []string
	validated int
	planned   int
	settled   int
	rows      map[pipeline.Status]int
}

func (f *followed) Note(m msg.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notes = append(f.notes, m.Key)
}

func (f *followed) Validated(*pipeline.File) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.validated++
}

func (f *followed) Planned(toSend int, _ time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.planned = toSend
}

func (f *followed) Settled(done int, st pipeline.Settled) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settled = max(f.settled, done)
	if f.rows == nil {
		f.rows = map[pipeline.Status]int{}
	}
	for s, n := range st.Rows {
		f.rows[s] += n
	}
}

// TestSend: the whole flow of run and the page, from files to reports,
// against a sandbox: a send, the same file again (nothing left), a file
// that cannot be read, a token refused reading the catalogs (nothing
// sent, the rows say why), and a tenant that cannot be learned (reports
// only when asked for).
func TestSend(t *testing.T) {
	// Each case has a sandbox of its own: one that already holds a sale's
	// key would not take it again.
	embedded := func(c *Config, sb *sandbox.Running) { c.Sandbox, c.Local = sb, localCatalogs{sb.Server} }
	refusedCatalogs := func(c *Config, sb *sandbox.Running) { c.Sandbox, c.Token = sb, apiclient.NewToken("otro") }
	refusedAPI := func(c *Config, sb *sandbox.Running) { c.BaseURL, c.Token = sb.URL, apiclient.NewToken("otro") }
	missing := filepath.Join(t.TempDir(), "no-existe.csv")
	tests := []struct {
		name       string
		cfg        func(*Config, *sandbox.Running)
		paths      []string
		twice      bool // send the same files twice in one state folder
		unstarted  bool // ReportUnstarted
		wantStep   Step
		wantSent   int
		wantToSend int
		wantLoad   int // files that could not be read
		wantWhy    string
		wantRows   map[pipeline.Status]int // of the reports' first file
		reports    bool
	}{
		{name: "a send", cfg: embedded, paths: []string{"ventas.csv"}, wantSent: 4, wantToSend: 4,
			wantRows: map[pipeline.Status]int{pipeline.StatusOK: 6}, reports: true},
		{name: "the same file again", cfg: embedded, paths: []string{"ventas.csv"}, twice: true,
			wantRows: map[pipeline.Status]int{pipeline.StatusSkipped: 6}, reports: true},
		{name: "a file that cannot be read", cfg: embedded, paths: []string{missing, "facturar.csv"}, wantLoad: 1,
			wantSent: 5, wantToSend: 5, reports: true},
		{name: "a token refused reading the catalogs", cfg: refusedCatalogs, paths: []string{"ventas.csv"},
			wantWhy: "sub.unauthorized", wantRows: map[pipeline.Status]int{pipeline.StatusPending: 6}, reports: true},
		{name: "a tenant that cannot be learned", cfg: refusedAPI, paths: []string{"ventas.csv"}, wantStep: StepTenant},
		{name: "a tenant that cannot be learned, reported", cfg: refusedAPI, paths: []string{"ventas.csv"}, unstarted: true,
			wantStep: StepTenant, wantWhy: "sub.unauthorized", wantRows: map[pipeline.Status]int{pipeline.StatusPending: 6}, reports: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var said []msg.Message
			cfg := sessionConfig(t, &said)
			sb := startSandbox(t, sandbox.Options{})
			tc.cfg(&cfg, sb)
			dir := t.TempDir()
			var paths []string
			for _, p := range tc.paths {
				if !filepath.IsAbs(p) {
					b, err := os.ReadFile(filepath.Join("..", "samples", p))
					if err != nil {
						t.Fatal(err)
					}
					p = filepath.Join(dir, p)
					if err := os.WriteFile(p, b, 0o600); err != nil {
						t.Fatal(err)
					}
				}
				paths = append(paths, p)
			}
			send := func() (Sent, *followed, int) {
				s, err := Connect(cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				j, err := s.Open(false)
				if err != nil {
					t.Fatal(err)
				}
				p := &followed{}
				loadFailed := 0
				sent := Send(context.Background(), s, j, SendOptions{Paths: paths, CatalogTTL: time.Hour, WaitTenant: true,
					LoadFailed:      func(string, error) { loadFailed++ },
					Submit:          pipeline.SubmitOptions{Workers: 2, Timeout: 5 * time.Second},
					Report:          pipeline.ReportOptions{Dir: dir, Lang: msg.ES, Command: "run"},
					ReportUnstarted: tc.unstarted, Progress: p})
				return sent, p, loadFailed
			}
			vouchers := len(sb.Server.State().Vouchers)
			sent, p, loadFailed := send()
			if tc.twice {
				vouchers = len(sb.Server.State().Vouchers)
				sent, p, loadFailed = send()
			}
			var se *StartError
			if errors.As(sent.NotStarted, &se) != (tc.wantStep != "") || (se != nil && se.Step != tc.wantStep) {
				t.Fatalf("NotStarted %v, want step %q", sent.NotStarted, tc.wantStep)
			}
			if got := len(sb.Server.State().Vouchers) - vouchers; got != tc.wantSent || sent.Sent != tc.wantSent {
				t.Errorf("%d vouchers created, %d said sent, want %d", got, sent.Sent, tc.wantSent)
			}
			if sent.ToSend != tc.wantToSend || (tc.wantStep == "" && tc.wantWhy == "" && p.planned != tc.wantToSend) {
				t.Errorf("ToSend %d, planned %d, want %d", sent.ToSend, p.planned, tc.wantToSend)
			}
			if p.settled != tc.wantSent {
				t.Errorf("progress saw %d settled, want %d", p.settled, tc.wantSent)
			}
			if len(sent.LoadErrors) != tc.wantLoad || loadFailed != tc.wantLoad {
				t.Errorf("load errors %v (told %d), want %d", sent.LoadErrors, loadFailed, tc.wantLoad)
			}
			if sent.Why.Key != tc.wantWhy {
				t.Errorf("why %q, want %q", sent.Why.Key, tc.wantWhy)
			}
			if (len(sent.Written) > 0) != tc.reports || sent.ReportErr != nil {
				t.Fatalf("reports %+v (%v), want written: %v", sent.Written, sent.ReportErr, tc.reports)
			}
			if tc.reports && tc.wantRows != nil {
				for st, n := range tc.wantRows {
					if got := sent.Written[0].Rows[st]; got != n {
						t.Errorf("rows %v, want %d %s", sent.Written[0].Rows, n, st)
					}
				}
			}
			if tc.wantStep == "" && tc.wantWhy == "" && p.validated != len(tc.paths)-tc.wantLoad {
				t.Errorf("%d files validated, want %d", p.validated, len(tc.paths)-tc.wantLoad)
			}
		})
	}
}

// TestSendUnderAnotherLease: on a journal machines share (PostgreSQL), a
// send takes the tenant's lease; while another machine's run of the same
// tenant holds it, nothing is sent and no report is written (they are
// that run's to write), even when asked to report a send that did not
// start. Once let go, the send goes through and lets the lease go after.
func TestSendUnderAnotherLease(t *testing.T) {
	pg, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop() })
	ctx := context.Background()
	url, err := pg.NewDatabase(ctx, "runner")
	if err != nil {
		t.Fatal(err)
	}
	sb := startSandbox(t, sandbox.Options{})
	var said []msg.Message
	cfg := sessionConfig(t, &said)
	cfg.Sandbox, cfg.Local = sb, localCatalogs{sb.Server}
	cfg.OpenJournal = func(time.Duration) (journal.Store, error) {
		return pgjournal.Open(ctx, url, pgjournal.Options{})
	}
	other, err := pgjournal.Open(ctx, url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ventas.csv")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Connect(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	j, _, err := s.OpenJournal(0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := s.Identify(ctx, j, true); err != nil {
		t.Fatal(err)
	}
	letGo, err := other.Acquire(ctx, s.Tenant(), 0)
	if err != nil {
		t.Fatal(err)
	}
	o := SendOptions{Paths: []string{path}, CatalogTTL: time.Hour, ReportUnstarted: true,
		Submit: pipeline.SubmitOptions{Workers: 2, Timeout: 5 * time.Second},
		Report: pipeline.ReportOptions{Dir: dir, Lang: msg.ES, Command: "run"}}
	tests := []struct {
		name     string
		before   func()
		wantStep Step
		wantSent int
	}{
		{"under another machine's lease", func() {}, StepLease, 0},
		{"once it is let go", func() {
			if err := letGo(); err != nil {
				t.Fatal(err)
			}
		}, "", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.before()
			sent := Send(ctx, s, j, o)
			s.LetGo()
			var se *StartError
			if errors.As(sent.NotStarted, &se) != (tc.wantStep != "") || (se != nil && (se.Step != tc.wantStep || !errors.Is(se, journal.ErrLocked))) {
				t.Fatalf("NotStarted %v, want step %q", sent.NotStarted, tc.wantStep)
			}
			if sent.Sent != tc.wantSent || len(sb.Server.State().Vouchers) != tc.wantSent {
				t.Errorf("sent %d (%d vouchers), want %d", sent.Sent, len(sb.Server.State().Vouchers), tc.wantSent)
			}
			if reported := len(sent.Written) > 0; reported != (tc.wantStep == "") {
				t.Errorf("reports written: %v, want %v", reported, tc.wantStep == "")
			}
		})
	}
	// The send let the lease go: the other machine takes it again.
	release, err := other.Acquire(ctx, s.Tenant(), 0)
	if err != nil {
		t.Fatalf("the lease after the send: %v", err)
	}
	_ = release()
}
