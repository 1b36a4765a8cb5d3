// Package articulos resolves the articles a user's file names by the shop's
// own keys (the article's code, a barcode, a size and a colour by name) to
// the ERP's ids, against the tenant's article catalog (GetDataCurva's flat
// records, one per variant). It is pure: the catalog comes in as records,
// and every answer is a Match or an *Error whose Kind decides what it means
// (errors.Is), never its text.
package articulos

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Variant is one sellable unit of an article: a size and colour (ids 0
// when the article has none).
type Variant struct {
	TalleID, ColorID         int64
	TalleNombre, TalleCodigo string
	ColorNombre, ColorCodigo string
	CodigoBarras             string
	// Eliminado says the variant was deactivated.
	Eliminado bool
	// The names and codes folded for comparison, "" when the text is
	// plain enough to compare in place (see sameName).
	talleNombreFold, talleCodigoFold, colorNombreFold, colorCodigoFold string
}

// Article is an article of the catalog with its variants.
type Article struct {
	ID     int64
	Codigo string // as the catalog has it, trimmed
	Nombre string
	// Eliminado says every record of the article is deactivated.
	Eliminado bool
	// hasTalles and hasColores say whether its variants have sizes and
	// colours.
	hasTalles, hasColores bool
	// lo, hi bound its variants in Index.vars; tLo..tHi and cLo..cHi its
	// distinct sizes and colours in Index.dims.
	lo, hi, tLo, tHi, cLo, cHi int32
}

// variantKey is a variant's size and colour ids and whether it is
// deactivated.
type variantKey struct {
	talle, color int64
	eliminado    bool
}

// dimEntry is one distinct size or colour of an article: its id and its
// name and code in the form sameName compares (folded when not plain), kept
// small because resolving a row by name reads an article's entries from
// wherever in memory that article is.
type dimEntry struct {
	id             int64
	nombre, codigo string
}

// Index is the catalog arranged for resolution. It is read-only once
// built and safe for concurrent use.
type Index struct {
	arts []Article
	vars []Variant
	// keys are the variants' size and colour ids, aligned with vars: what
	// finding a variant reads, kept small so that it stays in cache.
	keys []variantKey
	dims []dimEntry
	// varArt maps a variant's index to its article's.
	varArt []int32
	byID   map[int64]int32
	// byCode and byBarcode hold an index into arts (vars), or, when
	// several share the key, -1-k for dups[k].
	byCode    map[string]int32
	byBarcode map[string]int32
	dups      [][]int32
	// byFold is byCode by case-folded code, built on the first lookup
	// that needs it: most files write codes as the catalog does.
	foldOnce sync.Once
	byFold   map[string]int32
	foldDups [][]int32
	// suggest memoises the suggestions for unknown codes: a file repeats
	// the same typo on many rows.
	suggest sync.Map // folded code → []Candidate
	memo    atomic.Int64
}

// Build indexes the catalog's flat records. Records of one article need
// not be contiguous; an article's code and name are its first record's.
func Build(recs []nxapi.ArticuloConCurva) *Index {
	ix := &Index{byID: make(map[int64]int32, len(recs)/2+1)}
	// First pass: the articles and how many variants each has.
	artOf := make([]int32, len(recs))
	counts := make([]int32, 0, len(recs)/2+1)
	for i := range recs {
		r := &recs[i]
		a, ok := ix.byID[r.ArticuloID]
		if !ok {
			a = int32(len(ix.arts))
			ix.byID[r.ArticuloID] = a
			ix.arts = append(ix.arts, Article{ID: r.ArticuloID, Codigo: strings.TrimSpace(r.Codigo),
				Nombre: strings.TrimSpace(r.Nombre), Eliminado: true})
			counts = append(counts, 0)
		}
		artOf[i] = a
		counts[a]++
		if !r.Eliminado {
			ix.arts[a].Eliminado = false
		}
	}
	at := int32(0)
	for a := range ix.arts {
		ix.arts[a].lo, ix.arts[a].hi = at, at
		at += counts[a]
	}
	ix.vars = make([]Variant, len(recs))
	ix.keys = make([]variantKey, len(recs))
	ix.varArt = make([]int32, len(recs))
	folds := map[string]string{} // sizes and colours repeat across articles
	fold := func(s string) string {
		if plainName(s) {
			return ""
		}
		f, ok := folds[s]
		if !ok {
			f = foldName(s)
			folds[s] = f
		}
		return f
	}
	for i := range recs {
		r := &recs[i]
		a := artOf[i]
		v := ix.arts[a].hi
		ix.arts[a].hi++
		ix.vars[v] = Variant{TalleID: r.TalleID, ColorID: r.ColorID,
			TalleNombre: strings.TrimSpace(r.TalleNombre), TalleCodigo: strings.TrimSpace(r.TalleCodigo),
			ColorNombre: strings.TrimSpace(r.ColorNombre), ColorCodigo: strings.TrimSpace(r.ColorCodigo),
			CodigoBarras: strings.TrimSpace(r.CodigoBarras), Eliminado: r.Eliminado}
		vr := &ix.vars[v]
		ix.keys[v] = variantKey{r.TalleID, r.ColorID, r.Eliminado}
		vr.talleNombreFold, vr.talleCodigoFold = fold(vr.TalleNombre), fold(vr.TalleCodigo)
		vr.colorNombreFold, vr.colorCodigoFold = fold(vr.ColorNombre), fold(vr.ColorCodigo)
		ix.arts[a].hasTalles = ix.arts[a].hasTalles || r.TalleID != 0
		ix.arts[a].hasColores = ix.arts[a].hasColores || r.ColorID != 0
		ix.varArt[v] = a
	}
	ix.compact()
	ix.byCode = make(map[string]int32, len(ix.arts))
	for a := range ix.arts {
		if c := ix.arts[a].Codigo; c != "" {
			ix.byCode[c] = ix.add(ix.byCode, &ix.dups, c, int32(a))
		}
	}
	ix.byBarcode = make(map[string]int32, len(recs))
	for v := range ix.vars {
		if bc := ix.vars[v].CodigoBarras; bc != "" {
			ix.byBarcode[bc] = ix.add(ix.byBarcode, &ix.dups, bc, int32(v))
		}
	}
	for a := range ix.arts {
		A := &ix.arts[a]
		vars := ix.vars[A.lo:A.hi]
		A.tLo = int32(len(ix.dims))
		for i := range vars {
			if v := &vars[i]; v.TalleID != 0 && !hasDim(ix.dims[A.tLo:], v.TalleID) {
				ix.dims = append(ix.dims, dimEntry{v.TalleID, cmpForm(v.TalleNombre, v.talleNombreFold), cmpForm(v.TalleCodigo, v.talleCodigoFold)})
			}
		}
		A.tHi, A.cLo = int32(len(ix.dims)), int32(len(ix.dims))
		for i := range vars {
			if v := &vars[i]; v.ColorID != 0 && !hasDim(ix.dims[A.cLo:], v.ColorID) {
				ix.dims = append(ix.dims, dimEntry{v.ColorID, cmpForm(v.ColorNombre, v.colorNombreFold), cmpForm(v.ColorCodigo, v.colorCodigoFold)})
			}
		}
		A.cHi = int32(len(ix.dims))
	}
	return ix
}

// compact copies the catalog's texts (codes, names, sizes, colours,
// barcodes) into one block of memory. Decoded from JSON, each was an
// object of its own, hundreds of thousands for a shop's catalog, that the
// collector would mark again in every cycle of a long validation; one
// block is one object, and the decoded records can go.
func (ix *Index) compact() {
	total := 0
	for i := range ix.arts {
		total += len(ix.arts[i].Codigo) + len(ix.arts[i].Nombre)
	}
	for i := range ix.vars {
		v := &ix.vars[i]
		total += len(v.TalleNombre) + len(v.TalleCodigo) + len(v.ColorNombre) + len(v.ColorCodigo) + len(v.CodigoBarras)
	}
	var b strings.Builder
	b.Grow(total)
	each := func(visit func(*string)) {
		for i := range ix.arts {
			visit(&ix.arts[i].Codigo)
			visit(&ix.arts[i].Nombre)
		}
		for i := range ix.vars {
			v := &ix.vars[i]
			visit(&v.TalleNombre)
			visit(&v.TalleCodigo)
			visit(&v.ColorNombre)
			visit(&v.ColorCodigo)
			visit(&v.CodigoBarras)
		}
	}
	each(func(s *string) { b.WriteString(*s) })
	arena, at := b.String(), 0
	each(func(s *string) {
		n := len(*s)
		*s = arena[at : at+n]
		at += n
	})
}

// cmpForm is the form of a name that sameName compares: its fold, or the
// name itself when it is plain.
func cmpForm(name, fold string) string {
	if fold != "" {
		return fold
	}
	return name
}

func hasDim(ds []dimEntry, id int64) bool {
	for i := range ds {
		if ds[i].id == id {
			return true
		}
	}
	return false
}

// add returns the value m[key] takes once idx is added to it: idx itself
// for a new key, else a reference to the list of every index under it.
func (ix *Index) add(m map[string]int32, dups *[][]int32, key string, idx int32) int32 {
	prev, ok := m[key]
	switch {
	case !ok:
		return idx
	case prev >= 0:
		*dups = append(*dups, []int32{prev, idx})
		return int32(-len(*dups))
	}
	k := -1 - prev
	(*dups)[k] = append((*dups)[k], idx)
	return prev
}

// lookup returns every index m holds for key.
func lookup(m map[string]int32, dups [][]int32, key string) []int32 {
	v, ok := m[key]
	switch {
	case !ok:
		return nil
	case v >= 0:
		return []int32{v}
	}
	return dups[-1-v]
}

// folded returns the case-folded code map, building it once.
func (ix *Index) folded() (map[string]int32, [][]int32) {
	ix.foldOnce.Do(func() {
		ix.byFold = make(map[string]int32, len(ix.arts))
		for a := range ix.arts {
			if c := ix.arts[a].Codigo; c != "" {
				k := foldCode(c)
				ix.byFold[k] = ix.add(ix.byFold, &ix.foldDups, k, int32(a))
			}
		}
	})
	return ix.byFold, ix.foldDups
}

// Len returns the number of articles in the index.
func (ix *Index) Len() int { return len(ix.arts) }

// Variants returns the number of variants (flat records) in the index.
func (ix *Index) Variants() int { return len(ix.vars) }

// Article returns the article with id, if the catalog has it.
func (ix *Index) Article(id int64) (Article, bool) {
	a, ok := ix.byID[id]
	if !ok {
		return Article{}, false
	}
	return ix.arts[a], true
}

// VariantsOf returns the variants of the article with id (nil if none).
func (ix *Index) VariantsOf(id int64) []Variant {
	a, ok := ix.byID[id]
	if !ok {
		return nil
	}
	return ix.vars[ix.arts[a].lo:ix.arts[a].hi]
}

// foldCode is a code compared without regard to case.
func foldCode(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(s)
		}
	}
	return s
}

