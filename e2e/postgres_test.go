package e2e

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/sandbox"
)

// The PostgreSQL server of this package's tests, started on first use and
// stopped by TestMain's cleanup (see stopPostgres).
var (
	pgOnce   sync.Once
	pgSrv    *pgtest.Server
	pgErr    error
	pgSerial atomic.Int64
)

// postgresDB makes a database for t on the package's server and returns
// its name and URL. Without PostgreSQL the test fails, naming the package.
func postgresDB(t *testing.T) (string, string) {
	t.Helper()
	pgOnce.Do(func() { pgSrv, pgErr = pgtest.Start() })
	if pgErr != nil {
		t.Fatalf("PostgreSQL for the tests: %v", pgErr)
	}
	name := fmt.Sprintf("e2e%d", pgSerial.Add(1))
	url, err := pgSrv.NewDatabase(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return name, url
}

// stopPostgres stops the server if a test started it.
func stopPostgres() {
	if pgSrv != nil {
		if err := pgSrv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "e2e: stop PostgreSQL:", err)
		}
	}
}

// testLease is the lease time of the runs here: a killed run's tenant is
// free a second after its last renewal.
const testLease = "1s"

// machine is one of two machines sharing a journal: its own folder (state,
// reports) and its own files.
type machine struct {
	name  string
	w     *workspace
	args  []string
	sales string
	count string
}

// pgQuery runs one query on the journal's database (as an operator would
// look at it) and scans the rows with scan.
// (It may run on the machines' goroutines: failures are t.Error.)
func pgQuery(t *testing.T, url, sql string, scan func(pgx.Rows) error, args ...any) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Error(err)
		return
	}
	defer c.Close(ctx)
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		t.Error(err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			t.Error(err)
			return
		}
	}
	if err := rows.Err(); err != nil {
		t.Error(err)
	}
}

