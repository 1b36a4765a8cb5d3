package readers

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/msg"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// writeFile writes content to name in a fresh temporary folder.
func writeFile(t testing.TB, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// row is a record as tests compare it: row number and a copy of the cells.
type row struct {
	Row     int
	Cells   []string
	Problem string // the Spanish message, without position
}

// readAll reads every record of the one sheet (CSV) or the named sheet. err
// is the error of Open, Sheet or the first failing Next (nil at io.EOF).
func readAll(t testing.TB, path, sheet string, opts Options) (SheetInfo, []row, error) {
	t.Helper()
	f, err := Open(path, opts)
	if err != nil {
		return SheetInfo{}, nil, err
	}
	defer f.Close()
	s, err := f.Sheet(sheet)
	if err != nil {
		return SheetInfo{}, nil, err
	}
	defer s.Close()
	var rows []row
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return s.Info(), rows, nil
		}
		if err != nil {
			return s.Info(), rows, err
		}
		r := row{Row: rec.Row, Cells: append([]string(nil), rec.Cells...)}
		if rec.Problem != nil {
			r.Problem = rec.Problem.Msg.In(msg.ES)
		}
		rows = append(rows, r)
	}
}

func utf16LE(t *testing.T, s string) []byte {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cp1252(t *testing.T, s string) []byte {
	t.Helper()
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCSVDelimiterAndEncoding(t *testing.T) {
	// An ASCII-only prefix longer than what Open sniffs first, so the accent
	// that decides the encoding comes late.
	longASCII := strings.Repeat("1;plain ascii row\n", sniffSize/16)
	tests := []struct {
		name      string
		content   []byte
		opts      Options
		wantDelim rune
		wantEnc   string
		want      []string // header, then the cells of the first record
	}{
		{"utf-8 comma", []byte("ordenId,detalle\n1,Café\n"), Options{}, ',', encUTF8, []string{"ordenId", "detalle", "1", "Café"}},
		{"utf-8 semicolon", []byte("ordenId;detalle\n1;Peña 1,5\n"), Options{}, ';', encUTF8, []string{"ordenId", "detalle", "1", "Peña 1,5"}},
		{"tab", []byte("ordenId\tdetalle\n1\tx, y; z\n"), Options{}, '\t', encUTF8, []string{"ordenId", "detalle", "1", "x, y; z"}},
		{"tie goes to semicolon", []byte("a;b,c\n1;2,5\n"), Options{}, ';', encUTF8, []string{"a", "b,c", "1", "2,5"}},
		{"quoted delimiters do not count", []byte("\"a;b;c\",d\n1,2\n"), Options{}, ',', encUTF8, []string{"a;b;c", "d", "1", "2"}},
		{"single column defaults to semicolon", []byte("ordenId\n1,5\n"), Options{}, ';', encUTF8, []string{"ordenId", "1,5"}},
		{"utf-8 bom", []byte("\xEF\xBB\xBFordenId;detalle\n1;Ñandú\n"), Options{}, ';', encUTF8BOM, []string{"ordenId", "detalle", "1", "Ñandú"}},
		{"utf-16le bom", utf16LE(t, "ordenId;detalle\r\n1;Señor José\r\n"), Options{}, ';', encUTF16, []string{"ordenId", "detalle", "1", "Señor José"}},
		{"cp1252 accents", cp1252(t, "ordenId;descripción\n1;Año €5\n"), Options{}, ';', enc1252, []string{"ordenId", "descripción", "1", "Año €5"}},
		{"cp1252 first accent after 64 KB", cp1252(t, "n;texto\n"+longASCII+"2;camión\n"), Options{}, ';', enc1252, []string{"n", "texto", "1", "plain ascii row"}},
		{"utf-8 first accent after 64 KB", []byte("n;texto\n" + longASCII + "2;camión\n"), Options{}, ';', encUTF8, []string{"n", "texto", "1", "plain ascii row"}},
		{"crlf", []byte("a;b\r\n1;2\r\n"), Options{}, ';', encUTF8, []string{"a", "b", "1", "2"}},
		{"header cells trimmed", []byte("  a ;\tb\u00a0\n1;2\n"), Options{}, ';', encUTF8, []string{"a", "b", "1", "2"}},
		{"delimiter override", []byte("a;b,c\n1;2,5\n"), Options{Delimiter: ','}, ',', encUTF8, []string{"a;b", "c", "1;2", "5"}},
		{"encoding override to cp1252", []byte("a;b\n1;é\n"), Options{Encoding: "windows-1252"}, ';', enc1252, []string{"a", "b", "1", "Ã©"}},
		{"encoding override spelled cp1252", cp1252(t, "a;b\n1;é\n"), Options{Encoding: "CP1252"}, ';', enc1252, []string{"a", "b", "1", "é"}},
		{"encoding override to utf-8", []byte("a;b\n1;é\n"), Options{Encoding: "utf-8"}, ';', encUTF8, []string{"a", "b", "1", "é"}},
		{"bom wins over override", []byte("\xEF\xBB\xBFa;b\n1;é\n"), Options{Encoding: "windows-1252"}, ';', encUTF8BOM, []string{"a", "b", "1", "é"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "in.csv", tc.content)
			info, rows, err := readAll(t, path, "", tc.opts)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if info.Delimiter != tc.wantDelim || info.Encoding != tc.wantEnc {
				t.Errorf("delimiter %q encoding %q, want %q %q", info.Delimiter, info.Encoding, tc.wantDelim, tc.wantEnc)
			}
			if len(rows) == 0 {
				t.Fatal("no records")
			}
			got := append(append([]string(nil), info.Header...), rows[0].Cells...)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("header+first record (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCSVLateAccentDecodedThroughout(t *testing.T) {
	body := "n;texto\n" + strings.Repeat("1;x\n", sniffSize/4+10) + "2;camión\n"
	path := writeFile(t, "late.csv", cp1252(t, body))
	_, rows, err := readAll(t, path, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := rows[len(rows)-1]
	if last.Cells[1] != "camión" {
		t.Errorf("last cell %q, want camión", last.Cells[1])
	}
}

func TestCSVRows(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		wantHeader []string
		wantRow    int // header row
		want       []row
	}{
		{
			// A spreadsheet shows a quoted multi-line cell inside one row:
			// row numbers count records (and blank lines), not text lines.
			// The CR of a CR LF inside quotes is kept, as typed.
			name:       "quoted newlines stay inside one spreadsheet row",
			content:    "a;b\n1;\"two\nlines\"\n2;x\n3;\"three\r\nline\r\ncell\"\n\n4;y\n",
			wantHeader: []string{"a", "b"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "two\nlines"}},
				{Row: 3, Cells: []string{"2", "x"}},
				{Row: 4, Cells: []string{"3", "three\r\nline\r\ncell"}},
				{Row: 6, Cells: []string{"4", "y"}},
			},
		},
		{
			name:       "blank and delimiter-only rows skipped, numbers kept",
			content:    "\n;;\n  \na;b;c\n\n1;2;3\n;;\n ; ;\n4;;\n",
			wantHeader: []string{"a", "b", "c"},
			wantRow:    4,
			want: []row{
				{Row: 6, Cells: []string{"1", "2", "3"}},
				{Row: 9, Cells: []string{"4", "", ""}},
			},
		},
		{
			name:       "short rows padded, cells kept as typed",
			content:    "id;dni;monto\n007;\n 12.345.678 ;x;\"1.234,50\"\n",
			wantHeader: []string{"id", "dni", "monto"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"007", "", ""}},
				{Row: 3, Cells: []string{" 12.345.678 ", "x", "1.234,50"}},
			},
		},
		{
			name:       "result columns dropped wherever they are",
			content:    "result.status;ordenId;RESULT.message;detalle;Result.Row\nok;1;bien;a;2\ninvalid;2;mal\n",
			wantHeader: []string{"ordenId", "detalle"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "a"}},
				{Row: 3, Cells: []string{"2", ""}},
			},
		},
		{
			// The user cleared a row of an errors file: what is left is
			// ignored, so the row is empty.
			name:       "a row with only result cells is empty",
			content:    "ordenId;detalle;result.status;result.message\n1;a;invalid;mal\n; ;invalid;mal\n2;;;\n",
			wantHeader: []string{"ordenId", "detalle"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "a"}},
				{Row: 4, Cells: []string{"2", ""}},
			},
		},
		{
			name:       "trailing empty header cells are not columns",
			content:    "a;b;;\n1;2;;\n3;4;5;\n",
			wantHeader: []string{"a", "b"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "2"}},
				{Row: 3, Cells: []string{"3", "4"}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (2; las de más dicen «5»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
		{
			name:       "ragged row returned with a problem, empty extras ignored",
			content:    "a,b\n1,2,,\n1,2,3,4\n5\n",
			wantHeader: []string{"a", "b"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "2"}},
				{Row: 3, Cells: []string{"1", "2"}, Problem: "la fila tiene 4 celdas, más que las columnas del encabezado (2; las de más dicen «3», «4»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
				{Row: 4, Cells: []string{"5", ""}},
			},
		},
		{
			name:       "old Mac line ends (bare CR)",
			content:    "a;b\r1;\"x\ry\"\r\r3;4\r",
			wantHeader: []string{"a", "b"},
			wantRow:    1,
			want: []row{
				{Row: 2, Cells: []string{"1", "x\ny"}},
				{Row: 4, Cells: []string{"3", "4"}},
			},
		},
		{
			name:       "Excel sep= line names the delimiter and is row 1",
			content:    "SEP=,\r\na;b,c\r\n1;2,3\r\n",
			wantHeader: []string{"a;b", "c"},
			wantRow:    2,
			want: []row{
				{Row: 3, Cells: []string{"1;2", "3"}},
			},
		},
		{
			name:       "header only",
			content:    "ordenId;detalle\r\n\r\n",
			wantHeader: []string{"ordenId", "detalle"},
			wantRow:    1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "in.csv", []byte(tc.content))
			info, rows, err := readAll(t, path, "", Options{})
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if diff := cmp.Diff(tc.wantHeader, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if info.HeaderRow != tc.wantRow {
				t.Errorf("header row %d, want %d", info.HeaderRow, tc.wantRow)
			}
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCSVProblemPosition(t *testing.T) {
	path := writeFile(t, "ventas.csv", []byte("a;b\n\n1;2;3\n"))
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Sheet("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Problem == nil {
		t.Fatal("no problem for a ragged row")
	}
	want := msg.Position{File: path, Row: 3}
	if rec.Problem.Pos != want {
		t.Errorf("problem at %+v, want %+v", rec.Problem.Pos, want)
	}
	if en := rec.Problem.In(msg.EN); !strings.Contains(en, "row 3: the row has 3 cells, more than the header's columns (2;") {
		t.Errorf("english text %q", en)
	}
}

func TestCSVFileErrors(t *testing.T) {
	zipHead := append([]byte("PK\x03\x04"), make([]byte, 40)...)
	tests := []struct {
		name    string
		file    string
		content []byte
		opts    Options
		want    error  // sentinel, or nil for a *msg.Error without one
		wantMsg string // catalog key
	}{
		{"zero bytes", "a.csv", nil, Options{}, ErrEmptyFile, "rd.empty"},
		{"blank lines", "a.csv", []byte("  \r\n\n\t\n"), Options{}, ErrEmptyFile, "rd.empty"},
		{"bom only", "a.csv", []byte("\xEF\xBB\xBF"), Options{}, ErrEmptyFile, "rd.empty"},
		{"delimiters only", "a.txt", []byte(";;;\n;;\n"), Options{}, ErrNoHeader, "rd.noheader"},
		{"binary", "a.csv", []byte("ordenId;x\n\x00\x01\x02\xff"), Options{}, ErrNotText, "rd.nottext"},
		{"xlsx renamed", "a.csv", zipHead, Options{}, ErrNotText, "rd.xlsxascsv"},
		{"xls renamed", "a.csv", append(magicOLE, 0, 0), Options{}, ErrNotText, "rd.xlsascsv"},
		{"unknown encoding", "a.csv", []byte("a\n"), Options{Encoding: "ebcdic"}, nil, "rd.encoding"},
		{"bad delimiter", "a.csv", []byte("a\n"), Options{Delimiter: '"'}, nil, "rd.delimiter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content)
			_, _, err := readAll(t, path, "", tc.opts)
			var re *msg.Error
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T), want *msg.Error", err, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %v, want it to wrap %v", err, tc.want)
			}
			if re.Msg.Key != tc.wantMsg {
				t.Errorf("message %q, want %q", re.Msg.Key, tc.wantMsg)
			}
			if re.Pos.File != path || re.Pos.Row != 0 {
				t.Errorf("position %+v, want the file without a row", re.Pos)
			}
		})
	}
}

