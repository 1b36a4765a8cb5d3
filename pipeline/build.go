package pipeline

import (
	"errors"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
)

// rowIssue is a problem found on one row while building or validating.
type rowIssue struct {
	row     int32
	field   string // column path, "" for the whole row
	msg     msg.Message
	warning bool
}

// builder turns a request's rows into its typed API body, collecting the
// cell problems it meets on the way.
type builder struct {
	sh     *Sheet
	issues []rowIssue
	// bad marks cells that could not be parsed, so that validation does not
	// report the same cell again as missing.
	bad map[cellKey]bool
}

type cellKey struct {
	row   int32
	field string
}

func newBuilder(sh *Sheet) *builder { return &builder{sh: sh} }

func (b *builder) reset() {
	b.issues = b.issues[:0]
	clear(b.bad)
}

func (b *builder) fail(row int32, field string, m msg.Message) {
	b.issues = append(b.issues, rowIssue{row: row, field: field, msg: m})
	if field != "" {
		if b.bad == nil {
			b.bad = map[cellKey]bool{}
		}
		b.bad[cellKey{row, field}] = true
		b.bad[cellKey{-1, field}] = true
	}
}

// requestValue returns the request-level cell for path: the first non-blank
// value among rows; two different non-blank values are an error on every row.
func (b *builder) requestValue(rows []int32, path string) (string, int32, bool) {
	col := b.sh.Layout.Col(path)
	if col < 0 {
		return "", -1, false
	}
	val, at := "", int32(-1)
	conflict := false
	for _, r := range rows {
		c := strings.TrimSpace(b.sh.store.cell(int(r), col))
		if c == "" {
			continue
		}
		if at < 0 {
			val, at = c, r
			continue
		}
		if c != val && !sameValue(b.sh, path, c, val) {
			conflict = true
		}
	}
	if conflict {
		var vals []string
		seen := map[string]bool{}
		for _, r := range rows {
			c := strings.TrimSpace(b.sh.store.cell(int(r), col))
			if c != "" && !seen[c] {
				seen[c] = true
				vals = append(vals, c)
			}
		}
		for _, r := range rows {
			b.fail(r, path, msg.New("row.conflict", b.header(path), joinQuoted(vals)))
		}
		return "", -1, false
	}
	return val, at, at >= 0
}

// sameValue reports whether two spellings of a request-level value mean the
// same ("1500" and "1.500,00").
func sameValue(sh *Sheet, path, a, c string) bool {
	col, _ := sh.Kind.Column(path)
	va, ea := parseCell(sh, col, a)
	vc, ec := parseCell(sh, col, c)
	return ea == nil && ec == nil && va == vc
}

func (b *builder) header(path string) string {
	if i := b.sh.Layout.Col(path); i >= 0 {
		return b.sh.Info.Header[i]
	}
	return path
}

// parseCell converts a non-blank cell to the column's Go type.
func parseCell(sh *Sheet, c schema.Column, s string) (any, error) {
	raw := sh.Info.RawNumbers
	switch c.Type {
	case schema.Int:
		return schema.ParseInt(s, raw)
	case schema.Number:
		return schema.ParseNumber(s, sh.Sep, raw)
	case schema.Bool:
		return schema.ParseBool(s)
	case schema.Date:
		return schema.ParseDate(s, raw, sh.Info.Date1904)
	case schema.MedioTipo:
		return schema.ParseTipoMedio(s)
	case schema.StockTipo:
		return schema.ParseTipoStock(s)
	case schema.Condicion:
		return schema.ParseCondicion(s)
	case schema.Digits:
		return schema.DigitsOnly(s), nil
	}
	return s, nil
}

