package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/sandbox"
)

// readCSVReport reads a result report at path (not named after an input).
func readCSVReport(t *testing.T, path string) []row {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read report: %v", err)
	}
	return parseReport(t, path, data)
}

// TestSameNameInputsKeepTheirReports: two inputs of one run called the
// same, with one report folder, and a CSV beside a workbook of the same
// name: every report is kept, under a name that says which input it is.
func TestSameNameInputsKeepTheirReports(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	var inputs []string
	for i, folder := range []string{"a", "b"} {
		dir := filepath.Join(w.dir, folder)
		os.MkdirAll(dir, 0o700)
		content := salesHeader + strings.Replace("ORD,cliente@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n", "ORD", []string{"770001", "770002"}[i], 1)
		inputs = append(inputs, writeFile(t, dir, "ventas nov.csv", content))
	}
	res := w.nx(t, w.runArgs(inputs...)...)
	if res.code != 0 {
		t.Fatalf("run: %s", res)
	}
	for _, folder := range []string{"a", "b"} {
		p := filepath.Join(w.reportDir(), "ventas nov ("+folder+").result.csv")
		rows := readCSVReport(t, p)
		if len(rows) != 1 || rows[0]["result.status"] != "ok" || rows[0]["result.facturaId"] == "" {
			t.Errorf("%s: %v, want its one sale ok with its id", p, rows)
		}
		if !strings.Contains(res.stderr, "ventas nov ("+folder+")") {
			t.Errorf("the console does not say where %s's reports went:\n%s", folder, res.stderr)
		}
	}
	var s struct{ ReportName, RenamedBecause string }
	data, _ := os.ReadFile(filepath.Join(w.reportDir(), "ventas nov (a).summary.json"))
	if json.Unmarshal(data, &s); s.ReportName == "" || s.RenamedBecause == "" {
		t.Errorf("summary.json does not say its reports were renamed: %s", data)
	}
}

// TestHeaderBelowTitleRows: a title row (or a merged title) above the
// header is skipped and mentioned once; --header-row names the header
// when a title row looks like one; row numbers stay the spreadsheet's.
func TestHeaderBelowTitleRows(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	line := "780001,cliente@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"

	titled := writeFile(t, w.dir, "titulo.csv", "Ventas de noviembre,,,\n"+salesHeader+line)
	res := w.nx(t, w.runArgs(titled)...)
	if res.code != 0 || !strings.Contains(res.stderr, "fila de título") {
		t.Errorf("title row: exit %d, want 0 and a mention of it\n%s", res.code, res)
	}
	if rows := w.readReport(t, titled); len(rows) != 1 || rows[0]["result.row"] != "3" || rows[0]["result.status"] != "ok" {
		t.Errorf("title row: report %v, want the sale ok at row 3", rows)
	}

	// A merged title across the header's width, in a workbook.
	x := excelize.NewFile()
	x.SetCellStr("Sheet1", "A1", "Ventas del día")
	x.MergeCell("Sheet1", "A1", "K1")
	hdr := strings.Split(strings.TrimSpace(salesHeader), ",")
	x.SetSheetRow("Sheet1", "A2", &hdr)
	x.SetSheetRow("Sheet1", "A3", &[]any{780002, "cliente@example.com", 105, 1500, 1, 1500, 0, 0, 0, 1500, "EFECTIVO"})
	merged := filepath.Join(w.dir, "merged.xlsx")
	if err := x.SaveAs(merged); err != nil {
		t.Fatal(err)
	}
	res = w.nx(t, w.runArgs(merged)...)
	if res.code != 0 {
		t.Errorf("merged title: %s", res)
	}

	// A title row that names two columns looks like a header: the user
	// says which row is.
	fake := writeFile(t, w.dir, "dos-titulos.csv", "Resumen de ordenId y total,total,,\n,,,\n"+salesHeader+strings.Replace(line, "780001", "780003", 1))
	res = w.nx(t, w.runArgs("--header-row", "3", fake)...)
	if res.code != 0 {
		t.Errorf("--header-row 3: %s", res)
	}
	if rows := w.readReport(t, fake); len(rows) != 1 || rows[0]["result.row"] != "4" || rows[0]["result.status"] != "ok" {
		t.Errorf("--header-row: report %v, want the sale ok at row 4", rows)
	}
}

