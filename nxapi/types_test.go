package nxapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// pedidoOnly and ventaOnly are the fields one of the two bodies has and the
// other has not (public-facts.md, "Orders").
var (
	pedidoOnly = map[string]bool{"Pagado": true}
	ventaOnly  = map[string]bool{"PuntoVentaID": true}
)

// TestPedidoHasTheSaleFields: an order's fields are a sale's, in the sale's
// order, with the same types and JSON tags, but for the point of sale (a
// sale's only) and pagado (an order's only). A field added to one body and
// not the other fails here.
func TestPedidoHasTheSaleFields(t *testing.T) {
	shared := func(typ reflect.Type, only map[string]bool) []reflect.StructField {
		var out []reflect.StructField
		for i := range typ.NumField() {
			if f := typ.Field(i); !only[f.Name] {
				out = append(out, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
			}
		}
		return out
	}
	v := shared(reflect.TypeFor[Venta](), ventaOnly)
	p := shared(reflect.TypeFor[Pedido](), pedidoOnly)
	if !reflect.DeepEqual(v, p) {
		t.Errorf("the fields a sale and an order share differ:\nventa  %v\npedido %v", v, p)
	}
	for name := range pedidoOnly {
		if _, ok := reflect.TypeFor[Pedido]().FieldByName(name); !ok {
			t.Errorf("pedidoOnly lists %s, which Pedido has not", name)
		}
	}
	for name := range ventaOnly {
		if _, ok := reflect.TypeFor[Venta]().FieldByName(name); !ok {
			t.Errorf("ventaOnly lists %s, which Venta has not", name)
		}
	}
}

// fill sets every field of the struct v points to, recursively, to a value
// that is not zero and differs from field to field.
func fill(t *testing.T, v reflect.Value, n *int64) {
	t.Helper()
	for i := range v.NumField() {
		f := v.Field(i)
		*n++
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(*n)
		case reflect.String:
			f.SetString("s" + strconv.FormatInt(*n, 10))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			e := reflect.New(f.Type().Elem())
			if e.Elem().Kind() == reflect.Struct {
				fill(t, e.Elem(), n)
			} else {
				e.Elem().SetInt(*n)
			}
			f.Set(e)
		case reflect.Slice:
			s := reflect.MakeSlice(f.Type(), 1, 1)
			fill(t, s.Index(0), n)
			f.Set(s)
		case reflect.Struct:
			fill(t, f, n)
		default:
			t.Fatalf("fill: field %s of kind %s", v.Type().Field(i).Name, f.Kind())
		}
	}
}

// TestSaleAndOrderConvert: Pedido.Venta and Venta.Pedido copy every shared
// field, so that a fully-filled order made a sale and back marshals to the
// very same bytes, and a sale without a point of sale made an order and
// back is the same sale.
func TestSaleAndOrderConvert(t *testing.T) {
	var n int64
	p := &Pedido{}
	fill(t, reflect.ValueOf(p).Elem(), &n)
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	back := p.Venta().Pedido()
	back.Pagado = p.Pagado
	got, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("order → sale → order:\n got %s\nwant %s", got, want)
	}

	v := &Venta{}
	fill(t, reflect.ValueOf(v).Elem(), &n)
	v.PuntoVentaID = 0
	if again := v.Pedido().Venta(); !reflect.DeepEqual(again, v) {
		t.Errorf("sale → order → sale:\n got %+v\nwant %+v", again, v)
	}
	if p := v.Pedido(); p.Pagado {
		t.Error("a sale made an order is marked paid")
	}
}

// TestOrderJSON pins an order's wire form: the fields in the contract's
// order, numero beside ordenId, pagado before medioPago.
func TestOrderJSON(t *testing.T) {
	d := DecimalFromInt(100)
	c := 1
	p := &Pedido{OrdenID: 7, Numero: 7, Detalle: "d", ListaPrecioID: 2, EntidadID: 3, EmpleadoID: 4,
		Usuario:              &Usuario{Nombre: "Ana", Email: "a@b.c", DNI: "1", CUIT: "2", Telefono: "3", Condicion: &c},
		DireccionEnvio:       &Direccion{Provincia: "P", Localidad: "L", Direccion: "D", CodigoPostal: "1000"},
		DireccionFacturacion: &Direccion{Provincia: "Q"},
		Productos:            []Producto{{ArticuloID: 9, Precio: &d, Cantidad: &d, TalleID: 1, ColorID: 2}},
		Subtotal:             &d, Descuento: &d, Recargo: &d, Envio: &d, Total: &d, Pagado: true,
		MedioPago: &MedioPago{Tipo: 1, CuentaBancariaID: 5, TarjetaID: 6, ExternalID: "x"}}
	const want = `{"ordenId":7,"numero":7,"detalle":"d","listaPrecioId":2,"entidadId":3,"empleadoId":4,` +
		`"usuario":{"nombre":"Ana","email":"a@b.c","dni":"1","cuit":"2","telefono":"3","condicion":1},` +
		`"direccionEnvio":{"provincia":"P","localidad":"L","direccion":"D","codigoPostal":"1000"},` +
		`"direccionFacturacion":{"provincia":"Q"},` +
		`"productos":[{"articuloId":9,"precio":100,"cantidad":100,"talleId":1,"colorId":2}],` +
		`"subtotal":100,"descuento":100,"recargo":100,"envio":100,"total":100,"pagado":true,` +
		`"medioPago":{"tipo":1,"cuentaBancariaId":5,"tarjetaId":6,"externalId":"x"}}`
	got, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("order JSON:\n got %s\nwant %s", got, want)
	}
}
