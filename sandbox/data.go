package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/samples"
)

// Data is the sandbox's seed: one integration's tenant as the ERP would hold
// it. The file format is JSON with exactly these field names; unknown fields
// are refused so that a typo in a hand-edited file is an error, not a silently
// missing warehouse.
type Data struct {
	Config       DataConfig             `json:"config"`
	Sucursales   []DataSucursal         `json:"sucursales"`
	Depositos    []DataDeposito         `json:"depositos"`
	PuntosVenta  []DataPuntoVenta       `json:"puntosVenta"`
	MediosPago   nxapi.MediosPagoConfig `json:"mediosPago"`
	Motivos      []nxapi.Motivo         `json:"motivos"`
	Entidades    []DataEntidad          `json:"entidades"`
	Empleados    []DataEmpleado         `json:"empleados"`
	Colores      []DataNombre           `json:"colores"`
	Talles       []DataNombre           `json:"talles"`
	Articulos    []DataArticulo         `json:"articulos"`
	StockInicial nxapi.Decimal          `json:"stockInicial"` // units of every variant in every integration warehouse
	Stock        []StockLevel           `json:"stock"`        // overrides of StockInicial
	Comprobantes []DataComprobante      `json:"comprobantes"` // presales and other vouchers that exist at start
}

// DataConfig is the integration's channel configuration (GET /config).
type DataConfig struct {
	AppID         int64  `json:"appId"`
	Nombre        string `json:"nombre"`
	FlujoDeposito int    `json:"flujoDeposito"`
	PuntoVentaID  int64  `json:"puntoVentaId"`
	ListaPrecioID int64  `json:"listaPrecioId"`
	MultiDeposito bool   `json:"multiDeposito"`
	// Pedidos is what POST /Pedido creates, per the integration's
	// configuration (public-facts.md, "Orders"): "preventa" (the default,
	// a presale, comprobanteTipo 33, which /facturar converts) or
	// "reserva" (a reservation, PedidoReserva).
	Pedidos string `json:"pedidos,omitempty"`
}

// DataSucursal is a branch of the tenant; Habilitada says whether the ERP
// administrator enabled it for the integration.
type DataSucursal struct {
	SucursalID int64  `json:"sucursalId"`
	Nombre     string `json:"nombre"`
	Habilitada bool   `json:"habilitada"`
}

// DataDeposito is a warehouse. Integracion marks the warehouses configured in
// the integration; Principal the main one, whose stock is `unidades` in
// multi-warehouse events.
type DataDeposito struct {
	DepositoID  int64  `json:"depositoId"`
	Nombre      string `json:"nombre"`
	SucursalID  int64  `json:"sucursalId"`
	Principal   bool   `json:"principal"`
	Integracion bool   `json:"integracion"`
}

// DataPuntoVenta is a point of sale; Numero is the pVNumero of its vouchers.
type DataPuntoVenta struct {
	PuntoVentaID int64  `json:"puntoVentaId"`
	Numero       int64  `json:"numero"`
	Nombre       string `json:"nombre"`
	SucursalID   int64  `json:"sucursalId"`
}

// DataEntidad is a customer; only active ones may be named by entidadId.
type DataEntidad struct {
	EntidadID int64  `json:"entidadId"`
	Nombre    string `json:"nombre"`
	Activo    bool   `json:"activo"`
}

// DataEmpleado is an employee; only active ones of enabled branches may be
// named by empleadoId.
type DataEmpleado struct {
	EmpleadoID int64  `json:"empleadoId"`
	Nombre     string `json:"nombre"`
	SucursalID int64  `json:"sucursalId"`
	Activo     bool   `json:"activo"`
}

// DataNombre is a named id (a color or a size), with the code the ERP
// also knows it by and, for a color, its hex value.
type DataNombre struct {
	ID     int64  `json:"id"`
	Nombre string `json:"nombre"`
	Codigo string `json:"codigo,omitempty"`
	Hex    string `json:"hex,omitempty"`
}

// DataArticulo is an article; without Variantes it has one variant with
// colorId and talleId 0, whose barcode is CodigoBarras. Eliminado articles
// take no part in the integration.
type DataArticulo struct {
	ArticuloID   int64          `json:"articuloId"`
	Codigo       string         `json:"codigo"`
	Nombre       string         `json:"nombre"`
	Descripcion  string         `json:"descripcion"`
	Precio1      nxapi.Decimal  `json:"precio1"`
	CodigoBarras string         `json:"codigoBarras,omitempty"`
	Variantes    []DataVariante `json:"variantes"`
	Eliminado    bool           `json:"eliminado"`
}

