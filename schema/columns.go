// Package schema says how a spreadsheet maps onto the API: the kinds of file
// (venta, facturar, stock), their columns (named by the JSON path of the API
// field they fill), how a user's header is matched to a column, and how a
// cell's text becomes a typed value (numbers with either decimal separator,
// Argentine dates, booleans, enum names). It does no I/O except loading a
// user's mapping file.
package schema

import (
	"fmt"
	"strings"
)

// Kind is a type of input file, one per API endpoint.
type Kind string

// The kinds of input (nxbatch.md 3.3-3.5).
const (
	Venta    Kind = "venta"
	Facturar Kind = "facturar"
	Stock    Kind = "stock"
	// Pedido is an order (POST /Pedido): a sale's columns, the payment and
	// pagado optional. Its key column is a sale's (ordenId), so a header
	// does not tell it from a sale: --kind or a sheet or file named
	// "pedidos" picks it (KindOfName).
	Pedido Kind = "pedido"
	// Cancelar is the cancellation of orders by facturaId; like Pedido it
	// is picked by --kind or by a sheet or file named "cancelaciones".
	Cancelar Kind = "cancelar"
)

// Kinds lists every kind in a stable order. DetectKind tries them in it:
// the kinds a header tells apart come first.
var Kinds = []Kind{Venta, Facturar, Stock, Pedido, Cancelar}

// KindOfName returns the kind a sheet or file name picks: "pedidos" (or
// "pedido") an order, "cancelaciones" (or "cancelar") a cancellation. The
// other kinds are told by their headers.
func KindOfName(name string) (Kind, bool) {
	switch Normalize(name) {
	case "pedidos", "pedido":
		return Pedido, true
	case "cancelaciones", "cancelacion", "cancelar":
		return Cancelar, true
	}
	return "", false
}

// ParseKind returns the kind named s.
func ParseKind(s string) (Kind, error) {
	switch Kind(strings.ToLower(strings.TrimSpace(s))) {
	case Venta:
		return Venta, nil
	case Facturar:
		return Facturar, nil
	case Stock:
		return Stock, nil
	case Pedido:
		return Pedido, nil
	case Cancelar:
		return Cancelar, nil
	}
	return "", fmt.Errorf("unknown kind %q: use venta, facturar, stock, pedido or cancelar", s)
}

// Type is how a column's cells are parsed.
type Type int

// Column types.
const (
	Text      Type = iota // kept as typed
	Int                   // an id or integer
	Number                // exact decimal (amounts, quantities)
	Bool                  // true/false, si/no, 1/0, x/blank
	Date                  // ISO 8601, dd/mm/yyyy, or a spreadsheet date cell
	MedioTipo             // TipoMedio name or number
	StockTipo             // TipoStockTransaccion name or number
	Condicion             // CondicionIva name, abbreviation or ERP code
	Digits                // an identifier whose punctuation is dropped (DNI, CUIT)
)

// Level says whether a column belongs to the request or to one line of it.
type Level int

// Column levels.
const (
	RequestLevel Level = iota // one value per request (repeated or blank on its other rows)
	LineLevel                 // one value per row: a line item or article
)

// Column is one spreadsheet column of a kind.
type Column struct {
	Path     string // JSON path of the API field, also the column's canonical header
	Type     Type
	Required bool // the column must exist in the file (or one of Or)
	Level    Level
	// Or lists the columns that may stand in for a required one: an
	// article named by its code or barcode instead of its id.
	Or []string
}

// Movimiento is the optional stock column that names the user's own
// movement; rows sharing it are packed into one request.
const Movimiento = "movimiento"

func req(path string, t Type) Column { return Column{Path: path, Type: t, Required: true} }
func opt(path string, t Type) Column { return Column{Path: path, Type: t} }
func line(path string, t Type) Column {
	return Column{Path: path, Type: t, Required: true, Level: LineLevel}
}
func lineOpt(path string, t Type) Column {
	return Column{Path: path, Type: t, Level: LineLevel}
}

// articleColumns are a line's article: its id (required unless the code
// or barcode names it), the shop's own keys resolved against the article
// catalog before sending, and the variant by ids or by size and colour
// (name or code). Only the ids reach the API.
func articleColumns(prefix string) []Column {
	id := line(prefix+".articuloId", Int)
	id.Or = []string{prefix + ".codigo", prefix + ".codigoBarras"}
	return []Column{id,
		lineOpt(prefix+".codigo", Text), lineOpt(prefix+".codigoBarras", Text),
		lineOpt(prefix+".talle", Text), lineOpt(prefix+".color", Text),
	}
}

// ArticleKeys are the leaf names of the columns resolved against the
// article catalog rather than sent.
var ArticleKeys = []string{"codigo", "codigoBarras", "talle", "color"}

