package webapp

import (
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
)

// What one click on "Enviar" does, said before it: how many requests
// leave, the amount they invoice, and which rows stay behind and why.

// willSend is what a send of the current file would do.
type willSend struct {
	// requests are the requests that would leave, by kind (stock: rows).
	requests map[schema.Kind]int
	// amount adds up the sales' totals that would leave; amounts tells
	// whether any sale had one.
	amount  nxapi.Decimal
	amounts bool
	// invalid rows stay behind until fixed; sent were sent before (the
	// journal); unknown wait for a reconciliation; rejected were refused
	// by the API.
	invalid, sent, unknown, rejected int
}

// planSend works out what a send of f would do, with the rows the journal
// knows (marks) left out of it.
func planSend(f *pipeline.File, marks []map[int32]mark) willSend {
	w := willSend{requests: map[schema.Kind]int{}}
	for si, sh := range f.Sheets {
		total := -1
		if sh.Kind == schema.Venta && sh.Layout != nil {
			total = sh.Layout.Col("total")
		}
		for _, r := range sh.Requests {
			if r.Status != pipeline.StatusValid && r.Status != pipeline.StatusInvalid {
				continue
			}
			if _, fixed := marks[si][firstRow(r)]; r.Status == pipeline.StatusInvalid && !fixed {
				w.invalid += len(r.Rows)
				continue
			}
			if len(r.Rows) > 0 {
				if m, ok := marks[si][r.Rows[0]]; ok {
					switch m.st {
					case pipeline.StatusOK:
						w.sent += len(r.Rows)
					case pipeline.StatusUnknown:
						w.unknown += len(r.Rows)
					case pipeline.StatusRejected:
						w.rejected += len(r.Rows)
					}
					continue
				}
			}
			if sh.Kind == schema.Stock {
				w.requests[sh.Kind] += len(r.Rows)
				continue
			}
			w.requests[sh.Kind]++
			if total < 0 {
				continue
			}
			for _, row := range r.Rows {
				text, k := sh.CellAndKind(int(row), total)
				if strings.TrimSpace(text) == "" {
					continue
				}
				if d, err := schema.ParseNumber(text, sh.Sep, k == cell.Number); err == nil {
					w.amount += d
					w.amounts = true
				}
				break
			}
		}
	}
	return w
}

// sentence says it: "Se enviarán 144 ventas ($ 1.234.567,50); 6 filas con
// errores quedan sin enviar".
func (w willSend) sentence(l msg.Lang) string {
	what, behind := w.parts(false)
	switch {
	case len(what) == 0 && len(behind) == 0:
		return msg.New("web.will.nothing").In(l)
	case len(what) == 0:
		return msg.New("web.will.none", behind).In(l)
	case len(behind) == 0:
		return msg.New("web.will.all", what).In(l)
	}
	return msg.New("web.will.some", what, behind).In(l)
}

// parts are what leaves (by kind) and what stays behind (by why), each a
// count the confirmation lists one per line; confirm words the rows with
// errors for the confirmation, which has no table below to fix them in.
func (w willSend) parts(confirm bool) (what, behind joinMessages) {
	for _, k := range schema.Kinds {
		if n := w.requests[k]; n > 0 && k != schema.Stock {
			what = append(what, msg.Count("plan.kind."+string(k), n))
		}
	}
	if n := w.requests[schema.Stock]; n > 0 {
		what = append(what, msg.Count("web.will.stockrows", n))
	}
	if w.invalid > 0 {
		key := "web.will.invalid"
		if confirm {
			key = "web.confirm.invalid"
		}
		behind = append(behind, msg.Count(key, w.invalid))
	}
	if w.rejected > 0 {
		behind = append(behind, msg.Count("web.will.rejected", w.rejected))
	}
	if w.unknown > 0 {
		behind = append(behind, msg.Count("web.will.unknown", w.unknown))
	}
	if w.sent > 0 {
		behind = append(behind, msg.Count("web.will.sent", w.sent))
	}
	return what, behind
}

// leaves is how many requests (stock: rows) would leave.
func (w willSend) leaves() int {
	n := 0
	for _, c := range w.requests {
		n += c
	}
	return n
}

// amountText is the amount the send invoices, "" when no sale has one.
func (w willSend) amountText(l msg.Lang) string {
	if !w.amounts {
		return ""
	}
	return msg.New("web.will.amount", money(w.amount, l)).In(l)
}

// money writes an amount as Argentina writes it, whatever the source
// wrote: "$ 1.000,50" ("$ 1,000.50" in English).
func money(d nxapi.Decimal, l msg.Lang) string {
	c := d.Cents()
	neg := c < 0
	if neg {
		c = -c
	}
	dec := ","
	if l == msg.EN {
		dec = "."
	}
	s := thousands(int(c/100), l) + dec + leftPad(strconv.FormatInt(c%100, 10))
	if neg {
		s = "-" + s
	}
	return "$ " + s
}

// leftPad writes cents with two digits.
func leftPad(s string) string {
	if len(s) < 2 {
		return "0" + s
	}
	return s
}

// numberColumns are the sheet's columns that hold numbers, with the
// decimals they show at least: amounts two (1.000,50), quantities none.
func numberColumns(sh *pipeline.Sheet) map[int]int {
	out := map[int]int{}
	if sh.Layout == nil {
		return out
	}
	for _, c := range sh.Kind.Columns() {
		if c.Type != schema.Number {
			continue
		}
		if i := sh.Layout.Col(c.Path); i >= 0 {
			dec := 2
			if strings.HasSuffix(c.Path, "cantidad") {
				dec = 0
			}
			out[i] = dec
		}
	}
	return out
}

// shownNumber writes a number cell as Argentina writes it whatever the
// file wrote ("1000.5" of a workbook, "1000,50" of a CSV: 1.000,50); a
// cell that does not read as a number is shown as typed.
func shownNumber(text string, k cell.Kind, sh *pipeline.Sheet, minDec int, l msg.Lang) (string, bool) {
	d, err := schema.ParseNumber(strings.TrimSpace(text), sh.Sep, k == cell.Number)
	if err != nil || strings.TrimSpace(text) == "" {
		return "", false
	}
	return number(d, minDec, l), true
}

// number writes d with the language's separators and at least minDec
// decimals: 1.234.567,5 → "1.234.567,50" with two.
func number(d nxapi.Decimal, minDec int, l msg.Lang) string {
	s := d.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(s, ".")
	for len(fp) < minDec {
		fp += "0"
	}
	n, _ := strconv.ParseInt(ip, 10, 64)
	out := thousands(int(n), l)
	if fp != "" {
		dec := ","
		if l == msg.EN {
			dec = "."
		}
		out += dec + fp
	}
	if neg {
		out = "-" + out
	}
	return out
}

// firstRow is the first row of r, -1 when it has none.
func firstRow(r *pipeline.Request) int32 {
	if len(r.Rows) == 0 {
		return -1
	}
	return r.Rows[0]
}
