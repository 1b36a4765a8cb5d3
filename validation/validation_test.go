package validation

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// dec parses a wire decimal ("1210.00") or fails the test binary at init.
func dec(s string) *nxapi.Decimal {
	d, err := nxapi.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return &d
}

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

// got is the part of an Issue every case asserts.
type got struct {
	Field   string
	Line    int
	Key     string
	Warning bool
}

func summarize(issues []Issue) []got {
	var out []got
	for _, i := range issues {
		out = append(out, got{i.Field, i.Line, i.Msg.Key, i.Warning})
	}
	return out
}

func errAt(field string, line int, key string) got  { return got{field, line, key, false} }
func warnAt(field string, line int, key string) got { return got{field, line, key, true} }

// validVenta is a sale that breaks no rule: 2 × 500 = 1000 subtotal,
// 1000 + 200 envío + 20 recargo − 10 descuento = 1210 total.
func validVenta() *nxapi.Venta {
	return &nxapi.Venta{
		OrdenID: 1001,
		Numero:  1001,
		Usuario: &nxapi.Usuario{Nombre: "Ana Pérez", CUIT: "20-12345678-6", Email: "ana@example.com.ar"},
		Productos: []nxapi.Producto{
			{ArticuloID: 7, Precio: dec("500"), Cantidad: dec("2")},
		},
		Subtotal:  dec("1000"),
		Descuento: dec("10"),
		Recargo:   dec("20"),
		Envio:     dec("200"),
		Total:     dec("1210"),
		MedioPago: &nxapi.MedioPago{Tipo: nxapi.Efectivo},
	}
}

func validFacturar() *nxapi.Facturar {
	return &nxapi.Facturar{
		FacturaID:    5001,
		PuntoVentaID: 2,
		Electronica:  boolp(true),
		MedioPago:    &nxapi.MedioPago{Tipo: nxapi.TarjetaMedio, TarjetaID: 3},
	}
}

func validStock() *nxapi.StockMovimiento {
	return &nxapi.StockMovimiento{
		DepositoID: 1,
		MotivoID:   4,
		Tipo:       nxapi.IngresoStock,
		Fecha:      "2024-03-31",
		Articulos: []nxapi.StockArticulo{
			{ArticuloID: 7, Cantidad: dec("10")},
			{ArticuloID: 8, Cantidad: dec("2.5"), Precio: dec("99.90")},
		},
	}
}

// validCatalog enables every payment type and lists two bank accounts, one
// card and motivos 4 (current) and 9 (deleted).
func validCatalog() *Catalog {
	return &Catalog{
		MediosPago: &nxapi.MediosPagoConfig{
			Medios: nxapi.WMedios{Efectivo: true, Tarjeta: true, CuentaCorriente: true, Deposito: true, Virtual: true},
			CuentasBancarias: []nxapi.CuentaBancaria{
				{CuentaBancariaID: 11, Descripcion: "Galicia CA"},
				{CuentaBancariaID: 10, Descripcion: "Banco Nación CC"},
			},
			Tarjetas: []nxapi.Tarjeta{{TarjetaID: 3, Nombre: "Visa"}},
		},
		Motivos: []nxapi.Motivo{
			{MotivoID: 4, Nombre: "Ajuste de inventario"},
			{MotivoID: 9, Nombre: "Rotura", Eliminado: true},
		},
	}
}

// manyCuentas is a catalog with more bank accounts than a message lists.
func manyCuentas() *Catalog {
	cat := validCatalog()
	cat.MediosPago.CuentasBancarias = []nxapi.CuentaBancaria{
		{CuentaBancariaID: 1, Descripcion: "Caja"}, {CuentaBancariaID: 5, Descripcion: "Macro"},
		{CuentaBancariaID: 10, Descripcion: "Nación"}, {CuentaBancariaID: 11, Descripcion: "Galicia"},
		{CuentaBancariaID: 14, Descripcion: "Santander"}, {CuentaBancariaID: 40, Descripcion: "BBVA"},
	}
	return cat
}