// TestTwoMachinesOnePostgresJournal runs two "machines" (two nxbatch
// processes, each with its own folder) on files of the same tenant (sales
// that overlap, two stock counts) against one sandbox and one PostgreSQL
// journal, kills each with SIGKILL at random moments several times and
// restarts it, then runs both to the end. Every ordenId holds at most one
// invoice, no movement arrives within the stock window of the previous
// one, and every row is ok, skipped, or unknown for exactly the requests
// that were in flight at the kills: those whose intent a killed run
// committed (before or after the signal: its server may commit what it
// had already received) and whose outcome it never did.
//
// What was in flight is read from the database's own record of every
// change of an entry's state (see auditStates), not from a look at the
// journal after each kill: such a look races with the other machine,
// which may take the tenant (turning the killed run's sending entries
// into unknown) before the look is made.
func TestTwoMachinesOnePostgresJournal(t *testing.T) {
	_, url := postgresDB(t)
	jurl := url + "&lease_ttl=" + testLease
	sb := startSandbox(t, sandbox.Options{Latency: 20 * time.Millisecond})
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	var rngMu sync.Mutex
	randomDelay := func() time.Duration {
		rngMu.Lock()
		defer rngMu.Unlock()
		return time.Duration(rng.IntN(400)) * time.Millisecond
	}

	var ms []*machine
	for i, first := range []int64{610001, 610151} {
		w := newWorkspace(t, sb.URL)
		m := &machine{name: fmt.Sprintf("machine %d", i+1), w: w}
		m.sales = writeSales(t, w.dir, 300, first)
		m.count = stockCount(t, w.dir, "conteo.csv", 150, fmt.Sprintf("Recuento %d", i+1))
		m.args = []string{"run", "--base-url", sb.URL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
			"--journal", jurl, "--report-dir", w.reportDir(), "--no-xlsx", "--wait", "1m", "--timeout", "2s",
			"--workers", "4", "--rate", "0", "--max-articulos", "25", m.sales, m.count}
		ms = append(ms, m)
	}

	// The journal's schema, made before anyone looks at it, and the record
	// of its entries' states.
	j, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	auditStates(t, url)
	// Each machine pulls its catalogs once, one after the other (as a pod
	// whose state folder is a volume keeps them); the tenant is learned by
	// the first and known to the second through the journal. They share
	// the API's parameter window, so each waits for its turn.
	for _, m := range ms {
		if res := m.w.nx(t, "catalog", "pull", "--base-url", sb.URL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
			"--journal", jurl, "--wait", "1m", "--wait-window"); res.code != 0 {
			t.Fatalf("%s: catalog pull: %s", m.name, res)
		}
	}

	var (
		mu      sync.Mutex
		started = map[int]string{} // the runs' pids: the record names runs by them
		killed  = map[int]bool{}
	)
	// start starts one run of m and notes its pid, which must be new: the
	// record could not tell two runs of one pid apart.
	start := func(ctx context.Context, m *machine) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer, bool) {
		cmd, out, errb := m.w.command(ctx, m.args...)
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return nil, nil, nil, false
		}
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := started[cmd.Process.Pid]; ok {
			t.Errorf("pid %d was given to a run of %s and to one of %s: the record cannot tell them apart", cmd.Process.Pid, prev, m.name)
		}
		started[cmd.Process.Pid] = m.name
		return cmd, out, errb, true
	}

	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(func() {
			for range 4 {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				cmd, out, errb, ok := start(ctx, m)
				if !ok {
					cancel()
					return
				}
				waited := make(chan error, 1)
				go func() { waited <- cmd.Wait() }()
				// Kill it at a random moment once it holds the tenant (it
				// may wait for the other machine first), mid-sending.
				holds := time.NewTicker(5 * time.Millisecond)
				var kill <-chan time.Time
			wait:
				for {
					select {
					case err := <-waited:
						t.Logf("%s ended before its kill: %s", m.name, ended(t, err, out, errb))
						break wait
					case <-holds.C:
						if kill == nil && leaseHolder(t, url) == cmd.Process.Pid {
							kill = time.After(randomDelay())
						}
					case <-kill:
						_ = cmd.Process.Signal(syscall.SIGKILL)
						<-waited
						mu.Lock()
						killed[cmd.Process.Pid] = true
						mu.Unlock()
						break wait
					}
				}
				holds.Stop()
				cancel()
			}
		})
	}
	wg.Wait()

	// Both run to the end, at once: one waits for the other.
	results := make([]result, len(ms))
	for i, m := range ms {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd, out, errb, ok := start(ctx, m)
			if !ok {
				results[i] = result{code: -1}
				return
			}
			results[i] = ended(t, cmd.Wait(), out, errb)
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 && r.code != 3 {
			t.Errorf("%s, last run: %s", ms[i].name, r)
		}
	}

	st := sb.Server.State()
	noDuplicates(t, st)
	windowKept(t, st, 3*time.Second, scale)
	if n := st.Requests[postStock][403]; n != 0 {
		t.Errorf("%d movements were refused for the window", n)
	}

	// The requests in flight at the kills, from the record: every intent
	// is followed by its own run's outcome, or (its run killed) by the
	// next holder's turning it unknown.
	inFlight := inFlightAtKills(t, auditedStates(t, url), killed)
	t.Logf("%d kills of the lease holder; %d requests in flight at them", len(killed), len(inFlight))

	// The journal's unknowns are exactly the requests in flight at the kills.
	unknown, err := j.List(context.Background(), journal.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	inFlightUnits := map[string]bool{}
	for _, e := range unknown {
		if !inFlight[e.Key] {
			t.Errorf("%s is unknown (%s) but was not in flight at a kill", e.Key, e.Message)
		}
		for _, u := range e.Units {
			inFlightUnits[u] = true
		}
	}
	if len(unknown) != len(inFlight) {
		t.Errorf("%d unknown entries, %d requests in flight at the kills", len(unknown), len(inFlight))
	}

	// No sale is ok in the journal without its invoice in the sandbox.
	vouchers := vouchersByOrden(st)
	oks, err := j.List(context.Background(), journal.OK)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range oks {
		if e.Key.Kind == "venta" {
			if vs := vouchers[id(t, e.Key.Business)]; len(vs) != 1 {
				t.Errorf("%s is ok in the journal but has %d vouchers", e.Key, len(vs))
			}
		}
	}

	unknownOrden := map[string]bool{}
	for _, m := range ms {
		rows := m.w.readReport(t, m.sales)
		for _, r := range rows {
			orden := r["ordenId"]
			switch r["result.status"] {
			case "ok", "skipped":
				if vs := vouchers[id(t, orden)]; len(vs) != 1 {
					t.Errorf("%s: ordenId %s is %s but has %d vouchers", m.name, orden, r["result.status"], len(vs))
				}
			case "unknown":
				unknownOrden[orden] = true
				if !inFlight[journal.Key{Tenant: unknownTenant(unknown), Kind: "venta", Business: orden}] {
					t.Errorf("%s: ordenId %s is unknown but was not in flight at a kill", m.name, orden)
				}
			default:
				t.Errorf("%s: ordenId %s: %s (%s)", m.name, orden, r["result.status"], r["result.message"])
			}
		}
		t.Logf("%s: sales %v", m.name, statuses(rows))
		for _, r := range m.w.readReport(t, m.count) {
			switch r["result.status"] {
			case "ok", "skipped":
			case "unknown":
				if !inFlightUnits[r["result.rowId"]] {
					t.Errorf("%s: stock row %s is unknown but its movement was not in flight", m.name, r["result.row"])
				}
			default:
				t.Errorf("%s: stock row %s: %s (%s)", m.name, r["result.row"], r["result.status"], r["result.message"])
			}
		}
	}
	ventaInFlight := 0
	for k := range inFlight {
		if k.Kind == "venta" {
			ventaInFlight++
		}
	}
	if len(unknownOrden) != ventaInFlight {
		t.Errorf("%d sales reported unknown, %d were in flight at the kills", len(unknownOrden), ventaInFlight)
	}
	// Everything not in flight at a kill was invoiced once.
	if n := len(vouchers); n < 450-ventaInFlight {
		t.Errorf("%d of 450 sales invoiced, %d in flight at the kills: some were never sent", n, ventaInFlight)
	}
}

