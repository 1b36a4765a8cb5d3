package apiclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// Transport errors as the client sees them.
var (
	errRefused = &url.Error{Op: "Post", URL: "http://127.0.0.1:9/integraciones/terceros/venta", Err: &net.OpError{
		Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}}
	errDNS = &url.Error{Op: "Post", URL: "http://nohost.invalid/x", Err: &net.OpError{
		Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nohost.invalid", IsNotFound: true}}}
	errBareRefused    = fmt.Errorf("connect: %w", syscall.ECONNREFUSED)
	errUnreachable    = fmt.Errorf("connect: %w", syscall.ENETUNREACH)
	errCanceledNoConn = notSentError{&url.Error{Op: "Post", URL: "http://127.0.0.1:9/x", Err: context.Canceled}}
	errEOF            = &url.Error{Op: "Post", URL: "http://127.0.0.1:9/x", Err: io.EOF}
	errDeadline       = &url.Error{Op: "Post", URL: "http://127.0.0.1:9/x", Err: context.DeadlineExceeded}
	errReset          = &url.Error{Op: "Post", URL: "http://127.0.0.1:9/x", Err: &net.OpError{
		Op: "read", Net: "tcp", Err: &os.SyscallError{Syscall: "read", Err: syscall.ECONNRESET}}}
	errBodyRead = fmt.Errorf("reading the answer: %w", io.ErrUnexpectedEOF)
)

func TestClassify(t *testing.T) {
	const any = "\x00any" // do not check the message
	tests := []struct {
		name    string
		status  int
		body    string
		err     error
		written bool
		stock   bool

		want        Class
		wantMsg     string
		wantWait    time.Duration
		wantWritten bool
		wantErr     bool
	}{
		// ok
		{name: "venta ok pVNumero", status: 200, body: `{"facturaId":101,"numero":5,"pVNumero":3,"errores":false}`,
			want: OK, wantWritten: true},
		{name: "venta ok pvNumero spelling", status: 200, body: `{"facturaId":101,"numero":5,"pvNumero":3,"errores":false}`,
			want: OK, wantWritten: true},
		{name: "201 ok", status: 201, body: `{"facturaId":"77","errores":false}`, want: OK, wantWritten: true},
		{name: "stock tipo 1", status: 200, body: `{"tipo":1,"id":55}`, stock: true, want: OK, wantWritten: true},

		// rejected: 2xx with errores=true
		{name: "errores datos.error", status: 200, body: `{"facturaId":0,"errores":true,"datos":{"error":"Los totales no coinciden"}}`,
			want: Rejected, wantMsg: "Los totales no coinciden", wantWritten: true},
		{name: "errores facturaId null observaciones", status: 200, body: `{"facturaId":null,"errores":true,"observaciones":"Cliente inexistente"}`,
			want: Rejected, wantMsg: "Cliente inexistente", wantWritten: true},
		{name: "errores errorFE only", status: 200, body: `{"facturaId":null,"errores":true,"errorFE":"CAE rechazado"}`,
			want: Rejected, wantMsg: "CAE rechazado", wantWritten: true},
		{name: "errores with mensajes only", status: 200, body: `{"errores":true,"mensajes":["uno","dos"]}`,
			want: Rejected, wantMsg: "uno; dos", wantWritten: true},
		{name: "stock tipo 2 errores", status: 200, body: `{"tipo":2,"errores":["Articulo 9 inexistente"],"mensajes":["ignorado"]}`, stock: true,
			want: Rejected, wantMsg: "Articulo 9 inexistente", wantWritten: true},
		{name: "stock tipo 0 mensajes", status: 200, body: `{"tipo":0,"mensajes":["Deposito cerrado"]}`, stock: true,
			want: Rejected, wantMsg: "Deposito cerrado", wantWritten: true},

		// rejected: 400, 403 not a rate window, 404, other 4xx
		{name: "400 mensajes", status: 400, body: `{"mensajes":["url es requerida","topic invalido"]}`,
			want: Rejected, wantMsg: "url es requerida; topic invalido", wantWritten: true},
		{name: "400 error field", status: 400, body: `{"error":"Los datos de venta son invalidos"}`,
			want: Rejected, wantMsg: "Los datos de venta son invalidos", wantWritten: true},
		{name: "400 message field", status: 400, body: `{"message":"El medio de pago es requerido"}`,
			want: Rejected, wantMsg: "El medio de pago es requerido", wantWritten: true},
		{name: "400 plain text", status: 400, body: "El facturaId es requerido\n",
			want: Rejected, wantMsg: "El facturaId es requerido", wantWritten: true},
		{name: "400 JSON string", status: 400, body: `"El puntoVentaId es requerido"`,
			want: Rejected, wantMsg: "El puntoVentaId es requerido", wantWritten: true},
		{name: "400 unknown JSON shape kept raw", status: 400, body: `{"codigo":17}`,
			want: Rejected, wantMsg: `{"codigo":17}`, wantWritten: true},
		{name: "403 branch scope", status: 403, body: "El punto de venta 4 pertenece a una sucursal no habilitada",
			want: Rejected, wantMsg: "El punto de venta 4 pertenece a una sucursal no habilitada", wantWritten: true},
		{name: "403 empty body", status: 403, body: "", want: Rejected, wantMsg: "", wantWritten: true},
		{name: "403 stock incorrect", status: 403, body: "Los datos de stock recibidos son incorrectos", stock: true,
			want: Rejected, wantMsg: "Los datos de stock recibidos son incorrectos", wantWritten: true},
		{name: "404", status: 404, body: "", want: Rejected, wantWritten: true},
		{name: "409 other client error", status: 409, body: "conflicto", want: Rejected, wantMsg: "conflicto", wantWritten: true},
		{name: "301 redirect", status: 301, body: "", want: Unknown, wantWritten: true},
		{name: "302 redirect", status: 302, body: "", want: Unknown, wantWritten: true},
		{name: "303 see other (processed, see the result)", status: 303, body: "", want: Unknown, wantWritten: true},
		{name: "307 redirect", status: 307, body: "", want: Unknown, wantWritten: true},

		// unknown
		{name: "procesando 200", status: 200, body: `{"facturaId":0,"errores":true,"datos":{"error":"La solicitud ya se esta procesando"}}`,
			want: Unknown, wantMsg: "La solicitud ya se esta procesando", wantWritten: true},
		{name: "procesando 400 text", status: 400, body: "La solicitud ya se esta procesando",
			want: Unknown, wantMsg: "La solicitud ya se esta procesando", wantWritten: true},
		{name: "procesando 403 JSON accent", status: 403, body: `{"error":"La solicitud ya se está procesando"}`,
			want: Unknown, wantMsg: "La solicitud ya se está procesando", wantWritten: true},
		{name: "procesando 409 escaped accent", status: 409, body: `{"error":"La solicitud ya se est\u00e1 procesando"}`,
			want: Unknown, wantMsg: any, wantWritten: true},
		{name: "procesando stock 200", status: 200, body: `{"tipo":0,"errores":["La solicitud ya se esta procesando"]}`, stock: true,
			want: Unknown, wantMsg: "La solicitud ya se esta procesando", wantWritten: true},
		{name: "errores false facturaId 0", status: 200, body: `{"facturaId":0,"errores":false}`, want: Unknown, wantWritten: true},
		{name: "errores false facturaId null", status: 200, body: `{"facturaId":null,"errores":false}`, want: Unknown, wantWritten: true},
		{name: "errores true but a voucher id: maybe recorded", status: 200, body: `{"facturaId":50009,"errores":true,"errorFE":"AFIP no responde"}`, want: Unknown, wantMsg: "AFIP no responde", wantWritten: true},
		{name: "200 garbage", status: 200, body: "<html>oops", want: Unknown, wantMsg: "<html>oops", wantWritten: true, wantErr: true},
		{name: "200 empty", status: 200, body: "", want: Unknown, wantWritten: true, wantErr: true},
		{name: "200 null", status: 200, body: "null", want: Unknown, wantMsg: "null", wantWritten: true, wantErr: true},
		{name: "200 array", status: 200, body: `[{"facturaId":1}]`, want: Unknown, wantMsg: `[{"facturaId":1}]`, wantWritten: true, wantErr: true},
		{name: "200 truncated", status: 200, body: `{"facturaId":1,"err`, want: Unknown, wantMsg: `{"facturaId":1,"err`, wantWritten: true, wantErr: true},
		{name: "stock without tipo", status: 200, body: `{"id":5}`, stock: true, want: Unknown, wantWritten: true},
		{name: "stock tipo null", status: 200, body: `{"tipo":null}`, stock: true, want: Unknown, wantWritten: true},
		{name: "stock garbage", status: 200, body: `ok`, stock: true, want: Unknown, wantMsg: "ok", wantWritten: true, wantErr: true},
		{name: "500 on POST", status: 500, body: "Internal error", want: Unknown, wantMsg: "Internal error", wantWritten: true},
		{name: "502 html", status: 502, body: "<h1>Bad gateway</h1>", want: Unknown, wantMsg: "<h1>Bad gateway</h1>", wantWritten: true},
		{name: "503 stock", status: 503, body: "", stock: true, want: Unknown, wantWritten: true},
		{name: "no status no error", status: 0, body: "", want: Unknown},
		{name: "timeout after write", err: errDeadline, written: true, want: Unknown, wantWritten: true, wantErr: true},
		{name: "cut after write", err: errEOF, written: true, want: Unknown, wantWritten: true, wantErr: true},
		{name: "reset after write", err: errReset, written: true, want: Unknown, wantWritten: true, wantErr: true},
		{name: "EOF not written but not a dial error", err: errEOF, want: Unknown, wantErr: true},
		{name: "deadline not written but connected", err: errDeadline, want: Unknown, wantErr: true},
		{name: "body read fails after 200", status: 200, body: `{"facturaId":1`, err: errBodyRead, written: true,
			want: Unknown, wantWritten: true, wantErr: true},
		{name: "dial error yet written", err: errRefused, written: true, want: Unknown, wantWritten: true, wantErr: true},

		// resend
		{name: "403 wait text", status: 403, body: "Debe esperar 3 segundos entre cada solicitud",
			want: Resend, wantWait: 3 * time.Second, wantMsg: "Debe esperar 3 segundos entre cada solicitud", wantWritten: true},
		{name: "403 wait JSON", status: 403, body: `{"error":"Debe esperar 60 segundos entre cada solicitud"}`,
			want: Resend, wantWait: 60 * time.Second, wantMsg: "Debe esperar 60 segundos entre cada solicitud", wantWritten: true},
		{name: "403 wait stock", status: 403, body: "Debe esperar 3 segundos entre cada solicitud", stock: true,
			want: Resend, wantWait: 3 * time.Second, wantMsg: any, wantWritten: true},
		{name: "429 without text", status: 429, body: "", want: Resend, wantWritten: true},
		{name: "refused", err: errRefused, want: Resend, wantErr: true},
		{name: "DNS failure", err: errDNS, want: Resend, wantErr: true},
		{name: "bare refused errno", err: errBareRefused, want: Resend, wantErr: true},
		{name: "network unreachable", err: errUnreachable, want: Resend, wantErr: true},
		{name: "canceled before a connection", err: errCanceledNoConn, want: Resend, wantErr: true},

		// abort
		{name: "401", status: 401, body: "", want: Abort, wantWritten: true},
		{name: "401 stock with text", status: 401, body: "Token invalido", stock: true, want: Abort, wantMsg: "Token invalido", wantWritten: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Classify(tc.status, []byte(tc.body), tc.err, tc.written, tc.stock)
			if o.Class != tc.want {
				t.Errorf("Class = %v, want %v (outcome %+v)", o.Class, tc.want, o)
			}
			if o.Status != tc.status {
				t.Errorf("Status = %d, want %d", o.Status, tc.status)
			}
			if tc.wantMsg != any && o.Message != tc.wantMsg {
				t.Errorf("Message = %q, want %q", o.Message, tc.wantMsg)
			}
			if o.Wait != tc.wantWait {
				t.Errorf("Wait = %v, want %v", o.Wait, tc.wantWait)
			}
			if o.Written != tc.wantWritten {
				t.Errorf("Written = %v, want %v", o.Written, tc.wantWritten)
			}
			if (o.Err != nil) != tc.wantErr {
				t.Errorf("Err = %v, want error: %v", o.Err, tc.wantErr)
			}
			if tc.err != nil && !errors.Is(o.Err, tc.err) {
				t.Errorf("Err = %v, does not wrap the transport error %v", o.Err, tc.err)
			}
		})
	}
}

func TestClassifyDecodesResults(t *testing.T) {
	tests := []struct {
		name                    string
		body                    string
		wantID, wantNum, wantPV int64
	}{
		{"wire spelling", `{"facturaId":101,"numero":5,"pVNumero":3,"errores":false}`, 101, 5, 3},
		{"spec spelling", `{"facturaId":101,"numero":5,"pvNumero":4,"errores":false}`, 101, 5, 4},
		{"ids as strings", `{"facturaId":"102","numero":"6","pVNumero":"2","errores":false}`, 102, 6, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Classify(200, []byte(tc.body), nil, true, false)
			if o.Result == nil {
				t.Fatalf("Result = nil, outcome %+v", o)
			}
			if int64(o.Result.FacturaID) != tc.wantID || int64(o.Result.Numero) != tc.wantNum || int64(o.Result.PVNumero) != tc.wantPV {
				t.Errorf("Result = facturaId %d numero %d pVNumero %d, want %d %d %d",
					o.Result.FacturaID, o.Result.Numero, o.Result.PVNumero, tc.wantID, tc.wantNum, tc.wantPV)
			}
		})
	}

	o := Classify(200, []byte(`{"tipo":1,"id":"88"}`), nil, true, true)
	if o.Stock == nil || o.Stock.ID != 88 {
		t.Errorf("Stock = %+v, want id 88", o.Stock)
	}
}

