package pipeline

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/golden")

const goldenDir = "../testdata/golden"

// TestGoldenReports validates every sample (with the sample catalogs) and
// compares the reports it writes with testdata/golden. Run with -update
// after an intended change and review the diff.
func TestGoldenReports(t *testing.T) {
	cat, err := catalog.LoadDir("../samples/catalog")
	if err != nil {
		t.Fatal(err)
	}
	samples := []struct {
		file string
		lang msg.Lang
	}{
		{"ventas.csv", msg.ES},
		{"facturar.csv", msg.ES},
		{"stock.csv", msg.ES},
		{"stock-excel-es.csv", msg.ES},
		{"demo.xlsx", msg.ES},
		{"errores.csv", msg.ES},
		{"errores.csv", msg.EN},
	}
	for _, s := range samples {
		name := strings.TrimSuffix(s.file, filepath.Ext(s.file)) + "." + string(s.lang)
		t.Run(name, func(t *testing.T) {
			f, err := Load(filepath.Join("../samples", s.file), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f.Validate(cat, false)
			checkGolden(t, f, s.lang)
		})
	}
}

// checkGolden writes f's reports in language lang and compares them with
// testdata/golden (or rewrites them with -update).
func checkGolden(t *testing.T, f *File, lang msg.Lang) {
	t.Helper()
	fixed := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	paths, err := f.WriteReports(ReportOptions{Dir: dir, Lang: lang, Command: "validate",
		Tool: "nxbatch test", Started: fixed, Now: func() time.Time { return fixed.Add(time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range append(append([]string{paths.Summary}, paths.CSV...), paths.Errors...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(p)] = string(b)
	}
	got[filepath.Base(paths.XLSX)+".json"] = xlsxCells(t, paths.XLSX)
	for base, content := range got {
		golden := filepath.Join(goldenDir, string(lang), base)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./pipeline -run TestGolden -update)", err)
		}
		if d := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(content, "\n")); d != "" {
			t.Errorf("%s differs from %s (-want +got):\n%s", base, golden, d)
		}
	}
}

// TestGoldenArticleReports validates a sales file and a stock file that
// name articles by the shop's codes, barcodes and size and colour names,
// against the sample catalogs and testdata/articulos.json, and compares
// their reports (the user's columns kept, the resolved ids and the
// article's name added) with testdata/golden.
func TestGoldenArticleReports(t *testing.T) {
	cat, err := catalog.LoadDir("../samples/catalog")
	if err != nil {
		t.Fatal(err)
	}
	cat.Articulos = articleCatalog(t).Articulos
	for _, name := range []string{"ventas-codigo.csv", "stock-codigo.csv"} {
		t.Run(name, func(t *testing.T) {
			f, err := Load(filepath.Join("testdata", name), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f.Validate(cat, false)
			checkGolden(t, f, msg.ES)
		})
	}
}

// xlsxCells renders every sheet of an XLSX report as JSON, so that the
// golden file shows the cells a person sees, not zip bytes.
func xlsxCells(t *testing.T, path string) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type sheet struct {
		Name string
		Rows [][]string
	}
	var out []sheet
	for _, name := range f.GetSheetList() {
		rows, err := f.GetRows(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(name, "Resumen") || strings.HasPrefix(name, "Summary") {
			// The run time and file path vary; the counts are what matter.
			for i := range rows {
				for j := range rows[i] {
					if strings.Contains(rows[i][j], "samples") {
						rows[i][j] = "<path>"
					}
				}
			}
		}
		out = append(out, sheet{name, rows})
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}
