package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/plantilla"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/schema"
)

// demoVariant is the ids the sandbox's demo data gives an article named by
// code and a variant named by its size and colour names: what a row filled
// by code must resolve to.
func demoVariant(t *testing.T, codigo, talle, color string) (art, talleID, colorID int64) {
	t.Helper()
	d := sandbox.DemoData()
	id := func(list []sandbox.DataNombre, name string) int64 {
		if name == "" {
			return 0
		}
		for _, n := range list {
			if strings.EqualFold(n.Nombre, name) {
				return n.ID
			}
		}
		t.Fatalf("the demo data has no size or colour %q", name)
		return 0
	}
	for _, a := range d.Articulos {
		if a.Codigo == codigo {
			return a.ArticuloID, id(d.Talles, talle), id(d.Colores, color)
		}
	}
	t.Fatalf("the demo data has no article %q", codigo)
	return 0, 0, 0
}

// TestTemplateFilledByCodeThroughLibreOffice: the template of a kind whose
// lines name articles, made from the embedded sandbox, lists its articles
// on the «Artículos» sheet and checks the code column against them; a file
// filled by code with size and colour names (or by barcode) from that
// sheet, saved by LibreOffice, is sent by run --sandbox with every row ok
// and the ids the demo data gives those codes.
func TestTemplateFilledByCodeThroughLibreOffice(t *testing.T) {
	fecha := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		kind string
		// lines is the prefix of the columns of a line's article.
		lines string
		// pick chooses the two «Artículos» rows (code, name, size,
		// colour, barcode) the file's two rows name.
		pick func(arts [][]string) (first, second []string)
		// rows are the cells of the file's two rows for the picked
		// articles; account is the first bank account of «Listas».
		rows func(first, second []string, account string) [2]map[string]any
		// byBarcode: the second row names its article by barcode.
		byBarcode bool
	}{
		{
			kind:  "venta",
			lines: "productos",
			// A varianted article (size and colour) and one without variants.
			pick: func(arts [][]string) (withVar, plain []string) {
				for _, r := range arts {
					switch {
					case withVar == nil && r[2] != "" && r[3] != "":
						withVar = r
					case plain == nil && r[2] == "" && r[3] == "":
						plain = r
					}
				}
				return withVar, plain
			},
			rows: func(withVar, plain []string, account string) [2]map[string]any {
				return [2]map[string]any{
					{"ordenId": 990001, "entidadId": 500, "subtotal": 3500, "descuento": 0, "recargo": 0,
						"envio": 0, "total": 3500, "medioPago.tipo": "DEPOSITO_BANCO", "medioPago.cuentaBancariaId": account,
						"productos.codigo": withVar[0], "productos.talle": withVar[2], "productos.color": strings.ToUpper(withVar[3]),
						"productos.precio": 1000, "productos.cantidad": 2},
					{"ordenId": 990001, "productos.codigo": plain[0], "productos.precio": 1500, "productos.cantidad": 1},
				}
			},
		},
		{
			kind:  "stock",
			lines: "articulos",
			// A varianted article by name, and another article by barcode.
			pick: func(arts [][]string) (byName, byBarcode []string) {
				for _, r := range arts {
					switch {
					case byName == nil && r[2] != "" && r[3] != "":
						byName = r
					case byName != nil && byBarcode == nil && r[4] != "" && r[0] != byName[0]:
						byBarcode = r
					}
				}
				return byName, byBarcode
			},
			rows: func(byName, byBarcode []string, _ string) [2]map[string]any {
				return [2]map[string]any{
					{"depositoId": 1, "motivoId": 1, "tipo": "INGRESO_STOCK", "fecha": fecha, "articulos.codigo": byName[0],
						"articulos.talle": strings.ToLower(byName[2]), "articulos.color": byName[3], "articulos.cantidad": 4},
					{"depositoId": 1, "motivoId": 1, "tipo": "INGRESO_STOCK", "fecha": fecha, "articulos.codigoBarras": byBarcode[4], "articulos.cantidad": 3},
				}
			},
			byBarcode: true,
		},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			w := newWorkspace(t, "")
			book := filepath.Join(w.dir, tc.kind+".xlsx")
			if r := w.nx(t, "template", tc.kind, "--sandbox", "-o", book, "--journal", w.journal()); r.code != 0 {
				t.Fatalf("template: %s", r)
			}
			f, err := excelize.OpenFile(book)
			if err != nil {
				t.Fatal(err)
			}
			arts, err := f.GetRows("Artículos")
			if err != nil || len(arts) < 3 {
				t.Fatalf("«Artículos» sheet: %d rows, %v", len(arts), err)
			}
			padded := make([][]string, 0, len(arts)-1)
			for _, r := range arts[1:] {
				padded = append(padded, append(r, make([]string, 5)...)[:5])
			}
			first, second := tc.pick(padded)
			if first == nil || second == nil {
				t.Fatalf("the demo catalog has no articles this case needs: %v", arts)
			}
			header, _ := f.GetRows(tc.kind)
			col := map[string]string{}
			for i, h := range header[0] {
				n, _ := excelize.ColumnNumberToName(i + 1)
				col[h] = n
			}
			dvs, err := f.GetDataValidations(tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			checked := false
			for _, dv := range dvs {
				if strings.HasPrefix(dv.Sqref, col[tc.lines+".codigo"]+"2:") && strings.HasPrefix(dv.Formula1, "'Listas'!$") {
					checked = true
				}
			}
			if !checked {
				t.Errorf("%s.codigo has no list from a range: %+v", tc.lines, dvs)
			}
			account, _ := f.GetCellValue("Listas", "C2")
			for i, values := range tc.rows(first, second, account) {
				for k, v := range values {
					if col[k] == "" {
						t.Fatalf("the %s template has no column %s", tc.kind, k)
					}
					if err := f.SetCellValue(tc.kind, col[k]+strconv.Itoa(i+2), v); err != nil {
						t.Fatal(err)
					}
				}
			}
			filled := filepath.Join(w.dir, "filled", tc.kind+".xlsx")
			if err := os.MkdirAll(filepath.Dir(filled), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := f.SaveAs(filled); err != nil {
				t.Fatal(err)
			}
			f.Close()
			// LibreOffice writes the workbook the user sends: its own XLSX,
			// with the streamed sheets and validations as it understood them.
			lo := convert(t, filled, "xlsx", "", filepath.Join(w.dir, "lo"))

			r := w.nx(t, "run", "--sandbox", "--journal", w.journal(), "--report-dir", w.reportDir(), "--no-xlsx", lo)
			if r.code != 0 {
				t.Fatalf("run: %s", r)
			}
			rows := w.readReport(t, lo)
			if len(rows) != 2 {
				t.Fatalf("report has %d rows, want 2: %v", len(rows), rows)
			}
			for i, want := range [][]string{first, second} {
				art, talle, color := demoVariant(t, want[0], want[2], want[3])
				if i == 1 && tc.byBarcode {
					art, talle, color = demoBarcode(t, want[4])
				}
				got := rows[i]
				if got["result.status"] != "ok" {
					t.Errorf("row %d: %s %s", i+2, got["result.status"], got["result.message"])
				}
				for k, v := range map[string]int64{"result.articuloId": art, "result.talleId": talle, "result.colorId": color} {
					if id := strconv.FormatInt(v, 10); got[k] != id && (v != 0 || got[k] != "") {
						t.Errorf("row %d (%v): %s = %q, want %s", i+2, want, k, got[k], id)
					}
				}
				if got["result.articulo"] == "" || !strings.Contains(got["result.articulo"], want[1]) {
					t.Errorf("row %d: result.articulo %q, want the name %q", i+2, got["result.articulo"], want[1])
				}
			}
		})
	}
}

