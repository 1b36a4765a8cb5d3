package schema

import (
	"strings"
	"unicode"
)

// pageSynonyms are the headers Argentine spreadsheets commonly give each field,
// folded by foldHeader. They only suggest: the page proposes them on its
// column screen for the user to confirm; Match (the command line's
// matching) never takes them silently, since a word like "Total" or
// "Cuenta" may mean another thing in someone else's sheet.
var pageSynonyms = map[string][]string{
	"ordenId": {"nro pedido", "n° pedido", "numero pedido", "numero de pedido", "nro de pedido", "pedido", "nro orden",
		"n° de orden", "n° orden", "nro de orden", "numero de orden", "orden", "nro venta", "numero de venta", "id pedido", "id orden", "orden de compra"},
	"detalle":       {"detalle", "descripcion", "observacion", "observaciones", "comentario", "comentarios", "nota", "notas"},
	"listaPrecioId": {"lista de precios", "lista precio", "lista"},
	"puntoVentaId":  {"punto de venta", "pto venta", "pto de venta", "pv", "punto venta"},
	"entidadId":     {"cliente", "id cliente", "codigo cliente", "cod cliente", "entidad", "cuenta", "cuenta corriente", "cta cte"},
	"empleadoId":    {"vendedor", "empleado", "id vendedor"},
	"usuario.nombre": {"razon social", "nombre", "cliente", "nombre cliente", "cliente nombre", "apellido y nombre", "nombre y apellido",
		"denominacion"},
	"usuario.email":                     {"email", "e-mail", "mail", "correo", "correo electronico"},
	"usuario.dni":                       {"dni", "documento", "nro documento", "n° documento"},
	"usuario.cuit":                      {"cuit", "cuil", "cuit cliente", "cuit/cuil", "n° cuit", "nro cuit"},
	"usuario.telefono":                  {"telefono", "tel", "celular", "whatsapp"},
	"usuario.condicion":                 {"condicion iva", "condicion frente al iva", "cond iva", "iva", "situacion iva"},
	"direccionEnvio.direccion":          {"direccion", "domicilio", "direccion de entrega", "direccion envio", "domicilio de entrega"},
	"direccionEnvio.localidad":          {"localidad", "ciudad", "localidad de entrega"},
	"direccionEnvio.provincia":          {"provincia", "provincia de entrega"},
	"direccionEnvio.codigoPostal":       {"cp", "codigo postal", "cod postal"},
	"direccionFacturacion.direccion":    {"direccion", "domicilio", "domicilio fiscal", "direccion de facturacion"},
	"direccionFacturacion.localidad":    {"localidad", "localidad de facturacion"},
	"direccionFacturacion.provincia":    {"provincia", "provincia de facturacion"},
	"direccionFacturacion.codigoPostal": {"cp", "codigo postal", "cod postal"},
	"subtotal":                          {"subtotal", "sub total", "neto", "importe neto", "subtotal neto"},
	"descuento":                         {"descuento", "descuentos", "bonificacion", "dto"},
	"recargo":                           {"recargo", "recargos", "interes", "intereses"},
	"envio":                             {"envio", "costo de envio", "costo envio", "flete"},
	"total":                             {"total", "importe", "importe total", "monto", "monto total", "total factura", "total venta"},
	"medioPago.tipo":                    {"forma de pago", "medio de pago", "tipo de pago", "forma pago", "medio pago", "pago"},
	"medioPago.cuentaBancariaId":        {"cuenta bancaria", "cuenta", "banco", "cta bancaria", "id cuenta"},
	"medioPago.tarjetaId":               {"tarjeta", "id tarjeta", "tarjeta de credito"},
	"medioPago.externalId":              {"id operacion", "nro operacion", "n° operacion", "operacion", "id pago"},
	"productos.articuloId":              {"articulo", "id articulo", "codigo", "cod articulo", "codigo articulo", "cod", "sku", "producto"},
	"productos.precio":                  {"precio", "precio unitario", "p unitario", "precio unit", "pu"},
	"productos.cantidad":                {"cantidad", "cant", "unidades", "cant vendida"},
	"productos.talleId":                 {"talle", "id talle"},
	"productos.colorId":                 {"color", "id color"},
	"facturaId":                         {"preventa", "nro preventa", "id preventa", "factura", "nro factura", "id factura"},
	"electronica":                       {"electronica", "factura electronica", "fe"},
	"depositoId":                        {"deposito", "id deposito", "almacen", "deposito origen"},
	"motivoId":                          {"motivo", "id motivo", "motivo del movimiento"},
	"tipo":                              {"tipo", "tipo de movimiento", "tipo movimiento"},
	"fecha":                             {"fecha", "fecha movimiento", "fecha del movimiento"},
	"sref":                              {"referencia", "ref"},
	"depositoDosId":                     {"deposito destino", "deposito de destino"},
	"sucursalDosId":                     {"sucursal destino", "sucursal de destino"},
	"articulos.articuloId":              {"articulo", "id articulo", "codigo", "cod articulo", "codigo articulo", "cod", "sku", "producto"},
	"articulos.cantidad":                {"cantidad", "cant", "unidades", "cantidad contada", "conteo", "stock", "existencia"},
	"articulos.precio":                  {"costo", "costo unitario", "precio", "precio de costo"},
	"articulos.colorId":                 {"color", "id color"},
	"articulos.talleId":                 {"talle", "id talle"},
	"articulos.detalle":                 {"detalle articulo", "detalle del articulo"},
}

