package sandbox

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/samples"
)

func TestDemoDataMatchesTheContract(t *testing.T) {
	d := DemoData()
	if d.Config.AppID != 1 || d.Config.Nombre != "Demo Integración" || d.Config.FlujoDeposito != 1 || d.Config.PuntoVentaID != 1 || !d.Config.MultiDeposito {
		t.Fatalf("config %+v", d.Config)
	}
	comp := map[int64]DataComprobante{}
	for _, c := range d.Comprobantes {
		comp[c.FacturaID] = c
	}
	for id := int64(1001); id <= 1012; id++ {
		if c := comp[id]; c.Estado != estadoPendiente || c.ComprobanteTipo != 33 || !c.Propio {
			t.Errorf("presale %d: %+v", id, c)
		}
	}
	if comp[1013].Estado != "PAGADO" || comp[2001].Propio {
		t.Errorf("1013 %+v, 2001 %+v", comp[1013], comp[2001])
	}
	if len(d.Articulos) != 23 || d.Articulos[0].Codigo != "A100" || len(d.Articulos[4].Variantes) != 6 || len(d.Articulos[5].Variantes) != 0 {
		t.Errorf("articulos")
	}
	// The article catalog's cases: every variant has a barcode, one
	// article is deactivated, one code has leading zeros, one article has
	// sizes only, and sizes and colours have codes besides their names.
	barras := map[string]bool{}
	var eliminados, soloTalles int
	for _, a := range d.Articulos {
		if a.Eliminado {
			eliminados++
		}
		if a.talleColor() == nxapi.SoloTalles {
			soloTalles++
		}
		codes := []string{a.CodigoBarras}
		if len(a.Variantes) > 0 {
			codes = nil
			for _, v := range a.Variantes {
				codes = append(codes, v.CodigoBarras)
			}
		}
		for _, c := range codes {
			if c == "" || barras[c] {
				t.Errorf("articulo %d: barcode %q empty or repeated", a.ArticuloID, c)
			}
			barras[c] = true
		}
	}
	if eliminados != 1 || soloTalles != 1 || d.Articulos[21].Codigo != "00121" {
		t.Errorf("eliminados %d, size-only %d, article 121 %q", eliminados, soloTalles, d.Articulos[21].Codigo)
	}
	for _, n := range append(slices.Clone(d.Colores), d.Talles...) {
		if n.Codigo == "" || n.Codigo == n.Nombre {
			t.Errorf("size or colour %+v: its code must differ from its name", n)
		}
	}
	if !d.Motivos[3].Eliminado || d.Motivos[3].MotivoID != 4 {
		t.Errorf("motivo 4 must be eliminado")
	}
}

func TestLoadDataRejectsBrokenFiles(t *testing.T) {
	var demo map[string]any
	if err := json.Unmarshal(samples.SandboxData, &demo); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		json.Unmarshal(samples.SandboxData, &m)
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	list := func(m map[string]any, k string) []any { return m[k].([]any) }
	for _, tc := range []struct {
		name, file, want string
	}{
		{"not JSON", `{"config":`, "sandbox data"},
		{"unknown field", edit(func(m map[string]any) { m["depositoss"] = []any{} }), "unknown field"},
		{"trailing content", string(samples.SandboxData) + "{}", "after the JSON object"},
		{"duplicate warehouse", edit(func(m map[string]any) {
			m["depositos"] = append(list(m, "depositos"), list(m, "depositos")[1])
		}), "deposito 2: id must be positive and unique"},
		{"no main warehouse", edit(func(m map[string]any) {
			list(m, "depositos")[0].(map[string]any)["principal"] = false
		}), "exactly one must be principal"},
		{"warehouse of unknown branch", edit(func(m map[string]any) {
			list(m, "depositos")[1].(map[string]any)["sucursalId"] = 77
		}), "deposito 2: sucursal 77 does not exist"},
		{"config point of sale", edit(func(m map[string]any) { m["config"].(map[string]any)["puntoVentaId"] = 5 }), "config.puntoVentaId 5"},
		{"stock of unknown variant", edit(func(m map[string]any) {
			m["stock"] = []any{map[string]any{"articuloId": 100, "colorId": 9, "talleId": 1, "depositoId": 1, "unidades": 3}}
		}), "articulo 100 has no variant color 9"},
		{"voucher without estado", edit(func(m map[string]any) {
			list(m, "comprobantes")[0].(map[string]any)["estado"] = ""
		}), "comprobante 1001: estado is empty"},
		{"voucher with an ISO fecha", edit(func(m map[string]any) {
			list(m, "comprobantes")[0].(map[string]any)["fecha"] = "2026-09-02T10:00:00"
		}), `comprobante 1001: fecha "2026-09-02T10:00:00" must be dd/MM/yyyy HH:mm:ss`},
		{"sale without fecha", edit(func(m map[string]any) {
			c := list(m, "comprobantes")[0].(map[string]any)
			c["comprobanteTipo"], c["estado"], c["fecha"] = 2, "FACTURA_VENTA", ""
		}), `comprobante 1001: fecha "" must be`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadData(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := LoadData(bytes.NewReader(samples.SandboxData)); err != nil {
		t.Fatalf("demo data: %v", err)
	}
}

func TestStockOverridesFromData(t *testing.T) {
	d := DemoData()
	d.Stock = append(d.Stock, StockLevel{ArticuloID: 101, ColorID: 2, TalleID: 3, DepositoID: 4, Unidades: 0})
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.StockOf(101, 2, 3, 4) != 0 || s.StockOf(101, 2, 3, 3) == 0 || s.StockOf(101, 1, 1, 9) != 0 {
		t.Fatalf("stock levels wrong")
	}
}