// TestTemplateWith50000VariantsInLibreOffice: a sale template with a
// 50,000-variant catalog opens in LibreOffice, which writes it back with
// every variant on «Artículos» and the code and barcode columns still
// checked by a list from a range of «Listas» holding every code.
func TestTemplateWith50000VariantsInLibreOffice(t *testing.T) {
	dir := t.TempDir()
	var recs []nxapi.ArticuloConCurva
	for a := range 10000 {
		for v := range 5 {
			recs = append(recs, nxapi.ArticuloConCurva{ArticuloID: int64(a + 1), Codigo: fmt.Sprintf("%06d", a), Nombre: fmt.Sprintf("Remera %d", a),
				TalleID: int64(v + 1), TalleNombre: []string{"S", "M", "L", "XL", "XXL"}[v], CodigoBarras: fmt.Sprintf("779%07d%d", a, v)})
		}
	}
	book := filepath.Join(dir, "venta.xlsx")
	if err := plantilla.Write(book, schema.Venta, &catalog.Snapshot{}, plantilla.Options{Articulos: recs, ArticulosFetched: time.Now()}); err != nil {
		t.Fatal(err)
	}
	lo := convert(t, book, "xlsx", "", filepath.Join(dir, "lo"))
	f, err := excelize.OpenFile(lo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Artículos")
	if err != nil || len(rows) != 50001 {
		t.Fatalf("«Artículos» as LibreOffice wrote it: %d rows, %v", len(rows), err)
	}
	header, _ := f.GetRows("venta")
	col := map[string]string{}
	for i, h := range header[0] {
		n, _ := excelize.ColumnNumberToName(i + 1)
		col[h] = n
	}
	dvs, err := f.GetDataValidations("venta")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]int{"productos.codigo": 10000, "productos.codigoBarras": 50000} {
		var formula string
		for _, dv := range dvs {
			if dv.Type == "list" && strings.HasPrefix(dv.Sqref, col[path]+"2:") {
				formula = dv.Formula1
			}
		}
		m := regexp.MustCompile(`^'?Listas'?!\$([A-Z]+)\$2:\$([A-Z]+)\$(\d+)$`).FindStringSubmatch(formula)
		if m == nil {
			t.Errorf("%s: LibreOffice kept no list from a range: %q", path, formula)
			continue
		}
		if last, _ := strconv.Atoi(m[3]); last != want+1 {
			t.Errorf("%s: the list runs to row %d, want %d", path, last, want+1)
		}
		if v, _ := f.GetCellValue("Listas", m[1]+strconv.Itoa(want+1)); v == "" {
			t.Errorf("%s: the list's last cell %s%d is empty", path, m[1], want+1)
		}
	}
}

// demoBarcode is the ids the demo data gives barcode bc.
func demoBarcode(t *testing.T, bc string) (art, talleID, colorID int64) {
	t.Helper()
	for _, a := range sandbox.DemoData().Articulos {
		if a.CodigoBarras == bc {
			return a.ArticuloID, 0, 0
		}
		for _, v := range a.Variantes {
			if v.CodigoBarras == bc {
				return a.ArticuloID, v.TalleID, v.ColorID
			}
		}
	}
	t.Fatalf("the demo data has no barcode %q", bc)
	return 0, 0, 0
}
