package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
)

// load writes content to a temp file named name and loads and validates it.
func load(t *testing.T, name, content string, o LoadOptions) *File {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, o)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	f.Validate(nil, true)
	return f
}

// rowView is what a test asserts about one row.
type rowView struct {
	Row     int
	Status  Status
	Request string
	Msg     string
}

func rowsOf(sh *Sheet) []rowView {
	var out []rowView
	req := 3 // result.request
	if sh.Kind == schema.Stock {
		req = 4
	}
	for r := range sh.rows(msg.ES) {
		st, _ := ParseStatus(r.Result[0])
		out = append(out, rowView{r.SourceRow, st, r.Result[req], r.Result[1]})
	}
	return out
}

const ventaHeader = "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"

func TestVentaRowsGroupByOrdenWhereverTheyAre(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+
		"1,a@x.com,100,10,1,30,0,0,0,30,EFECTIVO\n"+
		"2,b@x.com,100,5,1,5,0,0,0,5,EFECTIVO\n"+
		"0001,,101,20,1,,,,,,\n", LoadOptions{})
	sh := f.Sheets[0]
	if len(sh.Requests) != 2 {
		t.Fatalf("requests = %d, want 2 (ordenId 1 and 0001 are one sale)", len(sh.Requests))
	}
	want := []rowView{
		{2, StatusValid, "venta 1", ""},
		{3, StatusValid, "venta 2", ""},
		{4, StatusValid, "venta 1", ""},
	}
	if d := cmp.Diff(want, rowsOf(sh)); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	if got := len(sh.Requests[0].Rows); got != 2 {
		t.Errorf("sale 1 has %d lines, want 2", got)
	}
	if !strings.Contains(string(sh.Requests[0].Result().Body), `"productos":[{"articuloId":100,"precio":10,"cantidad":1},{"articuloId":101,"precio":20,"cantidad":1}]`) {
		t.Errorf("body = %s", sh.Requests[0].Result().Body)
	}
	if !strings.Contains(string(sh.Requests[0].Result().Body), `"numero":1`) {
		t.Errorf("numero must equal ordenId: %s", sh.Requests[0].Result().Body)
	}
}

func TestConflictingOrderValuesMarkEveryRow(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+
		"7,a@x.com,100,10,1,20,0,0,0,20,EFECTIVO\n"+
		"7,b@x.com,101,10,1,20,0,0,0,20,EFECTIVO\n"+
		"8,c@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n", LoadOptions{})
	rows := rowsOf(f.Sheets[0])
	for _, r := range rows[:2] {
		if r.Status != StatusInvalid || !strings.Contains(r.Msg, "usuario.email") {
			t.Errorf("row %d = %+v, want invalid naming usuario.email", r.Row, r)
		}
	}
	if rows[2].Status != StatusValid {
		t.Errorf("other sale affected: %+v", rows[2])
	}
}

func TestFineRowsSayWhichRowBrokeTheRequest(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+
		"7,a@x.com,100,10,1,20,0,0,0,20,EFECTIVO\n"+
		"7,,101,10,0,,,,,,\n", LoadOptions{})
	rows := rowsOf(f.Sheets[0])
	if rows[1].Status != StatusInvalid || !strings.Contains(rows[1].Msg, "cantidad") {
		t.Errorf("bad line: %+v", rows[1])
	}
	if rows[0].Status != StatusInvalid || !strings.Contains(rows[0].Msg, "fila(s) 3") {
		t.Errorf("fine line must point at row 3: %+v", rows[0])
	}
}

func TestParseErrorIsReportedOnceWithItsColumn(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+"9,a@x.com,100,abc,1,10,0,0,0,10,EFECTIVO\n", LoadOptions{})
	r := rowsOf(f.Sheets[0])[0]
	if r.Status != StatusInvalid || !strings.Contains(r.Msg, "«productos.precio»") || !strings.Contains(r.Msg, "«abc»") {
		t.Fatalf("row = %+v", r)
	}
	if strings.Count(r.Msg, "precio") != 1 {
		t.Errorf("the same cell reported twice: %s", r.Msg)
	}
}

