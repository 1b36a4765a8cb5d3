package schema

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func TestNormalize(t *testing.T) {
	tests := map[string]string{
		"ordenId":              "ordenid",
		"  Medio Pago.Tipo ":   "mediopago.tipo",
		"medio_pago.tipo":      "mediopago.tipo",
		"Dirección Envío":      "direccionenvio",
		"PRODUCTOS.ARTÍCULOID": "productos.articuloid",
	}
	for in, want := range tests {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDetectKind(t *testing.T) {
	tests := []struct {
		header []string
		m      Mapping
		want   Kind
		ok     bool
	}{
		{[]string{"OrdenId", "total"}, nil, Venta, true},
		{[]string{"facturaId", "electronica"}, nil, Facturar, true},
		{[]string{"Depósito ID", "tipo"}, nil, Stock, true},
		{[]string{"Nro Orden"}, Mapping{"nroorden": "ordenId"}, Venta, true},
		{[]string{"a", "b"}, nil, "", false},
	}
	for _, tt := range tests {
		got, ok := DetectKind(tt.header, tt.m)
		if got != tt.want || ok != tt.ok {
			t.Errorf("DetectKind(%v) = %v,%v want %v,%v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestMatch(t *testing.T) {
	header := []string{"ordenId", "Precio", "productos.cantidad", "Artículo ID", "Subtotal", "descuento",
		"recargo", "envio", "TOTAL", "medio pago.tipo", "Notas internas", "Importe"}
	m := Mapping{"importe": "productos.precio", "articuloid": "productos.articuloId"}
	lay, errs := Match(Venta, header, m)
	if len(errs) != 1 || errs[0].Msg.Key != "hdr.duplicate" {
		t.Fatalf("errs = %v, want one duplicate (Precio and Importe both fill productos.precio)", errs)
	}
	want := map[string]int{"ordenId": 0, "productos.precio": 1, "productos.cantidad": 2,
		"productos.articuloId": 3, "subtotal": 4, "descuento": 5, "recargo": 6, "envio": 7,
		"total": 8, "medioPago.tipo": 9}
	if d := cmp.Diff(want, lay.Index); d != "" {
		t.Errorf("Index (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"Notas internas"}, lay.Unknown); d != "" {
		t.Errorf("Unknown (-want +got):\n%s", d)
	}

	_, errs = Match(Stock, []string{"depositoId", "tipo", "articulos.articuloId", "cantidad"}, nil)
	var missing []string
	for _, e := range errs {
		missing = append(missing, e.Msg.Args[1].(msg.Localizer).In(msg.EN))
	}
	if d := cmp.Diff([]string{"motivoId"}, missing); d != "" {
		t.Errorf("missing (-want +got):\n%s", d)
	}
}

func TestMatchAmbiguousLeafIsUnknown(t *testing.T) {
	// "provincia" could be direccionEnvio or direccionFacturacion: never guess.
	lay, _ := Match(Venta, []string{"provincia", "detalle"}, nil)
	if lay.Col("direccionEnvio.provincia") != -1 || lay.Col("direccionFacturacion.provincia") != -1 {
		t.Errorf("ambiguous leaf matched: %v", lay.Index)
	}
	if lay.Col("detalle") != 1 {
		t.Errorf("detalle not matched: %v", lay.Index)
	}
	// In stock, "detalle" is the movement's, not the article's.
	lay, _ = Match(Stock, []string{"detalle", "articulos.detalle"}, nil)
	if lay.Col("detalle") != 0 || lay.Col("articulos.detalle") != 1 {
		t.Errorf("stock detalle: %v", lay.Index)
	}
}

func dec(s string) nxapi.Decimal {
	d, err := nxapi.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in     string
		sep    Sep
		raw    bool
		want   string
		errKey string
	}{
		{"1234.56", SepUnknown, false, "1234.56", ""},
		{"1234,56", SepUnknown, false, "1234.56", ""},
		{"1.234,56", SepUnknown, false, "1234.56", ""},
		{"1,234.56", SepUnknown, false, "1234.56", ""},
		{"1.234.567", SepUnknown, false, "1234567", ""},
		{"1.234", SepUnknown, false, "", "cell.ambiguous"},
		{"1.234", SepComma, false, "1234", ""},
		{"1.234", SepDot, false, "1.234", ""},
		{"1.234.5", SepUnknown, false, "", "cell.badnumber"},
		{"1.234.5", SepComma, false, "", "cell.badnumber"},
		{"12.34", SepComma, false, "", "cell.badnumber"},
		{"$ 1.500,00", SepComma, false, "1500", ""},
		{"-10,5", SepComma, false, "-10.5", ""},
		{"1234.5", SepComma, true, "1234.5", ""}, // raw xlsx number ignores the text convention
		// A stored number is never written with trailing zeros after the
		// point, so such a cell is text typed the file's way.
		{"1.500", SepComma, true, "1500", ""},
		{"12.500,50", SepComma, true, "12500.5", ""},
		{"1.500", SepUnknown, true, "", "cell.ambiguous"},
		{"1.500", SepDot, true, "1.5", ""},
		{"1500.0", SepComma, true, "1500", ""}, // how some libraries store a whole number
		{"1E-05", SepUnknown, true, "", "cell.precision"},
		{"1.5E3", SepUnknown, true, "1500", ""},
		{"0,00001", SepComma, false, "", "cell.precision"},
		{"abc", SepComma, false, "", "cell.notnumber"},
		{"", SepComma, false, "", "cell.notnumber"},
		{"12,3,4", SepComma, false, "", "cell.badnumber"},
		{"99999999999999999999", SepDot, false, "", "cell.toolarge"},
	}
	for _, tt := range tests {
		got, err := ParseNumber(tt.in, tt.sep, tt.raw)
		if tt.errKey != "" {
			ce, ok := err.(*msg.Error)
			if !ok || ce.Msg.Key != tt.errKey {
				t.Errorf("ParseNumber(%q, %v) err = %v, want %s", tt.in, tt.sep, err, tt.errKey)
			}
			continue
		}
		if err != nil || got != dec(tt.want) {
			t.Errorf("ParseNumber(%q, %v) = %v, %v; want %s", tt.in, tt.sep, got, err, tt.want)
		}
	}
}

func TestSepDetector(t *testing.T) {
	tests := []struct {
		cells []string
		want  Sep
	}{
		{[]string{"100", "1.500", "2,5"}, SepComma},
		{[]string{"1,234.50", "3"}, SepDot},
		{[]string{"1.234", "1,000"}, SepUnknown},
		{nil, SepUnknown},
		{[]string{"1.234,5", "7.5", "8,25"}, SepComma},
	}
	for _, tt := range tests {
		var d SepDetector
		for _, c := range tt.cells {
			d.Add(c)
		}
		if got := d.Result(); got != tt.want {
			t.Errorf("%v: got %v want %v", tt.cells, got, tt.want)
		}
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in       string
		raw, d04 bool
		want     string
		bad      bool
	}{
		{"2026-11-23", false, false, "2026-11-23", false},
		{"23/11/2026", false, false, "2026-11-23", false},
		{"3/2/2026", false, false, "2026-02-03", false}, // Argentine order: 3 February
		{"3/2/26", false, false, "2026-02-03", false},
		{"23/11/2026 14:30", false, false, "2026-11-23T14:30:00", false},
		{"31/02/2026", false, false, "", true},
		{"11/23/2026", false, false, "", true}, // mm/dd is never accepted
		{"46349", true, false, "2026-11-23", false},
		{"46349.5", true, false, "2026-11-23T12:00:00", false},
		{"44887", true, true, "2026-11-23", false},
		{"46349", false, false, "", true},
		{"ayer", false, false, "", true},
	}
	for _, tt := range tests {
		got, err := ParseDate(tt.in, tt.raw, tt.d04)
		if tt.bad {
			if err == nil {
				t.Errorf("ParseDate(%q) = %q, want error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseDate(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestEnumsAndBools(t *testing.T) {
	medios := map[string]nxapi.TipoMedio{"efectivo": nxapi.Efectivo, "deposito banco": nxapi.DepositoBanco,
		"Depósito_Banco": nxapi.DepositoBanco, "9": nxapi.DepositoBanco, "cuenta corriente": nxapi.CuentaCorriente,
		"TARJETA": nxapi.TarjetaMedio, "11": nxapi.Virtual}
	for in, want := range medios {
		if got, err := ParseTipoMedio(in); err != nil || got != want {
			t.Errorf("ParseTipoMedio(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseTipoMedio("cheque"); err == nil {
		t.Error("cheque accepted")
	}
	if got, err := ParseTipoStock("transferencia"); err != nil || got != nxapi.Transferencia {
		t.Errorf("transferencia = %v %v", got, err)
	}
	conds := map[string]int{"RI": 2, "Responsable Inscripto": 2, "CF": 1, "monotributo": 3, "Exento": 4, "5": 5, "0": 0}
	for in, want := range conds {
		if got, err := ParseCondicion(in); err != nil || got != want {
			t.Errorf("ParseCondicion(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseCondicion("6"); err == nil {
		t.Error("condicion 6 accepted: 6 is the tax authority's Monotributo id, not an ERP code")
	}
	bools := map[string]bool{"sí": true, "SI": true, "x": true, "1": true, "true": true, "no": false, "": false, "0": false}
	for in, want := range bools {
		if got, err := ParseBool(in); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseBool("quizás"); err == nil {
		t.Error("quizás accepted")
	}
}

func TestParseInt(t *testing.T) {
	if n, err := ParseInt(" 1001 ", false); err != nil || n != 1001 {
		t.Errorf("got %v %v", n, err)
	}
	if n, err := ParseInt("1.001E3", true); err != nil || n != 1001 {
		t.Errorf("raw exponent: got %v %v", n, err)
	}
	for _, bad := range []string{"1.5", "12a", "", "1.001"} {
		if _, err := ParseInt(bad, false); err == nil {
			t.Errorf("ParseInt(%q) accepted", bad)
		}
	}
}

func TestCellErrorsRenderInBothLanguages(t *testing.T) {
	_, err := ParseNumber("12.34", SepComma, false)
	ce := err.(*msg.Error)
	es, en := ce.Msg.In(msg.ES), ce.Msg.In(msg.EN)
	if es == en || !strings.Contains(es, "coma") || !strings.Contains(en, "a comma") {
		t.Errorf("es=%q en=%q", es, en)
	}
}
