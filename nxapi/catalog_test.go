package nxapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

const groupedSample = `[{"articuloId":100,"codigo":"A100","descripcion":"Remera","descripcionWeb":"Remera web","nombre":"Remera básica",
 "talleColor":3,"precio1":1000.5,"stockTotal":25,"imagen":"x.jpg",
 "curva":[{"articuloId":100,"colorId":1,"talleId":2,"colorNombre":"Negro","colorCodigo":"NG","colorHex":"#000000",
   "talleNombre":"M","talleCodigo":"MD","codigoBarras":"7790000100021","unidades":10,
   "stockDepositos":[{"depositoId":1,"unidades":4},{"depositoId":2,"unidades":6}]},
  {"articuloId":100,"colorId":2,"talleId":2,"colorNombre":"Blanco","talleNombre":"M","codigoBarras":"7790000100038","unidades":15}],
 "tags":[{"articuloId":100,"articuloTagId":1,"tipo":2,"tagId":7,"tagNombre":"Marca","padreId":null,"destacada":false}]},
 {"articuloId":105,"codigo":"A105","nombre":"Medias","stockTotal":"7","curva":[]}]`

const flatSample = `[{"articuloId":100,"codigo":"A100","nombre":"Remera básica","talleColor":3,"precio1":1000.5,
 "colorId":1,"talleId":2,"colorNombre":"Negro","colorCodigo":"NG","talleNombre":"M","talleCodigo":"MD",
 "codigoBarras":"7790000100021","unidades":10,"stockDepositos":[{"depositoId":1,"unidades":4}]},
 {"articuloId":120,"eliminado":true,"unidades":0}]`

func TestDecodeGetDataShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
	}{
		{"array", groupedSample},
		{"data", `{"data":` + groupedSample + `}`},
		{"bom and blanks", "\uFEFF \n" + groupedSample + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arts, err := DecodeGetData([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if len(arts) != 2 {
				t.Fatalf("got %d articles, want 2", len(arts))
			}
			a := arts[0]
			if a.Codigo != "A100" || a.TalleColor != TallesColores || a.StockTotal != DecimalFromInt(25) || len(a.Curva) != 2 {
				t.Errorf("article = %+v", a)
			}
			c := a.Curva[0]
			if c.ColorCodigo != "NG" || c.TalleCodigo != "MD" || c.CodigoBarras != "7790000100021" || len(c.StockDepositos) != 2 {
				t.Errorf("curve entry = %+v", c)
			}
			if arts[1].StockTotal != DecimalFromInt(7) {
				t.Errorf("stockTotal as a string = %v, want 7", arts[1].StockTotal)
			}
		})
	}
}

func TestDecodeGetDataCurvaShapes(t *testing.T) {
	for _, body := range []string{flatSample, `{"data":` + flatSample + `}`} {
		recs, err := DecodeGetDataCurva([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 2 || recs[0].CodigoBarras != "7790000100021" || recs[0].TalleCodigo != "MD" || !recs[1].Eliminado {
			t.Errorf("records = %+v", recs)
		}
	}
}

func TestDecodeCatalogErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		body  string
		empty bool   // ErrEmptyCatalog
		wire  string // the field a *WireError names
	}{
		{name: "nothing", body: ""},
		{name: "blanks", body: "  \n"},
		{name: "html", body: "<html>error</html>"},
		{name: "number", body: "42"},
		{name: "truncated", body: `[{"articuloId":1,`},
		{name: "empty array", body: "[]", empty: true},
		{name: "empty data", body: `{"data":[]}`, empty: true},
		{name: "null data", body: `{"data":null}`, empty: true},
		{name: "other object", body: `{"error":"x"}`, empty: true},
		{name: "codigo object", body: `[{"articuloId":1,"codigo":{"a":1}}]`, wire: "codigo"},
		{name: "curva string", body: `[{"articuloId":1,"curva":"x"}]`, wire: "curva"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, dec := range []func([]byte) (int, error){
				func(b []byte) (int, error) { a, err := DecodeGetData(b); return len(a), err },
				func(b []byte) (int, error) { a, err := DecodeGetDataCurva(b); return len(a), err },
			} {
				n, err := dec([]byte(tc.body))
				if tc.name == "curva string" && err == nil {
					// GetDataCurva has no curva: the field is ignored.
					continue
				}
				if err == nil {
					t.Fatalf("no error, %d records", n)
				}
				if got := errors.Is(err, ErrEmptyCatalog); got != tc.empty {
					t.Fatalf("ErrEmptyCatalog = %v, want %v (%v)", got, tc.empty, err)
				}
				if tc.empty {
					continue
				}
				var ce *CatalogError
				if !errors.As(err, &ce) {
					t.Fatalf("error %T %v is not a *CatalogError", err, err)
				}
				var we *WireError
				if tc.wire != "" && (!errors.As(err, &we) || we.Field != tc.wire) {
					t.Errorf("error %v does not name field %s", err, tc.wire)
				}
			}
		})
	}
}

