package schema

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"gopkg.in/yaml.v3"

	"github.com/nxbatch/nxbatch/msg"
)

// Normalize folds a header for matching: case, accents, blanks and
// underscores are ignored ("Medio Pago.Tipo" and "mediopago.tipo" match).
func Normalize(h string) string {
	h = strings.TrimSpace(h)
	if isASCII(h) {
		var b strings.Builder
		for i := 0; i < len(h); i++ {
			c := h[i]
			switch {
			case c == ' ' || c == '\t' || c == '_':
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	s, _, err := transform.String(t, h)
	if err != nil {
		s = h
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '_' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Mapping maps a user's own column names onto column paths (--map FILE).
// Keys are stored normalized.
type Mapping map[string]string

// The limits of a mapping file (--map). A mapping names a sheet's columns:
// a few kilobytes; the limits only keep a wrong or crafted file from
// costing minutes and gigabytes (a 35 MB YAML map took 90 s and 1.3 GB).
const (
	// MaxMappingBytes is the largest mapping file (1 MiB).
	MaxMappingBytes = 1 << 20
	// MaxMappingEntries is the most entries a mapping may have: as many as
	// the columns of the widest sheet (16,384).
	MaxMappingEntries = 1 << 14
)

// LoadMapping reads a JSON or YAML object {"Nro Orden": "ordenId", ...}.
// Its errors are *msg.Error values naming the file and what to fix.
//
// Time is linear in the number of keys for both formats. YAML is decoded
// into a yaml.Node and walked here, not into a map: yaml.v3 checks every
// key of a mapping against every later one when it fills a map (quadratic,
// 175 s for 200,000 keys), and the walk finds repeated keys with a map
// instead. Two keys that normalize alike ("Nro Orden", "nro_orden") must
// name the same column: which one won would otherwise depend on map order.
func LoadMapping(path string) (Mapping, error) {
	b, err := readMapping(path)
	if err != nil {
		return nil, err
	}
	return ParseMapping(path, b)
}

// readMapping reads a mapping file of at most MaxMappingBytes, never more
// than one byte past it whatever the file is (a device, a pipe).
func readMapping(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("map.read", path), Err: err}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxMappingBytes {
		return nil, &msg.Error{Msg: msg.New("map.toolarge", path, MaxMappingBytes>>20)}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxMappingBytes+1))
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("map.read", path), Err: err}
	}
	if len(b) > MaxMappingBytes {
		return nil, &msg.Error{Msg: msg.New("map.toolarge", path, MaxMappingBytes>>20)}
	}
	return b, nil
}

// ParseMapping reads the contents b of the mapping file path (JSON when
// path ends in .json, else YAML), as LoadMapping does.
func ParseMapping(path string, b []byte) (Mapping, error) {
	if len(b) > MaxMappingBytes {
		return nil, &msg.Error{Msg: msg.New("map.toolarge", path, MaxMappingBytes>>20)}
	}
	var pairs []mapPair
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		raw := map[string]string{}
		if err := json.Unmarshal(b, &raw); err != nil {
			return nil, &msg.Error{Msg: msg.New("map.syntax", path, err.Error()), Err: err}
		}
		if len(raw) > MaxMappingEntries {
			return nil, &msg.Error{Msg: msg.New("map.toomany", path, MaxMappingEntries)}
		}
		pairs = make([]mapPair, 0, len(raw))
		for k, v := range raw {
			pairs = append(pairs, mapPair{key: k, value: v})
		}
	default:
		if pairs, err = yamlPairs(path, b); err != nil {
			return nil, err
		}
	}
	paths := canonicalPaths()
	m := make(Mapping, len(pairs))
	from := make(map[string]string, len(pairs)) // normalized key → the key as written
	for _, p := range pairs {
		col := paths[Normalize(strings.TrimSpace(p.value))]
		if col == "" {
			return nil, &msg.Error{Msg: msg.New("map.notcolumn", path, p.key, p.value)}
		}
		n := Normalize(p.key)
		if prev, ok := m[n]; ok && prev != col {
			return nil, &msg.Error{Msg: msg.New("map.conflict", path, from[n], prev, p.key, col)}
		}
		m[n], from[n] = col, p.key
	}
	return m, nil
}

