package profiles

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

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