func TestCSVMissingFile(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "nope.csv"), Options{})
	var re *msg.Error
	if !errors.As(err, &re) || re.Msg.Key != "rd.notfound" {
		t.Fatalf("error %v, want rd.notfound", err)
	}
	dir := filepath.Join(t.TempDir(), "carpeta.csv")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{})
	if !errors.As(err, &re) || re.Msg.Key != "rd.isdir" {
		t.Fatalf("error %v, want rd.isdir", err)
	}
}

func TestCSVBadQuotes(t *testing.T) {
	tests := []struct {
		name       string
		content    string
		wantRows   int // records read before the error
		wantRow    int
		wantColumn string
		wantKey    string
	}{
		{"bare quote", "a;b\n1;2\n3;4 \"pulgadas\n", 1, 3, "b", "rd.barequote"},
		{"text after closing quote", "a;b;c\n\"x\"y;2;3\n", 0, 2, "a", "rd.quote"},
		{"never closed", "a;b\n1;2\n3;\"abierta\n4;5\n6;7\n", 1, 3, "b", "rd.quote"},
		{"in the header", "a;b\"c\n1;2\n", 0, 1, "", "rd.barequote"},
		{"after a sep= line", "sep=;\na;b\n1;2\"\n", 0, 3, "b", "rd.barequote"},
		{"after a multi-line cell", "a;b\n1;\"x\ny\nz\"\n3;4 \"in\n", 1, 3, "b", "rd.barequote"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "q.csv", []byte(tc.content))
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, rows, err := readAll(t, path, "", Options{})
			var re *msg.Error
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want *msg.Error", err)
			}
			if len(rows) != tc.wantRows {
				t.Errorf("%d records before the error, want %d", len(rows), tc.wantRows)
			}
			if re.Pos.Row != tc.wantRow || re.Pos.Column != tc.wantColumn || re.Msg.Key != tc.wantKey {
				t.Errorf("error at row %d column %q key %s, want %d %q %s", re.Pos.Row, re.Pos.Column, re.Msg.Key, tc.wantRow, tc.wantColumn, tc.wantKey)
			}
			// The table ends at the error: later calls repeat it.
			if s, err := f.Sheet(""); err == nil {
				for range 10 {
					if _, err = s.Next(); err != nil {
						break
					}
				}
				if _, again := s.Next(); again != err {
					t.Errorf("second Next gave %v, want the same %v", again, err)
				}
				s.Close()
			}
		})
	}
}