// auditStates makes the journal's database record every write of an
// entry's state, in the order the database made them, with the process
// that made it (the pid its connections name: application_name). It is
// the test's, not nxbatch's: a trigger on nxbatch.entries filling a table
// of the public schema. It sees what was committed, and only that (the
// record of a transaction rolled back goes with it), whenever it was
// committed: no look at the journal at a given moment is needed.
func auditStates(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `
		CREATE TABLE public.e2e_states (
			seq      bigserial PRIMARY KEY,
			tenant   text NOT NULL,
			kind     text NOT NULL,
			business text NOT NULL,
			state    text NOT NULL,
			app      text NOT NULL
		);
		CREATE FUNCTION public.e2e_state() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			INSERT INTO public.e2e_states (tenant, kind, business, state, app)
				VALUES (NEW.tenant, NEW.kind, NEW.business, NEW.state, current_setting('application_name'));
			RETURN NULL;
		END
		$$;
		CREATE TRIGGER e2e_state AFTER INSERT OR UPDATE OF state ON nxbatch.entries
			FOR EACH ROW EXECUTE FUNCTION public.e2e_state();`); err != nil {
		t.Fatal(err)
	}
}

// stateWrite is one write of an entry's state that auditStates recorded.
type stateWrite struct {
	key   journal.Key
	state journal.State
	pid   int // of the process that wrote it; 0 when not an nxbatch run's
}

// auditedStates reads the record of auditStates in the order the writes
// were made. Two writes of one entry are in the order they were committed:
// the second waited for the first's lock on the entry's row.
func auditedStates(t *testing.T, url string) []stateWrite {
	t.Helper()
	var ws []stateWrite
	pgQuery(t, url, `SELECT tenant, kind, business, state, app FROM public.e2e_states ORDER BY seq`, func(r pgx.Rows) error {
		var (
			w   stateWrite
			st  string
			app string
		)
		if err := r.Scan(&w.key.Tenant, &w.key.Kind, &w.key.Business, &st, &app); err != nil {
			return err
		}
		w.state = journal.State(st)
		if i := strings.LastIndex(app, " pid "); i >= 0 {
			w.pid, _ = strconv.Atoi(app[i+len(" pid "):])
		}
		ws = append(ws, w)
		return nil
	})
	if len(ws) == 0 {
		t.Fatal("no write of an entry was recorded")
	}
	return ws
}

// inFlightAtKills is the set of requests in flight at the kills, from the
// record of every write of the entries' states: a request whose intent a
// killed run committed and whose outcome it never committed. It fails t
// when the record shows anything else than each intent followed by its
// own run's outcome or, its run killed, by another run's recovery (sending
// becomes unknown when the next holder takes the tenant): an intent left
// sending by a run that was not killed, an unknown written by the run that
// sent the request (this test's requests all get an answer), or an entry
// that a run other than its sender changed otherwise.
func inFlightAtKills(t *testing.T, ws []stateWrite, killed map[int]bool) map[journal.Key]bool {
	t.Helper()
	sender := map[journal.Key]int{} // pid of the run whose intent is pending
	inFlight := map[journal.Key]bool{}
	for _, w := range ws {
		if w.pid == 0 {
			t.Errorf("%s became %s by a connection that is not an nxbatch run's", w.key, w.state)
			continue
		}
		p, pending := sender[w.key]
		switch {
		case w.state == journal.Sending:
			if pending {
				t.Errorf("%s: an intent of pid %d over a pending one of pid %d", w.key, w.pid, p)
			}
			sender[w.key] = w.pid
			delete(inFlight, w.key) // a retried unknown would be sent again
			continue
		case !pending:
			t.Errorf("%s became %s with no intent pending (pid %d)", w.key, w.state, w.pid)
		case w.pid == p && w.state == journal.Unknown:
			t.Errorf("%s: pid %d, which sent it, recorded its outcome as unknown", w.key, p)
		case w.pid != p && w.state != journal.Unknown:
			t.Errorf("%s: pid %d sent it, pid %d recorded it %s", w.key, p, w.pid, w.state)
		case w.pid != p && !killed[p]:
			t.Errorf("%s: pid %d turned it unknown, but pid %d, which sent it, was not killed", w.key, w.pid, p)
		case w.pid != p:
			inFlight[w.key] = true
		}
		delete(sender, w.key)
	}
	for k, p := range sender {
		t.Errorf("%s is still sending (pid %d) after the last runs", k, p)
	}
	return inFlight
}

