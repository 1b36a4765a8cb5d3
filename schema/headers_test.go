package schema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/msg"
)

func TestLoadMapping(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		content string
		want    Mapping
		wantKey string // the error's catalog key, "" for none
	}{
		{"json", "m.json", `{"Nro Orden": "ordenid", "Importe": " Productos.Precio "}`,
			Mapping{"nroorden": "ordenId", "importe": "productos.precio"}, ""},
		{"yaml", "m.yaml", "Nro Orden: ordenId\n'Artículo': productos.articuloId\n\"Medio de pago\": medio_pago.tipo\n",
			Mapping{"nroorden": "ordenId", "articulo": "productos.articuloId", "mediodepago": "medioPago.tipo"}, ""},
		{"yml, a number key", "m.yml", "2024: ordenId\n", Mapping{"2024": "ordenId"}, ""},
		{"yaml merge keys and aliases", "m.yaml", "base: &b\n  Nro: ordenId\nmapa:\n  <<: *b\n  Total: total\n", nil, "map.notobject"},
		{"yaml merge at the top", "m.yaml", "<<: {Nro: ordenId}\nTotal: &t total\nSuma: *t\n",
			Mapping{"nro": "ordenId", "total": "total", "suma": "total"}, ""},
		{"empty yaml", "m.yaml", "", Mapping{}, ""},
		{"null yaml", "m.yaml", "~\n", Mapping{}, ""},
		{"same column twice, spelled alike", "m.yaml", "Nro Orden: ordenId\nnro_orden: ordenId\n", Mapping{"nroorden": "ordenId"}, ""},
		{"repeated key", "m.yaml", "Nro: ordenId\nTotal: total\nNro: facturaId\n", nil, "map.duplicate"},
		{"alike keys, different columns", "m.yaml", "Nro Orden: ordenId\nnro_orden: facturaId\n", nil, "map.conflict"},
		{"not a column", "m.json", `{"Nro": "numeroOrden"}`, nil, "map.notcolumn"},
		{"null value", "m.yaml", "Nro:\n", nil, "map.notcolumn"},
		{"a list, not an object", "m.yaml", "- ordenId\n", nil, "map.notobject"},
		{"nested value", "m.yaml", "Nro:\n  a: b\n", nil, "map.notobject"},
		{"bad json", "m.json", `{"Nro": }`, nil, "map.syntax"},
		{"bad yaml", "m.yaml", "a: [b\n", nil, "map.syntax"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			m, err := LoadMapping(path)
			if tc.wantKey != "" {
				var me *msg.Error
				if !errors.As(err, &me) || me.Msg.Key != tc.wantKey {
					t.Fatalf("error %v, want %s", err, tc.wantKey)
				}
				if es := me.Msg.In(msg.ES); !strings.Contains(es, path) || !strings.Contains(es, "--map") {
					t.Errorf("message %q does not name the file and the flag", es)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, m); diff != "" {
				t.Errorf("mapping (-want +got):\n%s", diff)
			}
		})
	}
	_, err := LoadMapping(filepath.Join(t.TempDir(), "nope.yaml"))
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.Key != "map.read" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// mappingFile writes a mapping of keys distinct columns, all to ordenId, in
// format ext ("json" or "yaml") and returns its path.
func mappingFile(tb testing.TB, ext string, keys int) string {
	tb.Helper()
	var b strings.Builder
	if ext == "json" {
		b.WriteString("{")
	}
	for i := range keys {
		if ext == "json" {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"columna %d": "ordenId"`, i)
		} else {
			fmt.Fprintf(&b, "\"columna %d\": ordenId\n", i)
		}
	}
	if ext == "json" {
		b.WriteString("}")
	}
	path := filepath.Join(tb.TempDir(), "m."+ext)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// wideHeader is an audit's crafted header: n unknown columns and ordenId
// at 7.
func wideHeader(n int) []string {
	header := make([]string, n)
	for i := range header {
		header[i] = fmt.Sprintf("Columna Desconocida %d", i)
	}
	header[7] = "ordenId"
	return header
}

// allocsGrowLinearly fails unless fn(2n) allocates at most 2.1 times what
// fn(n) does: counted work, the same on any machine, loaded or not.
func allocsGrowLinearly(t *testing.T, what string, n int, fn func(n int) func()) {
	t.Helper()
	one := testing.AllocsPerRun(1, fn(n))
	two := testing.AllocsPerRun(1, fn(2*n))
	t.Logf("%s: %.0f allocations for %d, %.0f for %d", what, one, n, two, 2*n)
	if one == 0 || two > 2.1*one {
		t.Errorf("%s: %.0f allocations for %d, %.0f for %d: not linear", what, one, n, two, 2*n)
	}
}

// TestLoadMappingIsLinear loads a mapping of MaxMappingEntries keys in each format: every
// key is there, mapped to its column. When yaml.v3 filled a map, its
// repeated-key check compared every pair of keys (175 s for 200,000 keys,
// over a second for these 16,384); walked as a node tree, the work per key is
// constant. The test counts that work as allocations, which grow linearly
// with the keys (12 a YAML key, 6 a JSON key); the pairwise comparison
// allocated nothing, so its time is BenchmarkLoadMapping's to show (ns/key
// flat from 25,000 to 100,000 keys).
func TestLoadMappingIsLinear(t *testing.T) {
	const keys = MaxMappingEntries
	for _, ext := range []string{"json", "yaml"} {
		m, err := LoadMapping(mappingFile(t, ext, keys))
		if err != nil || len(m) != keys {
			t.Fatalf("%s: %d keys, %v", ext, len(m), err)
		}
		for i := range keys {
			if got := m[Normalize(fmt.Sprintf("columna %d", i))]; got != "ordenId" {
				t.Fatalf("%s: columna %d maps to %q, want ordenId", ext, i, got)
			}
		}
		allocsGrowLinearly(t, ext, keys/2, func(n int) func() {
			path := mappingFile(t, ext, n)
			return func() {
				if m, err := LoadMapping(path); err != nil || len(m) != n {
					t.Fatalf("%s: %d keys, %v", ext, len(m), err)
				}
			}
		})
	}
}

// TestHeaderMatchingIsLinear matches a header of 150,000 unknown columns
// (an audit's crafted CSV): the kind is detected and every unknown column
// reported; the work (counted as allocations) grows linearly with the
// columns. Its time is BenchmarkHeaderMatching's.
func TestHeaderMatchingIsLinear(t *testing.T) {
	header := wideHeader(150_000)
	m := Mapping{"nroorden": "ordenId"}
	k, ok := DetectKind(header, m)
	if !ok || k != Venta {
		t.Fatalf("kind %v %v", k, ok)
	}
	lay, _ := Match(Venta, header, m)
	if len(lay.Unknown) != len(header)-1 || lay.Col("ordenId") != 7 {
		t.Fatalf("%d unknown, ordenId at %d", len(lay.Unknown), lay.Col("ordenId"))
	}
	allocsGrowLinearly(t, "header", 10_000, func(n int) func() {
		header := wideHeader(n)
		return func() {
			DetectKind(header, m)
			Match(Venta, header, m)
		}
	})
}

// TestLoadMappingLimits: a mapping file over MaxMappingBytes is refused
// before it is read (a 35 MB YAML map took 90 s and 1.3 GB, issue 23,
// hole 5), and one with more than MaxMappingEntries entries is refused,
// each with a sentence naming the file and the limit.
func TestLoadMappingLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "grande.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// 35 MB of entries, written as a sparse tail after a real start: only
	// its size may be looked at.
	if _, err := f.WriteString("Nro Orden: ordenId\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(35 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var many strings.Builder
	for i := range MaxMappingEntries + 1 {
		fmt.Fprintf(&many, "c%d: ordenId\n", i)
	}
	manyYAML := filepath.Join(dir, "muchas.yaml")
	manyJSON := filepath.Join(dir, "muchas.json")
	var js strings.Builder
	js.WriteString("{")
	for i := range MaxMappingEntries + 1 {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, "%q:\"ordenId\"", fmt.Sprint("c", i))
	}
	js.WriteString("}")
	for p, b := range map[string]string{manyYAML: many.String(), manyJSON: js.String()} {
		if err := os.WriteFile(p, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		path, key, es string
	}{
		{big, "map.toolarge", "pesa más de 1 MB"},
		{manyYAML, "map.toomany", "16384 permitidas"},
		{manyJSON, "map.toomany", "16384 permitidas"},
	}
	for _, tc := range tests {
		_, err := LoadMapping(tc.path)
		var me *msg.Error
		if !errors.As(err, &me) || me.Msg.Key != tc.key {
			t.Fatalf("%s: %v, want %s", tc.path, err, tc.key)
		}
		if es := me.In(msg.ES); !strings.Contains(es, tc.es) || !strings.Contains(es, tc.path) {
			t.Errorf("%s: %q", tc.path, es)
		}
	}
	// Contents past the limit, as read from a pipe whose size is not known
	// beforehand, are refused too.
	if _, err := ParseMapping("x.yaml", make([]byte, MaxMappingBytes+1)); err == nil {
		t.Error("ParseMapping took more than MaxMappingBytes")
	}
}

// FuzzParseMapping feeds arbitrary --map contents, as JSON and as YAML:
// never a panic; a failure is a *msg.Error that names the file; a mapping
// maps normalized keys to column paths of the contract.
func FuzzParseMapping(f *testing.F) {
	for _, s := range []string{
		`{"Nro Orden": "ordenId", "Total": "total"}`,
		"Nro Orden: ordenId\nnro_orden: ordenId\n",
		"base: &b {a: ordenId}\nx:\n  <<: *b\n",
		"a: &x ordenId\nb: *x\n",
		"- a\n- b\n",
		"{a: [1, 2]}",
		"a: ordenId\na: total\n",
		"a: ~\n",
		`{"a": 1}`,
		"",
	} {
		f.Add([]byte(s))
	}
	paths := canonicalPaths()
	valid := map[string]bool{}
	for _, p := range paths {
		valid[p] = true
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"m.json", "m.yaml"} {
			m, err := ParseMapping(name, b)
			if err != nil {
				var me *msg.Error
				if !errors.As(err, &me) || !strings.Contains(me.In(msg.ES), name) {
					t.Fatalf("%s: error %v (%T) does not name the file", name, err, err)
				}
				continue
			}
			if len(m) > MaxMappingEntries {
				t.Fatalf("%s: %d entries", name, len(m))
			}
			for k, v := range m {
				if !valid[v] || Normalize(k) != k {
					t.Fatalf("%s: %q → %q", name, k, v)
				}
			}
		}
	})
}
