package writers

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
)

var testSummary = Summary{
	File:     "ventas.xlsx",
	SHA256:   "ab12",
	Tool:     "nxbatch v0.1.0",
	Command:  "run",
	Kinds:    []string{"venta"},
	Started:  time.Date(2025, 3, 14, 9, 30, 0, 0, time.FixedZone("ART", -3*3600)),
	Finished: time.Date(2025, 3, 14, 9, 31, 5, 0, time.FixedZone("ART", -3*3600)),
	Seconds:  65.5,
	Rows:     map[string]int{"ok": 1, "invalid": 1, "skipped": 1, "unknown": 1},
	Requests: map[string]int{"ok": 1, "invalid": 1, "skipped": 1, "unknown": 1},
	Statuses: []StatusLine{{Code: "ok", Meaning: "enviada y aceptada", Rows: 1, Requests: 1, Tone: ToneDone},
		{Code: "skipped", Meaning: "ya enviada", Rows: 1, Requests: 1, Tone: ToneDone},
		{Code: "invalid", Meaning: "con errores", Rows: 1, Requests: 1, Tone: ToneFix},
		{Code: "unknown", Meaning: "resultado desconocido", Rows: 1, Requests: 1, Tone: ToneCheck},
		{Code: "pending", Meaning: "no enviada", Tone: ToneWaiting}},
	RequestsPlanned: 4,
	RequestsSent:    2,
	TotalInvoiced:   "1234.56",
	Created:         []Created{{Request: "venta 1001", FacturaID: 555, Numero: 12, PVNumero: 3, Rows: [][2]int{{2, 2}}}},
	Warnings:        []string{"=columna desconocida: nota"},
}

func openXLSX(t *testing.T, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

func cellValue(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatalf("%s!%s: %v", sheet, cell, err)
	}
	return v
}

func fillOf(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Fill.Color) == 0 {
		return ""
	}
	return st.Fill.Color[0]
}

func TestWriteXLSXResultSheet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ventas.result.xlsx")
	table := ventaTable
	table.Sheet = "Ventas"
	if err := WriteXLSX(path, []Table{table}, testSummary, msg.ES); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, path)

	if got, want := f.GetSheetList(), []string{"Ventas", "Resumen"}; !slices.Equal(got, want) {
		t.Fatalf("sheets = %v, want %v", got, want)
	}
	if f.GetActiveSheetIndex() != 0 {
		t.Errorf("active sheet = %d, want the first result sheet", f.GetActiveSheetIndex())
	}
	// Columns: A ordenId, B usuario.email, C total, D nota, E status, F message,
	// G row, H request, I facturaId, J numero, K pvNumero.
	cells := []struct{ cell, want string }{
		{"A1", "ordenId"},
		{"E1", "result.status"},
		{"K1", "result.pvNumero"},
		{"A2", "1001"},
		{"C2", "1234,56"}, // input text as typed, never reinterpreted
		{"E2", "ok"},
		{"G2", "2"},
		{"I2", "555"},
		{"B3", "'=HYPERLINK(\"x\")"},
		{"C3", "-5"}, // a plain number, never neutralised
		{"E3", "invalid"},
		{"F3", "total: debe ser mayor o igual a 0"},
		{"I3", ""},
		{"C4", ""}, // short row padded
		{"D5", "línea1\nlínea2"},
		{"F5", "'-sin respuesta"},
		{"A6", ""},
	}
	for _, c := range cells {
		if got := cellValue(t, f, "Ventas", c.cell); got != c.want {
			t.Errorf("Ventas!%s = %q, want %q", c.cell, got, c.want)
		}
	}
	types := []struct {
		cell string
		want excelize.CellType
	}{
		{"A2", excelize.CellTypeInlineString}, // ids typed by the user stay text
		{"G2", excelize.CellTypeUnset},        // a number: result.row
		{"I2", excelize.CellTypeUnset},        // a number: facturaId from the API
	}
	for _, c := range types {
		got, err := f.GetCellType("Ventas", c.cell)
		if err != nil || got != c.want {
			t.Errorf("type of Ventas!%s = %v (%v), want %v", c.cell, got, err, c.want)
		}
	}

	fills := []struct{ cell, want string }{
		{"A2", "C6EFCE"}, // ok: green
		{"K2", "C6EFCE"},
		{"A3", "FFC7CE"}, // invalid: red, every cell of the row
		{"I3", "FFC7CE"},
		{"A5", "FFD8A8"}, // unknown: orange
		{"A1", "F2F2F2"}, // input header
		{"E1", "DDEBF7"}, // result header
	}
	for _, c := range fills {
		if got := fillOf(t, f, "Ventas", c.cell); got != c.want {
			t.Errorf("fill of Ventas!%s = %q, want %q", c.cell, got, c.want)
		}
	}
	id, _ := f.GetCellStyle("Ventas", "A1")
	if st, _ := f.GetStyle(id); st == nil || st.Font == nil || !st.Font.Bold {
		t.Errorf("header A1 is not bold")
	}

	panes, err := f.GetPanes("Ventas")
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
		t.Errorf("panes = %+v, want the header row frozen", panes)
	}
	if w, _ := f.GetColWidth("Ventas", "F"); w < 30 {
		t.Errorf("message column width = %v, want room for the message", w)
	}
	if w, _ := f.GetColWidth("Ventas", "A"); w < minColWidth || w > maxColWidth {
		t.Errorf("column A width = %v, out of limits", w)
	}
	if got := sheetXML(t, path, "xl/worksheets/sheet1.xml"); !strings.Contains(got, `<autoFilter ref="$A$1:$K$5"`) {
		t.Errorf("no autofilter over A1:K5 in sheet1.xml")
	}
}

