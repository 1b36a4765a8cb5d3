package readers

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/xuri/excelize/v2"
)

// ventaHeader is a venta-like header: order columns repeated on every line
// item, as accountants export them.
var ventaHeader = []string{
	"ordenId", "detalle", "puntoVentaId", "usuario.nombre", "usuario.email", "usuario.cuit",
	"usuario.condicion", "direccionEnvio.provincia", "direccionEnvio.localidad", "medioPago.tipo",
	"productos.articuloId", "productos.precio", "productos.cantidad", "total", "result.status",
}

func ventaRow(i int) []string {
	return []string{
		fmt.Sprint(100000 + i/3), "Pedido web", "2", "Juan Pérez", "juan.perez@example.com", "20-12345678-9",
		"CONSUMIDOR_FINAL", "Buenos Aires", "San Martín", "TARJETA",
		fmt.Sprint(5000 + i%97), "1.234,50", fmt.Sprint(1 + i%5), "12.345,00", "",
	}
}

func writeVentaCSV(b *testing.B, rows int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "ventas.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("\xEF\xBB\xBF")
	write := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				w.WriteByte(';')
			}
			w.WriteString(c)
		}
		w.WriteString("\r\n")
	}
	write(ventaHeader)
	for i := range rows {
		write(ventaRow(i))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// writeVentaXLSX writes the venta rows as excelize's StreamWriter does
// (inline strings), with the order id, price and quantity as numbers.
func writeVentaXLSX(b *testing.B, rows int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "ventas.xlsx")
	x := excelize.NewFile()
	defer x.Close()
	sw, err := x.NewStreamWriter("Sheet1")
	if err != nil {
		b.Fatal(err)
	}
	toRow := func(cells []string) []any {
		out := make([]any, len(cells))
		for i, c := range cells {
			out[i] = c
		}
		return out
	}
	if err := sw.SetRow("A1", toRow(ventaHeader)); err != nil {
		b.Fatal(err)
	}
	for i := range rows {
		r := toRow(ventaRow(i))
		r[0], r[11], r[12] = 100000+i/3, 1234.5, 1+i%5 // numeric cells, as Excel stores them
		ref, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(ref, r); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := x.SaveAs(path); err != nil {
		b.Fatal(err)
	}
	return path
}

// readCount reads every record of a sheet and returns how many there were.
func readCount(b *testing.B, path, sheet string) int {
	f, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	s, err := f.Sheet(sheet)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	n := 0
	for {
		_, err := s.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

func benchRead(b *testing.B, path, sheet string, want int) {
	b.ReportAllocs()
	rows, ops := 0, 0
	cpu0 := cpuTime(b)
	for b.Loop() {
		if n := readCount(b, path, sheet); n != want {
			b.Fatalf("read %d rows, want %d", n, want)
		}
		rows += want
		ops++
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	// The process's CPU time (user and system, all goroutines and the
	// collector) per operation: on a machine shared with other jobs it
	// moves far less than ns/op, which counts the time others ran.
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(ops), "cpu-ns/op")
}

// cpuTime returns the CPU time the process has used so far, in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkCSVRead(b *testing.B) {
	const rows = 100_000
	benchRead(b, writeVentaCSV(b, rows), "", rows)
}

// xlsxBenchRows is the size of the XLSX benchmarks: the 100,000-line
// workbook of the validate goal ("within 1.5x of a bare excelize row read").
const xlsxBenchRows = 100_000

// BenchmarkXLSXRead reads every record of a 100,000-line workbook with
// this package's reader: header, kinds, records shaped to the header.
func BenchmarkXLSXRead(b *testing.B) {
	benchRead(b, writeVentaXLSX(b, xlsxBenchRows), "Sheet1", xlsxBenchRows)
}

// BenchmarkXLSXExcelizeRows is the baseline: the same workbook read the
// barest way excelize offers, Rows and Columns with raw cell values,
// nothing shaped or typed.
func BenchmarkXLSXExcelizeRows(b *testing.B) {
	path := writeVentaXLSX(b, xlsxBenchRows)
	b.ReportAllocs()
	total := 0
	for b.Loop() {
		x, err := excelize.OpenFile(path)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := x.Rows("Sheet1")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rows.Next() {
			if _, err := rows.Columns(excelize.Options{RawCellValue: true}); err != nil {
				b.Fatal(err)
			}
			n++
		}
		rows.Close()
		x.Close()
		if n != xlsxBenchRows+1 {
			b.Fatalf("read %d rows, want %d", n, xlsxBenchRows+1)
		}
		total += xlsxBenchRows
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "rows/s")
}

// writeSingleCSV writes the "single" shape of bench/genlines (one line a
// sale, 11 short columns, ',' and LF), the input of issue 25's floor.
func writeSingleCSV(b *testing.B, rows int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "single.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for i := range rows {
		orden := 3_000_000 + i
		precio := 1000 + i%900
		fmt.Fprintf(w, "%d,c%d@example.com,%d,%d.50,2,%d.00,0,0,0,%d.00,EFECTIVO\n", orden, orden, 100+i%50, precio, 2*precio+1, 2*precio+1)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkCSVReadSingle reads 200,000 lines of the "single" shape: the
// reading goroutine of issue 25's load phase, alone.
func BenchmarkCSVReadSingle(b *testing.B) {
	const rows = 200_000
	benchRead(b, writeSingleCSV(b, rows), "", rows)
}
