package validation

import (
	"errors"
	"regexp"
	"strings"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/msg"
)

// ArticleRef is what one line says of its article: the query, and the
// column headers as the user wrote them, by query field (codigo, talle...),
// for the messages ("" for a field without a column: its path is named).
type ArticleRef struct {
	Query articulos.Query
	// Prefix is the line's column prefix: "productos" or "articulos".
	Prefix string
	// Header names a field's column as the user wrote it; nil names the
	// column path.
	Header func(path string) string
}

// header is the user's name of the field's column.
func (r ArticleRef) header(field string) string {
	p := r.Prefix + "." + field
	if r.Header == nil {
		return p
	}
	return r.Header(p)
}

// byKeys reports whether the line names its article by the shop's keys
// (code, barcode, size or colour text), which only the catalog turns into
// the ids the API takes.
func (r ArticleRef) byKeys() bool {
	q := r.Query
	return strings.TrimSpace(q.Codigo) != "" || strings.TrimSpace(q.CodigoBarras) != "" ||
		strings.TrimSpace(q.Talle) != "" || strings.TrimSpace(q.Color) != ""
}

// scientific is a number a spreadsheet wrote in scientific notation
// ("7,79123E+12"): its digits are gone.
var scientific = regexp.MustCompile(`^[0-9]+([.,][0-9]+)?[eE]\+?[0-9]+$`)

// ResolveArticle resolves line's article against the catalog. ok says the
// match may be sent; checked says the catalog was consulted (false: there
// is no article catalog, and a line by id goes unchecked). A line by code
// without a catalog is an error: nothing can turn it into an id.
func ResolveArticle(cat *Catalog, line int, r ArticleRef) (m articulos.Match, checked bool, issues []Issue) {
	var c checker
	for _, f := range []struct{ field, text string }{
		{articulos.FieldCodigo, r.Query.Codigo}, {articulos.FieldCodigoBarras, r.Query.CodigoBarras},
	} {
		t := strings.TrimSpace(f.text)
		switch {
		case t == "":
		case strings.HasPrefix(t, "="):
			c.add(r.Prefix+"."+f.field, line, "art.formula", r.header(f.field), t)
		case scientific.MatchString(t):
			c.add(r.Prefix+"."+f.field, line, "art.scientific", r.header(f.field), t)
		}
	}
	if len(c.issues) > 0 {
		return articulos.Match{}, false, c.issues
	}
	ix := cat.articulos()
	if ix == nil {
		if r.byKeys() {
			field := articulos.FieldCodigo
			text := strings.TrimSpace(r.Query.Codigo)
			for _, f := range []struct{ field, text string }{
				{articulos.FieldCodigoBarras, r.Query.CodigoBarras}, {articulos.FieldTalle, r.Query.Talle}, {articulos.FieldColor, r.Query.Color},
			} {
				if text == "" && strings.TrimSpace(f.text) != "" {
					field, text = f.field, strings.TrimSpace(f.text)
				}
			}
			c.add(r.Prefix+"."+field, line, "art.nocatalog", r.header(field), text)
			return articulos.Match{}, false, c.issues
		}
		q := r.Query
		return articulos.Match{ArticuloID: q.ArticuloID, TalleID: q.TalleID, ColorID: q.ColorID}, false, nil
	}
	if !r.byKeys() && r.Query.ArticuloID <= 0 {
		// Nothing to look up: the id rules (required, positive) say what
		// to write.
		return articulos.Match{}, true, nil
	}
	m, err := ix.Resolve(r.Query)
	if err == nil {
		return m, true, nil
	}
	var e *articulos.Error
	if !errors.As(err, &e) {
		c.add(r.Prefix+".articuloId", line, "row.internal", err.Error())
		return articulos.Match{}, true, c.issues
	}
	c.issues = append(c.issues, Issue{Field: r.Prefix + "." + e.Field, Line: line, Msg: articleMessage(e, r)})
	return articulos.Match{}, true, c.issues
}

