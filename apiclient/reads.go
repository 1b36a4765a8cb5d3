package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// MediosPago reads GET /medios-pago, the payment configuration and catalogs.
func (c *Client) MediosPago(ctx context.Context) (*nxapi.MediosPagoConfig, error) {
	var v nxapi.MediosPagoConfig
	if err := c.call(ctx, http.MethodGet, nxapi.PathMediosPago, nil, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Motivos reads GET /motivos, the stock movement reasons.
func (c *Client) Motivos(ctx context.Context) ([]nxapi.Motivo, error) {
	var v []nxapi.Motivo
	if err := c.call(ctx, http.MethodGet, nxapi.PathMotivos, nil, &v); err != nil {
		return nil, err
	}
	return nonNil(v), nil
}

// Config reads GET /config.
func (c *Client) Config(ctx context.Context) (*nxapi.Config, error) {
	var v nxapi.Config
	if err := c.call(ctx, http.MethodGet, nxapi.PathConfig, nil, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Depositos reads GET /config/depositos, the warehouses of the integration.
func (c *Client) Depositos(ctx context.Context) ([]nxapi.Deposito, error) {
	var v []nxapi.Deposito
	if err := c.call(ctx, http.MethodGet, nxapi.PathDepositos, nil, &v); err != nil {
		return nil, err
	}
	return nonNil(v), nil
}

// Comprobante reads GET /comprobante/{id}. A voucher that does not exist or
// is not this integration's gives an error matching ErrNotFound.
func (c *Client) Comprobante(ctx context.Context, id int64) (*nxapi.Comprobante, error) {
	var v nxapi.Comprobante
	if err := c.call(ctx, http.MethodGet, nxapi.PathComprobante+strconv.FormatInt(id, 10), nil, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// ExportQuery is one page of a paginated voucher export (public facts,
// "Reading back what was created"): a branch, a period of whole days in UTC
// (the time zone of the API's dates), and a page.
type ExportQuery struct {
	// SucursalID is the branch; it must be one the integration has enabled
	// (GET /config sucursalesExportacion), else the API answers 403.
	SucursalID int64
	// Desde and Hasta are the first and last day of the period, both
	// included; only their UTC date counts. At most sendrules.ExportMaxDays
	// days.
	Desde, Hasta time.Time
	// Page counts from 1; PageSize is at most sendrules.ExportMaxPageSize.
	Page, PageSize int
}

// exportDate is how a period's day is written in the query: ISO
// yyyy-MM-dd, which no server can misread as month-first the way
// dd/MM/yyyy can be.
const exportDate = "2006-01-02"

// check refuses, before anything is sent, a query the API would refuse:
// an export request costs the shared 30 s window even when refused.
func (q ExportQuery) check() error {
	from, to := day(q.Desde), day(q.Hasta)
	switch {
	case q.SucursalID <= 0:
		return fmt.Errorf("export query: sucursalId %d must be positive", q.SucursalID)
	case q.Desde.IsZero() || q.Hasta.IsZero():
		return fmt.Errorf("export query: the period needs desde and hasta")
	case to.Before(from):
		return fmt.Errorf("export query: hasta %s is before desde %s", to.Format(exportDate), from.Format(exportDate))
	case to.Sub(from) >= sendrules.ExportMaxDays*24*time.Hour:
		return fmt.Errorf("export query: %s to %s is more than %d days", from.Format(exportDate), to.Format(exportDate), sendrules.ExportMaxDays)
	case q.Page < 1:
		return fmt.Errorf("export query: page %d: pages count from 1", q.Page)
	case q.PageSize < 1 || q.PageSize > sendrules.ExportMaxPageSize:
		return fmt.Errorf("export query: pageSize %d must be 1 to %d", q.PageSize, sendrules.ExportMaxPageSize)
	}
	return nil
}

// day is t's date in UTC, at midnight.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// path is the request path of q on export endpoint base.
func (q ExportQuery) path(base string) string {
	v := url.Values{}
	v.Set("sucursalId", strconv.FormatInt(q.SucursalID, 10))
	v.Set("desde", day(q.Desde).Format(exportDate))
	v.Set("hasta", day(q.Hasta).Format(exportDate))
	v.Set("page", strconv.Itoa(q.Page))
	v.Set("pageSize", strconv.Itoa(q.PageSize))
	return base + "?" + v.Encode()
}

// VentaTotales reads one page of GET /exportar/ventatotales/paginado: the
// sales and credit notes of a branch in a period, with their totals. It
// shares the exports' window with the other paginated exports; pacing is
// the caller's. A query the API would refuse is an error before anything
// is sent.
func (c *Client) VentaTotales(ctx context.Context, q ExportQuery) (*nxapi.ExportPage[nxapi.VentaTotal], error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	var v nxapi.ExportPage[nxapi.VentaTotal]
	if err := c.call(ctx, http.MethodGet, q.path(nxapi.PathVentaTotales), nil, &v); err != nil {
		return nil, err
	}
	if v.Items == nil {
		v.Items = []nxapi.VentaTotal{}
	}
	return &v, nil
}

// Webhooks lists the integration's webhooks (GET /config/webhooks).
func (c *Client) Webhooks(ctx context.Context) ([]nxapi.Webhook, error) {
	return c.webhooks(ctx, http.MethodGet, nxapi.PathWebhooks, nil)
}

// CreateWebhook creates a webhook and returns the full updated list.
func (c *Client) CreateWebhook(ctx context.Context, w nxapi.WebhookGuardar) ([]nxapi.Webhook, error) {
	return c.webhooks(ctx, http.MethodPost, nxapi.PathWebhooks, w)
}

// EditWebhook replaces webhook id and returns the full updated list.
func (c *Client) EditWebhook(ctx context.Context, id int64, w nxapi.WebhookGuardar) ([]nxapi.Webhook, error) {
	return c.webhooks(ctx, http.MethodPost, webhookPath(id), w)
}

// DeleteWebhook deletes webhook id and returns the full updated list. An id
// that does not exist is a 400 (*APIError), not an empty success.
func (c *Client) DeleteWebhook(ctx context.Context, id int64) ([]nxapi.Webhook, error) {
	return c.webhooks(ctx, http.MethodDelete, webhookPath(id), nil)
}

func webhookPath(id int64) string { return nxapi.PathWebhooks + "/" + strconv.FormatInt(id, 10) }

func (c *Client) webhooks(ctx context.Context, method, path string, in any) ([]nxapi.Webhook, error) {
	var body []byte
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("%s %s: encoding the webhook: %w", method, path, err)
		}
		body = b
	}
	var v []nxapi.Webhook
	if err := c.call(ctx, method, path, body, &v); err != nil {
		return nil, err
	}
	return nonNil(v), nil
}

// call performs a read or webhook call and decodes a 2xx answer into out.
// Errors name the method and path (never the token): the transport's
// *url.Error, ErrUnauthorized, *WaitError, *APIError, or a decode error.
func (c *Client) call(ctx context.Context, method, path string, body []byte, out any) error {
	x := c.exchange(ctx, method, path, body)
	return c.answer(method, path, x, func(b []byte) error { return nxapi.Decode(b, out) })
}

// answer classifies one exchange of a read or webhook call and, for a 2xx
// answer, decodes its body with decode.
func (c *Client) answer(method, path string, x exchanged, decode func([]byte) error) error {
	if x.err != nil {
		// A *url.Error (it names the method and URL) or a read error that
		// names them.
		return x.err
	}
	switch {
	case x.status >= 200 && x.status <= 299:
		if err := decode(x.body); err != nil {
			var we *nxapi.WireError
			if errors.As(err, &we) {
				return &WireTypeError{Method: method, Path: path, Wire: we}
			}
			return &DecodeError{Method: method, Path: path, Err: err}
		}
		return nil
	case x.status == http.StatusUnauthorized:
		return fmt.Errorf("%s %s: %w", method, path, ErrUnauthorized)
	}
	if x.status == http.StatusForbidden || x.status == http.StatusTooManyRequests {
		if wait, ok := ParseWait(x.body); ok {
			return fmt.Errorf("%s %s: %w", method, path, &WaitError{Wait: wait, Message: apiMessage(x.body)})
		}
	}
	return fmt.Errorf("%s %s: %w", method, path, &APIError{
		Status:   x.status,
		Message:  apiMessage(x.body),
		Mensajes: mensajes(x.body),
	})
}

// WireTypeError is a 2xx answer with a field of a JSON type the vendor's
// types do not allow (public-facts.md, "Wire types"): it could not be
// read, and nothing may be decided from it. It unwraps to the
// *nxapi.WireError that names the field and quotes what came.
type WireTypeError struct {
	Method, Path string
	Wire         *nxapi.WireError
}

func (e *WireTypeError) Error() string {
	return fmt.Sprintf("%s %s: decoding the answer: %v", e.Method, e.Path, e.Wire)
}

// Unwrap returns the *nxapi.WireError.
func (e *WireTypeError) Unwrap() error { return e.Wire }

// Message says it in the user's language (msg.CauseText uses it).
func (e *WireTypeError) Message() msg.Message {
	return msg.New("api.wiretype", e.Method+" "+e.Path, e.Wire.Field, e.Wire.Got)
}

// DecodeError is a 2xx answer that is not the JSON the API documents (not
// JSON at all, or of another shape): nothing may be decided from it.
type DecodeError struct {
	Method, Path string
	Err          error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s %s: decoding the answer: %v", e.Method, e.Path, e.Err)
}

// Unwrap returns the decoder's error.
func (e *DecodeError) Unwrap() error { return e.Err }

// Message says it in the user's language (msg.CauseText uses it), without
// the decoder's own English.
func (e *DecodeError) Message() msg.Message {
	return msg.New("api.undecodable", e.Method+" "+e.Path)
}

// mensajes returns the body's "mensajes" list (the webhook 400's detail).
func mensajes(body []byte) []string {
	var v struct {
		Mensajes []nxapi.Text `json:"mensajes"`
	}
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	var out []string
	for _, m := range v.Mensajes {
		out = append(out, string(m))
	}
	return out
}

// nonNil turns a JSON null list into an empty one, so callers can tell "no
// items" from an error by the error alone.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
