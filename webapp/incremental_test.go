package webapp

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/xuri/excelize/v2"
)

// incrementalCase is a file and, per column, the values a random fix
// picks from: repeated keys, keys that regroup rows, amounts that change
// the decimal separator, values that make a row valid or invalid.
type incrementalCase struct {
	name   string
	file   string
	values map[string][]string
}

var incrementalCases = []incrementalCase{
	{
		name: "ventas.csv",
		file: "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
			"100,a@example.com,105,10,1,20,0,0,0,20,EFECTIVO\n" +
			"101,b@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n" +
			"100,,106,10,1,,,,,,\n" +
			"102,c@example.com,105,10,2,20,0,0,0,20,EFECTIVOO\n" +
			"103,d@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n" +
			"101,,107,5,2,,,,,,\n" +
			"104,e@example.com,105,10,1,10,0,0,0,10,TARJETA\n" +
			"105,f@example.com,105,10,1,10,0,0,0,10,EFECTIVO\n",
		values: map[string][]string{
			"ordenId":              {"100", "101", "102", "0101", " 103", "106", "abc", ""},
			"usuario.email":        {"a@example.com", "x@example.com", "mal", ""},
			"productos.articuloId": {"105", "106", "x", ""},
			"productos.precio":     {"10", "10,5", "10.5", "1.000,50", "x"},
			"productos.cantidad":   {"1", "2", "0"},
			"total":                {"10", "20", "10,5", "30"},
			"medioPago.tipo":       {"EFECTIVO", "EFECTIVOO", "TARJETA", "DEPOSITO_BANCO"},
		},
	},
	{
		name: "pedidos.csv",
		file: "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,pagado,medioPago.tipo\n" +
			"200,a@example.com,105,10,1,20,0,0,0,20,no,\n" +
			"200,,106,10,1,,,,,,,\n" +
			"201,b@example.com,105,10,1,10,0,0,0,10,si,EFECTIVO\n" +
			"202,c@example.com,105,10,1,10,0,0,0,10,,\n" +
			"201,,105,10,1,,,,,,,\n",
		values: map[string][]string{
			"ordenId":        {"200", "201", "202", "203", "x", ""},
			"total":          {"10", "20", "x"},
			"pagado":         {"si", "no", "quizas", ""},
			"medioPago.tipo": {"EFECTIVO", "EFECTIVOO", ""},
		},
	},
	{
		name: "facturar.csv",
		file: "facturaId,puntoVentaId,electronica,medioPago.tipo,medioPago.cuentaBancariaId,medioPago.tarjetaId,medioPago.externalId\n" +
			"1001,1,no,EFECTIVO,,,\n" +
			"1002,1,si,TARJETA,,20,\n" +
			"1001,2,no,EFECTIVO,,,\n" +
			"1003,2,no,DEPOSITO_BANCO,11,,\n" +
			"1004,1,no,CUENTA_CORRIENTE,,,\n" +
			"1002,1,no,EFECTIVOO,,,\n",
		values: map[string][]string{
			"facturaId":      {"1001", "1002", "1003", "01003", "1005", "x", ""},
			"puntoVentaId":   {"1", "2", "x"},
			"electronica":    {"si", "no", "tal vez"},
			"medioPago.tipo": {"EFECTIVO", "EFECTIVOO", "TARJETA"},
		},
	},
	{
		name: "cancelaciones.csv",
		file: "facturaId\n1001\n1002\n1001\n1003\n",
		values: map[string][]string{
			"facturaId": {"1001", "1002", "1003", "x", "0"},
		},
	},
	{
		name: "stock.csv",
		file: "depositoId,motivoId,tipo,fecha,detalle,depositoDosId,articulos.articuloId,articulos.colorId,articulos.talleId,articulos.cantidad\n" +
			"1,1,INGRESO_STOCK,2026-11-20,Recuento anual,,110,,,25\n" +
			"1,1,INGRESO_STOCK,2026-11-20,Recuento anual,,111,,,12\n" +
			"2,2,EGRESO_STOCK,2026-11-20,Rotura en showroom,,100,1,1,1\n" +
			"1,1,INGRESO_STOCK,2026-11-20,Recuento anual,,110,,,4\n",
		values: map[string][]string{
			"depositoId":           {"1", "2", "x"},
			"tipo":                 {"INGRESO_STOCK", "EGRESO_STOCK", "6", "MAL"},
			"articulos.articuloId": {"110", "111", "100", "x"},
			"articulos.cantidad":   {"1", "2,5", "2.5", "x"},
		},
	},
}

