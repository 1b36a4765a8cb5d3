package readers

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/msg"
)

// lowered sets limits for one test: the limits are package state, so these
// tests do not run in parallel.
func lowered(t *testing.T, set func(*limitSet)) {
	t.Helper()
	saved := limits
	set(&limits)
	t.Cleanup(func() { limits = saved })
}

// TestLimitsRefuse passes each stated limit with a small file (the limit
// lowered): each is a *msg.Error wrapping ErrTooLarge whose Spanish and English
// sentences name the file, the sheet where there is one, and what to do.
func TestLimitsRefuse(t *testing.T) {
	manySheets := book{sheets: []bookPart{{name: "A", xml: sheetXML(hdr("a"))}, {name: "B", xml: sheetXML(hdr("a"))}}}
	tests := []struct {
		name    string
		set     func(*limitSet)
		file    string
		content func(t *testing.T) []byte
		sheet   string // "" for a CSV file or an Open failure
		wantKey string
		wantRow int
		wantES  string // in the Spanish sentence
	}{
		{"CSV file size", func(l *limitSet) { l.fileBytes = 100 }, "a.csv",
			func(t *testing.T) []byte { return []byte("a;b\n" + strings.Repeat("1;2\n", 40)) }, "", "rd.filetoolarge", 0, "divídalo en archivos más chicos"},
		{"XLSX file size", func(l *limitSet) { l.fileBytes = 100 }, "a.xlsx",
			func(t *testing.T) []byte { return oneSheet(hdr("a")).bytes(t) }, "", "rd.filetoolarge", 0, "más que el máximo de 1 MB"},
		{"zip entries", func(l *limitSet) { l.zipFiles = 3 }, "a.xlsx",
			func(t *testing.T) []byte { return oneSheet(hdr("a")).bytes(t) }, "", "rd.xlsxentries", 0, "no parece un libro de Excel"},
		{"sheets", func(l *limitSet) { l.sheets = 1 }, "a.xlsx",
			func(t *testing.T) []byte { return manySheets.bytes(t) }, "", "rd.xlsxsheets", 0, "más de 1 hojas"},
		{"shared string count", func(l *limitSet) { l.sharedStrings = 2 }, "a.xlsx",
			func(t *testing.T) []byte {
				return book{sst: sstXML("<t>a</t>", "<t>b</t>", "<t>c</t>"), sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a"))}}}.bytes(t)
			}, "", "rd.sstcount", 0, "más de 2 textos distintos"},
		{"shared string bytes", func(l *limitSet) { l.sharedBytes = 10 }, "a.xlsx",
			func(t *testing.T) []byte {
				return book{sst: sstXML("<t>12345</t>", "<r><t>678</t></r><r><t>901</t></r>"), sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a"))}}}.bytes(t)
			}, "", "rd.sstbytes", 0, "guarde las hojas como CSV"},
		{"XLSX rows", func(l *limitSet) { l.rows = 3 }, "a.xlsx",
			func(t *testing.T) []byte {
				return oneSheet(hdr("a") + `<row r="2">` + num("A2", "1") + `</row><row r="2"/><row r="3"/>`).bytes(t)
			}, "S", "rd.xlsxrows", 0, "divídala en hojas o libros más chicos"},
		{"XLSX row number", func(l *limitSet) { l.rows = 3 }, "a.xlsx",
			func(t *testing.T) []byte {
				return oneSheet(hdr("a") + `<row r="4">` + num("A4", "1") + `</row>`).bytes(t)
			}, "S", "rd.xlsxrownumber", 0, "una fila numerada 4"},
		{"XLSX cells in a row", func(l *limitSet) { l.columns = 4 }, "a.xlsx",
			func(t *testing.T) []byte {
				return oneSheet(hdr("a") + `<row r="2">` + strings.Repeat(num("A2", "1"), 5) + `</row>`).bytes(t)
			}, "S", "rd.xlsxrowcells", 2, "más de 4 celdas"},
		{"XLSX sheet text", func(l *limitSet) { l.sheetBytes = 25 }, "a.xlsx",
			func(t *testing.T) []byte {
				return book{sst: sstXML("<t>h</t>", "<t>0123456789</t>"), sheets: []bookPart{{name: "S", xml: sheetXML(`<row r="1">` + ss("A1", 0) + `</row>` +
					strings.Repeat(`<row>`+ss("A1", 1)+`</row>`, 3))}}}.bytes(t)
			}, "S", "rd.xlsxsheettext", 0, "los textos de la hoja suman más de 1 MB"},
		{"CSV rows", func(l *limitSet) { l.rows = 3 }, "a.csv",
			func(t *testing.T) []byte { return []byte("a\n1\n2\n3\n") }, "", "rd.csvrows", 0, "más de 3 filas"},
		{"CSV header columns", func(l *limitSet) { l.columns = 4 }, "a.csv",
			func(t *testing.T) []byte { return []byte("a;b;c;d;e;;;\n1\n") }, "", "rd.columns", 1, "borre las columnas que no se importan"},
		{"header without room for the result columns", func(l *limitSet) { l.headerColumns = 3 }, "a.csv",
			func(t *testing.T) []byte { return []byte("a;b;c;d;result.status\n1\n") }, "", "rd.columns.report", 1, "no entraría en una hoja de Excel: se admiten hasta 3"},
		{"XLSX header without room for the result columns", func(l *limitSet) { l.headerColumns = 1 }, "a.xlsx",
			func(t *testing.T) []byte { return oneSheet(hdr("a", "b")).bytes(t) }, "S", "rd.columns.report", 1, "tiene 2 columnas"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.file, tc.content(t))
			lowered(t, tc.set)
			sheet := tc.sheet
			if strings.HasSuffix(tc.file, ".xlsx") && sheet == "" {
				sheet = "S"
			}
			_, _, err := readTyped(t, path, sheet, Options{})
			var re *msg.Error
			if !errors.As(err, &re) || !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error %v (%T), want *msg.Error wrapping ErrTooLarge", err, err)
			}
			if re.Msg.Key != tc.wantKey || re.Pos.File != path || re.Pos.Sheet != tc.sheet || re.Pos.Row != tc.wantRow {
				t.Errorf("error %s at %+v, want %s at sheet %q row %d", re.Msg.Key, re.Pos, tc.wantKey, tc.sheet, tc.wantRow)
			}
			es, en := re.In(msg.ES), re.In(msg.EN)
			if !strings.HasPrefix(es, path) || !strings.Contains(es, tc.wantES) {
				t.Errorf("Spanish %q, want it to start with the file and say %q", es, tc.wantES)
			}
			if tc.sheet != "" && !strings.Contains(es, "hoja "+tc.sheet) {
				t.Errorf("Spanish %q does not name the sheet", es)
			}
			if en == es || strings.Contains(en, "rd.") || strings.Contains(es, "%!") {
				t.Errorf("English %q / Spanish %q", en, es)
			}
		})
	}
}

