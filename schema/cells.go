package schema

import (
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// cellErr is a cell whose text cannot become the column's value: a
// *msg.Error with code ErrCell whose message says what was typed and what
// to type instead.
func cellErr(key string, args ...any) *msg.Error {
	return &msg.Error{Code: ErrCell, Msg: msg.New(key, args...)}
}

// Sep is a file's decimal separator.
type Sep int

// Decimal separators. SepUnknown means the file gave no evidence: numbers
// with a single separator followed by exactly three digits are ambiguous.
const (
	SepUnknown Sep = iota
	SepComma
	SepDot
)

// ParseSep reads a --decimal value.
func ParseSep(s string) (Sep, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return SepUnknown, nil
	case "comma", "coma", ",":
		return SepComma, nil
	case "dot", "punto", ".":
		return SepDot, nil
	}
	return SepUnknown, &msg.Error{Code: ErrSepFlag, Msg: msg.New("cell.badsepflag", s)}
}

func (s Sep) String() string {
	switch s {
	case SepComma:
		return "comma"
	case SepDot:
		return "dot"
	}
	return "unknown"
}

// SepDetector gathers evidence of a file's decimal separator from the text
// of its numeric cells.
type SepDetector struct {
	comma, dot int
}

// Add looks at one numeric cell's text. Raw spreadsheet numbers should not
// be added: they always use '.'.
func (d *SepDetector) Add(s string) {
	switch sepEvidence(strings.TrimSpace(s)) {
	case SepComma:
		d.comma++
	case SepDot:
		d.dot++
	}
}

// Result returns the separator most cells show, or SepUnknown.
func (d *SepDetector) Result() Sep {
	switch {
	case d.comma == 0 && d.dot == 0:
		return SepUnknown
	case d.comma >= d.dot:
		return SepComma
	}
	return SepDot
}

// sepEvidence says which separator a single number's text proves, if any.
func sepEvidence(s string) Sep {
	// One pass for both separators' counts and last positions: this runs
	// on every amount of the file while it is read.
	lc, ld, nc, nd := -1, -1, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',':
			lc, nc = i, nc+1
		case '.':
			ld, nd = i, nd+1
		}
	}
	switch {
	case nc > 0 && nd > 0:
		if lc > ld {
			return SepComma
		}
		return SepDot
	case nc > 1:
		return SepDot // 1,234,567: commas group thousands
	case nd > 1:
		return SepComma
	case nc == 1 && len(s)-lc-1 != 3:
		return SepComma
	case nd == 1 && len(s)-ld-1 != 3:
		return SepDot
	}
	return SepUnknown
}

// plainNumber parses the common case without allocating: digits with at
// most one decimal separator that the file's convention (or a raw cell)
// allows, and at most Scale decimals.
func plainNumber(s string, sep Sep, raw bool) (nxapi.Decimal, bool) {
	if len(s) == 0 || len(s) > 16 { // no int64 overflow while accumulating
		return 0, false
	}
	var ip, fp int64
	frac := -1 // digits after the separator; -1 before it
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if frac < 0 {
				ip = ip*10 + int64(c-'0')
				continue
			}
			frac++
			if frac > nxapi.Scale {
				return 0, false
			}
			fp = fp*10 + int64(c-'0')
		case frac < 0 && i > 0 && ((c == '.' && (raw || sep == SepDot)) || (c == ',' && !raw && sep == SepComma)):
			frac = 0
		default:
			return 0, false
		}
	}
	if frac == 0 || ip > 900_000_000_000_000 { // the general path judges the range
		return 0, false
	}
	if raw && frac >= 2 && s[len(s)-1] == '0' { // text, not a stored number: see IsRawNumber
		return 0, false
	}
	for k := max(frac, 0); k < nxapi.Scale; k++ {
		fp *= 10
	}
	return nxapi.NewDecimal(ip, fp), true
}

// IsRawNumber reports whether s is a spreadsheet's raw numeric value
// ("1234.5", "-3", "1E-05"). Spreadsheets store a number in its shortest
// form, at most with a single ".0" for a whole number, so a value with
// two or more decimals ending in 0 ("1.500") is a text cell, typed the way
// the file writes numbers: in Argentina, one thousand five hundred.
func IsRawNumber(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	digits, dot, exp := 0, false, false
	fracDigits, fracLast := 0, byte(0)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if dot && !exp {
				fracDigits++
				fracLast = c
			}
		case c == '.' && !dot && !exp:
			dot = true
		case (c == 'E' || c == 'e') && !exp && digits > 0:
			exp = true
			if i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
		default:
			return false
		}
	}
	return digits > 0 && !(fracDigits >= 2 && fracLast == '0')
}

