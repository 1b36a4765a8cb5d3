package nxapi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// vendorComprobante is GET /comprobante/{id} as the vendor's public types
// write it (public-facts.md, "Wire types": enums as integers, ordenId a
// string); the values are made up.
const vendorComprobante = `{"facturaId":501,"ordenId":"77003","comprobanteTipo":2,"estado":1,"numero":101,` +
	`"pVNumero":1,"fecha":"01/09/2026 12:00:00","sucursalId":1,"puntoVentaId":1,"empleadoId":3,"sref":null,` +
	`"totales":{"subTotal":201,"descuento":0,"recargo":0,"envio":0,"total":201,"pagado":201,"saldo":0},` +
	`"items":[{"articuloId":100,"descripcion":"Remera","talleId":1,"colorId":1,"cantidad":2,"precio":100.5,"subtotal":201}]}`

func TestComprobanteWire(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		orden  OrdenRef
		num    int64 // OrdenRef.Int, 0 when not a number
		tipo   int
		estado Code
	}{
		{"vendor", vendorComprobante, "77003", 77003, ComprobanteVenta, "1"},
		{"ordenId a number", `{"facturaId":1,"ordenId":77003,"comprobanteTipo":33,"estado":"PENDIENTE"}`, "77003", 77003, ComprobantePreventa, "PENDIENTE"},
		{"ordenId null", `{"facturaId":1,"ordenId":null,"comprobanteTipo":4,"estado":7}`, "", 0, ComprobanteNotaCredito, "7"},
		{"ordenId absent", `{"facturaId":1,"comprobanteTipo":2}`, "", 0, ComprobanteVenta, ""},
		{"ordenId leading zero", `{"ordenId":"077003","comprobanteTipo":"2"}`, "077003", 77003, ComprobanteVenta, ""},
		{"ordenId not a number", `{"ordenId":"abc","comprobanteTipo":2}`, "abc", 0, ComprobanteVenta, ""},
		{"numbers as strings", `{"facturaId":"501","ordenId":"5","comprobanteTipo":"2.0","numero":"101","pvNumero":"3"}`, "5", 5, ComprobanteVenta, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Comprobante
			if err := Decode([]byte(tt.body), &c); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if c.OrdenID != tt.orden || c.ComprobanteTipo != tt.tipo || c.Estado != tt.estado {
				t.Errorf("got ordenId %q tipo %d estado %q, want %q %d %q", c.OrdenID, c.ComprobanteTipo, c.Estado, tt.orden, tt.tipo, tt.estado)
			}
			n, ok := c.OrdenID.Int()
			if n != tt.num || ok != (tt.num != 0) {
				t.Errorf("OrdenID.Int() = %d, %v; want %d", n, ok, tt.num)
			}
		})
	}
	var c Comprobante
	if err := Decode([]byte(vendorComprobante), &c); err != nil {
		t.Fatal(err)
	}
	if c.FacturaID != 501 || c.Numero != 101 || c.PVNumero != 1 || c.EmpleadoID != 3 || c.Sref != "" ||
		c.Totales.Total != DecimalFromInt(201) || len(c.Items) != 1 || c.Items[0].Precio != NewDecimal(100, 5000) {
		t.Errorf("vendor body read as %+v", c)
	}
}