func TestCSVHugeCell(t *testing.T) {
	const maxCell = 64 << 10
	huge := strings.Repeat("x", 3<<20)
	tests := []struct {
		name    string
		content string
		wantRow int
		wantKey string
		before  int // records read before the error
	}{
		{"unquoted", "a;b\n1;2\n3;" + huge + "\n4;5\n", 3, "rd.rowtoolarge", 1},
		{"quoted with newlines", "a;b\n1;2\n\n3;\"" + strings.Repeat("line\n", 1<<20) + "\"\n", 4, "rd.rowtoolarge", 1},
		{"after a multi-line cell", "a;b\n1;\"x\ny\"\n3;" + huge + "\n", 3, "rd.rowtoolarge", 1},
		{"unclosed quote", "a;b\n1;\"" + strings.Repeat("row;x\n", 1<<20), 2, "rd.rowtoolarge", 0},
		{"just over the cap", "a;b\n1;2\n3;" + strings.Repeat("y", maxCell) + "\n", 3, "rd.rowtoolarge", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "big.csv", []byte(tc.content))
			_, rows, err := readAll(t, path, "", Options{MaxCellBytes: maxCell})
			if !errors.Is(err, ErrCellTooLarge) {
				t.Fatalf("error %v, want ErrCellTooLarge", err)
			}
			var re *msg.Error
			errors.As(err, &re)
			if re.Pos.Row != tc.wantRow || re.Msg.Key != tc.wantKey {
				t.Errorf("error at row %d key %s, want row %d key %s", re.Pos.Row, re.Msg.Key, tc.wantRow, tc.wantKey)
			}
			if len(rows) != tc.before {
				t.Errorf("%d records before the error, want %d", len(rows), tc.before)
			}
		})
	}
}

