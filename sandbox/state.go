package sandbox

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// State is everything a test needs to prove what the sandbox did. The Go
// method State returns it whole; GET InspectPath answers it as JSON with
// its secrets hidden (see Redacted).
type State struct {
	Vouchers   []Voucher              `json:"vouchers"`   // every voucher created, in order
	Movements  []Movement             `json:"movements"`  // every accepted stock movement
	Stock      []StockLevel           `json:"stock"`      // sorted by article, color, size, warehouse
	Requests   map[string]map[int]int `json:"requests"`   // "POST /integraciones/terceros/venta" -> status -> count; status 0 = no answer
	Deliveries []Delivery             `json:"deliveries"` // webhook deliveries attempted, in order
	Webhooks   []nxapi.Webhook        `json:"webhooks"`   // the integration's webhooks
	Pedidos    []Pedido               `json:"pedidos"`    // the orders created by POST /Pedido, by facturaId
}

// Voucher is a FACTURA_VENTA the sandbox created: by POST /venta (OrdenID
// set) or by POST /facturar (PresaleID set; the presale keeps its facturaId).
type Voucher struct {
	FacturaID    int64         `json:"facturaId"`
	OrdenID      int64         `json:"ordenId,omitempty"`
	PresaleID    int64         `json:"presaleId,omitempty"`
	Numero       int64         `json:"numero"`
	PVNumero     int64         `json:"pVNumero"`
	PuntoVentaID int64         `json:"puntoVentaId"`
	Tipo         int           `json:"comprobanteTipo"`
	Estado       string        `json:"estado"`
	Total        nxapi.Decimal `json:"total"`
	Electronica  bool          `json:"electronica"`
	CreatedAt    time.Time     `json:"createdAt"`
}

// Movement is an accepted stock movement with its arrival time (Options.Now).
type Movement struct {
	ID      int64                 `json:"id"`
	Arrived time.Time             `json:"arrived"`
	Body    nxapi.StockMovimiento `json:"body"`
}

// StockLevel is the stock of one article variant in one warehouse.
type StockLevel struct {
	ArticuloID int64         `json:"articuloId"`
	ColorID    int64         `json:"colorId"`
	TalleID    int64         `json:"talleId"`
	DepositoID int64         `json:"depositoId"`
	Unidades   nxapi.Decimal `json:"unidades"`
}

// Delivery is one attempt to POST an articulos event to the webhook.
type Delivery struct {
	URL         string          `json:"url"`
	Status      int             `json:"status,omitempty"` // HTTP status of the receiver's answer
	Error       string          `json:"error,omitempty"`  // transport failure or timeout
	Time        time.Time       `json:"time"`
	ArticuloIDs []int64         `json:"articuloIds"`
	Body        json.RawMessage `json:"body"`
}

// State returns a copy of the sandbox's state.
func (s *Server) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{
		Vouchers:   slices.Clone(s.vouchers),
		Movements:  slices.Clone(s.movements),
		Deliveries: slices.Clone(s.deliveries),
		Requests:   make(map[string]map[int]int, len(s.requests)),
		Webhooks:   s.webhookList(),
		Pedidos:    s.pedidosLocked(),
	}
	slices.SortFunc(st.Pedidos, func(a, b Pedido) int { return cmp.Compare(a.FacturaID, b.FacturaID) })
	for k, m := range s.requests {
		st.Requests[k] = maps.Clone(m)
	}
	st.Stock = make([]StockLevel, 0, len(s.stock))
	for k, u := range s.stock {
		st.Stock = append(st.Stock, StockLevel{k.art, k.color, k.talle, k.dep, u})
	}
	slices.SortFunc(st.Stock, func(a, b StockLevel) int {
		return cmp.Or(cmp.Compare(a.ArticuloID, b.ArticuloID), cmp.Compare(a.ColorID, b.ColorID),
			cmp.Compare(a.TalleID, b.TalleID), cmp.Compare(a.DepositoID, b.DepositoID))
	})
	return st
}

// Redacted is a State fit to answer over HTTP: each webhook header value
// (the listener's shared secret travels in one) becomes RedactedValue, and
// a password in a webhook or delivery URL is masked as url.URL.Redacted
// does. The keys stay, so a test can still see which headers are set.
func (st State) Redacted() State {
	out := st
	out.Webhooks = make([]nxapi.Webhook, len(st.Webhooks))
	for i, wh := range st.Webhooks {
		wh.URL = redactURL(wh.URL)
		hs := make([]nxapi.WebhookHeader, len(wh.Headers))
		for j, h := range wh.Headers {
			hs[j] = nxapi.WebhookHeader{Key: h.Key, Value: RedactedValue}
		}
		wh.Headers = hs
		out.Webhooks[i] = wh
	}
	out.Deliveries = make([]Delivery, len(st.Deliveries))
	for i, d := range st.Deliveries {
		d.URL = redactURL(d.URL)
		out.Deliveries[i] = d
	}
	return out
}

// RedactedValue replaces a secret in the inspection endpoint's answer.
const RedactedValue = "***"

func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Not a URL the sandbox could have stored; show nothing of it.
		return RedactedValue
	}
	return u.Redacted()
}

// StockOf returns the units of one variant in one warehouse.
func (s *Server) StockOf(articuloID, colorID, talleID, depositoID int64) nxapi.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stock[stockKey{articuloID, colorID, talleID, depositoID}]
}

// Comprobante returns any voucher the sandbox holds, including other
// integrations' ones that the API would hide, for tests.
func (s *Server) Comprobante(facturaID int64) (nxapi.Comprobante, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.comprobantes[facturaID]
	if !ok {
		return nxapi.Comprobante{}, false
	}
	return c.view(), true
}
