package readers

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/msg"
)

// hasOrdenID is the probe the pipeline passes, reduced: a row is a header
// when it has a column that identifies a kind.
func hasOrdenID(cells []string) bool { return slices.Contains(cells, "ordenId") }

func TestHeaderRowFoundOrNamed(t *testing.T) {
	// A title in A1 (merged across the table in Excel, so only A1 holds
	// it), a blank row, a subtitle, then the table.
	titled := oneSheet(`<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells>` +
		`<row r="1">` + is("A1", "Ventas de noviembre") + `</row>` +
		`<row r="3">` + is("A3", "Sucursal Centro") + is("B3", " ") + `</row>` +
		`<row r="4">` + is("A4", "ordenId") + is("B4", "total") + is("C4", "result.status") + `</row>` +
		`<row r="5">` + num("A5", "7") + num("B5", "10.5") + `</row>`)
	titledCSV := "Ventas de noviembre;;\n\nSucursal Centro; \nordenId;total;result.status\n7;10,5\n"
	// Sixty rows of notes before the header: past the probe.
	var late strings.Builder
	for i := 1; i <= 60; i++ {
		late.WriteString("nota " + strings.Repeat("x", i%3) + "\n")
	}
	late.WriteString("ordenId;total\n1;2\n")

	tests := []struct {
		name       string
		file       string
		content    func(t testing.TB) []byte
		opts       Options
		wantHeader []string
		wantRow    int
		wantTitles int
		want       []krow
	}{
		{
			name: "xlsx: the probe skips the title rows", file: "t.xlsx", content: titled.bytes,
			opts: Options{IsHeader: hasOrdenID}, wantHeader: []string{"ordenId", "total"}, wantRow: 4, wantTitles: 2,
			want: []krow{{Row: 5, Cells: []string{"7", "10.5"}, Kinds: "NN"}},
		},
		{
			name: "xlsx: without a probe the title is the header, as before", file: "t.xlsx", content: titled.bytes,
			wantHeader: []string{"Ventas de noviembre"}, wantRow: 1,
			want: []krow{
				{Row: 3, Cells: []string{"Sucursal Centro"}},
				{Row: 4, Cells: []string{"ordenId"}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (1; las de más dicen «total», «result.status»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
				{Row: 5, Cells: []string{"7"}, Kinds: "N", Problem: "la fila tiene 2 celdas, más que las columnas del encabezado (1; las de más dicen «10.5»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
		{
			name: "xlsx: a probe that accepts nothing leaves the first row, the rest replayed", file: "t.xlsx", content: titled.bytes,
			opts:       Options{IsHeader: func([]string) bool { return false }},
			wantHeader: []string{"Ventas de noviembre"}, wantRow: 1,
			want: []krow{
				{Row: 3, Cells: []string{"Sucursal Centro"}},
				{Row: 4, Cells: []string{"ordenId"}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (1; las de más dicen «total», «result.status»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
				{Row: 5, Cells: []string{"7"}, Kinds: "N", Problem: "la fila tiene 2 celdas, más que las columnas del encabezado (1; las de más dicen «10.5»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
		{
			name: "xlsx: a named header row wins over the probe", file: "t.xlsx", content: titled.bytes,
			opts:       Options{HeaderRow: 3, IsHeader: hasOrdenID},
			wantHeader: []string{"Sucursal Centro"}, wantRow: 3, wantTitles: 1,
			want: []krow{
				{Row: 4, Cells: []string{"ordenId"}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (1; las de más dicen «total», «result.status»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
				{Row: 5, Cells: []string{"7"}, Kinds: "N", Problem: "la fila tiene 2 celdas, más que las columnas del encabezado (1; las de más dicen «10.5»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
		{
			name: "csv: the probe skips the title rows", file: "t.csv", content: func(testing.TB) []byte { return []byte(titledCSV) },
			opts: Options{IsHeader: hasOrdenID}, wantHeader: []string{"ordenId", "total"}, wantRow: 4, wantTitles: 2,
			want: []krow{{Row: 5, Cells: []string{"7", "10,5"}}},
		},
		{
			name: "csv: a named header row", file: "t.csv", content: func(testing.TB) []byte { return []byte(titledCSV) },
			opts: Options{HeaderRow: 4}, wantHeader: []string{"ordenId", "total"}, wantRow: 4, wantTitles: 2,
			want: []krow{{Row: 5, Cells: []string{"7", "10,5"}}},
		},
		{
			name: "csv: a header past the probe's 50 rows is not found", file: "t.csv", content: func(testing.TB) []byte { return []byte(late.String()) },
			opts: Options{IsHeader: hasOrdenID}, wantHeader: []string{"nota x"}, wantRow: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content(t))
			info, rows, err := readTyped(t, path, "S", tc.opts)
			if strings.HasSuffix(tc.file, ".csv") {
				info, rows, err = readTyped(t, path, "", tc.opts)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantHeader, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if info.HeaderRow != tc.wantRow || info.TitleRows != tc.wantTitles {
				t.Errorf("header row %d, %d title rows; want %d, %d", info.HeaderRow, info.TitleRows, tc.wantRow, tc.wantTitles)
			}
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, rows); diff != "" {
					t.Errorf("records (-want +got):\n%s", diff)
				}
			} else if len(rows) != 61 {
				t.Errorf("%d records, want the 61 rows below the first", len(rows))
			}
		})
	}
}

// TestHeaderProbeReplaysRowsCut: rows read while probing are cut to the
// header's width when the probe accepts none; a row whose only number was
// past the header then has no kinds.
func TestHeaderProbeReplaysRowsCut(t *testing.T) {
	bk := oneSheet(`<row r="1">` + is("A1", "titulo") + `</row><row r="2">` + is("A2", "x") + num("B2", "5") + `</row>`)
	_, rows, err := readTyped(t, bk.write(t, "p.xlsx"), "S", Options{IsHeader: func([]string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	want := []krow{{Row: 2, Cells: []string{"x"}, Problem: "la fila tiene 2 celdas, más que las columnas del encabezado (1; las de más dicen «5»): borre las celdas de más o agregue un título a esa columna en el encabezado"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestHeaderProbeSeesCleanNames(t *testing.T) {
	path := writeFile(t, "p.csv", []byte("\xEF\xBB\xBF  ordenId ;result.row; total ;;\n1;2;3\n"))
	var seen [][]string
	probe := func(cells []string) bool {
		seen = append(seen, cells)
		return true
	}
	if _, _, err := readTyped(t, path, "", Options{IsHeader: probe}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"ordenId", "total"}}, seen); diff != "" {
		t.Errorf("probe saw (-want +got):\n%s", diff)
	}
}

func TestHeaderRowMissing(t *testing.T) {
	tests := []struct {
		name, file string
		content    func(t testing.TB) []byte
		row        int
	}{
		{"csv blank row", "a.csv", func(testing.TB) []byte { return []byte("t\n\na;b\n1;2\n") }, 2},
		{"csv past the end", "a.csv", func(testing.TB) []byte { return []byte("a;b\n1;2\n") }, 9},
		{"xlsx absent row", "a.xlsx", oneSheet(hdr("a") + `<row r="3">` + num("A3", "1") + `</row>`).bytes, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content(t))
			sheet := ""
			if strings.HasSuffix(tc.file, ".xlsx") {
				sheet = "S"
			}
			_, _, err := readTyped(t, path, sheet, Options{HeaderRow: tc.row})
			var re *msg.Error
			if !errors.As(err, &re) || !errors.Is(err, ErrNoHeader) || re.Msg.Key != "rd.headerrow" || re.Pos.Row != tc.row {
				t.Fatalf("error %v, want rd.headerrow at row %d wrapping ErrNoHeader", err, tc.row)
			}
			if !strings.Contains(re.Error(), "--header-row") {
				t.Errorf("message %q does not name the flag", re.Error())
			}
		})
	}
}

// TestPriorPassedThrough feeds back a report: result.* columns are dropped
// but result.row and result.rowId come back per record, and a row whose
// only cells are result.* columns is empty.
func TestPriorPassedThrough(t *testing.T) {
	csvReport := "ordenId;Result.Status;result.row;RESULT.ROWID;detalle;result.message\n" +
		"7;invalid;12;st-3f9a ;a;mal\n" +
		";invalid;13;st-0001;;mal\n" +
		"8;;abc;;b;\n" +
		"9;ok;14.0;;;\n"
	xlsxReport := oneSheet(hdr("ordenId", "result.row", "result.rowId", "total") +
		`<row r="2">` + num("A2", "7") + num("B2", "12") + is("C2", "st-1") + num("D2", "5.5") + `</row>` +
		`<row r="3">` + is("A3", "x") + num("B3", "13") + `</row>` +
		`<row r="4">` + num("B4", "14") + is("C4", "st-9") + `</row>`)
	tests := []struct {
		name, file string
		content    func(t testing.TB) []byte
		wantHeader []string
		want       []krow
	}{
		{"csv", "r.csv", func(testing.TB) []byte { return []byte(csvReport) }, []string{"ordenId", "detalle"}, []krow{
			{Row: 2, Cells: []string{"7", "a"}, Prior: Prior{Row: 12, RowID: "st-3f9a"}},
			{Row: 4, Cells: []string{"8", "b"}},
			{Row: 5, Cells: []string{"9", ""}, Prior: Prior{Row: 14}},
		}},
		{"xlsx", "r.xlsx", xlsxReport.bytes, []string{"ordenId", "total"}, []krow{
			{Row: 2, Cells: []string{"7", "5.5"}, Kinds: "NN", Prior: Prior{Row: 12, RowID: "st-1"}},
			// The numeric result.row is dropped: no typed cell is left.
			{Row: 3, Cells: []string{"x", ""}, Prior: Prior{Row: 13}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content(t))
			sheet := ""
			if tc.name == "xlsx" {
				sheet = "S"
			}
			info, rows, err := readTyped(t, path, sheet, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantHeader, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}
