package articulos

import (
	"errors"
	"reflect"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
)

// rec is one flat catalog record.
func rec(id int64, codigo, nombre string, talleID int64, talle, talleCod string, colorID int64, color, colorCod, barras string) nxapi.ArticuloConCurva {
	return nxapi.ArticuloConCurva{ArticuloID: id, Codigo: codigo, Nombre: nombre, TalleID: talleID, TalleNombre: talle,
		TalleCodigo: talleCod, ColorID: colorID, ColorNombre: color, ColorCodigo: colorCod, CodigoBarras: barras}
}

func plain(id int64, codigo, nombre, barras string) nxapi.ArticuloConCurva {
	return rec(id, codigo, nombre, 0, "", "", 0, "", "", barras)
}

// testCatalog is a small shop: a T-shirt in sizes and colours (records
// spread through the list, as an answer may give them), a cap without
// variants whose code has leading zeros, codes differing only in case,
// duplicates, deactivated articles and variants, and accented colours.
func testCatalog() []nxapi.ArticuloConCurva {
	recs := []nxapi.ArticuloConCurva{
		rec(10, "REM-001", "Remera lisa", 1, "S", "S", 100, "Rojo", "RJ", "7790000000011"),
		rec(10, "REM-001", "Remera lisa", 2, "M", "M", 100, "Rojo", "RJ", "7790000000012"),
		plain(20, "0042", "Gorra", "7791234567890"),
		rec(10, "REM-001", "Remera lisa", 1, "S", "S", 101, "Azul", "AZ", "7790000000013"),
		rec(10, "REM-001", "Remera lisa", 2, "M", "M", 101, "Azul", "AZ", "7790000000014"),
		plain(21, "42", "Llavero", ""),
		plain(30, "abc", "Uno", ""),
		plain(31, "ABC", "Dos", ""),
		plain(40, "TAZA-1", "Taza", ""),
		plain(50, "VIEJO", "Discontinuado", ""),
		plain(60, "DUP", "Primero", ""),
		plain(61, "DUP", "Segundo", ""),
		plain(62, "DUP2", "Viejo", ""),
		plain(63, "DUP2", "Nuevo", ""),
		plain(64, "X1", "Uno A", "111"),
		plain(65, "X2", "Uno B", "111"),
		rec(70, "CAMP", "Campera", 5, "Único", "U", 200, "Marrón", "MR", ""),
		rec(70, "CAMP", "Campera", 5, "Único", "U", 201, "Azul Marino", "AM", ""),
		rec(80, "MEDIA", "Media", 7, "39-41", "3941", 0, "", "", ""),
		rec(80, "MEDIA", "Media", 8, "42-44", "4244", 0, "", "", ""),
		rec(10, "REM-001", "Remera lisa", 3, "L", "L", 101, "Azul", "AZ", "7790000000015"),
		rec(90, "REM-002", "Remera estampada", 1, "S", "S", 0, "", "", ""),
		rec(91, "REM-010", "Remera manga larga", 1, "S", "S", 0, "", "", ""),
	}
	recs[9].Eliminado = true  // VIEJO
	recs[12].Eliminado = true // DUP2 «Viejo»
	recs[4].Eliminado = true  // REM-001 M / Azul
	return recs
}

