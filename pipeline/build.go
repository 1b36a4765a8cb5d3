package pipeline

import (
	"errors"
	"github.com/nxbatch/nxbatch/cell"
	"strings"

	"github.com/nxbatch/nxbatch/articulos"
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
	// request says the issue is about the request as a whole (a stock
	// movement's fields), not about this row's own line.
	request bool
}

// builder turns a request's rows into its typed API body, collecting the
// cell problems it meets on the way.
type builder struct {
	sh     *Sheet
	issues []rowIssue
	// bad marks cells that could not be parsed, so that validation does not
	// report the same cell again as missing.
	bad map[cellKey]bool
	// rows are the current request's rows and cells their decoded cells,
	// decoded once per request (the strings point into the row store).
	rows  []int32
	cells [][]string
	kinds [][]cell.Kind   // each cell's kind, aligned with cells
	slab  []nxapi.Decimal // backing store of the request's *Decimal fields
	// msgs collects the messages of the rows this builder settles; the
	// sheet merges every builder's map when validation ends.
	msgs map[int32][]note
	// refs are the current rows' article keys (code, barcode, size,
	// colour), by line; unchecked the rows by id no article catalog
	// checked.
	refs      []articulos.Query
	unchecked []int32
	headerFn  func(path string) string // b.header, made once
	// sale is the body buildVenta fills, reused request after request:
	// nothing keeps a body past check (a run keeps its JSON), so a file of
	// a million sales allocates no sale, customer or address per request.
	sale saleScratch
	val  cellValue // the cell being parsed, handed to the field setters
}

// saleScratch holds a sale's body and the parts it points to.
type saleScratch struct {
	v           nxapi.Venta
	usuario     nxapi.Usuario
	envio, fact nxapi.Direccion
	medio       nxapi.MedioPago
	condicion   int
	productos   []nxapi.Producto
}

type cellKey struct {
	row   int32
	field string
}

func newBuilder(sh *Sheet) *builder { return &builder{sh: sh, msgs: map[int32][]note{}} }

// note is one message of a row, on the API field it is about ("" for the
// whole row).
type note struct {
	field string
	msg   msg.Message
}

// reset starts on request r: no issues yet, its rows decoded.
func (b *builder) reset(r *Request) { b.resetRows(r.Rows) }