// TestWireErrors: a field of a type the vendor's types do not allow is a
// *WireError naming the field and quoting what came, never a value.
func TestWireErrors(t *testing.T) {
	tests := []struct {
		name  string
		into  func() any
		body  string
		field string
		got   string // a part of WireError.Got
	}{
		{"comprobanteTipo object", func() any { return new(Comprobante) }, `{"comprobanteTipo":{"id":2}}`, "comprobanteTipo", `object {"id":2}`},
		{"comprobanteTipo fraction", func() any { return new(Comprobante) }, `{"comprobanteTipo":2.5}`, "comprobanteTipo", "number 2.5"},
		{"ordenId object", func() any { return new(Comprobante) }, `{"ordenId":{"x":1}}`, "ordenId", `object {"x":1}`},
		{"ordenId boolean", func() any { return new(Comprobante) }, `{"ordenId":true}`, "ordenId", "boolean true"},
		{"estado array", func() any { return new(Comprobante) }, `{"estado":[1]}`, "estado", "array [1]"},
		{"facturaId text", func() any { return new(Comprobante) }, `{"facturaId":"abc"}`, "facturaId", `string "abc"`},
		{"item articuloId text", func() any { return new(Comprobante) }, `{"items":[{"articuloId":"x"}]}`, "items.articuloId", "string"},
		{"result estado object", func() any { return new(FacturaResult) }, `{"facturaId":1,"estado":{}}`, "estado", "object {}"},
		{"result facturaId object", func() any { return new(FacturaResult) }, `{"facturaId":{"a":1}}`, "facturaId", "object"},
		{"nx tipo object", func() any { return new(NxResultado) }, `{"tipo":{"v":1}}`, "tipo", "object"},
		{"export comprobanteTipo text", func() any { return new(ExportPage[VentaTotal]) }, `{"items":[{"comprobanteTipo":"venta"}]}`, "items.comprobanteTipo", `string "venta"`},
		{"export tipoDocumento object", func() any { return new(ExportPage[VentaTotal]) }, `{"items":[{"tipoDocumento":{"letra":"B"}}]}`, "items.tipoDocumento", "object"},
		{"config appId text", func() any { return new(Config) }, `{"appId":"x"}`, "appId", "string"},
		{"long value cut", func() any { return new(Comprobante) }, `{"ordenId":{"x":"` + strings.Repeat("a", 500) + `"}}`, "ordenId", "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decode([]byte(tt.body), tt.into())
			var we *WireError
			if !errors.As(err, &we) {
				t.Fatalf("Decode(%s) = %v, want a *WireError", tt.body, err)
			}
			if we.Field != tt.field || !strings.Contains(we.Got, tt.got) || len(we.Got) > maxQuoted+20 {
				t.Errorf("WireError %+v, want field %q and %q quoted", we, tt.field, tt.got)
			}
		})
	}
	if err := Decode([]byte(`{"facturaId":`), new(Comprobante)); err == nil || errors.As(err, new(*WireError)) {
		t.Errorf("truncated JSON: %v, want a syntax error", err)
	}
}

func TestEnumsAsIntegers(t *testing.T) {
	var r FacturaResult
	if err := Decode([]byte(`{"facturaId":9,"numero":4,"pVNumero":2,"estado":3,"errores":false}`), &r); err != nil || r.Estado != "3" || r.FacturaID != 9 {
		t.Errorf("FacturaResult %+v, %v", r, err)
	}
	var nx NxResultado
	for _, body := range []string{`{"tipo":1}`, `{"tipo":"1"}`} {
		if err := Decode([]byte(body), &nx); err != nil || nx.Tipo != NxOK {
			t.Errorf("NxResultado %s: %+v, %v", body, nx, err)
		}
	}
	var p ExportPage[VentaTotal]
	body := `{"items":[{"facturaId":7,"comprobanteTipo":2,"tipoDocumento":2,"sucursalId":"1","appId":"12",` +
		`"formasPago":[{"facturaId":7,"tipo":1,"tipoText":"EFECTIVO","importe":10}]}],"totalRegistros":1,"totalPaginas":1,"paginaActual":1,"pageSize":500}`
	if err := Decode([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	it := p.Items[0]
	if it.ComprobanteTipo != ComprobanteVenta || it.TipoDocumento != "2" || it.SucursalID != 1 || it.AppID == nil || *it.AppID != 12 ||
		it.FormasPago[0].Tipo != Efectivo {
		t.Errorf("VentaTotal %+v", it)
	}
	var cfg Config
	if err := Decode([]byte(`{"appId":12,"flujoDeposito":3,"depositos":[{"depositoId":1,"sucursalId":1,"default":true}]}`), &cfg); err != nil ||
		cfg.FlujoDeposito != FlujoMultiDeposito {
		t.Errorf("Config %+v, %v", cfg, err)
	}
}

func TestCodeAndOrdenRefWrite(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{Code("3"), `3`},
		{Code("-1"), `-1`},
		{Code("PENDIENTE"), `"PENDIENTE"`},
		{Code("03"), `"03"`},
		{Code(""), `""`},
		{OrdenRef("77003"), `"77003"`},
		{OrdenRef(""), `null`},
		{OrdenRefOf(77003), `"77003"`},
		{OrdenRefOf(0), `null`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", tt.v, b, err, tt.want)
		}
	}
}

func TestIDRefusesWhatIsNotAWholeNumber(t *testing.T) {
	tests := []struct {
		in   string
		want ID
		ok   bool
	}{
		{`12`, 12, true}, {`"12"`, 12, true}, {`12.0`, 12, true}, {`null`, 0, true}, {`""`, 0, true},
		{`12.5`, 0, false}, {`"abc"`, 0, false}, {`{}`, 0, false}, {`[1]`, 0, false}, {`true`, 0, false},
	}
	for _, tt := range tests {
		var id ID
		err := json.Unmarshal([]byte(tt.in), &id)
		if (err == nil) != tt.ok || id != tt.want {
			t.Errorf("ID %s = %d, %v; want %d ok=%v", tt.in, id, err, tt.want, tt.ok)
		}
	}
}

// fuzzAnswer holds a decoder of an API answer to: never panic; refuse with
// an error (a *WireError names its field); and what it read, written back,
// reads again.
func fuzzAnswer[T any](f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v T
		if err := Decode(b, &v); err != nil {
			var we *WireError
			if errors.As(err, &we) && we.Got == "" {
				t.Fatalf("a WireError that quotes nothing: %+v", we)
			}
			return
		}
		out, err := json.Marshal(&v)
		if err != nil {
			t.Fatalf("writing back %+v: %v", v, err)
		}
		var again T
		if err := Decode(out, &again); err != nil {
			t.Fatalf("reading back %s: %v", out, err)
		}
	})
}