// IsArticleKey reports whether path is a column resolved against the
// article catalog (productos.codigo, articulos.talle...).
func IsArticleKey(path string) bool {
	for _, k := range ArticleKeys {
		if path == "productos."+k || path == "articulos."+k {
			return true
		}
	}
	return false
}

var medioPago = []Column{
	req("medioPago.tipo", MedioTipo),
	opt("medioPago.cuentaBancariaId", Int),
	opt("medioPago.tarjetaId", Int),
	opt("medioPago.externalId", Text),
}

func direccion(prefix string) []Column {
	return []Column{
		opt(prefix+".provincia", Text), opt(prefix+".localidad", Text),
		opt(prefix+".direccion", Text), opt(prefix+".codigoPostal", Text),
	}
}

// optional makes every column of cols optional (an order's payment).
func optional(cols []Column) []Column {
	out := make([]Column, len(cols))
	for i, c := range cols {
		c.Required = false
		out[i] = c
	}
	return out
}

var columns = map[Kind][]Column{
	Pedido: concat(
		[]Column{
			req("ordenId", Int), opt("detalle", Text), opt("listaPrecioId", Int),
			opt("entidadId", Int), opt("empleadoId", Int),
			opt("usuario.nombre", Text), opt("usuario.email", Text), opt("usuario.dni", Digits),
			opt("usuario.cuit", Digits), opt("usuario.telefono", Text), opt("usuario.condicion", Condicion),
		},
		direccion("direccionEnvio"), direccion("direccionFacturacion"),
		[]Column{
			req("subtotal", Number), req("descuento", Number), req("recargo", Number),
			req("envio", Number), req("total", Number),
		},
		[]Column{opt("pagado", Bool)},
		optional(medioPago),
		articleColumns("productos"),
		[]Column{
			line("productos.precio", Number),
			line("productos.cantidad", Number), lineOpt("productos.talleId", Int),
			lineOpt("productos.colorId", Int),
		},
	),
	Cancelar: {req("facturaId", Int)},
	Venta: concat(
		[]Column{
			req("ordenId", Int), opt("detalle", Text), opt("listaPrecioId", Int),
			opt("puntoVentaId", Int), opt("entidadId", Int), opt("empleadoId", Int),
			opt("usuario.nombre", Text), opt("usuario.email", Text), opt("usuario.dni", Digits),
			opt("usuario.cuit", Digits), opt("usuario.telefono", Text), opt("usuario.condicion", Condicion),
		},
		direccion("direccionEnvio"), direccion("direccionFacturacion"),
		[]Column{
			req("subtotal", Number), req("descuento", Number), req("recargo", Number),
			req("envio", Number), req("total", Number),
		},
		medioPago,
		articleColumns("productos"),
		[]Column{
			line("productos.precio", Number),
			line("productos.cantidad", Number), lineOpt("productos.talleId", Int),
			lineOpt("productos.colorId", Int),
		},
	),
	Facturar: concat(
		[]Column{req("facturaId", Int), req("puntoVentaId", Int), req("electronica", Bool)},
		medioPago,
	),
	Stock: {
		req("depositoId", Int), req("motivoId", Int), req("tipo", StockTipo), opt("fecha", Date),
		opt("detalle", Text), opt("sref", Text), opt("depositoDosId", Int), opt("sucursalDosId", Int),
		opt(Movimiento, Text),
	},
}

func init() {
	columns[Stock] = concat(columns[Stock], articleColumns("articulos"), []Column{
		line("articulos.cantidad", Number),
		lineOpt("articulos.colorId", Int), lineOpt("articulos.talleId", Int),
		lineOpt("articulos.precio", Number), lineOpt("articulos.detalle", Text),
		lineOpt("articulos.sref", Text),
	})
}

func concat(parts ...[]Column) []Column {
	var out []Column
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Columns returns the columns of kind k in the contract's order.
func (k Kind) Columns() []Column { return columns[k] }

// Column returns the column of kind k with the given path.
func (k Kind) Column(path string) (Column, bool) {
	for _, c := range columns[k] {
		if c.Path == path {
			return c, true
		}
	}
	return Column{}, false
}

// KeyColumn is the column whose presence identifies the kind, and whose
// value is the request's business key.
func (k Kind) KeyColumn() string {
	switch k {
	case Venta, Pedido:
		return "ordenId"
	case Facturar, Cancelar:
		return "facturaId"
	}
	return "depositoId"
}

// Endpoint returns the API path the kind's requests go to.
func (k Kind) Endpoint() string {
	switch k {
	case Venta:
		return "/integraciones/terceros/venta"
	case Facturar:
		return "/integraciones/terceros/facturar"
	case Pedido:
		return "/integraciones/Terceros/Pedido"
	case Cancelar:
		return "/integraciones/Terceros/Pedido/cancelar"
	}
	return "/integraciones/terceros/stock/movimiento"
}