func TestVenta(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(v *nxapi.Venta)
		cat    *Catalog
		want   []got
	}{
		{name: "valid", mutate: func(v *nxapi.Venta) {}},
		{name: "valid with catalog", mutate: func(v *nxapi.Venta) {}, cat: validCatalog()},
		{name: "ordenId missing", mutate: func(v *nxapi.Venta) { v.OrdenID = 0 },
			want: []got{errAt("ordenId", -1, "val.id.required")}},
		{name: "ordenId negative", mutate: func(v *nxapi.Venta) { v.OrdenID = -3 },
			want: []got{errAt("ordenId", -1, "val.id.positive")}},
		{name: "listaPrecioId negative", mutate: func(v *nxapi.Venta) { v.ListaPrecioID = -1 },
			want: []got{errAt("listaPrecioId", -1, "val.id.negative")}},
		{name: "puntoVentaId negative", mutate: func(v *nxapi.Venta) { v.PuntoVentaID = -1 },
			want: []got{errAt("puntoVentaId", -1, "val.id.negative")}},
		{name: "entidadId negative", mutate: func(v *nxapi.Venta) { v.EntidadID = -1 },
			want: []got{errAt("entidadId", -1, "val.id.negative")}},
		{name: "empleadoId negative", mutate: func(v *nxapi.Venta) { v.EmpleadoID = -2 },
			want: []got{errAt("empleadoId", -1, "val.id.negative")}},
		{name: "listaPrecioId and puntoVentaId 0 fall back to the channel", mutate: func(v *nxapi.Venta) {
			v.ListaPrecioID, v.PuntoVentaID = 0, 0
		}},

		// Lines.
		{name: "no products", mutate: func(v *nxapi.Venta) { v.Productos = nil },
			want: []got{errAt("productos", -1, "val.venta.noLines")}},
		{name: "articuloId missing on second line", mutate: func(v *nxapi.Venta) {
			v.Productos = append(v.Productos, nxapi.Producto{Precio: dec("0"), Cantidad: dec("1")})
		}, want: []got{errAt("productos.articuloId", 1, "val.id.required")}},
		{name: "articuloId negative", mutate: func(v *nxapi.Venta) { v.Productos[0].ArticuloID = -7 },
			want: []got{errAt("productos.articuloId", 0, "val.id.positive")}},
		{name: "cantidad missing", mutate: func(v *nxapi.Venta) { v.Productos[0].Cantidad = nil },
			want: []got{errAt("productos.cantidad", 0, "val.cantidad.required")}},
		{name: "cantidad zero", mutate: func(v *nxapi.Venta) {
			v.Productos = append(v.Productos, nxapi.Producto{ArticuloID: 8, Precio: dec("10"), Cantidad: dec("0")})
		}, want: []got{errAt("productos.cantidad", 1, "val.cantidad.positive")}},
		{name: "precio missing", mutate: func(v *nxapi.Venta) { v.Productos[0].Precio = nil },
			want: []got{errAt("productos.precio", 0, "val.amount.required")}},
		{name: "precio zero is a gift, allowed", mutate: func(v *nxapi.Venta) {
			v.Productos = append(v.Productos, nxapi.Producto{ArticuloID: 8, Precio: dec("0"), Cantidad: dec("1")})
		}},
		{name: "precio negative", mutate: func(v *nxapi.Venta) {
			v.Productos = append(v.Productos,
				nxapi.Producto{ArticuloID: 8, Precio: dec("-5"), Cantidad: dec("1")},
				nxapi.Producto{ArticuloID: 9, Precio: dec("5"), Cantidad: dec("1")})
		}, want: []got{errAt("productos.precio", 1, "val.amount.negative")}},
		{name: "talleId and colorId negative", mutate: func(v *nxapi.Venta) {
			v.Productos[0].TalleID, v.Productos[0].ColorID = -1, -2
		}, want: []got{errAt("productos.talleId", 0, "val.id.negative"), errAt("productos.colorId", 0, "val.id.negative")}},

		// Amounts and the totals rule.
		{name: "subtotal missing", mutate: func(v *nxapi.Venta) { v.Subtotal = nil },
			want: []got{errAt("subtotal", -1, "val.amount.required")}},
		{name: "descuento missing", mutate: func(v *nxapi.Venta) { v.Descuento = nil },
			want: []got{errAt("descuento", -1, "val.amount.required")}},
		{name: "recargo missing", mutate: func(v *nxapi.Venta) { v.Recargo = nil },
			want: []got{errAt("recargo", -1, "val.amount.required")}},
		{name: "envio missing", mutate: func(v *nxapi.Venta) { v.Envio = nil },
			want: []got{errAt("envio", -1, "val.amount.required")}},
		{name: "total missing", mutate: func(v *nxapi.Venta) { v.Total = nil },
			want: []got{errAt("total", -1, "val.amount.required")}},
		{name: "descuento negative, totals consistent", mutate: func(v *nxapi.Venta) {
			v.Descuento, v.Total = dec("-10"), dec("1230")
		}, want: []got{errAt("descuento", -1, "val.amount.negative")}},
		{name: "envio negative, totals consistent", mutate: func(v *nxapi.Venta) {
			v.Envio, v.Total = dec("-200"), dec("810")
		}, want: []got{errAt("envio", -1, "val.amount.negative")}},
		{name: "total off by one cent", mutate: func(v *nxapi.Venta) { v.Total = dec("1210.01") },
			want: []got{errAt("total", -1, "val.total.mismatch")}},
		{name: "total below a half cent rounds to the same cent", mutate: func(v *nxapi.Venta) { v.Total = dec("1210.0049") }},
		{name: "total a half cent over rounds up", mutate: func(v *nxapi.Venta) { v.Total = dec("1210.005") },
			want: []got{errAt("total", -1, "val.total.mismatch")}},
		{name: "0.1 + 0.2 = 0.3 exactly (float64 says no)", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("0.1"), dec("1")
			v.Subtotal, v.Envio, v.Recargo, v.Descuento, v.Total = dec("0.1"), dec("0.2"), dec("0"), dec("0"), dec("0.3")
		}},
		{name: "1.00 + 0.005 rounds to 1.01 (float64 rounds to 1.00)", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("1"), dec("1")
			v.Subtotal, v.Envio, v.Recargo, v.Descuento, v.Total = dec("1"), dec("0.005"), dec("0"), dec("0"), dec("1.01")
		}},
		{name: "2.675 rounds to 2.68 (float64 rounds to 2.67)", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("2.675"), dec("1")
			v.Subtotal, v.Envio, v.Recargo, v.Descuento, v.Total = dec("2.675"), dec("0"), dec("0"), dec("0"), dec("2.68")
		}},
		{name: "trillions add up to the cent", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("1234567890123.45"), dec("1")
			v.Subtotal, v.Envio, v.Recargo, v.Descuento = dec("1234567890123.45"), dec("0.10"), dec("0.20"), dec("0.30")
			v.Total = dec("1234567890123.45")
		}},
		{name: "trillions one cent off", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("1234567890123.45"), dec("1")
			v.Subtotal, v.Envio, v.Recargo, v.Descuento = dec("1234567890123.45"), dec("0.10"), dec("0.20"), dec("0.30")
			v.Total = dec("1234567890123.46")
		}, want: []got{errAt("total", -1, "val.total.mismatch")}},
		{name: "amounts too large to add", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("900000000000000"), dec("1")
			v.Subtotal, v.Envio, v.Total = dec("900000000000000"), dec("900000000000000"), dec("1")
		}, want: []got{errAt("total", -1, "val.amount.overflow")}},

		// Subtotal against the lines: a warning.
		{name: "subtotal differs from lines", mutate: func(v *nxapi.Venta) { v.Productos[0].Precio = dec("400") },
			want: []got{warnAt("subtotal", -1, "val.subtotal.lines")}},
		{name: "ten lines of 0.10 are exactly 1.00", mutate: func(v *nxapi.Venta) {
			v.Productos = nil
			for i := range 10 {
				v.Productos = append(v.Productos, nxapi.Producto{ArticuloID: int64(i + 1), Precio: dec("0.1"), Cantidad: dec("1")})
			}
			v.Subtotal, v.Total = dec("1"), dec("211")
		}},
		{name: "precio with 4 decimals × cantidad rounds to subtotal", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("333.3333"), dec("3")
		}},
		{name: "fractional cantidad, exact product", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("1999.99"), dec("0.5")
			v.Subtotal, v.Total = dec("1000"), dec("1210") // 999.995 rounds to 1000.00
		}},
		{name: "half cent below subtotal warns", mutate: func(v *nxapi.Venta) {
			v.Productos[0].Precio, v.Productos[0].Cantidad = dec("1999.9899"), dec("0.5") // 999.99495
		}, want: []got{warnAt("subtotal", -1, "val.subtotal.lines")}},

		// Customer.
		{name: "usuario missing", mutate: func(v *nxapi.Venta) { v.Usuario = nil },
			want: []got{errAt("usuario", -1, "val.usuario.required")}},
		{name: "usuario missing with entidadId", mutate: func(v *nxapi.Venta) { v.Usuario, v.EntidadID = nil, 55 }},
		{name: "usuario with only a name", mutate: func(v *nxapi.Venta) { v.Usuario = &nxapi.Usuario{Nombre: "Ana"} },
			want: []got{errAt("usuario", -1, "val.usuario.identity")}},
		{name: "usuario with blanks only", mutate: func(v *nxapi.Venta) { v.Usuario = &nxapi.Usuario{DNI: "  ", Email: " "} },
			want: []got{errAt("usuario", -1, "val.usuario.identity")}},
		{name: "usuario with only a dni", mutate: func(v *nxapi.Venta) { v.Usuario = &nxapi.Usuario{DNI: "12.345.678"} }},
		{name: "usuario with only an email", mutate: func(v *nxapi.Venta) { v.Usuario = &nxapi.Usuario{Email: "a@b.com"} }},
		{name: "usuario with only a name and entidadId", mutate: func(v *nxapi.Venta) {
			v.Usuario, v.EntidadID = &nxapi.Usuario{Nombre: "Ana"}, 55
		}},
		{name: "cuit check digit", mutate: func(v *nxapi.Venta) { v.Usuario.CUIT = "20-12345678-5" },
			want: []got{errAt("usuario.cuit", -1, "val.cuit.checkDigit")}},
		{name: "cuit 10 digits", mutate: func(v *nxapi.Venta) { v.Usuario.CUIT = "20-1234567-6" },
			want: []got{errAt("usuario.cuit", -1, "val.cuit.length")}},
		{name: "cuit with letters", mutate: func(v *nxapi.Venta) { v.Usuario.CUIT = "20-1234567X-6" },
			want: []got{errAt("usuario.cuit", -1, "val.cuit.chars")}},
		{name: "bad cuit with entidadId is a warning", mutate: func(v *nxapi.Venta) {
			v.EntidadID, v.Usuario.CUIT = 55, "20-12345678-5"
		}, want: []got{warnAt("usuario.cuit", -1, "val.cuit.checkDigit")}},
		{name: "dni too short", mutate: func(v *nxapi.Venta) { v.Usuario.DNI = "123.456" },
			want: []got{errAt("usuario.dni", -1, "val.dni")}},
		{name: "dni with letters", mutate: func(v *nxapi.Venta) { v.Usuario.DNI = "12345678A" },
			want: []got{errAt("usuario.dni", -1, "val.dni")}},
		{name: "email without domain dot", mutate: func(v *nxapi.Venta) { v.Usuario.Email = "ana@gmail" },
			want: []got{errAt("usuario.email", -1, "val.email")}},
		{name: "condicion out of range", mutate: func(v *nxapi.Venta) { v.Usuario.Condicion = intp(6) },
			want: []got{errAt("usuario.condicion", -1, "val.condicion")}},
		{name: "condicion negative", mutate: func(v *nxapi.Venta) { v.Usuario.Condicion = intp(-1) },
			want: []got{errAt("usuario.condicion", -1, "val.condicion")}},
		{name: "condicion 0 is SIN_CATEGORIA", mutate: func(v *nxapi.Venta) { v.Usuario.Condicion = intp(0) }},
		{name: "condicion 5", mutate: func(v *nxapi.Venta) { v.Usuario.Condicion = intp(5) }},

		// Payment.
		{name: "medioPago missing", mutate: func(v *nxapi.Venta) { v.MedioPago = nil },
			want: []got{errAt("medioPago.tipo", -1, "val.medioPago.required")}},
		{name: "medioPago tipo empty", mutate: func(v *nxapi.Venta) { v.MedioPago = &nxapi.MedioPago{} },
			want: []got{errAt("medioPago.tipo", -1, "val.medioPago.required")}},
		{name: "medioPago tipo not an enum value", mutate: func(v *nxapi.Venta) { v.MedioPago.Tipo = 3 },
			want: []got{errAt("medioPago.tipo", -1, "val.medioPago.unknown")}},
		{name: "TARJETA not accepted on venta", mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.TarjetaMedio, TarjetaID: 3}
		}, want: []got{errAt("medioPago.tipo", -1, "val.medioPago.venta")}},
		{name: "CUENTA_CORRIENTE not accepted on venta", mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.CuentaCorriente}
		}, want: []got{errAt("medioPago.tipo", -1, "val.medioPago.venta")}},
		{name: "DEPOSITO_BANCO without account", mutate: func(v *nxapi.Venta) { v.MedioPago.Tipo = nxapi.DepositoBanco },
			want: []got{errAt("medioPago.cuentaBancariaId", -1, "val.medioPago.cuenta")}},
		{name: "DEPOSITO_BANCO with a negative account", mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: -10}
		}, want: []got{errAt("medioPago.cuentaBancariaId", -1, "val.id.negative")}},
		{name: "DEPOSITO_BANCO with an account, no catalog", mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
		}},
		{name: "DEPOSITO_BANCO with a known account", cat: validCatalog(), mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}
		}},
		{name: "DEPOSITO_BANCO with an unknown account", cat: validCatalog(), mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
		}, want: []got{errAt("medioPago.cuentaBancariaId", -1, "val.catalog.unknown")}},
		{name: "DEPOSITO_BANCO unknown among many accounts", cat: manyCuentas(), mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
		}, want: []got{errAt("medioPago.cuentaBancariaId", -1, "val.catalog.unknownMany")}},
		{name: "DEPOSITO_BANCO, catalog without medios-pago", cat: &Catalog{}, mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
		}},
		{name: "VIRTUAL without externalId", mutate: func(v *nxapi.Venta) { v.MedioPago.Tipo = nxapi.Virtual },
			want: []got{errAt("medioPago.externalId", -1, "val.medioPago.external")}},
		{name: "VIRTUAL with externalId", mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.Virtual, ExternalID: "MP-123"}
		}},
		{name: "VIRTUAL disabled for the tenant", cat: &Catalog{MediosPago: &nxapi.MediosPagoConfig{Medios: nxapi.WMedios{Efectivo: true}}},
			mutate: func(v *nxapi.Venta) { v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.Virtual, ExternalID: "MP-123"} },
			want:   []got{errAt("medioPago.tipo", -1, "val.medioPago.disabled")}},
		{name: "DEPOSITO_BANCO enabled through transferencia", cat: &Catalog{MediosPago: &nxapi.MediosPagoConfig{
			Medios:           nxapi.WMedios{Transferencia: true},
			CuentasBancarias: []nxapi.CuentaBancaria{{CuentaBancariaID: 10}},
		}}, mutate: func(v *nxapi.Venta) {
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := validVenta()
			tt.mutate(v)
			issues := Venta(v, tt.cat)
			if diff := cmp.Diff(tt.want, summarize(issues)); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
			wantErrors := false
			for _, w := range tt.want {
				wantErrors = wantErrors || !w.Warning
			}
			if HasErrors(issues) != wantErrors {
				t.Errorf("HasErrors = %v, want %v", HasErrors(issues), wantErrors)
			}
		})
	}
}

