package profiles

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
)

func TestSaveLoadForAndMapping(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "profiles")}
	p := Profile{Name: "Mi Sistema", Kind: schema.Venta, Headers: []string{"Nro Orden", "Total Venta", ""},
		Columns: map[string]string{"Nro Orden": "ordenId", "Total Venta": "total"}, Saved: time.Unix(100, 0)}
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(s.Dir, "mi sistema.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("profile file: %v, mode %v; want owner-only", err, st.Mode().Perm())
	}
	got, err := s.Load("MI SISTEMA")
	if err != nil || got.Columns["Total Venta"] != "total" {
		t.Fatalf("load in another case: %+v %v", got, err)
	}
	m := got.Mapping()
	if m[schema.Normalize("nro  orden")] != "ordenId" {
		t.Errorf("mapping does not match the header folded: %v", m)
	}
	fits, _ := s.For([]string{"NRO ORDEN", "total venta"})
	if len(fits) != 1 {
		t.Errorf("For the same headers (other case, no trailing blank): %d profiles", len(fits))
	}
	if fits, _ := s.For([]string{"Nro Orden"}); len(fits) != 0 {
		t.Errorf("For other headers: %d profiles", len(fits))
	}
	if _, err := s.Load("otro"); !errors.Is(err, ErrNotFound) {
		t.Errorf("load of a missing profile: %v", err)
	}
}

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Mi sistema", true}, {"facturación-2026_v1.2", true}, {"", false}, {"../journal", false},
		{".oculto", false}, {"a/b", false}, {" borde", false}, {string(make([]rune, 61)), false},
	}
	for _, tc := range tests {
		if err := CheckName(tc.name); (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

// TestLoadLimits: a profile file over MaxBytes, with more than MaxEntries
// header cells or columns, or not JSON, is refused with a sentence naming
// it (issue 23, hole 5); the others are still listed.
func TestLoadLimits(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "profiles")}
	if err := s.Save(Profile{Name: "bueno", Kind: schema.Venta, Headers: []string{"Nro"}, Columns: map[string]string{"Nro": "ordenId"}}); err != nil {
		t.Fatal(err)
	}
	wide := Profile{Name: "ancho", Columns: map[string]string{}}
	for i := range MaxEntries + 1 {
		wide.Columns[fmt.Sprint("c", i)] = "ordenId"
	}
	b, err := json.Marshal(wide)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"ancho": b, "roto": []byte("{\"name\":")}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(s.Dir, name+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	big, err := os.Create(filepath.Join(s.Dir, "grande.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(35 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	for name, want := range map[string]string{"ancho": "16384 permitidas", "roto": "está dañado", "grande": "pesa más de 1 MB"} {
		_, err := s.Load(name)
		var me *msg.Error
		if !errors.As(err, &me) {
			t.Fatalf("%s: %v, want a sentence", name, err)
		}
		if es := me.In(msg.ES); !strings.Contains(es, want) || !strings.Contains(es, name+".json") {
			t.Errorf("%s: %q", name, es)
		}
	}
	all, err := s.List()
	if err != nil || len(all) != 1 || all[0].Name != "bueno" {
		t.Errorf("list: %+v %v", all, err)
	}
}

// FuzzParse feeds arbitrary profile files: never a panic; a failure is a
// *msg.Error naming the file; a profile within the limits.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"name":"Mi sistema","kind":"venta","headers":["Nro Orden",""],"columns":{"Nro Orden":"ordenId"},"saved":"2026-01-02T03:04:05Z"}`,
		`{"name":1}`, `{"columns":{"a":null}}`, `[]`, `null`, `{"saved":"ayer"}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse("perfil.json", b)
		if err != nil {
			var me *msg.Error
			if !errors.As(err, &me) || !strings.Contains(me.In(msg.ES), "perfil.json") {
				t.Fatalf("error %v (%T) does not name the file", err, err)
			}
			return
		}
		if len(p.Headers) > MaxEntries || len(p.Columns) > MaxEntries {
			t.Fatalf("profile past the limits: %d headers, %d columns", len(p.Headers), len(p.Columns))
		}
		_ = p.Mapping()
		_ = p.Fits(p.Headers)
	})
}

// TestSaveNeverFollowsALink: a link planted as the profiles folder or as a
// profile's file is refused with the user's sentence, and what it points
// to is left as it was.
func TestSaveNeverFollowsALink(t *testing.T) {
	p := Profile{Name: "Mi Sistema", Kind: schema.Venta, Columns: map[string]string{"Nro": "ordenId"}}
	cases := map[string]func(state, elsewhere string) Store{
		"the profiles folder": func(state, elsewhere string) Store {
			must(t, os.Symlink(elsewhere, filepath.Join(state, "profiles")))
			return Store{Dir: DirIn(state)}
		},
		"the profile's file": func(state, elsewhere string) Store {
			must(t, os.MkdirAll(DirIn(state), 0o700))
			must(t, os.Symlink(filepath.Join(elsewhere, "victim"), filepath.Join(DirIn(state), "mi sistema.json")))
			return Store{Dir: DirIn(state)}
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			state, elsewhere := t.TempDir(), t.TempDir()
			must(t, os.WriteFile(filepath.Join(elsewhere, "victim"), []byte("keep"), 0o644))
			err := plant(state, elsewhere).Save(p)
			if !errors.Is(err, atomicfile.ErrSymlink) {
				t.Fatalf("Save through a link: %v, want ErrSymlink", err)
			}
			if got := msg.CauseText(err, msg.ES); !strings.Contains(got, "enlace simbólico") {
				t.Errorf("the user reads %q", got)
			}
			entries, _ := os.ReadDir(elsewhere)
			if len(entries) != 1 {
				t.Errorf("files written where the link points: %v", entries)
			}
			if b, _ := os.ReadFile(filepath.Join(elsewhere, "victim")); string(b) != "keep" {
				t.Errorf("the link's target changed: %q", b)
			}
			if fi, _ := os.Stat(filepath.Join(elsewhere, "victim")); fi.Mode().Perm() != 0o644 {
				t.Errorf("the link's target's mode changed to %v", fi.Mode().Perm())
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