func FuzzFacturaResult(f *testing.F) {
	fuzzAnswer[FacturaResult](f,
		`{"facturaId":50001,"numero":77003,"pVNumero":1,"sref":null,"estado":1,"datos":{},"electronica":false,"cae":null,"caevencimiento":null,"resultado":"A","observaciones":null,"errorFE":null,"saldo":0,"errores":false}`,
		`{"facturaId":0,"errores":true,"datos":{"error":"Los totales no coinciden"}}`,
		`{"facturaId":null,"pvNumero":"3","estado":"FACTURA_VENTA","errores":true,"observaciones":"x"}`,
		`{"facturaId":7,"estado":{"a":1}}`)
}

func FuzzNxResultado(f *testing.F) {
	fuzzAnswer[NxResultado](f,
		`{"tipo":1,"id":12,"data":null,"valores":[],"mensajes":[],"errores":[]}`,
		`{"tipo":2,"mensajes":["El motivoId es obligatorio para movimientos de terceros"],"errores":["x"]}`,
		`{"tipo":"0","errores":[1,null,"a"]}`)
}

func FuzzComprobante(f *testing.F) {
	fuzzAnswer[Comprobante](f, vendorComprobante,
		`{"facturaId":1001,"ordenId":null,"comprobanteTipo":33,"estado":1,"totales":{"total":"1751.50"}}`,
		`{"facturaId":1,"ordenId":77003,"comprobanteTipo":"2","estado":"PENDIENTE","items":null}`,
		`{"ordenId":"abc","comprobanteTipo":{"x":1}}`)
}

func FuzzExportPageVentaTotal(f *testing.F) {
	fuzzAnswer[ExportPage[VentaTotal]](f,
		`{"items":[{"facturaId":3001,"comprobanteTipo":2,"tipoDocumento":2,"fecha":"31/08/2026 09:30:00","fechaText":"2026-08-31","horaText":"09:30:00","numeroFull":"0001-00000101","sucursalId":1,"sucursal":"Casa Central","appId":null,"cliente":"Comercial del Sur SRL","vendedor":null,"email":null,"dni":null,"detalle":null,"subTotal":300,"total":300,"descuento":0,"recargo":0,"iva":0,"impuestosTotal":0,"cantidad":3,"formasPagoText":"EFECTIVO","formasPago":[{"facturaId":3001,"tipo":1,"tipoText":"EFECTIVO","detalle":null,"importe":300}]}],"totalRegistros":1,"totalPaginas":1,"paginaActual":1,"pageSize":500}`,
		`{"items":[],"totalRegistros":0,"totalPaginas":0,"paginaActual":1,"pageSize":500}`,
		`{"items":[{"comprobanteTipo":"2","appId":"12","sucursalId":"1"}]}`)
}

