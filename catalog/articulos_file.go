package catalog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// The article catalog's cache file is text, one variant per line, its
// fields separated by tabs, after a header line with the format's name,
// the time the catalog was fetched and the number of records. Not JSON: a
// shop's 100,000 variants took over a second to read back as JSON, and a
// run reads the cache every time it checks a file; this form reads in a
// fraction of that, with every field a slice of one string. A field's tab,
// newline, carriage return and backslash are written \t, \n, \r and \\.

// articulosMagic starts the cache file; its version changes with the
// fields.
const articulosMagic = "nxbatch-articulos 1"

// articulosFields is the number of fields of a record line.
const articulosFields = 24

// errArticulosFile is a cache file that is not one: a cache, so it is
// fetched again, never trusted.
var errArticulosFile = errors.New("not an article catalog cache")

// writeArticulos writes recs, fetched at fetched, in the cache's form.
func writeArticulos(w io.Writer, fetched time.Time, recs []nxapi.ArticuloConCurva) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%s\t%s\t%d\n", articulosMagic, fetched.UTC().Format(time.RFC3339Nano), len(recs))
	var line []byte
	for i := range recs {
		r := &recs[i]
		line = line[:0]
		line = strconv.AppendInt(line, r.ArticuloID, 10)
		for _, s := range []string{r.Codigo, r.Descripcion, r.DescripcionWeb, r.Nombre} {
			line = appendField(line, s)
		}
		line = append(line, '\t')
		line = strconv.AppendInt(line, int64(r.TalleColor), 10)
		for _, p := range []*nxapi.Decimal{r.Precio1, r.Precio2, r.Precio3, r.Precio4, r.Precio5} {
			line = append(line, '\t')
			if p != nil {
				line = append(line, p.String()...)
			}
		}
		line = append(line, '\t')
		line = strconv.AppendInt(line, r.ColorID, 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, r.TalleID, 10)
		for _, s := range []string{r.ColorNombre, r.ColorCodigo, r.ColorHex, r.TalleNombre, r.TalleCodigo, r.CodigoBarras} {
			line = appendField(line, s)
		}
		line = append(line, '\t')
		line = append(line, r.Unidades.String()...)
		line = append(line, '\t')
		if r.Eliminado {
			line = append(line, '1')
		} else {
			line = append(line, '0')
		}
		// Two reserved fields, then stockDepositos: "-" for none (not
		// multi-warehouse), else depositoId:unidades pairs, comma
		// separated ("" for an empty list).
		line = append(line, '\t', '\t', '\t')
		if r.StockDepositos == nil {
			line = append(line, '-')
		}
		for j, d := range r.StockDepositos {
			if j > 0 {
				line = append(line, ',')
			}
			line = strconv.AppendInt(line, d.DepositoID, 10)
			line = append(line, ':')
			line = append(line, d.Unidades.String()...)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendField appends a tab and s, escaped.
func appendField(line []byte, s string) []byte {
	line = append(line, '\t')
	if !strings.ContainsAny(s, "\t\n\r\\") {
		return append(line, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			line = append(line, '\\', 't')
		case '\n':
			line = append(line, '\\', 'n')
		case '\r':
			line = append(line, '\\', 'r')
		case '\\':
			line = append(line, '\\', '\\')
		default:
			line = append(line, c)
		}
	}
	return line
}

// unescape undoes appendField's escapes.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			default:
				c = s[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// readArticulos reads a cache file written by writeArticulos. Anything
// else is errArticulosFile with where it went wrong.
func readArticulos(data string) (fetched time.Time, recs []nxapi.ArticuloConCurva, err error) {
	head, rest, ok := strings.Cut(data, "\n")
	hf := strings.Split(head, "\t")
	if !ok || len(hf) != 3 || hf[0] != articulosMagic {
		return time.Time{}, nil, fmt.Errorf("%w: header %.40q", errArticulosFile, head)
	}
	fetched, err = time.Parse(time.RFC3339Nano, hf[1])
	if err != nil {
		return time.Time{}, nil, fmt.Errorf("%w: %v", errArticulosFile, err)
	}
	n, err := strconv.Atoi(hf[2])
	if err != nil || n < 0 || n > len(rest) {
		return time.Time{}, nil, fmt.Errorf("%w: count %q", errArticulosFile, hf[2])
	}
	recs = make([]nxapi.ArticuloConCurva, n)
	var f [articulosFields]string
	for i := range n {
		line, next, ok := strings.Cut(rest, "\n")
		if !ok {
			return time.Time{}, nil, fmt.Errorf("%w: %d records of %d", errArticulosFile, i, n)
		}
		rest = next
		if err := splitFields(line, &f); err != nil {
			return time.Time{}, nil, fmt.Errorf("%w: record %d: %v", errArticulosFile, i+1, err)
		}
		if err := parseRecord(&f, &recs[i]); err != nil {
			return time.Time{}, nil, fmt.Errorf("%w: record %d: %v", errArticulosFile, i+1, err)
		}
	}
	if rest != "" {
		return time.Time{}, nil, fmt.Errorf("%w: more than %d records", errArticulosFile, n)
	}
	return fetched, recs, nil
}

// splitFields splits a record line at its tabs into exactly
// articulosFields fields.
func splitFields(line string, f *[articulosFields]string) error {
	for k := range articulosFields - 1 {
		i := strings.IndexByte(line, '\t')
		if i < 0 {
			return fmt.Errorf("%d fields, want %d", k+1, articulosFields)
		}
		f[k], line = line[:i], line[i+1:]
	}
	if strings.IndexByte(line, '\t') >= 0 {
		return fmt.Errorf("more than %d fields", articulosFields)
	}
	f[articulosFields-1] = line
	return nil
}

func parseRecord(f *[articulosFields]string, r *nxapi.ArticuloConCurva) error {
	var err error
	num := func(s string) int64 {
		if n, ok := smallInt(s); ok {
			return n
		}
		n, e := strconv.ParseInt(s, 10, 64)
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	dec := func(s string) nxapi.Decimal {
		// Units and prices are mostly whole: read them without the
		// general parser (a third of the load's time).
		if n, ok := smallInt(s); ok {
			return nxapi.DecimalFromInt(n)
		}
		d, e := nxapi.ParseDecimal(s)
		if e != nil && err == nil {
			err = e
		}
		return d
	}
	price := func(s string) *nxapi.Decimal {
		if s == "" {
			return nil
		}
		d := dec(s)
		return &d
	}
	r.ArticuloID = num(f[0])
	r.Codigo, r.Descripcion, r.DescripcionWeb, r.Nombre = unescape(f[1]), unescape(f[2]), unescape(f[3]), unescape(f[4])
	r.TalleColor = int(num(f[5]))
	r.Precio1, r.Precio2, r.Precio3, r.Precio4, r.Precio5 = price(f[6]), price(f[7]), price(f[8]), price(f[9]), price(f[10])
	r.ColorID, r.TalleID = num(f[11]), num(f[12])
	r.ColorNombre, r.ColorCodigo, r.ColorHex = unescape(f[13]), unescape(f[14]), unescape(f[15])
	r.TalleNombre, r.TalleCodigo, r.CodigoBarras = unescape(f[16]), unescape(f[17]), unescape(f[18])
	r.Unidades = dec(f[19])
	switch f[20] {
	case "0":
	case "1":
		r.Eliminado = true
	default:
		return fmt.Errorf("eliminado %q", f[20])
	}
	// f[21] and f[22] are reserved (empty), so that a field can be added
	// without a new version.
	switch sd := f[23]; sd {
	case "-":
	case "":
		r.StockDepositos = []nxapi.StockDeposito{}
	default:
		n := strings.Count(sd, ",") + 1
		r.StockDepositos = make([]nxapi.StockDeposito, 0, n)
		for item := range strings.SplitSeq(sd, ",") {
			id, u, ok := strings.Cut(item, ":")
			if !ok {
				return fmt.Errorf("stockDepositos %q", sd)
			}
			r.StockDepositos = append(r.StockDepositos, nxapi.StockDeposito{DepositoID: num(id), Unidades: dec(u)})
		}
	}
	return err
}

// smallInt reads s when it is an integer of at most 14 digits, as the
// cache writes ids and whole quantities (an optional minus, no leading
// zero); anything else goes to the general parsers, which give the same
// value for these.
func smallInt(s string) (int64, bool) {
	d := strings.TrimPrefix(s, "-")
	if len(d) == 0 || len(d) > 14 || (d[0] == '0' && len(d) > 1) {
		return 0, false
	}
	var v int64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if len(d) < len(s) {
		v = -v
	}
	return v, true
}
