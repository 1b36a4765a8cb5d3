package schema

import (
	"slices"
	"testing"
)

// TestSuggest: common Argentine headers are proposed their field, a header
// that could be two fields is a question, Match's own choice wins and a
// field is never proposed twice.
func TestSuggest(t *testing.T) {
	tests := []struct {
		name    string
		kind    Kind
		header  []string
		path    []string   // per column, "" for none
		choices [][]string // per column, the question's fields
	}{
		{"sale in the user's words", Venta,
			[]string{"Nro Pedido", "Importe", "Forma de pago", "CUIT", "Razón social", "Código", "Cantidad", "Precio"},
			[]string{"ordenId", "total", "medioPago.tipo", "usuario.cuit", "usuario.nombre", "productos.codigo", "productos.cantidad", "productos.precio"},
			nil},
		{"N° de orden with its sign", Venta, []string{"N° de orden", "Nº de orden"}, []string{"ordenId", ""}, nil},
		{"Cuenta is a question", Venta, []string{"ordenId", "Cuenta"}, []string{"ordenId", ""},
			[][]string{nil, {"entidadId", "medioPago.cuentaBancariaId"}}},
		{"exact header wins over a synonym", Venta, []string{"Total", "Importe"}, []string{"total", ""}, nil},
		{"stock count", Stock, []string{"Depósito", "Motivo", "Código", "Cantidad contada"},
			[]string{"depositoId", "motivoId", "articulos.codigo", "articulos.cantidadContada"}, nil},
		{"nothing for an unknown header", Venta, []string{"Zona de reparto"}, []string{""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Suggest(tt.kind, tt.header)
			for i := range tt.header {
				if got[i].Path != tt.path[i] {
					t.Errorf("%q: got %q, want %q", tt.header[i], got[i].Path, tt.path[i])
				}
				var want []string
				if i < len(tt.choices) {
					want = tt.choices[i]
				}
				if !slices.Equal(got[i].Choices, want) {
					t.Errorf("%q: choices %v, want %v", tt.header[i], got[i].Choices, want)
				}
			}
		})
	}
}

// TestSynonymsNameFields: every synonym names a column of some kind, so a
// renamed field cannot leave dead entries behind.
func TestSynonymsNameFields(t *testing.T) {
	for p := range pageSynonyms {
		if canonicalPaths()[Normalize(p)] != p {
			t.Errorf("pageSynonyms list %q, which is no column", p)
		}
	}
}
