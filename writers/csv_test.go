package writers

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/readers"
)

// rowsOf yields rows reusing one Cells slice, as a reader-backed iterator
// would, so that a writer keeping a reference shows up as wrong output.
func rowsOf(rows ...Row) func(func(Row) bool) {
	return func(yield func(Row) bool) {
		buf := make([]string, 0, 16)
		for _, r := range rows {
			buf = append(buf[:0], r.Cells...)
			r.Cells = buf
			if !yield(r) {
				return
			}
		}
	}
}

var ventaTable = Table{
	Header: []string{"ordenId", "usuario.email", "total", "nota"},
	Rows: rowsOf(
		Row{Cells: []string{"1001", "ana@example.com", "1234,56", ""}, Tone: ToneDone,
			Result: []string{"ok", "Facturada", "2", "venta 1001", "555", "12", "3"}, SourceRow: 2},
		Row{Cells: []string{"1002", "=HYPERLINK(\"x\")", "-5", "dice \"hola\"; chau"}, Tone: ToneFix,
			Result: []string{"invalid", "total: debe ser mayor o igual a 0", "3", "venta 1002"}, SourceRow: 3},
		Row{Cells: []string{"1003", "b@example.com"}, Tone: ToneDone, // short row: padded
			Result: []string{"skipped", "Ya enviada", "4", "venta 1003", "556", "13", "3"}, SourceRow: 4},
		Row{Cells: []string{"1004", "c@example.com", "10", "línea1\nlínea2"}, Tone: ToneCheck,
			Result: []string{"unknown", "-sin respuesta", "5", "venta 1004"}, SourceRow: 5},
	),
}

// A line break inside a cell is written as it is: every character of a
// cell survives the report.
const ventaHeaderLine = "\uFEFFordenId;usuario.email;total;nota;result.status;result.message;result.row;result.request;result.facturaId;result.numero;result.pvNumero\r\n"

func TestWriteCSVGolden(t *testing.T) {
	tests := []struct {
		name  string
		write func(string, Table) error
		table Table
		want  string
	}{
		{
			name:  "result: every row, BOM, CRLF, quoting, neutralising",
			write: WriteCSV,
			table: ventaTable,
			want: ventaHeaderLine +
				"1001;ana@example.com;1234,56;;ok;Facturada;2;venta 1001;555;12;3\r\n" +
				"1002;\"'=HYPERLINK(\"\"x\"\")\";-5;\"dice \"\"hola\"\"; chau\";invalid;total: debe ser mayor o igual a 0;3;venta 1002;;;\r\n" +
				"1003;b@example.com;;;skipped;Ya enviada;4;venta 1003;556;13;3\r\n" +
				"1004;c@example.com;10;\"línea1\nlínea2\";unknown;'-sin respuesta;5;venta 1004;;;\r\n",
		},
		{
			name:  "no rows: header only",
			write: WriteCSV,
			table: Table{Header: ventaTable.Header},
			want:  ventaHeaderLine,
		},
		{
			name:  "comma given by the pipeline",
			write: WriteCSV,
			table: Table{Header: []string{"depositoId", "=x"}, Comma: ',', Rows: rowsOf(
				Row{Cells: []string{"1", "a,b"}, Tone: ToneReady, SourceRow: 2, Result: []string{"valid", "", "2", "stock #1 (1/1)"}})},
			want: "\uFEFFdepositoId,'=x,result.status,result.message,result.row,result.request,result.facturaId,result.numero,result.pvNumero\r\n" +
				"1,\"a,b\",valid,,2,stock #1 (1/1),,,\r\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.csv")
			if err := tt.write(path, tt.table); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

// TestErrorsCSVRefeeds reads an errors file back the way an input reader
// does and checks that the input columns come back exactly as they went in
// once Unneutralize is applied.
func TestErrorsCSVRefeeds(t *testing.T) {
	cells := [][]string{
		{"1002", "=cmd|' /C calc'!A0", "-5", "dice \"hola\"\r\notra línea"},
		{"0007", "'=ya con apóstrofo", "+54 11 5555", "@x"},
		{"1003", "", "", ""},
	}
	var rows []Row
	for i, c := range cells {
		rows = append(rows, Row{Cells: c, Tone: ToneFix, SourceRow: i + 2, Result: []string{"rejected", "=La API respondió: «x»", strconv.Itoa(i + 2)}})
	}
	path := filepath.Join(t.TempDir(), "ventas.errors.csv")
	if err := WriteCSV(path, Table{Header: []string{"ordenId", "a", "b", "c"}, Rows: rowsOf(rows...)}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(cells)+1 {
		t.Fatalf("read %d records, want %d", len(recs), len(cells)+1)
	}
	if h := strings.TrimPrefix(recs[0][0], "\uFEFF"); h != "ordenId" {
		t.Errorf("first header = %q", h)
	}
	for i, want := range cells {
		got := recs[i+1][:len(want)]
		for j := range got {
			got[j] = cell.Unneutralize(got[j])
		}
		want[3] = strings.ReplaceAll(want[3], "\r\n", "\n") // encoding/csv's own normalisation
		if !slices.Equal(got, want) {
			t.Errorf("row %d: read back %q, want %q", i+2, got, want)
		}
	}
}

// TestEveryCharacterSurvivesTheCSVReport writes cells holding every kind
// of awkward character and reads the report back with nxbatch's own
// reader: each cell comes back exactly, a lone CR, a CR LF and a formula
// included.
func TestEveryCharacterSurvivesTheCSVReport(t *testing.T) {
	cells := []string{"a\rb", "a\r\nb", "a\nb", "=1+2", " =x", "＝1", "-3", "'x", "\"q\";y", "\t", "ñ€"}
	var rows []Row
	for i, c := range cells {
		rows = append(rows, Row{Cells: []string{strconv.Itoa(i), c}, SourceRow: i + 2})
	}
	path := filepath.Join(t.TempDir(), "r.csv")
	if err := WriteCSV(path, Table{Header: []string{"ordenId", "nota"}, Result: []string{}, Rows: rowsOf(rows...)}); err != nil {
		t.Fatal(err)
	}
	f, err := readers.Open(path, readers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sr, err := f.Sheet("")
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	for i, want := range cells {
		rec, err := sr.Next()
		if err != nil {
			t.Fatalf("cell %d: %v", i, err)
		}
		if got := cell.Unneutralize(rec.Cells[1]); got != want {
			t.Errorf("cell %q came back as %q", want, got)
		}
	}
}
