package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReportNames(t *testing.T) {
	root := t.TempDir()
	touch := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := touch("a/ventas nov.csv"), touch("b/ventas nov.csv")
	f1, f2 := touch("c/f.csv"), touch("c/f.xlsx")
	alone := touch("d/stock.csv")
	refed, refed2 := touch("e/ventas.errors.csv"), touch("e/ventas.errors-2.csv")
	out := filepath.Join(root, "out")

	tests := []struct {
		name   string
		paths  []string
		dir    string
		want   map[string]string // path -> base name
		errors map[string]string // path -> errors file name
	}{
		{"same name, one report folder", []string{a, b}, out,
			map[string]string{a: "ventas nov (a)", b: "ventas nov (b)"}, nil},
		{"same name, reports beside each input", []string{a, b}, "",
			map[string]string{a: "ventas nov", b: "ventas nov"}, nil},
		{"f.csv and f.xlsx in one folder", []string{f1, f2}, "",
			map[string]string{f1: "f.csv", f2: "f.xlsx"}, nil},
		{"f.csv alone in the run, f.xlsx beside it", []string{f1}, "",
			map[string]string{f1: "f.csv"}, nil},
		{"nothing in the way", []string{alone}, "",
			map[string]string{alone: "stock"}, map[string]string{alone: "stock.errors.csv"}},
		{"an errors file fed back, twice", []string{refed, refed2}, "",
			map[string]string{refed: "ventas.errors", refed2: "ventas.errors-2"},
			map[string]string{refed: "ventas.errors-2.csv", refed2: "ventas.errors-3.csv"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			names := ReportNames(tc.paths, tc.dir)
			got := map[string]string{}
			for p, rn := range names {
				got[p] = filepath.Base(rn.Base)
				if (got[p] != filepath.Base(p[:len(p)-len(filepath.Ext(p))])) != (rn.Because.Key != "") && tc.dir == "" {
					t.Errorf("%s: named %q, because %q: a changed name must say why", p, got[p], rn.Because.Key)
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
			for p, want := range tc.errors {
				if got := filepath.Base(names[p].ErrorsPath("")); got != want {
					t.Errorf("errors file of %s = %s, want %s", p, got, want)
				}
			}
		})
	}
}

func TestSheetNamesNeverCollide(t *testing.T) {
	got := sheetNames([]string{"Ventas <100", "Ventas >100", "Stock", "stock"})
	want := []string{"Ventas _100", "Ventas _100 (2)", "Stock", "stock (2)"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("sheet file names (-want +got):\n%s", d)
	}
}