func TestFacturar(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *nxapi.Facturar)
		cat    *Catalog
		want   []got
	}{
		{name: "valid", mutate: func(f *nxapi.Facturar) {}},
		{name: "valid with catalog", cat: validCatalog(), mutate: func(f *nxapi.Facturar) {}},
		{name: "facturaId missing", mutate: func(f *nxapi.Facturar) { f.FacturaID = 0 },
			want: []got{errAt("facturaId", -1, "val.id.apiRequired")}},
		{name: "facturaId negative", mutate: func(f *nxapi.Facturar) { f.FacturaID = -1 },
			want: []got{errAt("facturaId", -1, "val.id.apiRequired")}},
		{name: "puntoVentaId missing", mutate: func(f *nxapi.Facturar) { f.PuntoVentaID = 0 },
			want: []got{errAt("puntoVentaId", -1, "val.id.apiRequired")}},
		{name: "electronica missing", mutate: func(f *nxapi.Facturar) { f.Electronica = nil },
			want: []got{errAt("electronica", -1, "val.electronica.required")}},
		{name: "electronica false", mutate: func(f *nxapi.Facturar) { f.Electronica = boolp(false) }},
		{name: "medioPago missing", mutate: func(f *nxapi.Facturar) { f.MedioPago = nil },
			want: []got{errAt("medioPago.tipo", -1, "val.medioPago.required")}},
		{name: "TARJETA without tarjetaId", mutate: func(f *nxapi.Facturar) { f.MedioPago.TarjetaID = 0 },
			want: []got{errAt("medioPago.tarjetaId", -1, "val.medioPago.tarjeta")}},
		{name: "TARJETA with an unknown card", cat: validCatalog(), mutate: func(f *nxapi.Facturar) { f.MedioPago.TarjetaID = 4 },
			want: []got{errAt("medioPago.tarjetaId", -1, "val.catalog.unknown")}},
		{name: "TARJETA disabled", cat: &Catalog{MediosPago: &nxapi.MediosPagoConfig{
			Medios: nxapi.WMedios{Efectivo: true}, Tarjetas: []nxapi.Tarjeta{{TarjetaID: 3}},
		}}, mutate: func(f *nxapi.Facturar) {}, want: []got{errAt("medioPago.tipo", -1, "val.medioPago.disabled")}},
		{name: "CUENTA_CORRIENTE accepted", mutate: func(f *nxapi.Facturar) { f.MedioPago = &nxapi.MedioPago{Tipo: nxapi.CuentaCorriente} }},
		{name: "EFECTIVO accepted", mutate: func(f *nxapi.Facturar) { f.MedioPago = &nxapi.MedioPago{Tipo: nxapi.Efectivo} }},
		{name: "tipo not an enum value lists all five", mutate: func(f *nxapi.Facturar) { f.MedioPago.Tipo = 2 },
			want: []got{errAt("medioPago.tipo", -1, "val.medioPago.unknown")}},
		{name: "DEPOSITO_BANCO with no accounts in the ERP", cat: &Catalog{MediosPago: &nxapi.MediosPagoConfig{
			Medios: nxapi.WMedios{Deposito: true},
		}}, mutate: func(f *nxapi.Facturar) {
			f.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}
		}, want: []got{errAt("medioPago.cuentaBancariaId", -1, "val.catalog.none")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := validFacturar()
			tt.mutate(f)
			if diff := cmp.Diff(tt.want, summarize(Facturar(f, tt.cat))); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStock(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m *nxapi.StockMovimiento)
		cat    *Catalog
		want   []got
	}{
		{name: "valid", mutate: func(m *nxapi.StockMovimiento) {}},
		{name: "valid with catalog", cat: validCatalog(), mutate: func(m *nxapi.StockMovimiento) {}},
		{name: "depositoId missing", mutate: func(m *nxapi.StockMovimiento) { m.DepositoID = 0 },
			want: []got{errAt("depositoId", -1, "val.id.required")}},
		{name: "depositoId negative", mutate: func(m *nxapi.StockMovimiento) { m.DepositoID = -1 },
			want: []got{errAt("depositoId", -1, "val.id.positive")}},
		{name: "motivoId missing", mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = 0 },
			want: []got{errAt("motivoId", -1, "val.id.apiRequired")}},
		{name: "motivoId negative", mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = -4 },
			want: []got{errAt("motivoId", -1, "val.id.apiRequired")}},
		{name: "motivoId deleted", cat: validCatalog(), mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = 9 },
			want: []got{errAt("motivoId", -1, "val.motivo.deleted")}},
		{name: "motivoId unknown", cat: validCatalog(), mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = 5 },
			want: []got{errAt("motivoId", -1, "val.catalog.unknown")}},
		{name: "motivoId unknown, catalog without motivos", cat: &Catalog{}, mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = 5 }},
		{name: "motivoId unknown, every motivo deleted", cat: &Catalog{Motivos: []nxapi.Motivo{{MotivoID: 9, Eliminado: true}}},
			mutate: func(m *nxapi.StockMovimiento) { m.MotivoID = 5 },
			want:   []got{errAt("motivoId", -1, "val.catalog.none")}},
		{name: "tipo missing", mutate: func(m *nxapi.StockMovimiento) { m.Tipo = 0 },
			want: []got{errAt("tipo", -1, "val.stock.tipo.required")}},
		{name: "tipo not an enum value", mutate: func(m *nxapi.StockMovimiento) { m.Tipo = 8 },
			want: []got{errAt("tipo", -1, "val.stock.tipo.unknown")}},
		{name: "every tipo but TRANSFERENCIA stands alone", mutate: func(m *nxapi.StockMovimiento) { m.Tipo = nxapi.EgresoManual }},
		{name: "TRANSFERENCIA with destination", mutate: func(m *nxapi.StockMovimiento) {
			m.Tipo, m.DepositoDosID, m.SucursalDosID = nxapi.Transferencia, 2, 3
		}},
		{name: "TRANSFERENCIA without destination", mutate: func(m *nxapi.StockMovimiento) { m.Tipo = nxapi.Transferencia },
			want: []got{errAt("depositoDosId", -1, "val.stock.destino.required")}},
		{name: "TRANSFERENCIA to a negative warehouse", mutate: func(m *nxapi.StockMovimiento) {
			m.Tipo, m.DepositoDosID = nxapi.Transferencia, -2
		}, want: []got{errAt("depositoDosId", -1, "val.id.positive")}},
		{name: "TRANSFERENCIA to the same warehouse", mutate: func(m *nxapi.StockMovimiento) {
			m.Tipo, m.DepositoDosID = nxapi.Transferencia, 1
		}, want: []got{errAt("depositoDosId", -1, "val.stock.destino.same")}},
		{name: "TRANSFERENCIA with a negative branch", mutate: func(m *nxapi.StockMovimiento) {
			m.Tipo, m.DepositoDosID, m.SucursalDosID = nxapi.Transferencia, 2, -3
		}, want: []got{errAt("sucursalDosId", -1, "val.id.negative")}},
		{name: "depositoDosId without TRANSFERENCIA", mutate: func(m *nxapi.StockMovimiento) { m.DepositoDosID = 2 },
			want: []got{errAt("depositoDosId", -1, "val.stock.destino.notTransfer")}},
		{name: "sucursalDosId without TRANSFERENCIA", mutate: func(m *nxapi.StockMovimiento) { m.SucursalDosID = 3 },
			want: []got{errAt("sucursalDosId", -1, "val.stock.destino.notTransfer")}},
		{name: "no articles", mutate: func(m *nxapi.StockMovimiento) { m.Articulos = nil },
			want: []got{errAt("articulos", -1, "val.stock.noArticulos")}},
		{name: "articuloId missing on second article", mutate: func(m *nxapi.StockMovimiento) { m.Articulos[1].ArticuloID = 0 },
			want: []got{errAt("articulos.articuloId", 1, "val.id.required")}},
		{name: "cantidad missing", mutate: func(m *nxapi.StockMovimiento) { m.Articulos[0].Cantidad = nil },
			want: []got{errAt("articulos.cantidad", 0, "val.cantidad.required")}},
		{name: "cantidad negative", mutate: func(m *nxapi.StockMovimiento) { m.Articulos[1].Cantidad = dec("-2") },
			want: []got{errAt("articulos.cantidad", 1, "val.stock.cantidad.positive")}},
		{name: "cantidad zero", mutate: func(m *nxapi.StockMovimiento) { m.Articulos[0].Cantidad = dec("0") },
			want: []got{errAt("articulos.cantidad", 0, "val.stock.cantidad.positive")}},
		{name: "precio negative", mutate: func(m *nxapi.StockMovimiento) { m.Articulos[1].Precio = dec("-0.01") },
			want: []got{errAt("articulos.precio", 1, "val.amount.negative")}},
		{name: "colorId and talleId negative", mutate: func(m *nxapi.StockMovimiento) {
			m.Articulos[0].ColorID, m.Articulos[0].TalleID = -1, -1
		}, want: []got{errAt("articulos.colorId", 0, "val.id.negative"), errAt("articulos.talleId", 0, "val.id.negative")}},
		{name: "fecha empty takes today", mutate: func(m *nxapi.StockMovimiento) { m.Fecha = "" }},
		{name: "fecha with time and zone", mutate: func(m *nxapi.StockMovimiento) { m.Fecha = "2024-03-31T14:05:00-03:00" }},
		{name: "fecha in Argentine order was not normalised", mutate: func(m *nxapi.StockMovimiento) { m.Fecha = "31/03/2024" },
			want: []got{errAt("fecha", -1, "val.stock.fecha")}},
		{name: "fecha impossible day", mutate: func(m *nxapi.StockMovimiento) { m.Fecha = "2024-02-30" },
			want: []got{errAt("fecha", -1, "val.stock.fecha")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validStock()
			tt.mutate(m)
			if diff := cmp.Diff(tt.want, summarize(Stock(m, tt.cat))); diff != "" {
				t.Errorf("issues (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNilRequests(t *testing.T) {
	want := []got{errAt("", -1, "val.request.nil")}
	for name, issues := range map[string][]Issue{
		"venta":    Venta(nil, nil),
		"facturar": Facturar(nil, nil),
		"stock":    Stock(nil, nil),
	} {
		if diff := cmp.Diff(want, summarize(issues)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestRenderedMessages pins the words a user reads for the rules whose
// message carries computed values.
func TestRenderedMessages(t *testing.T) {
	tests := []struct {
		name   string
		issues func() []Issue
		lang   msg.Lang
		want   string
	}{
		{name: "totals, Spanish", lang: msg.ES, issues: func() []Issue {
			v := validVenta()
			v.Total = dec("1200")
			return Venta(v, nil)
		}, want: "total 1.200,00 ≠ subtotal 1.000,00 + envío 200,00 + recargo 20,00 − descuento 10,00 = 1.210,00: " +
			"corrija total o los importes para que la cuenta cierre al centavo (la API respondería «Los totales no coinciden»)"},
		{name: "totals, English", lang: msg.EN, issues: func() []Issue {
			v := validVenta()
			v.Total = dec("1200")
			return Venta(v, nil)
		}, want: "total 1200.00 ≠ subtotal 1000.00 + envio 200.00 + recargo 20.00 − descuento 10.00 = 1210.00: " +
			"fix total or the amounts so that they add up to the cent (the API would answer «Los totales no coinciden»)"},
		{name: "subtotal warning shows 4 decimals when needed", lang: msg.ES, issues: func() []Issue {
			v := validVenta()
			v.Productos[0].Precio = dec("333.3333")
			return Venta(v, nil)
		}, want: "aviso: subtotal 1.000,00 no coincide con la suma de precio × cantidad de los productos, 666,6666; " +
			"revise si falta una fila o un precio (la venta se envía igual)"},
		{name: "unknown bank account lists the valid ones", lang: msg.ES, issues: func() []Issue {
			v := validVenta()
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
			return Venta(v, validCatalog())
		}, want: "medioPago.cuentaBancariaId 12 no existe en los catálogos de la empresa; " +
			"valores válidos: 10 (Banco Nación CC), 11 (Galicia CA)"},
		{name: "unknown among many names the three closest", lang: msg.EN, issues: func() []Issue {
			v := validVenta()
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 12}
			return Venta(v, manyCuentas())
		}, want: "medioPago.cuentaBancariaId 12 does not exist in the company's catalogs; " +
			"the closest values are 10 (Nación), 11 (Galicia), 14 (Santander) (see them all with `nxbatch catalog show`)"},
		{name: "motivoId quotes the API", lang: msg.ES, issues: func() []Issue {
			m := validStock()
			m.MotivoID = 0
			return Stock(m, nil)
		}, want: "motivoId está vacío o no es mayor que 0; la API lo rechazaría con " +
			"«El motivoId es obligatorio para movimientos de terceros»: escriba un número entero mayor que 0"},
		{name: "deleted motivo", lang: msg.ES, issues: func() []Issue {
			m := validStock()
			m.MotivoID = 9
			return Stock(m, validCatalog())
		}, want: "motivoId 9 (Rotura) fue eliminado en el ERP: elija un motivo vigente (vea `nxbatch catalog show`)"},
		{name: "TARJETA on venta says what to use", lang: msg.EN, issues: func() []Issue {
			v := validVenta()
			v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.TarjetaMedio, TarjetaID: 3}
			return Venta(v, nil)
		}, want: "medioPago.tipo TARJETA is not accepted on direct sales (the API would answer «El medio de pago no es compatible»): " +
			"use EFECTIVO, DEPOSITO_BANCO or VIRTUAL; to charge a card or a current account, enter a presale in the ERP and invoice it with a facturar spreadsheet"},
		{name: "cuit check digit names the right one", lang: msg.ES, issues: func() []Issue {
			v := validVenta()
			v.Usuario.CUIT = "20-12345678-5"
			return Venta(v, nil)
		}, want: "usuario.cuit «20-12345678-5»: el dígito verificador no corresponde (con esos 10 primeros dígitos debería ser 6); " +
			"revise que no haya un dígito cambiado"},
		{name: "stock cantidad", lang: msg.ES, issues: func() []Issue {
			m := validStock()
			m.Articulos[1].Cantidad = dec("-2.5")
			return Stock(m, nil)
		}, want: "articulos.cantidad vale -2,5: la cantidad debe ser mayor que 0; para restar stock use tipo EGRESO_MANUAL o EGRESO_STOCK con cantidad positiva"},
		{name: "unknown medio tipo on venta lists the three", lang: msg.ES, issues: func() []Issue {
			v := validVenta()
			v.MedioPago.Tipo = 5 + 1 + 1
			return Venta(v, nil)
		}, want: "medioPago.tipo vale 7, que no es un medio de pago: use uno de EFECTIVO (1), DEPOSITO_BANCO (9), VIRTUAL (11)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			issues := tt.issues()
			if len(issues) != 1 {
				t.Fatalf("want 1 issue, got %d: %+v", len(issues), issues)
			}
			if got := issues[0].In(tt.lang); got != tt.want {
				t.Errorf("In(%s) =\n%q\nwant\n%q", tt.lang, got, tt.want)
			}
		})
	}
}

// TestEveryKeyIsInTheCatalog checks, from the package's source, that every
// "val.*" key the rules use is in the msg catalog and that every "val.*" text
// in the catalog is used by some rule.
func TestEveryKeyIsInTheCatalog(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	keyRe := regexp.MustCompile(`"(val\.[A-Za-z.]+)"`)
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyRe.FindAllSubmatch(src, -1) {
			used[string(m[1])] = true
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d keys in the source: %v", len(used), used)
	}
	for k := range used {
		if _, ok := msg.Lookup(k); !ok {
			t.Errorf("rule uses %s, which is not in the catalog", k)
		}
	}
	for _, k := range msg.Keys() {
		if strings.HasPrefix(k, "val.") && !used[k] {
			t.Errorf("catalog text %s is used by no rule", k)
		}
	}
}

func BenchmarkVenta(b *testing.B) {
	v := validVenta()
	for i := range 20 {
		v.Productos = append(v.Productos, nxapi.Producto{ArticuloID: int64(i + 10), Precio: dec("0"), Cantidad: dec("1")})
	}
	cat := manyCuentas()
	v.MedioPago = &nxapi.MedioPago{Tipo: nxapi.DepositoBanco, CuentaBancariaID: 10}
	b.ReportAllocs()
	for b.Loop() {
		if issues := Venta(v, cat); len(issues) != 0 {
			b.Fatal(issues)
		}
	}
}

func BenchmarkStock500(b *testing.B) {
	m := validStock()
	for i := range 498 {
		m.Articulos = append(m.Articulos, nxapi.StockArticulo{ArticuloID: int64(i + 10), Cantidad: dec("3")})
	}
	cat := validCatalog()
	b.ReportAllocs()
	for b.Loop() {
		if issues := Stock(m, cat); len(issues) != 0 {
			b.Fatal(issues)
		}
	}
}
