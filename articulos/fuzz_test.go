package articulos

import (
	"errors"
	"testing"
)

// FuzzResolve feeds Resolve arbitrary row text and ids: it must never
// panic, a success must name an active variant of the catalog that agrees
// with every id given, and a failure must be an *Error of a known kind.
func FuzzResolve(f *testing.F) {
	ix := Build(testCatalog())
	f.Add(int64(0), "REM-001", "", int64(0), int64(0), "m", "rojo")
	f.Add(int64(10), "", "7790000000011", int64(1), int64(0), "", "")
	f.Add(int64(0), "abc", "", int64(0), int64(0), "ÚNICO", "  marrón ")
	f.Add(int64(-3), "\x00\xff", "111", int64(-1), int64(9), "\u0301", "Azul  Marino")
	kinds := []error{ErrNoArticle, ErrUnknownCode, ErrAmbiguousCode, ErrUnknownBarcode, ErrAmbiguousBarcode,
		ErrUnknownID, ErrMismatch, ErrVariantRequired, ErrUnknownTalle, ErrUnknownColor, ErrNoTalles,
		ErrNoColores, ErrUnknownVariant, ErrDeactivated}
	f.Fuzz(func(t *testing.T, id int64, codigo, barras string, talleID, colorID int64, talle, color string) {
		q := Query{ArticuloID: id, Codigo: codigo, CodigoBarras: barras, TalleID: talleID, ColorID: colorID, Talle: talle, Color: color}
		m, err := ix.Resolve(q)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			known := false
			for _, k := range kinds {
				known = known || errors.Is(err, k)
			}
			if !known {
				t.Fatalf("error of unknown kind: %v", err)
			}
			_ = e.Error()
			return
		}
		a, ok := ix.Article(m.ArticuloID)
		if !ok || a.Eliminado {
			t.Fatalf("resolved to %+v, not an active article", m)
		}
		if (id != 0 && id != m.ArticuloID) || (talleID != 0 && talleID != m.TalleID) || (colorID != 0 && colorID != m.ColorID) {
			t.Fatalf("resolved %+v against ids of %+v", m, q)
		}
		found := false
		for _, v := range ix.VariantsOf(m.ArticuloID) {
			found = found || (v.TalleID == m.TalleID && v.ColorID == m.ColorID && !v.Eliminado)
		}
		if !found {
			t.Fatalf("resolved to a variant the article does not have: %+v", m)
		}
	})
}