func TestWriteXLSXSummarySheet(t *testing.T) {
	tests := []struct {
		lang                         msg.Lang
		sheet, result, invoiced, sha string
	}{
		{msg.ES, "Resumen", "Resultado", "Total facturado", "SHA-256 del archivo"},
		{msg.EN, "Summary", "Results", "Total invoiced", "File SHA-256"},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.xlsx")
			if err := WriteXLSX(path, []Table{{Header: []string{"ordenId"}}}, testSummary, tt.lang); err != nil {
				t.Fatal(err)
			}
			f := openXLSX(t, path)
			if got, want := f.GetSheetList(), []string{tt.result, tt.sheet}; !slices.Equal(got, want) {
				t.Fatalf("sheets = %v, want %v", got, want)
			}
			rows, err := f.GetRows(tt.sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			byLabel := map[string][]string{}
			for _, r := range rows {
				if len(r) > 1 {
					byLabel[r[0]] = r[1:]
				}
			}
			want := map[string]string{
				tt.sha:      "ab12",
				tt.invoiced: "1234.56",
				"ok":        "1",
				"invalid":   "1",
				"pending":   "0",
			}
			for label, v := range want {
				if got := byLabel[label]; len(got) == 0 || got[0] != v {
					t.Errorf("%s: %q, want %q", label, got, v)
				}
			}
			if got := byLabel[msg.New("rep.sum.started").In(tt.lang)]; len(got) == 0 || got[0] != "14/03/2025 09:30:00 -03:00" {
				t.Errorf("started = %q", got)
			}
			if got := byLabel[msg.New("rep.sum.total").In(tt.lang)]; len(got) < 2 || got[0] != "4" || got[1] != "4" {
				t.Errorf("totals row = %q, want 4 rows and 4 requests", got)
			}
			if got := byLabel["unknown"]; len(got) < 3 || got[2] != "resultado desconocido" {
				t.Errorf("unknown row = %q, want the meaning the pipeline gave", got)
			}
			var warned bool
			for _, r := range rows {
				warned = warned || (len(r) > 0 && r[0] == "'=columna desconocida: nota")
			}
			if !warned {
				t.Errorf("warning missing or not neutralised")
			}
		})
	}
}

// TestWriteXLSXSplitsLongTables crosses a sheet's row limit with a small
// limit: the rows continue on "<name> (2)" with the header repeated, in
// order, both within the rows held back to size the columns and after them.
func TestWriteXLSXSplitsLongTables(t *testing.T) {
	tests := []struct {
		name       string
		rows       int
		maxRows    int // header included
		wantSheets []string
	}{
		{"split inside the sample", 7, 4, []string{"Stock", "Stock (3)", "Stock (4)", "stock (2)", "Resumen"}},
		{"split after the sample", sampleRows + 250, sampleRows + 21, []string{"Stock", "Stock (3)", "Stock (4)", "stock (2)", "Resumen"}},
		{"exactly full", 3, 4, []string{"Stock", "stock (2)", "Resumen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rows []Row
			var want []string
			for i := range tt.rows {
				rows = append(rows, Row{Cells: []string{fmt.Sprint(100 + i)}, Tone: ToneDone, SourceRow: i + 2, Result: []string{"ok", "", strconv.Itoa(i + 2)}})
				want = append(want, fmt.Sprint(100+i))
			}
			tables := []Table{
				{Sheet: "Stock", Header: []string{"depositoId"}, Rows: rowsOf(rows...)},
				// An input sheet already has the name the first continuation would
				// take: it keeps it, and the continuation takes the next one.
				{Sheet: "stock (2)", Header: []string{"depositoId"}},
			}
			path := filepath.Join(t.TempDir(), "r.xlsx")
			if err := writeXLSX(path, tables, Summary{}, msg.ES, tt.maxRows); err != nil {
				t.Fatal(err)
			}
			f := openXLSX(t, path)
			sheets := f.GetSheetList()
			if !slices.Equal(sheets, tt.wantSheets) {
				t.Fatalf("sheets = %v, want %v", sheets, tt.wantSheets)
			}
			var ids []string
			for _, sheet := range sheets {
				if sheet == "stock (2)" || sheet == "Resumen" {
					continue
				}
				got, err := f.GetRows(sheet)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) == 0 || got[0][0] != "depositoId" {
					t.Errorf("%s: header = %v", sheet, got[:min(1, len(got))])
					continue
				}
				if len(got) > tt.maxRows {
					t.Errorf("%s: %d rows, more than the limit %d", sheet, len(got), tt.maxRows)
				}
				for _, r := range got[1:] {
					ids = append(ids, r[0])
				}
			}
			if !slices.Equal(ids, want) {
				t.Errorf("ids across sheets = %v, want %v", ids, want)
			}
		})
	}
}

