// Package sendrules holds the API's sending rules in one place, shared by the
// client side of nxbatch (submission, catalogs, webhooks, reconciliation)
// and by the sandbox that plays the API in tests:
//
//   - the table of limits of the API spec, section 8, for the production and
//     the test environment (Limit, WindowOf, KeyHold);
//   - a pacer per rate window on an injected clock (Pacer), counted the way
//     the API counts it: from the arrival of the previous request, which lies
//     somewhere between the moment it left and the moment its answer came;
//   - the business key of each kind and the key hold the API keeps on it
//     (KeyColumn, HoldOf);
//   - the resend policy: what may go again, how soon, and when a run must
//     give up because the API cannot be reached (ResendPolicy, Breaker).
//
// Nothing here sends or stores anything: the journal persists what the pacer
// decides, the client classifies answers, and the sandbox enforces the same
// table on the other side of the wire.
package sendrules

import (
	"fmt"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Env is the API environment whose limits apply: production and test are
// separate hosts with different webhook and export windows.
type Env string

// The environments of the API.
const (
	Production Env = "production"
	Test       Env = "test"
)

// ParseEnv reads an --env value; "" is production.
func ParseEnv(s string) (Env, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "production", "produccion", "producción":
		return Production, nil
	case "test", "prueba", "pruebas":
		return Test, nil
	}
	return "", fmt.Errorf("unknown API environment %q: use production or test", s)
}

// Window names one rate window of the API (spec section 8). The names are
// also the keys under which the journal persists a window's next allowed
// time: rename with care.
type Window string

// The API's rate windows.
const (
	// NoWindow: the endpoint is not rate limited (sales and invoicing are
	// limited per business key instead: see KeyHold).
	NoWindow Window = ""
	// Stock: 3 s between consecutive stock movements.
	Stock Window = "stock/movimiento"
	// Params: one 60 s window shared by every parameter endpoint (/config,
	// /config/depositos, /medios-pago, /motivos, /puntos-venta, /empleados):
	// the vendor's own client treats them as one bucket.
	Params Window = "parametros"
	// Comprobante: GET /comprobante/{id}, a parameter-like bucket of its own,
	// 10 s in production and 3 s in test (public facts, "Reading back").
	Comprobante Window = "comprobante"
	// Exports: the four paginated voucher exports (ventaitems, ventatotales,
	// compraitems, compratotales) share one short bucket, 30 s production,
	// 3 s test.
	Exports Window = "exportaciones"
	// WebhookList: GET of the webhook list, 10 s production, 3 s test.
	WebhookList Window = "webhooks-list"
	// WebhookWrite: create, edit and delete share one window, 30 s
	// production, 3 s test.
	WebhookWrite Window = "webhooks-write"
	// Masses: the article catalog (GetData, GetDataCurva) and the
	// non-paginated exports (exportar/stock, exportar/ventaitems) share
	// one 10-minute window in both environments (spec 8).
	Masses Window = "masas"
)

// Windows lists every rate window, for tables and tests.
var Windows = []Window{Stock, Params, Comprobante, Exports, WebhookList, WebhookWrite, Masses}

// Limit is the unscaled length of window w in environment e.
func (e Env) Limit(w Window) time.Duration {
	test := e == Test
	switch w {
	case Stock:
		return 3 * time.Second
	case Params:
		return 60 * time.Second
	case Comprobante:
		return pick(test, 3*time.Second, 10*time.Second)
	case Exports:
		return pick(test, 3*time.Second, 30*time.Second)
	case WebhookList:
		return pick(test, 3*time.Second, 10*time.Second)
	case WebhookWrite:
		return pick(test, 3*time.Second, 30*time.Second)
	case Masses:
		return 10 * time.Minute
	}
	return 0
}

func pick(test bool, t, p time.Duration) time.Duration {
	if test {
		return t
	}
	return p
}

// WindowOf names the rate window of a request, by method and path relative
// to the base URL (an {id} segment included). Paths outside the table have
// NoWindow. The API matches paths without regard to case (the vendor
// writes /integraciones/Terceros/GetData), and so does WindowOf.
func WindowOf(method, path string) Window {
	path = strings.ToLower(path)
	switch {
	case method == "POST" && path == nxapi.PathStock:
		return Stock
	case method == "GET" && isParamPath(path):
		return Params
	case method == "GET" && strings.HasPrefix(path, nxapi.PathComprobante):
		return Comprobante
	case method == "GET" && isExportPath(path):
		return Exports
	case method == "GET" && isMassPath(path):
		return Masses
	case path == nxapi.PathWebhooks && method == "GET":
		return WebhookList
	case path == nxapi.PathWebhooks || strings.HasPrefix(path, nxapi.PathWebhooks+"/"):
		return WebhookWrite
	}
	return NoWindow
}

