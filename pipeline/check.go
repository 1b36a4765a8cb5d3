package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
)

// Validate builds every request of f, checks it with the local rules (and
// the catalogs, when cat is not nil) and marks each request and row valid or
// invalid. With keepBodies, valid requests keep their JSON body for sending.
func (f *File) Validate(cat *validation.Catalog, keepBodies bool) {
	for _, sh := range f.Sheets {
		sh.validate(cat, keepBodies)
	}
	f.uncheckedWarning()
}

// parallelFrom is the number of requests above which validation is split
// across cores; below it, goroutines cost more than they save.
const parallelFrom = 2000

func (sh *Sheet) validate(cat *validation.Catalog, keepBodies bool) {
	sh.startResolution(cat)
	if sh.Kind == schema.Stock {
		if sh.byKeys() {
			sh.reidentify(cat)
		}
		// A movement's rows are validated together; movements are few.
		b := newBuilder(sh)
		dups := sh.repeatedIdentities()
		for _, mv := range sh.Movements {
			b.checkMovement(mv, cat, keepBodies, dups)
		}
		b.repeatedCounts()
		for row, ms := range b.msgs {
			sh.msgs[row] = append(sh.msgs[row], ms...)
		}
		sh.unchecked = b.unchecked
		return
	}
	dups := sh.repeatedKeys()
	workers := 1
	if len(sh.Requests) >= parallelFrom {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	// Requests own disjoint rows, so workers only share read-only state;
	// each collects its rows' messages in its own map, merged at the end.
	// The workers take the requests a run at a time rather than a fixed
	// share each: sales differ in size, and a worker whose share was
	// cheaper would otherwise sit idle while the other finishes.
	builders := make([]*builder, workers)
	var wg sync.WaitGroup
	var taken atomic.Int64
	for w := range workers {
		b := newBuilder(sh)
		builders[w] = b
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				hi := int(taken.Add(checkRun))
				lo := hi - checkRun
				if lo >= len(sh.Requests) {
					return
				}
				for _, r := range sh.Requests[lo:min(hi, len(sh.Requests))] {
					first, dup := dups[r]
					b.check(r, cat, keepBodies, first, dup)
				}
			}
		}()
	}
	wg.Wait()
	for _, b := range builders {
		for row, ms := range b.msgs {
			sh.msgs[row] = append(sh.msgs[row], ms...)
		}
		sh.unchecked = append(sh.unchecked, b.unchecked...)
	}
}

// checkRun is how many requests a validating worker takes at a time.
const checkRun = 1024

// repeatedKeys finds presales whose facturaId already appeared on an earlier
// row: those later rows are errors (the API would take the first and refuse
// the rest as in progress). The value is the first row's index.
func (sh *Sheet) repeatedKeys() map[*Request]int32 {
	dups := map[*Request]int32{}
	if sh.Kind != schema.Facturar && sh.Kind != schema.Cancelar {
		return dups
	}
	first := map[string]int32{}
	for _, r := range sh.Requests {
		if r.Key == "" {
			continue
		}
		if f, seen := first[r.Key]; seen {
			dups[r] = f
		} else {
			first[r.Key] = r.Rows[0]
		}
	}
	return dups
}

// check builds request r, validates it, settles its rows and, for a run,
// keeps its exact JSON body and hash. dup marks a repeated facturaId whose
// first row is dupOf.
func (b *builder) check(r *Request, cat *validation.Catalog, keepBodies bool, dupOf int32, dup bool) {
	sh := b.sh
	b.reset(r)
	var body any
	var issues []validation.Issue
	switch sh.Kind {
	case schema.Venta:
		v := b.buildVenta(r)
		b.resolveLines(cat, func(k int) (*int64, *int64, *int64) {
			p := &v.Productos[k]
			return &p.ArticuloID, &p.TalleID, &p.ColorID
		})
		issues, body = validation.Venta(v, cat), v
	case schema.Facturar:
		fa := b.buildFacturar(r)
		issues, body = validation.Facturar(fa, cat), fa
	case schema.Pedido:
		p := b.buildPedido(r)
		b.resolveLines(cat, func(k int) (*int64, *int64, *int64) {
			l := &p.Productos[k]
			return &l.ArticuloID, &l.TalleID, &l.ColorID
		})
		issues, body = validation.Pedido(p, cat), p
		r.paid = p.Pagado
		if keepBodies && (p.Pagado || p.MedioPago != nil) {
			// The order as created without its payment: what a paid
			// update must match (see prepareOrders).
			base := *p
			base.Pagado, base.MedioPago = false, nil
			if js, err := json.Marshal(&base); err == nil {
				sum := sha256.Sum256(js)
				r.Record().BaseHash = hex.EncodeToString(sum[:])
			}
		}
	case schema.Cancelar:
		x := b.buildCancelar()
		issues, body = validation.Cancelar(x), x
	}
	if dup {
		key := "row.dupfactura"
		if sh.Kind == schema.Cancelar {
			key = "row.dupcancel"
		}
		b.fail(r.Rows[0], "facturaId", msg.New(key, r.Key, sh.store.rowNumber(int(dupOf))))
	}
	for _, is := range issues {
		b.addValidation(r, is)
	}
	for _, row := range r.Rows {
		if p := sh.problems[int(row)]; p != nil {
			b.issues = append(b.issues, rowIssue{row: row, msg: p.Msg})
		}
	}
	b.settle(r)
	// Only a run needs the exact body and its hash (journal keys and
	// conflicts); validate skips the cost.
	if !keepBodies || r.Status != StatusValid {
		return
	}
	js, err := json.Marshal(body)
	if err != nil { // cannot happen with these types; never send what we cannot hash
		r.Status = StatusInvalid
		b.msgs[r.Rows[0]] = append(b.msgs[r.Rows[0]], note{msg: msg.New("row.internal", err.Error())})
		return
	}
	sum := sha256.Sum256(js)
	res := r.Record()
	res.BodyHash = hex.EncodeToString(sum[:])
	res.Body = js
	if res.BaseHash == "" {
		res.BaseHash = res.BodyHash
	}
}

