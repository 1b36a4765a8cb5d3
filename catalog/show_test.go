package catalog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func demoSnapshot() *Snapshot {
	return &Snapshot{
		MediosPago: &nxapi.MediosPagoConfig{
			Medios:           nxapi.WMedios{Efectivo: true, Deposito: true, Tarjeta: true},
			CuentasBancarias: []nxapi.CuentaBancaria{{CuentaBancariaID: 11, Descripcion: "Galicia CA", BancoID: 2, Alias: "galicia.ca", CBU: "0070000000000000000011"}, {CuentaBancariaID: 10, Descripcion: "Nación CC", BancoID: 1, CBU: "0110000000000000000010"}},
			Bancos:           []nxapi.Banco{{BancoID: 1, Nombre: "Banco Nación"}, {BancoID: 2, Nombre: "Banco Galicia"}},
			Tarjetas:         []nxapi.Tarjeta{{TarjetaID: 20, Nombre: "Visa", Tipo: "CREDITO"}},
			TarjetasReglas:   []nxapi.TarjetaRegla{{TarjetaID: 20, Cuotas: 3, Activo: true}, {TarjetaID: 20, Cuotas: 1, Activo: true}, {TarjetaID: 20, Cuotas: 12}},
		},
		MediosPagoFetched: t0,
		Motivos:           []nxapi.Motivo{{MotivoID: 4, Nombre: "Devolución", Eliminado: true}, {MotivoID: 1, Nombre: "Ajuste por inventario"}},
		MotivosFetched:    t0,
	}
}

func tableByKey(ts []Table, key string) Table {
	for _, t := range ts {
		if t.Key == key {
			return t
		}
	}
	return Table{}
}

func TestTables(t *testing.T) {
	ts := Tables(demoSnapshot(), msg.ES)
	tests := []struct {
		key      string
		wantRows [][]string
		wantNote string
	}{
		{key: "medios", wantRows: [][]string{{"EFECTIVO", "1", "sí", "sí"}, {"TARJETA", "5", "no", "sí"}, {"DEPOSITO_BANCO", "9", "sí", "sí"}}},
		{key: "cuentas", wantRows: [][]string{
			{"10", "Nación CC", "Banco Nación", "", "0110000000000000000010", ""},
			{"11", "Galicia CA", "Banco Galicia", "galicia.ca", "0070000000000000000011", ""}}},
		{key: "tarjetas", wantRows: [][]string{{"20", "Visa", "CREDITO", "1, 3"}}},
		{key: "motivos", wantRows: [][]string{{"1", "Ajuste por inventario", ""}}},
		{key: "depositos", wantNote: "todavía no se consultó: ejecute nxbatch catalog pull --only depositos"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			tb := tableByKey(ts, tt.key)
			if diff := cmp.Diff(tt.wantRows, tb.Rows); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			note := ""
			if tb.Note.Key != "" {
				note = tb.Note.In(msg.ES)
			}
			if note != tt.wantNote {
				t.Errorf("note = %q, want %q", note, tt.wantNote)
			}
		})
	}
}

func TestTablesEmptyCatalogSaysWhy(t *testing.T) {
	s := demoSnapshot()
	s.MediosPago.CuentasBancarias = []nxapi.CuentaBancaria{}
	tb := tableByKey(Tables(s, msg.EN), "cuentas")
	if len(tb.Rows) != 0 || !strings.Contains(tb.Note.In(msg.EN), "DEPOSITO_BANCO cannot be used") {
		t.Errorf("table = %+v, note %q", tb, tb.Note.In(msg.EN))
	}
}

func TestShow(t *testing.T) {
	var b bytes.Buffer
	if err := Show(&b, Tables(demoSnapshot(), msg.ES), t0.Add(90_000_000_000), msg.ES); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Cuentas bancarias (medioPago.cuentaBancariaId) — copia de hace 2 minutos",
		"  id  descripción  banco          alias       CBU",
		"  10  Nación CC    Banco Nación",
		"Motivos de movimiento de stock vigentes (motivoId)",
		"ejecute nxbatch catalog pull --only empleados",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Devolución") {
		t.Errorf("an eliminado motivo is shown:\n%s", out)
	}
}

