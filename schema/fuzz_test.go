package schema

import (
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1.234,56", "1,234.56", "-0,5", "1E-05", "$ 3", "1.234.5", "٣", "9999999999999999"} {
		f.Add(s, 0, false)
		f.Add(s, 1, true)
	}
	f.Fuzz(func(t *testing.T, s string, sep int, raw bool) {
		if fast, ok := plainNumber(s, Sep(sep%3), raw); ok {
			slow, err := parseNumberText(s, Sep(sep%3), raw)
			if err != nil || slow != fast {
				t.Fatalf("%q: fast path %v, general path %v, %v", s, fast, slow, err)
			}
		}
		d, err := ParseNumber(s, Sep(sep%3), raw)
		if err != nil {
			if _, ok := err.(*msg.Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Whatever parsed must print and parse back to the same value.
		back, err := nxapi.ParseDecimal(d.String())
		if err != nil || back != d {
			t.Fatalf("%q -> %v -> %v, %v", s, d, back, err)
		}
	})
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"23/11/2026", "2026-11-23", "31/02/2026", "46349", "1e308", "-1"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		_, _ = ParseDate(s, raw, false)
		_, _ = ParseDate(s, raw, true)
	})
}

func FuzzMatch(f *testing.F) {
	f.Add("ordenId,total,Precio,medio pago.tipo")
	f.Add("Dépósito,,tipo")
	f.Add("depositoId,motivoId,articuloId,Conteo,cantidad")
	f.Add("ordenId,Cód. artículo,EAN,Talle,Color,SKU")
	f.Fuzz(func(t *testing.T, line string) {
		var header []string
		start := 0
		for i := 0; i <= len(line); i++ {
			if i == len(line) || line[i] == ',' {
				header = append(header, line[start:i])
				start = i + 1
			}
		}
		for _, k := range Kinds {
			lay, errs := Match(k, header, nil)
			for _, e := range errs {
				_ = e.Msg.In(msg.EN) // the missing-columns list renders in both languages
				_ = e.Msg.In(msg.ES)
			}
			for path, i := range lay.Index {
				if i < 0 || i >= len(header) {
					t.Fatalf("%s -> index %d outside header", path, i)
				}
				if _, ok := lay.columnOf(path); !ok {
					t.Fatalf("matched unknown path %s", path)
				}
				if _, ok := k.Column(path); !ok && !lay.Count {
					t.Fatalf("matched path %s, not of kind %s", path, k)
				}
			}
		}
		DetectKind(header, nil)
	})
}
