package reconcile

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// newWireWorld is newWorld whose GET /comprobante/{id} answers the
// hand-written body of comprobantes[id], as the vendor's wire would
// (public-facts.md, "Wire types"); everything else is the sandbox's.
func newWireWorld(t *testing.T, comprobantes map[string]string) *world {
	t.Helper()
	sb, err := sandbox.New(sandbox.DemoData(), sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id, ok := strings.CutPrefix(r.URL.Path, nxapi.PathComprobante); ok && comprobantes[id] != "" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(comprobantes[id]))
			return
		}
		sb.ServeHTTP(w, r)
	})
	return worldOver(t, sb, h)
}

// undecidedWhy is the Spanish reason an entry was left unknown with, and
// whether a retry time came with it.
func undecidedWhy(res *Result, business string) (string, bool, bool) {
	for _, u := range res.Undecided {
		if u.Key.Business == business {
			return u.Why.In(msg.ES), !u.RetryAt.IsZero(), true
		}
	}
	return "", false, false
}

// TestFacturarVendorWire: a presale is settled from comprobanteTipo as the
// vendor's wire writes it (an integer; estado an integer too, whose codes
// decide nothing); a field of an unexpected type leaves it unknown, said
// in Spanish with what came quoted.
func TestFacturarVendorWire(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		state journal.State
		why   []string // parts of the reason it was left unknown with
	}{
		{"converted: a sale now", `{"facturaId":1001,"ordenId":"77003","comprobanteTipo":2,"estado":1,"numero":5,"pVNumero":2,` +
			`"fecha":"01/01/2000 00:00:10","sucursalId":1,"puntoVentaId":1,"empleadoId":0,"sref":null,` +
			`"totales":{"subTotal":10,"descuento":0,"recargo":0,"envio":0,"total":10,"pagado":10,"saldo":0},"items":[]}`, journal.OK, nil},
		{"numbers as strings", `{"facturaId":"1001","ordenId":null,"comprobanteTipo":"2","estado":"1","numero":"5","pVNumero":"2"}`, journal.OK, nil},
		{"still a presale", `{"facturaId":1001,"ordenId":null,"comprobanteTipo":33,"estado":1}`, journal.Failed, nil},
		{"a presale whatever estado says", `{"facturaId":1001,"comprobanteTipo":33,"estado":"FACTURADA"}`, journal.Failed, nil},
		{"another type", `{"facturaId":1001,"comprobanteTipo":4,"estado":9}`, journal.Unknown,
			[]string{"comprobanteTipo 4", `estado "9"`, "verifique en el ERP"}},
		{"no type", `{"facturaId":1001,"estado":3}`, journal.Unknown, []string{"comprobanteTipo 0"}},
		{"type an object", `{"facturaId":1001,"comprobanteTipo":{"id":2},"estado":1}`, journal.Unknown,
			[]string{`"comprobanteTipo"`, `«object {"id":2}»`, "no se decide nada"}},
		{"estado an object", `{"facturaId":1001,"comprobanteTipo":2,"estado":{"nombre":"FACTURADA"}}`, journal.Unknown,
			[]string{`"estado"`, "FACTURADA"}},
		{"ordenId a boolean", `{"facturaId":1001,"ordenId":true,"comprobanteTipo":2,"estado":1}`, journal.Unknown,
			[]string{`"ordenId"`, "boolean true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWireWorld(t, map[string]string{"1001": tt.body})
				w.invoice(1001, false)
				time.Sleep(time.Minute) // past the key hold
				_, res := w.reconcile(t.Context(), Options{Kinds: []string{KindFacturar}}, true)
				e := w.entry(KindFacturar, 1001)
				if e.State != tt.state {
					t.Fatalf("1001 is %s, want %s (undecided %+v)", e.State, tt.state, res.Undecided)
				}
				switch tt.state {
				case journal.OK:
					if e.FacturaID != 1001 || e.Numero != 5 || e.PVNumero != 2 || !strings.Contains(e.Note, "comprobanteTipo 2") {
						t.Errorf("ok entry %+v", e)
					}
				case journal.Unknown:
					why, retry, ok := undecidedWhy(res, "1001")
					if !ok || retry {
						t.Fatalf("undecided %+v: want 1001 left for a person", res.Undecided)
					}
					for _, part := range tt.why {
						if !strings.Contains(why, part) {
							t.Errorf("reason %q, want %q in it", why, part)
						}
					}
				}
			})
		})
	}
}