// TestIncrementalFixMatchesFullRevalidation applies random sequences of
// fixes (one cell, every row with the same value, find-and-replace) and,
// after each, compares the page's state with what reading and validating
// the fixed file again gives: the same rows, statuses, messages, counts,
// warnings and plan. Most fixes must have gone the incremental way.
func TestIncrementalFixMatchesFullRevalidation(t *testing.T) {
	for _, tc := range incrementalCases {
		for seed := range uint64(2) {
			// Each file as CSV and as a workbook whose numbers are numbers.
			for _, ext := range []string{".csv", ".xlsx"} {
				name, data := tc.name, []byte(tc.file)
				if ext == ".xlsx" {
					name, data = strings.TrimSuffix(tc.name, ".csv")+ext, csvToXLSX(t, tc.file)
				}
				t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
					fixRandomly(t, tc, name, data, seed)
				})
			}
		}
	}
}

// csvToXLSX is the CSV text as a workbook of one sheet: a cell that reads
// as a number written back the same is a number, any other text.
func csvToXLSX(t testing.TB, text string) []byte {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	for r, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		for c, v := range strings.Split(line, ",") {
			ref, err := excelize.CoordinatesToCellName(c+1, r+1)
			if err != nil {
				t.Fatal(err)
			}
			var val any = v
			if f, err := strconv.ParseFloat(v, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v {
				val = f
			}
			if err := x.SetCellValue("Sheet1", ref, val); err != nil {
				t.Fatal(err)
			}
		}
	}
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fixRandomly is one run of TestIncrementalFixMatchesFullRevalidation:
// upload data as name and fix it at random, seeded.
func fixRandomly(t *testing.T, tc incrementalCase, name string, data []byte, seed uint64) {
	b := newBed(t, bedOptions{})
	a := b.upload(name, data)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/u/") {
		t.Fatalf("upload: %d %s\n%.400s", a.status, a.location, a.body)
	}
	page := a.location
	u := b.srv.uploads.get(strings.TrimPrefix(page, "/u/"))
	if u == nil {
		t.Fatalf("upload went to %s", page)
	}
	// The upload's state as read from the page's own CSV is
	// made in the background: waited for, the first fix goes
	// the incremental way too.
	b.srv.warming.Wait()
	if w := u.cur.warm.Load(); w == nil {
		t.Fatal("no state read from the page's CSV was kept for the first fix")
	}
	first := true
	rng := rand.New(rand.NewPCG(seed, 22))
	header := strings.Split(strings.SplitN(tc.file, "\n", 2)[0], ",")
	var cols []int
	for c, h := range header {
		if len(tc.values[h]) > 0 {
			cols = append(cols, c)
		}
	}
	incremental := 0
	const steps = 30
	for step := range steps {
		u.mu.Lock()
		v, err := b.srv.loaded(context.Background(), u)
		u.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		rows := v.file.Sheets[0].Rows()
		col := cols[rng.IntN(len(cols))]
		pool := tc.values[header[col]]
		value := pool[rng.IntN(len(pool))]
		row := rng.IntN(rows)
		what := ""
		switch k := rng.IntN(6); {
		case k < 4:
			what = fmt.Sprintf("fix row %d %s=%q", row, header[col], value)
			form := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {strconv.Itoa(v.n)}, "row": {strconv.Itoa(row)}, "col": {strconv.Itoa(col)}, "value": {value}}
			if k == 3 {
				form.Set("all", "1")
				what = "every row like " + what
			}
			if a := b.fix(page, form); a.status != http.StatusOK {
				t.Fatalf("step %d %s: %d\n%.400s", step, what, a.status, a.body)
			}
		default:
			find := v.file.Sheets[0].Cell(row, col)
			if find == value {
				continue
			}
			what = fmt.Sprintf("replace %s %q → %q", header[col], find, value)
			form := url.Values{"sheet": {"0"}, "version": {strconv.Itoa(v.n)}, "col": {strconv.Itoa(col)}, "find": {find}, "value": {value}, "confirm": {"1"}}
			if a := b.post(page+"/replace", form); a.status != http.StatusSeeOther {
				t.Fatalf("step %d %s: %d\n%.400s", step, what, a.status, a.body)
			}
		}
		u.mu.Lock()
		got := u.cur
		want, err := b.srv.validate(context.Background(), u, got.n)
		u.mu.Unlock()
		if err != nil {
			t.Fatalf("step %d %s: full revalidation: %v", step, what, err)
		}
		if got.incremental {
			incremental++
		} else if first {
			t.Errorf("step %d (%s), the upload's first fix, read the whole file again", step, what)
		}
		first = false
		sameVersion(t, fmt.Sprintf("step %d (%s)", step, what), got, want)
	}
	// One that blanks a whole row cannot go the incremental way.
	if incremental < steps/2 {
		t.Errorf("%d of %d fixes went the incremental way", incremental, steps)
	}
}

