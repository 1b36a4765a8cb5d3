package pipeline

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
)

// Rows name their articles by the ERP's ids or by the shop's own keys (a
// code, a barcode, a size and a colour by name). The keys are resolved
// against the article catalog while a request is built, before it is
// validated: the body validated, hashed and sent carries ids only, and a
// row whose article does not resolve is a row error like any other.

// resolvedRow is what a row's article resolved to, for the report.
type resolvedRow struct {
	articulo, talle, color int64
}

// articleResultColumns are the result columns a sheet that names
// articles by the shop's keys adds: the ids its rows resolved to and the
// article's name.
var articleResultColumns = []string{"result.articuloId", "result.talleId", "result.colorId", "result.articulo"}

// The id columns of a line, by kind.
var (
	ventaIDPaths = [3]string{"productos.articuloId", "productos.talleId", "productos.colorId"}
	stockIDPaths = [3]string{"articulos.articuloId", "articulos.talleId", "articulos.colorId"}
)

// linePrefix is the column prefix of a kind's article lines ("" for a kind
// without articles).
func linePrefix(k schema.Kind) string {
	switch k {
	case schema.Venta, schema.Pedido:
		return "productos"
	case schema.Stock:
		return "articulos"
	}
	return ""
}

// byKeys reports whether the sheet has a column naming articles by the
// shop's keys.
func (sh *Sheet) byKeys() bool {
	p := linePrefix(sh.Kind)
	if p == "" {
		return false
	}
	for _, k := range schema.ArticleKeys {
		if sh.Layout.Col(p+"."+k) >= 0 {
			return true
		}
	}
	return false
}

// setRef records an article key column's text on the line's query; it
// reports whether path was one. prefix ends in its dot ("productos."): it
// is called for every line cell, and is not concatenated per call.
func setRef(q *articulos.Query, prefix, path, text string) bool {
	k, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return false
	}
	switch k {
	case "codigo":
		q.Codigo = text
	case "codigoBarras":
		q.CodigoBarras = text
	case "talle":
		q.Talle = text
	case "color":
		q.Color = text
	default:
		return false
	}
	return true
}

// refs returns the builder's article queries for n lines, cleared.
func (b *builder) refsFor(n int) []articulos.Query {
	if cap(b.refs) < n {
		b.refs = make([]articulos.Query, n)
	}
	b.refs = b.refs[:n]
	clear(b.refs)
	return b.refs
}

// resolveLines resolves the article of each current row (line k of the
// body) against the catalog and writes the ids into the body through ids.
// A row that does not resolve fails on the column at fault, and its ids
// are not reported again as missing. Rows by id without an article
// catalog are noted as unchecked.
func (b *builder) resolveLines(cat *validation.Catalog, ids func(k int) (art, talle, color *int64)) {
	if !b.sh.keyed && b.sh.articles == nil {
		// Ids only and nothing to check them against: the common case of
		// a large file, kept cheap.
		for k, row := range b.rows {
			if a, _, _ := ids(k); *a > 0 {
				b.unchecked = append(b.unchecked, row)
			}
		}
		return
	}
	prefix := linePrefix(b.sh.Kind)
	idPaths := &ventaIDPaths
	if b.sh.Kind == schema.Stock {
		idPaths = &stockIDPaths
	}
	if b.headerFn == nil {
		b.headerFn = b.header
	}
	for k, row := range b.rows {
		if b.bad[cellKey{row, idPaths[0]}] || b.bad[cellKey{row, idPaths[1]}] || b.bad[cellKey{row, idPaths[2]}] {
			continue // an id cell that did not parse already says what to change
		}
		a, t, c := ids(k)
		q := b.refs[k]
		q.ArticuloID, q.TalleID, q.ColorID = *a, *t, *c
		m, checked, issues := validation.ResolveArticle(cat, k, validation.ArticleRef{Query: q, Prefix: prefix, Header: b.headerFn})
		if len(issues) > 0 {
			for _, is := range issues {
				b.fail(row, is.Field, is.Msg)
			}
			if b.bad == nil {
				b.bad = map[cellKey]bool{}
			}
			b.bad[cellKey{row, idPaths[0]}] = true
			continue
		}
		if !checked {
			if q.ArticuloID > 0 {
				b.unchecked = append(b.unchecked, row)
			}
			continue
		}
		if m.ArticuloID == 0 {
			continue
		}
		*a, *t, *c = m.ArticuloID, m.TalleID, m.ColorID
		if b.sh.resolved != nil {
			b.sh.resolved[row] = resolvedRow{m.ArticuloID, m.TalleID, m.ColorID}
		}
	}
}

// startResolution readies the sheet for a validation against cat: the
// resolved ids of an earlier one are dropped, and a sheet by the shop's
// keys gets room for its rows' ids (the report's result columns).
func (sh *Sheet) startResolution(cat *validation.Catalog) {
	sh.resolved, sh.articles, sh.unchecked = nil, nil, nil
	if cat != nil {
		sh.articles = cat.Articulos
	}
	sh.keyed = sh.byKeys()
	if sh.keyed {
		sh.resolved = make([]resolvedRow, sh.store.len())
	}
}

