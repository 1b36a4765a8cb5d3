package validation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func TestCount(t *testing.T) {
	cat := &Catalog{
		Depositos: []nxapi.Deposito{{DepositoID: 1, Nombre: "Central"}, {DepositoID: 2, Nombre: "Local"}},
		Motivos:   []nxapi.Motivo{{MotivoID: 3, Nombre: "Conteo"}},
	}
	good := func() (*nxapi.StockMovimiento, []*nxapi.Decimal) {
		return &nxapi.StockMovimiento{DepositoID: 1, MotivoID: 3, Fecha: "2026-11-30",
				Articulos: []nxapi.StockArticulo{{ArticuloID: 100}, {ArticuloID: 101, TalleID: 5, ColorID: 9}}},
			[]*nxapi.Decimal{dec("12"), dec("0")}
	}
	tests := []struct {
		name   string
		change func(*nxapi.StockMovimiento, []*nxapi.Decimal) []*nxapi.Decimal
		cat    *Catalog
		want   []string // "field line key"
	}{
		{"valid, zero counted", nil, cat, nil},
		{"decimals counted", func(_ *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			c[0] = dec("2.5")
			return c
		}, cat, nil},
		{"negative count", func(_ *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			c[1] = dec("-1")
			return c
		}, cat, []string{"articulos.cantidadContada 1 val.count.negative"}},
		{"empty count", func(_ *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			c[0] = nil
			return c
		}, cat, []string{"articulos.cantidadContada 0 val.count.required"}},
		{"warehouse outside the integration", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.DepositoID = 7
			return c
		}, cat, []string{"depositoId -1 val.count.deposito"}},
		{"warehouse unchecked without the catalog", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.DepositoID = 7
			return c
		}, nil, nil},
		{"no warehouse", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.DepositoID = 0
			return c
		}, cat, []string{"depositoId -1 val.id.required"}},
		{"no motivo", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.MotivoID = 0
			return c
		}, cat, []string{"motivoId -1 val.id.apiRequired"}},
		{"bad fecha", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.Fecha = "30/11/2026"
			return c
		}, cat, []string{"fecha -1 val.stock.fecha"}},
		{"no article", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.Articulos[1].ArticuloID = 0
			return c
		}, cat, []string{"articulos.articuloId 1 val.id.required"}},
		{"no tipo needed", func(m *nxapi.StockMovimiento, c []*nxapi.Decimal) []*nxapi.Decimal {
			m.Tipo = 0
			return c
		}, cat, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, c := good()
			if tt.change != nil {
				c = tt.change(m, c)
			}
			var got []string
			for _, is := range Count(m, c, tt.cat) {
				got = append(got, fmt.Sprintf("%s %d %s", is.Field, is.Line, is.Msg.Key))
				if s := is.In(msg.ES); strings.Contains(s, "%!") {
					t.Errorf("malformed %q", s)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("issues %v, want %v", got, tt.want)
			}
		})
	}
	if s := Count(&nxapi.StockMovimiento{DepositoID: 7, MotivoID: 3, Articulos: []nxapi.StockArticulo{{ArticuloID: 1}}},
		[]*nxapi.Decimal{dec("1")}, cat)[0].In(msg.ES); !strings.Contains(s, "depósito 7") || !strings.Contains(s, "Central") {
		t.Errorf("warehouse message %q names neither the warehouse nor the valid ones", s)
	}
}
