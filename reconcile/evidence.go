package reconcile

import (
	"encoding/json"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// The rules a decision follows, as its evidence names them.
const (
	RuleConverted = "facturar.converted" // the presale is a sale now (comprobanteTipo 2): ok
	RulePending   = "facturar.pending"   // still a presale (comprobanteTipo 33) after the key hold: failed
	RuleFound     = "venta.found"        // a voucher of the export carries the ordenId: ok
	RuleAbsent    = "venta.absent"       // in no export read after SettleAfter: failed
)

// Evidence is what a decision was made on: what was read and when. It is
// written to the journal as JSON with the verdict.
type Evidence struct {
	Rule    string    `json:"rule"`
	Decided time.Time `json:"decided"`
	// LastAttempt is the latest moment the entry's last attempt could have
	// reached the API, the start of the key hold and of SettleAfter.
	LastAttempt time.Time `json:"lastAttempt"`
	KeyHold     string    `json:"keyHold,omitempty"`
	SettleAfter string    `json:"settleAfter,omitempty"`
	// Comprobante is the GET /comprobante/{id} that decided: the presale,
	// or the voucher found for a sale.
	Comprobante *ComprobanteRead `json:"comprobante,omitempty"`
	// Found is the export row of the voucher found for a sale.
	Found *ExportRow `json:"found,omitempty"`
	// Exports are the export reads the decision rests on, page by page.
	Exports []ScanRead `json:"exports,omitempty"`
	// Candidates are the export rows consistent with the sale, each with
	// the GET /comprobante that tied it to another ordenId (or to none).
	Candidates []ComprobanteRead `json:"candidates,omitempty"`
	// Filters says which consistency checks were applied to the export's
	// rows (a check the vouchers known to be ours fail is not applied).
	Filters []string `json:"filters,omitempty"`
}

// JSON is e as the journal keeps it.
func (e Evidence) JSON() string {
	b, _ := json.Marshal(e) // plain data: cannot fail
	return string(b)
}

// ComprobanteRead is one GET /comprobante/{id}: when, and what it showed.
type ComprobanteRead struct {
	Read      time.Time `json:"read"`
	FacturaID int64     `json:"facturaId"`
	// NotFound is the API's 404: not the integration's voucher, or gone.
	NotFound bool `json:"notFound,omitempty"`
	// OrdenID is the voucher's ordenId as the API wrote it (a string on
	// the vendor's wire), "" when it had none.
	OrdenID         string `json:"ordenId,omitempty"`
	ComprobanteTipo int    `json:"comprobanteTipo,omitempty"`
	// Estado is shown as read and decides nothing: its codes are not
	// public (public-facts.md, "Wire types").
	Estado   string        `json:"estado,omitempty"`
	Numero   int64         `json:"numero,omitempty"`
	PVNumero int64         `json:"pVNumero,omitempty"`
	Fecha    string        `json:"fecha,omitempty"`
	Total    nxapi.Decimal `json:"total,omitempty"`
	Error    string        `json:"error,omitempty"`
}

func comprobanteRead(at time.Time, id int64, c *nxapi.Comprobante) ComprobanteRead {
	r := ComprobanteRead{Read: at, FacturaID: id}
	if c != nil {
		r.OrdenID, r.ComprobanteTipo, r.Estado = string(c.OrdenID), c.ComprobanteTipo, string(c.Estado)
		r.Numero, r.PVNumero, r.Fecha, r.Total = c.Numero, c.PVNumero, c.Fecha, c.Totales.Total
	}
	return r
}

// ExportRow is the part of a ventatotales row a decision shows.
type ExportRow struct {
	FacturaID  int64         `json:"facturaId"`
	Fecha      string        `json:"fecha"`
	NumeroFull string        `json:"numeroFull,omitempty"`
	SucursalID int64         `json:"sucursalId"`
	AppID      *int64        `json:"appId"`
	Total      nxapi.Decimal `json:"total"`
	Page       int           `json:"page"`
}

// ScanRead is one export read: a branch, a period, and every page read.
type ScanRead struct {
	SucursalID int64      `json:"sucursalId"`
	Desde      string     `json:"desde"`
	Hasta      string     `json:"hasta"`
	Started    time.Time  `json:"started"`
	Pages      []PageRead `json:"pages"`
	Complete   bool       `json:"complete"`
	Error      string     `json:"error,omitempty"`
}

// PageRead is one page of an export read.
type PageRead struct {
	Page           int       `json:"page"`
	Read           time.Time `json:"read"`
	Items          int       `json:"items"`
	TotalRegistros int       `json:"totalRegistros"`
	TotalPaginas   int       `json:"totalPaginas"`
}
