package articulos

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Query is what one row says of its article: any of an id, a code and a
// barcode, and the variant by ids or by size and colour (name or code).
type Query struct {
	ArticuloID       int64
	Codigo           string
	CodigoBarras     string
	TalleID, ColorID int64
	Talle, Color     string
}

// Match is a resolved article and variant.
type Match struct {
	ArticuloID, TalleID, ColorID int64
	Codigo, Nombre               string
}

// The kinds of resolution error; an *Error wraps exactly one, so callers
// decide with errors.Is.
var (
	ErrNoArticle        = errors.New("the row names no article")
	ErrUnknownCode      = errors.New("unknown article code")
	ErrAmbiguousCode    = errors.New("the code names several articles")
	ErrUnknownBarcode   = errors.New("unknown barcode")
	ErrAmbiguousBarcode = errors.New("the barcode names several variants")
	ErrUnknownID        = errors.New("unknown articuloId")
	ErrMismatch         = errors.New("two columns name different articles or variants")
	ErrVariantRequired  = errors.New("the article has variants and the row names none")
	ErrUnknownTalle     = errors.New("the article has no such size")
	ErrUnknownColor     = errors.New("the article has no such colour")
	ErrNoTalles         = errors.New("the article has no sizes")
	ErrNoColores        = errors.New("the article has no colours")
	ErrUnknownVariant   = errors.New("the article has no such size and colour together")
	ErrDeactivated      = errors.New("the article or variant is deactivated")
)

// The fields of a Query an Error may be about.
const (
	FieldArticuloID   = "articuloId"
	FieldCodigo       = "codigo"
	FieldCodigoBarras = "codigoBarras"
	FieldTalle        = "talle"
	FieldColor        = "color"
	FieldTalleID      = "talleId"
	FieldColorID      = "colorId"
)

// Candidate is an article offered in an error: one of several a code
// names, or a code close to an unknown one.
type Candidate struct {
	ArticuloID int64
	Codigo     string
	Nombre     string
	// Variant names the variant, for a barcode several variants share.
	Variant string
}

// Error is a query that does not resolve. Kind says why; the other fields
// carry what a message needs to say what to change.
type Error struct {
	Kind  error
	Field string // the query field at fault (Field* constants)
	Input string // what that field said, trimmed
	// Article is the article the row was resolved to, when it got that far
	// (its zero value otherwise).
	Article Article
	// OtherField and Other are, for ErrMismatch, the field that disagrees
	// and what it says; OtherArticle is the article it names when that is
	// another article (zero when the two disagree on the variant only).
	OtherField   string
	Other        string
	OtherArticle Article
	// OtherVariant is the variant a barcode that disagrees names.
	OtherVariant string
	// Candidates are the articles an ambiguous key names, or up to three
	// close codes for an unknown one.
	Candidates []Candidate
	// Talles and Colores list the article's sizes and colours; Variants
	// its size/colour combinations (for ErrUnknownVariant).
	Talles, Colores, Variants []string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s %q: %v", e.Field, e.Input, e.Kind)
	if e.OtherField != "" {
		s += fmt.Sprintf(" (%s says %s)", e.OtherField, e.Other)
	}
	return s
}

// Unwrap returns the error's kind.
func (e *Error) Unwrap() error { return e.Kind }

// Label names the article for a message: «code» name, or its id.
func (a Article) Label() string {
	switch {
	case a.Codigo != "" && a.Nombre != "":
		return "«" + a.Codigo + "» " + a.Nombre
	case a.Codigo != "":
		return "«" + a.Codigo + "»"
	case a.Nombre != "":
		return a.Nombre + " (id " + strconv.FormatInt(a.ID, 10) + ")"
	}
	return "id " + strconv.FormatInt(a.ID, 10)
}

