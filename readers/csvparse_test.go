package readers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// parseStep is what one Read of a CSV parser gave: the record, the position
// of each field, the input offset after it and the error.
type parseStep struct {
	rec    []string
	pos    [][2]int
	offset int64
	err    error
}

// csvReading is the part of encoding/csv's Reader that csvRows uses.
type csvReading interface {
	Read() ([]string, error)
	FieldPos(int) (int, int)
	InputOffset() int64
}

// parseAll reads r to its end (or first error) and records every step.
func parseAll(r csvReading) []parseStep {
	var steps []parseStep
	for range 100000 {
		rec, err := r.Read()
		s := parseStep{rec: slices.Clone(rec), offset: r.InputOffset(), err: err}
		if err != io.EOF {
			for i := range rec {
				l, c := r.FieldPos(i)
				s.pos = append(s.pos, [2]int{l, c})
			}
		}
		steps = append(steps, s)
		if err != nil {
			return steps
		}
	}
	panic("no end")
}

// errLimit is the error of limitedReader, standing for capReader's.
var errLimit = errors.New("limit")

// limitedReader fails with errLimit once n bytes are read, as capReader
// does at its limit.
type limitedReader struct {
	r io.Reader
	n int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errLimit
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= n
	return n, err
}

// sameError reports whether a (csvParser's) and b (encoding/csv's) are the
// same failure: the same *csv.ParseError, or the same error value.
func sameError(a, b error) bool {
	var pa, pb *csv.ParseError
	if errors.As(a, &pa) != errors.As(b, &pb) {
		return false
	}
	if pa != nil {
		return *pa == *pb && a.Error() == b.Error()
	}
	return a == b
}

// parseDelims are the delimiters the differential tests use: those
// detected, and multi-byte ones a user may give.
var parseDelims = []rune{';', ',', '\t', '§', '€', 'x'}

// diffParse parses data with csvParser and encoding/csv over the same
// reader stack and fails at the first difference.
func diffParse(t *testing.T, data []byte, comma rune, bufSize, limit int, chunks uint8) {
	t.Helper()
	stack := func() *bufio.Reader {
		var r io.Reader = bytes.NewReader(data)
		switch chunks % 3 {
		case 1:
			r = iotest.HalfReader(r)
		case 2:
			r = iotest.OneByteReader(r)
		}
		if limit >= 0 {
			r = &limitedReader{r: r, n: limit}
		}
		return bufio.NewReaderSize(r, bufSize)
	}
	std := csv.NewReader(stack())
	std.Comma = comma
	std.FieldsPerRecord = -1
	std.ReuseRecord = true
	want := parseAll(std)
	got := parseAll(newCSVParser(stack(), comma))
	for i := range min(len(want), len(got)) {
		w, g := want[i], got[i]
		if !slices.Equal(w.rec, g.rec) {
			t.Fatalf("%q comma %q: record %d: got %q, want %q", data, comma, i, g.rec, w.rec)
		}
		if !slices.Equal(w.pos, g.pos) {
			t.Fatalf("%q comma %q: record %d %q: positions %v, want %v", data, comma, i, w.rec, g.pos, w.pos)
		}
		if w.offset != g.offset {
			t.Fatalf("%q comma %q: record %d %q: offset %d, want %d", data, comma, i, w.rec, g.offset, w.offset)
		}
		if !sameError(g.err, w.err) {
			t.Fatalf("%q comma %q: record %d %q: error %#v, want %#v", data, comma, i, w.rec, g.err, w.err)
		}
	}
	if len(want) != len(got) {
		t.Fatalf("%q comma %q: %d reads, want %d", data, comma, len(got), len(want))
	}
}

