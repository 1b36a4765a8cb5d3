package writers

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/cell"
)

// spansOf gives rows by spans of positions as a table's Spans does: the
// row at position p is rows[p], left out when skip says so; every producer
// reuses its own slices, so that a writer keeping a reference shows up as
// wrong output.
func spansOf(rows []Row, skip func(p int) bool) *Spans {
	return &Spans{N: len(rows), New: func() func(from, to int, emit func(Row)) {
		var cells, res []string
		var kinds []cell.Kind
		return func(from, to int, emit func(Row)) {
			for p := from; p < to; p++ {
				if skip != nil && skip(p) {
					continue
				}
				r := rows[p]
				cells, kinds, res = append(cells[:0], r.Cells...), append(kinds[:0], r.Kinds...), append(res[:0], r.Result...)
				r.Cells, r.Result = cells, res
				if r.Kinds != nil {
					r.Kinds = kinds
				}
				emit(r)
			}
		}
	}}
}

// keptRows is rows without those skip leaves out, as Rows would yield them.
func keptRows(rows []Row, skip func(p int) bool) func(func(Row) bool) {
	var kept []Row
	for p, r := range rows {
		if skip == nil || !skip(p) {
			kept = append(kept, r)
		}
	}
	return rowsOf(kept...)
}

// awkwardRows is n rows of cells that exercise every way a cell is
// written: quoted, neutralised, typed (number, date, boolean), empty,
// short rows, long ones, and separators of every width.
func awkwardRows(n int) []Row {
	texts := []string{"", "plain", "ana@example.com", "dice \"hola\"; chau", "=HYPERLINK(\"x\")", "-5", " lead", "\tx",
		"a\r\nb", "línea\n", "ñandú", "1,5", "a,b", "x·y", "＝1", "'=x", "exactly8", "sixteen-byte-str", "semicolon in the 9th;",
		"quote at the end of a long field\"", "cr after sixteen\r"}
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]Row, n)
	for i := range rows {
		w := 4
		if i%17 == 0 {
			w = 2 // a short row: padded
		}
		cells := make([]string, w)
		var kinds []cell.Kind
		for k := range cells {
			cells[k] = texts[rng.IntN(len(texts))]
		}
		if i%3 == 0 {
			kinds = []cell.Kind{cell.Number, cell.Date, cell.Bool, cell.Text}[:w]
			cells[0], cells[1] = strconv.FormatFloat(rng.Float64()*1e6, 'f', -1, 64), "46346.5"
			if w > 2 {
				cells[2] = "1"
			}
		}
		res := []string{"ok", texts[rng.IntN(len(texts))], strconv.Itoa(i + 2), "venta " + strconv.Itoa(i)}
		if i%5 == 0 {
			res = append(res, "555", "12", "3")
		}
		rows[i] = Row{Cells: cells, Kinds: kinds, Result: res, SourceRow: i + 2}
	}
	return rows
}

// TestCSVBySpansIsTheCSVByRows: a table whose rows come by spans (made and
// formatted on every core) is written byte for byte as the same rows one
// after another, whatever the separator, with rows left out (an errors
// file), and across many spans.
func TestCSVBySpansIsTheCSVByRows(t *testing.T) {
	rows := awkwardRows(5*csvJobRows + 77)
	header := []string{"ordenId", "usuario.email", "total", "nota"}
	for _, tc := range []struct {
		name  string
		comma rune
		rows  []Row
		skip  func(p int) bool
	}{
		{"every row, ';'", 0, rows, nil},
		{"every row, ','", ',', rows, nil},
		{"every row, tab", '\t', rows, nil},
		{"every row, a separator of two bytes", '·', rows, nil},
		{"one row in seven (an errors file)", 0, rows, func(p int) bool { return p%7 != 0 }},
		{"no row kept", 0, rows, func(int) bool { return true }},
		{"no rows", 0, nil, nil},
		{"fewer rows than a span", 0, rows[:10], nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			byRows := Table{Header: header, Comma: tc.comma, Rows: keptRows(tc.rows, tc.skip)}
			bySpans := Table{Header: header, Comma: tc.comma, Spans: spansOf(tc.rows, tc.skip)}
			var want, got bytes.Buffer
			if err := writeCSV(&want, byRows); err != nil {
				t.Fatal(err)
			}
			if err := writeCSV(&got, bySpans); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				g, w := strings.Split(got.String(), "\r\n"), strings.Split(want.String(), "\r\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("line %d by spans:\n%q\nwant:\n%q", i+1, g[i], w[i])
					}
				}
				t.Fatalf("by spans %d lines, want %d", len(g), len(w))
			}
		})
	}
}

// TestCSVWriteFailureStopsTheSpans: once the report cannot be written, no
// more spans are made (each is a read of the row store and its formatting)
// and the write's failure is returned.
func TestCSVWriteFailureStopsTheSpans(t *testing.T) {
	n := (4*runtime.GOMAXPROCS(0) + 4) * csvJobRows * 2
	var made atomic.Int64
	tab := Table{Header: []string{"a", "b"}, Spans: &Spans{N: n, New: func() func(from, to int, emit func(Row)) {
		return func(from, to int, emit func(Row)) {
			for range to - from {
				made.Add(1)
				emit(Row{Cells: []string{"1", "x"}, Result: []string{"ok"}})
			}
		}
	}}}
	if err := writeCSV(failingWriter{}, tab); !errors.Is(err, errDiskFull) {
		t.Fatalf("writeCSV = %v, want the write's failure", err)
	}
	if got := made.Load(); got > int64(n/2) {
		t.Errorf("%d of %d rows made after the first write failed, want the writing to stop", got, n)
	}
}

// TestNeedsQuotes holds the eight-bytes-at-a-time scan to the plain one:
// each byte that makes a field quoted, at every position of fields of 1 to
// 24 bytes, among bytes that only look like one (below CR, UTF-8, the
// separator's neighbours).
func TestNeedsQuotes(t *testing.T) {
	plain := func(rw recordWriter, f string) bool {
		if f == "" {
			return false
		}
		if f[0] == ' ' || f[0] == '\t' {
			return true
		}
		return strings.ContainsRune(f, rw.comma) || strings.ContainsAny(f, "\"\r\n")
	}
	fillers := []byte{'a', '\t', 0x0B, 0x0C, 0x0E, 0x00, 0x80, 0xC3, 0xFF, ':', '<', '!', '#', '+', ','}
	specials := []byte{';', ',', '"', '\r', '\n', '\t', ' ', 0x0D, 0x0F}
	for _, comma := range []rune{';', ',', '\t', '|'} {
		rw := newRecordWriter(nil, comma)
		for n := 1; n <= 24; n++ {
			for _, fill := range fillers {
				b := bytes.Repeat([]byte{fill}, n)
				if f := string(b); rw.needsQuotes(f) != plain(rw, f) {
					t.Fatalf("comma %q: needsQuotes(%q) = %v", comma, f, !plain(rw, f))
				}
				for at := range n {
					for _, sp := range specials {
						c := bytes.Clone(b)
						c[at] = sp
						if f := string(c); rw.needsQuotes(f) != plain(rw, f) {
							t.Fatalf("comma %q: needsQuotes(%q) = %v", comma, f, !plain(rw, f))
						}
					}
				}
			}
		}
	}
}