func TestEveryToneHasAFill(t *testing.T) {
	for tone := ToneDone; tone <= ToneWaiting; tone++ {
		if toneFill[tone] == "" {
			t.Errorf("tone %d has no row colour", tone)
		}
	}
}

func TestUniqueSheetName(t *testing.T) {
	b := &book{used: map[string]bool{}}
	long := strings.Repeat("x", 40)
	tests := []struct{ base, want string }{
		{"Ventas", "Ventas"},
		{"ventas", "ventas (2)"}, // Excel compares sheet names ignoring case
		{"Ventas", "Ventas (3)"},
		{"a/b:c", "a_b_c"},
		{"'citada'", "citada"},
		{"", "Hoja"},
		{long, strings.Repeat("x", 31)},
		{long, strings.Repeat("x", 27) + " (2)"},
	}
	for _, tt := range tests {
		if got := b.uniqueName(tt.base); got != tt.want {
			t.Errorf("uniqueName(%q) = %q, want %q", tt.base, got, tt.want)
		}
	}
}

func TestIDValue(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"", nil},
		{"555", int64(555)},
		{"0", int64(0)},
		{"0012", "0012"},                         // a leading zero is kept as text
		{"1234567890123456", "1234567890123456"}, // more digits than Excel keeps exactly
		{"-5", "-5"},
		{"+5", "+5"},
		{"12a", "12a"},
	}
	for _, tt := range tests {
		if got := idValue(tt.in); got != tt.want {
			t.Errorf("idValue(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func sheetXML(t *testing.T, path, name string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, zf := range z.File {
		if zf.Name == name {
			rc, err := zf.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("%s not in %s", name, path)
	return ""
}

func TestWriteXLSXFailureKeepsOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.xlsx")
	if err := os.WriteFile(path, []byte("viejo"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := Table{Header: make([]string, excelize.MaxColumns)} // too many columns once result.* is added
	if err := WriteXLSX(path, []Table{bad}, Summary{}, msg.ES); err == nil {
		t.Fatal("no error for a table wider than a sheet")
	}
	if got, _ := os.ReadFile(path); string(got) != "viejo" {
		t.Errorf("old report replaced: %q", got)
	}
}

// TestWideSheetColumnList: a header of 16,368 columns (the most a header
// may have, readers.MaxColumns-ReportColumns) gets widths for its
// first sizedColumns columns only. excelize keeps one entry per column set
// and walks the list for every cell it writes, so a width for every column
// made a wide sheet quadratic (2.3 s for 16,000 columns and 3 rows, where
// 4,000 took 0.5 s).
func TestWideSheetColumnList(t *testing.T) {
	header := make([]string, 16384-16)
	cells := make([]string, len(header))
	for i := range header {
		header[i] = "columna " + strconv.Itoa(i)
		cells[i] = strings.Repeat("v", i%7)
	}
	rows := func(yield func(Row) bool) { yield(Row{Cells: cells}) }
	path := filepath.Join(t.TempDir(), "ancho.result.xlsx")
	if err := WriteXLSX(path, []Table{{Sheet: "Ventas", Header: header, Result: []string{"result.status"}, Rows: rows}}, testSummary, msg.ES); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.Name != "xl/worksheets/sheet1.xml" {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		if n := strings.Count(string(data), "<col "); n == 0 || n > sizedColumns {
			t.Errorf("the sheet lists %d column widths, want between 1 and %d", n, sizedColumns)
		}
		return
	}
	t.Fatal("no first sheet in the workbook")
}
