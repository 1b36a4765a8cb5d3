// Package nxapi holds the wire types of the ERP's third-party integration API
// (../shared/api/third-party-api.md), shared by the API client, the sandbox
// and local validation. Fields the API requires but a spreadsheet may leave
// out are pointers, so that "missing" and "zero" stay different things.
package nxapi

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Base path of every endpoint.
const Base = "/integraciones/terceros"

// Endpoint paths, relative to the base URL.
const (
	PathVenta       = Base + "/venta"
	PathFacturar    = Base + "/facturar"
	PathMediosPago  = Base + "/medios-pago"
	PathStock       = Base + "/stock/movimiento"
	PathMotivos     = Base + "/motivos"
	PathWebhooks    = Base + "/config/webhooks"
	PathConfig      = Base + "/config"
	PathDepositos   = Base + "/config/depositos"
	PathComprobante = Base + "/comprobante/" // + id
	PathPuntosVenta = Base + "/puntos-venta"
	PathEmpleados   = Base + "/empleados"
	// Orders: the vendor's client writes the path with a capital, and the
	// API matches paths without regard to case (public-facts.md, "Orders").
	PathPedido         = Base + "/Pedido"
	PathPedidoCancelar = Base + "/Pedido/cancelar" // ?facturaid=N, no body
	// The paginated voucher exports, which share one window.
	PathVentaTotales  = Base + "/exportar/ventatotales/paginado"
	PathVentaItems    = Base + "/exportar/ventaitems/paginado"
	PathCompraTotales = Base + "/exportar/compratotales/paginado"
	PathCompraItems   = Base + "/exportar/compraitems/paginado"
	// The article catalog: grouped (GetData) and one record per variant
	// (GetDataCurva); the vendor writes them with capitals, and the API
	// matches paths without regard to case.
	PathGetData      = Base + "/GetData"
	PathGetDataCurva = Base + "/GetDataCurva"
	// The non-paginated exports that share the masses window with the
	// article catalog.
	PathExportStock      = Base + "/exportar/stock"
	PathVentaItemsMasiva = Base + "/exportar/ventaitems"
)

// TokenHeader carries the integration token on every request.
const TokenHeader = "X-NX-TOKEN"

// API messages quoted by clients and produced by the sandbox (API spec 4.x, 7).
const (
	MsgVentaInvalida     = "Los datos de venta son invalidos"
	MsgMedioPagoReq      = "El medio de pago es requerido"
	MsgEnProceso         = "La solicitud ya se esta procesando"
	MsgMedioNoCompatible = "El medio de pago no es compatible"
	MsgFacturaIDReq      = "El facturaId es requerido"
	MsgPuntoVentaReq     = "El puntoVentaId es requerido"
	MsgMotivoReq         = "El motivoId es obligatorio para movimientos de terceros"
	MsgStockIncorrecto   = "Los datos de stock recibidos son incorrectos"
	MsgTotales           = "Los totales no coinciden"
	// MsgEsperarFmt is the rate-window refusal; %d is the seconds to wait.
	MsgEsperarFmt = "Debe esperar %d segundos entre cada solicitud"
)

// TipoMedio is the payment type enum.
type TipoMedio int

// Payment types (API spec 2.1).
const (
	Efectivo        TipoMedio = 1
	TarjetaMedio    TipoMedio = 5
	CuentaCorriente TipoMedio = 6
	DepositoBanco   TipoMedio = 9
	Virtual         TipoMedio = 11
)

// TipoMedioNames maps every payment type to its API name.
var TipoMedioNames = map[TipoMedio]string{
	Efectivo: "EFECTIVO", TarjetaMedio: "TARJETA", CuentaCorriente: "CUENTA_CORRIENTE",
	DepositoBanco: "DEPOSITO_BANCO", Virtual: "VIRTUAL",
}

func (t TipoMedio) String() string {
	if n, ok := TipoMedioNames[t]; ok {
		return n
	}
	return strconv.Itoa(int(t))
}

// TipoStock is the stock transaction type enum (TipoStockTransaccion).
type TipoStock int

// Stock transaction types (API spec 2.3).
const (
	IngresoManual TipoStock = 4
	EgresoManual  TipoStock = 5
	IngresoStock  TipoStock = 6
	EgresoStock   TipoStock = 7
	Transferencia TipoStock = 10
)

