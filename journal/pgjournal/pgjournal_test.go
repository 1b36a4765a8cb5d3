package pgjournal_test

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
)

func mustOpen(t *testing.T, url string, o journal.Options) *pgjournal.Store {
	t.Helper()
	s, err := openPG(t, url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func acquire(t *testing.T, s journal.Store, tenant string) {
	t.Helper()
	if _, err := s.Acquire(context.Background(), tenant, 0); err != nil {
		t.Fatalf("Acquire(%s): %v", tenant, err)
	}
}

// TestTenantsProceedInParallel: two machines on one journal send for two
// tenants at once; each is kept out of the other's tenant.
func TestTenantsProceedInParallel(t *testing.T) {
	_, url := newDB(t)
	a, b := mustOpen(t, url, journal.Options{}), mustOpen(t, url, journal.Options{})
	acquire(t, a, "t1")
	acquire(t, b, "t2")
	for _, c := range []struct {
		s      journal.Store
		tenant string
	}{{a, "t1"}, {b, "t2"}} {
		if _, err := c.s.Begin(context.Background(), journal.Key{Tenant: c.tenant, Kind: "venta", Business: "1"}, journal.Intent{BodyHash: "h"}); err != nil {
			t.Errorf("Begin for %s: %v", c.tenant, err)
		}
	}
	if _, err := a.Begin(context.Background(), journal.Key{Tenant: "t2", Kind: "venta", Business: "2"}, journal.Intent{BodyHash: "h"}); !errors.Is(err, journal.ErrNoLease) {
		t.Errorf("Begin for a tenant another machine holds = %v, want ErrNoLease", err)
	}
	_, err := a.Acquire(context.Background(), "t2", 0)
	var me *msg.Error
	if !errors.Is(err, journal.ErrLocked) || !errors.As(err, &me) {
		t.Fatalf("Acquire of a tenant another machine holds = %v, want ErrLocked", err)
	}
	got := me.Msg.In(msg.ES)
	for _, want := range []string{"Otra ejecución de nxbatch está usando el diario", "para la integración t2", "en test, pid"} {
		if !strings.Contains(got, want) {
			t.Errorf("locked message %q does not say %q", got, want)
		}
	}
}

// TestLostLeaseStopsSending: a run that stopped renewing its lease (a
// stopped process, a cut network) is declared gone once it expires; the
// next run takes the tenant, its in-flight entry becomes unknown, and the
// first run can neither begin anything more nor record an ok over the
// unknown.
func TestLostLeaseStopsSending(t *testing.T) {
	_, url := newDB(t)
	a, b := mustOpen(t, url, journal.Options{}), mustOpen(t, url, journal.Options{})
	acquire(t, a, "t")
	k1, k2 := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Key{Tenant: "t", Kind: "venta", Business: "2"}
	if _, err := a.Begin(context.Background(), k1, journal.Intent{BodyHash: "h"}); err != nil {
		t.Fatal(err)
	}
	pgjournal.PauseHeartbeats(a)
	// b waits for the lease (a minute at most, a hang guard): it gets it
	// only once a's expired, never by a's release. How soon after the
	// lease time is not timed here (the suite must pass on a loaded
	// machine).
	if _, err := b.Acquire(context.Background(), "t", time.Minute); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := b.Get(context.Background(), k1); e.State != journal.Unknown {
		t.Errorf("the gone run's in-flight entry is %s, want unknown", e.State)
	}
	_, err := a.Begin(context.Background(), k2, journal.Intent{BodyHash: "h"})
	if !errors.Is(err, pgjournal.ErrLeaseLost) {
		t.Fatalf("Begin after the lease was taken = %v, want ErrLeaseLost", err)
	}
	if err := a.Finish(context.Background(), k1, journal.Outcome{State: journal.OK, FacturaID: 5}); err == nil {
		t.Error("Finish as ok over an entry the next run declared unknown succeeded")
	}
	if _, found, _ := b.Get(context.Background(), k2); found {
		t.Error("an intent was recorded without the lease")
	}
	if e, _, _ := b.Get(context.Background(), k1); e.State != journal.Unknown || e.FacturaID != 0 {
		t.Errorf("entry after the gone run's Finish = %+v, want still unknown", e)
	}
}

// TestResolveOfSendingWaitsForItsRun: an operator cannot settle an entry a
// live run on another machine is still waiting on.
func TestResolveOfSendingWaitsForItsRun(t *testing.T) {
	_, url := newDB(t)
	a, op := mustOpen(t, url, journal.Options{}), mustOpen(t, url, journal.Options{})
	acquire(t, a, "t")
	k := journal.Key{Tenant: "t", Kind: "facturar", Business: "9"}
	if _, err := a.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
		t.Fatal(err)
	}
	if err := op.Resolve(context.Background(), k, journal.Verdict{As: journal.Failed, Note: "no está"}); !errors.Is(err, journal.ErrLocked) {
		t.Errorf("Resolve of an entry in flight on a live run = %v, want ErrLocked", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := op.Resolve(context.Background(), k, journal.Verdict{As: journal.Failed, Note: "no está"}); err != nil {
		t.Errorf("Resolve once that run is gone: %v", err)
	}
}

// TestSchemaMigratedOnceAndNewerRefused: machines starting at once on a new
// database create the schema once; a schema from a newer nxbatch is refused.
func TestSchemaMigratedOnceAndNewerRefused(t *testing.T) {
	name, url := newDB(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			s, err := openPG(t, url, journal.Options{})
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Errorf("concurrent Open: %v", err)
		}
	}
	ctx := context.Background()
	if err := srv.Exec(ctx, name, `DO $$ BEGIN IF (SELECT count(*) FROM nxbatch.migrations) <> `+
		strconv.Itoa(pgjournal.SchemaVersion())+` THEN RAISE EXCEPTION 'migrations applied twice'; END IF; END $$`); err != nil {
		t.Error(err)
	}
	if err := srv.Exec(ctx, name, `INSERT INTO nxbatch.migrations (version, name, by) VALUES (99, '099_future.sql', 'nxbatch v9')`); err != nil {
		t.Fatal(err)
	}
	_, err := openPG(t, url, journal.Options{})
	var me *msg.Error
	if !errors.Is(err, pgjournal.ErrNewerSchema) || !errors.As(err, &me) || !strings.Contains(me.Msg.In(msg.ES), "versión más nueva de nxbatch (esquema 99") {
		t.Errorf("Open of a newer schema = %v, want refused saying so", err)
	}
}

// TestDurableSessions: every intent is committed with synchronous_commit on,
// whatever the server's default.
func TestDurableSessions(t *testing.T) {
	name, url := newDB(t)
	if err := srv.Exec(context.Background(), "postgres", `ALTER DATABASE `+name+` SET synchronous_commit = off`); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, url, journal.Options{})
	if v, err := pgjournal.Setting(s, "synchronous_commit"); err != nil || v != "on" {
		t.Errorf("synchronous_commit = %q, %v; want on", v, err)
	}
}

// TestPasswordNeverShown: the URL's password appears in no message, error
// or display of the journal.
func TestPasswordNeverShown(t *testing.T) {
	_, url := newDB(t)
	pw := srv.Password()
	s := mustOpen(t, url, journal.Options{})
	acquire(t, s, "t")
	other := mustOpen(t, url+"&lease_ttl=5s", journal.Options{})
	_, lockErr := other.Acquire(context.Background(), "t", 0)
	wrongPort := strings.Replace(url, ":"+strconv.Itoa(srv.Port)+"/", ":1/", 1)
	_, portErr := openPG(t, wrongPort, journal.Options{})
	_, badErr := openPG(t, strings.Replace(url, "?", "?lease_ttl=soon&", 1), journal.Options{})
	wrongPW := strings.Replace(url, pw, pw+"x", 1)
	_, pwErr := openPG(t, wrongPW, journal.Options{})
	for _, c := range []struct {
		what string
		text string
	}{
		{"Path", s.Path()},
		{"locked error", lockErr.Error()},
		{"locked message", msgOf(lockErr)},
		{"unreachable error", errText(portErr)},
		{"unreachable message", msgOf(portErr)},
		{"bad parameter", errText(badErr) + msgOf(badErr)},
		{"wrong password", errText(pwErr) + msgOf(pwErr)},
		{"redacted parameter", pgjournal.Redact("postgres://u@h/db?password=" + pw)},
	} {
		if strings.Contains(c.text, pw) || c.text == "" {
			t.Errorf("%s shows the password, or nothing: %q", c.what, c.text)
		}
	}
	if !strings.Contains(msgOf(portErr), "127.0.0.1:1/") || !strings.Contains(msgOf(portErr), "No se pudo usar el diario") {
		t.Errorf("unreachable journal: %v, want the connection failure naming the address", portErr)
	}
	if portErr == nil || pwErr == nil || badErr == nil {
		t.Errorf("opens that must fail: port %v, password %v, parameter %v", portErr, pwErr, badErr)
	}
	if !strings.HasPrefix(s.Path(), "postgres://nxbatch@127.0.0.1:") {
		t.Errorf("Path = %q, want the URL with its user and without the password", s.Path())
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func msgOf(err error) string {
	var me *msg.Error
	if errors.As(err, &me) {
		return me.Msg.In(msg.ES) + me.Msg.In(msg.EN)
	}
	return ""
}

// TestLeaseTimeFromURL: lease_ttl in the URL sets how long a lease outlives
// its last renewal.
func TestLeaseTimeFromURL(t *testing.T) {
	_, url := newDB(t)
	s, err := pgjournal.Open(context.Background(), url+"&lease_ttl=7s", pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	acquire(t, s, "t")
	if d, err := pgjournal.LeaseLength(s, "t"); err != nil || d != 7*time.Second {
		t.Errorf("lease length = %v, %v; want 7s", d, err)
	}
	def, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer def.Close()
	acquire(t, def, "u")
	if d, err := pgjournal.LeaseLength(def, "u"); err != nil || d != pgjournal.DefaultLeaseTTL {
		t.Errorf("default lease length = %v, %v; want %v", d, err, pgjournal.DefaultLeaseTTL)
	}
}

// TestRunRoleWithoutCreate: once the schema is created (by a role with
// CREATE on the database), a role with only USAGE on the schema and
// SELECT, INSERT, UPDATE and DELETE on its tables runs a tenant from start
// to end, as docs/integrators.md says; before the schema exists it is told
// to create it with the owner first.
func TestRunRoleWithoutCreate(t *testing.T) {
	name, url := newDB(t)
	ctx := context.Background()
	role, runURL := runRole(t, name, url)

	_, err := openPG(t, runURL, journal.Options{})
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.Key != "pgj.nocreate" {
		t.Errorf("Open by a role without CREATE on a new database = %v, want pgj.nocreate", err)
	}

	mustOpen(t, url, journal.Options{}).Close() // the owner creates the schema
	if err := srv.Exec(ctx, name, `GRANT USAGE ON SCHEMA nxbatch TO `+role+`;
		GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA nxbatch TO `+role); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, runURL, journal.Options{})
	release, err := s.Acquire(ctx, "t", 0)
	if err != nil {
		t.Fatalf("Acquire by the run role: %v", err)
	}
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	if _, err := s.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Units: []journal.Unit{{ID: "u1", BodyHash: "h"}},
		Window: &journal.Mark{Tenant: "t", Name: "stock", Next: time.Now()}}); err != nil {
		t.Fatalf("Begin by the run role: %v", err)
	}
	if err := s.Finish(context.Background(), k, journal.Outcome{State: journal.Unknown}); err != nil {
		t.Fatalf("Finish by the run role: %v", err)
	}
	if err := s.Resolve(context.Background(), k, journal.Verdict{As: journal.OK, Note: "en el ERP"}); err != nil {
		t.Errorf("Resolve by the run role: %v", err)
	}
	if err := s.SetNextAllowed(context.Background(), "t", "params", time.Now()); err != nil {
		t.Errorf("SetNextAllowed by the run role: %v", err)
	}
	if es, err := s.List(context.Background(), ""); err != nil || len(es) != 1 || es[0].State != journal.OK {
		t.Errorf("List by the run role = %v, %v; want the one entry, ok", es, err)
	}
	if err := release(); err != nil {
		t.Errorf("release by the run role: %v", err)
	}
}

// TestCutJournalSaysSo: a journal whose database is cut mid-run fails the
// next write, and every later one, with a message in the user's words that
// names the journal without its password.
func TestCutJournalSaysSo(t *testing.T) {
	name, url := newDB(t)
	ctx := context.Background()
	s := mustOpen(t, url, journal.Options{})
	acquire(t, s, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	if _, err := s.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.Cut(ctx, name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Mend(ctx, name) })
	_, err := s.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "2"}, journal.Intent{BodyHash: "h"})
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.Key != "pgj.failed" {
		t.Fatalf("Begin after the cut = %v, want pgj.failed", err)
	}
	es := me.In(msg.ES)
	if !strings.Contains(es, "No se pudo escribir en el diario postgres://nxbatch@127.0.0.1:") || strings.Contains(es+err.Error(), srv.Password()) {
		t.Errorf("Begin after the cut says %q, want the journal named without its password", es)
	}
	if err2 := s.Finish(context.Background(), k, journal.Outcome{State: journal.OK}); !errors.Is(err2, err) && (err2 == nil || err2.Error() != err.Error()) {
		t.Errorf("Finish after the cut = %v, want the same failure %v", err2, err)
	}
}

