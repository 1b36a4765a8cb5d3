package pipeline

import (
	"github.com/nxbatch/nxbatch/cell"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Request is one unit of exactly-once a sheet becomes: a sale (all rows of
// one ordenId) or a presale to invoice (one row), each also one API
// request; or one stock row, which travels in a movement request (a Send)
// with other rows of its movement.
type Request struct {
	// Key is the unit's identity in the journal: the ordenId or facturaId
	// (also the API's anti-duplicate key), or a stock row's identity.
	Key  string
	Rows []int32 // indexes of the sheet's rows, in input order
	// firstRow names a request without a key by its row; pack, chunk and
	// chunks name the stock movement (and the part of it) a row went in.
	// Labels are derived from them rather than stored: a 200,000-sale file
	// would otherwise keep 200,000 rendered labels.
	firstRow            int32
	pack, chunk, chunks int32

	Status Status
	// sale and presale tell a request's kind in a byte rather than a
	// string: a file of a million one-line sales has a million requests.
	sale, presale bool
	// order and cancel tell an order (by ordenId) and a cancellation (by
	// facturaId); paid marks an order row with pagado, update an order
	// already created whose send is its paid update.
	order, cancel, paid, update bool
	// rejectedBefore marks a request concluded by concludeRejectedBefore.
	rejectedBefore bool
	// res is what sending produced, allocated only for the requests that
	// have one: a file of a million valid one-line sales being validated
	// carries none of it.
	res *Result
}

// Result is what a request carries once it is prepared or sent: its exact
// body, the API's answer and the message a report shows for it.
type Result struct {
	Outcome  msg.Message // the send outcome, when there is one
	BodyHash string
	// Body is the exact JSON sent (a stock row: its article line), kept only
	// while a run needs it.
	Body []byte
	// BaseHash is an order's body hash without pagado and medioPago: the
	// order as it was created, which its paid update must match. For
	// other kinds it is BodyHash.
	BaseHash string
	// Ids the API returned (or the journal remembered).
	FacturaID, Numero, PVNumero int64
}

// Result returns a copy of what the request carries: the zero Result for
// a request that was never prepared or sent.
func (r *Request) Result() Result {
	if r.res == nil {
		return Result{}
	}
	return *r.res
}

// Record returns the request's Result to fill in, creating it on first use.
func (r *Request) Record() *Result {
	if r.res == nil {
		r.res = new(Result)
	}
	return r.res
}

// Conclude sets the request's status and the message its rows report.
func (r *Request) Conclude(st Status, why msg.Message) {
	r.Status = st
	r.rejectedBefore = false
	r.Record().Outcome = why
}

// Label is what result.request shows for the request.
func (r *Request) Label() msg.Message {
	switch {
	case r.Key == "":
		return msg.New("req.row", int(r.firstRow))
	case r.sale:
		return msg.New("req.venta", r.Key)
	case r.presale:
		return msg.New("req.facturar", r.Key)
	case r.order && r.update:
		return msg.New("req.pago", r.Key)
	case r.order:
		return msg.New("req.pedido", r.Key)
	case r.cancel:
		return msg.New("req.cancelar", r.Key)
	}
	if r.chunks == 0 {
		return msg.New("req.stockmov", int(r.pack))
	}
	return msg.New("req.stock", int(r.pack), int(r.chunk), int(r.chunks))
}

// group splits a sheet's rows into requests for its kind.
func group(sh *Sheet) {
	switch {
	case sh.grouper != nil:
		// Grouped row by row as the sheet was read: what is left is to
		// hand the requests their rows.
		sh.grouper.finish()
		sh.grouper = nil
	case sh.Kind == schema.Venta || sh.Kind == schema.Pedido:
		groupByKey(sh, sendrules.KeyColumn(string(sh.Kind)))
	}
	switch sh.Kind {
	case schema.Facturar, schema.Cancelar:
		groupByRow(sh)
	case schema.Stock:
		groupStock(sh)
	}
	if sh.reqOf != nil {
		return
	}
	sh.reqOf = make([]int32, sh.store.len())
	for ri, r := range sh.Requests {
		for _, row := range r.Rows {
			sh.reqOf[row] = int32(ri)
		}
	}
}

// keyText canonicalises an integer key cell of kind k ("0042" and "42" are
// one order); text that is not an integer is kept, trimmed, so that it
// still groups and is reported once by validation.
func keyText(s string, k cell.Kind) string {
	s = strings.TrimSpace(s)
	if n, err := schema.ParseInt(s, k == cell.Number); err == nil {
		return strconv.FormatInt(n, 10)
	}
	return s
}

// groupByKey puts all rows with the same key column value into one request.
// Rows with a blank key each become a request of their own (invalid later).
func groupByKey(sh *Sheet, path string) {
	g := newKeyGrouper(sh, path)
	for i := range sh.store.len() {
		g.add(i)
	}
	g.finish()
}

// keyGrouper groups a sheet's rows by their key column one row at a time,
// so that loading groups each row as it is stored, on the goroutine that
// stores it, while the file is still being read (loadSheet); groupByKey
// runs it over a sheet already in memory.
//
// A file of one-line sales has as many requests as rows, so a request's
// cost is what bounds memory on narrow rows: requests come from slabs, not
// one allocation each; every request's Rows share one backing array filled
// in finish (no append growth); and a key already written as its
// canonical integer is the cell's own text in the arena, not a copy.
type keyGrouper struct {
	sh     *Sheet
	col    int
	byInt  map[int64]int32 // the usual case: integer keys, no string per row
	byText map[string]int32
	// reqOf, counts and reqs grow by blocks, not by doubling: a million
	// rows' worth copied at every doubling would be garbage of several
	// times their size; finish lays each out once at its length.
	reqOf  blocks[int32]
	counts blocks[int32]
	reqs   blocks[*Request]
	slab   requestSlab
	digits [24]byte
	// Files usually list their sales by increasing ordenId, a sale's rows
	// together: while every new integer key is above the last one, a key is
	// either the last one or new, and no map is needed. The first key below
	// the last fills byInt from the rows so far and the map takes over.
	ascending   bool
	last        int64
	lastReq     int32
	seen        bool
	sale, order bool
}

// newKeyGrouper is a grouper by the key column path of sh.
func newKeyGrouper(sh *Sheet, path string) *keyGrouper {
	return &keyGrouper{sh: sh, col: sh.Layout.Col(path), byInt: map[int64]int32{}, byText: map[string]int32{},
		ascending: true, sale: sh.Kind == schema.Venta, order: sh.Kind == schema.Pedido}
}

func (g *keyGrouper) newReq(k string, row int) int32 {
	r := g.slab.new()
	r.sale, r.order, r.Key, r.firstRow = g.sale, g.order, k, int32(g.sh.store.rowNumber(row))
	g.reqs.add(r)
	g.counts.add(0)
	return int32(g.reqs.n - 1)
}

// add groups row i, the next row of the store.
func (g *keyGrouper) add(i int) {
	sh := g.sh
	c, kind := sh.store.cell(i, g.col)
	c = strings.TrimSpace(c)
	var ri int32
	switch num, err := schema.ParseInt(c, kind == cell.Number); {
	case c == "":
		ri = g.newReq("", i)
	case err == nil:
		if g.seen && num == g.last {
			ri = g.lastReq
			break
		}
		if g.ascending && g.seen && num < g.last {
			g.ascending = false
			for j := range i {
				jc, jk := sh.store.cell(j, g.col)
				jc = strings.TrimSpace(jc)
				if jn, jerr := schema.ParseInt(jc, jk == cell.Number); jc != "" && jerr == nil {
					g.byInt[jn] = *g.reqOf.at(j)
				}
			}
		}
		var ok bool
		if !g.ascending {
			ri, ok = g.byInt[num]
		}
		if !ok {
			k := c
			if canon := strconv.AppendInt(g.digits[:0], num, 10); string(canon) != c {
				k = string(canon)
			}
			ri = g.newReq(k, i)
			if !g.ascending {
				g.byInt[num] = ri
			}
		}
		g.last, g.lastReq, g.seen = num, ri, true
	default:
		var ok bool
		if ri, ok = g.byText[c]; !ok {
			ri = g.newReq(c, i)
			g.byText[c] = ri
		}
	}
	g.reqOf.add(ri)
	*g.counts.at(int(ri))++
}

// finish gives every request its rows and the sheet its row → request
// index.
func (g *keyGrouper) finish() {
	sh := g.sh
	sh.Requests = g.reqs.flat()
	reqOf := g.reqOf.flat()
	all := make([]int32, len(reqOf))
	at := int32(0)
	ri := 0
	for _, b := range g.counts.list {
		for _, c := range b {
			sh.Requests[ri].Rows = all[at : at : at+c] // filled by appends below, never past c
			at += c
			ri++
		}
	}
	for i, ri := range reqOf {
		sh.Requests[ri].Rows = append(sh.Requests[ri].Rows, int32(i))
	}
	sh.reqOf = reqOf
	g.counts, g.reqs, g.reqOf = blocks[int32]{}, blocks[*Request]{}, blocks[int32]{}
}

// blocks is a list that grows by fixed blocks of blockLen: nothing is
// copied as it grows.
type blocks[T any] struct {
	list [][]T
	n    int
}

// blockBits sets blockLen, the elements of a block (64Ki).
const blockBits = 16

const blockLen = 1 << blockBits

func (l *blocks[T]) add(v T) {
	if l.n&(blockLen-1) == 0 {
		c := blockLen
		if l.n == 0 {
			c = 64 // a small sheet stays small
		}
		l.list = append(l.list, make([]T, 0, c))
	}
	last := len(l.list) - 1
	l.list[last] = append(l.list[last], v)
	l.n++
}

// at is a pointer to element i.
func (l *blocks[T]) at(i int) *T { return &l.list[i>>blockBits][i&(blockLen-1)] }

// flat is the list as one slice of its length.
func (l *blocks[T]) flat() []T {
	out := make([]T, 0, l.n)
	for _, b := range l.list {
		out = append(out, b...)
	}
	return out
}

// requestSlab hands out requests from shared blocks: one allocation per
// 1,024 requests instead of one each.
type requestSlab struct{ block []Request }

func (s *requestSlab) new() *Request {
	if len(s.block) == cap(s.block) {
		s.block = make([]Request, 0, 1024)
	}
	// A fresh block's zero request, filled in place by the caller (not
	// built and then copied in).
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}

// groupByRow makes one request per row (facturar, cancelar).
func groupByRow(sh *Sheet) {
	col := sh.Layout.Col(sendrules.KeyColumn(string(sh.Kind)))
	for i := 0; i < sh.store.len(); i++ {
		k := keyText(sh.store.cell(i, col))
		sh.Requests = append(sh.Requests, &Request{presale: sh.Kind == schema.Facturar, cancel: sh.Kind == schema.Cancelar, Key: k, Rows: []int32{int32(i)},
			firstRow: int32(sh.store.rowNumber(i))})
	}
}

// packValue canonicalises a movement-level cell of kind k so that "6" and
// "INGRESO_STOCK", or "23/11/2026" and "2026-11-23", pack together.
func packValue(path, s string, k cell.Kind, sh *Sheet) string {
	s = strings.TrimSpace(s)
	switch path {
	case "tipo":
		if t, err := schema.ParseTipoStock(s); err == nil {
			return strconv.Itoa(int(t))
		}
	case "fecha":
		if d, err := schema.ParseDate(s, k == cell.Number || k == cell.Date, sh.Info.Date1904); err == nil {
			return d
		}
	case "detalle", "sref":
		return s
	default:
		return keyText(s, k)
	}
	return s
}
