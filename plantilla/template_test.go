package plantilla

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// sandboxSnapshot pulls every catalog from a sandbox with the demo data,
// its windows scaled down so that the shared minute is milliseconds.
func sandboxSnapshot(t *testing.T) *catalog.Snapshot {
	t.Helper()
	const scale = 0.0005
	srv, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	client, err := apiclient.New(apiclient.Options{BaseURL: srv.URL, Token: apiclient.NewToken(sandbox.DefaultToken)})
	if err != nil {
		t.Fatal(err)
	}
	c := &catalog.Cache{Dir: t.TempDir(), Tenant: "demo", Window: time.Duration(float64(catalog.ParamWindow) * scale * 1.5),
		Fetch: client, Windows: &sendrulestest.Windows{}}
	s, pulled, err := c.Pull(context.Background(), catalog.PullOptions{Wait: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pulled {
		if p.Status != catalog.Fetched {
			t.Fatalf("pull %s: %s", p.Name, p.Message(time.Now()).In(msg.EN))
		}
	}
	return &s
}

var rangeRE = regexp.MustCompile(`^'?([^'!]+)'?!\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+)$`)

// listValues reads the cells a drop-down's range points at (blank cells
// left out).
func listValues(t *testing.T, f *excelize.File, formula string) []string {
	t.Helper()
	m := rangeRE.FindStringSubmatch(formula)
	if m == nil {
		t.Fatalf("drop-down source %q is not a sheet range", formula)
	}
	from, _ := strconv.Atoi(m[3])
	to, _ := strconv.Atoi(m[5])
	var out []string
	for r := from; r <= to; r++ {
		v, err := f.GetCellValue(m[1], m[2]+strconv.Itoa(r))
		if err != nil {
			t.Fatal(err)
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// validations maps each data column's path to its data validation.
func validations(t *testing.T, f *excelize.File, k schema.Kind) map[string]*excelize.DataValidation {
	t.Helper()
	dvs, err := f.GetDataValidations(string(k))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*excelize.DataValidation{}
	for _, dv := range dvs {
		first := strings.SplitN(dv.Sqref, ":", 2)[0]
		colName := strings.TrimRight(first, "0123456789")
		path, _ := f.GetCellValue(string(k), colName+"1")
		if _, dup := out[path]; dup {
			t.Errorf("two validations on %s", path)
		}
		out[path] = dv
	}
	return out
}

func colOf(t *testing.T, k schema.Kind, path string) string {
	t.Helper()
	for i, c := range k.Columns() {
		if c.Path == path {
			n, _ := excelize.ColumnNumberToName(i + 1)
			return n
		}
	}
	t.Fatalf("%s has no column %s", k, path)
	return ""
}

func TestDropDowns(t *testing.T) {
	snap := sandboxSnapshot(t)
	tests := []struct {
		kind schema.Kind
		want map[string][]string // column → drop-down values
	}{
		{schema.Venta, map[string][]string{
			"medioPago.tipo":             {"EFECTIVO", "DEPOSITO_BANCO", "VIRTUAL"},
			"medioPago.cuentaBancariaId": {"10", "11"},
			"medioPago.tarjetaId":        {"20", "21", "22"},
			"usuario.condicion":          {"SIN_CATEGORIA", "CONSUMIDOR_FINAL", "RESPONSABLE_INSCRIPTO", "MONOTRIBUTO", "EXENTO", "RESPONSABLE_NO_INSCRIPTO"},
		}},
		{schema.Facturar, map[string][]string{
			"medioPago.tipo":             {"EFECTIVO", "TARJETA", "CUENTA_CORRIENTE", "DEPOSITO_BANCO", "VIRTUAL"},
			"medioPago.cuentaBancariaId": {"10", "11"},
			"medioPago.tarjetaId":        {"20", "21", "22"},
			"electronica":                {"SI", "NO"},
			"puntoVentaId":               {"1", "2"},
		}},
		{schema.Stock, map[string][]string{
			"tipo":          {"INGRESO_MANUAL", "EGRESO_MANUAL", "INGRESO_STOCK", "EGRESO_STOCK", "TRANSFERENCIA"},
			"depositoId":    {"1", "2", "3", "4"},
			"depositoDosId": {"1", "2", "3", "4"},
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			f, err := Build(tt.kind, snap, Options{Rows: 200})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dvs := validations(t, f, tt.kind)
			for path, want := range tt.want {
				dv, ok := dvs[path]
				if !ok {
					t.Errorf("%s has no drop-down", path)
					continue
				}
				if dv.Type != "list" {
					t.Errorf("%s validation type = %s, want list", path, dv.Type)
				}
				col := colOf(t, tt.kind, path)
				if dv.Sqref != col+"2:"+col+"201" {
					t.Errorf("%s sqref = %s, want %s2:%s201", path, dv.Sqref, col, col)
				}
				if got := listValues(t, f, dv.Formula1); !cmp.Equal(got, want) {
					t.Errorf("%s list = %v, want %v", path, got, want)
				}
				if dv.Prompt == nil || dv.Error == nil || *dv.Prompt == "" {
					t.Errorf("%s has no input prompt or error text", path)
				}
			}
		})
	}
}

func TestMotivosListSkipsEliminados(t *testing.T) {
	snap := sandboxSnapshot(t)
	var active []string
	for _, m := range snap.Motivos {
		if !m.Eliminado {
			active = append(active, strconv.FormatInt(m.MotivoID, 10))
		}
	}
	if len(active) == len(snap.Motivos) {
		t.Fatalf("demo data has no eliminado motivo to leave out: %+v", snap.Motivos)
	}
	f, err := Build(schema.Stock, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dv := validations(t, f, schema.Stock)["motivoId"]
	if got := listValues(t, f, dv.Formula1); !cmp.Equal(got, active) {
		t.Errorf("motivoId list = %v, want only the motivos in use %v", got, active)
	}
	if *dv.ErrorStyle != "stop" {
		t.Errorf("an id list should stop a value off the list, style = %s", *dv.ErrorStyle)
	}
}

func TestWorkbookLayout(t *testing.T) {
	snap := sandboxSnapshot(t)
	path := filepath.Join(t.TempDir(), "venta.xlsx")
	if err := Write(path, schema.Venta, snap, Options{}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const data = "venta"
	if got := f.GetSheetList(); !cmp.Equal(got, []string{data, InstructionsSheet, ListsSheet}) {
		t.Fatalf("sheets = %v", got)
	}
	for sheet, want := range map[string]bool{data: true, InstructionsSheet: true, ListsSheet: false} {
		if v, _ := f.GetSheetVisible(sheet); v != want {
			t.Errorf("sheet %s visible = %v, want %v", sheet, v, want)
		}
	}
	if f.GetActiveSheetIndex() != 0 {
		t.Errorf("active sheet = %d, want the data sheet", f.GetActiveSheetIndex())
	}
	panes, err := f.GetPanes(data)
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
		t.Errorf("panes = %+v, want the header row frozen", panes)
	}
	rows, err := f.GetRows(data)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range schema.Venta.Columns() {
		want = append(want, c.Path)
	}
	if len(rows) != 1 || !cmp.Equal(rows[0], want) {
		t.Fatalf("rows = %v, want only the header %v", rows, want)
	}

	comments, err := f.GetComments(data)
	if err != nil {
		t.Fatal(err)
	}
	commentAt := map[string]string{}
	for _, c := range comments {
		text := c.Text
		for _, p := range c.Paragraph {
			text += p.Text
		}
		commentAt[c.Cell] = text
	}
	tests := []struct {
		path     string
		fill     string
		numFmt   int
		custom   string
		comment  string
		minWidth float64
	}{
		{path: "ordenId", fill: RequiredFill, numFmt: 1, comment: "Obligatoria: Número de orden"},
		{path: "usuario.cuit", fill: OptionalFill, numFmt: 49, comment: "Opcional: CUIT del cliente", minWidth: 15},
		{path: "total", fill: RequiredFill, numFmt: 4, comment: "Obligatoria: Total = subtotal"},
		{path: "productos.cantidad", fill: RequiredFill, numFmt: 0},
		{path: "detalle", fill: OptionalFill, numFmt: 49, minWidth: 24},
		{path: "medioPago.tipo", fill: RequiredFill, numFmt: 0, comment: "Obligatoria: Medio de pago"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			col := colOf(t, schema.Venta, tt.path)
			hs, _ := f.GetCellStyle(data, col+"1")
			st, err := f.GetStyle(hs)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Font.Bold || len(st.Fill.Color) != 1 || !strings.EqualFold(st.Fill.Color[0], tt.fill) {
				t.Errorf("header style = font %+v fill %+v, want bold on %s", st.Font, st.Fill, tt.fill)
			}
			cs, err := f.GetColStyle(data, col)
			if err != nil {
				t.Fatal(err)
			}
			cst, _ := f.GetStyle(cs)
			if cst.NumFmt != tt.numFmt {
				t.Errorf("column number format = %d, want %d", cst.NumFmt, tt.numFmt)
			}
			if !strings.HasPrefix(commentAt[col+"1"], tt.comment) {
				t.Errorf("header comment = %q, want it to start %q", commentAt[col+"1"], tt.comment)
			}
			w, _ := f.GetColWidth(data, col)
			if w < max(12, tt.minWidth) {
				t.Errorf("width = %v, want at least %v", w, max(12, tt.minWidth))
			}
		})
	}
}

func TestStockDateColumn(t *testing.T) {
	f, err := Build(schema.Stock, &catalog.Snapshot{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cs, _ := f.GetColStyle("stock", colOf(t, schema.Stock, "fecha"))
	st, _ := f.GetStyle(cs)
	if st.CustomNumFmt == nil || *st.CustomNumFmt != "dd/mm/yyyy" {
		t.Errorf("fecha format = %v, want dd/mm/yyyy (day first)", st.CustomNumFmt)
	}
}

// instructions returns the Instrucciones sheet as text, one line per row.
func instructions(t *testing.T, f *excelize.File) string {
	t.Helper()
	rows, err := f.GetRows(InstructionsSheet)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, " | ") + "\n")
	}
	return b.String()
}

func TestInstructionsExplainEveryColumn(t *testing.T) {
	for _, k := range schema.Kinds {
		t.Run(string(k), func(t *testing.T) {
			f, err := Build(k, &catalog.Snapshot{}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if text := instructions(t, f); strings.Contains(text, "%!") {
				t.Errorf("Instrucciones has a broken format verb:\n%s", text)
			}
			rows, _ := f.GetRows(InstructionsSheet)
			described := map[string]string{}
			for _, r := range rows {
				if len(r) >= 4 {
					described[r[0]] = r[3]
				}
			}
			for _, c := range k.Columns() {
				d := described[c.Path]
				if d == "" || strings.HasPrefix(d, "tpl.") {
					t.Errorf("column %s: description %q", c.Path, d)
				}
			}
		})
	}
}

func TestEmptyAndUnknownCatalogs(t *testing.T) {
	noAccounts := &catalog.Snapshot{
		MediosPago:        &nxapi.MediosPagoConfig{Medios: nxapi.WMedios{Efectivo: true, Deposito: true}, CuentasBancarias: []nxapi.CuentaBancaria{}},
		MediosPagoFetched: time.Now(),
	}
	tests := []struct {
		name      string
		snap      *catalog.Snapshot
		wantList  bool // cuentaBancariaId has a drop-down
		wantTipos []string
		wantText  string // in Instrucciones
	}{
		{name: "no bank accounts", snap: noAccounts, wantList: true, wantTipos: []string{"EFECTIVO", "DEPOSITO_BANCO"},
			wantText: "no hay cuentas bancarias cargadas: no se puede usar DEPOSITO_BANCO hasta crear una en el ERP"},
		{name: "never fetched", snap: &catalog.Snapshot{}, wantList: false, wantTipos: []string{"EFECTIVO", "DEPOSITO_BANCO", "VIRTUAL"},
			wantText: "no se pudo consultar el catálogo de medioPago.cuentaBancariaId, así que no hay lista"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "v.xlsx")
			if err := Write(path, schema.Venta, tt.snap, Options{}); err != nil {
				t.Fatal(err)
			}
			f, err := excelize.OpenFile(path)
			if err != nil {
				t.Fatalf("the workbook does not reopen: %v", err)
			}
			defer f.Close()
			dvs := validations(t, f, schema.Venta)
			dv, ok := dvs["medioPago.cuentaBancariaId"]
			if ok != tt.wantList {
				t.Fatalf("cuentaBancariaId drop-down present = %v, want %v", ok, tt.wantList)
			}
			if ok {
				if got := listValues(t, f, dv.Formula1); len(got) != 0 {
					t.Errorf("list = %v, want empty", got)
				}
				if !strings.Contains(*dv.Prompt, "no hay cuentas bancarias") {
					t.Errorf("prompt = %q, want the explanation", *dv.Prompt)
				}
			}
			if got := listValues(t, f, dvs["medioPago.tipo"].Formula1); !cmp.Equal(got, tt.wantTipos) {
				t.Errorf("tipos = %v, want %v", got, tt.wantTipos)
			}
			if text := instructions(t, f); !strings.Contains(text, tt.wantText) {
				t.Errorf("Instrucciones lacks %q:\n%s", tt.wantText, text)
			}
		})
	}
}

// fill writes rows (column path → value) under the header of a template.
func fill(t *testing.T, f *excelize.File, k schema.Kind, rows []map[string]any) {
	t.Helper()
	for i, r := range rows {
		for path, v := range r {
			if err := f.SetCellValue(string(k), colOf(t, k, path)+strconv.Itoa(i+2), v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// first returns the first value of a column's drop-down, as a person
// picking from it would get it.
func first(t *testing.T, f *excelize.File, k schema.Kind, path string) any {
	t.Helper()
	vals := listValues(t, f, validations(t, f, k)[path].Formula1)
	if len(vals) == 0 {
		t.Fatalf("%s list is empty", path)
	}
	if n, err := strconv.ParseInt(vals[0], 10, 64); err == nil {
		return n
	}
	return vals[0]
}

func TestRoundTrip(t *testing.T) {
	snap := sandboxSnapshot(t)
	tests := []struct {
		name        string
		kind        schema.Kind
		rows        func(f *excelize.File) []map[string]any
		wantStatus  pipeline.Status
		wantMessage string
	}{
		{name: "venta filled from the lists", kind: schema.Venta, wantStatus: pipeline.StatusValid,
			rows: func(f *excelize.File) []map[string]any {
				return []map[string]any{
					{"ordenId": 71001, "usuario.email": "ana@example.com", "usuario.cuit": "20-12345678-6", "usuario.condicion": "CONSUMIDOR_FINAL",
						"subtotal": 3500.5, "descuento": 0, "recargo": 0, "envio": 0, "total": 3500.5,
						"medioPago.tipo": "DEPOSITO_BANCO", "medioPago.cuentaBancariaId": first(t, f, schema.Venta, "medioPago.cuentaBancariaId"),
						"productos.articuloId": 100, "productos.precio": 1000, "productos.cantidad": 2},
					{"ordenId": 71001, "productos.articuloId": 101, "productos.precio": 1500.5, "productos.cantidad": 1},
				}
			}},
		{name: "venta with a bank account typed past the list", kind: schema.Venta, wantStatus: pipeline.StatusInvalid,
			wantMessage: "medioPago.cuentaBancariaId 99 no existe en los catálogos de la empresa; valores válidos: 10 (Banco Nación CC), 11 (Galicia CA)",
			rows: func(*excelize.File) []map[string]any {
				return []map[string]any{{"ordenId": 71002, "usuario.email": "ana@example.com",
					"subtotal": 10, "descuento": 0, "recargo": 0, "envio": 0, "total": 10,
					"medioPago.tipo": "DEPOSITO_BANCO", "medioPago.cuentaBancariaId": 99,
					"productos.articuloId": 100, "productos.precio": 10, "productos.cantidad": 1}}
			}},
		{name: "facturar filled from the lists", kind: schema.Facturar, wantStatus: pipeline.StatusValid,
			rows: func(f *excelize.File) []map[string]any {
				return []map[string]any{{"facturaId": 1001, "puntoVentaId": first(t, f, schema.Facturar, "puntoVentaId"), "electronica": "SI",
					"medioPago.tipo": "TARJETA", "medioPago.tarjetaId": first(t, f, schema.Facturar, "medioPago.tarjetaId")}}
			}},
		{name: "stock filled from the lists", kind: schema.Stock, wantStatus: pipeline.StatusValid,
			rows: func(f *excelize.File) []map[string]any {
				fecha := time.Date(2026, 9, 3, 0, 0, 0, 0, time.UTC)
				return []map[string]any{
					{"depositoId": first(t, f, schema.Stock, "depositoId"), "motivoId": first(t, f, schema.Stock, "motivoId"), "tipo": "INGRESO_MANUAL",
						"fecha": fecha, "articulos.articuloId": 100, "articulos.cantidad": 5, "articulos.colorId": 1, "articulos.talleId": 1},
					{"depositoId": first(t, f, schema.Stock, "depositoId"), "motivoId": first(t, f, schema.Stock, "motivoId"), "tipo": "INGRESO_MANUAL",
						"fecha": fecha, "articulos.articuloId": 100, "articulos.cantidad": 2.5, "articulos.colorId": 1, "articulos.talleId": 2},
				}
			}},
		{name: "stock with a motivo eliminado typed past the list", kind: schema.Stock, wantStatus: pipeline.StatusInvalid,
			wantMessage: "motivoId",
			rows: func(f *excelize.File) []map[string]any {
				var gone int64
				for _, m := range snap.Motivos {
					if m.Eliminado {
						gone = m.MotivoID
					}
				}
				return []map[string]any{{"depositoId": 1, "motivoId": gone, "tipo": "EGRESO_MANUAL",
					"articulos.articuloId": 100, "articulos.cantidad": 1}}
			}},
		{name: "medio de pago typed past the list", kind: schema.Venta, wantStatus: pipeline.StatusInvalid,
			wantMessage: "TARJETA",
			rows: func(*excelize.File) []map[string]any {
				return []map[string]any{{"ordenId": 71003, "entidadId": 500,
					"subtotal": 10, "descuento": 0, "recargo": 0, "envio": 0, "total": 10,
					"medioPago.tipo": "TARJETA", "medioPago.tarjetaId": 20,
					"productos.articuloId": 100, "productos.precio": 10, "productos.cantidad": 1}}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Build(tt.kind, snap, Options{})
			if err != nil {
				t.Fatal(err)
			}
			rows := tt.rows(f)
			fill(t, f, tt.kind, rows)
			path := filepath.Join(t.TempDir(), "filled.xlsx")
			if err := f.SaveAs(path); err != nil {
				t.Fatal(err)
			}
			f.Close()

			pf, err := pipeline.Load(path, pipeline.LoadOptions{})
			if err != nil {
				t.Fatalf("load the filled template: %v", err)
			}
			if len(pf.Sheets) != 1 || pf.Sheets[0].Kind != tt.kind {
				t.Fatalf("sheets read = %d, want only the %s data sheet", len(pf.Sheets), tt.kind)
			}
			if len(pf.Warnings) != 0 {
				t.Errorf("a filled template warns about its own sheets: %v", pf.Warnings)
			}
			pf.Validate(snap.Catalog(), false)
			counts, _ := pf.Counts()
			if counts[tt.wantStatus] != len(rows) {
				t.Errorf("row statuses = %v, want all %d %s", counts, len(rows), tt.wantStatus)
			}
			sh := pf.Sheets[0]
			for i := range sh.Rows() {
				m := sh.RowMessage(i, msg.ES)
				if tt.wantMessage == "" && m != "" {
					t.Errorf("row %d message = %q, want none", i+2, m)
				}
				if tt.wantMessage != "" && !strings.Contains(m, tt.wantMessage) {
					t.Errorf("row %d message = %q, want it to contain %q", i+2, m, tt.wantMessage)
				}
			}
		})
	}
}

// TestStockIntroNamesEveryPackingField: the Instrucciones say which rows go
// into one movement; rows that differ only in the transfer's destination go
// into different movements (pipeline's packing key), so the text must name it.
func TestStockIntroNamesEveryPackingField(t *testing.T) {
	f, err := Build(schema.Stock, &catalog.Snapshot{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var intro string
	for _, line := range strings.Split(instructions(t, f), "\n") {
		if strings.HasPrefix(line, "Una fila por artículo") {
			intro = line
		}
	}
	for _, want := range []string{"depósito,", "tipo", "motivo", "fecha", "detalle", "sref", "depósito de destino", "sucursal de destino", "movimiento"} {
		if !strings.Contains(intro, want) {
			t.Errorf("stock intro lacks %q: %q", want, intro)
		}
	}
}

// TestInstructionsRowsFitTheirText: a row whose description wraps is as
// tall as its lines, so LibreOffice does not cut it; and no list title
// repeats its column's name.
func TestInstructionsRowsFitTheirText(t *testing.T) {
	for _, k := range schema.Kinds {
		f, err := Build(k, sandboxSnapshot(t), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows(InstructionsSheet)
		if err != nil {
			t.Fatal(err)
		}
		tall := 0
		for i, r := range rows {
			for _, c := range r {
				if strings.Contains(c, "(depositoId) (depositoId)") || strings.Contains(c, "(depositoDosId) (depositoDosId)") {
					t.Errorf("%s: a title repeats its column: %q", k, c)
				}
			}
			if len(r) < 4 || len(r[3]) < 80 {
				continue
			}
			h, err := f.GetRowHeight(InstructionsSheet, i+1)
			if err != nil {
				t.Fatal(err)
			}
			if want := float64(wrappedLines(r[3], instructionWidths["D"])) * lineHeight; h < want {
				t.Errorf("%s: row %d is %v points tall for %d characters, want %v", k, i+1, h, len(r[3]), want)
			}
			tall++
		}
		if tall == 0 {
			t.Errorf("%s: no description long enough to wrap: the test proves nothing", k)
		}
		f.Close()
	}
}
