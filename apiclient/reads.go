package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/nxbatch/nxbatch/nxapi"
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
	if x.err != nil {
		// A *url.Error (it names the method and URL) or a read error that
		// names them.
		return x.err
	}
	switch {
	case x.status >= 200 && x.status <= 299:
		if err := json.Unmarshal(x.body, out); err != nil {
			return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
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