// DataVariante is one color and size of an article (0 for the dimension
// an article does not have: a size-only article has colorId 0), with its
// barcode.
type DataVariante struct {
	ColorID      int64  `json:"colorId"`
	TalleID      int64  `json:"talleId"`
	CodigoBarras string `json:"codigoBarras,omitempty"`
}

// talleColor is the article's talleColor (nxapi.SinCurva ...
// nxapi.TallesColores): which dimensions its variants have.
func (a *DataArticulo) talleColor() int {
	tc := nxapi.SinCurva
	for _, v := range a.Variantes {
		if v.TalleID != 0 {
			tc |= nxapi.SoloTalles
		}
		if v.ColorID != 0 {
			tc |= nxapi.SoloColores
		}
	}
	return tc
}

// DataComprobante is a voucher that exists before the sandbox starts, usually
// a presale (comprobanteTipo 33) waiting for POST /facturar. Propio says it was
// created by this integration; others answer 404 as the API does, and show
// appId null in the exports (made in the ERP). A sale (2) or credit note (4)
// appears in the exports of its branch and date (Fecha, dd/MM/yyyy
// HH:mm:ss, UTC).
type DataComprobante struct {
	FacturaID       int64                 `json:"facturaId"`
	OrdenID         int64                 `json:"ordenId"`
	ComprobanteTipo int                   `json:"comprobanteTipo"`
	Estado          string                `json:"estado"`
	Numero          int64                 `json:"numero"`
	PuntoVentaID    int64                 `json:"puntoVentaId"`
	EntidadID       int64                 `json:"entidadId"`
	Fecha           string                `json:"fecha"`
	Propio          bool                  `json:"propio"`
	Total           nxapi.Decimal         `json:"total"`
	Items           []DataComprobanteItem `json:"items"`
}

// DataComprobanteItem is one line of a seeded voucher.
type DataComprobanteItem struct {
	ArticuloID int64         `json:"articuloId"`
	ColorID    int64         `json:"colorId"`
	TalleID    int64         `json:"talleId"`
	Cantidad   nxapi.Decimal `json:"cantidad"`
	Precio     nxapi.Decimal `json:"precio"`
}

// LoadData reads and checks a sandbox data file.
func LoadData(r io.Reader) (*Data, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var d Data
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("sandbox data: %w", err)
	}
	if dec.More() {
		return nil, errors.New("sandbox data: unexpected content after the JSON object")
	}
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("sandbox data: %w", err)
	}
	return &d, nil
}

// DemoData returns the embedded demo data (samples/sandbox.json). It panics
// only if the embedded file is broken, which a test guards against.
func DemoData() *Data {
	d, err := LoadData(bytes.NewReader(samples.SandboxData))
	if err != nil {
		panic(err)
	}
	return d
}