// TipoStockNames maps every stock transaction type to its API name.
var TipoStockNames = map[TipoStock]string{
	IngresoManual: "INGRESO_MANUAL", EgresoManual: "EGRESO_MANUAL",
	IngresoStock: "INGRESO_STOCK", EgresoStock: "EGRESO_STOCK", Transferencia: "TRANSFERENCIA",
}

func (t TipoStock) String() string {
	if n, ok := TipoStockNames[t]; ok {
		return n
	}
	return strconv.Itoa(int(t))
}

// CondicionNames maps the ERP's CondicionIva codes to their names
// (public-facts.md); they are the ERP's codes, not the tax authority's.
var CondicionNames = map[int]string{
	0: "SIN_CATEGORIA", 1: "CONSUMIDOR_FINAL", 2: "RESPONSABLE_INSCRIPTO",
	3: "MONOTRIBUTO", 4: "EXENTO", 5: "RESPONSABLE_NO_INSCRIPTO",
}

// Usuario is UsuarioTerceros.
type Usuario struct {
	Nombre    string `json:"nombre,omitempty"`
	Email     string `json:"email,omitempty"`
	DNI       string `json:"dni,omitempty"`
	CUIT      string `json:"cuit,omitempty"`
	Telefono  string `json:"telefono,omitempty"`
	Condicion *int   `json:"condicion,omitempty"`
}

// Direccion is DireccionTerceros.
type Direccion struct {
	Provincia    string `json:"provincia,omitempty"`
	Localidad    string `json:"localidad,omitempty"`
	Direccion    string `json:"direccion,omitempty"`
	CodigoPostal string `json:"codigoPostal,omitempty"`
}

// Producto is a line item (ArticuloExterno).
type Producto struct {
	ArticuloID int64    `json:"articuloId"`
	Precio     *Decimal `json:"precio,omitempty"`
	Cantidad   *Decimal `json:"cantidad,omitempty"`
	TalleID    int64    `json:"talleId,omitempty"`
	ColorID    int64    `json:"colorId,omitempty"`
}

// MedioPago is MedioPagoTerceros.
type MedioPago struct {
	Tipo             TipoMedio `json:"tipo"`
	CuentaBancariaID int64     `json:"cuentaBancariaId,omitempty"`
	TarjetaID        int64     `json:"tarjetaId,omitempty"`
	ExternalID       string    `json:"externalId,omitempty"`
}

// Venta is VentaTerceros, the body of POST /venta.
type Venta struct {
	OrdenID              int64      `json:"ordenId"`
	Numero               int64      `json:"numero"`
	Detalle              string     `json:"detalle,omitempty"`
	ListaPrecioID        int64      `json:"listaPrecioId,omitempty"`
	PuntoVentaID         int64      `json:"puntoVentaId,omitempty"`
	EntidadID            int64      `json:"entidadId,omitempty"`
	EmpleadoID           int64      `json:"empleadoId,omitempty"`
	Usuario              *Usuario   `json:"usuario,omitempty"`
	DireccionEnvio       *Direccion `json:"direccionEnvio,omitempty"`
	DireccionFacturacion *Direccion `json:"direccionFacturacion,omitempty"`
	Productos            []Producto `json:"productos"`
	Subtotal             *Decimal   `json:"subtotal,omitempty"`
	Descuento            *Decimal   `json:"descuento,omitempty"`
	Recargo              *Decimal   `json:"recargo,omitempty"`
	Envio                *Decimal   `json:"envio,omitempty"`
	Total                *Decimal   `json:"total,omitempty"`
	MedioPago            *MedioPago `json:"medioPago,omitempty"`
}

