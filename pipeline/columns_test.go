package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
)

// This file ties schema's column list to the builder's switches in
// build.go: every column a kind declares must reach the JSON body at its
// path, and every field the builder writes must be a declared column (or a
// derived field listed here).

// notSent are declared columns deliberately absent from the body, with why.
var notSent = map[schema.Kind]map[string]string{
	schema.Venta:  resolvedColumns("productos"),
	schema.Pedido: resolvedColumns("productos"),
	schema.Stock: func() map[string]string {
		m := resolvedColumns("articulos")
		m[schema.Movimiento] = "grouping key: rows sharing it are packed into one movement request; the API has no such field"
		return m
	}(),
}

// resolvedColumns are the article keys of a line: resolved against the
// article catalog into its ids (TestArticleColumnsResolveIntoIDs), never
// sent themselves.
func resolvedColumns(prefix string) map[string]string {
	m := map[string]string{}
	for _, k := range schema.ArticleKeys {
		m[prefix+"."+k] = "resolved against the article catalog into " + prefix + ".articuloId, talleId and colorId; the API takes ids only"
	}
	return m
}

// derived are body fields that no column fills directly, with where they
// come from.
var derived = map[schema.Kind]map[string]string{
	schema.Venta: {
		"numero": "= ordenId (buildVenta; nxbatch.md 3.3)",
	},
	schema.Pedido: {
		"numero": "= ordenId (buildPedido; public-facts.md, Orders)",
	},
}

// cellFor returns a valid cell for column c (the k-th of its kind, so that
// values differ between columns and a field set from the wrong column
// shows) and the JSON value the body must carry for it.
func cellFor(c schema.Column, k int) (cellText string, want any) {
	switch c.Path {
	case "usuario.email":
		return "ana@example.com", "ana@example.com"
	}
	switch c.Type {
	case schema.Int:
		n := 1000 + k
		return fmt.Sprint(n), float64(n)
	case schema.Number:
		return fmt.Sprintf("%d.25", 10+k), float64(10+k) + 0.25
	case schema.Bool:
		return "si", true
	case schema.Date:
		return "15/03/2026", "2026-03-15"
	case schema.MedioTipo:
		return "EFECTIVO", float64(1)
	case schema.StockTipo:
		return "TRANSFERENCIA", float64(10)
	case schema.Condicion:
		return "RI", float64(2)
	case schema.Digits:
		return fmt.Sprintf("20-%08d-3", k), fmt.Sprintf("20%08d3", k)
	default: // Text
		v := "t-" + strings.ReplaceAll(c.Path, ".", "-")
		return v, v
	}
}

