// Command gen writes the benchmark inputs: a file of one-line sales, or an
// inventory count over several warehouses together with a sandbox data file
// that holds its articles.
//
//	gen sales -n 10000 -o ventas.csv
//	gen stock -rows 10000 -warehouses 4 -o stock.csv -data sandbox.json
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/nxbatch/nxbatch/samples"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: gen sales|stock [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	out := fs.String("o", "", "output CSV file")
	switch args[0] {
	case "sales":
		n := fs.Int("n", 10000, "number of sales")
		first := fs.Int64("first", 1000001, "first ordenId")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return sales(*out, *n, *first)
	case "stock":
		rows := fs.Int("rows", 10000, "rows of the inventory count")
		deps := fs.Int("warehouses", 4, "warehouses (1..4 are the demo integration's)")
		data := fs.String("data", "", "sandbox data file to write, with the counted articles")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return stock(*out, *data, *rows, *deps)
	}
	return fmt.Errorf("unknown file kind %q: want sales or stock", args[0])
}

// create writes a file through fn, reporting the first error.
func create(path string, fn func(w *bufio.Writer)) error {
	if path == "" {
		return errors.New("-o is required")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fn(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// sales writes n one-line sales valid against the demo data.
func sales(path string, n int, first int64) error {
	return create(path, func(w *bufio.Writer) {
		w.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
		for i := range int64(n) {
			fmt.Fprintf(w, "%d,cliente%d@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,EFECTIVO\n", first+i, first+i)
		}
	})
}

// firstArticle is the id of the first generated article, far from the demo
// data's own.
const firstArticle = 200000

// stock writes an inventory count (one INGRESO_STOCK row per article and
// warehouse, motivo "Ajuste por inventario") and a copy of the demo data
// that also holds every counted article.
func stock(path, dataPath string, rows, deps int) error {
	if deps < 1 || deps > 4 {
		return fmt.Errorf("-warehouses %d: the demo integration has warehouses 1 to 4", deps)
	}
	perDep := (rows + deps - 1) / deps
	err := create(path, func(w *bufio.Writer) {
		w.WriteString("depositoId,motivoId,tipo,fecha,detalle,articulos.articuloId,articulos.cantidad\n")
		for i := range rows {
			dep, art := i/perDep+1, firstArticle+i%perDep
			fmt.Fprintf(w, "%d,1,INGRESO_STOCK,2026-11-20,Recuento anual,%d,%d\n", dep, art, 1+i%7)
		}
	})
	if err != nil || dataPath == "" {
		return err
	}
	var d map[string]any
	if err := json.Unmarshal(samples.SandboxData, &d); err != nil {
		return fmt.Errorf("demo data: %w", err)
	}
	arts, _ := d["articulos"].([]any)
	for i := range perDep {
		id := firstArticle + i
		arts = append(arts, map[string]any{"articuloId": id, "codigo": fmt.Sprintf("B%d", id),
			"nombre": fmt.Sprintf("Artículo %d", id), "descripcion": "recuento", "precio1": 100.0})
	}
	d["articulos"] = arts
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return os.WriteFile(dataPath, b, 0o644)
}