// mapPair is one entry of a mapping file as written.
type mapPair struct{ key, value string }

// yamlPairs reads a YAML mapping of scalars. Merge keys ("<<: *base") are
// followed, each mapping at most once, so aliases cannot multiply work.
func yamlPairs(path string, b []byte) ([]mapPair, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, &msg.Error{Msg: msg.New("map.syntax", path, err.Error()), Err: err}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil // an empty file: no mapping
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return nil, nil
	}
	var pairs []mapPair
	seen := map[string]int{} // key → line, for repeated keys
	walked := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if n.Kind != yaml.MappingNode {
			return &msg.Error{Msg: msg.New("map.notobject", path, n.Line)}
		}
		if walked[n] {
			return nil
		}
		walked[n] = true
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" {
				if err := walk(v); err != nil {
					return err
				}
				continue
			}
			if v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode {
				return &msg.Error{Msg: msg.New("map.notobject", path, k.Line)}
			}
			if len(pairs) == MaxMappingEntries {
				return &msg.Error{Msg: msg.New("map.toomany", path, MaxMappingEntries)}
			}
			if line, dup := seen[k.Value]; dup {
				return &msg.Error{Msg: msg.New("map.duplicate", path, k.Value, line, k.Line)}
			}
			seen[k.Value] = k.Line
			value := v.Value
			if v.Tag == "!!null" {
				value = ""
			}
			pairs = append(pairs, mapPair{key: k.Value, value: value})
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	return pairs, nil
}

// canonicalPaths maps every column path of every kind, normalized, to its
// spelling in the contract; built once.
var canonicalPaths = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, k := range Kinds {
		for _, c := range k.Columns() {
			m[Normalize(c.Path)] = c.Path
		}
	}
	m[Normalize(CantidadContada)] = CantidadContada
	return m
})

// DetectKind returns the kind whose key column appears in header (after
// mapping): ordenId → venta, facturaId → facturar, depositoId → stock.
func DetectKind(header []string, m Mapping) (Kind, bool) {
	seen := map[string]bool{}
	for _, h := range header {
		n := Normalize(h)
		if p, ok := m[n]; ok {
			n = Normalize(p)
		}
		seen[n] = true
	}
	for _, k := range Kinds {
		if seen[Normalize(k.KeyColumn())] {
			return k, true
		}
	}
	return "", false
}

// Layout is a header matched against a kind's columns.
type Layout struct {
	Kind    Kind
	Index   map[string]int // column path -> index into the header
	Unknown []string       // headers that fill no field, carried through untouched
	// Count marks a stock header of an inventory count (its line column is
	// CantidadContada): its columns are CountColumns.
	Count bool
}

// Col returns the header index of path, or -1.
func (l *Layout) Col(path string) int {
	if i, ok := l.Index[path]; ok {
		return i
	}
	return -1
}

// has reports whether the layout has path or any of its stand-ins.
func (l *Layout) has(path string, or []string) bool {
	if _, ok := l.Index[path]; ok {
		return true
	}
	for _, p := range or {
		if _, ok := l.Index[p]; ok {
			return true
		}
	}
	return false
}

// missingColumns lists the required columns a header lacks, each with the
// columns that could stand in for it, in the message's language.
type missingColumns []Column

// In renders the list: "ordenId, productos.articuloId (o productos.codigo
// o productos.codigoBarras)".
func (m missingColumns) In(l msg.Lang) string {
	parts := make([]string, len(m))
	for i, c := range m {
		parts[i] = c.Path
		if len(c.Or) > 0 {
			parts[i] = msg.New("hdr.missing.or", c.Path, strings.Join(c.Or, msg.New("hdr.or").In(l))).In(l)
		}
	}
	return strings.Join(parts, ", ")
}