// ParamPaths are the parameter endpoints that share the Params window.
var ParamPaths = []string{nxapi.PathConfig, nxapi.PathDepositos, nxapi.PathMediosPago, nxapi.PathMotivos,
	nxapi.PathPuntosVenta, nxapi.PathEmpleados}

// ExportPaths are the paginated exports that share the Exports window.
var ExportPaths = []string{nxapi.PathVentaTotales, nxapi.PathVentaItems, nxapi.PathCompraTotales, nxapi.PathCompraItems}

// MassPaths are the article catalog and the non-paginated exports, which
// share the Masses window.
var MassPaths = []string{nxapi.PathGetData, nxapi.PathGetDataCurva, nxapi.PathExportStock, nxapi.PathVentaItemsMasiva}

func isParamPath(p string) bool  { return contains(ParamPaths, p) }
func isMassPath(p string) bool   { return contains(MassPaths, p) }
func isExportPath(p string) bool { return contains(ExportPaths, p) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// KeyHold is how long the API holds a sale's ordenId or a presale's
// facturaId after a request with it arrived, even one it refused: another
// request with the key inside it is answered "La solicitud ya se esta
// procesando", and after it a resend is a second invoice (spec 4.1.3,
// 4.2.4, 8).
const KeyHold = 30 * time.Second

// HoldOf is the key hold of a kind ("venta", "facturar", "pedido",
// "cancelar", "stock"): KeyHold for sales, invoicings and orders (30 s per
// numero, which is the ordenId: spec 3, 8), none for cancellations, whose
// only guard is the order's state, and none for stock movements, which the
// API only spaces by time (the Stock window).
func HoldOf(kind string) time.Duration {
	switch kind {
	case "venta", "facturar", "pedido":
		return KeyHold
	}
	return 0
}

// PaidSuffix ends the business key of an order's paid update: the update
// of order N is journaled as "N/pagado", apart from its creation "N", so
// that each is sent exactly once; both share the API's hold on the numero.
const PaidSuffix = "/pagado"

// OrderOf is the ordenId of an order's business key, creation ("N") or
// paid update ("N/pagado"), and whether the key is the update.
func OrderOf(business string) (orden string, paid bool) {
	if o, ok := strings.CutSuffix(business, PaidSuffix); ok {
		return o, true
	}
	return business, false
}

// KeyColumn is the column whose value is a kind's business key, the one the
// API's anti-duplicate guard and the journal use: ordenId for a sale,
// facturaId for a presale or an order's cancellation, ordenId for an
// order. A stock row has no such column: its identity is
// built from the row (see the pipeline), and the movement request carrying
// it is transport only.
func KeyColumn(kind string) string {
	switch kind {
	case "venta":
		return "ordenId"
	case "facturar", "cancelar":
		return "facturaId"
	case "pedido":
		return "ordenId"
	}
	return ""
}

// CancelQuery is the query parameter of POST /Pedido/cancelar, in lower
// case as the vendor writes it.
const CancelQuery = "facturaid"

// Cancellable reports whether an order in state estado (by name) may be
// cancelled: only PENDIENTE or PAGADO (spec 3).
func Cancellable(estado string) bool { return estado == "PENDIENTE" || estado == "PAGADO" }

// Export limits (spec 8; public facts, "Reading back").
const (
	ExportMaxDays     = 30  // desde/hasta span of one export request
	ExportMaxPageSize = 500 // pageSize of the paginated exports
)

// Scale multiplies a duration by a --time-scale factor (tests run the API's
// windows faster on both sides of the wire).
func Scale(d time.Duration, factor float64) time.Duration {
	if factor <= 0 {
		return d
	}
	return time.Duration(float64(d) * factor)
}

// Webhook limits (spec 4.6, 6.1, 8): the field rules of the one webhook per
// topic, and how long its receiver has to answer an event.
const (
	WebhookURLMax         = 500
	WebhookHeadersMax     = 10
	WebhookHeaderKeyMax   = 100
	WebhookHeaderValueMax = 500
	// ReceiverDeadline: a receiver that does not answer an event within it
	// may be taken as failed, and the API does not retry.
	ReceiverDeadline = 10 * time.Second
)
