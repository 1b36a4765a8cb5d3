package writers

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// TestWorkbookLayout: columns are as wide as their cells as shown (a date
// under a three-letter header, an amount with its separators), amounts
// get the #,##0.00 format and other numbers none, a message longer than
// its column wraps and its row is as tall as its lines, and the sheet
// prints landscape, header row and first column repeated, as many pages
// across as keep it readable.
func TestWorkbookLayout(t *testing.T) {
	serial, _ := cell.SerialOf(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), false)
	date := strconv.FormatFloat(serial, 'f', -1, 64) // as the pipeline stores a date
	long := strings.Repeat("palabra ", 30) + "fin"
	kinds := []cell.Kind{cell.Number, cell.Date, cell.Number, cell.Text}
	table := Table{
		Header:  []string{"ordenId", "fec", "total", "nota"},
		Amounts: []int{2},
		Rows: rowsOf(
			Row{Cells: []string{"893001", date, "1234567.5", "x"}, Kinds: kinds, Tone: ToneDone,
				Result: []string{"enviada", "bien", "2", "venta 893001", "50001", "1", "1"}, SourceRow: 2},
			Row{Cells: []string{"893002", date, "1", "x"}, Kinds: kinds, Tone: ToneFix,
				Result: []string{"con errores", long, "3", "venta 893002"}, SourceRow: 3},
		),
	}
	path := filepath.Join(t.TempDir(), "v.result.xlsx")
	if err := WriteXLSX(path, []Table{table}, testSummary, msg.ES); err != nil {
		t.Fatal(err)
	}
	f := openXLSX(t, path)
	sheet := f.GetSheetList()[0]

	widths := []struct {
		col string
		min float64
	}{
		{"B", 12}, // 20/11/2026 under "fec"
		{"C", 14}, // 1,234,567.50
	}
	for _, w := range widths {
		if got, _ := f.GetColWidth(sheet, w.col); got < w.min {
			t.Errorf("column %s is %v wide, want at least %v (it would show ###)", w.col, got, w.min)
		}
	}
	formats := []struct {
		cell, want string
	}{
		{"A2", "893001"},       // an id: no separators
		{"B2", "20/11/2026"},   // a date
		{"C2", "1,234,567.50"}, // an amount
		{"C3", "1.00"},
	}
	for _, c := range formats {
		if got, _ := f.GetCellValue(sheet, c.cell); got != c.want {
			t.Errorf("%s shows %q, want %q", c.cell, got, c.want)
		}
	}
	msgCell := "F3" // result.message
	st, _ := f.GetCellStyle(sheet, msgCell)
	style, _ := f.GetStyle(st)
	if style == nil || style.Alignment == nil || !style.Alignment.WrapText {
		t.Errorf("%s (%d characters) does not wrap: %+v", msgCell, len(long), style)
	}
	if got, _ := f.GetColWidth(sheet, "F"); got > maxMessageWidth {
		t.Errorf("message column %v wide, more than %d", got, maxMessageWidth)
	}
	if h, _ := f.GetRowHeight(sheet, 3); h < 4*lineHeight {
		t.Errorf("row 3 is %v points high for a message of %d characters in a %d-wide column", h, len(long), maxMessageWidth)
	}
	if h, _ := f.GetRowHeight(sheet, 2); h > lineHeight {
		t.Errorf("row 2, one line, is %v points high", h)
	}

	xml := sheetXML(t, path, "xl/worksheets/sheet1.xml")
	for _, want := range []string{`orientation="landscape"`, `fitToHeight="0"`, `pageOrder="overThenDown"`, `fitToPage="true"`} {
		if !strings.Contains(xml, want) {
			t.Errorf("sheet XML lacks %s", want)
		}
	}
	if sum := sheetXML(t, path, "xl/worksheets/sheet2.xml"); !strings.Contains(sum, `orientation="landscape"`) || !strings.Contains(sum, `fitToWidth="1"`) {
		t.Error("the summary sheet does not print landscape on one page across")
	}
	names := f.GetDefinedName()
	found := false
	for _, n := range names {
		if n.Name == "_xlnm.Print_Titles" && n.Scope == sheet && strings.Contains(n.RefersTo, "$1:$1") && strings.Contains(n.RefersTo, "$A:$A") {
			found = true
		}
	}
	if !found {
		t.Errorf("no print titles (header row, first column) for %s: %+v", sheet, names)
	}
}

// TestPagesAcross: a sheet that fits one page at a readable scale prints
// one page across; a wider one over as many pages across as keep the
// scale readable (its column widths × 55% over the 90 characters of a
// page at 100%), never squeezed onto one.
func TestPagesAcross(t *testing.T) {
	tests := []struct {
		columns int
		want    int
	}{
		{1, 1},
		{6, 1},   // 6 × 26 = 156 characters: 86 at 55%
		{7, 2},   // 182: 100 at 55%
		{60, 10}, // 1,560: 858 at 55%
	}
	for _, tc := range tests {
		header := make([]string, tc.columns)
		for i := range header {
			header[i] = "columna larga " + strings.Repeat("x", 8) // 22 characters, 26 wide
		}
		path := filepath.Join(t.TempDir(), "w.xlsx")
		if err := WriteXLSX(path, []Table{{Header: header, Result: []string{}}}, testSummary, msg.ES); err != nil {
			t.Fatal(err)
		}
		xml := sheetXML(t, path, "xl/worksheets/sheet1.xml")
		if want := `fitToWidth="` + strconv.Itoa(tc.want) + `"`; !strings.Contains(xml, want) {
			t.Errorf("%d columns: sheet XML lacks %s", tc.columns, want)
		}
	}
}

// TestWrappedLines counts the lines of wrapped text.
func TestWrappedLines(t *testing.T) {
	tests := []struct {
		text  string
		width float64
		want  int
	}{
		{"", 20, 1},
		{"corto", 20, 1},
		{"uno dos tres cuatro cinco seis", 11, 4}, // room 10: "uno dos", "tres", "cuatro", "cinco seis"
		{"a\nb\nc", 20, 3},
		{strings.Repeat("x", 25), 11, 3}, // a word longer than a line
	}
	for _, tc := range tests {
		if got := wrappedLines(tc.text, tc.width); got != tc.want {
			t.Errorf("wrappedLines(%q, %v) = %d, want %d", tc.text, tc.width, got, tc.want)
		}
	}
}
