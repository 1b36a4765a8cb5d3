package schema

import (
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// TestParseTipoMedioFor: a known type reads the same for every kind; an
// unknown one is answered with the types the kind's endpoint takes, so a
// sale is never told to use TARJETA or CUENTA_CORRIENTE.
func TestParseTipoMedioFor(t *testing.T) {
	tests := []struct {
		in      string
		kind    Kind
		want    nxapi.TipoMedio
		says    string
		notSays string
	}{
		{"efectivo", Venta, nxapi.Efectivo, "", ""},
		{"5", Facturar, nxapi.TarjetaMedio, "", ""},
		{"cheque", Venta, 0, "EFECTIVO, DEPOSITO_BANCO o VIRTUAL", "TARJETA"},
		{"cheque", Facturar, 0, "TARJETA, CUENTA_CORRIENTE", ""},
	}
	for _, tc := range tests {
		got, err := ParseTipoMedioFor(tc.in, tc.kind)
		if got != tc.want {
			t.Errorf("%s for %s: %v, want %v", tc.in, tc.kind, got, tc.want)
		}
		if (err != nil) != (tc.says != "") {
			t.Fatalf("%s for %s: error %v", tc.in, tc.kind, err)
		}
		if err == nil {
			continue
		}
		text := err.(*msg.Error).Msg.In(msg.ES)
		if !strings.Contains(text, tc.says) || (tc.notSays != "" && strings.Contains(text, tc.notSays)) {
			t.Errorf("%s for %s says %q", tc.in, tc.kind, text)
		}
	}
}