// ParseNumber parses a locale-formatted number: "1234.56", "1234,56",
// "1.234,56", "1,234.56", with an optional leading "$". raw says the cell
// came from a spreadsheet's numeric value.
func ParseNumber(s string, sep Sep, raw bool) (nxapi.Decimal, error) {
	if d, ok := plainNumber(s, sep, raw); ok {
		return d, nil
	}
	return parseNumberText(s, sep, raw)
}

// parseNumberText is ParseNumber's general path: signs, "$", thousands
// separators, exponents, and the messages for what does not parse.
func parseNumberText(s string, sep Sep, raw bool) (nxapi.Decimal, error) {
	s = strings.TrimSpace(s)
	if raw && IsRawNumber(s) {
		d, err := nxapi.ParseDecimal(s)
		if err != nil {
			return 0, numErr(s, err)
		}
		return d, nil
	}
	t := strings.TrimSpace(strings.TrimPrefix(s, "$"))
	neg := false
	if strings.HasPrefix(t, "-") {
		neg, t = true, t[1:]
	}
	if t == "" {
		return 0, cellErr("cell.notnumber", s)
	}
	use := sep
	if use == SepUnknown {
		use = sepEvidence(t)
		if use == SepUnknown && strings.ContainsAny(t, ".,") {
			return 0, cellErr("cell.ambiguous", s)
		}
	}
	dec, thou := byte('.'), byte(',')
	if use == SepComma {
		dec, thou = ',', '.'
	}
	intPart, frac, hasDec := strings.Cut(t, string(dec))
	if hasDec && strings.IndexByte(frac, dec) >= 0 {
		return 0, cellErr("cell.badnumber", s, sepName(use))
	}
	if strings.IndexByte(frac, thou) >= 0 {
		return 0, cellErr("cell.badnumber", s, sepName(use))
	}
	if strings.IndexByte(intPart, thou) >= 0 {
		groups := strings.Split(intPart, string(thou))
		if len(groups[0]) == 0 || len(groups[0]) > 3 {
			return 0, cellErr("cell.badnumber", s, sepName(use))
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return 0, cellErr("cell.badnumber", s, sepName(use))
			}
		}
		intPart = strings.Join(groups, "")
	}
	canon := intPart
	if hasDec {
		canon += "." + frac
	}
	if neg {
		canon = "-" + canon
	}
	d, err := nxapi.ParseDecimal(canon)
	if err != nil {
		return 0, numErr(s, err)
	}
	return d, nil
}

func sepName(s Sep) msg.Message {
	if s == SepComma {
		return msg.New("cell.sep.comma")
	}
	return msg.New("cell.sep.dot")
}

func numErr(s string, err error) error {
	switch err {
	case nxapi.ErrDecimalPrecision:
		return cellErr("cell.precision", s, nxapi.Scale)
	case nxapi.ErrDecimalRange:
		return cellErr("cell.toolarge", s)
	}
	return cellErr("cell.notnumber", s)
}

// ParseInt parses an id or integer: digits with an optional sign; a raw
// spreadsheet number with no fraction ("1001", "1.001E3") also counts.
func ParseInt(s string, raw bool) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	if raw && IsRawNumber(s) {
		if d, err := nxapi.ParseDecimal(s); err == nil && d.IsInteger() {
			return d.Int(), nil
		}
	}
	return 0, cellErr("cell.notint", s)
}

// ParseBool reads true/false, si/no, sí/no, 1/0, x/blank (and yes/no,
// verdadero/falso).
func ParseBool(s string) (bool, error) {
	switch Normalize(s) {
	case "true", "si", "s", "1", "x", "yes", "y", "verdadero", "v":
		return true, nil
	case "false", "no", "n", "0", "", "falso", "f":
		return false, nil
	}
	return false, cellErr("cell.notbool", s)
}

// enumKey folds an enum name: "Depósito banco", "deposito_banco" and
// "DEPOSITO-BANCO" all become DEPOSITOBANCO.
func enumKey(s string) string {
	if isEnumCanonical(s) {
		return strings.ReplaceAll(s, "_", "")
	}
	return strings.ToUpper(strings.ReplaceAll(Normalize(s), "-", ""))
}