func TestFlatten(t *testing.T) {
	arts, err := DecodeGetData([]byte(groupedSample))
	if err != nil {
		t.Fatal(err)
	}
	arts = append(arts, Articulo{ArticuloID: 120, Eliminado: true})
	flat := Flatten(arts)
	if len(flat) != 4 {
		t.Fatalf("got %d records, want 4: %+v", len(flat), flat)
	}
	for i, want := range []struct {
		art          int64
		color, talle int64
		barras       string
		units        Decimal
		eliminado    bool
	}{
		{100, 1, 2, "7790000100021", DecimalFromInt(10), false},
		{100, 2, 2, "7790000100038", DecimalFromInt(15), false},
		{105, 0, 0, "", DecimalFromInt(7), false},
		{120, 0, 0, "", 0, true},
	} {
		r := flat[i]
		if r.ArticuloID != want.art || r.ColorID != want.color || r.TalleID != want.talle || r.CodigoBarras != want.barras ||
			r.Unidades != want.units || r.Eliminado != want.eliminado {
			t.Errorf("record %d = %+v, want %+v", i, r, want)
		}
	}
	if flat[0].Nombre != "Remera básica" || flat[1].Codigo != "A100" || flat[0].Precio1 == nil || *flat[0].Precio1 != NewDecimal(1000, 5000) {
		t.Errorf("article fields not carried: %+v", flat[0])
	}
}

// FuzzDecodeGetData: any answer decodes or is refused with a
// *CatalogError or ErrEmptyCatalog, never a panic; what decodes, flattens
// to at least one record per article.
func FuzzDecodeGetData(f *testing.F) {
	for _, s := range []string{groupedSample, `{"data":` + groupedSample + `}`, "[]", "", `[{"curva":null}]`, `{"data":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		arts, err := DecodeGetData(b)
		checkCatalogErr(t, err)
		if err == nil && len(Flatten(arts)) < len(arts) {
			t.Fatal("Flatten lost articles")
		}
	})
}

// FuzzDecodeGetDataCurva as FuzzDecodeGetData, for the flat answer.
func FuzzDecodeGetDataCurva(f *testing.F) {
	for _, s := range []string{flatSample, `{"data":` + flatSample + `}`, "[]", "", `[{"unidades":"1,5"}]`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := DecodeGetDataCurva(b)
		checkCatalogErr(t, err)
		if err == nil {
			// What decoded writes back and decodes to the same records.
			out, merr := json.Marshal(recs)
			if merr != nil {
				t.Fatal(merr)
			}
			again, err := DecodeGetDataCurva(out)
			if err != nil || len(again) != len(recs) {
				t.Fatalf("round trip: %v, %d != %d", err, len(again), len(recs))
			}
		}
	})
}

func checkCatalogErr(t *testing.T, err error) {
	t.Helper()
	var ce *CatalogError
	if err != nil && !errors.Is(err, ErrEmptyCatalog) && !errors.As(err, &ce) {
		t.Fatalf("error %T %v", err, err)
	}
}

// bigCurva is a GetDataCurva answer of n variants, 10 per article, in
// multi-warehouse mode, as a shop's catalog is.
func bigCurva(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		art := 100000 + i/10
		fmt.Fprintf(&b, `{"articuloId":%d,"codigo":"SKU-%06d","descripcion":"Artículo de prueba número %d","descripcionWeb":"","nombre":"Artículo %d",`+
			`"talleColor":3,"precio1":%d.50,"precio2":%d,"precio3":0,"precio4":0,"precio5":0,"colorId":%d,"talleId":%d,`+
			`"colorNombre":"Color %d","colorCodigo":"C%d","colorHex":"#00FF00","talleNombre":"T%d","talleCodigo":"%d",`+
			`"codigoBarras":"779%010d","unidades":%d,"eliminado":false,`+
			`"stockDepositos":[{"depositoId":1,"unidades":%d},{"depositoId":2,"unidades":3}]}`,
			art, art, art, art, 1000+i%500, 900+i%500, 1+i%2, 1+i%5, 1+i%2, 1+i%2, 1+i%5, 1+i%5, i, i%40, i%40)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// BenchmarkDecodeGetDataCurva decodes a 100,000-variant catalog (bench/
// states the budget: 1 s and 150 MB on the 2-core machine).
func BenchmarkDecodeGetDataCurva(b *testing.B) {
	body := bigCurva(100_000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for b.Loop() {
		recs, err := DecodeGetDataCurva(body)
		if err != nil || len(recs) != 100_000 {
			b.Fatal(err, len(recs))
		}
	}
	runtime.ReadMemStats(&m1)
	// The most memory one decode can hold: the answer it reads plus
	// everything it allocates (as if nothing were freed before the end).
	perOp := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(b.N)
	b.ReportMetric((float64(len(body))+perOp)/1e6, "peak-MB")
	b.ReportMetric(float64(len(body))/1e6, "answer-MB")
}

// FuzzCatalogDecoderMatchesEncodingJSON: the fast decoder of catalog
// answers reads exactly what encoding/json (Decode, every other answer's
// decoder) reads, and refuses what it refuses.
func FuzzCatalogDecoderMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{flatSample, `[{"ARTICULOID":1,"codigo":"a","codigo":"b"}]`, `[{"unidades":"1.5","precio1":null}]`,
		"[{\"codigo\":\"\xff\"}]", `[{"stockDepositos":[{"depositoId":1.5}]}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v1, v2 []ArticuloConCurva
		err1 := Decode(b, &v1)
		err2 := decodeFast(b, &v2)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("encoding/json: %v; fast: %v", err1, err2)
		}
		if err1 == nil && !reflect.DeepEqual(v1, v2) {
			t.Fatalf("they differ:\n%+v\n%+v", v1, v2)
		}
	})
}
