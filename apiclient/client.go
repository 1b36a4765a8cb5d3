// Package apiclient is the one HTTP client nxbatch uses to talk to the ERP's
// third-party integration API, and holds the one classification of what a
// creating request's answer means (Classify).
//
// Sending is built so that nothing is ever invoiced twice by the client:
//   - a creating POST is never retried by the client or by Go's transport
//     (no Idempotency-Key headers, which would make the transport replay it;
//     HTTP/1 only, whose replay rules are the ones tested here; redirects are
//     not followed);
//   - whether a request may have reached the server is tracked with
//     net/http/httptrace, so only a request that provably never left is
//     classified Resend, and everything in doubt is Unknown.
//
// The token travels only in the X-NX-TOKEN header; it is never part of a URL,
// so the *url.Error values the transport returns cannot contain it.
//
// Pacing is the caller's job; the client only reports the server's
// "Debe esperar N segundos" as Outcome.Wait or *WaitError.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// DefaultTimeout bounds one whole exchange (connect, send, read the answer)
// when Options.Timeout is 0.
const DefaultTimeout = 30 * time.Second

// MaxBody caps how much of an answer is read. The largest answer nxbatch
// reads is a catalog; anything beyond this is a broken server, and for a
// creating request an unreadable answer is Unknown.
const MaxBody = 8 << 20

// DefaultUserAgent is sent when Options.UserAgent is empty.
const DefaultUserAgent = "nxbatch"

// Options configures a Client.
type Options struct {
	BaseURL   string        // e.g. http://127.0.0.1:1234 (NX_BASE_URL); trailing slash tolerated
	Token     Token         // sent in X-NX-TOKEN on every request
	Timeout   time.Duration // per request, whole exchange incl. reading the body; 0 -> DefaultTimeout
	Transport http.RoundTripper
	UserAgent string // "" -> DefaultUserAgent
	// AllowInsecureHTTP lets the token travel over plain http:// to a host
	// that is not this machine (--allow-insecure-http); without it New
	// refuses such a base URL.
	AllowInsecureHTTP bool
}

// Client talks to one tenant of the API. It is safe for concurrent use.
type Client struct {
	base    string
	token   Token
	ua      string
	timeout time.Duration
	hc      *http.Client
}

// New returns a Client for o. BaseURL must be an absolute http or https URL
// without user info, query or fragment; the errors are *msg.Error values a
// user can act on. A nil Transport gets NewTransport().
func New(o Options) (*Client, error) {
	base, err := normalizeBase(o.BaseURL)
	if err != nil {
		return nil, err
	}
	if ClearText(base) && !o.AllowInsecureHTTP {
		return nil, &msg.Error{Msg: msg.New("cli.baseurl.insecure", base)}
	}
	if !validHeaderValue(o.Token.reveal()) {
		return nil, &msg.Error{Msg: msg.New("cli.token.invalid")}
	}
	ua := o.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	if !validHeaderValue(ua) {
		return nil, &msg.Error{Msg: msg.New("cli.useragent.invalid")}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	rt := o.Transport
	if rt == nil {
		rt = NewTransport()
	}
	return &Client{
		base:    base,
		token:   o.Token,
		ua:      ua,
		timeout: timeout,
		hc: &http.Client{
			Transport: rt,
			// A redirect would carry X-NX-TOKEN to wherever Location
			// points (Go strips only its known credential headers), and
			// turn a POST into something else: answer with the 3xx.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}, nil
}

// NewTransport returns the transport New uses by default: HTTP/1 only, with
// enough idle connections per host for every worker, and dial and TLS
// timeouts shorter than a request's so that an unreachable server fails
// while the request is still provably unsent.
func NewTransport() *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	return t
}

// normalizeBase validates a base URL and returns it as
// scheme://host[:port][/path] with a lower-case scheme and host, no default
// port and no trailing slash.
func normalizeBase(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", &msg.Error{Msg: msg.New("cli.baseurl.empty")}
	}
	u, err := url.Parse(s)
	if err != nil {
		// The parse error quotes the URL, which may hold a password: the
		// address is shown only when it has no user part.
		if strings.Contains(s, "@") {
			return "", &msg.Error{Msg: msg.New("cli.baseurl.unparsable")}
		}
		return "", &msg.Error{Msg: msg.New("cli.baseurl.bad", s)}
	}
	if u.User != nil {
		return "", &msg.Error{Msg: msg.New("cli.baseurl.userinfo")}
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "", &msg.Error{Msg: msg.New("cli.baseurl.bad", s)}
	}
	host := strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, map[string]string{"http": ":80", "https": ":443"}[scheme])
	clean := scheme + "://" + host + strings.TrimRight(u.EscapedPath(), "/")
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "" {
		return "", &msg.Error{Msg: msg.New("cli.baseurl.query", clean)}
	}
	return clean, nil
}