// addValidation maps a validation issue onto the rows it concerns.
func (b *builder) addValidation(r *Request, is validation.Issue) { b.addIssue(r.Rows, is) }

// addIssue maps a validation issue onto the rows it concerns: a line issue
// onto that line's row, a request-level one onto every row.
func (b *builder) addIssue(rows []int32, is validation.Issue) {
	if is.Line >= 0 && is.Line < len(rows) {
		row := rows[is.Line]
		if b.bad[cellKey{row, is.Field}] {
			return
		}
		b.issues = append(b.issues, rowIssue{row: row, field: is.Field, msg: is.Msg, warning: is.Warning})
		return
	}
	if b.bad[cellKey{-1, is.Field}] {
		return
	}
	for _, row := range rows {
		b.issues = append(b.issues, rowIssue{row: row, field: is.Field, msg: is.Msg, warning: is.Warning, request: true})
	}
}

// settle sets the request's status from its issues and gives every row its
// messages: its own problems, or which rows of the same request have them.
func (b *builder) settle(r *Request) {
	r.Status = StatusValid
	if len(b.issues) == 0 {
		return
	}
	bad := map[int32]bool{}
	for _, is := range b.issues {
		if !is.warning {
			bad[is.row] = true
		}
		b.msgs[is.row] = appendUnique(b.msgs[is.row], note{is.field, is.msg})
	}
	if len(bad) == 0 {
		return // warnings only: the request stays valid
	}
	r.Status = StatusInvalid
	var badRows []string
	for _, row := range r.Rows {
		if bad[row] {
			badRows = append(badRows, strconv.Itoa(b.sh.store.rowNumber(int(row))))
		}
	}
	for _, row := range r.Rows {
		if !bad[row] {
			b.msgs[row] = append(b.msgs[row], note{msg: msg.New("row.otherrows", r.Label(), strings.Join(badRows, ", "))})
		}
	}
}

func appendUnique(ns []note, n note) []note {
	for _, x := range ns {
		if x.field == n.field && x.msg.Key == n.msg.Key && fmt.Sprint(x.msg.Args) == fmt.Sprint(n.msg.Args) {
			return ns
		}
	}
	return append(ns, n)
}

// RowMessage renders the messages of row i of the sheet in language l.
func (sh *Sheet) RowMessage(i int, l msg.Lang) string { return sh.rowMessage(i, l, nil) }

// rowMessage is RowMessage with each message first passed through say
// (nil: as it is).
func (sh *Sheet) rowMessage(i int, l msg.Lang, say func(msg.Message) msg.Message) string {
	ns := sh.msgs[int32(i)]
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return said(ns[0].msg, say).In(l)
	}
	parts := make([]string, len(ns))
	for k, n := range ns {
		parts[k] = said(n.msg, say).In(l)
	}
	return strings.Join(parts, "; ")
}

// said is m passed through say, or m when say is nil.
func said(m msg.Message, say func(msg.Message) msg.Message) msg.Message {
	if say == nil {
		return m
	}
	return say(m)
}

// CellIssue is one problem of a row, on the column it is about.
type CellIssue struct {
	// Column is the index into Info.Header of the cell it is about; -1 for
	// the whole row (or a field that has no column in the file).
	Column int
	Field  string // the API field path; "" for the whole row
	Text   string
}

// RowIssues returns the problems of row i with the cell each is about, in
// language l: what a page shows on the cell itself.
func (sh *Sheet) RowIssues(i int, l msg.Lang) []CellIssue { return sh.rowIssues(i, l, nil) }

func (sh *Sheet) rowIssues(i int, l msg.Lang, say func(msg.Message) msg.Message) []CellIssue {
	ns := sh.msgs[int32(i)]
	out := make([]CellIssue, 0, len(ns))
	for _, n := range ns {
		ci := CellIssue{Column: -1, Field: n.field, Text: said(n.msg, say).In(l)}
		if n.field != "" {
			ci.Column = sh.Layout.Col(n.field)
		}
		out = append(out, ci)
	}
	return out
}