// uncheckedWarning is the file's warning for the rows whose articles no
// catalog checked, if any.
func (f *File) uncheckedWarning() {
	// The last check's warnings are replaced (clipped: a copy of the
	// file keeps its own).
	f.Warnings = slices.Clip(f.Warnings[:len(f.Warnings)-f.unchecked])
	f.unchecked = 0
	for _, sh := range f.Sheets {
		if len(sh.unchecked) == 0 {
			continue
		}
		nums := make([]int, len(sh.unchecked))
		for i, r := range sh.unchecked {
			nums[i] = sh.store.rowNumber(int(r))
		}
		slices.Sort(nums)
		nums = slices.Compact(nums)
		f.Warnings = append(f.Warnings, msg.New("art.unchecked", msg.FileArg{File: f.Path, Sheet: sh.Info.Name}, rowRanges(nums)))
		f.unchecked++
	}
}

// articleResults appends row i's result.articuloId, talleId, colorId and
// articulo cells to res.
func (sh *Sheet) articleResults(res []string, i int) []string {
	if sh.resolved == nil {
		return append(res, "", "", "", "")
	}
	r := sh.resolved[i]
	name := ""
	if sh.articles != nil && r.articulo != 0 {
		if a, ok := sh.articles.Article(r.articulo); ok {
			name = a.Nombre
		}
	}
	return append(res, idText(r.articulo), idText(r.talle), idText(r.color), name)
}

// reidentify gives a stock sheet's rows their identities from the ids
// their articles resolve to, so that a row written by code and the same row
// written by id are one row (exactly once). Rows whose article does not
// resolve keep an identity from what they say; rows fed back from a
// report keep theirs.
func (sh *Sheet) reidentify(cat *validation.Catalog) {
	ix := (*articulos.Index)(nil)
	if cat != nil {
		ix = cat.Articulos
	}
	prefix := linePrefix(sh.Kind)
	idCols := columns(sh, variantFields)
	keyCols := make([]int, len(schema.ArticleKeys))
	for k, key := range schema.ArticleKeys {
		keyCols[k] = sh.Layout.Col(prefix + "." + key)
	}
	text := func(i, c int) string {
		if c < 0 {
			return ""
		}
		return strings.TrimSpace(sh.store.text(i, c))
	}
	parseID := func(i, c int) (int64, bool) {
		if c < 0 {
			return 0, true
		}
		s, kind := sh.store.cell(i, c)
		if strings.TrimSpace(s) == "" {
			return 0, true
		}
		n, err := schema.ParseInt(s, kind == cell.Number)
		return n, err == nil
	}
	movCol, packCols := sh.Layout.Col(schema.Movimiento), columns(sh, stockPackFields)
	occurrence := map[string]int{}
	var pb, vb strings.Builder
	for i := 0; i < sh.store.len(); i++ {
		r := sh.Requests[sh.reqOf[i]]
		if sh.priorID(i) != "" {
			continue
		}
		pk := sh.packKey(i, movCol, packCols, &pb)
		vb.Reset()
		vb.WriteString(pk)
		resolved := false
		if ix != nil {
			a, okA := parseID(i, idCols[0])
			c, okC := parseID(i, idCols[1])
			t, okT := parseID(i, idCols[2])
			q := articulos.Query{ArticuloID: a, ColorID: c, TalleID: t, Codigo: text(i, keyCols[0]),
				CodigoBarras: text(i, keyCols[1]), Talle: text(i, keyCols[2]), Color: text(i, keyCols[3])}
			if okA && okC && okT {
				if m, err := ix.Resolve(q); err == nil {
					for _, id := range []int64{m.ArticuloID, m.ColorID, m.TalleID} {
						vb.WriteByte(0)
						if id != 0 {
							vb.WriteString(strconv.FormatInt(id, 10))
						}
					}
					resolved = true
				}
			}
		}
		if !resolved {
			for _, c := range idCols {
				vb.WriteByte(0)
				if c >= 0 {
					vb.WriteString(keyText(sh.store.cell(i, c)))
				}
			}
			// What the row says of its article by the shop's keys, so that
			// rows by code that do not resolve are still told apart.
			for _, c := range keyCols {
				if t := text(i, c); t != "" {
					vb.WriteByte(1)
					vb.WriteString(t)
				}
			}
		}
		vk := vb.String()
		occurrence[vk]++
		r.Key = rowIdentity(vk, occurrence[vk])
	}
}

// ResolvedArticle is what a row's article resolved to.
type ResolvedArticle struct {
	ArticuloID, TalleID, ColorID int64
	Nombre                       string // the article's name in the catalog
}

// ArticleOf returns what row i's article resolved to in the last
// validation, for a sheet that names articles by the shop's keys (a page
// shows the name beside the code); ok is false when it did not resolve.
func (sh *Sheet) ArticleOf(i int) (ResolvedArticle, bool) {
	if i < 0 || i >= len(sh.resolved) || sh.resolved[i].articulo == 0 {
		return ResolvedArticle{}, false
	}
	r := sh.resolved[i]
	out := ResolvedArticle{ArticuloID: r.articulo, TalleID: r.talle, ColorID: r.color}
	if sh.articles != nil {
		if a, ok := sh.articles.Article(r.articulo); ok {
			out.Nombre = a.Nombre
		}
	}
	return out, true
}
