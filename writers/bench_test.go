package writers

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

// benchTable is n rows of 8 input columns (15 with result.*), built on the
// fly like a reader-backed iterator, with one row in ten needing attention.
func benchTable(n int) Table {
	header := []string{"ordenId", "usuario.email", "usuario.dni", "productos.articuloId", "productos.cantidad", "productos.precio", "total", "medioPago.tipo"}
	return Table{
		Header: header,
		Rows: func(yield func(Row) bool) {
			cells := make([]string, len(header))
			for i := range n {
				id := strconv.Itoa(100000 + i)
				cells[0], cells[1], cells[2], cells[3] = id, "cliente"+id+"@example.com", "20123456", "4410"
				cells[4], cells[5], cells[6], cells[7] = "2", "1234,56", "2469,12", "EFECTIVO"
				r := Row{Cells: cells, Tone: ToneDone, SourceRow: i + 2,
					Result: []string{"ok", "Facturada", strconv.Itoa(i + 2), "venta " + id, id, "123", "3"}}
				if i%10 == 0 {
					r.Tone, r.Result = ToneFix, []string{"invalid", "total: debe ser -1", strconv.Itoa(i + 2), "venta " + id}
				}
				if !yield(r) {
					return
				}
			}
		},
	}
}

const benchRows = 100_000

func BenchmarkWriteCSV(b *testing.B) {
	t := benchTable(benchRows)
	path := filepath.Join(b.TempDir(), "r.csv")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteCSV(path, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkWriteXLSX(b *testing.B) {
	t := benchTable(benchRows)
	path := filepath.Join(b.TempDir(), "r.xlsx")
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteXLSX(path, []Table{t}, testSummary, msg.ES); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCSVFormatRows is the CSV report's formatting alone, on one
// core: rows like those of a file of one-line sales (short numbers, an
// e-mail, a payment type; no cell quoted) appended as records.
func BenchmarkCSVFormatRows(b *testing.B) {
	header := []string{"ordenId", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad",
		"subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"}
	const n = 10_000
	rows := make([]Row, n)
	for i := range rows {
		id := strconv.Itoa(3_000_000 + i)
		rows[i] = Row{Cells: []string{id, "c" + id + "@example.com", strconv.Itoa(100 + i%900), "1000.50", "2", "2001.00", "0", "0", "0", "2001.00", "EFECTIVO"},
			Result: []string{"valid", "", strconv.Itoa(i + 2), "venta " + id, "", "", ""}}
	}
	t := Table{Header: header}
	f := csvFormat{rw: newRecordWriter(nil, ';'), t: &t, width: len(header), nres: len(ResultColumns)}
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		out = out[:0]
		for _, r := range rows {
			out = f.appendRow(out, r.Cells, r.Kinds, r.Result)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
}
