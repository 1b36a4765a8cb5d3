package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestPrivateByDefault is issue 13's proof for what the commands write:
// under the usual umask 022, every report, template, catalog export and
// stock export is owner-only, in folders nxbatch creates owner-only; a
// symbolic link planted where nxbatch writes is neither followed nor
// changed; and no temporary file is left behind.
func TestPrivateByDefault(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	w := newWorkspace(t, "")
	tmp := filepath.Join(w.dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	sales, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	input := writeFile(t, w.dir, "ventas.csv", string(sales))
	out := filepath.Join(w.dir, "salidas")
	nx := func(args ...string) result {
		t.Helper()
		cmd, o, e := w.command(t.Context(), args...)
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
		return ended(t, cmd.Run(), o, e)
	}

	writes := []struct {
		name  string
		args  []string
		files []string // what the command writes, relative to w.dir
	}{
		{"run --sandbox", []string{"run", "--sandbox", "--time-scale", "0.01", "--journal", w.journal(), "--report-dir", filepath.Join(out, "informes"), input},
			[]string{"salidas/informes/ventas.result.csv", "salidas/informes/ventas.result.xlsx", "salidas/informes/ventas.summary.json"}},
		{"template", []string{"template", "venta", "--sandbox", "--time-scale", "0.01", "--wait-window", "--journal", w.journal(), "-o", filepath.Join(out, "plantilla.xlsx")},
			[]string{"salidas/plantilla.xlsx"}},
		{"catalog export", []string{"catalog", "export", "--sandbox", "--time-scale", "0.01", "--journal", w.journal(), filepath.Join(out, "catalogos.xlsx")},
			[]string{"salidas/catalogos.xlsx"}},
		{"stock export", []string{"stock", "export", "--store", filepath.Join(w.dir, "listen"), filepath.Join(out, "stock.csv")},
			[]string{"salidas/stock.csv"}},
	}
	for _, c := range writes {
		if res := nx(c.args...); res.code != 0 && res.code != 1 {
			t.Fatalf("%s: %s", c.name, res)
		}
		for _, f := range c.files {
			fi, err := os.Lstat(filepath.Join(w.dir, f))
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			if fi.Mode().Perm() != 0o600 || !fi.Mode().IsRegular() {
				t.Errorf("%s wrote %s with mode %v, want -rw-------", c.name, f, fi.Mode())
			}
		}
	}
	// Folders nxbatch created: the report folder, the state folder.
	for _, d := range []string{filepath.Join(out, "informes"), filepath.Dir(w.journal())} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("folder %s: %v %v, want drwx------", d, fi, err)
		}
	}

	// A symbolic link planted at each path nxbatch writes: the command
	// refuses (in Spanish, naming the file), and the link's target keeps its
	// content and its mode.
	victimDir := filepath.Join(w.dir, "ajeno")
	if err := os.Mkdir(victimDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range writes {
		for _, f := range c.files {
			path := filepath.Join(w.dir, f)
			victim := filepath.Join(victimDir, strings.ReplaceAll(f, "/", "_"))
			if err := os.WriteFile(victim, []byte("no tocar"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(path)
			if err := os.Symlink(victim, path); err != nil {
				t.Fatal(err)
			}
		}
		res := nx(c.args...)
		if res.code == 0 {
			t.Errorf("%s wrote through planted links: %s", c.name, res)
		}
		for _, f := range c.files {
			victim := filepath.Join(victimDir, strings.ReplaceAll(f, "/", "_"))
			data, _ := os.ReadFile(victim)
			fi, _ := os.Stat(victim)
			if string(data) != "no tocar" || fi == nil || fi.Mode().Perm() != 0o644 {
				t.Errorf("%s changed the link's target %s: %q %v", c.name, f, data, fi)
			}
			if lfi, err := os.Lstat(filepath.Join(w.dir, f)); err != nil || lfi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("%s replaced the planted link at %s", c.name, f)
			}
		}
		if !strings.Contains(res.stderr, "enlace") {
			t.Errorf("%s: the refusal does not say why:\n%s", c.name, res)
		}
	}

	// Nothing is left in the temporary folder.
	filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != tmp && !d.IsDir() {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
	filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), "nxbatch-tmp") {
			if es, _ := os.ReadDir(p); len(es) > 0 {
				t.Errorf("temporary files left in %s", p)
			}
		}
		return nil
	})
}
