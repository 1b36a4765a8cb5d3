package validation

import (
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// Amount is a money amount as a message argument: Spanish text shows it the
// Argentine way (1.210,00), English with a plain decimal point (1210.00),
// always with at least two decimals.
type Amount nxapi.Decimal

// In renders a in language l.
func (a Amount) In(l msg.Lang) string { return formatDecimal(nxapi.Decimal(a), 2, l) }

// String renders a in Spanish, the users' language.
func (a Amount) String() string { return a.In(msg.ES) }

// Quantity is a quantity as a message argument: like Amount, but without
// forced decimals (3, 0,5).
type Quantity nxapi.Decimal

// In renders q in language l.
func (q Quantity) In(l msg.Lang) string { return formatDecimal(nxapi.Decimal(q), 0, l) }

// String renders q in Spanish, the users' language.
func (q Quantity) String() string { return q.In(msg.ES) }

// localized is an argument that knows how to write itself in a language.
type localized interface {
	In(msg.Lang) string
}

// Localize returns m with every argument that has an In(msg.Lang) method
// (Amount, Quantity) already written in language l, so that m.In(l) shows
// numbers the way readers of l expect. msg.Message.In alone would write them
// in Spanish whatever the language.
func Localize(m msg.Message, l msg.Lang) msg.Message {
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		if la, ok := a.(localized); ok {
			a = la.In(l)
		}
		args[i] = a
	}
	return msg.New(m.Key, args...)
}

// formatDecimal writes d with at least minFrac decimals (never more than
// nxapi.Scale, trailing zeros beyond minFrac dropped); Spanish groups
// thousands with '.' and uses ',' for decimals.
func formatDecimal(d nxapi.Decimal, minFrac int, l msg.Lang) string {
	neg := d < 0
	u := uint64(d)
	if neg {
		u = -u // two's complement: exact even for the smallest int64
	}
	const unit = 10000
	ip, fp := u/unit, u%unit
	frac := strconv.FormatUint(fp+unit, 10)[1:] // four digits, leading zeros kept
	for len(frac) > minFrac && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	digits := strconv.FormatUint(ip, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	point := "."
	if l == msg.EN {
		b.WriteString(digits)
	} else {
		point = ","
		for i, c := range digits {
			if i > 0 && (len(digits)-i)%3 == 0 {
				b.WriteByte('.')
			}
			b.WriteRune(c)
		}
	}
	if frac != "" {
		b.WriteString(point)
		b.WriteString(frac)
	}
	return b.String()
}