// Resolve finds the article and variant q names. Every key q gives must
// agree: a code and an id, or a barcode and a size, that name different
// things are an error, never a choice.
func (ix *Index) Resolve(q Query) (Match, error) {
	codigo, barras := strings.TrimSpace(q.Codigo), strings.TrimSpace(q.CodigoBarras)
	art, from, fromText := int32(-1), "", ""
	barVar := int32(-1)
	if barras != "" {
		vs := lookup(ix.byBarcode, ix.dups, barras)
		switch len(vs) {
		case 0:
			return Match{}, &Error{Kind: ErrUnknownBarcode, Field: FieldCodigoBarras, Input: barras}
		case 1:
		default:
			e := &Error{Kind: ErrAmbiguousBarcode, Field: FieldCodigoBarras, Input: barras}
			for _, v := range vs {
				a := ix.arts[ix.varArt[v]]
				e.Candidates = append(e.Candidates, Candidate{ArticuloID: a.ID, Codigo: a.Codigo, Nombre: a.Nombre, Variant: variantLabel(ix.vars[v])})
			}
			return Match{}, e
		}
		barVar, art, from, fromText = vs[0], ix.varArt[vs[0]], FieldCodigoBarras, barras
	}
	if codigo != "" {
		a, err := ix.byCodigo(codigo)
		if err != nil {
			return Match{}, err
		}
		if art >= 0 && a != art {
			return Match{}, ix.mismatch(FieldCodigo, codigo, a, from, fromText, art)
		}
		art, from, fromText = a, FieldCodigo, codigo
	}
	if q.ArticuloID != 0 {
		id := strconv.FormatInt(q.ArticuloID, 10)
		a, ok := ix.byID[q.ArticuloID]
		if !ok {
			return Match{}, &Error{Kind: ErrUnknownID, Field: FieldArticuloID, Input: id}
		}
		if art >= 0 && a != art {
			return Match{}, ix.mismatch(FieldArticuloID, id, a, from, fromText, art)
		}
		art = a
	}
	if art < 0 {
		return Match{}, &Error{Kind: ErrNoArticle, Field: FieldCodigo}
	}
	A := &ix.arts[art]
	if A.Eliminado {
		return Match{}, &Error{Kind: ErrDeactivated, Field: firstNonEmpty(from, FieldArticuloID), Input: firstNonEmpty(fromText, strconv.FormatInt(A.ID, 10)), Article: *A}
	}
	vars := ix.vars[A.lo:A.hi]
	if m, ok := fastVariant(A, ix.keys[A.lo:A.hi], q, barVar, ix.vars); ok {
		return m, nil
	}
	talleID, colorID := q.TalleID, q.ColorID
	if barVar >= 0 {
		bv := ix.vars[barVar]
		if talleID != 0 && talleID != bv.TalleID {
			return Match{}, &Error{Kind: ErrMismatch, Field: FieldTalleID, Input: strconv.FormatInt(talleID, 10), Article: *A,
				OtherField: FieldCodigoBarras, Other: barras, OtherVariant: variantLabel(bv)}
		}
		if colorID != 0 && colorID != bv.ColorID {
			return Match{}, &Error{Kind: ErrMismatch, Field: FieldColorID, Input: strconv.FormatInt(colorID, 10), Article: *A,
				OtherField: FieldCodigoBarras, Other: barras, OtherVariant: variantLabel(bv)}
		}
		talleID, colorID = bv.TalleID, bv.ColorID
	}
	var err error
	if talleID, err = ix.dimension(A, vars, true, q.Talle, talleID, barVar >= 0, barras); err != nil {
		return Match{}, err
	}
	if colorID, err = ix.dimension(A, vars, false, q.Color, colorID, barVar >= 0, barras); err != nil {
		return Match{}, err
	}
	if (A.hasTalles && talleID == 0) || (A.hasColores && colorID == 0) {
		talles, colores := dimensions(vars)
		return Match{}, &Error{Kind: ErrVariantRequired, Field: firstNonEmpty(from, FieldArticuloID),
			Input: firstNonEmpty(fromText, strconv.FormatInt(A.ID, 10)), Article: *A, Talles: names(talles), Colores: names(colores)}
	}
	for i, k := range ix.keys[A.lo:A.hi] {
		if k.talle == talleID && k.color == colorID {
			if v := &vars[i]; v.Eliminado {
				return Match{}, &Error{Kind: ErrDeactivated, Field: firstNonEmpty(from, FieldArticuloID),
					Input: firstNonEmpty(fromText, strconv.FormatInt(A.ID, 10)), Article: *A, Variants: []string{variantLabel(*v)}}
			}
			return Match{ArticuloID: A.ID, TalleID: talleID, ColorID: colorID, Codigo: A.Codigo, Nombre: A.Nombre}, nil
		}
	}
	field := FieldTalle
	switch {
	case strings.TrimSpace(q.Talle) == "" && q.TalleID != 0:
		field = FieldTalleID
	case strings.TrimSpace(q.Talle) == "" && strings.TrimSpace(q.Color) != "":
		field = FieldColor
	case strings.TrimSpace(q.Talle) == "" && q.ColorID != 0:
		field = FieldColorID
	}
	talles, colores := dimensions(vars)
	e := &Error{Kind: ErrUnknownVariant, Field: field, Input: dimText(talles, talleID) + " / " + dimText(colores, colorID), Article: *A}
	for _, v := range vars {
		if !v.Eliminado {
			e.Variants = append(e.Variants, variantLabel(v))
		}
	}
	return Match{}, e
}