func TestRepeatedFacturaIDIsAnErrorOnLaterRows(t *testing.T) {
	f := load(t, "f.csv", "facturaId,puntoVentaId,electronica,medioPago.tipo\n1001,1,no,EFECTIVO\n1002,1,no,EFECTIVO\n1001,1,si,EFECTIVO\n", LoadOptions{})
	rows := rowsOf(f.Sheets[0])
	if rows[0].Status != StatusValid || rows[1].Status != StatusValid {
		t.Errorf("first rows: %+v", rows[:2])
	}
	if rows[2].Status != StatusInvalid || !strings.Contains(rows[2].Msg, "fila 2") {
		t.Errorf("repeated row: %+v", rows[2])
	}
}

func stockCSV(n int, extra func(i int) string) string {
	var b strings.Builder
	b.WriteString("depositoId,motivoId,tipo,fecha,articulos.articuloId,articulos.cantidad,movimiento\n")
	for i := range n {
		b.WriteString(extra(i))
	}
	return b.String()
}

// chunks marks every valid row of a stock sheet pending, as Prepare does
// with an empty journal, and returns the rows per movement request.
func chunks(sh *Sheet) []int {
	for _, r := range sh.Requests {
		if r.Status == StatusValid {
			r.Status = StatusPending
		}
	}
	var got []int
	for _, sd := range sh.packStock(sh.maxArticulos) {
		got = append(got, len(sd.Units))
	}
	return got
}

func TestStockPacking(t *testing.T) {
	tests := []struct {
		name       string
		csv        string
		max        int
		wantChunks []int // rows per request, in order
	}{
		{
			name: "equal movement fields pack, 6 and INGRESO_STOCK are one type, dates in two spellings",
			csv: "depositoId,motivoId,tipo,fecha,articulos.articuloId,articulos.cantidad\n" +
				"1,1,6,2026-11-20,100,1\n1,1,INGRESO_STOCK,20/11/2026,101,1\n2,1,6,2026-11-20,102,1\n",
			max: 500, wantChunks: []int{2, 1},
		},
		{
			name:       "chunks of max-articulos",
			csv:        stockCSV(7, func(i int) string { return "1,1,6,,1" + string(rune('0'+i)) + ",1,\n" }),
			max:        3,
			wantChunks: []int{3, 3, 1},
		},
		{
			name: "the movimiento column groups rows whatever else they say",
			csv: stockCSV(4, func(i int) string {
				if i%2 == 0 {
					return "1,1,6,,10" + string(rune('0'+i)) + ",1,A\n"
				}
				return "1,1,6,,10" + string(rune('0'+i)) + ",1,B\n"
			}),
			max:        500,
			wantChunks: []int{2, 2},
		},
		{
			name:       "the same article on several rows: every row goes",
			csv:        stockCSV(5, func(i int) string { return "1,1,6,,100," + string(rune('1'+i)) + ",\n" }),
			max:        2,
			wantChunks: []int{2, 2, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := load(t, "s.csv", tt.csv, LoadOptions{MaxArticulos: tt.max})
			for _, r := range f.Sheets[0].Requests {
				if r.Status != StatusValid {
					t.Errorf("row %s is %s: %v", r.Key, r.Status, rowsOf(f.Sheets[0]))
				}
			}
			if d := cmp.Diff(tt.wantChunks, chunks(f.Sheets[0])); d != "" {
				t.Errorf("chunks (-want +got):\n%s", d)
			}
		})
	}
}

func TestStockKeysAreStableAcrossLoads(t *testing.T) {
	csv := stockCSV(5, func(i int) string { return "1,1,6,,10" + string(rune('0'+i)) + ",1,\n" })
	a := load(t, "s.csv", csv, LoadOptions{MaxArticulos: 2})
	b := load(t, "s.csv", csv, LoadOptions{MaxArticulos: 2})
	for i := range a.Sheets[0].Requests {
		ra, rb := a.Sheets[0].Requests[i], b.Sheets[0].Requests[i]
		if ra.Key != rb.Key || ra.Result().BodyHash != rb.Result().BodyHash {
			t.Errorf("request %d: keys %s/%s hashes %s/%s", i, ra.Key, rb.Key, ra.Result().BodyHash, rb.Result().BodyHash)
		}
	}
}