// TestLimitsRowProblems: a cell or row past MaxCellBytes is the row's
// Problem; the text kept is cut at a character boundary, and the next row
// reads normally.
func TestLimitsRowProblems(t *testing.T) {
	long := strings.Repeat("é", 12) // 24 bytes
	bk := book{sst: sstXML("<t>a</t>", "<t>b</t>", "<t>"+strings.Repeat("x", 25)+"</t>"), sheets: []bookPart{{name: "S", xml: sheetXML(
		`<row r="1">` + ss("A1", 0) + ss("B1", 1) + `</row>` +
			`<row r="2">` + is("A2", long) + `</row>` +
			`<row r="3">` + ss("B3", 2) + `</row>` +
			`<row r="4">` + is("A4", "123456") + is("B4", "789012") + `</row>` +
			`<row r="5">` + is("A5", "ok") + `</row>`)}}}
	_, rows, err := readTyped(t, bk.write(t, "big.xlsx"), "S", Options{MaxCellBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []krow{
		{Row: 2, Cells: []string{"ééééé", ""}, Problem: "la celda tiene 24 bytes, más que el máximo de 10: acorte el texto"},
		{Row: 3, Cells: []string{"", "xxxxxxxxxx"}, Problem: "la celda tiene 25 bytes, más que el máximo de 10: acorte el texto"},
		{Row: 4, Cells: []string{"123456", ""}, Problem: "los textos de la fila suman más de 10 bytes y se omitieron los últimos: acorte los textos de esta fila"},
		{Row: 5, Cells: []string{"ok", ""}},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

// TestLimitsBoundMemory reads crafted workbooks and checks what they cost:
// whitespace in the sheet XML is skipped, not held; shared strings past
// their limit are refused having allocated about the limit; a row with a
// cell at XFD costs the header's width.
func TestLimitsBoundMemory(t *testing.T) {
	white := strings.Repeat(" \n\t", 10<<20/3)
	tests := []struct {
		name     string
		set      func(*limitSet)
		book     book
		wantErr  error
		maxAlloc uint64
	}{
		{
			name:     "10 MB of whitespace between rows",
			book:     oneSheet(hdr("a") + white + `<row r="2">` + num("A2", "1") + `</row>` + white),
			maxAlloc: 2 << 20,
		},
		{
			name:     "shared strings past a 1 MB limit",
			set:      func(l *limitSet) { l.sharedBytes = 1 << 20 },
			book:     book{sst: sstXML(strings.Repeat("<t>"+strings.Repeat("z", 1000)+"</t>", 1), strings.Repeat("<r><t>"+strings.Repeat("y", 1<<20)+"</t></r>", 8)), sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a"))}}},
			wantErr:  ErrTooLarge,
			maxAlloc: 3 << 20,
		},
		{
			name:     "10,000 rows with a cell at XFD",
			book:     oneSheet(hdr("a", "b") + strings.Repeat(`<row>`+num("A2", "1")+is("XFD2", "x")+`</row>`, 10000)),
			maxAlloc: 10 << 20, // materialising 16,384 cells a row would take 2.6 GB
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.book.write(t, "m.xlsx")
			if tc.set != nil {
				lowered(t, tc.set)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := readAll(t, path, "S", Options{})
			runtime.ReadMemStats(&after)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > tc.maxAlloc {
				t.Errorf("allocated %d KB, want at most %d KB", alloc>>10, tc.maxAlloc>>10)
			}
		})
	}
}

func TestCountRendersPerLanguage(t *testing.T) {
	tests := []struct {
		n      count
		es, en string
	}{
		{0, "0", "0"}, {999, "999", "999"}, {1000, "1.000", "1,000"},
		{1048576, "1.048.576", "1,048,576"}, {-16384, "-16.384", "-16,384"},
	}
	for _, tc := range tests {
		if es, en := tc.n.In(msg.ES), tc.n.In(msg.EN); es != tc.es || en != tc.en {
			t.Errorf("%d: %q %q, want %q %q", tc.n, es, en, tc.es, tc.en)
		}
	}
}

func TestZipEntries(t *testing.T) {
	// A zip64 end of central directory: the 16-bit count says 0xFFFF and the
	// zip64 record holds the real one.
	var z bytes.Buffer
	z.WriteString("junk")
	rec := make([]byte, 56)
	copy(rec, "PK\x06\x06")
	binary.LittleEndian.PutUint64(rec[32:], 70000)
	z.Write(rec)
	loc := make([]byte, 20)
	copy(loc, "PK\x06\x07")
	binary.LittleEndian.PutUint64(loc[8:], 4)
	z.Write(loc)
	eocd := make([]byte, 22)
	copy(eocd, "PK\x05\x06")
	binary.LittleEndian.PutUint16(eocd[10:], 0xFFFF)
	z.Write(eocd)

	tests := []struct {
		name    string
		data    []byte
		want    uint64
		wantErr bool
	}{
		{"plain", oneSheet(hdr("a")).bytes(t), 5, false},
		{"zip64", z.Bytes(), 70000, false},
		{"no directory", []byte("PK\x03\x04 not really"), 0, true},
		{"zip64 locator missing", append(bytes.Repeat([]byte{0}, 30), eocd...), 0, true},
	}
	for _, tc := range tests {
		got, err := zipEntries(bytes.NewReader(tc.data), int64(len(tc.data)))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("%s: %d %v, want %d (error %v)", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestSmallParsers(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		col  int
		good bool
	}{{"A1", 0, true}, {"b7", 1, true}, {"Z", 25, true}, {"AA10", 26, true}, {"XFD1048576", 16383, true}, {"1", 0, false}, {"A-1", 0, false}, {"ABCDE1", 0, false}} {
		col, ok := parseColumn([]byte(tc.ref))
		if ok != tc.good || (ok && col != tc.col) {
			t.Errorf("parseColumn(%q) = %d %v", tc.ref, col, ok)
		}
		if ok && col < 16384 && !strings.EqualFold(columnLetter(col), strings.TrimRight(tc.ref, "0123456789")) {
			t.Errorf("columnLetter(%d) = %q", col, columnLetter(col))
		}
	}
	for _, tc := range []struct {
		v  string
		ok bool
	}{{"4252.5", true}, {"-3", true}, {"1E-05", true}, {"+.5", true}, {"1.", true}, {"", false}, {".", false}, {"1e", false}, {"12abc", false}, {"1,5", false}, {"NaN", false}, {"1 ", false}} {
		if got := validNumber([]byte(tc.v)); got != tc.ok {
			t.Errorf("validNumber(%q) = %v", tc.v, got)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"}, {"a_x000D_b", "a\rb"}, {"_x005F_x000D_", "_x000D_"}, {"_x00E9__x00e9_", "éé"},
		{"_xD83D__xDE00_", "😀"}, {"_xDE00_", "\uFFFD"}, {"_x12G4_", "_x12G4_"}, {"_x00", "_x00"},
	} {
		b := []byte(tc.in)
		if got := string(b[:decodeOOXMLEscapes(b)]); got != tc.want {
			t.Errorf("decodeOOXMLEscapes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDateFormats(t *testing.T) {
	for _, tc := range []struct {
		code string
		date bool
	}{
		{"General", false}, {"0.00", false}, {`#,##0.00 "días"`, false}, {"0.00E+00", false}, {"[Red]-0.00", false},
		{`#,##0 [$€-2]`, false}, {`\d0`, false}, {"@", false}, {`_-* #,##0_-`, false},
		{"dd/mm/yyyy", true}, {"d/m/yy;@", true}, {"[$-F800]dddd, mmmm dd, yyyy", true}, {"h:mm AM/PM", true},
		{"[h]:mm:ss", true}, {"[mm]", true}, {"mmm-yy", true}, {"yyyy", true}, {`"Fecha: "dd/mm`, true},
	} {
		if got := isDateFormat(tc.code); got != tc.date {
			t.Errorf("isDateFormat(%q) = %v", tc.code, got)
		}
	}
	for id, want := range map[int]bool{0: false, 1: false, 14: true, 22: true, 23: false, 30: true, 45: true, 47: true, 48: false, 49: false, 57: true, 164: false} {
		if got := builtinDateFormat(id); got != want {
			t.Errorf("builtinDateFormat(%d) = %v", id, got)
		}
	}
}

// TestIOCauseInTheRunsLanguage: a read that the system refuses is said in
// the sentence's language, the path left to the position (issue 23,
// hole 13).
func TestIOCauseInTheRunsLanguage(t *testing.T) {
	err := ioError("ventas.csv", &fs.PathError{Op: "read", Path: "/x/ventas.csv", Err: fs.ErrPermission})
	es := err.Msg.In(msg.ES)
	if strings.Contains(es, "permission denied") || strings.Contains(es, "/x/ventas.csv") || !strings.Contains(es, "permiso") {
		t.Errorf("rd.io in Spanish: %q", es)
	}
}