// fastVariant resolves the common cases in one pass over the article's
// variants: the variant a barcode names, or the one the row's ids name,
// when nothing else on the row could disagree and the variant is active.
// Anything else (names to match, an error to explain) takes the long way.
func fastVariant(A *Article, keys []variantKey, q Query, barVar int32, all []Variant) (Match, bool) {
	if strings.TrimSpace(q.Talle) != "" || strings.TrimSpace(q.Color) != "" {
		return Match{}, false
	}
	t, c := q.TalleID, q.ColorID
	if barVar >= 0 {
		bv := &all[barVar]
		if (t != 0 && t != bv.TalleID) || (c != 0 && c != bv.ColorID) || bv.Eliminado {
			return Match{}, false
		}
		return Match{ArticuloID: A.ID, TalleID: bv.TalleID, ColorID: bv.ColorID, Codigo: A.Codigo, Nombre: A.Nombre}, true
	}
	if (A.hasTalles && t == 0) || (A.hasColores && c == 0) {
		return Match{}, false
	}
	for _, k := range keys {
		if k.talle == t && k.color == c {
			if k.eliminado {
				return Match{}, false
			}
			return Match{ArticuloID: A.ID, TalleID: t, ColorID: c, Codigo: A.Codigo, Nombre: A.Nombre}, true
		}
	}
	return Match{}, false
}

// dim is one size or colour of an article.
type dim struct {
	id           int64
	name, codigo string
}

// dimensions lists an article's distinct sizes and colours in catalog
// order, leaving out those only deactivated variants have.
func dimensions(vars []Variant) (talles, colores []dim) {
	for _, v := range vars {
		if v.Eliminado {
			continue
		}
		if v.TalleID != 0 && !slices.ContainsFunc(talles, func(d dim) bool { return d.id == v.TalleID }) {
			talles = append(talles, dim{v.TalleID, v.TalleNombre, v.TalleCodigo})
		}
		if v.ColorID != 0 && !slices.ContainsFunc(colores, func(d dim) bool { return d.id == v.ColorID }) {
			colores = append(colores, dim{v.ColorID, v.ColorNombre, v.ColorCodigo})
		}
	}
	if len(talles) == 0 && len(colores) == 0 {
		// Every variant deactivated: still say what the article had.
		for _, v := range vars {
			if v.TalleID != 0 && !slices.ContainsFunc(talles, func(d dim) bool { return d.id == v.TalleID }) {
				talles = append(talles, dim{v.TalleID, v.TalleNombre, v.TalleCodigo})
			}
			if v.ColorID != 0 && !slices.ContainsFunc(colores, func(d dim) bool { return d.id == v.ColorID }) {
				colores = append(colores, dim{v.ColorID, v.ColorNombre, v.ColorCodigo})
			}
		}
	}
	return talles, colores
}

