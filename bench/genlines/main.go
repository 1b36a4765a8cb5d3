// Command genlines writes the inputs of the validate benchmark: a venta CSV
// of line rows where one sale's rows are spread out (not contiguous), and
// the same shape as an XLSX workbook written with excelize's StreamWriter.
//
//	genlines -rows 1000000 -o ventas-1m.csv
//	genlines -rows 100000 -o ventas-100k.xlsx
//	genlines -shape orders -rows 1000000 -o pedidos-1m.csv
//	genlines -shape single -rows 1000000 -o unalinea-1m.csv
//
// The "orders" shape is the one an ERP export or an accountant's sheet
// has: 14 columns, each order's 2 to 8 lines together, the order's cells
// repeated on every line (about 120 MB for 1,000,000 rows). The "single"
// shape is the narrowest a sale gets: one line each, 11 short columns
// (about 74 MB for 1,000,000 rows, as many requests as rows).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/xuri/excelize/v2"
)

var header = []string{"ordenId", "usuario.nombre", "usuario.email", "usuario.condicion", "productos.articuloId",
	"productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"}

const linesPerSale = 5

// row returns the cells of line i. Sales interleave in blocks of 1,000: the
// rows of one sale are 1,000 rows apart, so grouping must look at the whole
// file. The last two lines of a sale leave the sale-level cells blank.
var row = spread

func spread(i int) []string {
	block, off := i/(1000*linesPerSale), i%(1000*linesPerSale)
	sale := block*1000 + off%1000
	line := off / 1000
	orden := strconv.Itoa(1_000_000 + sale)
	precio := 100 + sale%900
	cells := []string{orden, "", "", "", strconv.Itoa(100 + line), strconv.Itoa(precio) + ".50", "2", "", "", "", "", "", ""}
	if line < 3 {
		sub := strconv.Itoa(linesPerSale*2*precio+linesPerSale) + ".00"
		cells[1], cells[2], cells[3] = "Cliente "+orden, "c"+orden+"@example.com", "CF"
		cells[7], cells[8], cells[9], cells[10], cells[11], cells[12] = sub, "0", "0", "0", sub, "EFECTIVO"
	}
	return cells
}

// orderHeader is the "orders" shape's header: 14 columns.
var orderHeader = []string{"ordenId", "detalle", "usuario.nombre", "usuario.email", "usuario.dni",
	"subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo",
	"productos.articuloId", "productos.precio", "productos.cantidad"}

// orders returns a row function of the "orders" shape: order k has
// 2 + k%7 lines, each repeating the order's cells; amounts add up.
func orders() func(i int) []string {
	order, line, lines := 0, 0, 2
	return func(int) []string {
		if line == lines {
			order, line = order+1, 0
			lines = 2 + order%7
		}
		line++
		orden := strconv.Itoa(2_000_000 + order)
		precio := 100 + order%900
		sub := strconv.Itoa(lines*2*precio+lines) + ".00"
		return []string{orden, "Pedido web " + orden, "Cliente " + orden, "c" + orden + "@example.com",
			strconv.Itoa(30_000_000 + order), sub, "0", "0", "0", sub, "EFECTIVO",
			strconv.Itoa(100 + line), strconv.Itoa(precio) + ".50", "2"}
	}
}

// singleHeader is the "single" shape's header: 11 columns.
var singleHeader = []string{"ordenId", "usuario.email", "productos.articuloId", "productos.precio",
	"productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo"}

// single returns the cells of sale i of the "single" shape: one line.
func single(i int) []string {
	orden := strconv.Itoa(3_000_000 + i)
	precio := 1000 + i%900
	total := strconv.Itoa(2*precio+1) + ".00"
	return []string{orden, "c" + orden + "@example.com", strconv.Itoa(100 + i%50), strconv.Itoa(precio) + ".50",
		"2", total, "0", "0", "0", total, "EFECTIVO"}
}

func main() {
	rows := flag.Int("rows", 1_000_000, "line rows (a multiple of 5000)")
	out := flag.String("o", "ventas.csv", "output .csv or .xlsx")
	shape := flag.String("shape", "spread", `"spread" (13 columns, a sale's rows 1,000 apart), "orders" (14 columns, 2 to 8 lines an order, together) or "single" (one-line sales)`)
	flag.Parse()
	switch *shape {
	case "spread":
	case "orders":
		header, row = orderHeader, orders()
	case "single":
		header, row = singleHeader, single
	default:
		fmt.Fprintln(os.Stderr, "genlines: -shape is spread, orders or single")
		os.Exit(2)
	}
	var err error
	if filepath.Ext(*out) == ".xlsx" {
		err = writeXLSX(*out, *rows)
	} else {
		err = writeCSV(*out, *rows)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genlines:", err)
		os.Exit(1)
	}
}

func writeCSV(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	write := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(c)
		}
		w.WriteByte('\n')
	}
	write(header)
	for i := range n {
		write(row(i))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func writeXLSX(path string, n int) error {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	toRow := func(cells []string, numeric bool) []any {
		out := make([]any, len(cells))
		for i, c := range cells {
			out[i] = c
			if numeric && c != "" {
				if v, err := strconv.ParseFloat(c, 64); err == nil && i != 0 {
					out[i] = v // a numeric cell, as Excel stores amounts
				}
			}
		}
		return out
	}
	if err := sw.SetRow("A1", toRow(header, false)); err != nil {
		return err
	}
	for i := range n {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, toRow(row(i), true)); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.SaveAs(path)
}
