package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestKeepRun: a run's reports get a second name in NAME.runs/, named by
// the time the run started, "_2" for a second run in the same second;
// the copy keeps this run's content after the next run replaces the file
// at the usual name.
func TestKeepRun(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "ventas")
	started := time.Date(2026, 12, 2, 11, 26, 8, 0, time.Local)
	suffixes := []string{".result.csv", ".summary.json"}
	write := func(content string) []string {
		var paths []string
		for _, s := range suffixes {
			p := base + s
			// As the reports are written: a new file renamed over the old.
			if err := os.WriteFile(p+".tmp", []byte(content+s), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(p+".tmp", p); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		return paths
	}
	tests := []struct {
		content, wantPrefix string
	}{
		{"first", "2026-12-02 11.26.08"},
		{"second", "2026-12-02 11.26.08_2"},
		{"third", "2026-12-02 11.26.08_3"},
	}
	for _, tc := range tests {
		paths := write(tc.content)
		prefix := runStamp(base, started, suffixes)
		if want := filepath.Join(dir, "ventas.runs", tc.wantPrefix); prefix != want {
			t.Fatalf("%s run: prefix %q, want %q", tc.content, prefix, want)
		}
		if err := keepRun(base, prefix, paths); err != nil {
			t.Fatal(err)
		}
	}
	write("latest")
	for _, tc := range tests {
		for _, s := range suffixes {
			got, err := os.ReadFile(filepath.Join(dir, "ventas.runs", tc.wantPrefix+s))
			if err != nil || string(got) != tc.content+s {
				t.Errorf("%s%s: %q, %v; want %q", tc.wantPrefix, s, got, err, tc.content+s)
			}
		}
	}
	if got, _ := os.ReadFile(base + ".summary.json"); string(got) != "latest.summary.json" {
		t.Errorf("the usual name holds %q, want the latest run's", got)
	}
	fi, err := os.Lstat(filepath.Join(dir, "ventas.runs"))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("ventas.runs: %v, %v; want a private folder", fi, err)
	}
}

// TestKeepRunRefusesALink: a symbolic link planted where the runs folder
// goes is not followed.
func TestKeepRunRefusesALink(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	base := filepath.Join(dir, "ventas")
	if err := os.Symlink(elsewhere, base+runsSuffix); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".summary.json", []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	prefix := runStamp(base, time.Now(), []string{".summary.json"})
	if err := keepRun(base, prefix, []string{base + ".summary.json"}); err == nil {
		t.Error("kept the run's reports through a symbolic link")
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("wrote through the link: %v", entries)
	}
}
