package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// Validate builds every request of f, checks it with the local rules (and
// the catalogs, when cat is not nil) and marks each request and row valid or
// invalid. With keepBodies, valid requests keep their JSON body for sending.
func (f *File) Validate(cat *validation.Catalog, keepBodies bool) {
	for _, sh := range f.Sheets {
		sh.validate(cat, keepBodies)
	}
}

func (sh *Sheet) validate(cat *validation.Catalog, keepBodies bool) {
	b := newBuilder(sh)
	firstKey := map[string]int32{} // facturar: facturaId -> first row
	for _, r := range sh.Requests {
		b.reset()
		var body any
		var issues []validation.Issue
		switch sh.Kind {
		case schema.Venta:
			v := b.buildVenta(r)
			issues, body = validation.Venta(v, cat), v
		case schema.Facturar:
			fa := b.buildFacturar(r)
			issues, body = validation.Facturar(fa, cat), fa
			if r.Key != "" {
				if first, dup := firstKey[r.Key]; dup {
					b.fail(r.Rows[0], "facturaId", msg.New("row.dupfactura", r.Key, sh.store.rowNumber(int(first))))
				} else {
					firstKey[r.Key] = r.Rows[0]
				}
			}
		case schema.Stock:
			m := b.buildStock(r)
			issues, body = validation.Stock(m, cat), m
		}
		for _, is := range issues {
			b.addValidation(r, is)
		}
		for _, row := range r.Rows {
			if p := sh.problems[int(row)]; p != nil {
				b.issues = append(b.issues, rowIssue{row: row, msg: p.Msg})
			}
		}
		sh.settle(r, b.issues)
		if r.Status == writers.StatusValid {
			js, err := json.Marshal(body)
			if err != nil { // cannot happen with these types; never send what we cannot hash
				r.Status = writers.StatusInvalid
				sh.results[r.Rows[0]].msgs = append(sh.results[r.Rows[0]].msgs, msg.New("row.internal", err.Error()))
				continue
			}
			sum := sha256.Sum256(js)
			r.BodyHash = hex.EncodeToString(sum[:])
			if keepBodies {
				r.Body = js
			}
		}
	}
}

// addValidation maps a validation issue onto the rows it concerns: a line
// issue onto that line's row, a request-level one onto every row.
func (b *builder) addValidation(r *Request, is validation.Issue) {
	if is.Line >= 0 && is.Line < len(r.Rows) {
		row := r.Rows[is.Line]
		if b.bad[cellKey{row, is.Field}] {
			return
		}
		b.issues = append(b.issues, rowIssue{row: row, field: is.Field, msg: is.Msg, warning: is.Warning})
		return
	}
	if b.bad[cellKey{-1, is.Field}] {
		return
	}
	for _, row := range r.Rows {
		b.issues = append(b.issues, rowIssue{row: row, field: is.Field, msg: is.Msg, warning: is.Warning})
	}
}

// settle sets the request's status from its issues and gives every row its
// messages: its own problems, or which rows of the same request have them.
func (sh *Sheet) settle(r *Request, issues []rowIssue) {
	bad := map[int32]bool{}
	for _, is := range issues {
		res := &sh.results[is.row]
		if !is.warning {
			bad[is.row] = true
		}
		res.msgs = appendUnique(res.msgs, is.msg)
	}
	r.Status = writers.StatusValid
	if len(bad) > 0 {
		r.Status = writers.StatusInvalid
	}
	r.Warned = len(issues) > len(bad) && len(bad) == 0
	var badRows []string
	if len(bad) > 0 {
		for _, row := range r.Rows {
			if bad[row] {
				badRows = append(badRows, strconv.Itoa(sh.store.rowNumber(int(row))))
			}
		}
	}
	for _, row := range r.Rows {
		res := &sh.results[row]
		res.status = r.Status
		if len(bad) > 0 && !bad[row] {
			res.msgs = append(res.msgs, msg.New("row.otherrows", r.Label, strings.Join(badRows, ", ")))
		}
	}
}

func appendUnique(ms []msg.Message, m msg.Message) []msg.Message {
	for _, x := range ms {
		if x.Key == m.Key && fmt.Sprint(x.Args) == fmt.Sprint(m.Args) {
			return ms
		}
	}
	return append(ms, m)
}

// RowMessage renders the messages of row i of the sheet in language l.
func (sh *Sheet) RowMessage(i int, l msg.Lang) string {
	ms := sh.results[i].msgs
	switch len(ms) {
	case 0:
		return ""
	case 1:
		return ms[0].In(l)
	}
	parts := make([]string, len(ms))
	for k, m := range ms {
		parts[k] = m.In(l)
	}
	return strings.Join(parts, "; ")
}
