// Command mksamples writes the sample files that cannot be typed by hand:
// the demo workbook (real numeric and date cells on three sheets), the CSV
// as Excel in Spanish saves it (Windows-1252, ';', decimal comma, dd/mm/yyyy),
// and the catalog answers (the article catalog's too), taken from the sandbox so they never drift from
// its demo data. Run it from the repository root: go run ./internal/mksamples
package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

func main() {
	dir := "samples"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	for _, step := range []func(string) error{writeWorkbook, writeExcelCSV, writeCatalogs} {
		if err := step(dir); err != nil {
			fmt.Fprintln(os.Stderr, "mksamples:", err)
			os.Exit(1)
		}
	}
}

// writeWorkbook writes demo.xlsx: one sheet per kind, numbers as numbers,
// dates as date cells, ids that do not collide with the CSV samples.
func writeWorkbook(dir string) error {
	f := excelize.NewFile()
	defer f.Close()
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		return err
	}
	sheets := []struct {
		name string
		rows [][]any
	}{
		{"Ventas", [][]any{
			{"ordenId", "usuario.nombre", "usuario.email", "usuario.condicion", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo", "medioPago.cuentaBancariaId"},
			{71001, "Carla Díaz", "carla@example.com", "Monotributo", 114, 2500.5, 2, 5001, 0, 0, 0, 5001, "EFECTIVO", nil},
			{71002, "Diego Luna", "diego@example.com", "CF", 115, 780, 1, 1560, 60, 0, 0, 1500, "DEPOSITO_BANCO", 11},
			{71002, nil, nil, nil, 116, 780, 1, nil, nil, nil, nil, nil, nil, nil},
		}},
		{"Facturar", [][]any{
			{"facturaId", "puntoVentaId", "electronica", "medioPago.tipo", "medioPago.tarjetaId"},
			{1006, 1, false, "EFECTIVO", nil},
			{1007, 2, true, "TARJETA", 21},
		}},
		{"Stock", [][]any{
			{"depositoId", "motivoId", "tipo", "fecha", "detalle", "articulos.articuloId", "articulos.cantidad"},
			{4, 5, "INGRESO_STOCK", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "Ingreso de mercadería", 117, 30},
			{4, 5, "INGRESO_STOCK", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), "Ingreso de mercadería", 118, 15},
		}},
	}
	for i, s := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", s.name); err != nil {
				return err
			}
		} else if _, err := f.NewSheet(s.name); err != nil {
			return err
		}
		for r, row := range s.rows {
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			if err := f.SetSheetRow(s.name, cell, &row); err != nil {
				return err
			}
			for c, v := range row {
				if _, ok := v.(time.Time); ok {
					name, _ := excelize.CoordinatesToCellName(c+1, r+1)
					if err := f.SetCellStyle(s.name, name, name, dateStyle); err != nil {
						return err
					}
				}
			}
		}
	}
	return f.SaveAs(filepath.Join(dir, "demo.xlsx"))
}

// excelCSV is a stock count as Excel in Spanish saves "CSV": ';' between
// cells, decimal comma, thousands dot, day/month/year, CRLF, code page 1252.
const excelCSV = "depositoId;motivoId;tipo;fecha;detalle;articulos.articuloId;articulos.cantidad;articulos.precio\r\n" +
	"3;5;Ingreso stock;20/11/2026;Recepción mercadería Norte;110;12;1.250,50\r\n" +
	"3;5;Ingreso stock;20/11/2026;Recepción mercadería Norte;111;2,5;980,00\r\n" +
	"4;1;ingreso manual;21/11/2026;Ajuste recuento anexo (depósito 4);119;3;\r\n"

func writeExcelCSV(dir string) error {
	b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(excelCSV))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "stock-excel-es.csv"), b, 0o644)
}

// writeCatalogs saves the sandbox's /medios-pago and /motivos answers.
func writeCatalogs(dir string) error {
	srv, err := sandbox.New(sandbox.DemoData(), sandbox.Options{TimeScale: 0.0001})
	if err != nil {
		return err
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	if err := os.MkdirAll(filepath.Join(dir, "catalog"), 0o755); err != nil {
		return err
	}
	for _, p := range []struct{ path, file string }{{nxapi.PathMediosPago, "medios-pago.json"}, {nxapi.PathMotivos, "motivos.json"},
		{nxapi.PathGetDataCurva, "articulos.json"}} {
		time.Sleep(20 * time.Millisecond) // the parameter window, scaled down
		req, _ := http.NewRequest(http.MethodGet, ts.URL+p.path, nil)
		req.Header.Set(nxapi.TokenHeader, sandbox.DefaultToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %d %s %v", p.path, resp.StatusCode, body, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "catalog", p.file), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}
