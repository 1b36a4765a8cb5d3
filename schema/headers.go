package schema

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// LoadMapping reads a JSON or YAML object {"Nro Orden": "ordenId", ...}.
func LoadMapping(path string) (Mapping, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read mapping file: %w", err)
	}
	raw := map[string]string{}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		err = json.Unmarshal(b, &raw)
	default:
		err = yaml.Unmarshal(b, &raw)
	}
	if err != nil {
		return nil, fmt.Errorf("mapping file %s: %w (expected an object of \"your column\": \"apiField\" pairs)", path, err)
	}
	m := Mapping{}
	for k, v := range raw {
		col := canonicalPath(strings.TrimSpace(v))
		if col == "" {
			return nil, fmt.Errorf("mapping file %s: %q maps to %q, which is not a column of any kind", path, k, v)
		}
		m[Normalize(k)] = col
	}
	return m, nil
}

// canonicalPath returns the column path spelled as in the contract.
func canonicalPath(p string) string {
	n := Normalize(p)
	for _, k := range Kinds {
		for _, c := range k.Columns() {
			if Normalize(c.Path) == n {
				return c.Path
			}
		}
	}
	return ""
}

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
}

// Col returns the header index of path, or -1.
func (l *Layout) Col(path string) int {
	if i, ok := l.Index[path]; ok {
		return i
	}
	return -1
}

// HeaderError is a problem with the header row that makes the whole sheet
// unusable: a missing required column, or two columns filling one field.
type HeaderError struct {
	Msg msg.Message
}

func (e *HeaderError) Error() string { return e.Msg.In(msg.EN) }

// Match matches header against kind k. A header matches a column when its
// normalized text equals the column's path, a mapping entry names the
// path, or it equals the last part of exactly one path of the kind
// ("precio" → productos.precio).
func Match(k Kind, header []string, m Mapping) (*Layout, []*HeaderError) {
	cols := k.Columns()
	full := map[string]string{}
	leafCount := map[string]int{}
	leaf := map[string]string{}
	for _, c := range cols {
		full[Normalize(c.Path)] = c.Path
		l := Normalize(c.Path[strings.LastIndexByte(c.Path, '.')+1:])
		leafCount[l]++
		leaf[l] = c.Path
	}
	lay := &Layout{Kind: k, Index: map[string]int{}}
	var errs []*HeaderError
	for i, h := range header {
		n := Normalize(h)
		path := ""
		if p, ok := m[n]; ok {
			if _, ok := k.Column(p); ok {
				path = p
			}
		} else if p, ok := full[n]; ok {
			path = p
		} else if leafCount[n] == 1 {
			if _, clash := full[n]; !clash {
				path = leaf[n]
			}
		}
		if path == "" {
			if strings.TrimSpace(h) != "" {
				lay.Unknown = append(lay.Unknown, h)
			}
			continue
		}
		if j, dup := lay.Index[path]; dup {
			errs = append(errs, &HeaderError{Msg: msg.New("hdr.duplicate", header[j], h, path)})
			continue
		}
		lay.Index[path] = i
	}
	var missing []string
	for _, c := range cols {
		if c.Required {
			if _, ok := lay.Index[c.Path]; !ok {
				missing = append(missing, c.Path)
			}
		}
	}
	if len(missing) > 0 {
		errs = append(errs, &HeaderError{Msg: msg.New("hdr.missing", string(k), strings.Join(missing, ", "))})
	}
	return lay, errs
}