// resetRows starts on a request made of rows.
func (b *builder) resetRows(rows []int32) {
	b.issues = b.issues[:0]
	clear(b.bad)
	b.rows = rows
	n := len(b.sh.Info.Header)
	for len(b.cells) < len(rows) {
		b.cells = append(b.cells, make([]string, 0, n))
		b.kinds = append(b.kinds, make([]cell.Kind, 0, n))
	}
	for k, row := range rows {
		b.cells[k], b.kinds[k] = b.sh.store.cellsKinds(int(row), n, b.cells[k], b.kinds[k])
	}
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

// requestValue returns the request-level cell of column c: the first
// non-blank value among the request's rows; two different non-blank values
// are an error on every row.
func (b *builder) requestValue(c *presentCol) (string, cell.Kind, int32, bool) {
	val, kind, at := "", cell.Empty, int32(-1)
	conflict := false
	for k, r := range b.rows {
		v := strings.TrimSpace(b.cells[k][c.idx])
		if v == "" {
			continue
		}
		vk := b.kinds[k][c.idx]
		if at < 0 {
			val, kind, at = v, vk, r
			continue
		}
		if v != val && !sameValue(b.sh, &c.Column, v, vk, val, kind) {
			conflict = true
		}
	}
	if !conflict {
		return val, kind, at, at >= 0
	}
	var vals []string
	seen := map[string]bool{}
	for k := range b.rows {
		v := strings.TrimSpace(b.cells[k][c.idx])
		if v != "" && !seen[v] {
			seen[v] = true
			vals = append(vals, v)
		}
	}
	for _, r := range b.rows {
		b.fail(r, c.Path, msg.New("row.conflict", b.header(c.Path), joinQuoted(vals)))
	}
	return "", cell.Empty, -1, false
}

// requestText returns the request-level text of path and its kind, if
// present.
func (b *builder) requestText(path string) (string, cell.Kind, bool) {
	for i := range b.sh.reqCols {
		if c := &b.sh.reqCols[i]; c.Path == path {
			v, k, _, ok := b.requestValue(c)
			return v, k, ok
		}
	}
	return "", cell.Empty, false
}

// sameValue reports whether two spellings of a request-level value mean the
// same ("1500" and "1.500,00").
func sameValue(sh *Sheet, col *schema.Column, a string, ka cell.Kind, c string, kc cell.Kind) bool {
	var va, vc cellValue
	ea := parseCell(sh, col, a, ka, &va)
	ec := parseCell(sh, col, c, kc, &vc)
	return ea == nil && ec == nil && va == vc
}

func (b *builder) header(path string) string {
	if i := b.sh.Layout.Col(path); i >= 0 {
		return b.sh.Info.Header[i]
	}
	return path
}

// cellValue is a parsed cell: one field is set, per the column's type.
// A struct, not an interface, so parsing a million cells boxes nothing.
type cellValue struct {
	i int64         // Int, MedioTipo, StockTipo, Condicion
	d nxapi.Decimal // Number
	s string        // Text, Digits, Date
	b bool          // Bool
}

// parseCell converts a non-blank cell of kind k to the column's value: a
// cell the spreadsheet stored as a number or a date is read as that, text
// as what the user typed, in the file's conventions.
//
// It fills *v, which it first clears: a value's 48 bytes are not copied
// through every call of a million-row file.
func parseCell(sh *Sheet, c *schema.Column, s string, k cell.Kind, v *cellValue) error {
	raw := k == cell.Number || k == cell.Date
	*v = cellValue{}
	var err error
	switch c.Type {
	case schema.Int:
		v.i, err = schema.ParseInt(s, raw)
	case schema.Number:
		v.d, err = schema.ParseNumber(s, sh.Sep, raw)
	case schema.Bool:
		v.b, err = schema.ParseBool(s)
	case schema.Date:
		v.s, err = schema.ParseDate(s, raw, sh.Info.Date1904)
	case schema.MedioTipo:
		var t nxapi.TipoMedio
		t, err = schema.ParseTipoMedioFor(s, sh.Kind)
		v.i = int64(t)
	case schema.StockTipo:
		var t nxapi.TipoStock
		t, err = schema.ParseTipoStock(s)
		v.i = int64(t)
	case schema.Condicion:
		var n int
		n, err = schema.ParseCondicion(s)
		v.i = int64(n)
	case schema.Digits:
		v.s = schema.DigitsOnly(s)
	default:
		v.s = s
	}
	return err
}

// value parses a non-blank cell of column c at row into its Go value; ok
// is false when the cell is blank or could not be parsed (the problem is
// recorded).
func (b *builder) value(row int32, c *schema.Column, text string, k cell.Kind, v *cellValue) bool {
	if strings.TrimSpace(text) == "" {
		return false
	}
	if err := parseCell(b.sh, c, text, k, v); err != nil {
		var ce *msg.Error
		if errors.As(err, &ce) {
			b.fail(row, c.Path, msg.New("row.cell", b.header(c.Path), ce.Msg))
		} else {
			b.fail(row, c.Path, msg.New("row.cell", b.header(c.Path), err.Error()))
		}
		return false
	}
	return true
}

// requestFields parses every request-level column of the request.
func (b *builder) requestFields(set func(path string, v *cellValue)) {
	for i := range b.sh.reqCols {
		c := &b.sh.reqCols[i] // a pointer: a column is 72 bytes to copy
		text, kind, at, ok := b.requestValue(c)
		if !ok {
			continue
		}
		if b.value(at, &c.Column, text, kind, &b.val) {
			set(c.Path, &b.val)
		}
	}
}

// lineFields parses the line-level columns of the request's k-th row.
func (b *builder) lineFields(k int, set func(path string, v *cellValue)) {
	for i := range b.sh.lineCols {
		c := &b.sh.lineCols[i]
		if b.value(b.rows[k], &c.Column, b.cells[k][c.idx], b.kinds[k][c.idx], &b.val) {
			set(c.Path, &b.val)
		}
	}
}

// dec returns a pointer to a copy of d from a slab shared by the request,
// one allocation per request instead of one per amount.
func (b *builder) dec(d nxapi.Decimal) *nxapi.Decimal {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]nxapi.Decimal, 0, max(16, 3*len(b.rows)))
	}
	b.slab = append(b.slab, d)
	return &b.slab[len(b.slab)-1]
}