func TestCSVCellAtTheCapIsRead(t *testing.T) {
	const maxCell = 64 << 10
	cell := strings.Repeat("y", maxCell-10)
	path := writeFile(t, "ok.csv", []byte("a;b\n1;"+cell+"\n2;3\n"))
	_, rows, err := readAll(t, path, "", Options{MaxCellBytes: maxCell})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Cells[1] != cell {
		t.Errorf("got %d rows, want the long cell intact", len(rows))
	}
}

func TestCSVHugeCellIsNotLoaded(t *testing.T) {
	path := writeFile(t, "huge.csv", []byte("a;b\n1;"+strings.Repeat("z", 50<<20)+"\n"))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := readAll(t, path, "", Options{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrCellTooLarge) {
		t.Fatalf("error %v, want ErrCellTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d MB to refuse a 50 MB cell", alloc>>20)
	}
}

func TestCSVSheetTwiceRereads(t *testing.T) {
	path := writeFile(t, "twice.csv", []byte("a;b\n1;2\n3;4\n"))
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.Sheets(); !cmp.Equal(got, []string{""}) {
		t.Errorf("sheets %q, want one unnamed", got)
	}
	for range 2 {
		s, err := f.Sheet("")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, err := s.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			n++
		}
		s.Close()
		if n != 2 {
			t.Errorf("read %d records, want 2", n)
		}
	}
	if _, err := f.Sheet("Hoja1"); err == nil {
		t.Error("a named sheet of a CSV file was accepted")
	}
}

