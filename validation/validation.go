// Package validation checks the API requests nxbatch builds (nxapi.Venta,
// nxapi.Facturar, nxapi.StockMovimiento) against every rule of the API spec
// that holds without asking the server: required fields, signs, the totals
// rule to the cent, the payment types each endpoint accepts, CUIT check
// digits, and, when the tenant's catalogs are known, the ids they list.
//
// It is pure: no I/O, no clock, and amounts only in exact fixed-point
// arithmetic (nxapi.Decimal), never float64. Each broken rule is an Issue
// whose message tells an accountant what to change, in the msg catalog's
// words (keys "val.*").
package validation

import (
	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// Issue is one rule broken by a request.
type Issue struct {
	Field   string      // JSON path of the field: "total", "medioPago.cuentaBancariaId", "productos.precio", "articulos.cantidad", "usuario.cuit"
	Line    int         // index into Productos/Articulos for a line-level issue; -1 for request-level
	Msg     msg.Message // what is wrong and what to change, for an Argentine accountant
	Warning bool        // true for warnings (e.g. subtotal != sum of lines): the request stays valid
}

// In renders the issue's message in language l, with amounts written the way
// readers of l expect (see Localize).
func (i Issue) In(l msg.Lang) string { return Localize(i.Msg, l).In(l) }

// HasErrors reports whether any issue is an error rather than a warning, that
// is whether the request must not be sent.
func HasErrors(issues []Issue) bool {
	for _, i := range issues {
		if !i.Warning {
			return true
		}
	}
	return false
}

// Catalog holds the tenant's catalogs when known; a nil Catalog or nil member skips those checks.
type Catalog struct {
	MediosPago *nxapi.MediosPagoConfig
	Motivos    []nxapi.Motivo
	// Depositos are the integration's warehouses (GET /config), which an
	// inventory count's rows must name.
	Depositos []nxapi.Deposito
	// Articulos is the article catalog indexed for resolution (nil: not
	// known; rows by code cannot be sent, rows by id go unchecked).
	Articulos *articulos.Index
}

func (c *Catalog) articulos() *articulos.Index {
	if c == nil {
		return nil
	}
	return c.Articulos
}

func (c *Catalog) mediosPago() *nxapi.MediosPagoConfig {
	if c == nil {
		return nil
	}
	return c.MediosPago
}

func (c *Catalog) motivos() []nxapi.Motivo {
	if c == nil {
		return nil
	}
	return c.Motivos
}

// request is the line index of a request-level issue.
const request = -1

// checker collects the issues of one request in the order the rules run.
type checker struct {
	issues []Issue
}

func (c *checker) add(field string, line int, key string, args ...any) {
	c.issues = append(c.issues, Issue{Field: field, Line: line, Msg: msg.New(key, args...)})
}

func (c *checker) warn(field string, line int, key string, args ...any) {
	c.issues = append(c.issues, Issue{Field: field, Line: line, Msg: msg.New(key, args...), Warning: true})
}

// requiredID checks an id the API needs: 0 is how the pipeline leaves an
// empty cell.
func (c *checker) requiredID(field string, line int, id int64) {
	switch {
	case id == 0:
		c.add(field, line, "val.id.required", field)
	case id < 0:
		c.add(field, line, "val.id.positive", field, id)
	}
}

// optionalID checks an id where absent or 0 means "use the configured one".
func (c *checker) optionalID(field string, line int, id int64) {
	if id < 0 {
		c.add(field, line, "val.id.negative", field, id)
	}
}

// amount checks a money amount that must be present and not negative.
func (c *checker) amount(field string, line int, d *nxapi.Decimal) {
	switch {
	case d == nil:
		c.add(field, line, "val.amount.required", field)
	case *d < 0:
		c.add(field, line, "val.amount.negative", field, Amount(*d))
	}
}

// cantidad checks a quantity that must be present and greater than 0;
// positiveKey picks the advice that fits the kind.
func (c *checker) cantidad(field string, line int, d *nxapi.Decimal, positiveKey string) {
	switch {
	case d == nil:
		c.add(field, line, "val.cantidad.required", field)
	case *d <= 0:
		c.add(field, line, positiveKey, field, Quantity(*d))
	}
}

// Venta checks the body of POST /venta (contract 3.3 and 4, API spec 2.1, 4.1).
func Venta(v *nxapi.Venta, cat *Catalog) []Issue {
	var c checker
	if v == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	c.cuerpo(v)
	c.medioPago(v.MedioPago, true, cat.mediosPago())
	return c.issues
}

// cuerpo checks what a sale and an order share: the order id, the customer,
// the lines and the totals.
func (c *checker) cuerpo(v *nxapi.Venta) {
	c.requiredID("ordenId", request, v.OrdenID)
	c.optionalID("listaPrecioId", request, v.ListaPrecioID)
	c.optionalID("puntoVentaId", request, v.PuntoVentaID)
	c.optionalID("entidadId", request, v.EntidadID)
	c.optionalID("empleadoId", request, v.EmpleadoID)
	c.usuario(v.Usuario, v.EntidadID > 0)

	if len(v.Productos) == 0 {
		c.add("productos", request, "val.venta.noLines", nxapi.MsgVentaInvalida)
	}
	for i, p := range v.Productos {
		c.requiredID("productos.articuloId", i, p.ArticuloID)
		c.cantidad("productos.cantidad", i, p.Cantidad, "val.cantidad.positive")
		c.amount("productos.precio", i, p.Precio)
		c.optionalID("productos.talleId", i, p.TalleID)
		c.optionalID("productos.colorId", i, p.ColorID)
	}

	c.amount("subtotal", request, v.Subtotal)
	c.amount("descuento", request, v.Descuento)
	c.amount("recargo", request, v.Recargo)
	c.amount("envio", request, v.Envio)
	c.amount("total", request, v.Total)
	c.totals(v)
	c.subtotalOfLines(v)
}

// Facturar checks the body of POST /facturar (contract 3.4 and 4, API spec
// 2.1, 4.2). A facturaId repeated across requests is the pipeline's check: it
// sees the whole file.
func Facturar(f *nxapi.Facturar, cat *Catalog) []Issue {
	var c checker
	if f == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	if f.FacturaID <= 0 {
		c.add("facturaId", request, "val.id.apiRequired", "facturaId", nxapi.MsgFacturaIDReq)
	}
	if f.PuntoVentaID <= 0 {
		c.add("puntoVentaId", request, "val.id.apiRequired", "puntoVentaId", nxapi.MsgPuntoVentaReq)
	}
	if f.Electronica == nil {
		c.add("electronica", request, "val.electronica.required")
	}
	c.medioPago(f.MedioPago, false, cat.mediosPago())
	return c.issues
}