// buildVenta builds the sale of the request's rows; numero = ordenId. The
// sale is the builder's own, valid until the next request.
func (b *builder) buildVenta(r *Request) *nxapi.Venta {
	sc := &b.sale
	sc.v, sc.usuario, sc.envio, sc.fact = nxapi.Venta{}, nxapi.Usuario{}, nxapi.Direccion{}, nxapi.Direccion{}
	v, usuario, envio, fact := &sc.v, &sc.usuario, &sc.envio, &sc.fact
	// The previous sale's amounts are no longer referenced (its body was
	// checked, and marshalled if kept): their slab is reused.
	b.slab = b.slab[:0]
	var medio *nxapi.MedioPago
	b.requestFields(func(path string, val *cellValue) {
		switch path {
		case "ordenId":
			v.OrdenID = val.i
		case "detalle":
			v.Detalle = val.s
		case "listaPrecioId":
			v.ListaPrecioID = val.i
		case "puntoVentaId":
			v.PuntoVentaID = val.i
		case "entidadId":
			v.EntidadID = val.i
		case "empleadoId":
			v.EmpleadoID = val.i
		case "usuario.nombre":
			usuario.Nombre = val.s
		case "usuario.email":
			usuario.Email = val.s
		case "usuario.dni":
			usuario.DNI = val.s
		case "usuario.cuit":
			usuario.CUIT = val.s
		case "usuario.telefono":
			usuario.Telefono = val.s
		case "usuario.condicion":
			sc.condicion = int(val.i)
			usuario.Condicion = &sc.condicion
		case "subtotal":
			v.Subtotal = b.dec(val.d)
		case "descuento":
			v.Descuento = b.dec(val.d)
		case "recargo":
			v.Recargo = b.dec(val.d)
		case "envio":
			v.Envio = b.dec(val.d)
		case "total":
			v.Total = b.dec(val.d)
		default:
			m := medio
			if m == nil {
				sc.medio = nxapi.MedioPago{}
				m = &sc.medio
			}
			if setMedioPago(&m, path, val) {
				medio = m
				return
			}
			if d, ok := strings.CutPrefix(path, "direccionEnvio."); ok {
				setDireccion(envio, d, val.s)
			} else if d, ok := strings.CutPrefix(path, "direccionFacturacion."); ok {
				setDireccion(fact, d, val.s)
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
	if sc.productos == nil {
		sc.productos = make([]nxapi.Producto, 0, len(r.Rows))
	}
	v.Productos = sc.productos[:0]
	refs := b.refsFor(len(r.Rows))
	for k := range r.Rows {
		var p nxapi.Producto
		b.lineFields(k, func(path string, val *cellValue) {
			if setRef(&refs[k], "productos.", path, val.s) {
				return
			}
			switch path {
			case "productos.articuloId":
				p.ArticuloID = val.i
			case "productos.precio":
				p.Precio = b.dec(val.d)
			case "productos.cantidad":
				p.Cantidad = b.dec(val.d)
			case "productos.talleId":
				p.TalleID = val.i
			case "productos.colorId":
				p.ColorID = val.i
			}
		})
		v.Productos = append(v.Productos, p)
	}
	sc.productos = v.Productos
	return v
}

// setMedioPago sets the medioPago field of column path on *m, creating the
// medioPago at its first field, and reports whether path is a medioPago
// column. Venta and facturar share it (schema's medioPago columns).
func setMedioPago(m **nxapi.MedioPago, path string, val *cellValue) bool {
	if !strings.HasPrefix(path, "medioPago.") {
		return false
	}
	mp := *m
	if mp == nil {
		mp = &nxapi.MedioPago{}
	}
	switch path {
	case "medioPago.tipo":
		mp.Tipo = nxapi.TipoMedio(val.i)
	case "medioPago.cuentaBancariaId":
		mp.CuentaBancariaID = val.i
	case "medioPago.tarjetaId":
		mp.TarjetaID = val.i
	case "medioPago.externalId":
		mp.ExternalID = val.s
	default:
		return false
	}
	*m = mp
	return true
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
	b.requestFields(func(path string, val *cellValue) {
		switch path {
		case "facturaId":
			f.FacturaID = val.i
		case "puntoVentaId":
			f.PuntoVentaID = val.i
		case "electronica":
			e := val.b
			f.Electronica = &e
		default:
			setMedioPago(&medio, path, val)
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

// buildPedido builds the order of the request's rows: a sale's fields
// (numero = ordenId), pagado and the optional payment.
func (b *builder) buildPedido(r *Request) *nxapi.Pedido {
	p := b.buildVenta(r).Pedido() // numero = ordenId already
	for i := range b.sh.reqCols {
		c := &b.sh.reqCols[i]
		if c.Path != "pagado" {
			continue
		}
		if text, kind, at, ok := b.requestValue(c); ok {
			var val cellValue
			if b.value(at, &c.Column, text, kind, &val) {
				p.Pagado = val.b
			}
		}
	}
	return p
}

// buildCancelar builds the cancellation of the current row.
func (b *builder) buildCancelar() *nxapi.Cancelar {
	x := &nxapi.Cancelar{}
	b.requestFields(func(path string, val *cellValue) {
		if path == "facturaId" {
			x.FacturaID = val.i
		}
	})
	return x
}

// buildStock builds the movement of the current rows, one article line per
// row.
func (b *builder) buildStock() *nxapi.StockMovimiento {
	m := &nxapi.StockMovimiento{}
	b.requestFields(func(path string, val *cellValue) {
		switch path {
		case "depositoId":
			m.DepositoID = val.i
		case "motivoId":
			m.MotivoID = val.i
		case "tipo":
			m.Tipo = nxapi.TipoStock(val.i)
		case "fecha":
			m.Fecha = val.s
		case "detalle":
			m.Detalle = val.s
		case "sref":
			m.Sref = val.s
		case "depositoDosId":
			m.DepositoDosID = val.i
		case "sucursalDosId":
			m.SucursalDosID = val.i
		}
	})
	m.Articulos = make([]nxapi.StockArticulo, 0, len(b.rows))
	refs := b.refsFor(len(b.rows))
	for k := range b.rows {
		var a nxapi.StockArticulo
		b.lineFields(k, func(path string, val *cellValue) {
			if setRef(&refs[k], "articulos.", path, val.s) {
				return
			}
			switch path {
			case "articulos.articuloId":
				a.ArticuloID = val.i
			case "articulos.cantidad", schema.CantidadContada:
				// A count's line carries the counted quantity here until
				// its difference with the ERP's stock is known (count.go).
				a.Cantidad = b.dec(val.d)
			case "articulos.colorId":
				a.ColorID = val.i
			case "articulos.talleId":
				a.TalleID = val.i
			case "articulos.precio":
				a.Precio = b.dec(val.d)
			case "articulos.detalle":
				a.Detalle = val.s
			case "articulos.sref":
				a.Sref = val.s
			}
		})
		m.Articulos = append(m.Articulos, a)
	}
	return m
}
