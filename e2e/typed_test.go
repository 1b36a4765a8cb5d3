package e2e

import (
	"encoding/csv"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// libreOffice is the path of LibreOffice's soffice, the spreadsheet
// application that judges the reports.
func libreOffice(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"soffice", "libreoffice"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("LibreOffice is not installed: install the Debian package libreoffice-calc-nogui (.ci/run does it)")
	return ""
}

// convert has LibreOffice convert in to format (e.g. "fods", "xlsx") in
// outDir, reading a CSV with the es-AR filter options when filter is set.
func convert(t *testing.T, in, format, filter, outDir string) string {
	t.Helper()
	args := []string{"--headless", "--norestore", "-env:UserInstallation=file://" + filepath.Join(t.TempDir(), "lo"),
		"--convert-to", format, "--outdir", outDir}
	if filter != "" {
		args = append(args, "--infilter="+filter)
	}
	cmd := exec.Command(libreOffice(t), append(args, in)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("LibreOffice could not convert %s: %v\n%s", in, err, out)
	}
	ext := format
	if i := strings.IndexByte(format, ':'); i >= 0 {
		ext = format[:i]
	}
	p := filepath.Join(outDir, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+"."+ext)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("LibreOffice wrote no %s: %s", p, out)
	}
	return p
}

// csvES is LibreOffice's CSV import filter for a report as an Argentine
// Excel writes it: ';' between fields, '"' around them, UTF-8, from row 1,
// in the es-AR locale (decimal comma, dd/mm/yyyy).
const csvES = "CSV:59,34,76,1,,11274"

// loCell is a cell as LibreOffice read it: its type and value.
type loCell struct {
	Type  string // float, date, boolean, string, "" (empty)
	Value string // office:value, date-value or boolean-value; the text for a string
}

// fodsSheet reads the first sheet of a flat ODS file as LibreOffice wrote
// it: rows of typed cells.
func fodsSheet(t *testing.T, path string) [][]loCell {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	var rows [][]loCell
	var row []loCell
	inTable, inText := false, false
	var cur *loCell
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			switch el.Name.Local {
			case "table":
				if rows != nil {
					return rows // the first sheet only
				}
				inTable, rows = true, [][]loCell{}
			case "table-row":
				row = nil
			case "table-cell", "covered-table-cell":
				c, repeat := loCell{}, 1
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "value-type":
						c.Type = a.Value
					case "value", "date-value", "boolean-value":
						c.Value = a.Value
					case "number-columns-repeated":
						repeat, _ = strconv.Atoi(a.Value)
					}
				}
				for range min(repeat, 64) {
					row = append(row, c)
				}
				cur = &row[len(row)-1]
			case "p":
				inText = true
			}
		case xml.CharData:
			if inText && cur != nil && cur.Type == "string" {
				cur.Value += string(el)
			}
		case xml.EndElement:
			switch el.Name.Local {
			case "p":
				inText = false
			case "table-row":
				if inTable {
					rows = append(rows, row)
				}
			case "table":
				return rows
			}
		}
	}
	return rows
}

// typedCase is one kind's workbook: its header, one or two rows of cells
// as excelize writes them (a formula as "=..."), and what every original
// cell must come back as.
type typedCase struct {
	name   string
	header []string
	rows   [][]any
	// want, per column, the type and value the reports keep: xlsx is
	// excelize's cell type name and raw value, csv the es-AR text.
	want map[string]typedWant
	sums []string // columns that must sum, in LibreOffice's eyes
}

type typedWant struct {
	xlsxType excelize.CellType
	xlsxRaw  string
	dateFmt  bool
	csv      string
}

var fecha = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

