package e2e

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/sandbox"
)

// TestStateFolderLinksRefused: a symbolic link planted where nxbatch keeps
// its state (the journal, its .hwm record, tenants.json, the catalogs/
// and sandbox/ folders) makes the command stop with a Spanish sentence naming the link,
// and nothing is written where the link points.
func TestStateFolderLinksRefused(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	cases := []struct {
		name string
		// plant makes the link in state, pointing into elsewhere, and
		// returns the link's path.
		plant func(t *testing.T, state, elsewhere string) string
		args  func(w *workspace) []string
	}{
		{"journal", func(t *testing.T, state, elsewhere string) string {
			return symlink(t, filepath.Join(elsewhere, "victim"), filepath.Join(state, "journal"))
		}, func(w *workspace) []string { return w.runArgs(writeSales(t, w.dir, 2, 510001)) }},
		{"journal.hwm", func(t *testing.T, state, elsewhere string) string {
			return symlink(t, filepath.Join(elsewhere, "victim"), filepath.Join(state, "journal.hwm"))
		}, func(w *workspace) []string { return w.runArgs(writeSales(t, w.dir, 2, 520001)) }},
		{"tenants.json", func(t *testing.T, state, elsewhere string) string {
			return symlink(t, filepath.Join(elsewhere, "victim"), filepath.Join(state, "tenants.json"))
		}, func(w *workspace) []string { return w.runArgs(writeSales(t, w.dir, 2, 540001)) }},
		{"catalogs", func(t *testing.T, state, elsewhere string) string {
			return symlink(t, elsewhere, filepath.Join(state, "catalogs"))
		}, func(w *workspace) []string {
			return []string{"catalog", "pull", "--base-url", w.baseURL, "--journal", w.journal(), "--time-scale", "0.01", "--wait-window", "--only", "motivos"}
		}},
		{"sandbox", func(t *testing.T, state, elsewhere string) string {
			return symlink(t, elsewhere, filepath.Join(state, "sandbox"))
		}, func(w *workspace) []string {
			return []string{"run", "--sandbox", "--journal", w.journal(), "--report-dir", w.reportDir(), writeSales(t, w.dir, 2, 530001)}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorkspace(t, sb.URL)
			state := filepath.Dir(w.journal())
			elsewhere := filepath.Join(w.dir, "elsewhere")
			if err := os.MkdirAll(state, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(elsewhere, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(elsewhere, "victim"), []byte("a file of the user's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, elsewhere)
			link := c.plant(t, state, elsewhere)
			res := w.nx(t, c.args(w)...)
			if res.code == 0 {
				t.Errorf("the command went through the link:\n%s", res)
			}
			if !strings.Contains(res.stderr+res.stdout, "enlace simbólico") || !strings.Contains(res.stderr+res.stdout, filepath.Base(link)) {
				t.Errorf("no sentence names the link %s:\n%s", link, res)
			}
			if after := tree(t, elsewhere); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("written where the link points:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) string {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// tree is every file and folder under dir with its mode and a hash of its
// bytes.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		b := []byte{}
		if fi.Mode().IsRegular() {
			if b, err = os.ReadFile(path); err != nil {
				return err
			}
		}
		m[path] = fmt.Sprintf("%v %x", fi.Mode(), sha256.Sum256(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
