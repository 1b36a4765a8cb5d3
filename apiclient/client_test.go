package apiclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

const ventaBody = `{"ordenId":7,"numero":7,"productos":[{"articuloId":1,"precio":10,"cantidad":1}],"subtotal":10,"descuento":0,"recargo":0,"envio":0,"total":10,"medioPago":{"tipo":1}}`

// newServer starts a server on 127.0.0.1 and a client for it.
func newServer(t *testing.T, tok Token, timeout time.Duration, h http.HandlerFunc) (*httptest.Server, *Client) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL + "/", Token: tok, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// answer replies with status and body to every request.
func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// hijackClose reads the request's body, then drops the connection without
// an answer: the request arrived, its outcome is unknown to the client.
func hijackClose(arrivals *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		arrivals.Add(1)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		_ = conn.Close()
	}
}

// closedPort returns an address on 127.0.0.1 where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestSendsTheRequestAsSpecified(t *testing.T) {
	tok := NewToken("tok-123")
	var got *http.Request
	var gotBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		gotBody, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"facturaId":1,"errores":false}`)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL + "/erp/", Token: tok, UserAgent: "nxbatch-test/1"})
	if err != nil {
		t.Fatal(err)
	}
	sends := []struct {
		name string
		send func(context.Context, []byte) Outcome
		path string
	}{
		{"venta", c.Venta, nxapi.PathVenta},
		{"facturar", c.Facturar, nxapi.PathFacturar},
		{"stock", c.Stock, nxapi.PathStock},
	}
	for _, s := range sends {
		t.Run(s.name, func(t *testing.T) {
			s.send(context.Background(), []byte(ventaBody))
			if got == nil {
				t.Fatal("no request arrived")
			}
			checks := []struct{ what, got, want string }{
				{"method", got.Method, http.MethodPost},
				{"path", got.URL.Path, "/erp" + s.path},
				{"query", got.URL.RawQuery, ""},
				{"body", string(gotBody), ventaBody},
				{"X-NX-TOKEN", got.Header.Get("X-NX-TOKEN"), "tok-123"},
				{"Content-Type", got.Header.Get("Content-Type"), "application/json"},
				{"Accept", got.Header.Get("Accept"), "application/json"},
				{"User-Agent", got.Header.Get("User-Agent"), "nxbatch-test/1"},
				{"Idempotency-Key", got.Header.Get("Idempotency-Key"), ""},
				{"X-Idempotency-Key", got.Header.Get("X-Idempotency-Key"), ""},
			}
			for _, ch := range checks {
				if ch.got != ch.want {
					t.Errorf("%s = %q, want %q", ch.what, ch.got, ch.want)
				}
			}
		})
	}
}

func TestOutcomesAgainstAServer(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		stock   bool

		want        Class
		wantStatus  int
		wantWait    time.Duration
		wantWritten bool
		wantMsg     string
		wantPV      int64
	}{
		{name: "ok with pVNumero", handler: answer(200, `{"facturaId":900,"numero":7,"pVNumero":4,"errores":false}`),
			want: OK, wantStatus: 200, wantWritten: true, wantPV: 4},
		{name: "ok with pvNumero", handler: answer(200, `{"facturaId":900,"numero":7,"pvNumero":5,"errores":false}`),
			want: OK, wantStatus: 200, wantWritten: true, wantPV: 5},
		{name: "facturaId null errores true", handler: answer(200, `{"facturaId":null,"errores":true,"datos":{"error":"Los totales no coinciden"}}`),
			want: Rejected, wantStatus: 200, wantWritten: true, wantMsg: "Los totales no coinciden"},
		{name: "200 garbage", handler: answer(200, "esto no es JSON"),
			want: Unknown, wantStatus: 200, wantWritten: true, wantMsg: "esto no es JSON"},
		{name: "403 wait as text", handler: answer(403, "Debe esperar 3 segundos entre cada solicitud"), stock: true,
			want: Resend, wantStatus: 403, wantWait: 3 * time.Second, wantWritten: true, wantMsg: "Debe esperar 3 segundos entre cada solicitud"},
		{name: "403 wait as JSON", handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			answer(403, `{"error":"Debe esperar 3 segundos entre cada solicitud"}`)(w, r)
		}, stock: true,
			want: Resend, wantStatus: 403, wantWait: 3 * time.Second, wantWritten: true, wantMsg: "Debe esperar 3 segundos entre cada solicitud"},
		{name: "401", handler: answer(401, ""), want: Abort, wantStatus: 401, wantWritten: true},
		{name: "500", handler: answer(500, "boom"), want: Unknown, wantStatus: 500, wantWritten: true, wantMsg: "boom"},
		{name: "en proceso", handler: answer(200, `{"errores":true,"datos":{"error":"La solicitud ya se esta procesando"}}`),
			want: Unknown, wantStatus: 200, wantWritten: true, wantMsg: "La solicitud ya se esta procesando"},
		{name: "body over the cap", handler: func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = w.Write(bytes.Repeat([]byte(" "), MaxBody+10))
		}, want: Unknown, wantStatus: 200, wantWritten: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, NewToken("t"), 0, tc.handler)
			send := c.Venta
			if tc.stock {
				send = c.Stock
			}
			o := send(context.Background(), []byte(ventaBody))
			if o.Class != tc.want || o.Status != tc.wantStatus || o.Wait != tc.wantWait || o.Written != tc.wantWritten {
				t.Errorf("outcome = %v status %d wait %v written %v, want %v status %d wait %v written %v (err %v)",
					o.Class, o.Status, o.Wait, o.Written, tc.want, tc.wantStatus, tc.wantWait, tc.wantWritten, o.Err)
			}
			if o.Message != tc.wantMsg {
				t.Errorf("Message = %q, want %q", o.Message, tc.wantMsg)
			}
			if tc.wantPV != 0 && (o.Result == nil || int64(o.Result.PVNumero) != tc.wantPV) {
				t.Errorf("Result = %+v, want pVNumero %d", o.Result, tc.wantPV)
			}
		})
	}
}

// A POST whose connection drops after it was written must be unknown, and
// must reach the server exactly once: neither the client nor Go's transport
// may resend it. The second case reuses a kept-alive connection, the case in
// which Go's transport does replay requests it considers idempotent.
func TestDroppedConnectionIsUnknownAndNotResent(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		t.Run(fmt.Sprintf("reused connection %v", reuse), func(t *testing.T) {
			var arrivals, okArrivals atomic.Int32
			drop := hijackClose(&arrivals)
			_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == nxapi.PathFacturar {
					okArrivals.Add(1)
					answer(200, `{"facturaId":3,"errores":false}`)(w, r)
					return
				}
				drop(w, r)
			})
			if reuse {
				if o := c.Facturar(context.Background(), []byte(`{}`)); o.Class != OK {
					t.Fatalf("priming request: %+v", o)
				}
			}
			o := c.Venta(context.Background(), []byte(ventaBody))
			if o.Class != Unknown || !o.Written || o.Err == nil {
				t.Errorf("outcome = %v written %v err %v, want unknown, written, with an error", o.Class, o.Written, o.Err)
			}
			if n := arrivals.Load(); n != 1 {
				t.Errorf("the POST reached the server %d times, want exactly 1", n)
			}
		})
	}
}

func TestTimeoutAfterWriteIsUnknown(t *testing.T) {
	release := make(chan struct{})
	_, c := newServer(t, NewToken("t"), 50*time.Millisecond, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select { // never answers in time: waits for the client to give up
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	o := c.Venta(context.Background(), []byte(ventaBody))
	if o.Class != Unknown || !o.Written || !errors.Is(o.Err, context.DeadlineExceeded) {
		t.Errorf("outcome = %v written %v err %v, want unknown, written, deadline exceeded", o.Class, o.Written, o.Err)
	}
}

func TestCancelAfterWriteIsUnknown(t *testing.T) {
	arrived := make(chan struct{})
	release := make(chan struct{})
	_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		close(arrived)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	o := c.Stock(ctx, []byte(`{"depositoId":1}`))
	if o.Class != Unknown || !o.Written || !errors.Is(o.Err, context.Canceled) {
		t.Errorf("outcome = %v written %v err %v, want unknown, written, canceled", o.Class, o.Written, o.Err)
	}
}

func TestNeverSentIsResend(t *testing.T) {
	var arrivals atomic.Int32
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { arrivals.Add(1) }))
	defer live.Close()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		base string
	}{
		{"closed port", context.Background(), "http://" + closedPort(t)},
		{"context canceled before sending", canceled, live.URL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Options{BaseURL: tc.base, Token: NewToken("t")})
			if err != nil {
				t.Fatal(err)
			}
			o := c.Venta(tc.ctx, []byte(ventaBody))
			if o.Class != Resend || o.Written || o.Wait != 0 || o.Status != 0 || o.Err == nil {
				t.Errorf("outcome = %v written %v wait %v status %d err %v, want resend, not written, no wait, an error",
					o.Class, o.Written, o.Wait, o.Status, o.Err)
			}
		})
	}
	if n := arrivals.Load(); n != 0 {
		t.Errorf("a request classified resend reached the server %d times", n)
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
	}))
	defer other.Close()
	_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	o := c.Venta(context.Background(), []byte(ventaBody))
	if o.Class != Unknown || o.Status != http.StatusTemporaryRedirect {
		t.Errorf("outcome = %v status %d, want unknown 307", o.Class, o.Status)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times (and the token with it)", n)
	}
}

// A canary token goes through every kind of outcome and error; it must show
// up in the X-NX-TOKEN header and nowhere else: not in a URL, an error, an
// Outcome, a printed client or a log line.
func TestCanaryTokenNeverLeaks(t *testing.T) {
	const canary = "CANARY-9f2c1e-do-not-leak"
	tok := NewToken(canary)
	var headerSeen atomic.Int32
	release := make(chan struct{})
	defer close(release)
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(nxapi.TokenHeader) == canary {
			headerSeen.Add(1)
		}
		if strings.Contains(r.URL.String(), canary) || strings.Contains(r.RequestURI, canary) {
			t.Errorf("the token is in the URL %s", r.RequestURI)
		}
		_, _ = io.Copy(io.Discard, r.Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/venta"):
			answer(200, `{"facturaId":1,"errores":false}`)(w, r)
		case strings.HasSuffix(r.URL.Path, "/facturar"):
			hijackClose(new(atomic.Int32))(w, r)
		case strings.HasSuffix(r.URL.Path, "/movimiento"):
			select {
			case <-r.Context().Done():
			case <-release:
			}
		case strings.HasSuffix(r.URL.Path, "/motivos"):
			answer(401, "Token invalido")(w, r)
		case strings.HasSuffix(r.URL.Path, "/medios-pago"):
			answer(403, "Debe esperar 60 segundos entre cada solicitud")(w, r)
		case strings.HasSuffix(r.URL.Path, "/config"):
			answer(200, "not json")(w, r)
		default:
			answer(400, `{"mensajes":["url invalida"]}`)(w, r)
		}
	}
	_, c := newServer(t, tok, 100*time.Millisecond, handler)
	dead, err := New(Options{BaseURL: "http://" + closedPort(t), Token: tok})
	if err != nil {
		t.Fatal(err)
	}

	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	var seen []string
	record := func(what string, v any) {
		seen = append(seen, fmt.Sprintf("%s: %v | %+v | %#v", what, v, v, v))
		log.Info(what, "value", v)
		if err, ok := v.(error); ok && err != nil {
			seen = append(seen, err.Error())
		}
	}
	ctx := context.Background()
	for name, o := range map[string]Outcome{
		"ok":      c.Venta(ctx, []byte(ventaBody)),
		"dropped": c.Facturar(ctx, []byte(`{}`)),
		"timeout": c.Stock(ctx, []byte(`{}`)),
		"refused": dead.Venta(ctx, []byte(ventaBody)),
	} {
		record(name, o)
		record(name+" err", o.Err)
		seen = append(seen, o.Message)
	}
	_, err1 := c.Motivos(ctx)
	_, err2 := c.MediosPago(ctx)
	_, err3 := c.Config(ctx)
	_, err4 := c.Webhooks(ctx)
	_, err5 := dead.Depositos(ctx)
	for i, err := range []error{err1, err2, err3, err4, err5} {
		if err == nil {
			t.Errorf("read %d: no error", i+1)
		}
		record(fmt.Sprintf("read %d", i+1), err)
	}
	record("client", c)
	record("options", Options{BaseURL: "http://h", Token: tok})
	_, loadErr := New(Options{BaseURL: "http://h/?token=" + canary, Token: tok})
	record("bad base url", loadErr)

	for _, s := range append(seen, logs.String()) {
		if strings.Contains(s, canary) {
			t.Errorf("the canary token leaked: %s", s)
		}
	}
	if headerSeen.Load() == 0 {
		t.Error("the token never reached the server in X-NX-TOKEN")
	}
}

func TestNewValidatesTheBaseURL(t *testing.T) {
	tests := []struct {
		base     string
		want     string // normalised, "" when refused
		wantKey  string
		mustHide string // text the error must not repeat
	}{
		{base: "http://127.0.0.1:1234", want: "http://127.0.0.1:1234"},
		{base: "http://127.0.0.1:1234/", want: "http://127.0.0.1:1234"},
		{base: " HTTPS://Api.Example.COM:443/erp/ ", want: "https://api.example.com/erp"},
		{base: "", wantKey: "cli.baseurl.empty"},
		{base: "ftp://example.com", wantKey: "cli.baseurl.bad"},
		{base: "/relative/path", wantKey: "cli.baseurl.bad"},
		{base: "127.0.0.1:1234", wantKey: "cli.baseurl.bad"},
		{base: "http://", wantKey: "cli.baseurl.bad"},
		{base: "http://a b", wantKey: "cli.baseurl.bad"},
		{base: "http://u:secret@a b", wantKey: "cli.baseurl.unparsable"},
		{base: "http://user:hunter2@example.com", wantKey: "cli.baseurl.userinfo", mustHide: "hunter2"},
		{base: "http://example.com/?token=abc987", wantKey: "cli.baseurl.query", mustHide: "abc987"},
		{base: "http://example.com/#frag", wantKey: "cli.baseurl.query"},
	}
	for _, tc := range tests {
		t.Run(tc.base, func(t *testing.T) {
			c, err := New(Options{BaseURL: tc.base})
			if tc.wantKey == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if c.BaseURL() != tc.want {
					t.Errorf("BaseURL() = %q, want %q", c.BaseURL(), tc.want)
				}
				return
			}
			var me *msg.Error
			if !errors.As(err, &me) || me.Msg.Key != tc.wantKey {
				t.Fatalf("err = %v, want the message %s", err, tc.wantKey)
			}
			if tc.mustHide != "" && (strings.Contains(err.Error(), tc.mustHide) || strings.Contains(me.Msg.In(msg.ES), tc.mustHide)) {
				t.Errorf("the error repeats %q: %v", tc.mustHide, err)
			}
		})
	}
}

func TestNewRefusesATokenThatCannotBeAHeader(t *testing.T) {
	_, err := New(Options{BaseURL: "http://127.0.0.1:1", Token: NewToken("abc\r\nX-Evil: 1")})
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.Key != "cli.token.invalid" {
		t.Errorf("err = %v, want cli.token.invalid", err)
	}
}