// csvParseCases are the edge cases of encoding/csv's grammar that
// csvParser must reproduce.
var csvParseCases = []string{
	"",
	"\n",
	"\n\n\r\n",
	"a",
	"a\n",
	"a;b\n1;2\n",
	"a;b\r\n1;2\r\n",
	"a;b\r1;2\r",
	"a;b\n1;2",
	"a;b\n1;2\r",
	"a;b\n\n\n1;2\n\r\n3;4",
	";;\n;\n",
	"a;\"b\"\n",
	"\"a\";\"b\"\n\"\";\"\"\n",
	"\"a\"\"b\";c\n",
	"\"a\nb\";c\nd;e\n",
	"\"a\r\nb\";c\r\n",
	"\"a\n\nb\";c\n",
	"\"\n\";\"\n\"\n",
	"a;\"b\nc\"\"\"\nd",
	"a;b\"c\n",
	"a;b\n1;2\"3\n",
	"\"a\"x;b\n",
	"a;\"b\"c\n",
	"\"a\n",
	"a;\"b",
	"a;\"b\n\nc",
	"\"\"\"\n\"",
	"\"a\"\r",
	"\"a\"\r\n",
	"a\r\r\nb",
	"x\r\"y\"\n",
	"a§b\n\"1\"§\"2\"\n3§\"4\n5\"",
	"a€b\n1€\"2\"€3\n",
	"\"a\"\xa7b\n",
	"a\xc2;b\n",
	"\xff;\"\xfe\";\n",
	"\"x\";\"y\";\n\"a\"\"\"\";b\n;\"\";\n",
	"\"a;b\";\"c\"\"d\";e\n\"q\"\r\n",
	"a;\"b\";c\"d\n",
	"\"a\" ;b\n",
	"\"a\"\"\n",
	"\"\"\"\"\"\"",
	"\"a\";\"b\n\";\"c\"\n",
	"\"" + strings.Repeat("q", 3000) + "\";x\n",
	strings.Repeat("a;", 40) + "b\n" + strings.Repeat("c", 70) + "\n\"" + strings.Repeat("d", 50) + "\ne\"\n",
}

// TestCSVParserMatchesEncodingCSV runs the edge cases through csvParser and
// encoding/csv with every delimiter, chunking, a small buffer (long lines)
// and read limits at every byte.
func TestCSVParserMatchesEncodingCSV(t *testing.T) {
	for _, data := range csvParseCases {
		for _, comma := range parseDelims {
			d := []byte(strings.ReplaceAll(data, ";", string(comma)))
			for chunks := range uint8(3) {
				diffParse(t, d, comma, 16, -1, chunks)
				diffParse(t, d, comma, 4096, -1, chunks)
			}
			for limit := range len(d) + 1 {
				diffParse(t, d, comma, 16, limit, 0)
			}
		}
	}
}

// TestCSVParserErrors pins the errors csvParser returns, as encoding/csv
// words them.
func TestCSVParserErrors(t *testing.T) {
	cases := []struct {
		in     string
		fields int // fields parsed before the error
		err    csv.ParseError
	}{
		{"a;b\n1;2\"3\n", 1, csv.ParseError{StartLine: 2, Line: 2, Column: 4, Err: csv.ErrBareQuote}},
		{"\"a\"x;b\n", 0, csv.ParseError{StartLine: 1, Line: 1, Column: 3, Err: csv.ErrQuote}},
		{"a\n\"b\nc\nd", 0, csv.ParseError{StartLine: 2, Line: 4, Column: 2, Err: csv.ErrQuote}},
		{"x;\"é\"é\n", 1, csv.ParseError{StartLine: 1, Line: 1, Column: 6, Err: csv.ErrQuote}},
	}
	for _, c := range cases {
		p := newCSVParser(bufio.NewReader(strings.NewReader(c.in)), ';')
		var rec []string
		var err error
		for err == nil {
			rec, err = p.Read()
		}
		var pe *csv.ParseError
		if !errors.As(err, &pe) || *pe != c.err {
			t.Errorf("%q: error %v, want %v", c.in, err, &c.err)
			continue
		}
		if len(rec) != c.fields {
			t.Errorf("%q: %d fields before the error, want %d", c.in, len(rec), c.fields)
		}
	}
}