func TestDetectDelimiterSkipsLeadingBlankLines(t *testing.T) {
	tests := []struct {
		text string
		want rune
	}{
		{"\n\r\n;;;\na,b,c\n", ','},
		{"\"x,y\";z\n", ';'},
		{"a\tb\tc,d\n", '\t'},
		{"a,b;c,d\n", ','},
		{"", ';'},
	}
	for _, tc := range tests {
		if got := detectDelimiter([]byte(tc.text), 0); got != tc.want {
			t.Errorf("detectDelimiter(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestUTF8CutRuneAtSniffEnd(t *testing.T) {
	// "é" split across the end of the sniffed prefix must not read as cp1252.
	text := []byte(strings.Repeat("a", 9) + "é")
	if got := utf8OrCP1252(text[:10], false); got != encUTF8 {
		t.Errorf("cut rune judged %s", got)
	}
	if got := utf8OrCP1252(text[:10], true); got != enc1252 {
		t.Errorf("truncated file judged %s", got)
	}
	if got := utf8OrCP1252(bytes.Repeat([]byte{0xE9, 'a'}, 4), false); got != enc1252 {
		t.Errorf("cp1252 judged %s", got)
	}
}

func TestSepLine(t *testing.T) {
	tests := []struct {
		head     string
		want     rune
		wantSize int
		wantOK   bool
	}{
		{"sep=;\r\na;b", ';', 7, true},
		{"Sep=\t\nx", '\t', 6, true},
		{"sep=,", ',', 5, true},
		{"sep=ab\n", 0, 0, false},
		{"sep=\"\n", 0, 0, false},
		{"sep=", 0, 0, false},
		{"separador;b\n", 0, 0, false},
	}
	for _, tc := range tests {
		d, size, ok := sepLine([]byte(tc.head))
		if d != tc.want || size != tc.wantSize || ok != tc.wantOK {
			t.Errorf("sepLine(%q) = %q %d %v, want %q %d %v", tc.head, d, size, ok, tc.want, tc.wantSize, tc.wantOK)
		}
	}
}

func TestCSVKeepsCRInsideQuotes(t *testing.T) {
	tests := []struct {
		name    string
		content string
		opts    Options
		want    []row
	}{
		{
			name:    "CR LF inside quotes kept, line ends dropped",
			content: "a;b\r\n1;\"x\r\ny\"\r\n2;\"z\"\r\n",
			want:    []row{{Row: 2, Cells: []string{"1", "x\r\ny"}}, {Row: 3, Cells: []string{"2", "z"}}},
		},
		{
			name:    "LF alone and lone CR inside quotes unchanged",
			content: "a;b\n1;\"x\ny\"\n2;\"p\rq\"\n",
			want:    []row{{Row: 2, Cells: []string{"1", "x\ny"}}, {Row: 3, Cells: []string{"2", "p\rq"}}},
		},
		{
			name:    "escaped quotes do not end the quoted cell",
			content: "a;b\r\n1;\"di\"\"jo\r\nhola\"\"\"\r\n",
			want:    []row{{Row: 2, Cells: []string{"1", "di\"jo\r\nhola\""}}},
		},
		{
			name:    "a quote inside an unquoted cell opens nothing",
			content: "a,b\r\n1,\"x\r\ny\",3\r\n",
			opts:    Options{Delimiter: ','},
			want:    []row{{Row: 2, Cells: []string{"1", "x\r\ny"}, Problem: "la fila tiene 3 celdas, más que las columnas del encabezado (2; las de más dicen «3»): borre las celdas de más o agregue un título a esa columna en el encabezado"}},
		},
		{
			name:    "multi-byte delimiter",
			content: "a¦b\r\n1¦\"x\r\ny\"\r\n",
			opts:    Options{Delimiter: '¦'},
			want:    []row{{Row: 2, Cells: []string{"1", "x\r\ny"}}},
		},
		{
			name:    "CR LF in the last cell of a file without a final line end",
			content: "a;b\r\n1;\"x\r\n\"",
			want:    []row{{Row: 2, Cells: []string{"1", "x\r\n"}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "cr.csv", []byte(tc.content))
			_, rows, err := readAll(t, path, "", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCRLFKeeperChunkBoundaries checks the keeper's output, read whole and
// one byte at a time (a CR and its LF, a quote and the next, then arrive in
// separate reads).
func TestCRLFKeeperChunkBoundaries(t *testing.T) {
	tests := []struct {
		in, delim, want string
	}{
		{"a;\"x\r\ny\"\r\n", ";", "a;\"x\r\r\ny\"\r\n"},
		{"\"\r\n\";\"\r\"\r\n", ";", "\"\r\r\n\";\"\r\"\r\n"},
		{"\"a\"\"\r\nb\";c\r\n", ";", "\"a\"\"\r\r\nb\";c\r\n"},
		{"\"a\"\r\nb;\"\r\n\"", ";", "\"a\"\r\nb;\"\r\r\n\""},
		{"a;b\r\n\"\r", ";", "a;b\r\n\"\r"},
		{"x¦\"\r\n\"¦y", "¦", "x¦\"\r\r\n\"¦y"},
		{"x€\"\r\n\"€\"a\"\"\r\n\"\r\n", "€", "x€\"\r\r\n\"€\"a\"\"\r\r\n\"\r\n"},
		{"a;x\"y\r\n\"q\r\n\"", ";", "a;x\"y\r\n\"q\r\r\n\""},
		{"\"\"\r\n\"\"", ";", "\"\"\r\n\"\""},
	}
	for _, tc := range tests {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			got, err := io.ReadAll(&crlfKeeper{r: r, delim: []byte(tc.delim)})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("%q (one byte at a time: %v) = %q, want %q", tc.in, oneByte, got, tc.want)
			}
		}
	}
}

// TestCSVBlankLinesAnyNumber: empty lines are nothing, however many follow
// each other (issue 23, hole 8): over 1 MiB of them between two records, or
// before the header, is read past, never refused as a record over the size
// limit, and every record keeps its own row number.
func TestCSVBlankLinesAnyNumber(t *testing.T) {
	const many = 1<<20 + 4096
	for _, tc := range []struct {
		name, eol string
	}{{"LF", "\n"}, {"CRLF", "\r\n"}} {
		t.Run(tc.name, func(t *testing.T) {
			blank := strings.Repeat(tc.eol, many/len(tc.eol))
			n := many / len(tc.eol)
			content := blank + "a;b" + tc.eol + "1;2" + tc.eol + blank + "3;\"x" + tc.eol + tc.eol + "y\"" + tc.eol + blank + "4;5"
			path := writeFile(t, "blank.csv", []byte(content))
			info, rows, err := readAll(t, path, "", Options{})
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if info.HeaderRow != n+1 {
				t.Errorf("header row %d, want %d", info.HeaderRow, n+1)
			}
			want := []row{
				{Row: n + 2, Cells: []string{"1", "2"}},
				{Row: 2*n + 3, Cells: []string{"3", "x" + tc.eol + tc.eol + "y"}},
				{Row: 3*n + 4, Cells: []string{"4", "5"}},
			}
			if diff := cmp.Diff(want, rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCSVBlankLinesKeepErrorLines: a bad quote after empty lines names the
// file's own line.
func TestCSVBlankLinesKeepErrorLines(t *testing.T) {
	path := writeFile(t, "q.csv", []byte("a;b\n\n\n\n1;x\"y\n"))
	_, _, err := readAll(t, path, "", Options{})
	var e *msg.Error
	if !errors.As(err, &e) {
		t.Fatalf("want *msg.Error, got %v", err)
	}
	if e.Pos.Row != 5 || !strings.Contains(e.Msg.In(msg.ES), "5") {
		t.Errorf("error at row %d: %s", e.Pos.Row, e.Msg.In(msg.ES))
	}
}

// TestCSVTitleLineAboveHeader: a title line without the file's delimiter
// above the header does not decide the delimiter (issue 23, hole 12), and
// --header-row names the line that does, as it names the header row of a
// workbook.
func TestCSVTitleLineAboveHeader(t *testing.T) {
	tests := []struct {
		name      string
		content   string
		headerRow int
		wantDelim rune
		wantHead  []string
		wantRow   int
	}{
		{"title without delimiter", "Ventas de noviembre - sucursal centro\nordenId,fecha\n1,2025-11-03\n", 0, ',', []string{"Ventas de noviembre - sucursal centro"}, 1},
		{"title then blank line", "Ventas de noviembre\n\n\nordenId\tfecha\n1\t2025-11-03\n", 0, '\t', []string{"Ventas de noviembre"}, 1},
		{"header-row given", "Ventas de noviembre - sucursal centro\nordenId,fecha\n1,2025-11-03\n", 2, ',', []string{"ordenId", "fecha"}, 2},
		{"header-row past a title with a comma", "Ventas, noviembre\nordenId;fecha\n1;2025-11-03\n", 2, ';', []string{"ordenId", "fecha"}, 2},
		{"header-row after sep line", "sep=;\nTitulo, con coma\nordenId;fecha\n1;x\n", 3, ';', []string{"ordenId", "fecha"}, 3},
		{"decimal commas below a lone column", "monto\n1,5\n2,5\n", 0, ';', []string{"monto"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "t.csv", []byte(tc.content))
			info, _, err := readAll(t, path, "", Options{HeaderRow: tc.headerRow})
			if err != nil {
				t.Fatal(err)
			}
			if info.Delimiter != tc.wantDelim || info.HeaderRow != tc.wantRow {
				t.Errorf("delimiter %q header row %d, want %q %d", info.Delimiter, info.HeaderRow, tc.wantDelim, tc.wantRow)
			}
			if diff := cmp.Diff(tc.wantHead, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
		})
	}
}
