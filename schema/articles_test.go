package schema

import (
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

func TestArticleHeaderSynonyms(t *testing.T) {
	tests := []struct {
		kind   Kind
		header string
		want   string // the path it fills; "" none
	}{
		{Venta, "Código", "productos.codigo"},
		{Venta, "Cód. artículo", "productos.codigo"},
		{Venta, "Codigo de articulo", "productos.codigo"},
		{Venta, "SKU", "productos.codigo"},
		{Venta, "Código de barras", "productos.codigoBarras"},
		{Venta, "EAN", "productos.codigoBarras"},
		{Venta, "Cod. barras", "productos.codigoBarras"},
		{Venta, "Talle", "productos.talle"},
		{Venta, "Talla", "productos.talle"},
		{Venta, "Color", "productos.color"},
		{Venta, "codigoBarras", "productos.codigoBarras"},
		{Venta, "productos.codigo", "productos.codigo"},
		{Stock, "Código", "articulos.codigo"},
		{Stock, "SKU", "articulos.codigo"},
		{Stock, "EAN 13", "articulos.codigoBarras"},
		{Stock, "Talle", "articulos.talle"},
		{Stock, "Color", "articulos.color"},
		{Stock, "articulos.talle", "articulos.talle"},
		// Not an article column: a postal code is not an article code.
		{Venta, "Código postal", ""},
		{Facturar, "SKU", ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"/"+tt.header, func(t *testing.T) {
			lay, _ := Match(tt.kind, []string{tt.header}, nil)
			got := ""
			for p, i := range lay.Index {
				if i == 0 {
					got = p
				}
			}
			if got != tt.want {
				t.Errorf("%q fills %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

func TestArticleColumnsStandInForTheID(t *testing.T) {
	venta := []string{"ordenId", "subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo", "precio", "cantidad"}
	tests := []struct {
		name    string
		kind    Kind
		header  []string
		missing string // "" when the header is complete
	}{
		{"id", Venta, append([]string{"articuloId"}, venta...), ""},
		{"code", Venta, append([]string{"Código"}, venta...), ""},
		{"barcode", Venta, append([]string{"EAN"}, venta...), ""},
		{"size alone names no article", Venta, append([]string{"Talle"}, venta...), "productos.articuloId (or productos.codigo or productos.codigoBarras)"},
		{"stock by code", Stock, []string{"depositoId", "motivoId", "tipo", "SKU", "cantidad"}, ""},
		{"stock without article", Stock, []string{"depositoId", "motivoId", "tipo", "cantidad"}, "articulos.articuloId (or articulos.codigo or articulos.codigoBarras)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Match(tt.kind, tt.header, nil)
			got := ""
			for _, e := range errs {
				if e.Msg.Key == "hdr.missing" {
					got = e.Msg.Args[1].(msg.Localizer).In(msg.EN)
				} else {
					t.Errorf("unexpected %s", e.Msg.In(msg.EN))
				}
			}
			if got != tt.missing {
				t.Errorf("missing = %q, want %q", got, tt.missing)
			}
		})
	}
	_, errs := Match(Venta, venta, nil)
	if len(errs) != 1 {
		t.Fatalf("errs = %v", errs)
	}
	if es := errs[0].Msg.In(msg.ES); es != "para un archivo de tipo venta faltan columnas obligatorias: productos.articuloId (o productos.codigo o productos.codigoBarras). Agréguelas al encabezado o indique con --map cómo se llaman en su planilla" {
		t.Errorf("Spanish: %s", es)
	}
}

func TestIsArticleKey(t *testing.T) {
	for p, want := range map[string]bool{"productos.codigo": true, "articulos.color": true, "productos.articuloId": false, "codigo": false} {
		if IsArticleKey(p) != want {
			t.Errorf("IsArticleKey(%q) = %v", p, !want)
		}
	}
}

func TestArticleSynonymsLeaveOtherColumnsAlone(t *testing.T) {
	// Columns a shop keeps for itself are carried through, not read as
	// the article's keys.
	for _, h := range []string{"codigo interno", "medida", "barras", "código postal", "descripción"} {
		lay, _ := Match(Venta, []string{h}, nil)
		if len(lay.Index) != 0 {
			t.Errorf("%q fills %v", h, lay.Index)
		}
	}
}
