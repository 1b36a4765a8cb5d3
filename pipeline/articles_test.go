package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
)

// articleCatalog is testdata/articulos.json (a GetDataCurva answer: a
// T-shirt in three sizes and two colours, a cap whose code has leading
// zeros, a mug, a deactivated article, a jacket with accented names)
// indexed.
func articleCatalog(t testing.TB) *validation.Catalog {
	t.Helper()
	b, err := os.ReadFile("testdata/articulos.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []nxapi.ArticuloConCurva
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	return &validation.Catalog{Articulos: articulos.Build(recs)}
}

// loadWith loads content as a file named name and validates it against
// cat, keeping bodies as a run does.
func loadWith(t *testing.T, name, content string, cat *validation.Catalog) *File {
	t.Helper()
	return loadValidated(t, name, content, cat, true)
}

// loadValidated loads content as a file named name and validates it
// against cat, keeping the bodies when keep (a run) or not (the page).
func loadValidated(t *testing.T, name, content string, cat *validation.Catalog, keep bool) *File {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	f.Validate(cat, keep)
	return f
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rowResult is one row's status, the field and column of its first issue,
// and its Spanish and English text.
type rowResult struct {
	status Status
	field  string
	column string
	es, en string
}

func sheetResults(sh *Sheet) []rowResult {
	var out []rowResult
	for i := 0; i < sh.Rows(); i++ {
		r := rowResult{status: sh.Requests[sh.reqOf[i]].Status, es: sh.RowMessage(i, msg.ES), en: sh.RowMessage(i, msg.EN)}
		if is := sh.RowIssues(i, msg.ES); len(is) > 0 {
			r.field = is[0].Field
			if is[0].Column >= 0 {
				r.column = sh.Info.Header[is[0].Column]
			}
		}
		out = append(out, r)
	}
	return out
}

func TestSalesByCodeResolveBeforeSending(t *testing.T) {
	f := loadWith(t, "ventas.csv", readTestdata(t, "ventas-codigo.csv"), articleCatalog(t))
	sh := f.Sheets[0]
	got := sheetResults(sh)
	want := []struct {
		status Status
		field  string
		column string
		es     string // a part of the Spanish message
	}{
		{StatusValid, "", "", ""},
		{StatusValid, "", "", ""},
		{StatusValid, "", "", ""}, // taza-1: a unique case-insensitive match
		{StatusValid, "", "", ""}, // by barcode
		{StatusValid, "", "", ""}, // accents and case
		{StatusInvalid, "productos.codigo", "Código", "¿quiso decir «REM-001» Remera lisa?"},
		{StatusInvalid, "productos.codigo", "Código", "tiene talles y colores; complete Talle (S, M, L) y Color (Rojo (RJ), Azul (AZ))"},
		{StatusInvalid, "productos.codigo", "Código", "está dado de baja"},
		{StatusInvalid, "productos.codigo", "Código", "es una fórmula"},
		{StatusInvalid, "productos.codigoBarras", "EAN", "notación científica"},
		{StatusInvalid, "productos.codigo", "Código", "pero EAN «7791234567890» nombra «0042» Gorra"},
		{StatusInvalid, "productos.talle", "Talle", "no tiene ese talle; sus talles son: S, M, L"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.status != w.status || g.field != w.field || g.column != w.column || !strings.Contains(g.es, w.es) {
			t.Errorf("row %d: %+v\nwant %+v", i+2, g, w)
		}
		if w.es != "" && g.en == g.es {
			t.Errorf("row %d: no English text: %s", i+2, g.en)
		}
	}
	// The bodies carry the resolved ids, never the codes.
	wantLines := map[string][]nxapi.Producto{
		"1": {{ArticuloID: 101, TalleID: 2, ColorID: 10}, {ArticuloID: 102}},
		"2": {{ArticuloID: 103}},
		"3": {{ArticuloID: 101, TalleID: 1, ColorID: 11}},
		"4": {{ArticuloID: 105, TalleID: 5, ColorID: 20}},
	}
	for _, r := range sh.Requests {
		want, ok := wantLines[r.Key]
		if !ok {
			if r.Result().Body != nil {
				t.Errorf("invalid sale %s kept a body to send", r.Key)
			}
			continue
		}
		body := r.Result().Body
		if strings.Contains(string(body), "REM-001") || strings.Contains(string(body), "codigo") {
			t.Errorf("sale %s body carries a code: %s", r.Key, body)
		}
		var v nxapi.Venta
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatalf("sale %s: %v", r.Key, err)
		}
		if len(v.Productos) != len(want) {
			t.Fatalf("sale %s: %d lines", r.Key, len(v.Productos))
		}
		for k, p := range v.Productos {
			if p.ArticuloID != want[k].ArticuloID || p.TalleID != want[k].TalleID || p.ColorID != want[k].ColorID {
				t.Errorf("sale %s line %d = %+v, want %+v", r.Key, k, p, want[k])
			}
		}
	}
	for _, w := range f.Warnings {
		if w.Key == "art.unchecked" {
			t.Errorf("with a catalog, no row is unchecked: %s", w.In(msg.ES))
		}
	}
}

func TestWithoutArticleCatalog(t *testing.T) {
	content := "ordenId,usuario.email,Código,productos.articuloId,precio,cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
		"1,ana@example.com,REM-001,,10,1,10,0,0,0,10,EFECTIVO\n" +
		"2,ana@example.com,,101,10,1,10,0,0,0,10,EFECTIVO\n" +
		"3,ana@example.com,,103,10,1,10,0,0,0,10,EFECTIVO\n"
	for _, cat := range []*validation.Catalog{nil, {}} {
		f := loadWith(t, "v.csv", content, cat)
		got := sheetResults(f.Sheets[0])
		if got[0].status != StatusInvalid || got[0].column != "Código" || !strings.Contains(got[0].es, "sin el catálogo de artículos") {
			t.Errorf("row by code without catalog: %+v", got[0])
		}
		if got[1].status != StatusValid || got[2].status != StatusValid {
			t.Errorf("rows by id without catalog: %+v", got[1:])
		}
		var warned []string
		for _, w := range f.Warnings {
			if w.Key == "art.unchecked" {
				warned = append(warned, w.In(msg.ES))
			}
		}
		if len(warned) != 1 || !strings.Contains(warned[0], "las filas 3-4 no se verificaron") {
			t.Errorf("warnings = %q", warned)
		}
	}
	// With a catalog, no warning and the code resolves.
	f := loadWith(t, "v.csv", content, articleCatalog(t))
	for _, w := range f.Warnings {
		if w.Key == "art.unchecked" {
			t.Errorf("warning kept after a validation with the catalog: %s", w.In(msg.ES))
		}
	}
	if got := sheetResults(f.Sheets[0]); got[0].status != StatusInvalid || !strings.Contains(got[0].es, "tiene talles y colores") {
		t.Errorf("row by code with the catalog: %+v", got[0])
	}
}

func TestBareIDIsCheckedAgainstTheCatalog(t *testing.T) {
	f := loadWith(t, "v.csv", ventaHeader+
		"1,ana@example.com,999,10,1,10,0,0,0,10,EFECTIVO\n"+
		"2,ana@example.com,101,10,1,10,0,0,0,10,EFECTIVO\n"+
		"3,ana@example.com,103,10,1,10,0,0,0,10,EFECTIVO\n", articleCatalog(t))
	got := sheetResults(f.Sheets[0])
	if got[0].status != StatusInvalid || got[0].field != "productos.articuloId" || !strings.Contains(got[0].es, "no existe en el catálogo") {
		t.Errorf("unknown id: %+v", got[0])
	}
	if got[1].status != StatusInvalid || !strings.Contains(got[1].es, "tiene talles y colores") {
		t.Errorf("varianted id without variant: %+v", got[1])
	}
	if got[2].status != StatusValid {
		t.Errorf("known id: %+v", got[2])
	}
	if f.Sheets[0].byKeys() {
		t.Error("a sheet by ids says it names articles by keys")
	}
}

func TestStockRowByCodeAndByIDIsOneRow(t *testing.T) {
	cat := articleCatalog(t)
	head := "depositoId,motivoId,tipo,"
	byCode := loadWith(t, "a.csv", head+"Código,Talle,Color,cantidad\n1,3,INGRESO_STOCK,REM-001,M,Rojo,5\n1,3,INGRESO_STOCK,rem-001,m,rojo,2\n1,3,INGRESO_STOCK,TAZA-1,,,1\n", cat)
	byID := loadWith(t, "b.csv", head+"articuloId,talleId,colorId,cantidad\n1,3,INGRESO_STOCK,101,2,10,5\n1,3,INGRESO_STOCK,101,2,10,2\n1,3,INGRESO_STOCK,103,,,1\n", cat)
	byBarcode := loadWith(t, "c.csv", head+"EAN,articulos.articuloId,cantidad\n1,3,INGRESO_STOCK,7790000001003,,5\n1,3,INGRESO_STOCK,7790000001003,,2\n1,3,INGRESO_STOCK,,103,1\n", cat)
	keys := func(f *File) []string {
		var out []string
		for _, r := range f.Sheets[0].Requests {
			if r.Status != StatusValid {
				t.Errorf("%s: row %s is %s: %s", f.Path, r.Key, r.Status, f.Sheets[0].RowMessage(int(r.Rows[0]), msg.ES))
			}
			out = append(out, r.Key)
		}
		return out
	}
	a, b, c := keys(byCode), keys(byID), keys(byBarcode)
	for i := range a {
		if a[i] != b[i] || b[i] != c[i] {
			t.Errorf("row %d: identities %s (code), %s (id), %s (barcode), want one", i+2, a[i], b[i], c[i])
		}
	}
	if a[0] == a[1] {
		t.Error("two occurrences of the same article share an identity")
	}
	// Without a catalog the rows by code cannot be sent; the rows by id
	// keep the identities they always had.
	plain := loadWith(t, "b.csv", head+"articuloId,talleId,colorId,cantidad\n1,3,INGRESO_STOCK,101,2,10,5\n1,3,INGRESO_STOCK,101,2,10,2\n1,3,INGRESO_STOCK,103,,,1\n", nil)
	if p := keys(plain); p[0] != b[0] || p[2] != b[2] {
		t.Errorf("identities by id changed with the catalog: %v vs %v", p, b)
	}
}

func TestStockByCode(t *testing.T) {
	f := loadWith(t, "stock.csv", readTestdata(t, "stock-codigo.csv"), articleCatalog(t))
	sh := f.Sheets[0]
	got := sheetResults(sh)
	want := []struct {
		status Status
		column string
	}{
		{StatusValid, ""}, {StatusValid, ""}, {StatusValid, ""}, {StatusValid, ""},
		{StatusInvalid, "Talle"}, {StatusInvalid, "SKU"}, {StatusInvalid, "articulos.articuloId"},
		{StatusInvalid, "SKU"}, // a jacket with its size but not its colour
	}
	for i, w := range want {
		if got[i].status != w.status || got[i].column != w.column {
			t.Errorf("row %d: %+v, want %+v", i+2, got[i], w)
		}
	}
	// The line sent for each valid row carries its ids.
	wantLines := []nxapi.StockArticulo{{ArticuloID: 101, TalleID: 2, ColorID: 10}, {ArticuloID: 103}, {ArticuloID: 102}, {ArticuloID: 101, TalleID: 3, ColorID: 11}}
	for i, w := range wantLines {
		var a nxapi.StockArticulo
		if err := json.Unmarshal(sh.Requests[i].Result().Body, &a); err != nil {
			t.Fatalf("row %d: %v", i+2, err)
		}
		if a.ArticuloID != w.ArticuloID || a.TalleID != w.TalleID || a.ColorID != w.ColorID {
			t.Errorf("row %d sends %+v, want %+v", i+2, a, w)
		}
	}
	// The movement holding the bad rows still goes with its good ones.
	if n := sh.stockRequests(500); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
}

func TestArticleResultColumns(t *testing.T) {
	f := loadWith(t, "stock.csv", readTestdata(t, "stock-codigo.csv"), articleCatalog(t))
	sh := f.Sheets[0]
	tab := sh.Table(msg.ES)
	cols := tab.Result
	at := map[string]int{}
	for i, c := range cols {
		at[c] = i
	}
	for _, c := range articleResultColumns {
		if _, ok := at[c]; !ok {
			t.Fatalf("result columns %v lack %s", cols, c)
		}
	}
	var rows [][]string
	for r := range tab.Rows {
		rows = append(rows, append([]string(nil), r.Result...))
		if len(r.Cells) != len(sh.Info.Header) {
			t.Errorf("row %d: %d cells, the user's %d columns", r.SourceRow, len(r.Cells), len(sh.Info.Header))
		}
	}
	check := func(row int, art, talle, color, name string) {
		t.Helper()
		r := rows[row-2]
		got := []string{r[at["result.articuloId"]], r[at["result.talleId"]], r[at["result.colorId"]], r[at["result.articulo"]]}
		if want := []string{art, talle, color, name}; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %d: %q, want %q", row, got, want)
		}
	}
	if a, ok := sh.ArticleOf(0); !ok || a != (ResolvedArticle{101, 2, 10, "Remera lisa"}) {
		t.Errorf("ArticleOf(0) = %+v, %v", a, ok)
	}
	if a, ok := sh.ArticleOf(4); ok {
		t.Errorf("ArticleOf(4), a row that did not resolve, = %+v", a)
	}
	if _, ok := sh.ArticleOf(99); ok {
		t.Error("ArticleOf past the last row says ok")
	}
	check(2, "101", "2", "10", "Remera lisa")
	check(3, "103", "", "", "Taza")
	check(5, "101", "3", "11", "Remera lisa")
	check(6, "", "", "", "")
	// A sheet by ids keeps its columns as they were.
	plain := loadWith(t, "v.csv", ventaHeader+"1,ana@example.com,103,10,1,10,0,0,0,10,EFECTIVO\n", articleCatalog(t))
	if got := plain.Sheets[0].Table(msg.ES).Result; len(got) != 7 {
		t.Errorf("result columns of a sheet by ids: %v", got)
	}
}

// TestArticleColumnsResolveIntoIDs ties each article key column to the
// ids it fills (the other side of notSent in columns_test.go).
func TestArticleColumnsResolveIntoIDs(t *testing.T) {
	cat := articleCatalog(t)
	heads := map[schema.Kind][2]string{
		schema.Venta: {"ordenId,usuario.email,precio,cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo", "1,ana@example.com,10,1,10,0,0,0,10,EFECTIVO"},
		schema.Stock: {"depositoId,motivoId,tipo,cantidad", "1,3,INGRESO_STOCK,2"},
		// An order: its file's name picks the kind.
		schema.Pedido: {"ordenId,usuario.email,precio,cantidad,subtotal,descuento,recargo,envio,total", "1,ana@example.com,10,1,10,0,0,0,10"},
	}
	for _, kind := range []schema.Kind{schema.Venta, schema.Stock, schema.Pedido} {
		name := map[schema.Kind]string{schema.Pedido: "pedidos.csv"}[kind]
		if name == "" {
			name = "f.csv"
		}
		p := linePrefix(kind)
		for _, tt := range []struct {
			key, text             string
			talle, color          string
			art, talleID, colorID float64
		}{
			{"codigo", "REM-001", "L", "Azul", 101, 3, 11},
			{"codigo", "CAMP", "U", "negro", 105, 5, 21},
			{"codigoBarras", "7790000001001", "", "", 101, 1, 10},
			{"codigoBarras", "7791234567890", "", "", 102, 0, 0},
		} {
			content := heads[kind][0] + "," + p + "." + tt.key + "," + p + ".talle," + p + ".color\n" +
				heads[kind][1] + "," + tt.text + "," + tt.talle + "," + tt.color + "\n"
			f := loadWith(t, name, content, cat)
			sh := f.Sheets[0]
			if sh.Kind != kind {
				t.Fatalf("%s loaded as %s", name, sh.Kind)
			}
			body := sh.Requests[0].Result().Body
			var line map[string]any
			switch kind {
			case schema.Venta, schema.Pedido:
				var v map[string]any
				if err := json.Unmarshal(body, &v); err != nil {
					t.Fatalf("%s %s: %v (%s)", kind, tt.key, err, sh.RowMessage(0, msg.EN))
				}
				line = v["productos"].([]any)[0].(map[string]any)
			default:
				if err := json.Unmarshal(body, &line); err != nil {
					t.Fatalf("%s %s: %v (%s)", kind, tt.key, err, sh.RowMessage(0, msg.EN))
				}
			}
			get := func(k string) float64 {
				n, _ := line[k].(float64)
				return n
			}
			if get("articuloId") != tt.art || get("talleId") != tt.talleID || get("colorId") != tt.colorID {
				t.Errorf("%s by %s %s: line %v", kind, tt.key, tt.text, line)
			}
			for k := range line {
				if schema.IsArticleKey(p + "." + k) {
					t.Errorf("%s by %s: the line carries %s", kind, tt.key, k)
				}
			}
		}
	}
}

func TestErrorsFileByCodeRefeeds(t *testing.T) {
	cat := articleCatalog(t)
	f := loadWith(t, "stock.csv", readTestdata(t, "stock-codigo.csv"), cat)
	dir := t.TempDir()
	paths, err := f.WriteReports(ReportOptions{Dir: dir, Lang: msg.ES, NoXLSX: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{} // source row → identity
	for _, r := range f.Sheets[0].Requests {
		if r.Status == StatusInvalid {
			want[f.Sheets[0].store.rowNumber(int(r.Rows[0]))] = r.Key
		}
	}
	back, err := Load(paths.Errors[0], LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range back.Warnings {
		t.Errorf("feeding the errors file back warns: %s", w.In(msg.ES))
	}
	back.Validate(cat, false)
	sh := back.Sheets[0]
	if sh.Rows() != len(want) {
		t.Fatalf("%d rows fed back, want %d", sh.Rows(), len(want))
	}
	for i := 0; i < sh.Rows(); i++ {
		if got := sh.Requests[i].Key; got != want[sh.sourceRow(i)] {
			t.Errorf("row from %d: identity %s, want %s", sh.sourceRow(i), got, want[sh.sourceRow(i)])
		}
	}
}
