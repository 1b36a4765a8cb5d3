package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
)

// pg is this package's PostgreSQL server; each test makes its databases.
var (
	pg       *pgtest.Server
	pgErr    error
	pgSerial atomic.Int64
)

func TestMain(m *testing.M) {
	pg, pgErr = pgtest.Start()
	code := m.Run()
	if pg != nil {
		if err := pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop PostgreSQL:", err)
		}
	}
	os.Exit(code)
}

// pgURL is the URL of a new database for t; without PostgreSQL the test
// fails, naming the package to install.
func pgURL(t *testing.T) string {
	t.Helper()
	if pgErr != nil {
		t.Fatalf("PostgreSQL for the tests: %v", pgErr)
	}
	u, err := pg.NewDatabase(context.Background(), fmt.Sprintf("cmd%d", pgSerial.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// nxcli runs nxbatch in-process with state under dir.
func nxcli(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb,
		getenv: func(k string) string {
			if k == "XDG_STATE_HOME" {
				return filepath.Join(dir, "state")
			}
			return ""
		},
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	err := run(e, args)
	if err != nil {
		errb.WriteString(render(err, langOf(args)))
	}
	return exitCode(err), out.String(), errb.String()
}

// fillJournal journals a few requests of every kind and state, with units
// and windows, in the bbolt file at path.
func fillJournal(t *testing.T, path string) []journal.Entry {
	t.Helper()
	j, err := boltjournal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i, st := range []journal.State{journal.OK, journal.Rejected, journal.Unknown, journal.Unsent, journal.OK} {
		k := journal.Key{Tenant: "app7@production", Kind: "venta", Business: fmt.Sprint(900 + i)}
		facts := fmt.Sprintf(`{"total":"%d.50","email":"c%d@example.com","puntoVentaId":2}`, 1500+i, i)
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "ventas.csv fila 2", Facts: facts, Hold: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		if err := j.Finish(context.Background(), k, journal.Outcome{State: st, FacturaID: int64(i), Numero: int64(10 + i), Message: "=1+1 «ñ»"}); err != nil {
			t.Fatal(err)
		}
	}
	m := journal.Key{Tenant: "app7@production", Kind: "stock", Business: "mv1"}
	if _, err := j.Begin(context.Background(), m, journal.Intent{BodyHash: "b", Units: []journal.Unit{{ID: "r1", BodyHash: "x", Body: "3"}, {ID: "r2", BodyHash: "y", Body: "4"}},
		Window: &journal.Mark{Tenant: "app7@production", Name: "stock/movimiento", Next: time.Now().Add(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(context.Background(), m, journal.Outcome{State: journal.OK, FacturaID: 55}); err != nil {
		t.Fatal(err)
	}
	if err := j.Resolve(context.Background(), journal.Key{Tenant: "app7@production", Kind: "venta", Business: "902"}, journal.Verdict{As: journal.Failed, Note: "no está"}); err != nil {
		t.Fatal(err)
	}
	es, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestJournalCopyRoundTrip copies a bbolt journal into PostgreSQL and back
// into a new file: every entry comes back as it was (to the microsecond
// PostgreSQL keeps), a second copy writes nothing, and a copy over an
// entry that differs is refused with the entry named.
func TestJournalCopyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src, back := filepath.Join(dir, "a", "journal"), filepath.Join(dir, "b", "journal")
	want := fillJournal(t, src)
	url := pgURL(t)

	for _, c := range []struct {
		from, to string
		written  string
	}{{src, url, ": 9; ya estaban iguales"}, {url, back, ": 9; ya estaban iguales"}, {src, url, ": 0; ya estaban iguales"}} {
		code, out, errs := nxcli(t, dir, "journal", "copy", "--from", c.from, "--to", c.to)
		if code != 0 || !strings.Contains(out, c.written) {
			t.Fatalf("copy %s -> %s: exit %d\n%s%s", pgjournal.Redact(c.from), pgjournal.Redact(c.to), code, out, errs)
		}
		if strings.Contains(out+errs, pg.Password()) {
			t.Errorf("copy printed the password:\n%s%s", out, errs)
		}
	}
	j, err := boltjournal.Open(back, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := j.List(context.Background(), "")
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	trunc := cmp.Transformer("µs", func(t time.Time) time.Time { return t.Truncate(time.Microsecond) })
	if diff := cmp.Diff(want, got, trunc); diff != "" {
		t.Errorf("bbolt -> PostgreSQL -> bbolt changed entries (-want +got):\n%s", diff)
	}
	withFacts := 0
	for _, e := range got {
		if e.Facts != "" {
			withFacts++
		}
	}
	if withFacts != 5 {
		t.Errorf("%d entries came back with their facts, want the 5 sales'", withFacts)
	}

	// PostgreSQL's journal settles an unknown; copying the old file over it
	// is refused for that entry.
	pj, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unk := journal.Key{Tenant: "app7@production", Kind: "venta", Business: "902"}
	if _, err := pj.Acquire(context.Background(), unk.Tenant, 0); err != nil {
		t.Fatal(err)
	}
	if err := pj.Resolve(context.Background(), journal.Key{Tenant: unk.Tenant, Kind: "venta", Business: "902"}, journal.Verdict{As: journal.OK, Note: "sí"}); err == nil {
		t.Fatal("resolving a failed entry succeeded")
	}
	k := journal.Key{Tenant: unk.Tenant, Kind: "venta", Business: "904"}
	if _, err := pj.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err == nil {
		t.Fatal("Begin of an ok entry succeeded")
	}
	if err := pj.Finish(context.Background(), journal.Key{Tenant: unk.Tenant, Kind: "venta", Business: "901"}, journal.Outcome{State: journal.OK}); err == nil {
		t.Fatal("Finish of a rejected entry succeeded")
	}
	again := journal.Key{Tenant: unk.Tenant, Kind: "venta", Business: "901"}
	if _, err := pj.Begin(context.Background(), again, journal.Intent{BodyHash: "h2"}); err != nil {
		t.Fatal(err)
	}
	pj.Close()
	code, out, errs := nxcli(t, dir, "journal", "copy", "--from", src, "--to", url)
	if code != 1 || !strings.Contains(errs, "app7@production/venta/901") || !strings.Contains(out, "distintas (no se sobrescribieron): 1") {
		t.Errorf("copy over a different entry: exit %d, want 1 naming it\n%s%s", code, out, errs)
	}
}

// TestJournalFromEnvironment: NXBATCH_JOURNAL selects the PostgreSQL
// journal for every command; its password is never printed; accept says it
// is for files only.
func TestJournalFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "journal")
	fillJournal(t, src)
	url := pgURL(t)
	if code, out, errs := nxcli(t, dir, "journal", "copy", "--from", src, "--to", url); code != 0 {
		t.Fatalf("copy: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("NXBATCH_JOURNAL", url)
	// 902 was resolved failed in the file: nothing is unknown.
	code, out, errs := nxcli(t, dir, "journal", "list", "--status", "failed", "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, "app7@production/venta/902") {
		t.Errorf("journal list --status failed from NXBATCH_JOURNAL: exit %d, want the one failed entry\n%s%s", code, out, errs)
	}
	code, out, errs = nxcli(t, dir, "journal", "list")
	if code != 0 || !strings.Contains(out, "app7@production/stock/mv1") || strings.Count(out, "\n") != 7 {
		t.Errorf("journal list from NXBATCH_JOURNAL: exit %d, want the 6 entries and a header\n%s%s", code, out, errs)
	}
	code, out, errs = nxcli(t, dir, "journal", "resolve", "app7@production/venta/902", "--as", "ok", "--note", "x")
	if code != exitUsage || !strings.Contains(out+errs, "solo se resuelven") {
		t.Errorf("resolve of a settled entry: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = nxcli(t, dir, "journal", "accept")
	if code != exitUsage || !strings.Contains(errs, "solo para un diario en archivo") {
		t.Errorf("journal accept on PostgreSQL: exit %d\n%s%s", code, out, errs)
	}
	bad := strings.Replace(url, fmt.Sprintf(":%d/", pg.Port), ":1/", 1)
	t.Setenv("NXBATCH_JOURNAL", bad)
	code, out, errs = nxcli(t, dir, "journal", "list")
	if code == 0 || !strings.Contains(errs, "No se pudo usar el diario postgres://nxbatch@127.0.0.1:1") {
		t.Errorf("journal list of an unreachable journal: exit %d\n%s%s", code, out, errs)
	}
	for _, s := range []string{out, errs} {
		if strings.Contains(s, pg.Password()) {
			t.Errorf("the password was printed:\n%s", s)
		}
	}
}

// TestRunOnPostgreSQL: a run against the embedded sandbox journals in
// PostgreSQL; a rerun skips everything; a run while another process holds
// the tenant exits 4 naming it and writes no report.
func TestRunOnPostgreSQL(t *testing.T) {
	dir := t.TempDir()
	url := pgURL(t)
	input := filepath.Join(dir, "ventas.csv")
	var b strings.Builder
	b.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for i := range 6 {
		fmt.Fprintf(&b, "%d,c%d@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n", 7100+i, i)
	}
	if err := os.WriteFile(input, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--sandbox", "--time-scale", "0.01", "--journal", url, "--no-xlsx", "--report-dir", filepath.Join(dir, "r"), input}
	code, out, errs := nxcli(t, dir, args...)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	pj, err := pgjournal.Open(context.Background(), url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pj.Close()
	es, err := pj.List(context.Background(), journal.OK)
	if err != nil || len(es) != 6 {
		t.Fatalf("journal after the run: %d ok, %v; want 6", len(es), err)
	}
	tenant := es[0].Key.Tenant
	if code, out, errs := nxcli(t, dir, args...); code != 0 || !strings.Contains(out, "6") {
		t.Errorf("rerun: exit %d\n%s%s", code, out, errs)
	}
	if _, err := pj.Acquire(context.Background(), tenant, 0); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "r", "ventas.result.csv")
	before, _ := os.Stat(report)
	code, out, errs = nxcli(t, dir, args...)
	if code != exitAborted || !strings.Contains(errs, "para la integración "+tenant) || !strings.Contains(errs, "Otra ejecución de nxbatch está usando el diario") {
		t.Errorf("run while another holds the tenant: exit %d, want 4 naming the tenant\n%s%s", code, out, errs)
	}
	if after, _ := os.Stat(report); !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the refused run rewrote the reports: %v then %v\n%s%s", before.ModTime(), after.ModTime(), out, errs)
	}
}

// TestJournalURLProblems: a journal URL with a parameter that is wrong says
// which one (exit 2); a database that cannot be reached is exit 4 for
// journal list as for run; neither shows the password.
func TestJournalURLProblems(t *testing.T) {
	dir := t.TempDir()
	url := pgURL(t)
	for _, c := range []struct {
		url, want string
		code      int
	}{
		{url + "&lease_ttl=soon", "El parámetro lease_ttl=soon de la URL del diario", exitUsage},
		{url + "&pool_max_conns=x", "El parámetro pool_max_conns=x de la URL del diario", exitUsage},
		{strings.Replace(url, fmt.Sprintf(":%d/", pg.Port), ":1/", 1), "No se pudo usar el diario", exitAborted},
	} {
		code, out, errs := nxcli(t, dir, "journal", "list", "--journal", c.url)
		if code != c.code || !strings.Contains(errs, c.want) || strings.Contains(out+errs, pg.Password()) {
			t.Errorf("journal list --journal %s: exit %d\n%s%s\nwant exit %d saying %q, without the password", pgjournal.Redact(c.url), code, out, errs, c.code, c.want)
		}
	}
}

// TestNothingMadeOfAMistypedPath: commands that read or settle entries do
// not create a journal where there is none (it would answer that nothing
// was ever sent), a URL nxbatch does not know is not taken for a file name,
// and an export to a kind of file nxbatch cannot write is refused before
// anything is fetched.
func TestNothingMadeOfAMistypedPath(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-existe", "journal")
	from := filepath.Join(dir, "origen")
	j, err := boltjournal.Open(from, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"list", []string{"journal", "list", "--journal", missing}, "no hay un diario en " + missing},
		{"resolve", []string{"journal", "resolve", "t/venta/1", "--as", "ok", "--note", "visto", "--journal", missing}, "no hay un diario en"},
		{"copy to another kind of URL", []string{"journal", "copy", "--from", from, "--to", "mysql://x"}, "mysql://"},
		{"run with another kind of URL", []string{"run", "--sandbox", "--journal", "mysql://x/db", filepath.Join(dir, "v.csv")}, "use un archivo o una URL postgres://"},
		{"export to .ods", []string{"catalog", "export", "--base-url", "http://127.0.0.1:1", filepath.Join(dir, "c.ods")}, "use un nombre terminado en .xlsx o .csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errb := runCLI(t, dir, tt.args...)
			if code != exitUsage || !strings.Contains(errb, tt.want) {
				t.Errorf("exit %d, want %d saying %q:\n%s", code, exitUsage, tt.want, errb)
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(missing)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a journal folder was made where there was none: %v", err)
	}
	for _, made := range []string{"mysql:", "c.ods"} {
		if _, err := os.Stat(filepath.Join(dir, made)); err == nil {
			t.Errorf("%s was made", made)
		}
	}
}

// TestKeywordJournalIsPostgreSQL: a keyword/value connection string given
// to --journal is the PostgreSQL journal it names, never a file named after
// it; and no output, reachable or not, shows its password.
func TestKeywordJournalIsPostgreSQL(t *testing.T) {
	u, err := url.Parse(pgURL(t))
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	kw := fmt.Sprintf("host=%s port=%s dbname=%s user=%s password='%s' sslmode=disable",
		u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/"), u.User.Username(), pw)
	unreachable := "host=127.0.0.1 port=1 dbname=nx user=nxbatch password=hunter2-canary connect_timeout=2"
	dir := t.TempDir()
	from := filepath.Join(dir, "from", "journal")
	want := fillJournal(t, from)

	cases := []struct {
		name     string
		args     []string
		wantCode int
		secret   string
	}{
		{"copy into it", []string{"journal", "copy", "--from", from, "--to", kw}, exitOK, pw},
		{"list it", []string{"journal", "list", "--journal", kw, "--format", "csv"}, exitOK, pw},
		{"list one that cannot be reached", []string{"journal", "list", "--journal", unreachable}, exitAborted, "hunter2-canary"},
		{"run on one that cannot be reached", []string{"run", "--sandbox", "--journal", unreachable, "x.csv"}, exitAborted, "hunter2-canary"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errb := runCLI(t, dir, c.args...)
			if code != c.wantCode {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.wantCode, out, errb)
			}
			if strings.Contains(out+errb, c.secret) {
				t.Errorf("the password is shown:\nstdout: %s\nstderr: %s", out, errb)
			}
			if c.wantCode != exitOK && !strings.Contains(errb, "host=127.0.0.1") {
				t.Errorf("the message does not name the journal: %s", errb)
			}
		})
	}
	// Nothing in the working folder is named after a connection string.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "from" {
			t.Errorf("a file %q was made in the working folder", e.Name())
		}
	}
	code, out, errb := runCLI(t, dir, "journal", "list", "--journal", kw, "--format", "csv")
	if code != exitOK || strings.Count(out, "\n") != len(want)+1 {
		t.Errorf("the keyword journal lists %d lines, want the %d entries copied and a header:\n%s%s", strings.Count(out, "\n"), len(want), out, errb)
	}
}
