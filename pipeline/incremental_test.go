package pipeline

import (
	"encoding/csv"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

// loadPreview reads content as name and validates it as the page does
// (no bodies kept).
func loadPreview(t *testing.T, name, content string) *File {
	t.Helper()
	return loadValidated(t, name, content, nil, false)
}

// stateOf renders everything a page or a report reads of f's validation.
func stateOf(f *File) string {
	var b strings.Builder
	for _, w := range f.Warnings {
		fmt.Fprintf(&b, "warning %s\n", w.In(msg.EN))
	}
	rows, reqs := f.Counts()
	fmt.Fprintf(&b, "counts %v %v plan %v\n", rows, reqs, f.Plan())
	for _, sh := range f.Sheets {
		fmt.Fprintf(&b, "sheet %q sep %v\n", sh.Info.Name, sh.Sep)
		for ri, r := range sh.Requests {
			fmt.Fprintf(&b, "request %d %q rows %v first %d status %v label %s\n", ri, r.Key, r.Rows, r.firstRow, r.Status, r.Label().In(msg.EN))
		}
		for i := range sh.Rows() {
			rv := sh.RowView(i, msg.EN)
			fmt.Fprintf(&b, "row %d %d %q %v %q %v %q\n", i, rv.Row, rv.Cells, rv.Status, rv.Message, rv.Issues, rv.Request)
		}
		un := slices.Clone(sh.unchecked)
		slices.Sort(un)
		fmt.Fprintf(&b, "unchecked %v reqOf %v\n", un, sh.reqOf)
	}
	// Read again, the file is elsewhere.
	return strings.ReplaceAll(b.String(), f.Path, "FILE")
}

// TestWithCells checks WithCells against reading the file with the cells
// changed, for changes that move rows between requests, repeat or stop
// repeating a key, change the decimal separator or touch a stock sheet;
// and that the state it started from is left as it was.
func TestWithCells(t *testing.T) {
	const sales = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,total,medioPago.tipo,subtotal,descuento,recargo,envio\n"
	const presales = "facturaId,puntoVentaId,electronica,medioPago.tipo\n"
	const stock = "depositoId,motivoId,tipo,fecha,detalle,articulos.articuloId,articulos.cantidad\n"
	tests := []struct {
		name, file, body string
		edits            []CellEdit
	}{
		{"a line's amount", "ventas.csv", sales + "1,a@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n2,b@example.com,105,10,1,10,EFECTIVOO,10,0,0,0\n",
			[]CellEdit{{Row: 1, Col: 6, Value: "EFECTIVO"}}},
		{"a line moves to another sale", "ventas.csv", sales + "1,a@example.com,105,10,1,20,EFECTIVO,10,0,0,0\n2,b@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n1,,105,10,1,,,,,,\n",
			[]CellEdit{{Row: 2, Col: 0, Value: "2"}}},
		{"a sale's rows join", "ventas.csv", sales + "1,a@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n2,b@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n3,c@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n",
			[]CellEdit{{Row: 0, Col: 0, Value: "3"}}},
		{"a comma amount changes the separator", "ventas.csv", sales + "1,a@example.com,105,1.5,1,1.5,EFECTIVO,10,0,0,0\n2,b@example.com,105,10,1,10,EFECTIVO,10,0,0,0\n",
			[]CellEdit{{Row: 1, Col: 3, Value: "10,5"}, {Row: 1, Col: 5, Value: "10,5"}, {Row: 0, Col: 5, Value: "1,5"}}},
		{"a key repeats", "facturar.csv", presales + "1001,1,no,EFECTIVO\n1002,1,no,EFECTIVO\n1003,1,no,EFECTIVO\n",
			[]CellEdit{{Row: 2, Col: 0, Value: "1001"}}},
		{"a key stops repeating", "facturar.csv", presales + "1001,1,no,EFECTIVO\n1001,1,no,EFECTIVO\n1001,1,no,EFECTIVO\n",
			[]CellEdit{{Row: 0, Col: 0, Value: "1004"}}},
		{"a stock row's movement", "stock.csv", stock + "1,1,INGRESO_STOCK,2026-11-20,a,110,1\n1,1,INGRESO_STOCK,2026-11-20,a,110,2\n2,1,INGRESO_STOCK,2026-11-20,a,111,3\n",
			[]CellEdit{{Row: 2, Col: 0, Value: "1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := loadPreview(t, tt.file, tt.body)
			before := stateOf(f)
			got, ok := f.WithCells(0, tt.edits, nil)
			if !ok {
				t.Fatal("WithCells refused the change")
			}
			if after := stateOf(f); after != before {
				t.Errorf("the state it started from changed:\n%s\nwas\n%s", after, before)
			}
			recs, err := csv.NewReader(strings.NewReader(tt.body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tt.edits {
				recs[e.Row+1][e.Col] = e.Value
			}
			var edited strings.Builder
			w := csv.NewWriter(&edited)
			_ = w.WriteAll(recs)
			want := loadPreview(t, tt.file, edited.String())
			if g, w := stateOf(got), stateOf(want); g != w {
				t.Errorf("incremental:\n%s\nread again:\n%s", g, w)
			}
			if !reflect.DeepEqual(got.Sheets[0].msgs, want.Sheets[0].msgs) {
				t.Errorf("messages differ:\n%v\n%v", got.Sheets[0].msgs, want.Sheets[0].msgs)
			}
		})
	}
}

// TestWithCellsRefuses: a change only a new reading of the file can tell
// is refused, and the caller reads the file again.
func TestWithCellsRefuses(t *testing.T) {
	f := loadPreview(t, "ventas.csv", "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"+
		"1,a@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n2,\"b\nc\",105,10,1,10,0,0,0,10,EFECTIVO\n")
	tests := []struct {
		name  string
		edits []CellEdit
	}{
		{"a line end in the value", []CellEdit{{Row: 0, Col: 1, Value: "a\nb"}}},
		{"a carriage return", []CellEdit{{Row: 0, Col: 1, Value: "a\rb"}}},
		{"a line end in the value replaced", []CellEdit{{Row: 1, Col: 1, Value: "b@example.com"}}},
		{"a NUL", []CellEdit{{Row: 0, Col: 1, Value: "a\x00"}}},
		{"not UTF-8", []CellEdit{{Row: 0, Col: 1, Value: "a\xff"}}},
		{"a row left blank", []CellEdit{{Row: 0, Col: 0, Value: ""}, {Row: 0, Col: 1, Value: ""}, {Row: 0, Col: 2, Value: ""},
			{Row: 0, Col: 3, Value: ""}, {Row: 0, Col: 4, Value: ""}, {Row: 0, Col: 5, Value: " "}, {Row: 0, Col: 6, Value: ""},
			{Row: 0, Col: 7, Value: ""}, {Row: 0, Col: 8, Value: ""}, {Row: 0, Col: 9, Value: ""}, {Row: 0, Col: 10, Value: ""}}},
		{"a row out of range", []CellEdit{{Row: 2, Col: 0, Value: "1"}}},
		{"a column out of range", []CellEdit{{Row: 0, Col: 11, Value: "1"}}},
		{"nothing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := f.WithCells(0, tt.edits, nil); ok {
				t.Error("WithCells took the change")
			}
		})
	}
}

// TestWithCellsManyTimes: a cell changed again and again leaves its former
// bytes behind, which are let go once they pass half the arena; the state
// stays the one reading the file gives.
func TestWithCellsManyTimes(t *testing.T) {
	const head = "facturaId,puntoVentaId,electronica,medioPago.tipo\n"
	body := head + "1001,1,no,EFECTIVO\n1002,1,no,EFECTIVO\n1003,1,no,EFECTIVO\n"
	f := loadPreview(t, "facturar.csv", body)
	values := []string{"1001", "1002", "1004", "x"}
	for i := range 200 {
		g, ok := f.WithCells(0, []CellEdit{{Row: i % 3, Col: 0, Value: values[i%len(values)]}}, nil)
		if !ok {
			t.Fatalf("change %d refused", i)
		}
		f = g
	}
	if n := len(f.Sheets[0].store.chunks); n > 100 {
		t.Errorf("%d chunks after 200 changes: what the changes left behind is kept", n)
	}
	recs := [][]string{{"facturaId", "puntoVentaId", "electronica", "medioPago.tipo"}}
	for i := range 3 {
		recs = append(recs, []string{f.Sheets[0].Cell(i, 0), "1", "no", "EFECTIVO"})
	}
	var b strings.Builder
	_ = csv.NewWriter(&b).WriteAll(recs)
	want := loadPreview(t, "facturar.csv", b.String())
	if g, w := stateOf(f), stateOf(want); g != w {
		t.Errorf("after 200 changes:\n%s\nread again:\n%s", g, w)
	}
}