func TestResolve(t *testing.T) {
	ix := Build(testCatalog())
	type want struct {
		m     Match
		kind  error
		field string
	}
	ok := func(art, talle, color int64) want {
		return want{m: Match{ArticuloID: art, TalleID: talle, ColorID: color}}
	}
	bad := func(kind error, field string) want { return want{kind: kind, field: field} }
	tests := []struct {
		name string
		q    Query
		want want
	}{
		// A code matches exactly, trimmed.
		{"code exact", Query{Codigo: "TAZA-1"}, ok(40, 0, 0)},
		{"code trimmed", Query{Codigo: "  TAZA-1 "}, ok(40, 0, 0)},
		{"code case-insensitive when unique", Query{Codigo: "taza-1"}, ok(40, 0, 0)},
		{"exact case wins over a case variant", Query{Codigo: "abc"}, ok(30, 0, 0)},
		{"exact case wins, the other spelling", Query{Codigo: "ABC"}, ok(31, 0, 0)},
		{"case-insensitive match of two articles is ambiguous", Query{Codigo: "Abc"}, bad(ErrAmbiguousCode, FieldCodigo)},
		{"leading zeros kept", Query{Codigo: "0042"}, ok(20, 0, 0)},
		{"without its zeros it is another article", Query{Codigo: "42"}, ok(21, 0, 0)},
		{"zeros added name nothing", Query{Codigo: "042"}, bad(ErrUnknownCode, FieldCodigo)},
		{"two active articles share a code", Query{Codigo: "DUP"}, bad(ErrAmbiguousCode, FieldCodigo)},
		{"a shared code resolves to the only active one", Query{Codigo: "DUP2"}, ok(63, 0, 0)},
		// Barcodes name one variant.
		{"barcode names the variant", Query{CodigoBarras: "7790000000012"}, ok(10, 2, 100)},
		{"barcode of an article without variants", Query{CodigoBarras: " 7791234567890 "}, ok(20, 0, 0)},
		{"barcode shared by two variants", Query{CodigoBarras: "111"}, bad(ErrAmbiguousBarcode, FieldCodigoBarras)},
		{"unknown barcode", Query{CodigoBarras: "999"}, bad(ErrUnknownBarcode, FieldCodigoBarras)},
		{"barcode and its article's code agree", Query{Codigo: "REM-001", CodigoBarras: "7790000000011"}, ok(10, 1, 100)},
		{"barcode and another article's code", Query{Codigo: "TAZA-1", CodigoBarras: "7790000000011"}, bad(ErrMismatch, FieldCodigo)},
		{"barcode and a size that is not its own", Query{CodigoBarras: "7790000000011", Talle: "M"}, bad(ErrMismatch, FieldTalle)},
		{"barcode and its own size by name", Query{CodigoBarras: "7790000000011", Talle: "s", Color: "rojo"}, ok(10, 1, 100)},
		{"barcode and another talleId", Query{CodigoBarras: "7790000000011", TalleID: 2}, bad(ErrMismatch, FieldTalleID)},
		// Size and colour by name or code, no case or accents, within the article.
		{"size and colour by name", Query{Codigo: "REM-001", Talle: "M", Color: "Rojo"}, ok(10, 2, 100)},
		{"size and colour case-insensitive", Query{Codigo: "REM-001", Talle: "m", Color: "ROJO"}, ok(10, 2, 100)},
		{"colour by its code", Query{Codigo: "REM-001", Talle: "S", Color: "az"}, ok(10, 1, 101)},
		{"accents ignored", Query{Codigo: "CAMP", Talle: "unico", Color: "marron"}, ok(70, 5, 200)},
		{"accents ignored the other way", Query{Codigo: "CAMP", Talle: "ÚNICO", Color: "MARRÓN"}, ok(70, 5, 200)},
		{"blanks folded", Query{Codigo: "CAMP", Talle: "U", Color: "azul  marino"}, ok(70, 5, 201)},
		{"size name with punctuation", Query{Codigo: "MEDIA", Talle: "42-44"}, ok(80, 8, 0)},
		{"size by code", Query{Codigo: "MEDIA", Talle: "3941"}, ok(80, 7, 0)},
		{"a size of another article is unknown here", Query{Codigo: "MEDIA", Talle: "M"}, bad(ErrUnknownTalle, FieldTalle)},
		{"unknown colour", Query{Codigo: "REM-001", Talle: "M", Color: "Verde"}, bad(ErrUnknownColor, FieldColor)},
		{"a colour for an article without colours", Query{Codigo: "MEDIA", Talle: "42-44", Color: "Rojo"}, bad(ErrNoColores, FieldColor)},
		{"a size for an article without variants", Query{Codigo: "TAZA-1", Talle: "M"}, bad(ErrNoTalles, FieldTalle)},
		{"size and colour that do not go together", Query{Codigo: "REM-001", Talle: "L", Color: "Rojo"}, bad(ErrUnknownVariant, FieldTalle)},
		{"ids of the variant", Query{ArticuloID: 10, TalleID: 1, ColorID: 101}, ok(10, 1, 101)},
		{"unknown talleId", Query{ArticuloID: 10, TalleID: 9, ColorID: 101}, bad(ErrUnknownTalle, FieldTalleID)},
		{"size name and talleId disagree", Query{Codigo: "REM-001", Talle: "S", TalleID: 2, Color: "Rojo"}, bad(ErrMismatch, FieldTalle)},
		// A varianted article without its variant.
		{"varianted article without variant", Query{Codigo: "REM-001"}, bad(ErrVariantRequired, FieldCodigo)},
		{"size without colour", Query{Codigo: "REM-001", Talle: "S"}, bad(ErrVariantRequired, FieldCodigo)},
		{"bare id of a varianted article", Query{ArticuloID: 80}, bad(ErrVariantRequired, FieldArticuloID)},
		// An id and a code that disagree.
		{"id and code agree", Query{ArticuloID: 40, Codigo: "TAZA-1"}, ok(40, 0, 0)},
		{"id and code disagree", Query{ArticuloID: 20, Codigo: "TAZA-1"}, bad(ErrMismatch, FieldArticuloID)},
		// Deactivated.
		{"deactivated article", Query{Codigo: "VIEJO"}, bad(ErrDeactivated, FieldCodigo)},
		{"deactivated article by id", Query{ArticuloID: 50}, bad(ErrDeactivated, FieldArticuloID)},
		{"deactivated variant", Query{Codigo: "REM-001", Talle: "M", Color: "Azul"}, bad(ErrDeactivated, FieldCodigo)},
		{"deactivated variant by barcode", Query{CodigoBarras: "7790000000014"}, bad(ErrDeactivated, FieldCodigoBarras)},
		// Bare ids are checked too.
		{"bare id", Query{ArticuloID: 20}, ok(20, 0, 0)},
		{"unknown bare id", Query{ArticuloID: 999}, bad(ErrUnknownID, FieldArticuloID)},
		{"nothing named", Query{Talle: "M"}, bad(ErrNoArticle, FieldCodigo)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ix.Resolve(tt.q)
			if tt.want.kind == nil {
				if err != nil {
					t.Fatalf("Resolve(%+v): %v", tt.q, err)
				}
				m.Codigo, m.Nombre = "", ""
				if m != tt.want.m {
					t.Errorf("Resolve(%+v) = %+v, want %+v", tt.q, m, tt.want.m)
				}
				return
			}
			if !errors.Is(err, tt.want.kind) {
				t.Fatalf("Resolve(%+v) = %+v, %v; want %v", tt.q, m, err, tt.want.kind)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error", err)
			}
			if e.Field != tt.want.field {
				t.Errorf("error field = %q, want %q", e.Field, tt.want.field)
			}
		})
	}
}