func TestParseWait(t *testing.T) {
	tests := []struct {
		body   string
		want   time.Duration
		wantOK bool
	}{
		{"Debe esperar 3 segundos entre cada solicitud", 3 * time.Second, true},
		{`{"mensaje":"Debe esperar 60 segundos entre cada solicitud"}`, 60 * time.Second, true},
		{`{"mensajes":["Debe esperar 10 segundos entre cada solicitud"]}`, 10 * time.Second, true},
		{"debe  ESPERAR 1 segundo", time.Second, true},
		{"Debe esperar 1,5 segundos entre cada solicitud", 1500 * time.Millisecond, true},
		{"Debe esperar 0.25 segundos", 250 * time.Millisecond, true},
		{"Debe esperar 999999999 segundos", maxWait, true},
		{"Debe esperar unos segundos", 0, false},
		{"La sucursal 3 no esta habilitada", 0, false},
		{"", 0, false},
	}
	for _, tc := range tests {
		got, ok := ParseWait([]byte(tc.body))
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("ParseWait(%q) = %v, %v; want %v, %v", tc.body, got, ok, tc.want, tc.wantOK)
		}
	}
}

func TestApiMessageCapsLongBodies(t *testing.T) {
	body := []byte("Error: " + strings.Repeat("ñ", 3000))
	got := apiMessage(body)
	if len(got) > maxMessage+len("…") {
		t.Errorf("message is %d bytes, want at most %d", len(got), maxMessage+len("…"))
	}
	if !strings.HasPrefix(got, "Error: ñ") || !strings.HasSuffix(got, "…") {
		t.Errorf("message = %.20q...%q, want the start of the body and an ellipsis", got, got[len(got)-5:])
	}
	if !utf8.ValidString(got) {
		t.Errorf("capped message is not valid UTF-8")
	}
}

func TestClassString(t *testing.T) {
	want := map[Class]string{OK: "ok", Rejected: "rejected", Unknown: "unknown", Resend: "resend", Abort: "abort", 0: "class(0)"}
	for c, s := range want {
		if c.String() != s {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), c.String(), s)
		}
	}
}