// Pedido is PedidoTerceros, the body of POST /Pedido (API spec 2.1;
// public-facts.md, "Orders"): a sale's fields without the point of sale,
// numero equal to ordenId, and optionally pagado with its medioPago, which
// on an order already created is the update that marks it paid.
type Pedido struct {
	OrdenID              int64      `json:"ordenId"`
	Numero               int64      `json:"numero"`
	Detalle              string     `json:"detalle,omitempty"`
	ListaPrecioID        int64      `json:"listaPrecioId,omitempty"`
	EntidadID            int64      `json:"entidadId,omitempty"`
	EmpleadoID           int64      `json:"empleadoId,omitempty"`
	Usuario              *Usuario   `json:"usuario,omitempty"`
	DireccionEnvio       *Direccion `json:"direccionEnvio,omitempty"`
	DireccionFacturacion *Direccion `json:"direccionFacturacion,omitempty"`
	Productos            []Producto `json:"productos"`
	Subtotal             *Decimal   `json:"subtotal,omitempty"`
	Descuento            *Decimal   `json:"descuento,omitempty"`
	Recargo              *Decimal   `json:"recargo,omitempty"`
	Envio                *Decimal   `json:"envio,omitempty"`
	Total                *Decimal   `json:"total,omitempty"`
	Pagado               bool       `json:"pagado,omitempty"`
	MedioPago            *MedioPago `json:"medioPago,omitempty"`
}

// Pedido and Venta declare the fields they share each on its own (not
// embedded), so that both keep their wire order and their literals;
// TestPedidoHasTheSaleFields ties the two lists, and Venta and Pedido
// below are the only copies between them.

// Venta is the order's body as a sale's, for the rules both share.
func (p *Pedido) Venta() *Venta {
	return &Venta{OrdenID: p.OrdenID, Numero: p.Numero, Detalle: p.Detalle, ListaPrecioID: p.ListaPrecioID,
		EntidadID: p.EntidadID, EmpleadoID: p.EmpleadoID, Usuario: p.Usuario, DireccionEnvio: p.DireccionEnvio,
		DireccionFacturacion: p.DireccionFacturacion, Productos: p.Productos, Subtotal: p.Subtotal,
		Descuento: p.Descuento, Recargo: p.Recargo, Envio: p.Envio, Total: p.Total, MedioPago: p.MedioPago}
}

// Pedido is the sale's body as an order's: every field but the point of
// sale, which an order has not; Pagado is left false.
func (v *Venta) Pedido() *Pedido {
	return &Pedido{OrdenID: v.OrdenID, Numero: v.Numero, Detalle: v.Detalle, ListaPrecioID: v.ListaPrecioID,
		EntidadID: v.EntidadID, EmpleadoID: v.EmpleadoID, Usuario: v.Usuario, DireccionEnvio: v.DireccionEnvio,
		DireccionFacturacion: v.DireccionFacturacion, Productos: v.Productos, Subtotal: v.Subtotal,
		Descuento: v.Descuento, Recargo: v.Recargo, Envio: v.Envio, Total: v.Total, MedioPago: v.MedioPago}
}

// Facturar is FacturarTerceros, the body of POST /facturar.
type Facturar struct {
	FacturaID    int64      `json:"facturaId"`
	PuntoVentaID int64      `json:"puntoVentaId"`
	Electronica  *bool      `json:"electronica,omitempty"`
	MedioPago    *MedioPago `json:"medioPago,omitempty"`
}

// FacturaResult is ajFacturaResult, the answer of /venta and /facturar, with
// the full field list of public-facts.md. Text fields are tolerant of the
// JSON type the ERP happens to use.
type FacturaResult struct {
	FacturaID ID   `json:"facturaId"`
	Numero    ID   `json:"numero"`
	PVNumero  ID   `json:"pVNumero"`
	Sref      Text `json:"sref,omitempty"`
	// Estado is opaque: the vendor sends an integer whose codes are not
	// public, so nothing is decided from it.
	Estado         Code            `json:"estado,omitempty"`
	Datos          map[string]Text `json:"datos,omitempty"`
	Electronica    bool            `json:"electronica,omitempty"`
	CAE            Text            `json:"cae,omitempty"`
	CAEVencimiento Text            `json:"caevencimiento,omitempty"`
	Resultado      Text            `json:"resultado,omitempty"`
	Observaciones  Text            `json:"observaciones,omitempty"`
	ErrorFE        Text            `json:"errorFE,omitempty"`
	Saldo          *Decimal        `json:"saldo,omitempty"`
	Errores        bool            `json:"errores"`
}

