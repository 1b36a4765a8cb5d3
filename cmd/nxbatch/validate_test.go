package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
)

// runCLI runs nxbatch in-process with args and returns its exit code and
// what it printed.
func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(string) string { return "" },
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	err := run(e, args)
	if err != nil {
		var ee *exitError
		if !asExit(err, &ee) || ee.err != nil {
			errb.WriteString(render(err, langOf(args)))
		}
	}
	return exitCode(err), out.String(), errb.String()
}

func asExit(err error, target **exitError) bool {
	ee, ok := err.(*exitError)
	if ok {
		*target = ee
	}
	return ok
}

const saleHeader = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"

// TestValidateBadInput feeds the malformed files of issue 2 through the
// command line: each must exit with the right code and a message that names
// the file (and row and column where there is one) and says what to change,
// never a panic.
func TestValidateBadInput(t *testing.T) {
	notZip := []byte("this is not a workbook")
	var realZip bytes.Buffer
	zw := zip.NewWriter(&realZip)
	w, _ := zw.Create("hello.txt")
	w.Write([]byte("hi"))
	zw.Close()
	cp1252, _ := charmap.Windows1252.NewEncoder().String(saleHeader + "1,josé@x.com,100,10,1,10,0,0,0,10,Depósito Banco\n")
	tests := []struct {
		name, file string
		content    []byte
		code       int
		inStderr   []string // substrings of the file-level message
		inReport   []string // substrings of the result.csv (row-level problems)
	}{
		{name: "empty file", file: "v.csv", content: nil, code: exitUsage, inStderr: []string{"v.csv"}},
		{name: "header only", file: "v.csv", content: []byte(saleHeader), code: exitUsage,
			inStderr: []string{"v.csv", "ninguna fila"}},
		{name: "missing required column", file: "v.csv", content: []byte("ordenId,total\n1,10\n"), code: exitUsage,
			inStderr: []string{"v.csv", "productos.articuloId", "--map"}},
		{name: "duplicate headers", file: "v.csv", content: []byte(strings.Replace(saleHeader, "usuario.email", "total", 1) + "1,10,100,10,1,10,0,0,0,10,EFECTIVO\n"),
			code: exitUsage, inStderr: []string{"«total»", "deje una sola"}},
		{name: "ragged row", file: "v.csv", content: []byte(saleHeader + "1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO,extra,more\n"),
			code: exitRowProblems, inReport: []string{"invalid"}},
		{name: "number 1.234.5", file: "v.csv", content: []byte(saleHeader + "1,a@x.com,100,1.234.5,1,10,0,0,0,10,EFECTIVO\n"),
			code: exitRowProblems, inReport: []string{"«productos.precio»", "«1.234.5»"}},
		{name: "date 31/02/2026", file: "s.csv", content: []byte("depositoId,motivoId,tipo,fecha,articulos.articuloId,articulos.cantidad\n1,1,6,31/02/2026,100,1\n"),
			code: exitRowProblems, inReport: []string{"«fecha»", "«31/02/2026»", "día/mes/año"}},
		{name: "unknown payment type", file: "v.csv", content: []byte(saleHeader + "1,a@x.com,100,10,1,10,0,0,0,10,bitcoin\n"),
			code: exitRowProblems, inReport: []string{"«bitcoin»", "EFECTIVO"}},
		{name: "binary file renamed .csv", file: "v.csv", content: []byte("\x00\x01\x02PK\x03\x04\x00\x00binary"), code: exitUsage,
			inStderr: []string{"v.csv"}},
		{name: "xlsx that is not a zip", file: "v.xlsx", content: notZip, code: exitUsage, inStderr: []string{"v.xlsx"}},
		{name: "a zip that is not a workbook", file: "v.xlsx", content: realZip.Bytes(), code: exitUsage, inStderr: []string{"v.xlsx"}},
		{name: ".xls", file: "v.xls", content: []byte("whatever"), code: exitUsage, inStderr: []string{".xlsx"}},
		{name: "windows-1252 with accents", file: "v.csv", content: []byte(cp1252), code: exitRowProblems,
			inReport: []string{"josé@x.com"}},
		{name: "50 MB cell", file: "v.csv", content: append([]byte(saleHeader+"1,\""), bytes.Repeat([]byte("a"), 50<<20)...),
			code: exitUsage, inStderr: []string{"v.csv", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), tt.content, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI(t, dir, "validate", "--offline", tt.file)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr)
			}
			for _, s := range tt.inStderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q: %s", s, stderr)
				}
			}
			if len(tt.inReport) == 0 {
				return
			}
			base := strings.TrimSuffix(tt.file, filepath.Ext(tt.file))
			rep, err := os.ReadFile(filepath.Join(dir, base+".result.csv"))
			if err != nil {
				t.Fatalf("no report: %v (stderr %s)", err, stderr)
			}
			for _, s := range tt.inReport {
				if !strings.Contains(string(rep), s) {
					t.Errorf("report lacks %q:\n%s", s, rep)
				}
			}
		})
	}
}