// LoopbackHost reports whether host (a name or an address, without port)
// is this machine: "localhost" or a loopback address. Any other name could
// resolve anywhere.
func LoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ClearText reports whether a URL sends what it carries unencrypted over
// the network: plain http:// to a host that is not this machine.
func ClearText(rawURL string) bool {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return false
	}
	return !LoopbackHost(u.Hostname())
}

// BaseURL returns the normalised base URL the client sends to.
func (c *Client) BaseURL() string { return c.base }

// CredentialHash names this client's base URL and token (see the function
// CredentialHash).
func (c *Client) CredentialHash() string { return CredentialHash(c.base, c.token) }

// Venta sends POST /venta. body is the exact JSON the journal hashed; it is
// sent as is.
func (c *Client) Venta(ctx context.Context, body []byte) Outcome {
	return c.create(ctx, nxapi.PathVenta, body, false)
}

// Facturar sends POST /facturar with body as is.
func (c *Client) Facturar(ctx context.Context, body []byte) Outcome {
	return c.create(ctx, nxapi.PathFacturar, body, false)
}

// Stock sends POST /stock/movimiento with body as is.
func (c *Client) Stock(ctx context.Context, body []byte) Outcome {
	return c.create(ctx, nxapi.PathStock, body, true)
}

// Pedido sends POST /Pedido with body as is: an order, or the paid update
// of one (the same ordenId with pagado and medioPago).
func (c *Client) Pedido(ctx context.Context, body []byte) Outcome {
	return c.create(ctx, nxapi.PathPedido, body, false)
}

// Cancelar sends POST /Pedido/cancelar?facturaid=N, without a body, for
// the nxapi.Cancelar record in body; the answer is an NxResultado.
func (c *Client) Cancelar(ctx context.Context, body []byte) Outcome {
	var x nxapi.Cancelar
	if err := json.Unmarshal(body, &x); err != nil || x.FacturaID <= 0 {
		// A bug of the caller, not an answer: nothing left.
		return Outcome{Class: Rejected, Err: fmt.Errorf("cancellation without a facturaId: %s", body)}
	}
	path := nxapi.PathPedidoCancelar + "?" + sendrules.CancelQuery + "=" + strconv.FormatInt(x.FacturaID, 10)
	x2 := c.exchange(ctx, http.MethodPost, path, nil)
	return Classify(x2.status, x2.body, x2.err, x2.written, true)
}

func (c *Client) create(ctx context.Context, path string, body []byte, stock bool) Outcome {
	x := c.exchange(ctx, http.MethodPost, path, body)
	return Classify(x.status, x.body, x.err, x.written, stock)
}

// exchanged is what one HTTP exchange produced.
type exchanged struct {
	status  int
	body    []byte
	err     error
	written bool
}

// errBodyTooLarge reports an answer longer than MaxBody.
var errBodyTooLarge = fmt.Errorf("answer longer than %d bytes", MaxBody)

// exchange performs one request and reads its answer within the client's
// timeout. It never retries.
func (c *Client) exchange(ctx context.Context, method, path string, body []byte) exchanged {
	return c.exchangeLimit(ctx, method, path, body, c.timeout, MaxBody)
}