// TestRefusedTokenMidRunWritesReports: the API refuses the token after a
// few sales: the run stops (exit 4), what was sent is ok, the rest pending,
// and summary.json says why.
func TestRefusedTokenMidRunWritesReports(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	var posts atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && posts.Add(1) > 3 {
			http.Error(w, `{"error":"Token invalido o vencido"}`, http.StatusUnauthorized)
			return
		}
		sb.Server.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	w := newWorkspace(t, proxy.URL)
	input := writeSales(t, w.dir, 10, 790001)
	res := w.nx(t, w.runArgs("--workers", "1", input)...)
	if res.code != 4 {
		t.Errorf("exit %d, want 4\n%s", res.code, res)
	}
	got := statuses(w.readReport(t, input))
	if got["ok"] != 3 || got["pending"] != 7 {
		t.Errorf("rows %v, want 3 ok and 7 pending", got)
	}
	if s := w.readSummary(t, input); !strings.Contains(s.Stopped, "token") {
		t.Errorf("summary.json stopped = %q, want the refused token", s.Stopped)
	}
}

// TestRefedErrorsFile: the errors file of a run, fixed and fed back, is
// sent; its reports are named for it without stacking suffixes, and its
// result.row points at the original file's rows. A run with nothing left
// to fix writes no errors file, and removes the one it wrote before.
func TestRefedErrorsFile(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	input := writeFile(t, w.dir, "ventas.csv", salesHeader+
		"791001,a@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"+
		"791002,b@example.com,105,1500.00,1,1500.00,0,0,0,1600.00,EFECTIVO\n"+
		"791003,c@example.com,105,1500.00,1,1500.00,0,0,0,1700.00,EFECTIVO\n")
	if res := w.nx(t, w.runArgs(input)...); res.code != 1 {
		t.Fatalf("first run: exit %d, want 1 (sales with a wrong total)\n%s", res.code, res)
	}
	errs := filepath.Join(w.reportDir(), "ventas.errors.csv")
	data, err := os.ReadFile(errs)
	if err != nil {
		t.Fatal(err)
	}
	// One of the two fixed; the other still wrong.
	fixed := strings.Replace(string(data), "1600", "1500", 1)
	refed := writeFile(t, w.dir, "ventas.errors.csv", fixed)
	res := w.nx(t, w.runArgs(refed)...)
	if res.code != 1 {
		t.Fatalf("re-fed errors file: exit %d, want 1 (one sale still wrong)\n%s", res.code, res)
	}
	rows := readCSVReport(t, filepath.Join(w.reportDir(), "ventas.errors.result.csv"))
	if len(rows) != 2 || rows[0]["result.status"] != "ok" || rows[0]["result.row"] != "3" || rows[1]["result.row"] != "4" {
		t.Errorf("re-fed report %v, want the fixed sale ok, pointing at row 3 of ventas.csv, and row 4 still to fix", rows)
	}
	errs2 := filepath.Join(w.reportDir(), "ventas.errors-2.csv")
	if _, err := os.Stat(errs2); err != nil {
		t.Errorf("the re-fed file's errors file is not ventas.errors-2.csv: %v", err)
	}
	// Everything fixed: the same file again sends the last sale, and its
	// errors file, now with nothing in it, is gone.
	refed = writeFile(t, w.dir, "ventas.errors.csv", strings.Replace(fixed, "1700", "1500", 1))
	if res := w.nx(t, w.runArgs(refed)...); res.code != 0 {
		t.Fatalf("re-fed errors file, all fixed: %s", res)
	}
	if _, err := os.Stat(errs2); err == nil {
		t.Errorf("%s is still there after a run with nothing to fix", errs2)
	}
	if _, err := os.Stat(filepath.Join(w.reportDir(), "ventas.errors.errors.csv")); err == nil {
		t.Error("suffixes stacked: ventas.errors.errors.csv")
	}
}