// value parses the cell of path at row into its Go value; ok is false when
// the cell is blank or could not be parsed (the problem is recorded).
func (b *builder) value(row int32, path, text string) (any, bool) {
	if strings.TrimSpace(text) == "" {
		return nil, false
	}
	col, _ := b.sh.Kind.Column(path)
	v, err := parseCell(b.sh, col, text)
	if err != nil {
		var ce *schema.CellError
		if errors.As(err, &ce) {
			b.fail(row, path, msg.New("row.cell", b.header(path), ce.Msg))
		} else {
			b.fail(row, path, msg.New("row.cell", b.header(path), err.Error()))
		}
		return nil, false
	}
	return v, true
}

// requestFields parses every request-level column of the request.
func (b *builder) requestFields(rows []int32, set func(path string, v any)) {
	for _, c := range b.sh.Kind.Columns() {
		if c.Level != schema.RequestLevel || c.Path == schema.Movimiento {
			continue
		}
		text, at, ok := b.requestValue(rows, c.Path)
		if !ok {
			continue
		}
		if v, ok := b.value(at, c.Path, text); ok {
			set(c.Path, v)
		}
	}
}

// lineFields parses the line-level columns of one row.
func (b *builder) lineFields(row int32, set func(path string, v any)) {
	for _, c := range b.sh.Kind.Columns() {
		if c.Level != schema.LineLevel {
			continue
		}
		col := b.sh.Layout.Col(c.Path)
		if col < 0 {
			continue
		}
		if v, ok := b.value(row, c.Path, b.sh.store.cell(int(row), col)); ok {
			set(c.Path, v)
		}
	}
}

func decPtr(v any) *nxapi.Decimal {
	d := v.(nxapi.Decimal)
	return &d
}

// buildVenta builds the sale of the request's rows; numero = ordenId.
func (b *builder) buildVenta(r *Request) *nxapi.Venta {
	v := &nxapi.Venta{}
	usuario, envio, fact := &nxapi.Usuario{}, &nxapi.Direccion{}, &nxapi.Direccion{}
	var medio *nxapi.MedioPago
	mp := func() *nxapi.MedioPago {
		if medio == nil {
			medio = &nxapi.MedioPago{}
		}
		return medio
	}
	b.requestFields(r.Rows, func(path string, val any) {
		switch path {
		case "ordenId":
			v.OrdenID = val.(int64)
		case "detalle":
			v.Detalle = val.(string)
		case "listaPrecioId":
			v.ListaPrecioID = val.(int64)
		case "puntoVentaId":
			v.PuntoVentaID = val.(int64)
		case "entidadId":
			v.EntidadID = val.(int64)
		case "empleadoId":
			v.EmpleadoID = val.(int64)
		case "usuario.nombre":
			usuario.Nombre = val.(string)
		case "usuario.email":
			usuario.Email = val.(string)
		case "usuario.dni":
			usuario.DNI = val.(string)
		case "usuario.cuit":
			usuario.CUIT = val.(string)
		case "usuario.telefono":
			usuario.Telefono = val.(string)
		case "usuario.condicion":
			c := val.(int)
			usuario.Condicion = &c
		case "subtotal":
			v.Subtotal = decPtr(val)
		case "descuento":
			v.Descuento = decPtr(val)
		case "recargo":
			v.Recargo = decPtr(val)
		case "envio":
			v.Envio = decPtr(val)
		case "total":
			v.Total = decPtr(val)
		case "medioPago.tipo":
			mp().Tipo = val.(nxapi.TipoMedio)
		case "medioPago.cuentaBancariaId":
			mp().CuentaBancariaID = val.(int64)
		case "medioPago.tarjetaId":
			mp().TarjetaID = val.(int64)
		case "medioPago.externalId":
			mp().ExternalID = val.(string)
		default:
			if d, ok := strings.CutPrefix(path, "direccionEnvio."); ok {
				setDireccion(envio, d, val.(string))
			} else if d, ok := strings.CutPrefix(path, "direccionFacturacion."); ok {
				setDireccion(fact, d, val.(string))
			}
		}
	})
	v.Numero = v.OrdenID
	if *usuario != (nxapi.Usuario{}) {
		v.Usuario = usuario
	}
	if *envio != (nxapi.Direccion{}) {
		v.DireccionEnvio = envio
	}
	if *fact != (nxapi.Direccion{}) {
		v.DireccionFacturacion = fact
	}
	// A medioPago with only ids and no tipo is still sent as missing tipo:
	// validation names the column to fill.
	v.MedioPago = medio
	v.Productos = make([]nxapi.Producto, 0, len(r.Rows))
	for _, row := range r.Rows {
		var p nxapi.Producto
		b.lineFields(row, func(path string, val any) {
			switch path {
			case "productos.articuloId":
				p.ArticuloID = val.(int64)
			case "productos.precio":
				p.Precio = decPtr(val)
			case "productos.cantidad":
				p.Cantidad = decPtr(val)
			case "productos.talleId":
				p.TalleID = val.(int64)
			case "productos.colorId":
				p.ColorID = val.(int64)
			}
		})
		v.Productos = append(v.Productos, p)
	}
	return v
}