// exchangeLimit is exchange with its own timeout and answer size limit
// (the article catalog's answers are far larger than any other).
func (c *Client) exchangeLimit(ctx context.Context, method, path string, body []byte, timeout time.Duration, limit int64) exchanged {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// connected: the transport handed us a connection, so from then on
	// bytes may be on the wire. written: the request's headers (and maybe
	// body) were written, the Written of an Outcome.
	var connected, written atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn:      func(httptrace.GotConnInfo) { connected.Store(true) },
		WroteHeaders: func() { written.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { written.Store(true) },
	})

	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return exchanged{err: notSentError{fmt.Errorf("building the request: %w", err)}}
	}
	// Never Idempotency-Key or X-Idempotency-Key here: with either, Go's
	// transport silently replays a POST after some network errors.
	req.Header.Set(nxapi.TokenHeader, c.token.reveal())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.ua)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	resp, err := c.hc.Do(req)
	if err != nil {
		if !connected.Load() {
			err = notSentError{err}
		}
		return exchanged{err: err, written: written.Load()}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("answer longer than %d bytes", limit)
		if limit == MaxBody {
			err = errBodyTooLarge
		}
	}
	if err != nil {
		err = fmt.Errorf("%s %s: reading the answer (HTTP %d): %w", method, path, resp.StatusCode, err)
	}
	// The one place an answer enters nxbatch: an echo of the request's
	// headers (the API's or a proxy's error page) loses the token here,
	// before any message, report, journal entry or log is made of it.
	b = c.token.scrub(b)
	return exchanged{status: resp.StatusCode, body: b, err: err, written: true}
}

// ErrUnauthorized reports a 401: the token is missing, invalid or expired,
// or belongs to the other environment (production vs test).
var ErrUnauthorized = errors.New("the API refused the token (HTTP 401)")

// ErrNotFound reports a 404; *APIError values with Status 404 match it with
// errors.Is.
var ErrNotFound = errors.New("not found (HTTP 404)")

// WaitError reports a 403 rate window on a read or webhook call: wait Wait
// (unscaled, as the server said) before calling that endpoint again.
type WaitError struct {
	Wait    time.Duration
	Message string // the API's text, verbatim
}

// Error says how long to wait and quotes the API.
func (e *WaitError) Error() string {
	return fmt.Sprintf("the API asks to wait %s before the next request: %q", e.Wait, e.Message)
}

// In says it in language l (msg.CauseText uses it).
func (e *WaitError) In(l msg.Lang) string {
	return msg.New("api.wait", msg.Duration(e.Wait), e.Message).In(l)
}

// APIWait is the wait the API asked for (sendrules.APIWait).
func (e *WaitError) APIWait() time.Duration { return e.Wait }

var _ interface{ APIWait() time.Duration } = (*WaitError)(nil)

// APIError is any other non-2xx answer of a read or webhook call.
type APIError struct {
	Status   int
	Message  string   // the API's own text, verbatim ("" if none)
	Mensajes []string // the body's mensajes list, when it has one
}

// Error gives the status and quotes the API's text.
func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d: %q", e.Status, e.Message)
}

// In says it in language l (msg.CauseText uses it), quoting the API.
func (e *APIError) In(l msg.Lang) string {
	if e.Message == "" {
		return msg.New("api.status", e.Status).In(l)
	}
	return msg.New("api.status.text", e.Status, e.Message).In(l)
}

// Is lets errors.Is(err, ErrNotFound) match a 404 and
// errors.Is(err, ErrUnauthorized) a 401.
func (e *APIError) Is(target error) bool {
	return (target == ErrNotFound && e.Status == 404) || (target == ErrUnauthorized && e.Status == 401)
}

// BindingHash names this client's token at its API (see the function
// BindingHash).
func (c *Client) BindingHash() string { return BindingHash(c.base, c.token) }

// Origin is the origin of this client's API (see the function Origin).
func (c *Client) Origin() string {
	o, err := Origin(c.base)
	if err != nil {
		return c.base
	}
	return o
}
