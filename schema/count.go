package schema

import (
	"strings"
	"sync"

	"github.com/nxbatch/nxbatch/msg"
)

// An inventory count (nxbatch.md 3.6) is a stock file whose line column is
// the counted quantity instead of the quantity to move: the movement type
// and quantity of each line come from the difference with the ERP's stock,
// so a count has no tipo and no articulos.cantidad. It is a mode of the
// stock kind, not a kind of its own: it is detected by the same key column
// (depositoId), sent to the same endpoint, and journaled as stock rows.

// CantidadContada is a count file's line column: the counted quantity, ≥ 0,
// decimals allowed.
const CantidadContada = "articulos.cantidadContada"

// notInCount are the stock columns a count file does not take: the type
// and the quantity come from the difference, and a count is never a
// transfer. A user's movement key (movimiento) and price do not apply
// either: a count's rows are packed by warehouse, reason and type.
var notInCount = map[string]bool{
	"tipo": true, "articulos.cantidad": true, "depositoDosId": true, "sucursalDosId": true,
	Movimiento: true, "articulos.precio": true,
}

// countSynonyms are the Spanish headers accountants give the counted
// quantity; "Cantidad contada" already matches the column's last part.
// They are weaker than the column's own name: beside a movement file's
// tipo or articulos.cantidad, a "Conteo" column is the user's own (a
// check mark, a shelf's count) and the file stays a movement file. Plain
// "contado" is not one: it also means paid in cash.
var countSynonyms = []string{"conteo", "stock contado", "stock fisico", "cantidad fisica", "existencia contada", "existencia real"}

// countForbidden returns the message key that refuses stock column path in
// a count header, or "": a count that also says the quantity to move, or
// the movement type, cannot be told apart from a movement file.
func countForbidden(path string) string {
	switch path {
	case "articulos.cantidad":
		return "hdr.count.mixed"
	case "tipo":
		return "hdr.count.tipo"
	}
	return ""
}

// CountColumns returns the columns of a count file: the stock columns a
// count takes, in the contract's order, with CantidadContada in place of
// articulos.cantidad. Derived from the stock columns so that a column added
// to stock lines (an article code, a barcode) is a count column too.
var CountColumns = sync.OnceValue(func() []Column {
	var out []Column
	for _, c := range columns[Stock] {
		if c.Path == "articulos.cantidad" {
			out = append(out, line(CantidadContada, Number))
			continue
		}
		if !notInCount[c.Path] {
			out = append(out, c)
		}
	}
	return out
})

// countSynonymSet holds countSynonyms normalized.
var countSynonymSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, s := range countSynonyms {
		m[Normalize(s)] = true
	}
	return m
})

// countPath returns the column path a header names in a count file when it
// is the counted quantity (by path, last part, mapping or synonym), or "";
// strong is false for a synonym.
func countPath(h string, m Mapping) (path string, strong bool) {
	n := Normalize(h)
	if p, ok := m[n]; ok {
		if p == CantidadContada {
			return p, true
		}
		return "", false
	}
	if n == Normalize(CantidadContada) || n == Normalize("cantidadContada") {
		return CantidadContada, true
	}
	if countSynonymSet()[n] {
		return CantidadContada, false
	}
	return "", false
}

// IsCount reports whether a stock header is an inventory count's: one of
// its columns is the counted quantity by its own name (or a mapping), or
// by a synonym in a header without a movement file's tipo or
// articulos.cantidad.
func IsCount(header []string, m Mapping) bool {
	weak := false
	for _, h := range header {
		switch p, strong := countPath(h, m); {
		case strong:
			return true
		case p != "":
			weak = true
		}
	}
	if !weak {
		return false
	}
	full, leaf := pathTables(Stock.Columns())
	for _, h := range header {
		if countForbidden(matchPath(h, m, Stock.Columns(), full, leaf)) != "" {
			return false
		}
	}
	return true
}

// Columns returns the columns the layout was matched against: a count's
// when Count, else its kind's.
func (l *Layout) Columns() []Column {
	if l.Count {
		return CountColumns()
	}
	return l.Kind.Columns()
}

// matchCount matches a count header: the count columns, the counted
// quantity's synonyms, and an error for each stock column a count must not
// have (articulos.cantidad beside the counted quantity, tipo).
func matchCount(header []string, m Mapping) (*Layout, []*msg.Error) {
	cols := CountColumns()
	lay := &Layout{Kind: Stock, Count: true, Index: map[string]int{}}
	var errs []*msg.Error
	full, leaf := pathTables(cols)
	stockFull, stockLeaf := pathTables(Stock.Columns())
	for i, h := range header {
		path, _ := countPath(h, m)
		if path == "" {
			path = matchPath(h, m, cols, full, leaf)
		}
		if path == "" {
			// A stock column that a count must not carry is an error, not
			// an unknown column carried through: nothing of the file
			// could be told right.
			if key := countForbidden(matchPath(h, m, Stock.Columns(), stockFull, stockLeaf)); key != "" {
				errs = append(errs, columnErr(h, "", ErrCountColumns, key, h))
				continue
			}
			if strings.TrimSpace(h) != "" {
				lay.Unknown = append(lay.Unknown, h)
			}
			continue
		}
		if j, dup := lay.Index[path]; dup {
			errs = append(errs, columnErr(h, path, ErrDuplicateColumn, "hdr.duplicate", header[j], h, path))
			continue
		}
		lay.Index[path] = i
	}
	var missing []string
	for _, c := range cols {
		if c.Required && !lay.has(c.Path, c.Or) {
			// An article by code or barcode stands in for its id.
			missing = append(missing, c.Path)
		}
	}
	if len(missing) > 0 {
		errs = append(errs, headerErr(ErrCountColumns, "hdr.count.missing", strings.Join(missing, ", ")))
	}
	return lay, errs
}

// pathTables are the lookups header matching uses for cols: every path
// normalized, and every unambiguous last part normalized ("" when two
// paths share it).
func pathTables(cols []Column) (full, leaf map[string]string) {
	full, leaf = map[string]string{}, map[string]string{}
	count := map[string]int{}
	for _, c := range cols {
		full[Normalize(c.Path)] = c.Path
		l := Normalize(c.Path[strings.LastIndexByte(c.Path, '.')+1:])
		count[l]++
		leaf[l] = c.Path
	}
	for l, n := range count {
		if n > 1 {
			leaf[l] = ""
		}
	}
	return full, leaf
}

// matchPath is Match's rule for one header against cols: a mapping entry
// naming one of cols, the full path, or an unambiguous last part; "" when
// none.
func matchPath(h string, m Mapping, cols []Column, full, leaf map[string]string) string {
	n := Normalize(h)
	if p, ok := m[n]; ok {
		for _, c := range cols {
			if c.Path == p {
				return p
			}
		}
		return ""
	}
	if p, ok := full[n]; ok {
		return p
	}
	if _, clash := full[n]; !clash && leaf[n] != "" {
		return leaf[n]
	}
	// The article columns' Spanish names (Código de barras, SKU, EAN), as
	// Match reads them.
	if l, ok := synonyms[synonymKey(h)]; ok {
		return leaf[Normalize(l)]
	}
	return ""
}