// articleMessage says what is wrong with a line's article and what to
// change, in the words of msg's "art.*" keys.
func articleMessage(e *articulos.Error, r ArticleRef) msg.Message {
	col := r.header(e.Field)
	art := e.Article.Label()
	switch {
	case errors.Is(e, articulos.ErrUnknownCode):
		if len(e.Candidates) == 0 {
			return msg.New("art.code.unknown", col, e.Input)
		}
		return msg.New("art.code.unknown.suggest", col, e.Input, candidates(e.Candidates))
	case errors.Is(e, articulos.ErrAmbiguousCode):
		return msg.New("art.code.ambiguous", col, e.Input, candidates(e.Candidates))
	case errors.Is(e, articulos.ErrUnknownBarcode):
		return msg.New("art.barcode.unknown", col, e.Input)
	case errors.Is(e, articulos.ErrAmbiguousBarcode):
		return msg.New("art.barcode.ambiguous", col, e.Input, candidates(e.Candidates))
	case errors.Is(e, articulos.ErrUnknownID):
		return msg.New("art.id.unknown", col, e.Input)
	case errors.Is(e, articulos.ErrMismatch):
		if e.OtherArticle.ID != 0 {
			return msg.New("art.mismatch", col, e.Input, art, r.header(e.OtherField), e.Other, e.OtherArticle.Label())
		}
		if e.OtherVariant != "" {
			art += " " + e.OtherVariant
		}
		return msg.New("art.mismatch.variant", col, e.Input, r.header(e.OtherField), e.Other, art)
	case errors.Is(e, articulos.ErrVariantRequired):
		switch {
		case len(e.Talles) > 0 && len(e.Colores) > 0:
			return msg.New("art.variant.required", col, e.Input, art, r.header(articulos.FieldTalle), list(e.Talles), r.header(articulos.FieldColor), list(e.Colores))
		case len(e.Talles) > 0:
			return msg.New("art.variant.talle", col, e.Input, art, r.header(articulos.FieldTalle), list(e.Talles))
		}
		return msg.New("art.variant.color", col, e.Input, art, r.header(articulos.FieldColor), list(e.Colores))
	case errors.Is(e, articulos.ErrUnknownTalle):
		return msg.New("art.talle.unknown", col, e.Input, art, list(e.Talles))
	case errors.Is(e, articulos.ErrUnknownColor):
		return msg.New("art.color.unknown", col, e.Input, art, list(e.Colores))
	case errors.Is(e, articulos.ErrNoTalles):
		return msg.New("art.talle.none", col, e.Input, art)
	case errors.Is(e, articulos.ErrNoColores):
		return msg.New("art.color.none", col, e.Input, art)
	case errors.Is(e, articulos.ErrUnknownVariant):
		return msg.New("art.variant.unknown", art, e.Input, list(e.Variants))
	case errors.Is(e, articulos.ErrDeactivated):
		if len(e.Variants) > 0 {
			return msg.New("art.deactivated.variant", col, e.Input, list(e.Variants), art)
		}
		return msg.New("art.deactivated", col, e.Input, art)
	}
	return msg.New("art.none", r.header(articulos.FieldArticuloID), r.header(articulos.FieldCodigo), r.header(articulos.FieldCodigoBarras))
}

// candidates writes articles as «code» name, «code» name.
func candidates(cs []articulos.Candidate) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		a := articulos.Article{ID: c.ArticuloID, Codigo: c.Codigo, Nombre: c.Nombre}
		parts[i] = a.Label()
		if c.Variant != "" {
			parts[i] += " " + c.Variant
		}
	}
	return strings.Join(parts, ", ")
}

// list writes sizes, colours or variants: "S, M, L".
func list(items []string) string {
	if len(items) == 0 {
		return "—"
	}
	return strings.Join(items, ", ")
}