// TestFilledTemplateHasNoWarnings: a template written by nxbatch, filled
// and run, does not warn about its own instructions sheet.
func TestFilledTemplateHasNoWarnings(t *testing.T) {
	w := newWorkspace(t, "")
	tpl := filepath.Join(w.dir, "venta.xlsx")
	if res := w.nx(t, "template", "venta", "--sandbox", "--journal", w.journal(), "-o", tpl); res.code != 0 {
		t.Fatalf("template: %s", res)
	}
	x, err := excelize.OpenFile(tpl)
	if err != nil {
		t.Fatal(err)
	}
	data := x.GetSheetList()[0]
	hdr, _ := x.GetRows(data)
	vals := map[string]any{"ordenId": 792001, "usuario.email": "a@example.com", "productos.articuloId": 105,
		"productos.precio": 1500, "productos.cantidad": 1, "subtotal": 1500, "descuento": 0, "recargo": 0,
		"envio": 0, "total": 1500, "medioPago.tipo": "EFECTIVO"}
	for i, h := range hdr[0] {
		key := strings.TrimSuffix(strings.TrimSpace(h), " *")
		if v, ok := vals[key]; ok {
			c, _ := excelize.CoordinatesToCellName(i+1, 2)
			x.SetCellValue(data, c, v)
		}
	}
	if err := x.Save(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	res := w.nx(t, "validate", "--sandbox", "--journal", w.journal(), "--report-dir", w.reportDir(), tpl)
	if res.code != 0 {
		t.Fatalf("validate the filled template: %s", res)
	}
	if strings.Contains(res.stderr, "Instrucciones") || strings.Contains(res.stderr, "Listas") {
		t.Errorf("the template's own sheets are warned about:\n%s", res.stderr)
	}
	s := w.readSummary(t, tpl)
	for _, wn := range s.Warnings {
		if strings.Contains(wn, "Instrucciones") {
			t.Errorf("summary.json warns about the template's instructions: %q", wn)
		}
	}
}

// TestRerunKeepsTheInvoicingRunsReports: a rerun that sends nothing
// replaces the reports at the usual names (the latest run), but the result
// and summary of the run that invoiced stay in NAME.runs/, still saying
// what it sent; a later run that sends something keeps its own beside it.
func TestRerunKeepsTheInvoicingRunsReports(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	sales := salesHeader +
		"794001,a@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n" +
		"794002,b@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n"
	input := writeFile(t, w.dir, "ventas.csv", sales)
	type summary struct {
		RequestsSent int            `json:"requestsSent"`
		Rows         map[string]int `json:"rows"`
		RunReports   string         `json:"runReports"`
	}
	read := func(p string) summary {
		t.Helper()
		var s summary
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return s
	}
	kept := func() []string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(w.reportDir(), "ventas.runs", "*.summary.json"))
		return m
	}
	runs := []struct {
		name      string
		content   string
		wantSent  int
		wantKept  int
		keptSent  []int // requestsSent of the kept summaries, oldest first
		keptFiles []string
	}{
		{"the run that invoices", sales, 2, 1, []int{2}, []string{".result.csv", ".summary.json"}},
		{"a rerun that sends nothing", sales, 0, 1, []int{2}, nil},
		{"a run with one more sale", sales + "794003,c@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n", 1, 2, []int{2, 1}, nil},
	}
	for _, r := range runs {
		writeFile(t, w.dir, "ventas.csv", r.content)
		if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
			t.Fatalf("%s: %s", r.name, res)
		}
		latest := read(filepath.Join(w.reportDir(), "ventas.summary.json"))
		if latest.RequestsSent != r.wantSent {
			t.Errorf("%s: ventas.summary.json says %d sent, want %d (the latest run)", r.name, latest.RequestsSent, r.wantSent)
		}
		if (latest.RunReports != "") != (r.wantSent > 0) {
			t.Errorf("%s: runReports %q with %d sent", r.name, latest.RunReports, r.wantSent)
		}
		got := kept()
		if len(got) != r.wantKept {
			t.Fatalf("%s: %d summaries kept in ventas.runs, want %d: %v", r.name, len(got), r.wantKept, got)
		}
		for i, p := range got {
			s := read(p)
			if s.RequestsSent != r.keptSent[i] || s.Rows["ok"] != r.keptSent[i] {
				t.Errorf("%s: %s says %d sent, %d rows ok; want %d", r.name, filepath.Base(p), s.RequestsSent, s.Rows["ok"], r.keptSent[i])
			}
		}
		for _, suf := range r.keptFiles {
			want := filepath.Join(w.reportDir(), latest.RunReports+suf)
			if _, err := os.Stat(want); err != nil {
				t.Errorf("%s: %v", r.name, err)
			}
		}
	}
}