// runRole creates a login role with no privilege of its own in database
// name (dropped when the test ends) and returns url with it in place of
// the owner: a role for the runs, as docs/integrators.md describes.
func runRole(t *testing.T, name, url string) (role, runURL string) {
	t.Helper()
	ctx := context.Background()
	role, pw := name+"_run", "run-"+name+"-pw"
	if err := srv.Exec(ctx, "postgres", `CREATE ROLE `+role+` LOGIN PASSWORD '`+pw+`'`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Exec(ctx, name, `DROP OWNED BY `+role)
		_ = srv.Exec(ctx, "postgres", `DROP ROLE `+role)
	})
	runURL = strings.Replace(url, "nxbatch:"+srv.Password()+"@", role+":"+pw+"@", 1)
	if runURL == url {
		t.Fatalf("URL %q has no user and password to replace", url)
	}
	return role, runURL
}

// v2Entry is what an entry of schema version 2 holds, read with SQL.
type v2Entry struct {
	business, bodyHash, state, source, message string
	attempts                                   int
	first, last                                time.Time
	facturaID                                  int64
}

func readV2(t *testing.T, url string) []v2Entry {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rows, err := c.Query(ctx, `SELECT business, body_hash, state, source, message, attempts, first_at, last_at, factura_id
		FROM nxbatch.entries ORDER BY business`)
	if err != nil {
		t.Fatal(err)
	}
	var out []v2Entry
	for rows.Next() {
		var e v2Entry
		if err := rows.Scan(&e.business, &e.bodyHash, &e.state, &e.source, &e.message, &e.attempts, &e.first, &e.last, &e.facturaID); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUpgradeFromSchema2: a database an nxbatch of schema version 2 wrote
// (entries begun through its begin_intent, one unknown and one ok) is
// refused to a run role that cannot migrate it, saying which versions and
// to run once as the owner; the owner's next open migrates it (version 3
// brought the facts), keeping every entry as it was, with no facts; the run role then
// begins attempts with their facts through the new begin_intent, which
// replaced the old one.
func TestUpgradeFromSchema2(t *testing.T) {
	name, url := newDB(t)
	ctx := context.Background()
	now := strconv.Itoa(pgjournal.SchemaVersion())
	if err := pgjournal.MigrateTo(ctx, url, 2); err != nil {
		t.Fatal(err)
	}
	role, runURL := runRole(t, name, url)
	if err := srv.Exec(ctx, name, `GRANT USAGE ON SCHEMA nxbatch TO `+role+`;
		GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA nxbatch TO `+role); err != nil {
		t.Fatal(err)
	}
	// What nxbatch with schema 2 did: a lease, two intents through its
	// begin_intent (18 arguments), their outcomes.
	begin2 := func(business string) string {
		return `IF (SELECT outcome FROM nxbatch.begin_intent('t', 'venta', '` + business + `', 'old-run', ARRAY[]::bigint[],
			'hash-` + business + `', 'ventas.csv fila ` + business + `', 30000000, now(), false,
			'{}', '{}', '{}', '{}', '{}', '', '', now())) <> 'begun' THEN RAISE EXCEPTION 'begin %', '` + business + `'; END IF;`
	}
	if err := srv.Exec(ctx, name, `DO $$ BEGIN
		INSERT INTO nxbatch.leases (tenant, holder, host, pid, acquired, renewed, expires)
			VALUES ('t', 'old-run', 'old', 1, now(), now(), now() + interval '1 hour');
		`+begin2("1")+begin2("2")+`
		UPDATE nxbatch.entries SET state = 'unknown', held = now(), message = 'se cortó la conexión' WHERE business = '1';
		UPDATE nxbatch.entries SET state = 'ok', held = now(), factura_id = 9001, numero = 7 WHERE business = '2';
		DELETE FROM nxbatch.leases;
		END $$`); err != nil {
		t.Fatal(err)
	}
	before := readV2(t, url)
	if len(before) != 2 || before[0].state != "unknown" || before[1].facturaID != 9001 {
		t.Fatalf("schema 2 entries = %+v", before)
	}

	_, err := openPG(t, runURL, journal.Options{})
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.Key != "pgj.nocreate" || !strings.Contains(me.Msg.In(msg.ES), "tiene la versión 2; esta nxbatch usa la "+now+")") {
		t.Fatalf("Open of schema 2 by a role that cannot migrate = %v, want pgj.nocreate naming versions 2 and %s", err, now)
	}
	if got := readV2(t, url); !reflect.DeepEqual(got, before) {
		t.Errorf("the refused open changed the entries: %+v", got)
	}

	mustOpen(t, url, journal.Options{}).Close() // the owner migrates
	if err := srv.Exec(ctx, name, `DO $$ BEGIN
		IF (SELECT max(version) FROM nxbatch.migrations) <> `+now+` THEN RAISE EXCEPTION 'not migrated'; END IF;
		IF (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
			WHERE n.nspname = 'nxbatch' AND p.proname = 'begin_intent') <> 1 THEN RAISE EXCEPTION 'begin_intent overloaded'; END IF;
		END $$`); err != nil {
		t.Error(err)
	}

	s := mustOpen(t, runURL, journal.Options{})
	es, err := s.List(context.Background(), "")
	if err != nil || len(es) != len(before) {
		t.Fatalf("List after the upgrade = %v, %v", es, err)
	}
	for i, e := range es {
		b := before[i]
		if e.Key.Business != b.business || e.BodyHash != b.bodyHash || string(e.State) != b.state || e.Source != b.source ||
			e.Message != b.message || e.Attempts != b.attempts || !e.First.Equal(b.first) || !e.Last.Equal(b.last) ||
			e.FacturaID != b.facturaID || e.Facts != "" {
			t.Errorf("after the upgrade %+v, want %+v with no facts", e, b)
		}
	}

	if _, err := s.Acquire(ctx, "t", 0); err != nil {
		t.Fatal(err)
	}
	unk := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	if err := s.Resolve(context.Background(), unk, journal.Verdict{As: journal.Failed, Note: "no está en el ERP"}); err != nil {
		t.Fatal(err)
	}
	const facts = `{"total":"1500","puntoVentaId":2}`
	got, err := s.Begin(context.Background(), unk, journal.Intent{BodyHash: "hash-1b", Facts: facts})
	if err != nil || got.Facts != facts || got.Attempts != 2 {
		t.Fatalf("Begin with facts after the upgrade = %+v, %v", got, err)
	}
	if err := s.Finish(context.Background(), unk, journal.Outcome{State: journal.Unknown, Message: "HTTP 500"}); err != nil {
		t.Fatal(err)
	}
	if e, _, err := s.Get(context.Background(), unk); err != nil || e.Facts != facts || e.BodyHash != "hash-1b" || e.State != journal.Unknown {
		t.Errorf("after Finish = %+v, %v; want the attempt's facts kept", e, err)
	}
}