func TestResolveErrorDetails(t *testing.T) {
	ix := Build(testCatalog())
	errOf := func(q Query) *Error {
		t.Helper()
		_, err := ix.Resolve(q)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Resolve(%+v) = %v, want an *Error", q, err)
		}
		return e
	}
	t.Run("variant required lists sizes and colours, not deactivated-only ones", func(t *testing.T) {
		e := errOf(Query{Codigo: "REM-001"})
		if want := []string{"S", "M", "L"}; !reflect.DeepEqual(e.Talles, want) {
			t.Errorf("Talles = %q, want %q", e.Talles, want)
		}
		if want := []string{"Rojo (RJ)", "Azul (AZ)"}; !reflect.DeepEqual(e.Colores, want) {
			t.Errorf("Colores = %q, want %q", e.Colores, want)
		}
		if e.Article.ID != 10 || e.Article.Nombre != "Remera lisa" {
			t.Errorf("Article = %+v", e.Article)
		}
	})
	t.Run("unknown code suggests up to three close codes with names", func(t *testing.T) {
		e := errOf(Query{Codigo: "REM-00"})
		want := []Candidate{{ArticuloID: 10, Codigo: "REM-001", Nombre: "Remera lisa"},
			{ArticuloID: 90, Codigo: "REM-002", Nombre: "Remera estampada"},
			{ArticuloID: 91, Codigo: "REM-010", Nombre: "Remera manga larga"}}
		if !reflect.DeepEqual(e.Candidates, want) {
			t.Errorf("Candidates = %+v, want %+v", e.Candidates, want)
		}
		// Asked again (memoised), the same answer.
		if again := errOf(Query{Codigo: "rem-00"}); !reflect.DeepEqual(again.Candidates, want) {
			t.Errorf("second time: %+v", again.Candidates)
		}
	})
	t.Run("no deactivated article is suggested", func(t *testing.T) {
		e := errOf(Query{Codigo: "VIEJA"})
		for _, c := range e.Candidates {
			if c.Codigo == "VIEJO" {
				t.Errorf("suggested deactivated %+v", c)
			}
		}
	})
	t.Run("nothing close: no suggestions", func(t *testing.T) {
		if e := errOf(Query{Codigo: "ZZZZZZZZ"}); len(e.Candidates) != 0 {
			t.Errorf("Candidates = %+v", e.Candidates)
		}
	})
	t.Run("ambiguous code lists the articles", func(t *testing.T) {
		e := errOf(Query{Codigo: "DUP"})
		if len(e.Candidates) != 2 || e.Candidates[0].ArticuloID != 60 || e.Candidates[1].ArticuloID != 61 {
			t.Errorf("Candidates = %+v", e.Candidates)
		}
	})
	t.Run("ambiguous barcode names the variants", func(t *testing.T) {
		e := errOf(Query{CodigoBarras: "111"})
		if len(e.Candidates) != 2 || e.Candidates[0].Codigo != "X1" || e.Candidates[1].Codigo != "X2" {
			t.Errorf("Candidates = %+v", e.Candidates)
		}
	})
	t.Run("mismatch names both articles", func(t *testing.T) {
		e := errOf(Query{ArticuloID: 20, Codigo: "TAZA-1"})
		if e.Article.ID != 20 || e.OtherField != FieldCodigo || e.Other != "TAZA-1" || e.OtherArticle.ID != 40 {
			t.Errorf("got %+v", e)
		}
	})
	t.Run("unknown variant lists the combinations", func(t *testing.T) {
		e := errOf(Query{Codigo: "REM-001", Talle: "L", Color: "Rojo"})
		if want := []string{"S / Rojo", "M / Rojo", "S / Azul", "L / Azul"}; !reflect.DeepEqual(e.Variants, want) {
			t.Errorf("Variants = %q, want %q", e.Variants, want)
		}
	})
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"abc", "abc", 2, 0},
		{"abc", "abd", 2, 1},
		{"abc", "ab", 2, 1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 1, 2}, // over the limit: any value above it
		{"", "ab", 2, 2},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("distance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestBuildCounts(t *testing.T) {
	ix := Build(testCatalog())
	if ix.Len() != 17 || ix.Variants() != len(testCatalog()) {
		t.Errorf("Len = %d, Variants = %d", ix.Len(), ix.Variants())
	}
	if a, ok := ix.Article(50); !ok || !a.Eliminado {
		t.Errorf("Article(50) = %+v, %v; want deactivated", a, ok)
	}
	if a, ok := ix.Article(10); !ok || a.Eliminado || len(ix.VariantsOf(10)) != 5 {
		t.Errorf("Article(10) = %+v, %d variants", a, len(ix.VariantsOf(10)))
	}
}