// foldHeader folds a header for the synonym table: Normalize, then every
// sign that is not a letter or a digit dropped ("N° de orden", "Nº de
// orden" and "n de orden" fold alike).
func foldHeader(h string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, strings.ReplaceAll(strings.ReplaceAll(Normalize(h), "°", ""), "º", ""))
}

// Suggestion is what the column screen proposes for one column of a file:
// the field it fills (Path), or, when its name could mean two fields or
// more of the kind (Choices, in the kind's order), none: the page asks.
type Suggestion struct {
	Path    string
	Choices []string
	// Exact is true when Match itself takes the column (its name is the
	// field's path or its last part, or a mapping names it).
	Exact bool
}

// Suggest proposes, per column of header, the field of kind k it fills:
// Match's own choice first; then the common Argentine names of each field
// (the synonym table), a column whose name could be two fields left as a
// question; then a name that holds exactly one field's last part. A field
// is never proposed for two columns.
func Suggest(k Kind, header []string) []Suggestion {
	out := make([]Suggestion, len(header))
	lay, _ := Match(k, header, nil)
	taken := map[string]bool{}
	for path, i := range lay.Index {
		out[i] = Suggestion{Path: path, Exact: true}
		taken[path] = true
	}
	bySyn := map[string][]string{}
	for _, c := range k.Columns() {
		for _, s := range pageSynonyms[c.Path] {
			f := foldHeader(s)
			bySyn[f] = append(bySyn[f], c.Path)
		}
	}
	for i, h := range header {
		if out[i].Path != "" || strings.TrimSpace(h) == "" {
			continue
		}
		var cands []string
		for _, p := range bySyn[foldHeader(h)] {
			if !taken[p] {
				cands = append(cands, p)
			}
		}
		switch {
		case len(cands) == 1:
			out[i].Path, taken[cands[0]] = cands[0], true
		case len(cands) > 1:
			out[i].Choices = cands
		}
	}
	for i, h := range header {
		if out[i].Path != "" || len(out[i].Choices) > 0 {
			continue
		}
		n := Normalize(h)
		var cands []string
		for _, c := range k.Columns() {
			leaf := Normalize(c.Path[strings.LastIndexByte(c.Path, '.')+1:])
			if len(leaf) >= 4 && len(n) >= 4 && (strings.Contains(n, leaf) || strings.Contains(leaf, n)) && !taken[c.Path] {
				cands = append(cands, c.Path)
			}
		}
		if len(cands) == 1 {
			out[i].Path, taken[cands[0]] = cands[0], true
		} else if len(cands) > 1 {
			out[i].Choices = cands
		}
	}
	return out
}