func setDireccion(d *nxapi.Direccion, field, val string) {
	switch field {
	case "provincia":
		d.Provincia = val
	case "localidad":
		d.Localidad = val
	case "direccion":
		d.Direccion = val
	case "codigoPostal":
		d.CodigoPostal = val
	}
}

// buildFacturar builds the invoicing of one presale.
func (b *builder) buildFacturar(r *Request) *nxapi.Facturar {
	f := &nxapi.Facturar{}
	var medio *nxapi.MedioPago
	mp := func() *nxapi.MedioPago {
		if medio == nil {
			medio = &nxapi.MedioPago{}
		}
		return medio
	}
	b.requestFields(r.Rows, func(path string, val any) {
		switch path {
		case "facturaId":
			f.FacturaID = val.(int64)
		case "puntoVentaId":
			f.PuntoVentaID = val.(int64)
		case "electronica":
			e := val.(bool)
			f.Electronica = &e
		case "medioPago.tipo":
			mp().Tipo = val.(nxapi.TipoMedio)
		case "medioPago.cuentaBancariaId":
			mp().CuentaBancariaID = val.(int64)
		case "medioPago.tarjetaId":
			mp().TarjetaID = val.(int64)
		case "medioPago.externalId":
			mp().ExternalID = val.(string)
		}
	})
	// The electronica column exists (it is required); blank means no.
	if f.Electronica == nil && !b.bad[cellKey{-1, "electronica"}] {
		no := false
		f.Electronica = &no
	}
	f.MedioPago = medio
	return f
}

// buildStock builds one movement chunk.
func (b *builder) buildStock(r *Request) *nxapi.StockMovimiento {
	m := &nxapi.StockMovimiento{}
	b.requestFields(r.Rows, func(path string, val any) {
		switch path {
		case "depositoId":
			m.DepositoID = val.(int64)
		case "motivoId":
			m.MotivoID = val.(int64)
		case "tipo":
			m.Tipo = val.(nxapi.TipoStock)
		case "fecha":
			m.Fecha = val.(string)
		case "detalle":
			m.Detalle = val.(string)
		case "sref":
			m.Sref = val.(string)
		case "depositoDosId":
			m.DepositoDosID = val.(int64)
		case "sucursalDosId":
			m.SucursalDosID = val.(int64)
		}
	})
	m.Articulos = make([]nxapi.StockArticulo, 0, len(r.Rows))
	for _, row := range r.Rows {
		var a nxapi.StockArticulo
		b.lineFields(row, func(path string, val any) {
			switch path {
			case "articulos.articuloId":
				a.ArticuloID = val.(int64)
			case "articulos.cantidad":
				a.Cantidad = decPtr(val)
			case "articulos.colorId":
				a.ColorID = val.(int64)
			case "articulos.talleId":
				a.TalleID = val.(int64)
			case "articulos.precio":
				a.Precio = decPtr(val)
			case "articulos.detalle":
				a.Detalle = val.(string)
			case "articulos.sref":
				a.Sref = val.(string)
			}
		})
		m.Articulos = append(m.Articulos, a)
	}
	return m
}