func FuzzConfig(f *testing.F) {
	fuzzAnswer[Config](f,
		`{"appId":12,"nombre":"Tienda","multiDeposito":true,"flujoDeposito":3,"depositos":[{"depositoId":1,"nombre":"Central","sucursalId":1,"sucursalNombre":"Casa Central","default":true}],"sucursalesExportacion":[{"sucursalId":1,"nombre":"Casa Central"}],"puntoVentaId":1,"listaPrecioId":1}`,
		`{"appId":0,"depositos":null,"sucursalesExportacion":[]}`)
}

func FuzzMediosPagoConfig(f *testing.F) {
	fuzzAnswer[MediosPagoConfig](f,
		`{"medios":{"efectivo":true,"deposito":true,"virtual":true},"tarjetas":[{"tarjetaId":3,"nombre":"Visa","tipo":1,"bancoId":2,"cuentaBancariaId":12,"monedaId":1}],"tarjetasReglas":[{"tarjetaReglaId":1,"tarjetaId":3,"cuotas":3,"porcentaje":10.5,"recargo":0,"activo":true}],"cuentasBancarias":[{"cuentaBancariaId":12,"descripcion":"Cuenta","numero":"123","bancoId":2,"alias":"a.b.c","cbu":"0000003100010000000001"}],"bancos":[{"bancoId":2,"nombre":"Banco"}],"tarjetaCreditoReglas":false,"botonesRapidos":[],"recargoDigitalHabilitado":false,"facturaElectronicaAutomatica":true,"recargosTipoMedio":[]}`,
		`{"medios":null,"tarjetas":null}`)
}

func FuzzMotivos(f *testing.F) {
	fuzzAnswer[[]Motivo](f,
		`[{"motivoId":4,"nombre":"Ajuste","creado":"2026-01-01T10:00:00","modificado":"2026-01-02T10:00:00","eliminado":false,"modulos":[1,2]}]`,
		`[]`, `null`)
}

func FuzzWebhooks(f *testing.F) {
	fuzzAnswer[[]Webhook](f,
		`[{"id":7,"url":"https://example.com/hook","topic":"articulos","activo":true,"extra":null,"headers":[{"key":"X-Secret","value":"v"}]}]`,
		`[{"id":8,"url":"https://example.com/h","topic":"articulos","activo":false,"extra":"objeto","headers":[]}]`,
		`[]`)
}

func FuzzArticuloEvents(f *testing.F) {
	for _, s := range []string{
		`[{"articuloId":100,"codigo":"REM-1","descripcion":"Remera","nombre":"Remera","precio1":100.5,"colorId":1,"talleId":2,"colorNombre":"Rojo","talleNombre":"M","unidades":5,"eliminado":false,"stockDepositos":[{"depositoId":1,"unidades":5}]}]`,
		`{"articuloId":100,"codigo":"REM-1","precio1":"100.5","stockTotal":7,"curva":[{"articuloId":100,"colorId":1,"talleId":2,"unidades":7,"stockDepositos":[]}],"tags":[{"tipo":2,"tagNombre":"Marca"}]}`,
		`[{"articuloId":100,"eliminado":true}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Both payload formats: the flat list and the grouped record.
		var flat []ArticuloConCurva
		_ = Decode(b, &flat)
		var grouped Articulo
		_ = Decode(b, &grouped)
	})
}

// The number, id and text decoders each vendor field goes through: never
// a panic, a refusal or a value that writes back and reads again
// (issue 23, hole 14).

func FuzzDecimal(f *testing.F) {
	fuzzAnswer[Decimal](f, `1751.50`, `"1751,50"`, `-0.005`, `1e3`, `"  12 "`, `null`, `99999999999999999999`, `"1.2.3"`, `true`)
}

func FuzzID(f *testing.F) {
	fuzzAnswer[ID](f, `12`, `"12"`, `12.0`, `null`, `""`, `12.5`, `-1`, `9223372036854775808`, `"0x10"`)
}

func FuzzText(f *testing.F) {
	fuzzAnswer[Text](f, `"Remera"`, `12`, `null`, `true`, `{"a":1}`, `["x"]`, `"\u0000"`)
}

func FuzzCode(f *testing.F) {
	fuzzAnswer[Code](f, `1`, `"FACTURA_VENTA"`, `null`, `1.5`, `{}`, `""`)
}

func FuzzOrdenRef(f *testing.F) {
	fuzzAnswer[OrdenRef](f, `"77003"`, `77003`, `null`, `"0004"`, `"abc"`, `7.7e4`, `[]`)
}