// UnmarshalJSON accepts both spellings of the point-of-sale number: the wire
// writes pVNumero, the spec pvNumero (engineering-notes.md).
func (r *FacturaResult) UnmarshalJSON(b []byte) error {
	type plain FacturaResult
	var aux struct {
		plain
		PvNumeroLower *ID `json:"pvNumero"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = FacturaResult(aux.plain)
	if r.PVNumero == 0 && aux.PvNumeroLower != nil {
		r.PVNumero = *aux.PvNumeroLower
	}
	return nil
}

// ErrorText returns the failure reason of a result: datos.error, else
// observaciones, else errorFE.
func (r *FacturaResult) ErrorText() string {
	if e := r.Datos["error"]; e != "" {
		return string(e)
	}
	if r.Observaciones != "" {
		return string(r.Observaciones)
	}
	return string(r.ErrorFE)
}

// StockArticulo is one article of a stock movement.
type StockArticulo struct {
	ArticuloID int64    `json:"articuloId"`
	Cantidad   *Decimal `json:"cantidad,omitempty"`
	ColorID    int64    `json:"colorId,omitempty"`
	TalleID    int64    `json:"talleId,omitempty"`
	Precio     *Decimal `json:"precio,omitempty"`
	Detalle    string   `json:"detalle,omitempty"`
	Sref       string   `json:"sref,omitempty"`
}

// StockMovimiento is the body of POST /stock/movimiento.
type StockMovimiento struct {
	DepositoID    int64           `json:"depositoId"`
	MotivoID      int64           `json:"motivoId"`
	Tipo          TipoStock       `json:"tipo"`
	Fecha         string          `json:"fecha,omitempty"`
	Detalle       string          `json:"detalle,omitempty"`
	Sref          string          `json:"sref,omitempty"`
	DepositoDosID int64           `json:"depositoDosId,omitempty"`
	SucursalDosID int64           `json:"sucursalDosId,omitempty"`
	Articulos     []StockArticulo `json:"articulos"`
}

// NxResultado tipo values.
const (
	NxError      = 0
	NxOK         = 1
	NxValidacion = 2
)

// NxResultado is the answer of a stock movement.
type NxResultado struct {
	Tipo     int               `json:"tipo"`
	ID       ID                `json:"id,omitempty"`
	Data     json.RawMessage   `json:"data,omitempty"`
	Valores  []json.RawMessage `json:"valores,omitempty"`
	Mensajes []Text            `json:"mensajes,omitempty"`
	Errores  []Text            `json:"errores,omitempty"`
}

// UnmarshalJSON takes tipo as a number or a numeric string; any other type
// is a type error, never an ERROR (0) that would turn an unreadable answer
// into a rejection.
func (r *NxResultado) UnmarshalJSON(b []byte) error {
	type plain NxResultado
	var aux struct {
		plain
		Tipo ID `json:"tipo"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*r = NxResultado(aux.plain)
	r.Tipo = int(aux.Tipo)
	return nil
}

// WMedios says which payment types the tenant has enabled.
type WMedios struct {
	Efectivo        bool `json:"efectivo"`
	CuentaCorriente bool `json:"cuentaCorriente"`
	Tarjeta         bool `json:"tarjeta"`
	Cheque          bool `json:"cheque"`
	TarjetaPropia   bool `json:"tarjetaPropia"`
	ChequePropio    bool `json:"chequePropio"`
	ChequeCartera   bool `json:"chequeCartera"`
	Deposito        bool `json:"deposito"`
	Extraccion      bool `json:"extraccion"`
	Transferencia   bool `json:"transferencia"`
	Virtual         bool `json:"virtual"`
}

// Enabled reports whether payment type t is enabled in m.
func (m WMedios) Enabled(t TipoMedio) bool {
	switch t {
	case Efectivo:
		return m.Efectivo
	case TarjetaMedio:
		return m.Tarjeta
	case CuentaCorriente:
		return m.CuentaCorriente
	case DepositoBanco:
		return m.Deposito || m.Transferencia
	case Virtual:
		return m.Virtual
	}
	return false
}

// Tarjeta is TarjetaDTO.
type Tarjeta struct {
	TarjetaID        int64  `json:"tarjetaId"`
	Nombre           string `json:"nombre"`
	Tipo             Text   `json:"tipo,omitempty"`
	BancoID          int64  `json:"bancoId,omitempty"`
	CuentaBancariaID int64  `json:"cuentaBancariaId,omitempty"`
	MonedaID         int64  `json:"monedaId,omitempty"`
}

// TarjetaRegla is TarjetaReglaDTO.
type TarjetaRegla struct {
	TarjetaReglaID int64    `json:"tarjetaReglaId"`
	TarjetaID      int64    `json:"tarjetaId"`
	Cuotas         int      `json:"cuotas"`
	Porcentaje     *Decimal `json:"porcentaje,omitempty"`
	Recargo        *Decimal `json:"recargo,omitempty"`
	Activo         bool     `json:"activo"`
}

// CuentaBancaria is CuentaBancariaDTO.
type CuentaBancaria struct {
	CuentaBancariaID int64  `json:"cuentaBancariaId"`
	Descripcion      string `json:"descripcion"`
	Numero           string `json:"numero,omitempty"`
	BancoID          int64  `json:"bancoId,omitempty"`
	Alias            string `json:"alias,omitempty"`
	CBU              string `json:"cbu,omitempty"`
}

// Banco is BancoDTO.
type Banco struct {
	BancoID int64  `json:"bancoId"`
	Nombre  string `json:"nombre"`
}

// MediosPagoConfig is MediosPagoConfigDTO, the answer of GET /medios-pago.
type MediosPagoConfig struct {
	Medios                       WMedios           `json:"medios"`
	Tarjetas                     []Tarjeta         `json:"tarjetas"`
	TarjetasReglas               []TarjetaRegla    `json:"tarjetasReglas"`
	CuentasBancarias             []CuentaBancaria  `json:"cuentasBancarias"`
	Bancos                       []Banco           `json:"bancos"`
	TarjetaCreditoReglas         bool              `json:"tarjetaCreditoReglas"`
	BotonesRapidos               []json.RawMessage `json:"botonesRapidos"`
	RecargoDigitalHabilitado     bool              `json:"recargoDigitalHabilitado"`
	FacturaElectronicaAutomatica bool              `json:"facturaElectronicaAutomatica"`
	RecargosTipoMedio            []json.RawMessage `json:"recargosTipoMedio"`
}

// Motivo is a stock movement reason (GET /motivos).
type Motivo struct {
	MotivoID   int64  `json:"motivoId"`
	Nombre     string `json:"nombre"`
	Creado     string `json:"creado,omitempty"`
	Modificado string `json:"modificado,omitempty"`
	Eliminado  bool   `json:"eliminado"`
	Modulos    []int  `json:"modulos,omitempty"`
}

// WebhookHeader is one header the ERP sends with each event.
type WebhookHeader struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Webhook is a configured webhook.
type Webhook struct {
	ID      int64           `json:"id"`
	URL     string          `json:"url"`
	Topic   string          `json:"topic"`
	Activo  bool            `json:"activo"`
	Extra   *string         `json:"extra"`
	Headers []WebhookHeader `json:"headers"`
}

// WebhookGuardar is the body of webhook create and edit.
type WebhookGuardar struct {
	URL     string          `json:"url"`
	Topic   string          `json:"topic"`
	Activo  *bool           `json:"activo,omitempty"`
	Extra   *string         `json:"extra"`
	Headers []WebhookHeader `json:"headers,omitempty"`
}

// TopicArticulos is the only webhook topic.
const TopicArticulos = "articulos"

// Webhook extra values selecting the event payload format.
const (
	ExtraObjeto = "objeto" // grouped Articulo
	ExtraCurva  = "curva"  // flat ArticuloConCurva[] (also when extra is null)
)

// Deposito is a warehouse as GET /config lists it.
type Deposito struct {
	DepositoID     int64  `json:"depositoId"`
	Nombre         string `json:"nombre"`
	SucursalID     int64  `json:"sucursalId"`
	SucursalNombre string `json:"sucursalNombre,omitempty"`
	Default        bool   `json:"default"`
}

// Sucursal is a branch enabled for the integration.
type Sucursal struct {
	SucursalID int64  `json:"sucursalId"`
	Nombre     string `json:"nombre"`
}

// Config is the answer of GET /config.
type Config struct {
	AppID                 int64      `json:"appId"`
	Nombre                string     `json:"nombre"`
	MultiDeposito         bool       `json:"multiDeposito"`
	FlujoDeposito         int        `json:"flujoDeposito"`
	Depositos             []Deposito `json:"depositos"`
	SucursalesExportacion []Sucursal `json:"sucursalesExportacion"`
	PuntoVentaID          int64      `json:"puntoVentaId"`
	ListaPrecioID         int64      `json:"listaPrecioId"`
}

// FlujoMultiDeposito is the flujoDeposito value of multi-warehouse mode.
const FlujoMultiDeposito = 3

// Totales are a voucher's totals.
type Totales struct {
	SubTotal  Decimal `json:"subTotal"`
	Descuento Decimal `json:"descuento"`
	Recargo   Decimal `json:"recargo"`
	Envio     Decimal `json:"envio"`
	Total     Decimal `json:"total"`
	Pagado    Decimal `json:"pagado"`
	Saldo     Decimal `json:"saldo"`
}

// ComprobanteItem is one line of a voucher.
type ComprobanteItem struct {
	ArticuloID  int64   `json:"articuloId"`
	Descripcion string  `json:"descripcion"`
	TalleID     int64   `json:"talleId"`
	ColorID     int64   `json:"colorId"`
	Cantidad    Decimal `json:"cantidad"`
	Precio      Decimal `json:"precio"`
	Subtotal    Decimal `json:"subtotal"`
}

// Comprobante types.
const (
	ComprobanteVenta       = 2
	ComprobanteNotaCredito = 4
	ComprobantePreventa    = 33
)

// Comprobante is the answer of GET /comprobante/{id}. On the vendor's wire
// comprobanteTipo and estado are integers and ordenId a string or null
// (public-facts.md, "Wire types").
type Comprobante struct {
	FacturaID       int64    `json:"facturaId"`
	OrdenID         OrdenRef `json:"ordenId"`
	ComprobanteTipo int      `json:"comprobanteTipo"`
	// Estado is opaque (ComprobanteEstado, whose codes are not public):
	// shown, never decided on; comprobanteTipo tells a sale from a presale.
	Estado       Code              `json:"estado"`
	Numero       int64             `json:"numero"`
	PVNumero     int64             `json:"pVNumero"`
	Fecha        string            `json:"fecha"`
	SucursalID   int64             `json:"sucursalId"`
	PuntoVentaID int64             `json:"puntoVentaId"`
	EmpleadoID   int64             `json:"empleadoId"`
	Sref         string            `json:"sref"`
	Totales      Totales           `json:"totales"`
	Items        []ComprobanteItem `json:"items"`
}

// UnmarshalJSON takes the numbers as numbers or numeric strings (null is
// 0) and the texts as Text does; a field of another type is a type error
// naming it.
func (c *Comprobante) UnmarshalJSON(b []byte) error {
	type plain Comprobante
	var aux struct {
		plain
		FacturaID       ID   `json:"facturaId"`
		ComprobanteTipo ID   `json:"comprobanteTipo"`
		Numero          ID   `json:"numero"`
		PVNumero        ID   `json:"pVNumero"`
		PvNumeroLower   *ID  `json:"pvNumero"`
		Fecha           Text `json:"fecha"`
		SucursalID      ID   `json:"sucursalId"`
		PuntoVentaID    ID   `json:"puntoVentaId"`
		EmpleadoID      ID   `json:"empleadoId"`
		Sref            Text `json:"sref"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*c = Comprobante(aux.plain)
	c.FacturaID, c.ComprobanteTipo = int64(aux.FacturaID), int(aux.ComprobanteTipo)
	c.Numero, c.PVNumero = int64(aux.Numero), int64(aux.PVNumero)
	if c.PVNumero == 0 && aux.PvNumeroLower != nil {
		c.PVNumero = int64(*aux.PvNumeroLower)
	}
	c.Fecha, c.Sref = string(aux.Fecha), string(aux.Sref)
	c.SucursalID, c.PuntoVentaID, c.EmpleadoID = int64(aux.SucursalID), int64(aux.PuntoVentaID), int64(aux.EmpleadoID)
	return nil
}

// StockDeposito is stock in one warehouse, in multi-warehouse events.
type StockDeposito struct {
	DepositoID int64   `json:"depositoId"`
	Unidades   Decimal `json:"unidades"`
}

// TalleColor says which variant dimensions an article has.
const (
	SinCurva      = 0 // no variants
	SoloTalles    = 1 // sizes
	SoloColores   = 2 // colours
	TallesColores = 3 // sizes and colours
)

// ArticuloConCurva is the flat record, one per variant: GetDataCurva's
// answer and the webhook's "curva" events.
type ArticuloConCurva struct {
	ArticuloID     int64           `json:"articuloId"`
	Codigo         string          `json:"codigo,omitempty"`
	Descripcion    string          `json:"descripcion,omitempty"`
	DescripcionWeb string          `json:"descripcionWeb,omitempty"`
	Nombre         string          `json:"nombre,omitempty"`
	TalleColor     int             `json:"talleColor,omitempty"`
	Precio1        *Decimal        `json:"precio1,omitempty"`
	Precio2        *Decimal        `json:"precio2,omitempty"`
	Precio3        *Decimal        `json:"precio3,omitempty"`
	Precio4        *Decimal        `json:"precio4,omitempty"`
	Precio5        *Decimal        `json:"precio5,omitempty"`
	ColorID        int64           `json:"colorId,omitempty"`
	TalleID        int64           `json:"talleId,omitempty"`
	ColorNombre    string          `json:"colorNombre,omitempty"`
	ColorCodigo    string          `json:"colorCodigo,omitempty"`
	ColorHex       string          `json:"colorHex,omitempty"`
	TalleNombre    string          `json:"talleNombre,omitempty"`
	TalleCodigo    string          `json:"talleCodigo,omitempty"`
	CodigoBarras   string          `json:"codigoBarras,omitempty"`
	Unidades       Decimal         `json:"unidades"`
	Eliminado      bool            `json:"eliminado,omitempty"`
	StockDepositos []StockDeposito `json:"stockDepositos,omitempty"`
}

// Curva is one variant inside a grouped Articulo.
type Curva struct {
	ArticuloID     int64           `json:"articuloId"`
	ColorID        int64           `json:"colorId,omitempty"`
	TalleID        int64           `json:"talleId,omitempty"`
	ColorNombre    string          `json:"colorNombre,omitempty"`
	ColorCodigo    string          `json:"colorCodigo,omitempty"`
	ColorHex       string          `json:"colorHex,omitempty"`
	TalleNombre    string          `json:"talleNombre,omitempty"`
	TalleCodigo    string          `json:"talleCodigo,omitempty"`
	CodigoBarras   string          `json:"codigoBarras,omitempty"`
	Unidades       Decimal         `json:"unidades"`
	StockDepositos []StockDeposito `json:"stockDepositos,omitempty"`
}

// Articulo is the grouped record: GetData's answer and the webhook's
// "objeto" events.
type Articulo struct {
	ArticuloID     int64    `json:"articuloId"`
	Codigo         string   `json:"codigo,omitempty"`
	Descripcion    string   `json:"descripcion,omitempty"`
	DescripcionWeb string   `json:"descripcionWeb,omitempty"`
	Nombre         string   `json:"nombre,omitempty"`
	TalleColor     int      `json:"talleColor,omitempty"`
	Precio1        *Decimal `json:"precio1,omitempty"`
	Precio2        *Decimal `json:"precio2,omitempty"`
	Precio3        *Decimal `json:"precio3,omitempty"`
	Precio4        *Decimal `json:"precio4,omitempty"`
	Precio5        *Decimal `json:"precio5,omitempty"`
	StockTotal     Decimal  `json:"stockTotal"`
	Imagen         string   `json:"imagen,omitempty"`
	Curva          []Curva  `json:"curva"`
	Tags           []Text   `json:"tags,omitempty"`
	Eliminado      bool     `json:"eliminado,omitempty"`
}

// ID is a numeric id that tolerates null, a float form ("12.0") and a
// numeric string, because a failed ERP result may carry facturaId null and
// the vendor's types allow a number where a numeric string may come. A
// value that is not a whole number (an object, "abc", 12.5) is a type
// error: truncating it would name another voucher.
type ID int64

// UnmarshalJSON implements json.Unmarshaler.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" || len(b) == 0 {
		*id = 0
		return nil
	}
	raw := b
	switch b[0] {
	case '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*id = 0
			return nil
		}
		b = []byte(s)
	case '{', '[', 't', 'f':
		return typeError(raw, ID(0))
	}
	d, err := ParseDecimal(string(b))
	if err != nil || !d.IsInteger() {
		return typeError(raw, ID(0))
	}
	*id = ID(d.Int())
	return nil
}

// Text is a string that also accepts a JSON number, boolean or null, for
// answer fields whose JSON type the spec does not pin down.
type Text string

// UnmarshalJSON implements json.Unmarshaler.
func (t *Text) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*t = ""
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = Text(s)
		return nil
	}
	*t = Text(b)
	return nil
}

// ExportPage is the answer of the paginated exports (GET
// /exportar/ventatotales/paginado and its siblings; public facts, "Reading
// back what was created"). Pages count from 1.
type ExportPage[T any] struct {
	Items          []T `json:"items"`
	TotalRegistros int `json:"totalRegistros"`
	TotalPaginas   int `json:"totalPaginas"`
	PaginaActual   int `json:"paginaActual"`
	PageSize       int `json:"pageSize"`
}

// VentaTotal is an item of GET /exportar/ventatotales/paginado: one voucher
// (a sale, comprobanteTipo 2, or a credit note, 4) with its totals. It
// carries no ordenId: a voucher found here is tied to an order only through
// GET /comprobante/{facturaId}. Text fields are Text because the samples
// show nulls where the ERP has nothing.
type VentaTotal struct {
	FacturaID       ID  `json:"facturaId"`
	ComprobanteTipo int `json:"comprobanteTipo"`
	// TipoDocumento is the voucher's letter as an integer on the vendor's
	// wire (A=1, B=2, C=3, E=4, R=5, X=6, M=7), a name in older answers.
	TipoDocumento Code  `json:"tipoDocumento"`
	Fecha         Text  `json:"fecha"`      // dd/MM/yyyy HH:mm:ss, UTC
	FechaText     Text  `json:"fechaText"`  // yyyy-MM-dd
	HoraText      Text  `json:"horaText"`   // HH:mm:ss
	NumeroFull    Text  `json:"numeroFull"` // 0001-00000101: point of sale and number
	SucursalID    int64 `json:"sucursalId"`
	Sucursal      Text  `json:"sucursal"`
	// AppID is the integration's appId (GET /config) on the vouchers it
	// created, null on vouchers made in the ERP (public facts: an
	// inference from samples that only show nulls).
	AppID          *int64      `json:"appId"`
	Cliente        Text        `json:"cliente"`
	Vendedor       Text        `json:"vendedor"`
	Email          Text        `json:"email"`
	DNI            Text        `json:"dni"`
	Detalle        Text        `json:"detalle"`
	SubTotal       Decimal     `json:"subTotal"`
	Total          Decimal     `json:"total"`
	Descuento      Decimal     `json:"descuento"`
	Recargo        Decimal     `json:"recargo"`
	IVA            Decimal     `json:"iva"`
	ImpuestosTotal Decimal     `json:"impuestosTotal"`
	Cantidad       Decimal     `json:"cantidad"`
	FormasPagoText Text        `json:"formasPagoText"`
	FormasPago     []FormaPago `json:"formasPago"` // with incluirMediosPago=true
}

// UnmarshalJSON takes comprobanteTipo, sucursalId and appId as numbers or
// numeric strings; a field of another type is a type error naming it, so
// that an export page is never read with a sale taken for something else.
func (v *VentaTotal) UnmarshalJSON(b []byte) error {
	type plain VentaTotal
	var aux struct {
		plain
		ComprobanteTipo ID  `json:"comprobanteTipo"`
		SucursalID      ID  `json:"sucursalId"`
		AppID           *ID `json:"appId"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*v = VentaTotal(aux.plain)
	v.ComprobanteTipo, v.SucursalID = int(aux.ComprobanteTipo), int64(aux.SucursalID)
	v.AppID = nil
	if aux.AppID != nil {
		app := int64(*aux.AppID)
		v.AppID = &app
	}
	return nil
}

// FormaPago is one payment of a voucher in an export.
type FormaPago struct {
	FacturaID ID        `json:"facturaId"`
	Tipo      TipoMedio `json:"tipo"`
	TipoText  Text      `json:"tipoText"`
	Detalle   Text      `json:"detalle"`
	Importe   Decimal   `json:"importe"`
}
