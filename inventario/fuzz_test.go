package inventario

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// FuzzParseJournaled: whatever a journal unit's body holds (a movements
// file's article line, a damaged entry), reading it as a count's never
// panics, and a body it accepts says the same written again.
func FuzzParseJournaled(f *testing.F) {
	q := nxapi.DecimalFromInt(5)
	good, _ := json.Marshal(Journaled{Contada: nxapi.DecimalFromInt(3), ERP: nxapi.DecimalFromInt(8),
		Leido: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), Tipo: nxapi.EgresoStock, Linea: &nxapi.StockArticulo{ArticuloID: 101, Cantidad: &q}})
	for _, s := range []string{string(good), `{"articuloId":100,"cantidad":3}`, `{"contada":1,"erp":1,"leido":"2026-12-01T12:00:00Z"}`, ``, `null`, `{"leido":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		j, ok := ParseJournaled(body)
		if !ok {
			if j != (Journaled{}) {
				t.Fatalf("refused body %q gave %+v", body, j)
			}
			return
		}
		again, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		k, ok := ParseJournaled(string(again))
		if !ok || k.Contada != j.Contada || k.ERP != j.ERP || !k.Leido.Equal(j.Leido) || k.Tipo != j.Tipo || k.Moved() != j.Moved() {
			t.Fatalf("%q read back as %+v, then %+v", body, j, k)
		}
	})
}
