package schema

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestLoadMappingIsLinear loads a 50,000-key mapping in each format. When
// yaml.v3 filled a map, its repeated-key check compared every pair of keys:
// 175 s for 200,000 keys, some 11 s for these 50,000. Walked as a node tree
// it takes a fraction of a second.
func TestLoadMappingIsLinear(t *testing.T) {
	const keys = 50_000
	var js, ym strings.Builder
	js.WriteString("{")
	for i := range keys {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, `"columna %d": "ordenId"`, i)
		fmt.Fprintf(&ym, "\"columna %d\": ordenId\n", i)
	}
	js.WriteString("}")
	for _, f := range []struct{ name, content string }{{"m.json", js.String()}, {"m.yaml", ym.String()}} {
		path := filepath.Join(t.TempDir(), f.name)
		if err := os.WriteFile(path, []byte(f.content), 0o600); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		m, err := LoadMapping(path)
		if err != nil || len(m) != keys {
			t.Fatalf("%s: %d keys, %v", f.name, len(m), err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: %d keys took %v", f.name, keys, d)
		}
	}
}

// TestHeaderMatchingIsLinear matches a header of 150,000 unknown columns
// (an audit's crafted CSV): detection and matching must stay linear.
func TestHeaderMatchingIsLinear(t *testing.T) {
	header := make([]string, 150_000)
	for i := range header {
		header[i] = fmt.Sprintf("Columna Desconocida %d", i)
	}
	header[7] = "ordenId"
	m := Mapping{"nroorden": "ordenId"}
	start := time.Now()
	k, ok := DetectKind(header, m)
	if !ok || k != Venta {
		t.Fatalf("kind %v %v", k, ok)
	}
	lay, _ := Match(Venta, header, m)
	if len(lay.Unknown) != len(header)-1 || lay.Col("ordenId") != 7 {
		t.Fatalf("%d unknown, ordenId at %d", len(lay.Unknown), lay.Col("ordenId"))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("150,000 columns took %v", d)
	}
}