// synonyms are the headers Spanish-speaking users write for the article
// columns, keyed by synonymKey, valued by the column's last path segment:
// a shop's export says «Código», «Cód. artículo», «SKU», «EAN».
var synonyms = map[string]string{
	"cod": "codigo", "codart": "codigo", "codarticulo": "codigo", "codigoarticulo": "codigo",
	"codigodearticulo": "codigo", "codigodelarticulo": "codigo", "codproducto": "codigo",
	"codprod": "codigo", "codigoproducto": "codigo", "codigodeproducto": "codigo",
	"codigodelproducto": "codigo", "sku": "codigo", "codigosku": "codigo",
	"articulocodigo": "codigo", "productocodigo": "codigo", "codigo": "codigo",
	"codigodebarras": "codigoBarras", "codigodebarra": "codigoBarras", "codigobarra": "codigoBarras",
	"codbarras": "codigoBarras", "codbarra": "codigoBarras", "codbar": "codigoBarras",
	"codigoean": "codigoBarras", "ean": "codigoBarras", "ean13": "codigoBarras", "gtin": "codigoBarras",
	"upc": "codigoBarras", "barcode": "codigoBarras",
	"talla": "talle", "talles": "talle", "size": "talle", "talle": "talle",
	"colores": "color", "colour": "color", "color": "color",
}

// synonymKey folds a header for the synonyms: Normalize, then only its
// letters and digits («Cód. artículo» → codarticulo).
func synonymKey(h string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, Normalize(h))
}

// Codes of the *msg.Error values this package returns, for errors.Is. A
// header problem makes the whole sheet unusable.
var (
	// ErrMissingColumn is a required column the header lacks.
	ErrMissingColumn = errors.New("required column missing")
	// ErrDuplicateColumn is two columns of the header filling one field.
	ErrDuplicateColumn = errors.New("two columns for one field")
	// ErrCountColumns is a count header that lacks a count's columns or
	// has a column a count must not have.
	ErrCountColumns = errors.New("not a count's columns")
	// ErrCell is a cell whose text cannot become its column's value.
	ErrCell = errors.New("cell value")
	// ErrSepFlag is a --decimal value that names no separator.
	ErrSepFlag = errors.New("unknown decimal separator")
)

// headerErr is a header problem with its code.
func headerErr(code error, key string, args ...any) *msg.Error {
	return &msg.Error{Code: code, Msg: msg.New(key, args...)}
}

// columnErr is a header problem at one column (its header as typed) and,
// when known, the API field it fills. The file and sheet are the caller's
// to fill in.
func columnErr(column, field string, code error, key string, args ...any) *msg.Error {
	e := headerErr(code, key, args...)
	e.Pos.Column, e.Pos.Field = column, field
	return e
}

// Match matches header against kind k; its problems are *msg.Error values
// with codes ErrMissingColumn, ErrDuplicateColumn or ErrCountColumns, at
// their column when they have one. A header matches a column when its
// normalized text equals the column's path, a mapping entry names the
// path, or it equals the last part of exactly one path of the kind
// ("precio" → productos.precio). A stock header with a counted quantity
// is an inventory count's, matched against CountColumns (Layout.Count).
func Match(k Kind, header []string, m Mapping) (*Layout, []*msg.Error) {
	if k == Stock && IsCount(header, m) {
		return matchCount(header, m)
	}
	cols := k.Columns()
	full, leaf := pathTables(cols)
	lay := &Layout{Kind: k, Index: map[string]int{}}
	var errs []*msg.Error
	for i, h := range header {
		path := matchPath(h, m, cols, full, leaf)
		if path == "" {
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
	var missing missingColumns
	for _, c := range cols {
		if c.Required && !lay.has(c.Path, c.Or) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		errs = append(errs, headerErr(ErrMissingColumn, "hdr.missing", string(k), missing))
	}
	return lay, errs
}