func TestDecimalSeparatorIsDetectedPerFile(t *testing.T) {
	comma := "ordenId;usuario.email;productos.articuloId;productos.precio;productos.cantidad;subtotal;descuento;recargo;envio;total;medioPago.tipo\n" +
		"1;a@x.com;100;1.500;1;1.500;0;0;0;1.500,00;EFECTIVO\n"
	f := load(t, "c.csv", comma, LoadOptions{})
	if f.Sheets[0].Sep != schema.SepComma {
		t.Fatalf("sep = %v, want comma", f.Sheets[0].Sep)
	}
	if st := f.Sheets[0].Requests[0].Status; st != StatusValid {
		t.Errorf("1.500 in a comma file is 1500: %v", rowsOf(f.Sheets[0]))
	}
	ambiguous := strings.Replace(comma, "1.500,00", "1.500", 1)
	f = load(t, "a.csv", ambiguous, LoadOptions{})
	if r := rowsOf(f.Sheets[0])[0]; r.Status != StatusInvalid || !strings.Contains(r.Msg, "ambiguo") {
		t.Errorf("no evidence: %+v", r)
	}
	f = load(t, "a.csv", ambiguous, LoadOptions{Sep: schema.SepComma})
	if r := rowsOf(f.Sheets[0])[0]; r.Status != StatusValid {
		t.Errorf("--decimal comma: %+v", r)
	}
}

func TestErrorsFileRefeedsAsIs(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.csv")
	content := ventaHeader + "1,a@x.com,100,10,1,10,0,0,0,11,EFECTIVO\n2,=cmd(),100,5,1,5,0,0,0,5,EFECTIVO\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Validate(nil, false)
	paths, err := f.WriteReports(ReportOptions{Lang: msg.ES, NoXLSX: true})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Load(paths.Errors[0], LoadOptions{})
	if err != nil {
		t.Fatalf("errors file does not load: %v", err)
	}
	again.Validate(nil, false)
	sh := again.Sheets[0]
	if sh.Rows() != 2 || len(sh.Info.Header) != 11 {
		t.Fatalf("re-fed: %d rows, header %v", sh.Rows(), sh.Info.Header)
	}
	if got := sh.store.text(1, sh.Layout.Col("usuario.email")); got != "=cmd()" {
		t.Errorf("neutralised cell came back as %q", got)
	}
}

// TestNeutralisedHeaderRefeeds checks that a header the report neutralised
// (a user's own column starting with '@' or '-') comes back as typed, so that
// a mapping still finds it and the next report does not add a second '.
func TestNeutralisedHeaderRefeeds(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.csv")
	content := "@orden,-notas," + strings.TrimPrefix(ventaHeader, "ordenId,") + "2,x,b@x.com,100,5,1,5,0,0,0,6,EFECTIVO\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	o := LoadOptions{Mapping: schema.Mapping{schema.Normalize("@orden"): "ordenId"}}
	f, err := Load(path, o)
	if err != nil {
		t.Fatal(err)
	}
	f.Validate(nil, false)
	paths, err := f.WriteReports(ReportOptions{Lang: msg.ES, NoXLSX: true})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Load(paths.Errors[0], o)
	if err != nil {
		t.Fatalf("errors file does not load: %v", err)
	}
	if got := again.Sheets[0].Info.Header[:2]; !cmp.Equal(got, []string{"@orden", "-notas"}) {
		t.Errorf("re-fed header %q, want the header as typed", got)
	}
}

func TestFileErrors(t *testing.T) {
	tests := []struct {
		name, file, content string
		code                error // the error's code, for errors.Is
		sheetCode           error // a schema code the error wraps, if any
	}{
		{"missing required column", "v.csv", "ordenId,total\n1,2\n", ErrHeader, schema.ErrMissingColumn},
		{"no kind", "x.csv", "a,b\n1,2\n", ErrNoKind, nil},
		{"header only", "v.csv", ventaHeader, ErrNoRows, nil},
		{"empty file", "e.csv", "", readers.ErrEmptyFile, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.file)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, LoadOptions{})
			var fe *msg.Error
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *msg.Error", err)
			}
			if fe.Pos.File != path || fe.Pos.Row != 0 {
				t.Errorf("position %+v, want the file %s", fe.Pos, path)
			}
			if !strings.Contains(fe.In(msg.ES), filepath.Base(path)) {
				t.Errorf("message does not name the file: %s", fe.In(msg.ES))
			}
			if !errors.Is(err, tt.code) {
				t.Errorf("err = %v, want code %v", err, tt.code)
			}
			if tt.sheetCode != nil && !errors.Is(err, tt.sheetCode) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.sheetCode)
			}
		})
	}
}

