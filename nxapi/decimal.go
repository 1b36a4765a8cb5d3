package nxapi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Scale is the number of decimal places a Decimal keeps. Four places hold
// every amount and quantity the ERP takes (prices with tenths of a cent,
// quantities in grams) while cent-level totals stay exact.
const Scale = 4

const unit = 10000 // 10^Scale

// Decimal is an exact fixed-point number with Scale decimal places, stored as
// an integer count of 1/10000 units. Amounts are never float64: the API's
// totals rule must hold to the cent.
type Decimal int64

// ErrDecimalSyntax reports text that is not a plain decimal number.
var ErrDecimalSyntax = errors.New("not a decimal number")

// ErrDecimalPrecision reports a number with more than Scale decimal places.
var ErrDecimalPrecision = errors.New("too many decimal places")

// ErrDecimalRange reports a number too large for a Decimal.
var ErrDecimalRange = errors.New("number too large")

// maxIntPart keeps int part * unit inside int64.
const maxIntPart = (1<<63 - 1) / unit

// NewDecimal returns units + frac/10000; NewDecimal(12, 3400) is 12.34.
func NewDecimal(units int64, frac int64) Decimal {
	return Decimal(units*unit + frac)
}

// DecimalFromInt returns n as a Decimal.
func DecimalFromInt(n int64) Decimal { return Decimal(n * unit) }

// ParseDecimal parses a canonical decimal: optional sign, digits, optional
// '.' and up to Scale digits, or an exponent form as spreadsheets write raw
// numbers ("1E-05", "1.5e3"). Locale forms ("1.234,56") are the schema
// package's job; this is the wire and raw-cell form.
func ParseDecimal(s string) (Decimal, error) {
	if s == "" {
		return 0, ErrDecimalSyntax
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		return parseExponent(s[:i], s[i+1:])
	}
	neg := false
	switch s[0] {
	case '-':
		neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	intPart, fracPart, hasDot := strings.Cut(s, ".")
	if intPart == "" && fracPart == "" {
		return 0, ErrDecimalSyntax
	}
	if hasDot && fracPart == "" && intPart == "" {
		return 0, ErrDecimalSyntax
	}
	if !allDigits(intPart) || !allDigits(fracPart) {
		return 0, ErrDecimalSyntax
	}
	// Trailing zeros beyond Scale are harmless ("1.50000").
	fracPart = strings.TrimRight(fracPart, "0")
	if len(fracPart) > Scale {
		return 0, ErrDecimalPrecision
	}
	intPart = strings.TrimLeft(intPart, "0")
	if len(intPart) > 15 {
		return 0, ErrDecimalRange
	}
	var ip int64
	if intPart != "" {
		ip, _ = strconv.ParseInt(intPart, 10, 64)
	}
	if ip > maxIntPart {
		return 0, ErrDecimalRange
	}
	var fp int64
	if fracPart != "" {
		fp, _ = strconv.ParseInt(fracPart+strings.Repeat("0", Scale-len(fracPart)), 10, 64)
	}
	d := Decimal(ip*unit + fp)
	if neg {
		d = -d
	}
	return d, nil
}

// parseExponent handles mantissa e exponent by shifting the decimal point in
// the text, so that no float rounding ever happens.
func parseExponent(mant, exp string) (Decimal, error) {
	e, err := strconv.Atoi(exp)
	if err != nil || e > 20 || e < -20 || mant == "" {
		return 0, ErrDecimalSyntax
	}
	neg := false
	switch mant[0] {
	case '-':
		neg = true
		mant = mant[1:]
	case '+':
		mant = mant[1:]
	}
	intPart, fracPart, _ := strings.Cut(mant, ".")
	if (intPart == "" && fracPart == "") || !allDigits(intPart) || !allDigits(fracPart) {
		return 0, ErrDecimalSyntax
	}
	digits := intPart + fracPart
	point := len(intPart) + e
	for point < 0 {
		digits = "0" + digits
		point++
	}
	for point > len(digits) {
		digits += "0"
	}
	s := digits[:point] + "." + digits[point:]
	if neg {
		s = "-" + s
	}
	return ParseDecimal(s)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// String writes the shortest exact form: "12.34", "-0.5", "7".
func (d Decimal) String() string {
	neg := d < 0
	u := uint64(d)
	if neg {
		u = uint64(-d)
	}
	ip, fp := u/unit, u%unit
	s := strconv.FormatUint(ip, 10)
	if fp != 0 {
		f := fmt.Sprintf("%04d", fp)
		s += "." + strings.TrimRight(f, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Cents rounds d half away from zero to two decimal places and returns the
// result as an integer count of cents; the API compares totals to the cent.
func (d Decimal) Cents() int64 {
	v := int64(d)
	const per = unit / 100
	if v >= 0 {
		return (v + per/2) / per
	}
	return -((-v + per/2) / per)
}

// Mul returns d*e rounded half away from zero to Scale places. ok is false on
// overflow.
func (d Decimal) Mul(e Decimal) (Decimal, bool) {
	a, b := int64(d), int64(e)
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a {
		return 0, false
	}
	half := int64(unit / 2)
	if p >= 0 {
		return Decimal((p + half) / unit), true
	}
	return Decimal(-((-p + half) / unit)), true
}

// IsInteger reports whether d has no fractional part.
func (d Decimal) IsInteger() bool { return int64(d)%unit == 0 }

// Int returns the integer part of d.
func (d Decimal) Int() int64 { return int64(d) / unit }

// MarshalJSON writes d as a JSON number, never a string.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalJSON reads a JSON number (or a numeric string, which some ERP
// answers use) exactly, without passing through float64.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	v, err := ParseDecimal(s)
	if err != nil {
		return fmt.Errorf("decimal %q: %w", s, err)
	}
	*d = v
	return nil
}