// leaseHolder is the pid of the process that holds the (one) tenant's
// lease, 0 when none does.
func leaseHolder(t *testing.T, url string) int {
	var pid int
	pgQuery(t, url, `SELECT pid FROM nxbatch.leases WHERE expires > clock_timestamp()`, func(r pgx.Rows) error { return r.Scan(&pid) })
	return pid
}

// unknownTenant is the tenant of the journal's entries (one tenant here).
func unknownTenant(es []journal.Entry) string {
	for _, e := range es {
		return e.Key.Tenant
	}
	return ""
}

// TestPostgresCutMidRun cuts the journal's connections mid-run (and keeps
// new ones out): the run stops sending at once, exits 4 with its reports
// written, and nothing reached the API without a committed intent.
func TestPostgresCutMidRun(t *testing.T) {
	name, url := postgresDB(t)
	sb := startSandbox(t, sandbox.Options{Latency: 20 * time.Millisecond})
	w := newWorkspace(t, sb.URL)
	const sales, workers = 400, 4
	input := writeSales(t, w.dir, sales, 620001)
	args := []string{"run", "--base-url", sb.URL, "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64),
		"--journal", url, "--report-dir", w.reportDir(), "--no-xlsx", "--workers", strconv.Itoa(workers), "--rate", "0", input}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd, out, errb := w.command(ctx, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	for sum(sb.Server.State(), postVenta) < 60 {
		select {
		case err := <-waited:
			t.Fatalf("the run ended before the cut: %s", ended(t, err, out, errb))
		case <-time.After(2 * time.Millisecond):
		}
	}
	if err := pgSrv.Cut(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	atCut := sum(sb.Server.State(), postVenta)
	var res result
	select {
	case err := <-waited:
		res = ended(t, err, out, errb)
	case <-time.After(time.Minute):
		t.Fatal("the run did not stop within a minute of losing its journal")
	}
	t.Logf("stopped %v after the cut", time.Since(cut).Round(time.Millisecond))
	if res.code != 4 {
		t.Errorf("run after its journal was cut: exit %d, want 4\n%s", res.code, res)
	}
	if strings.Contains(res.stdout+res.stderr, pgSrv.Password()) {
		t.Error("the run printed the journal's password")
	}
	if !strings.Contains(res.stderr, "No se pudo escribir en el diario postgres://") || strings.Contains(res.stderr, "stop the run") {
		t.Errorf("the run's last words do not say, in Spanish, that its journal could not be written:\n%s", res.stderr)
	}
	st := sb.Server.State()
	// At most the requests whose intents were committed before the cut were
	// still to arrive: one per worker.
	if after := sum(st, postVenta) - atCut; after > workers {
		t.Errorf("%d requests reached the API after the journal was cut, want at most %d (in flight)", after, workers)
	}
	rows := w.readReport(t, input)
	if len(rows) != sales {
		t.Fatalf("report has %d rows, want %d", len(rows), sales)
	}
	got := statuses(rows)
	if got["pending"] == 0 || got["ok"] == 0 {
		t.Errorf("report after the cut: %v, want rows ok (sent before) and pending (never sent)", got)
	}
	if s := w.readSummary(t, input); s.Stopped == "" {
		t.Error("summary.json does not say why the run stopped")
	}

	// Every request that reached the API had its intent committed first.
	if err := pgSrv.Mend(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	j, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	entries, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	journaled := map[string]bool{}
	for _, e := range entries {
		journaled[e.Key.Business] = true
	}
	for orden := range vouchersByOrden(st) {
		if !journaled[strconv.FormatInt(orden, 10)] {
			t.Errorf("ordenId %d reached the API without a journaled intent", orden)
		}
	}
	if n := len(vouchersByOrden(st)); n == 0 || n >= sales {
		t.Errorf("%d sales invoiced, want some but not all", n)
	}
}