// TestParallelValidationMatchesInput runs a file large enough to validate
// on several cores (CI runs it under -race) and checks every row landed on
// its own request's outcome and message.
func TestParallelValidationMatchesInput(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(ventaHeader)
	const sales = parallelFrom + 500
	for i := range sales {
		total := "10"
		if i%7 == 0 {
			total = "11" // wrong: subtotal 10
		}
		// Two lines per sale, the second far away, to cross worker ranges.
		fmt.Fprintf(&sb, "%d,c%d@x.com,100,5,1,10,0,0,0,%s,EFECTIVO\n", 10_000+i, i, total)
	}
	for i := range sales {
		fmt.Fprintf(&sb, "%d,,101,5,1,,,,,,\n", 10_000+i)
	}
	f := load(t, "big.csv", sb.String(), LoadOptions{})
	sh := f.Sheets[0]
	for i, r := range rowsOf(sh) {
		sale := i % sales
		wantBad := sale%7 == 0
		if got := r.Status == StatusInvalid; got != wantBad {
			t.Fatalf("row %d (sale %d): status %s, want invalid=%v", r.Row, sale, r.Status, wantBad)
		}
		if wantBad && !strings.Contains(r.Msg, "11,00") {
			t.Fatalf("row %d: message %q does not show the total", r.Row, r.Msg)
		}
		if want := fmt.Sprintf("venta %d", 10_000+sale); r.Request != want {
			t.Fatalf("row %d: request %q, want %q", r.Row, r.Request, want)
		}
	}
}

func TestUnknownReasonIsReadable(t *testing.T) {
	tests := []struct {
		out  apiclient.Outcome
		want string
	}{
		{apiclient.Outcome{Message: "La solicitud ya se esta procesando", Status: 400}, "«La solicitud ya se esta procesando»"},
		{apiclient.Outcome{Err: fmt.Errorf("Post %q: %w", "http://x/venta", context.DeadlineExceeded)}, "no respondió a tiempo"},
		{apiclient.Outcome{Err: fmt.Errorf("Post %q: %w", "http://x/venta", io.EOF), Written: true}, "se cortó la conexión"},
		{apiclient.Outcome{Status: 502}, "HTTP 502"},
		{apiclient.Outcome{Status: 200}, "sin decir si la registró"},
	}
	for _, tt := range tests {
		got := unknownReason(tt.out).In(msg.ES)
		if !strings.Contains(got, tt.want) || strings.Contains(got, "http://") {
			t.Errorf("%+v: %q, want it to contain %q and no URL", tt.out, got, tt.want)
		}
	}
}

// TestXLSXTextNumbersFollowTheFile checks that a text cell that looks like a
// stored number but is not one ("1.500", as the XLSX report writes a CSV
// input's cell) is read with the file's decimal separator, not as 1.5.
func TestXLSXTextNumbersFollowTheFile(t *testing.T) {
	x := excelize.NewFile()
	rows := [][]any{
		{"ordenId", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"},
		{1, "a@x.com", 100, "1.500", 1, "1.500,00", 0, 0, 0, 1500, "EFECTIVO"},
		{2, "b@x.com", 100, 2.5, 2, 5, 0, 0, 0, 5, "EFECTIVO"},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "v.xlsx")
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Validate(nil, true)
	sh := f.Sheets[0]
	for _, want := range []string{`"productos":[{"articuloId":100,"precio":1500,"cantidad":1}]`, `"productos":[{"articuloId":100,"precio":2.5,"cantidad":2}]`} {
		found := false
		for _, r := range sh.Requests {
			found = found || strings.Contains(string(r.Result().Body), want)
		}
		if !found {
			t.Errorf("no request has %s; rows: %+v", want, rowsOf(sh))
		}
	}
}

func TestExtraCellsStayInTheReport(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+"1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO,nota suelta,42\n", LoadOptions{})
	r := rowsOf(f.Sheets[0])[0]
	if r.Status != StatusInvalid || !strings.Contains(r.Msg, "«nota suelta», «42»") {
		t.Errorf("row = %+v: want invalid with the extra cells quoted", r)
	}
}