// validate checks ids are unique and every reference points at something, so
// that the handler can trust the maps it builds.
func (d *Data) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	switch d.Config.Pedidos {
	case "", PedidoPreventa, PedidoReserva:
	default:
		bad("config.pedidos %q: use %s or %s", d.Config.Pedidos, PedidoPreventa, PedidoReserva)
	}
	sucs := map[int64]bool{}
	for _, s := range d.Sucursales {
		if s.SucursalID <= 0 || sucs[s.SucursalID] {
			bad("sucursal %d: id must be positive and unique", s.SucursalID)
		}
		sucs[s.SucursalID] = true
	}
	deps := map[int64]bool{}
	principal := 0
	for _, x := range d.Depositos {
		if x.DepositoID <= 0 || deps[x.DepositoID] {
			bad("deposito %d: id must be positive and unique", x.DepositoID)
		}
		deps[x.DepositoID] = true
		if !sucs[x.SucursalID] {
			bad("deposito %d: sucursal %d does not exist", x.DepositoID, x.SucursalID)
		}
		if x.Principal {
			principal++
			if !x.Integracion {
				bad("deposito %d: the main warehouse must be part of the integration", x.DepositoID)
			}
		}
	}
	if principal != 1 {
		bad("depositos: exactly one must be principal, found %d", principal)
	}
	pvs := map[int64]bool{}
	for _, p := range d.PuntosVenta {
		if p.PuntoVentaID <= 0 || pvs[p.PuntoVentaID] {
			bad("punto de venta %d: id must be positive and unique", p.PuntoVentaID)
		}
		pvs[p.PuntoVentaID] = true
		if !sucs[p.SucursalID] {
			bad("punto de venta %d: sucursal %d does not exist", p.PuntoVentaID, p.SucursalID)
		}
	}
	if !pvs[d.Config.PuntoVentaID] {
		bad("config.puntoVentaId %d: no such punto de venta", d.Config.PuntoVentaID)
	}
	uniq := func(what string, ids []int64) {
		seen := map[int64]bool{}
		for _, id := range ids {
			if id <= 0 || seen[id] {
				bad("%s %d: id must be positive and unique", what, id)
			}
			seen[id] = true
		}
	}
	var ids []int64
	for _, m := range d.Motivos {
		ids = append(ids, m.MotivoID)
	}
	uniq("motivo", ids)
	ids = ids[:0]
	for _, e := range d.Entidades {
		ids = append(ids, e.EntidadID)
	}
	uniq("entidad", ids)
	ids = ids[:0]
	for _, e := range d.Empleados {
		ids = append(ids, e.EmpleadoID)
		if !sucs[e.SucursalID] {
			bad("empleado %d: sucursal %d does not exist", e.EmpleadoID, e.SucursalID)
		}
	}
	uniq("empleado", ids)
	colores, talles := map[int64]bool{}, map[int64]bool{}
	for _, c := range d.Colores {
		colores[c.ID] = true
	}
	for _, t := range d.Talles {
		talles[t.ID] = true
	}
	arts := map[int64]DataArticulo{}
	barras := map[string]int64{}
	barcode := func(art int64, code string) {
		if code == "" {
			return
		}
		if other, dup := barras[code]; dup {
			// A barcode names one variant of one article.
			bad("articulo %d: barcode %s is also article %d's", art, code, other)
		}
		barras[code] = art
	}
	for _, a := range d.Articulos {
		barcode(a.ArticuloID, a.CodigoBarras)
		if a.CodigoBarras != "" && len(a.Variantes) > 0 {
			bad("articulo %d: an article with variants has its barcodes in them", a.ArticuloID)
		}
		if a.ArticuloID <= 0 {
			bad("articulo %d: id must be positive", a.ArticuloID)
		}
		if _, dup := arts[a.ArticuloID]; dup {
			bad("articulo %d: duplicate id", a.ArticuloID)
		}
		arts[a.ArticuloID] = a
		for _, v := range a.Variantes {
			barcode(a.ArticuloID, v.CodigoBarras)
			if (v.ColorID == 0 && v.TalleID == 0) || (v.ColorID != 0 && !colores[v.ColorID]) || (v.TalleID != 0 && !talles[v.TalleID]) {
				bad("articulo %d: variant color %d / talle %d is not in colores/talles", a.ArticuloID, v.ColorID, v.TalleID)
			}
		}
	}
	for _, l := range d.Stock {
		a, ok := arts[l.ArticuloID]
		if !ok {
			bad("stock: articulo %d does not exist", l.ArticuloID)
			continue
		}
		if !deps[l.DepositoID] {
			bad("stock: deposito %d does not exist", l.DepositoID)
		}
		if !hasVariant(a, l.ColorID, l.TalleID) {
			bad("stock: articulo %d has no variant color %d / talle %d", l.ArticuloID, l.ColorID, l.TalleID)
		}
	}
	ids = ids[:0]
	for _, c := range d.Comprobantes {
		ids = append(ids, c.FacturaID)
		if !pvs[c.PuntoVentaID] {
			bad("comprobante %d: punto de venta %d does not exist", c.FacturaID, c.PuntoVentaID)
		}
		if c.Estado == "" {
			bad("comprobante %d: estado is empty", c.FacturaID)
		}
		if _, err := time.Parse(fechaLayout, c.Fecha); err != nil && (c.Fecha != "" || exported(c.ComprobanteTipo)) {
			// A sale or credit note is placed in the exports' periods by its date.
			bad("comprobante %d: fecha %q must be dd/MM/yyyy HH:mm:ss", c.FacturaID, c.Fecha)
		}
	}
	uniq("comprobante", ids)
	return errors.Join(errs...)
}

// hasVariant reports whether a article has the color/size pair; an article
// without variants only has 0/0.
func hasVariant(a DataArticulo, color, talle int64) bool {
	if len(a.Variantes) == 0 {
		return color == 0 && talle == 0
	}
	for _, v := range a.Variantes {
		if v.ColorID == color && v.TalleID == talle {
			return true
		}
	}
	return false
}

// variants lists the article's variants, 0/0 for one without a curve.
func variants(a DataArticulo) []DataVariante {
	if len(a.Variantes) == 0 {
		return []DataVariante{{}}
	}
	return a.Variantes
}