// foldName is a size or colour name or code compared without regard to
// case, accents or repeated blanks ("Azul  Marino" = "azul marino").
func foldName(s string) string {
	s = strings.TrimSpace(s)
	if plainName(s) {
		lower := true
		for i := 0; i < len(s); i++ {
			lower = lower && !('A' <= s[i] && s[i] <= 'Z')
		}
		if lower {
			return s
		}
		return strings.ToLower(s)
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	if r, _, err := transform.String(t, s); err == nil {
		s = r
	}
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
}

// plainName reports whether s is ASCII without control characters or
// blanks at its ends or in a row: text that folds by lower-casing alone.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		x := s[i]
		if x >= utf8.RuneSelf || x < ' ' || (x == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ')) {
			return false
		}
	}
	return true
}

// sameName reports whether catalog text c (fold: its folded form, "" when
// it is plain) equals query q, itself plain or folded (see queryName):
// both sides are then ASCII-cased text that EqualFold compares without
// allocating.
func sameName(c, fold, q string) bool {
	if c == "" {
		return false
	}
	if fold != "" {
		c = fold
	}
	return strings.EqualFold(c, q)
}

// queryName readies a row's size or colour for sameName: as typed when
// plain, else folded.
func queryName(s string) string {
	if plainName(s) {
		return s
	}
	return foldName(s)
}