func TestValidateExitCodesAndLanguage(t *testing.T) {
	dir := t.TempDir()
	good := saleHeader + "1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n"
	if err := os.WriteFile(filepath.Join(dir, "ok.csv"), []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := saleHeader + "1,a@x.com,100,10,1,10,0,0,0,12,EFECTIVO\n"
	if err := os.WriteFile(filepath.Join(dir, "bad.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, dir, "validate", "--offline", "ok.csv"); code != exitOK || !strings.Contains(out, "1 válida") {
		t.Errorf("all valid: exit %d, out %s", code, out)
	}
	code, _, _ := runCLI(t, dir, "validate", "--offline", "--lang", "en", "bad.csv")
	if code != exitRowProblems {
		t.Errorf("invalid rows: exit %d", code)
	}
	rep, _ := os.ReadFile(filepath.Join(dir, "bad.result.csv"))
	if !strings.Contains(string(rep), "fix total") {
		t.Errorf("--lang en report is not in English:\n%s", rep)
	}
	if code, _, _ := runCLI(t, dir, "validate", "--offline", "--kind", "nope", "ok.csv"); code != exitUsage {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, out, _ := runCLI(t, dir, "--version"); code != exitOK || !strings.Contains(out, "nxbatch") {
		t.Errorf("--version: exit %d, out %q", code, out)
	}
}

func TestJournalListCSV(t *testing.T) {
	dir := t.TempDir()
	jpath := filepath.Join(dir, "j")
	j, err := boltjournal.Open(jpath, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "1001"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "v.csv rows 2"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected, Message: "-no existe"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	code, out, stderr := runCLI(t, dir, "journal", "list", "--journal", jpath, "--format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "key,state,attempts") {
		t.Fatalf("csv = %q", out)
	}
	if !strings.HasPrefix(lines[1], "t1/venta/1001,rejected,1,") || !strings.Contains(lines[1], "'-no existe") {
		t.Errorf("row = %q (want the key, state, attempts and the neutralised message)", lines[1])
	}
}

// TestJournalListUnknownIncludesSending: a killed run leaves its in-flight
// entries sending until the tenant's next run marks them unknown (a bbolt
// file marks them when it is opened; a shared PostgreSQL journal cannot,
// since another machine may be sending them); a person asking for the
// unknowns in between sees them too.
func TestJournalListUnknownIncludesSending(t *testing.T) {
	dir := t.TempDir()
	for _, spec := range []string{filepath.Join(dir, "j"), pgURL(t)} {
		var j journal.Store
		var err error
		if pgjournal.IsURL(spec) {
			j, err = pgjournal.Open(context.Background(), spec, pgjournal.Options{})
		} else {
			j, err = boltjournal.Open(spec, journal.Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		release, err := j.Acquire(context.Background(), "t1", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			id    string
			state journal.State
		}{{"1", journal.Unknown}, {"2", journal.Sending}, {"3", journal.OK}} {
			k := journal.Key{Tenant: "t1", Kind: "venta", Business: c.id}
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
				t.Fatal(err)
			}
			if c.state != journal.Sending {
				if err := j.Finish(context.Background(), k, journal.Outcome{State: c.state}); err != nil {
					t.Fatal(err)
				}
			}
		}
		release()
		j.Close()
		code, out, stderr := runCLI(t, dir, "journal", "list", "--journal", spec, "--status", "unknown", "--format", "csv")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"t1/venta/1,unknown", "t1/venta/2,"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: --status unknown lacks %q:\n%s", spec, want, out)
			}
		}
		if strings.Contains(out, "t1/venta/3") {
			t.Errorf("%s: --status unknown lists an ok entry:\n%s", spec, out)
		}
	}
}

// TestValidateMapLimits: a --map file or profile past its limits is a usage
// error with a Spanish sentence naming it (issue 23, hole 5), read no
// further than its size.
func TestValidateMapLimits(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "v.csv"), []byte(saleHeader+"1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "mapa.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(35 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	state := filepath.Join(dir, "estado")
	if err := os.MkdirAll(filepath.Join(state, "profiles"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "profiles", "roto.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--offline", "--map", "mapa.yaml", "v.csv"}, "mapa.yaml (--map) pesa más de 1 MB"},
		{[]string{"validate", "--offline", "--journal", filepath.Join(state, "journal"), "--map", "roto", "v.csv"}, "roto.json está dañado"},
	} {
		code, _, stderr := runCLI(t, dir, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
	}
}

// TestValidateCSVTitleAndBlankLines: a CSV with a title line without its
// delimiter above the header (issue 23, hole 12), found or named with
// --header-row, and one with more than 1 MiB of empty lines between rows
// (hole 8), are read, not refused.
func TestValidateCSVTitleAndBlankLines(t *testing.T) {
	dir := t.TempDir()
	row := "1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n"
	files := map[string]string{
		"titulo.csv": "Ventas de noviembre - sucursal centro\n" + saleHeader + row,
		"vacias.csv": saleHeader + strings.Repeat("\r\n", 600_000) + row,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"validate", "--offline", "titulo.csv"},
		{"validate", "--offline", "--header-row", "2", "titulo.csv"},
		{"validate", "--offline", "vacias.csv"},
	} {
		code, stdout, stderr := runCLI(t, dir, args...)
		if code == exitUsage || strings.Contains(stderr, "comilla") || strings.Contains(stderr, "tipo de archivo") {
			t.Errorf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
}
