package schema

import (
	"slices"
	"strings"
	"testing"
)

func TestCountColumnsReplaceTheQuantity(t *testing.T) {
	var paths []string
	for _, c := range CountColumns() {
		paths = append(paths, c.Path)
	}
	for _, want := range []string{"depositoId", "motivoId", "fecha", "detalle", "articulos.articuloId", CantidadContada, "articulos.talleId", "articulos.colorId"} {
		if !slices.Contains(paths, want) {
			t.Errorf("count columns lack %s: %v", want, paths)
		}
	}
	for _, no := range []string{"tipo", "articulos.cantidad", "depositoDosId", "sucursalDosId"} {
		if slices.Contains(paths, no) {
			t.Errorf("count columns carry %s: %v", no, paths)
		}
	}
	c, _ := (&Layout{Kind: Stock, Count: true}).columnOf(CantidadContada)
	if c.Type != Number || c.Level != LineLevel || !c.Required {
		t.Errorf("%s = %+v, want a required number line column", CantidadContada, c)
	}
}

// columnOf finds path among the layout's columns.
func (l *Layout) columnOf(path string) (Column, bool) {
	for _, c := range l.Columns() {
		if c.Path == path {
			return c, true
		}
	}
	return Column{}, false
}

func TestMatchCount(t *testing.T) {
	tests := []struct {
		name    string
		header  []string
		m       Mapping
		count   bool
		counted int      // header index of the counted quantity (-1: none)
		errs    []string // message keys, in order
	}{
		{"movement file stays a movement file", []string{"depositoId", "motivoId", "tipo", "articuloId", "cantidad"}, nil, false, -1, nil},
		{"by path", []string{"depositoId", "motivoId", "articulos.articuloId", "articulos.cantidadContada"}, nil, true, 3, nil},
		{"by last part, spaced", []string{"Deposito Id", "Motivo Id", "Articulo Id", "Cantidad contada"}, nil, true, 3, nil},
		{"synonym conteo", []string{"depositoId", "motivoId", "articuloId", "Conteo"}, nil, true, 3, nil},
		{"synonym stock contado with accents", []string{"depositoId", "motivoId", "articuloId", "Stock Contado"}, nil, true, 3, nil},
		{"synonym stock físico", []string{"depositoId", "motivoId", "articuloId", "Stock físico"}, nil, true, 3, nil},
		{"mapped", []string{"depositoId", "motivoId", "articuloId", "Lo que hay"}, Mapping{Normalize("Lo que hay"): CantidadContada}, true, 3, nil},
		{"mixed with cantidad", []string{"depositoId", "motivoId", "articuloId", "cantidad", "Cantidad contada"}, nil, true, 4, []string{"hdr.count.mixed"}},
		{"with tipo", []string{"depositoId", "motivoId", "tipo", "articuloId", "articulos.cantidadContada"}, nil, true, 4, []string{"hdr.count.tipo"}},
		{"a movement file with a column of its own called conteo", []string{"depositoId", "motivoId", "tipo", "articuloId", "cantidad", "conteo"}, nil, false, -1, nil},
		{"a movement file with a contado column", []string{"depositoId", "motivoId", "tipo", "articuloId", "cantidad", "contado"}, nil, false, -1, nil},
		{"mapped beside cantidad is mixed", []string{"depositoId", "motivoId", "articuloId", "cantidad", "Lo que hay"}, Mapping{Normalize("Lo que hay"): CantidadContada}, true, 4, []string{"hdr.count.mixed"}},
		{"missing motivo", []string{"depositoId", "articuloId", "conteo"}, nil, true, 2, []string{"hdr.count.missing"}},
		{"articles by code", []string{"depositoId", "motivoId", "articulos.codigo", "Talle", "Color", "Conteo"}, nil, true, 5, nil},
		{"articles by barcode", []string{"depositoId", "motivoId", "Código de barras", "Stock contado"}, nil, true, 3, nil},
		{"no article column", []string{"depositoId", "motivoId", "Talle", "Conteo"}, nil, true, 3, []string{"hdr.count.missing"}},
		{"counted twice", []string{"depositoId", "motivoId", "articuloId", "conteo", "Cantidad contada"}, nil, true, 3, []string{"hdr.duplicate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, ok := DetectKind(tt.header, tt.m)
			if !ok || k != Stock {
				t.Fatalf("DetectKind = %q, %v; want stock", k, ok)
			}
			lay, errs := Match(Stock, tt.header, tt.m)
			if lay.Count != tt.count {
				t.Errorf("Count = %v, want %v", lay.Count, tt.count)
			}
			if got := lay.Col(CantidadContada); got != tt.counted {
				t.Errorf("counted quantity at %d, want %d", got, tt.counted)
			}
			var keys []string
			for _, e := range errs {
				keys = append(keys, e.Msg.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tt.errs, ",") {
				t.Errorf("errors %v, want %v", keys, tt.errs)
			}
			for _, e := range errs {
				if es := e.Msg.In("es"); strings.Contains(es, "%!") {
					t.Errorf("malformed message %q", es)
				}
			}
		})
	}
}

func TestMappingAcceptsTheCountedQuantity(t *testing.T) {
	if got := canonicalPaths()[Normalize(CantidadContada)]; got != CantidadContada {
		t.Fatalf("a --map entry cannot name %s (got %q)", CantidadContada, got)
	}
}