// TestStockRowIdentities: a row's identity follows its movement, its
// article and its occurrence, never its position or its quantity; a bad
// row keeps only itself from going.
func TestStockRowIdentities(t *testing.T) {
	row := func(art, qty string) string { return "1,1,6,2026-11-20," + art + "," + qty + ",\n" }
	full := stockCSV(0, nil) + row("100", "5") + row("101", "5") + row("100", "2") + row("103", "bad")
	first := load(t, "inv.csv", full, LoadOptions{MaxArticulos: 2}).Sheets[0]
	ids := map[string]bool{}
	for _, r := range first.Requests {
		ids[r.Key] = true
	}
	if len(ids) != 4 {
		t.Errorf("4 rows have %d identities, want 4 (article 100 twice is two rows)", len(ids))
	}
	var st []Status
	for _, r := range first.Requests {
		st = append(st, r.Status)
	}
	if d := cmp.Diff([]Status{StatusValid, StatusValid, StatusValid, StatusInvalid}, st); d != "" {
		t.Errorf("statuses (-want +got):\n%s", d)
	}
	tests := []struct {
		name     string
		csv      string
		sameID   []bool // per row of the first file: same identity
		sameBody []bool
	}{
		{"the same file again", full, []bool{true, true, true, true}, []bool{true, true, true}},
		{"a quantity changed", strings.Replace(full, "100,5", "100,7", 1), []bool{true, true, true, true}, []bool{false, true, true}},
		{"a row inserted before", stockCSV(0, nil) + row("104", "1") + full[len(stockCSV(0, nil)):], nil, nil},
		{"another max-articulos", full, []bool{true, true, true, true}, []bool{true, true, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sh := load(t, "inv.csv", tc.csv, LoadOptions{MaxArticulos: 500}).Sheets[0]
			got := sh.Requests
			if tc.sameID == nil { // inserted: the old rows follow it, unchanged
				got = got[1:]
				tc.sameID, tc.sameBody = []bool{true, true, true, true}, []bool{true, true, true}
			}
			for i, want := range tc.sameID {
				if (got[i].Key == first.Requests[i].Key) != want {
					t.Errorf("row %d: identity %s vs %s, want same=%v", i, got[i].Key, first.Requests[i].Key, want)
				}
			}
			for i, want := range tc.sameBody {
				if (got[i].Result().BodyHash == first.Requests[i].Result().BodyHash) != want {
					t.Errorf("row %d: body hash same=%v, want %v", i, !want, want)
				}
			}
		})
	}
}