// TestVentaVendorWire: the voucher of a sale whose answer was lost carries
// its ordenId as the vendor's wire writes it, a string, compared with the
// journal's key by value; an ordenId that is no number, or a field of an
// unexpected type, leaves the sale unknown (never failed: the voucher may
// be it), with what came quoted.
func TestVentaVendorWire(t *testing.T) {
	const voucher = "50001" // the sandbox's first voucher: the sale below
	tests := []struct {
		name  string
		body  string // "" answers the sandbox's own
		state journal.State
		why   []string
	}{
		{"the sandbox's own wire", "", journal.OK, nil},
		{"string ordenId", `{"facturaId":50001,"ordenId":"4","comprobanteTipo":2,"estado":1,"numero":4,"pVNumero":1}`, journal.OK, nil},
		{"leading zero", `{"facturaId":50001,"ordenId":"0004","comprobanteTipo":2,"estado":1,"numero":4,"pVNumero":1}`, journal.OK, nil},
		{"number ordenId", `{"facturaId":50001,"ordenId":4,"comprobanteTipo":2,"estado":1,"numero":4,"pVNumero":1}`, journal.OK, nil},
		{"another order's", `{"facturaId":50001,"ordenId":"5","comprobanteTipo":2,"estado":1}`, journal.Failed, nil},
		{"no ordenId", `{"facturaId":50001,"ordenId":null,"comprobanteTipo":2,"estado":1}`, journal.Failed, nil},
		{"ordenId not a number", `{"facturaId":50001,"ordenId":"abc","comprobanteTipo":2,"estado":1}`, journal.Unknown,
			[]string{"50001", `ordenId "abc"`, "no es un número"}},
		{"ordenId an object", `{"facturaId":50001,"ordenId":{"id":4},"comprobanteTipo":2,"estado":1}`, journal.Unknown,
			[]string{"50001", `"ordenId"`, `«object {"id":4}»`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWireWorld(t, map[string]string{voucher: tt.body})
				w.sell(4, 0, 1500, true, journal.Unknown) // processed, answer lost
				time.Sleep(11 * time.Minute)              // past SettleAfter
				_, res := w.reconcile(t.Context(), Options{Scope: demoScope()}, true)
				e := w.entry(KindVenta, 4)
				if e.State != tt.state {
					t.Fatalf("sale 4 is %s, want %s (undecided %+v)", e.State, tt.state, res.Undecided)
				}
				switch tt.state {
				case journal.OK:
					if e.FacturaID != 50001 || e.Numero != 4 {
						t.Errorf("ok entry %+v", e)
					}
				case journal.Unknown:
					why, retry, ok := undecidedWhy(res, "4")
					if !ok || retry {
						t.Fatalf("undecided %+v: want sale 4 left for a person", res.Undecided)
					}
					for _, part := range tt.why {
						if !strings.Contains(why, part) {
							t.Errorf("reason %q, want %q in it", why, part)
						}
					}
				}
			})
		})
	}
}

// TestReadFailedInTheRunsLanguage: an answer that is not the JSON the API
// documents leaves the presale unknown with a Spanish reason, never the
// decoder's English ("decoding the answer: json: cannot unmarshal…",
// issue 23, hole 13).
func TestReadFailedInTheRunsLanguage(t *testing.T) {
	for _, body := range []string{`<html>proxy</html>`, `[1,2]`, `{"facturaId":1001,"comprobanteTipo":2`} {
		synctest.Test(t, func(t *testing.T) {
			w := newWireWorld(t, map[string]string{"1001": body})
			w.invoice(1001, false)
			time.Sleep(time.Minute) // past the key hold
			_, res := w.reconcile(t.Context(), Options{Kinds: []string{KindFacturar}}, true)
			why, _, ok := undecidedWhy(res, "1001")
			if !ok {
				t.Fatalf("%s: undecided %+v, want 1001 left unknown", body, res.Undecided)
			}
			for _, english := range []string{"decoding", "json:", "cannot", "invalid character", "unexpected"} {
				if strings.Contains(why, english) {
					t.Errorf("%s: reason %q has English %q", body, why, english)
				}
			}
			if !strings.Contains(why, "respuesta no se pu") {
				t.Errorf("%s: reason %q does not say the answer could not be read", body, why)
			}
		})
	}
}