var typedCases = []typedCase{
	{
		name:   "venta",
		header: []string{"ordenId", "usuario.email", "usuario.dni", "productos.articuloId", "productos.precio", "productos.cantidad", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo", "fecha de carga", "revisado", "codigo interno"},
		rows: [][]any{
			{880001, "ana@example.com", "01234567", 105, 1500.5, 2, "=E2*F2", 0, 0, 0, "=G2-H2+I2+J2", "EFECTIVO", fecha, true, "000123"},
			{880002, "beto@example.com", "07654321", 106, 250.25, 4, "=E3*F3", 0, 0, 0, "=G3-H3+I3+J3", "EFECTIVO", fecha, false, "000124"},
		},
		want: map[string]typedWant{
			"productos.precio": {excelize.CellTypeNumber, "1500.5", false, "1500,5"},
			"subtotal":         {excelize.CellTypeNumber, "3001", false, "3001"},
			"total":            {excelize.CellTypeNumber, "3001", false, "3001"},
			"usuario.dni":      {excelize.CellTypeSharedString, "01234567", false, "01234567"},
			"codigo interno":   {excelize.CellTypeSharedString, "000123", false, "000123"},
			"fecha de carga":   {excelize.CellTypeNumber, "46346", true, "20/11/2026"},
			"revisado":         {excelize.CellTypeBool, "1", false, "VERDADERO"},
		},
		sums: []string{"subtotal", "total"},
	},
	{
		name:   "facturar",
		header: []string{"facturaId", "puntoVentaId", "electronica", "medioPago.tipo", "fecha de la preventa", "legajo"},
		rows: [][]any{
			{1001, 1, false, "EFECTIVO", fecha, "0042"},
		},
		want: map[string]typedWant{
			"facturaId":            {excelize.CellTypeNumber, "1001", false, "1001"},
			"electronica":          {excelize.CellTypeBool, "0", false, "FALSO"},
			"fecha de la preventa": {excelize.CellTypeNumber, "46346", true, "20/11/2026"},
			"legajo":               {excelize.CellTypeSharedString, "0042", false, "0042"},
		},
	},
	{
		name:   "stock",
		header: []string{"depositoId", "motivoId", "tipo", "fecha", "articulos.articuloId", "articulos.cantidad", "contado", "ubicacion"},
		rows: [][]any{
			{1, 1, "INGRESO_STOCK", fecha, 105, "=2+3", true, "0012"},
			{1, 1, "INGRESO_STOCK", fecha, 106, 2.5, true, "0013"},
		},
		want: map[string]typedWant{
			"fecha":              {excelize.CellTypeNumber, "46346", true, "20/11/2026"},
			"articulos.cantidad": {excelize.CellTypeNumber, "5", false, "5"},
			"contado":            {excelize.CellTypeBool, "1", false, "VERDADERO"},
			"ubicacion":          {excelize.CellTypeSharedString, "0012", false, "0012"},
		},
		sums: []string{"articulos.cantidad"},
	},
}

// TestTypedCellsRoundTrip writes, for each kind, a workbook with number,
// date, text-with-leading-zeros, boolean and formula cells, has LibreOffice
// save it (so the formulas carry the values a real spreadsheet computed),
// runs it through `run --sandbox`, and checks the reports: every original
// cell of the .result.xlsx has its type and value, the .result.csv reads as
// es-AR, and LibreOffice itself sums the amount columns of both.
func TestTypedCellsRoundTrip(t *testing.T) {
	libreOffice(t)
	for _, tc := range typedCases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorkspace(t, "")
			src := filepath.Join(t.TempDir(), tc.name+".xlsx")
			x := excelize.NewFile()
			sheet := "Datos"
			x.SetSheetName("Sheet1", sheet)
			x.SetSheetRow(sheet, "A1", &tc.header)
			for i, r := range tc.rows {
				for j, v := range r {
					c, _ := excelize.CoordinatesToCellName(j+1, i+2)
					switch v := v.(type) {
					case string:
						if strings.HasPrefix(v, "=") {
							x.SetCellFormula(sheet, c, v[1:])
							continue
						}
						x.SetCellStr(sheet, c, v)
					case time.Time:
						x.SetCellValue(sheet, c, v)
						st, _ := x.NewStyle(&excelize.Style{NumFmt: 14})
						x.SetCellStyle(sheet, c, c, st)
					default:
						x.SetCellValue(sheet, c, v)
					}
				}
			}
			if err := x.SaveAs(src); err != nil {
				t.Fatal(err)
			}
			x.Close()
			// Saved by a real spreadsheet application.
			input := convert(t, src, "xlsx:Calc MS Excel 2007 XML", "", w.dir)

			res := w.nx(t, "run", "--sandbox", "--journal", w.journal(), "--report-dir", w.reportDir(), input)
			if res.code != 0 {
				t.Fatalf("run: %s", res)
			}
			base := filepath.Join(w.reportDir(), tc.name)
			col := map[string]int{}
			for i, h := range tc.header {
				col[h] = i
			}

			out, err := excelize.OpenFile(base + ".result.xlsx")
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			rsheet := out.GetSheetList()[0]
			for name, want := range tc.want {
				c, _ := excelize.CoordinatesToCellName(col[name]+1, 2)
				typ, _ := out.GetCellType(rsheet, c)
				raw, _ := out.GetCellValue(rsheet, c, excelize.Options{RawCellValue: true})
				if want.xlsxType == excelize.CellTypeSharedString && (typ == excelize.CellTypeInlineString || typ == excelize.CellTypeSharedString) {
					typ = want.xlsxType
				}
				if want.xlsxType == excelize.CellTypeNumber && typ == excelize.CellTypeUnset {
					typ = want.xlsxType // excelize writes numbers without a t attribute
				}
				if typ != want.xlsxType || raw != want.xlsxRaw {
					t.Errorf("result.xlsx %s (%s): type %v value %q, want type %v value %q", name, c, typ, raw, want.xlsxType, want.xlsxRaw)
				}
				if want.dateFmt {
					st, _ := out.GetCellStyle(rsheet, c)
					style, _ := out.GetStyle(st)
					if style == nil || style.CustomNumFmt == nil || !strings.Contains(*style.CustomNumFmt, "dd/mm/yyyy") {
						t.Errorf("result.xlsx %s is not shown as a date dd/mm/yyyy: %+v", name, style)
					}
				}
			}

			data, err := os.ReadFile(base + ".result.csv")
			if err != nil {
				t.Fatal(err)
			}
			r := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff")))
			r.Comma = ';'
			recs, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.want {
				if got := recs[1][col[name]]; got != want.csv {
					t.Errorf("result.csv %s = %q, want %q (es-AR)", name, got, want.csv)
				}
			}

			// LibreOffice is the judge: the amount columns are numbers in
			// both reports, and sum as they should.
			for _, rep := range []struct{ path, filter string }{{base + ".result.xlsx", ""}, {base + ".result.csv", csvES}} {
				rows := fodsSheet(t, convert(t, rep.path, "fods", rep.filter, t.TempDir()))
				for _, name := range tc.sums {
					var sum, want float64
					for i := range tc.rows {
						c := rows[i+1][col[name]]
						if c.Type != "float" {
							t.Errorf("%s: LibreOffice reads %s of row %d as %q %q, not a number", filepath.Base(rep.path), name, i+2, c.Type, c.Value)
							continue
						}
						v, _ := strconv.ParseFloat(c.Value, 64)
						sum += v
					}
					want = expectedSum(t, tc, name)
					if sum != want {
						t.Errorf("%s: LibreOffice sums %s to %v, want %v", filepath.Base(rep.path), name, sum, want)
					}
				}
			}
		})
	}
}

// expectedSum is what a column of the case's rows adds up to.
func expectedSum(t *testing.T, tc typedCase, name string) float64 {
	t.Helper()
	sums := map[string]float64{
		"venta/subtotal":           1500.5*2 + 250.25*4,
		"venta/total":              1500.5*2 + 250.25*4,
		"stock/articulos.cantidad": 5 + 2.5,
	}
	v, ok := sums[tc.name+"/"+name]
	if !ok {
		t.Fatalf("no expected sum for %s/%s", tc.name, name)
	}
	return v
}