func TestExport(t *testing.T) {
	dir := t.TempDir()
	s := demoSnapshot()
	s.MediosPago.CuentasBancarias[0].Descripcion = "=HYPERLINK(\"x\")"
	ts := Tables(s, msg.ES)

	csvPath := filepath.Join(dir, "cat.csv")
	if err := Export(csvPath, s, ts, msg.ES); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	csvText := string(b)
	for _, want := range []string{"\uFEFFcatálogo;tipo;código", "cuentas;10;Nación CC;Banco Nación", `cuentas;11;"'=HYPERLINK(""x"")"`, "motivos;1;Ajuste por inventario"} {
		if !strings.Contains(csvText, want) {
			t.Errorf("csv lacks %q:\n%s", want, csvText)
		}
	}

	xlsxPath := filepath.Join(dir, "cat.xlsx")
	if err := Export(xlsxPath, s, ts, msg.ES); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(xlsxPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !cmp.Equal(got, []string{"medios", "cuentas", "tarjetas", "motivos", "depositos", "puntos-venta", "empleados"}) {
		t.Errorf("sheets = %v", got)
	}
	for cell, want := range map[string]string{"A1": "id", "E1": "CBU", "A2": "10", "C2": "Banco Nación", "B3": "'=HYPERLINK(\"x\")"} {
		if v, _ := f.GetCellValue("cuentas", cell); v != want {
			t.Errorf("cuentas!%s = %q, want %q", cell, v, want)
		}
	}
	if v, _ := f.GetCellValue("depositos", "A2"); !strings.Contains(v, "catalog pull --only depositos") {
		t.Errorf("depositos!A2 = %q, want the note", v)
	}

	// A folder gets the API's own answers, which validate --catalog reads.
	jsonDir := filepath.Join(dir, "json") + string(filepath.Separator)
	if err := Export(jsonDir, s, ts, msg.ES); err != nil {
		t.Fatal(err)
	}
	cat, err := LoadDir(jsonDir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s.MediosPago, cat.MediosPago); diff != "" {
		t.Errorf("medios-pago round trip (-want +got):\n%s", diff)
	}
	if len(cat.Motivos) != 2 {
		t.Errorf("motivos = %v", cat.Motivos)
	}

	if err := Export(filepath.Join(dir, "cat.ods"), s, ts, msg.ES); err == nil || !strings.Contains(err.Error(), ".xlsx o .csv") {
		t.Errorf("Export .ods err = %v", err)
	}
}

// TestExportCSVOpensInSpanishExcel: Excel in Spanish (Argentina) splits a
// plain CSV on ';' (the list separator where the decimal mark is a comma)
// and writes CRLF, as nxbatch's own reports do; a comma-separated export
// opens as one column.
func TestExportCSVOpensInSpanishExcel(t *testing.T) {
	s := demoSnapshot()
	path := filepath.Join(t.TempDir(), "cat.csv")
	if err := Export(path, s, Tables(s, msg.ES), msg.ES); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	tests := []struct{ line, want string }{
		{lines[0], "\uFEFFcatálogo;tipo;código;sirve para venta;sirve para facturar;;\r\n"},
		{lines[4], "catálogo;id;descripción;banco;alias;CBU;número\r\n"},
		{lines[5], "cuentas;10;Nación CC;Banco Nación;;0110000000000000000010;\r\n"},
	}
	for _, tt := range tests {
		if tt.line != tt.want {
			t.Errorf("line = %q, want %q", tt.line, tt.want)
		}
	}
}

// TestExportNothingCached: with no catalog ever fetched, an export would be
// a file of empty sheets that looks like a company with no accounts; it is
// refused with what to run first, in every format.
func TestExportNothingCached(t *testing.T) {
	dir := t.TempDir()
	s := &Snapshot{}
	for _, name := range []string{"cat.xlsx", "cat.csv", "json" + string(filepath.Separator)} {
		path := dir + string(filepath.Separator) + name
		err := Export(path, s, Tables(s, msg.ES), msg.ES)
		var me *msg.Error
		if !errors.As(err, &me) || me.Msg.Key != "catc.export.nothing" {
			t.Errorf("Export(%s) err = %v, want catc.export.nothing", name, err)
		}
		if _, err := os.Stat(path); err == nil && !strings.HasSuffix(name, string(filepath.Separator)) {
			t.Errorf("Export(%s) wrote a file", name)
		}
	}
}

// TestShowEscapesControlCharacters: a name from the API with a line break,
// an escape sequence or a TAB is shown escaped, on its own row and column.
func TestShowEscapesControlCharacters(t *testing.T) {
	s := demoSnapshot()
	s.Motivos = append(s.Motivos, nxapi.Motivo{MotivoID: 9, Nombre: "Robo\r\nAPROBADO\x1b[2J\tx\u009b\u202eok"})
	var b bytes.Buffer
	if err := Show(&b, Tables(s, msg.ES), t0, msg.ES); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range out {
		if r != '\n' && (r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x202e) {
			t.Fatalf("raw %U in the catalog listing:\n%q", r, out)
		}
	}
	if !strings.Contains(out, `Robo\r\nAPROBADO\x1b[2J\tx\u009b\u202eok`) {
		t.Errorf("the name is not kept, escaped:\n%s", out)
	}
}