// FuzzCSVParser checks csvParser against encoding/csv on arbitrary input:
// the same records, field positions, input offsets and errors, whatever the
// delimiter, chunking, buffer size or read limit.
func FuzzCSVParser(f *testing.F) {
	for i, s := range csvParseCases {
		f.Add([]byte(s), uint8(i), uint8(i), -1)
		f.Add([]byte(s), uint8(i), uint8(i+1), len(s)/2)
	}
	f.Fuzz(func(t *testing.T, data []byte, delim, chunks uint8, limit int) {
		comma := parseDelims[int(delim)%len(parseDelims)]
		size := 16
		if chunks&4 != 0 {
			size = 4096
		}
		if limit < -1 {
			limit = -1
		}
		diffParse(t, data, comma, size, limit, chunks)
	})
}

// BenchmarkCSVParse parses 100,000 lines of the "single" shape held in
// memory with encoding/csv and with csvParser, as csvRows sets them up:
// the parsers alone, without the layers in front of them. In "quoted" the
// email and the payment type are quoted, one email in ten holding an
// escaped quote.
func BenchmarkCSVParse(b *testing.B) {
	for _, quoted := range []bool{false, true} {
		var sb strings.Builder
		sb.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
		for i := range 100_000 {
			orden, precio := 3_000_000+i, 1000+i%900
			format := "%d,c%d@example.com,%d,%d.50,2,%d.00,0,0,0,%d.00,EFECTIVO\n"
			switch {
			case quoted && i%10 == 0:
				format = "%d,\"c%d \"\"x\"\"@example.com\",%d,%d.50,2,%d.00,0,0,0,%d.00,\"EFECTIVO\"\n"
			case quoted:
				format = "%d,\"c%d@example.com\",%d,%d.50,2,%d.00,0,0,0,%d.00,\"EFECTIVO\"\n"
			}
			fmt.Fprintf(&sb, format, orden, orden, 100+i%50, precio, 2*precio+1, 2*precio+1)
		}
		data := []byte(sb.String())
		run := func(b *testing.B, open func(io.Reader) csvReading) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0, ops := cpuTime(b), 0
			defer func() { b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(ops), "cpu-ns/op") }()
			for b.Loop() {
				ops++
				r := open(bytes.NewReader(data))
				n := 0
				for {
					_, err := r.Read()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 100_001 {
					b.Fatalf("%d records", n)
				}
			}
		}
		name := "plain"
		if quoted {
			name = "quoted"
		}
		b.Run(name+"/encoding-csv", func(b *testing.B) {
			run(b, func(r io.Reader) csvReading {
				c := csv.NewReader(bufio.NewReaderSize(r, csvBufSize))
				c.Comma, c.FieldsPerRecord, c.ReuseRecord = ',', -1, true
				return c
			})
		})
		b.Run(name+"/csvParser", func(b *testing.B) {
			run(b, func(r io.Reader) csvReading { return newCSVParser(bufio.NewReaderSize(r, csvBufSize), ',') })
		})
	}
}

// TestHasLFThenLFOrCR compares the word-at-a-time scan with bytes.Contains
// on every string of up to 11 bytes over 'a', '\n' and '\r', placed at every
// offset of a longer text (so that each byte meets each word boundary).
func TestHasLFThenLFOrCR(t *testing.T) {
	alphabet := []byte{'a', '\n', '\r'}
	var buf []byte
	for n := range 12 {
		total := 1
		for range n {
			total *= len(alphabet)
		}
		for code := range total {
			buf = buf[:0]
			for c := code; len(buf) < n; c /= len(alphabet) {
				buf = append(buf, alphabet[c%len(alphabet)])
			}
			for pad := range 9 {
				s := append(bytes.Repeat([]byte{'x'}, pad), buf...)
				s = append(s, "yyyyyyyyy"[:pad]...)
				want := bytes.Contains(s, []byte("\n\n")) || bytes.Contains(s, []byte("\n\r"))
				if got := hasLFThenLFOrCR(s); got != want {
					t.Fatalf("%q: %v, want %v", s, got, want)
				}
			}
		}
	}
}