// isEnumCanonical reports text already in the API's spelling (EFECTIVO,
// DEPOSITO_BANCO, 9): the common case, folded without allocating.
func isEnumCanonical(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Enum names folded once, so that parsing a cell does not fold them again.
var (
	tipoMedioByKey = foldEnum(nxapi.TipoMedioNames)
	tipoStockByKey = foldEnum(nxapi.TipoStockNames)
)

func foldEnum[T ~int](names map[T]string) map[string]T {
	out := map[string]T{}
	for v, name := range names {
		out[enumKey(name)] = v
		out[strconv.Itoa(int(v))] = v
	}
	return out
}

// ParseTipoMedio reads a TipoMedio name or number.
func ParseTipoMedio(s string) (nxapi.TipoMedio, error) {
	if t, ok := tipoMedioByKey[enumKey(s)]; ok {
		return t, nil
	}
	return 0, cellErr("cell.badmedio", s)
}

// ParseTipoMedioFor reads a TipoMedio of a request of kind k: a value it
// does not know is answered with the types k accepts, never one its
// endpoint refuses (POST /venta takes no TARJETA nor CUENTA_CORRIENTE,
// API spec 4.1 item 4).
func ParseTipoMedioFor(s string, k Kind) (nxapi.TipoMedio, error) {
	t, err := ParseTipoMedio(s)
	if err != nil && k == Venta {
		return 0, cellErr("cell.badmedio.venta", s)
	}
	return t, err
}

// ParseTipoStock reads a TipoStockTransaccion name or number.
func ParseTipoStock(s string) (nxapi.TipoStock, error) {
	if t, ok := tipoStockByKey[enumKey(s)]; ok {
		return t, nil
	}
	return 0, cellErr("cell.badtipostock", s)
}

// condicionAliases are the names accountants write for each CondicionIva
// code; a bare number is the ERP's own code (public-facts.md).
var condicionAliases = map[string]int{
	"SINCATEGORIA": 0, "SC": 0,
	"CONSUMIDORFINAL": 1, "CF": 1,
	"RESPONSABLEINSCRIPTO": 2, "RI": 2,
	"MONOTRIBUTO": 3, "MONOTRIBUTISTA": 3, "MT": 3, "RESPONSABLEMONOTRIBUTO": 3,
	"EXENTO": 4, "IVAEXENTO": 4, "EX": 4,
	"RESPONSABLENOINSCRIPTO": 5, "RNI": 5,
}

// ParseCondicion reads a CondicionIva name, abbreviation or ERP code 0-5.
func ParseCondicion(s string) (int, error) {
	k := enumKey(s)
	if n, ok := condicionAliases[k]; ok {
		return n, nil
	}
	if n, err := strconv.Atoi(k); err == nil && n >= 0 && n <= 5 {
		return n, nil
	}
	return 0, cellErr("cell.badcondicion", s)
}

// DigitsOnly drops the punctuation people type inside identifiers
// ("20-12345678-6", "12.345.678"); anything else is kept so that validation
// can say what is wrong.
func DigitsOnly(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '.', '-', ' ', '/':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
}

var dateLayouts = []struct {
	layout  string
	hasTime bool
}{
	{"2006-01-02", false},
	{"2006-01-02T15:04:05", true},
	{"2006-01-02 15:04:05", true},
	{"2006-01-02T15:04", true},
	{time.RFC3339, true},
	{"02/01/2006", false},
	{"2/1/2006", false},
	{"02/01/2006 15:04:05", true},
	{"2/1/2006 15:04:05", true},
	{"02/01/2006 15:04", true},
	{"2/1/2006 15:04", true},
	{"2/1/06", false},
	{"02-01-2006", false},
	{"2-1-2006", false},
}

// ParseDate reads ISO 8601, dd/mm/yyyy (never mm/dd), d/m/yy, or a raw
// spreadsheet date serial, and returns the ISO 8601 text the API takes:
// "2006-01-02", or "2006-01-02T15:04:05" when a time was given.
func ParseDate(s string, raw, date1904 bool) (string, error) {
	s = strings.TrimSpace(s)
	if raw && IsRawNumber(s) {
		f, err := strconv.ParseFloat(s, 64) // a serial date, not an amount
		if err == nil && f >= 1 && f < 2958466 {
			t, err := excelize.ExcelDateToTime(f, date1904)
			if err == nil {
				t = t.Round(time.Second)
				if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 {
					return t.Format("2006-01-02"), nil
				}
				return t.Format("2006-01-02T15:04:05"), nil
			}
		}
	}
	for _, l := range dateLayouts {
		t, err := time.Parse(l.layout, s)
		if err != nil {
			continue
		}
		if l.layout == time.RFC3339 {
			return t.Format(time.RFC3339), nil
		}
		if l.hasTime {
			return t.Format("2006-01-02T15:04:05"), nil
		}
		return t.Format("2006-01-02"), nil
	}
	return "", cellErr("cell.baddate", s)
}