// sameVersion fails t where got and want differ in what a page or a
// report shows.
func sameVersion(t *testing.T, step string, got, want *version) {
	t.Helper()
	check := func(what string, g, w any) {
		t.Helper()
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("%s: %s differs:\nincremental %v\nfull        %v", step, what, g, w)
		}
	}
	gf, wf := got.file, want.file
	// The full revalidation read the fixed version, written first from
	// the incremental state (flush): the same file.
	check("SHA-256", got.sha256(), wf.SHA256)
	check("plan", gf.Plan(), wf.Plan())
	gr, gq := gf.Counts()
	wr, wq := wf.Counts()
	check("row counts", gr, wr)
	check("request counts", gq, wq)
	check("attention", got.attention, want.attention)
	check("version counts", got.rows, want.rows)
	check("least time", got.least, want.least)
	var gw, ww []string
	for _, m := range gf.Warnings {
		gw = append(gw, m.In(msg.ES))
	}
	for _, m := range wf.Warnings {
		ww = append(ww, m.In(msg.ES))
	}
	check("warnings", gw, ww)
	check("sheets", len(gf.Sheets), len(wf.Sheets))
	for si, gs := range gf.Sheets {
		ws := wf.Sheets[si]
		check("separator", gs.Sep, ws.Sep)
		check("rows", gs.Rows(), ws.Rows())
		for i := range gs.Rows() {
			for _, l := range []msg.Lang{msg.ES, msg.EN} {
				check(fmt.Sprintf("row %d", i), gs.RowViewFor(i, l, msg.ForPage), ws.RowViewFor(i, l, msg.ForPage))
			}
			check(fmt.Sprintf("kinds of row %d", i), gs.CellKinds(i, nil), ws.CellKinds(i, nil))
			ga, gok := gs.ArticleOf(i)
			wa, wok := ws.ArticleOf(i)
			check(fmt.Sprintf("article of row %d", i), [2]any{ga, gok}, [2]any{wa, wok})
		}
		for c := range gs.Info.Header {
			check(fmt.Sprintf("same values of column %d", c), got.same.of(gf, si, c), want.same.of(wf, si, c))
		}
	}
}
