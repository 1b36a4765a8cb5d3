package readers

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/xuri/excelize/v2"
)

// sheetRows is a test workbook's content: sheet name to cells by reference.
type sheetRows struct {
	name  string
	cells map[string]any // "A1" -> value, as SetCellValue takes it
	text  map[string]string
}

// writeXLSX saves a workbook with the given sheets (in order) and returns
// its path.
func writeXLSX(t testing.TB, date1904 bool, sheets ...sheetRows) string {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	for i, s := range sheets {
		if i == 0 {
			if err := x.SetSheetName("Sheet1", s.name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := x.NewSheet(s.name); err != nil {
			t.Fatal(err)
		}
		for ref, v := range s.cells {
			if err := x.SetCellValue(s.name, ref, v); err != nil {
				t.Fatal(err)
			}
		}
		for ref, v := range s.text {
			if err := x.SetCellStr(s.name, ref, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if date1904 {
		if err := x.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &date1904}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "libro.xlsx")
	if err := x.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestXLSXSheets(t *testing.T) {
	path := writeXLSX(t, false,
		sheetRows{name: "Ventas", cells: map[string]any{
			// Title row left blank, header on row 3, gaps between rows.
			"A3": "ordenId", "B3": " fecha ", "C3": "total", "D3": "usuario.dni", "E3": "cuit", "F3": "result.status",
			"A4": 1, "B4": time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "C4": 1234.5, "D4": 20123456789, "F4": "ok",
			"A7": 2, "C7": -0.25,
			"A9": 3, "F9": "invalid",
		}, text: map[string]string{
			"D7": "1234567890123456789", "E7": "00012", "E4": "20-12345678-9",
		}},
		sheetRows{name: "Stock", cells: map[string]any{
			"A1": "depositoId", "B1": "articulos.articuloId",
			"A2": 5, "B2": 10, "C5": "extra",
		}},
		sheetRows{name: "Vacía"},
	)
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if diff := cmp.Diff([]string{"Ventas", "Stock", "Vacía"}, f.Sheets()); diff != "" {
		t.Errorf("sheets (-want +got):\n%s", diff)
	}

	tests := []struct {
		sheet      string
		wantHeader []string
		wantRow    int
		want       []row
	}{
		{
			sheet:      "Ventas",
			wantHeader: []string{"ordenId", "fecha", "total", "usuario.dni", "cuit"},
			wantRow:    3,
			want: []row{
				{Row: 4, Cells: []string{"1", "45292", "1234.5", "20123456789", "20-12345678-9"}},
				{Row: 7, Cells: []string{"2", "", "-0.25", "1234567890123456789", "00012"}},
				{Row: 9, Cells: []string{"3", "", "", "", ""}},
			},
		},
		{
			sheet:      "Stock",
			wantHeader: []string{"depositoId", "articulos.articuloId"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"5", "10"}},
				{Row: 5, Cells: []string{"", ""}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (2; las de más dicen «extra»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.sheet, func(t *testing.T) {
			info, rows, err := readAll(t, path, tc.sheet, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantHeader, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if info.HeaderRow != tc.wantRow || info.Name != tc.sheet || !info.RawNumbers || info.Date1904 {
				t.Errorf("info %+v", info)
			}
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}

	t.Run("empty sheet", func(t *testing.T) {
		_, err := f.Sheet("Vacía")
		var re *msg.Error
		if !errors.Is(err, ErrNoHeader) || !errors.As(err, &re) || re.Pos.Sheet != "Vacía" {
			t.Errorf("error %v, want ErrNoHeader naming the sheet", err)
		}
	})
	t.Run("missing sheet", func(t *testing.T) {
		_, err := f.Sheet("Ventas 2")
		var re *msg.Error
		if !errors.As(err, &re) || re.Msg.Key != "rd.nosheet" {
			t.Errorf("error %v, want rd.nosheet", err)
		}
	})
}

func TestXLSXProblemNamesSheetAndRow(t *testing.T) {
	path := writeXLSX(t, false, sheetRows{name: "Hoja Uno", cells: map[string]any{
		"A1": "a", "B1": "b", "A2": 1, "D2": "sobra",
	}})
	_, rows, err := readAll(t, path, "Hoja Uno", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Problem == "" {
		t.Fatalf("rows %+v, want one with a problem", rows)
	}
	f, _ := Open(path, Options{})
	defer f.Close()
	s, _ := f.Sheet("Hoja Uno")
	defer s.Close()
	rec, _ := s.Next()
	want := "libro.xlsx, hoja Hoja Uno, fila 2: la fila tiene 4 celdas"
	if got := rec.Problem.Error(); !strings.Contains(got, want) {
		t.Errorf("problem %q, want it to contain %q", got, want)
	}
}

func TestXLSXDate1904(t *testing.T) {
	for _, flag := range []bool{false, true} {
		path := writeXLSX(t, flag, sheetRows{name: "S", cells: map[string]any{"A1": "fecha", "A2": 100}})
		info, rows, err := readAll(t, path, "S", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if info.Date1904 != flag {
			t.Errorf("Date1904 %v, want %v", info.Date1904, flag)
		}
		if len(rows) != 1 || rows[0].Cells[0] != "100" {
			t.Errorf("rows %+v, want the raw serial 100", rows)
		}
	}
}

func TestXLSXHugeCellIsARowProblem(t *testing.T) {
	path := writeXLSX(t, false, sheetRows{name: "S", text: map[string]string{
		"A1": "ordenId", "B1": "detalle", "A2": "1", "B2": strings.Repeat("x", 5000), "A3": "2",
	}})
	_, rows, err := readAll(t, path, "S", Options{MaxCellBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	if want := "la celda tiene 5000 bytes, más que el máximo de 1000: acorte el texto"; rows[0].Problem != want {
		t.Errorf("problem %q, want %q", rows[0].Problem, want)
	}
	if rows[1].Problem != "" {
		t.Errorf("second row has problem %q", rows[1].Problem)
	}
}

// zipOf builds a zip archive of name -> content.
func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, content := range files {
		fw, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestOpenRefusals(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		content []byte
		want    error
		wantKey string
	}{
		{"xls", "viejo.xls", []byte("whatever"), ErrUnsupportedFormat, "rd.xls"},
		{"XLS upper case", "VIEJO.XLS", []byte("whatever"), ErrUnsupportedFormat, "rd.xls"},
		{"ods", "calc.ods", zipOf(t, map[string][]byte{"mimetype": []byte("application/vnd.oasis.opendocument.spreadsheet")}), ErrUnsupportedFormat, "rd.saveas"},
		{"pdf", "factura.pdf", []byte("%PDF-1.4"), ErrUnsupportedFormat, "rd.unsupported"},
		{"no extension", "ventas", []byte("a;b\n"), ErrUnsupportedFormat, "rd.noext"},
		{"csv renamed xlsx", "ventas.xlsx", []byte("ordenId;detalle\n1;x\n"), ErrNotXLSX, "rd.notxlsx"},
		{"empty xlsx", "ventas.xlsx", nil, ErrNotXLSX, "rd.notxlsx"},
		{"zip that is no workbook", "ventas.xlsx", zipOf(t, map[string][]byte{"hola.txt": []byte("hola")}), ErrNotXLSX, "rd.notxlsx"},
		{"password protected", "ventas.xlsx", append(append([]byte(nil), magicOLE...), make([]byte, 512)...), ErrNotXLSX, "rd.xlsxprotected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content)
			_, err := Open(path, Options{})
			var re *msg.Error
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T), want *msg.Error", err, err)
			}
			if !errors.Is(err, tc.want) || re.Msg.Key != tc.wantKey {
				t.Errorf("error %v (key %s), want %v with %s", err, re.Msg.Key, tc.want, tc.wantKey)
			}
			if strings.Contains(re.Error(), "rd.") {
				t.Errorf("message key not in the catalog: %s", re.Error())
			}
		})
	}
}

func TestXLSXZipBombRefused(t *testing.T) {
	saved := limits
	limits.unzipped = 1 << 20
	defer func() { limits = saved }()

	bomb := zipOf(t, map[string][]byte{"xl/worksheets/sheet1.xml": make([]byte, 2<<20)})
	if len(bomb) > 1<<20/10 {
		t.Fatalf("test zip is %d bytes, not a bomb", len(bomb))
	}
	_, err := Open(writeFile(t, "bomba.xlsx", bomb), Options{})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
}

func TestXLSXUpperCaseExtension(t *testing.T) {
	src := writeXLSX(t, false, sheetRows{name: "S", cells: map[string]any{"A1": "x", "A2": 1}})
	dst := filepath.Join(filepath.Dir(src), "LIBRO.XLSX")
	if err := os.Rename(src, dst); err != nil {
		t.Fatal(err)
	}
	_, rows, err := readAll(t, dst, "S", Options{})
	if err != nil || len(rows) != 1 {
		t.Errorf("rows %v err %v", rows, err)
	}
}

func TestXLSXHeaderOnly(t *testing.T) {
	path := writeXLSX(t, false, sheetRows{name: "S", cells: map[string]any{"A2": "ordenId", "B2": "total"}})
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := f.Sheet("S")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Next(); err != io.EOF {
		t.Errorf("first Next of a header-only sheet: %v, want io.EOF", err)
	}
	if s.Info().HeaderRow != 2 {
		t.Errorf("header row %d, want 2", s.Info().HeaderRow)
	}
}
