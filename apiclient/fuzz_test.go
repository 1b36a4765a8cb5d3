package apiclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
)

// FuzzClassify feeds any status and body a creating request could get
// back, for a sale and for a stock movement: the one classification never
// panics, gives a known class, says OK only for a 2xx answer and Abort only
// for a 401, and waits at most maxWait (issue 23, hole 14).
func FuzzClassify(f *testing.F) {
	for _, s := range []struct {
		status int
		body   string
	}{
		{200, `{"facturaId":50001,"numero":77003,"pVNumero":1,"errores":false}`},
		{200, `{"facturaId":0,"errores":true,"datos":{"error":"Los totales no coinciden"}}`},
		{200, `{"tipo":1,"id":12,"mensajes":[],"errores":[]}`},
		{200, `{"tipo":2,"mensajes":["El motivoId es obligatorio"]}`},
		{403, `{"mensaje":"Debe esperar 12,5 segundos"}`},
		{403, `Debe esperar 99999999999 segundos`},
		{409, `La solicitud ya se está procesando`},
		{400, `{"mensajes":[1,null,"x"]}`},
		{401, ``},
		{500, `<html>`},
		{0, ``},
	} {
		f.Add(s.status, []byte(s.body), true, false)
		f.Add(s.status, []byte(s.body), false, true)
	}
	f.Fuzz(func(t *testing.T, status int, body []byte, written, stock bool) {
		var transport error
		if status == 0 {
			transport = errors.New("connection reset")
		}
		o := Classify(status, body, transport, written, stock)
		switch {
		case o.Class < OK || o.Class > Abort:
			t.Fatalf("class %d", o.Class)
		case o.Class == OK && (status < 200 || status > 299):
			t.Fatalf("OK for status %d", status)
		case o.Class == Abort && status != 401:
			t.Fatalf("Abort for status %d", status)
		case o.Wait < 0 || o.Wait > maxWait:
			t.Fatalf("wait %v", o.Wait)
		}
		_ = o.Class.String()
	})
}

// FuzzParseWait: any body, JSON or not; a wait found is within maxWait and
// only where the API's sentence is.
func FuzzParseWait(f *testing.F) {
	for _, s := range []string{`{"mensaje":"Debe esperar 12 segundos"}`, `debe   esperar 0,5 segundo`, `Debe esperar 1e9 segundos`, `Debe esperar -3 segundos`, `esperar 3 segundos`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d, ok := ParseWait(body)
		if !ok {
			if d != 0 {
				t.Fatalf("no wait found, yet %v", d)
			}
			return
		}
		if d < 0 || d > maxWait || !strings.Contains(strings.ToLower(string(body)), "esperar") {
			t.Fatalf("ParseWait(%q) = %v", body, d)
		}
	})
}

// FuzzAPIText feeds any error body to what quotes the API: its message and
// its mensajes list.
func FuzzAPIText(f *testing.F) {
	for _, s := range []string{`{"mensaje":"x"}`, `{"message":"y","mensajes":["a",2,null]}`, `{"datos":{"error":"z"}}`, `plain text`, `[]`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = apiMessage(body)
		_ = mensajes(body)
	})
}

// fuzzRead holds the decoder of a read's answer to: never panic; a
// refusal or a value.
func fuzzRead[T any](f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v T
		if err := nxapi.Decode(b, &v); err != nil {
			var we *nxapi.WireError
			if errors.As(err, &we) && we.Got == "" {
				t.Fatalf("a WireError that quotes nothing: %+v", we)
			}
		}
	})
}

func FuzzPuntosVenta(f *testing.F) {
	fuzzRead[[]PuntoVenta](f, `[{"puntoVentaId":1,"numero":2,"nombre":"Caja","sucursalId":1}]`, `[{"puntoVentaId":"1","nombre":7}]`, `null`, `{}`)
}

func FuzzEmpleados(f *testing.F) {
	fuzzRead[[]Empleado](f, `[{"empleadoId":3,"nombre":"Ana","sucursalId":1}]`, `[{"empleadoId":1.5}]`, `[null]`)
}

func FuzzDepositos(f *testing.F) {
	fuzzRead[[]nxapi.Deposito](f, `[{"depositoId":1,"nombre":"Central","sucursalId":1,"sucursalNombre":"Casa Central","default":true}]`, `[{"depositoId":"x"}]`)
}