// buildOne loads a one-row file of kind with the given header and cells
// and builds its request through the builder validation uses (check for
// venta and facturar, checkMovement for stock), returning the decoded JSON
// body.
func buildOne(t *testing.T, kind schema.Kind, header, cells []string) map[string]any {
	t.Helper()
	path := filepath.Join(t.TempDir(), string(kind)+".csv")
	content := strings.Join(header, ",") + "\n" + strings.Join(cells, ",") + "\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(f.Sheets) != 1 || f.Sheets[0].Kind != kind {
		t.Fatalf("loaded %d sheets, want one of kind %s", len(f.Sheets), kind)
	}
	sh := f.Sheets[0]
	b := newBuilder(sh)
	var body any
	switch kind {
	case schema.Venta:
		r := sh.Requests[0]
		b.reset(r)
		body = b.buildVenta(r)
	case schema.Facturar:
		r := sh.Requests[0]
		b.reset(r)
		body = b.buildFacturar(r)
	case schema.Pedido:
		r := sh.Requests[0]
		b.reset(r)
		body = b.buildPedido(r)
	case schema.Cancelar:
		b.reset(sh.Requests[0])
		body = b.buildCancelar()
	case schema.Stock:
		mv := sh.Movements[0]
		rows := make([]int32, len(mv.Units))
		for k, u := range mv.Units {
			rows[k] = u.Rows[0]
		}
		b.resetRows(rows)
		body = b.buildStock()
	}
	for _, is := range b.issues {
		t.Errorf("cell problem on %s: %s", is.field, is.msg.In(msg.EN))
	}
	js, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(js, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// at returns the value at a column path in a decoded body; the array of a
// line column's first segment is entered at its first element
// (productos.articuloId is productos[0].articuloId).
func at(body map[string]any, path string) (any, bool) {
	var cur any = body
	for _, seg := range strings.Split(path, ".") {
		if arr, ok := cur.([]any); ok {
			if len(arr) == 0 {
				return nil, false
			}
			cur = arr[0]
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// leaves lists the paths of every scalar field in a decoded body, array
// elements named by the array's path.
func leaves(prefix string, v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			leaves(p, e, out)
		}
	case []any:
		for _, e := range v {
			leaves(prefix, e, out)
		}
	default:
		out[prefix] = true
	}
}

func TestEveryColumnReachesItsJSONPath(t *testing.T) {
	for _, kind := range schema.Kinds {
		cols := kind.Columns()
		header := make([]string, len(cols))
		for i, c := range cols {
			header[i] = c.Path
		}
		for i, c := range cols {
			if _, skip := notSent[kind][c.Path]; skip {
				continue // TestEveryBuiltFieldIsADeclaredColumn checks it changes nothing
			}
			t.Run(string(kind)+"/"+c.Path, func(t *testing.T) {
				cells := make([]string, len(cols))
				text, want := cellFor(c, i)
				cells[i] = text
				body := buildOne(t, kind, header, cells)
				got, ok := at(body, c.Path)
				if !ok {
					js, _ := json.Marshal(body)
					t.Fatalf("cell %q of column %s is not in the body at %s: %s", text, c.Path, c.Path, js)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %v (%T), want %v (%T)", c.Path, got, got, want, want)
				}
			})
		}
	}
}

func TestEveryBuiltFieldIsADeclaredColumn(t *testing.T) {
	for _, kind := range schema.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			cols := kind.Columns()
			header := make([]string, len(cols))
			cells := make([]string, len(cols))
			declared := map[string]bool{}
			for i, c := range cols {
				header[i] = c.Path
				cells[i], _ = cellFor(c, i)
				declared[c.Path] = true
			}
			for p := range notSent[kind] {
				if !declared[p] {
					t.Errorf("notSent lists %s, which schema does not declare for %s", p, kind)
				}
			}
			full := buildOne(t, kind, header, cells)
			got := map[string]bool{}
			leaves("", full, got)
			var paths []string
			for p := range got {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				if !declared[p] && derived[kind][p] == "" {
					t.Errorf("the builder writes %s, which is neither a declared %s column nor a listed derived field", p, kind)
				}
				if _, no := notSent[kind][p]; no {
					t.Errorf("%s is listed as not sent but the builder writes it", p)
				}
			}
			for _, c := range cols {
				_, no := notSent[kind][c.Path]
				if !no && !got[c.Path] {
					t.Errorf("declared column %s is missing from the fully-filled body", c.Path)
				}
			}
			for p := range derived[kind] {
				if !got[p] {
					t.Errorf("derived field %s is missing from the fully-filled body", p)
				}
			}
			if kind == schema.Venta {
				if n, o := full["numero"], full["ordenId"]; n != o {
					t.Errorf("numero = %v, want ordenId %v", n, o)
				}
			}
			// A column that is not sent leaves the body unchanged.
			for i, c := range cols {
				if _, no := notSent[kind][c.Path]; !no {
					continue
				}
				without := append([]string(nil), cells...)
				without[i] = ""
				if other := buildOne(t, kind, header, without); !reflect.DeepEqual(other, full) {
					t.Errorf("blanking %s, which is not sent, changed the body", c.Path)
				}
			}
		})
	}
}
