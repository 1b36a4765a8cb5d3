package validation

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"github.com/nxbatch/nxbatch/nxapi"
)

// usuario checks the customer. Without entidadId the API searches or creates
// the customer from dni, cuit or email, so one of them is required and a
// malformed one is an error. With entidadId the API ignores usuario, so a
// malformed document cannot make it refuse the sale: it is only a warning.
func (c *checker) usuario(u *nxapi.Usuario, hasEntidad bool) {
	if u == nil {
		if !hasEntidad {
			c.add("usuario", request, "val.usuario.required")
		}
		return
	}
	report := c.add
	if hasEntidad {
		report = c.warn
	}
	dni, cuit, email := strings.TrimSpace(u.DNI), strings.TrimSpace(u.CUIT), strings.TrimSpace(u.Email)
	if !hasEntidad && dni == "" && cuit == "" && email == "" {
		c.add("usuario", request, "val.usuario.identity")
	}
	if cuit != "" {
		var ce *CUITError
		if err := CUIT(cuit); errors.As(err, &ce) {
			switch ce.Reason {
			case ErrCUITChars:
				report("usuario.cuit", request, "val.cuit.chars", u.CUIT)
			case ErrCUITLength:
				report("usuario.cuit", request, "val.cuit.length", u.CUIT, ce.Digits)
			default:
				report("usuario.cuit", request, "val.cuit.checkDigit", u.CUIT, ce.Want)
			}
		}
	}
	if dni != "" && DNI(dni) != nil {
		report("usuario.dni", request, "val.dni", u.DNI)
	}
	if email != "" && !Email(u.Email) {
		report("usuario.email", request, "val.email", u.Email)
	}
	if u.Condicion != nil {
		if _, ok := nxapi.CondicionNames[*u.Condicion]; !ok {
			report("usuario.condicion", request, "val.condicion", *u.Condicion)
		}
	}
}

// totals checks the API's rule total = subtotal + envio + recargo - descuento
// (API spec 2.1, 7: otherwise "Los totales no coinciden"). The right side is
// added exactly and both sides are compared rounded to the cent.
func (c *checker) totals(v *nxapi.Venta) {
	if v.Subtotal == nil || v.Envio == nil || v.Recargo == nil || v.Descuento == nil || v.Total == nil {
		return // already reported as missing
	}
	sum, ok := addDecimal(*v.Subtotal, *v.Envio)
	if ok {
		sum, ok = addDecimal(sum, *v.Recargo)
	}
	if ok {
		sum, ok = subDecimal(sum, *v.Descuento)
	}
	if !ok {
		c.add("total", request, "val.amount.overflow", "total")
		return
	}
	if sum.Cents() != v.Total.Cents() {
		c.add("total", request, "val.total.mismatch",
			Amount(*v.Total), Amount(*v.Subtotal), Amount(*v.Envio), Amount(*v.Recargo),
			Amount(*v.Descuento), Amount(sum), nxapi.MsgTotales)
	}
}

// subtotalOfLines warns when subtotal differs, to the cent, from the exact
// sum of precio × cantidad: the API does not check it, but it usually means a
// missing row or a mistyped price.
func (c *checker) subtotalOfLines(v *nxapi.Venta) {
	if v.Subtotal == nil || len(v.Productos) == 0 {
		return
	}
	for _, p := range v.Productos {
		if p.Precio == nil || p.Cantidad == nil {
			return // already reported as missing
		}
	}
	// The usual case fits in int64 exactly; big.Int only when it would not.
	if sum, ok := linesSum64(v.Productos); ok {
		if roundDiv64(sum, 1_000_000) == v.Subtotal.Cents() {
			return
		}
		c.warn("subtotal", request, "val.subtotal.lines", Amount(*v.Subtotal), Amount(nxapi.Decimal(roundDiv64(sum, 10_000))))
		return
	}
	// Each product has 2×Scale decimals; big.Int keeps it exact at any size.
	var sum, term, b big.Int
	for _, p := range v.Productos {
		if p.Precio == nil || p.Cantidad == nil {
			return // already reported as missing
		}
		term.SetInt64(int64(*p.Precio))
		b.SetInt64(int64(*p.Cantidad))
		sum.Add(&sum, term.Mul(&term, &b))
	}
	sumCents := roundDiv(&sum, 1_000_000) // 8 decimals → 2
	if sumCents.IsInt64() && sumCents.Int64() == v.Subtotal.Cents() {
		return
	}
	shown := roundDiv(&sum, 10_000) // 8 decimals → 4, a Decimal
	if !shown.IsInt64() {
		c.add("productos", request, "val.amount.overflow", "productos")
		return
	}
	c.warn("subtotal", request, "val.subtotal.lines", Amount(*v.Subtotal), Amount(nxapi.Decimal(shown.Int64())))
}

// linesSum64 returns Σ precio × cantidad with 2×Scale decimals; ok is false
// when a product or the sum would overflow int64.
func linesSum64(ps []nxapi.Producto) (int64, bool) {
	var sum int64
	for _, p := range ps {
		a, b := int64(*p.Precio), int64(*p.Cantidad)
		if a < 0 || b < 0 {
			return 0, false
		}
		hi, lo := bits.Mul64(uint64(a), uint64(b))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		t := int64(lo)
		if sum > math.MaxInt64-t {
			return 0, false
		}
		sum += t
	}
	return sum, true
}

// roundDiv64 is roundDiv for a non-negative int64.
func roundDiv64(x, d int64) int64 {
	q, r := x/d, x%d
	if 2*r >= d {
		q++
	}
	return q
}

// roundDiv returns x/d rounded half away from zero, the rounding of
// nxapi.Decimal.Cents.
func roundDiv(x *big.Int, d int64) *big.Int {
	var q, r big.Int
	den := big.NewInt(d)
	q.QuoRem(x, den, &r) // truncates toward zero; r has x's sign
	r.Abs(&r)
	if r.Lsh(&r, 1).Cmp(den) >= 0 {
		q.Add(&q, big.NewInt(int64(x.Sign())))
	}
	return &q
}

// addDecimal returns a+b; ok is false on int64 overflow.
func addDecimal(a, b nxapi.Decimal) (nxapi.Decimal, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// subDecimal returns a-b; ok is false on int64 overflow.
func subDecimal(a, b nxapi.Decimal) (nxapi.Decimal, bool) {
	s := a - b
	if (b > 0 && s > a) || (b < 0 && s < a) {
		return 0, false
	}
	return s, true
}