func TestHiddenSheetsWithoutKindAreSkippedQuietly(t *testing.T) {
	x := excelize.NewFile()
	defer x.Close()
	x.SetSheetName("Sheet1", "Ventas")
	x.SetSheetRow("Ventas", "A1", &[]any{"ordenId", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"})
	x.SetSheetRow("Ventas", "A2", &[]any{1, "a@x.com", 100, 10, 1, 10, 0, 0, 0, 10, "EFECTIVO"})
	for _, name := range []string{"Notas", "Listas"} {
		x.NewSheet(name)
		x.SetSheetRow(name, "A1", &[]any{"algo", "otra cosa"})
	}
	x.SetSheetVisible("Listas", false)
	path := filepath.Join(t.TempDir(), "t.xlsx")
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, w := range f.Warnings {
		keys = append(keys, fmt.Sprint(w.Key, w.Args))
	}
	if d := cmp.Diff([]string{"load.sheetnokind[Notas]"}, keys); d != "" || len(f.Sheets) != 1 {
		t.Errorf("sheets %d, warnings (-want +got):\n%s", len(f.Sheets), d)
	}
}

// TestRowIssuesPointAtTheirCells: a page marks each problem on its cell:
// the column of the field it is about, or the whole row.
func TestRowIssuesPointAtTheirCells(t *testing.T) {
	f := load(t, "v.csv", ventaHeader+
		"1,a@x.com,100,10,abc,10,0,0,0,11,EFECTIVO\n"+
		"2,b@x.com,100,10,1,10,0,0,0,10,EFECTIVO,de más\n", LoadOptions{})
	sh := f.Sheets[0]
	col := func(path string) int { return sh.Layout.Col(path) }
	tests := []struct {
		row  int
		want map[int]bool // columns with an issue (-1: the whole row)
	}{
		{0, map[int]bool{col("productos.cantidad"): true}},
		{1, map[int]bool{-1: true}},
	}
	for _, tc := range tests {
		got := map[int]bool{}
		for _, is := range sh.RowIssues(tc.row, msg.ES) {
			got[is.Column] = true
			if is.Text == "" {
				t.Errorf("row %d: an issue without text", tc.row)
			}
		}
		for c := range tc.want {
			if !got[c] {
				t.Errorf("row %d: issues on columns %v, want one on %d", tc.row, got, c)
			}
		}
	}
}

// TestReportWorkbookFedBack: a result workbook fed back as input (fixed in
// Excel, uploaded again) is read without a word about its own summary
// sheet, in either language; a user's sheet called Resumen that holds
// something else still gets its warning.
func TestReportWorkbookFedBack(t *testing.T) {
	for _, l := range []msg.Lang{msg.ES, msg.EN} {
		dir := t.TempDir()
		f := load(t, "v.csv", ventaHeader+"1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n", LoadOptions{})
		f.Validate(nil, false)
		paths, err := f.WriteReports(ReportOptions{Dir: dir, Lang: l})
		if err != nil {
			t.Fatal(err)
		}
		back, err := Load(paths.XLSX, LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if len(back.Warnings) != 0 || len(back.Sheets) != 1 {
			t.Errorf("%s: %d sheets, warnings %v; want the data sheet alone, quietly", l, len(back.Sheets), back.Warnings)
		}
	}
	x := excelize.NewFile()
	defer x.Close()
	x.SetSheetName("Sheet1", "Ventas")
	x.SetSheetRow("Ventas", "A1", &[]any{"ordenId", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"})
	x.SetSheetRow("Ventas", "A2", &[]any{1, "a@x.com", 100, 10, 1, 10, 0, 0, 0, 10, "EFECTIVO"})
	x.NewSheet("Resumen")
	x.SetSheetRow("Resumen", "A1", &[]any{"Totales del mes", "ventas"})
	path := filepath.Join(t.TempDir(), "r.xlsx")
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Key != "load.sheetnokind" {
		t.Errorf("a user's Resumen sheet: warnings %v, want it named", f.Warnings)
	}
}

// TestCSVTitleLineAboveHeader: a CSV whose title line has no delimiter
// above the header loads as the kind its header names, found by the
// header probe or named by --header-row (issue 23, hole 12).
func TestCSVTitleLineAboveHeader(t *testing.T) {
	content := "Ventas de noviembre - sucursal centro\n" + ventaHeader + "1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n"
	for _, o := range []LoadOptions{{}, {Reader: readers.Options{HeaderRow: 2}}} {
		f := load(t, "ventas.csv", content, o)
		if len(f.Sheets) != 1 || f.Sheets[0].Kind != schema.Venta || f.Sheets[0].Info.HeaderRow != 2 {
			t.Fatalf("header row %d: sheets %+v", o.Reader.HeaderRow, f.Sheets)
		}
		if got := rowsOf(f.Sheets[0]); len(got) != 1 || got[0].Row != 3 {
			t.Errorf("header row %d: rows %+v", o.Reader.HeaderRow, got)
		}
	}
}

// TestHeaderProbeKindPerSheet: the kind the header probe detects on one
// sheet is not assumed on the next: a stock sheet with a title row after
// a venta sheet is found as stock.
func TestHeaderProbeKindPerSheet(t *testing.T) {
	x := excelize.NewFile()
	defer x.Close()
	x.SetSheetName("Sheet1", "Ventas")
	x.SetSheetRow("Ventas", "A1", &[]any{"ordenId", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"})
	x.SetSheetRow("Ventas", "A2", &[]any{1, "a@x.com", 100, 10, 1, 10, 0, 0, 0, 10, "EFECTIVO"})
	x.NewSheet("Stock")
	x.SetSheetRow("Stock", "A1", &[]any{"Recuento de noviembre"})
	x.SetSheetRow("Stock", "A2", &[]any{"depositoId", "motivoId", "tipo", "fecha", "detalle", "articulos.articuloId", "articulos.cantidad"})
	x.SetSheetRow("Stock", "A3", &[]any{1, 1, "INGRESO_STOCK", "2026-11-20", "Recuento", 110, 25})
	path := filepath.Join(t.TempDir(), "t.xlsx")
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, sh := range f.Sheets {
		kinds = append(kinds, fmt.Sprint(sh.Info.Name, ":", sh.Kind, ":", sh.Info.HeaderRow))
	}
	if d := cmp.Diff([]string{"Ventas:venta:1", "Stock:stock:2"}, kinds); d != "" {
		t.Errorf("sheets (-want +got):\n%s\nwarnings %v", d, f.Warnings)
	}
}

// TestNoErrorsFileWhenNothingNeedsFixing: a file whose rows are all fine
// gets no errors file, and one an earlier run of it left is removed; a
// file with a row to fix gets one with that row only.
func TestNoErrorsFileWhenNothingNeedsFixing(t *testing.T) {
	good := "1,a@x.com,100,10,1,10,0,0,0,10,EFECTIVO\n"
	bad := "2,b@x.com,100,5,1,5,0,0,0,6,EFECTIVO\n"
	tests := []struct {
		name     string
		content  string
		stale    bool // an errors file of an earlier run is there
		wantRows int  // rows of the errors file; -1: no file
	}{
		{"all fine", ventaHeader + good, false, -1},
		{"all fine, stale errors file removed", ventaHeader + good, true, -1},
		{"one to fix", ventaHeader + good + bad, false, 1},
		{"one to fix, stale errors file replaced", ventaHeader + good + bad, true, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "v.csv")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			errs := filepath.Join(dir, "v.errors.csv")
			if tc.stale {
				if err := os.WriteFile(errs, []byte("old;rows\n1;2\n3;4\n5;6\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			f, err := Load(path, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f.Validate(nil, false)
			paths, err := f.WriteReports(ReportOptions{Lang: msg.ES, NoXLSX: true})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(errs)
			if tc.wantRows < 0 {
				if err == nil || len(paths.Errors) != 0 {
					t.Fatalf("an errors file with nothing to fix: %v\n%s", paths.Errors, data)
				}
				return
			}
			if err != nil || len(paths.Errors) != 1 {
				t.Fatalf("errors file %v: %v", paths.Errors, err)
			}
			if got := strings.Count(strings.TrimSpace(string(data)), "\n"); got != tc.wantRows {
				t.Errorf("errors file has %d rows, want %d:\n%s", got, tc.wantRows, data)
			}
		})
	}
}

// TestRememberedCellsParseAsTheirOwn holds the builder's per-column memo to
// what parsing every cell gives: the same text down a column, a bad cell
// after good ones (and the same bad cell again), text that differs only in
// blanks, and a column whose cells all differ (past the memo's trial, when
// it stops remembering).
func TestRememberedCellsParseAsTheirOwn(t *testing.T) {
	tests := []struct {
		name  string
		cells func(i int) (precio, medio string) // row i's price and payment type
		bad   func(i int) bool                   // whether row i must be invalid
		rows  int
	}{
		{"same text down the column", func(int) (string, string) { return "5", "EFECTIVO" }, func(int) bool { return false }, 40},
		{"bad cells after good ones, twice", func(i int) (string, string) {
			if i == 10 || i == 11 {
				return "5", "TRUEQUE"
			}
			return "5", "EFECTIVO"
		}, func(i int) bool { return i == 10 || i == 11 }, 20},
		{"a bad price between equal good ones", func(i int) (string, string) {
			if i == 3 {
				return "5x", "EFECTIVO"
			}
			return "5", "EFECTIVO"
		}, func(i int) bool { return i == 3 }, 10},
		{"blanks around the same text", func(i int) (string, string) {
			if i%2 == 0 {
				return " 5", "EFECTIVO "
			}
			return "5", "EFECTIVO"
		}, func(int) bool { return false }, 10},
		{"every price differs, past the trial", func(i int) (string, string) {
			if i == memoTrial+50 {
				return "abc", "EFECTIVO"
			}
			return fmt.Sprintf("%d", 5+i), "EFECTIVO"
		}, func(i int) bool { return i == memoTrial+50 }, memoTrial + 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			sb.WriteString(ventaHeader)
			for i := range tc.rows {
				p, m := tc.cells(i)
				price := 5 + i
				if _, err := fmt.Sscan(strings.TrimSpace(p), &price); err != nil {
					price = 5
				}
				fmt.Fprintf(&sb, "%d,c%d@x.com,100,%s,1,%d,0,0,0,%d,%s\n", 10_000+i, i, p, price, price, m)
			}
			f := load(t, "v.csv", sb.String(), LoadOptions{})
			rows := rowsOf(f.Sheets[0])
			if len(rows) != tc.rows {
				t.Fatalf("%d rows, want %d", len(rows), tc.rows)
			}
			for i, r := range rows {
				if got := r.Status == StatusInvalid; got != tc.bad(i) {
					t.Errorf("row %d: status %s (%s), want invalid=%v", r.Row, r.Status, r.Msg, tc.bad(i))
				}
			}
		})
	}
}