// dimension resolves the size (talle) or colour of a query: by name or
// code text, checked against the id the row or its barcode gave.
func (ix *Index) dimension(A *Article, vars []Variant, talle bool, text string, id int64, byBarcode bool, barras string) (int64, error) {
	field, idField, unknown, none := FieldTalle, FieldTalleID, ErrUnknownTalle, ErrNoTalles
	ds := ix.dims[A.tLo:A.tHi]
	if !talle {
		field, idField, unknown, none = FieldColor, FieldColorID, ErrUnknownColor, ErrNoColores
		ds = ix.dims[A.cLo:A.cHi]
	}
	fail := func(kind error, field, input string) error {
		talles, colores := dimensions(vars)
		return &Error{Kind: kind, Field: field, Input: input, Article: *A, Talles: names(talles), Colores: names(colores)}
	}
	text = strings.TrimSpace(text)
	if text == "" {
		if id == 0 || byBarcode || hasDim(ds, id) {
			return id, nil
		}
		if len(ds) == 0 {
			return 0, fail(none, idField, strconv.FormatInt(id, 10))
		}
		return 0, fail(unknown, idField, strconv.FormatInt(id, 10))
	}
	if len(ds) == 0 {
		return 0, fail(none, field, text)
	}
	q := queryName(text)
	found := int64(0)
	// A name wins over a code; either must name one size (colour).
	for _, byCode := range []bool{false, true} {
		found = 0
		several := false
		for i := range ds {
			d := &ds[i]
			name := d.nombre
			if byCode {
				name = d.codigo
			}
			if !sameName(name, "", q) {
				continue
			}
			if found != 0 {
				several = true
				break
			}
			found = d.id
		}
		if several {
			found = 0
		}
		if found != 0 {
			break
		}
	}
	if found == 0 {
		return 0, fail(unknown, field, text)
	}
	if id != 0 && id != found {
		other, otherText, barVariant := idField, strconv.FormatInt(id, 10), ""
		if byBarcode {
			other, otherText = FieldCodigoBarras, barras
			for i := range vars {
				if vars[i].CodigoBarras == barras {
					barVariant = variantLabel(vars[i])
				}
			}
		}
		return 0, &Error{Kind: ErrMismatch, Field: field, Input: text, Article: *A, OtherField: other, Other: otherText, OtherVariant: barVariant}
	}
	return found, nil
}

// names renders sizes or colours for a message: the name, with its code
// when it differs.
func names(ds []dim) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, dimLabel(d))
	}
	return out
}

func dimLabel(d dim) string {
	switch {
	case d.name == "":
		return firstNonEmpty(d.codigo, strconv.FormatInt(d.id, 10))
	case d.codigo != "" && !strings.EqualFold(d.codigo, d.name):
		return d.name + " (" + d.codigo + ")"
	}
	return d.name
}

// dimText names the size or colour with id among ds, or "-" for none.
func dimText(ds []dim, id int64) string {
	if id == 0 {
		return "-"
	}
	for _, d := range ds {
		if d.id == id {
			return dimLabel(d)
		}
	}
	return strconv.FormatInt(id, 10)
}

// variantLabel names a variant: "M / Rojo".
func variantLabel(v Variant) string {
	var parts []string
	if v.TalleID != 0 {
		parts = append(parts, firstNonEmpty(v.TalleNombre, v.TalleCodigo, strconv.FormatInt(v.TalleID, 10)))
	}
	if v.ColorID != 0 {
		parts = append(parts, firstNonEmpty(v.ColorNombre, v.ColorCodigo, strconv.FormatInt(v.ColorID, 10)))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " / ")
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// mismatch is the error of two keys naming different articles: field
// (which said input) names article a, other (which said otherText) names
// article b.
func (ix *Index) mismatch(field, input string, a int32, other, otherText string, b int32) error {
	return &Error{Kind: ErrMismatch, Field: field, Input: input, Article: ix.arts[a],
		OtherField: other, Other: otherText, OtherArticle: ix.arts[b]}
}

// byCodigo finds the article of a trimmed code: exactly as written, else
// without regard to case when that names one article. A code several
// articles share resolves to the one still active, if only one is.
func (ix *Index) byCodigo(codigo string) (int32, error) {
	ids := lookup(ix.byCode, ix.dups, codigo)
	if len(ids) == 0 {
		fm, fd := ix.folded()
		ids = lookup(fm, fd, foldCode(codigo))
	}
	if len(ids) > 1 {
		var active []int32
		for _, a := range ids {
			if !ix.arts[a].Eliminado {
				active = append(active, a)
			}
		}
		if len(active) >= 1 {
			ids = active
		}
	}
	switch len(ids) {
	case 0:
		return -1, &Error{Kind: ErrUnknownCode, Field: FieldCodigo, Input: codigo, Candidates: ix.Suggest(codigo)}
	case 1:
		return ids[0], nil
	}
	e := &Error{Kind: ErrAmbiguousCode, Field: FieldCodigo, Input: codigo}
	for _, a := range ids {
		A := ix.arts[a]
		e.Candidates = append(e.Candidates, Candidate{ArticuloID: A.ID, Codigo: A.Codigo, Nombre: A.Nombre})
	}
	return -1, e
}
