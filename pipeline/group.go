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
	Kind schema.Kind
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

	Status   Status
	Outcome  msg.Message // the send outcome, when there is one
	BodyHash string
	// Body is the exact JSON sent (a stock row: its article line), kept only
	// while a run needs it.
	Body []byte
	// Ids the API returned (or the journal remembered).
	FacturaID, Numero, PVNumero int64
	// Sent counts the times this run put the request on the wire (a resend
	// after a refusal that proved it unprocessed counts again).
	Sent int
}

// Label is what result.request shows for the request.
func (r *Request) Label() msg.Message {
	switch {
	case r.Key == "":
		return msg.New("req.row", int(r.firstRow))
	case r.Kind == schema.Venta:
		return msg.New("req.venta", r.Key)
	case r.Kind == schema.Facturar:
		return msg.New("req.facturar", r.Key)
	}
	if r.chunks == 0 {
		return msg.New("req.stockmov", int(r.pack))
	}
	return msg.New("req.stock", int(r.pack), int(r.chunk), int(r.chunks))
}

// group splits a sheet's rows into requests for its kind.
func group(sh *Sheet) {
	switch sh.Kind {
	case schema.Venta:
		groupByKey(sh, sendrules.KeyColumn(string(schema.Venta)))
	case schema.Facturar:
		groupByRow(sh)
	case schema.Stock:
		groupStock(sh)
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
	col := sh.Layout.Col(path)
	byInt := map[int64]int32{} // the usual case: integer keys, no string per row
	byText := map[string]int32{}
	add := func(ri int32, i int) { sh.Requests[ri].Rows = append(sh.Requests[ri].Rows, int32(i)) }
	newReq := func(k string) int32 {
		sh.Requests = append(sh.Requests, &Request{Kind: sh.Kind, Key: k})
		return int32(len(sh.Requests) - 1)
	}
	for i := 0; i < sh.store.len(); i++ {
		c, kind := sh.store.cell(i, col)
		c = strings.TrimSpace(c)
		if c == "" {
			add(newReq(""), i)
			sh.Requests[len(sh.Requests)-1].firstRow = int32(sh.store.rowNumber(i))
			continue
		}
		if n, err := schema.ParseInt(c, kind == cell.Number); err == nil {
			ri, ok := byInt[n]
			if !ok {
				ri = newReq(strconv.FormatInt(n, 10))
				byInt[n] = ri
			}
			add(ri, i)
			continue
		}
		ri, ok := byText[c]
		if !ok {
			ri = newReq(c)
			byText[c] = ri
		}
		add(ri, i)
	}
}

// groupByRow makes one request per row (facturar).
func groupByRow(sh *Sheet) {
	col := sh.Layout.Col(sendrules.KeyColumn(string(schema.Facturar)))
	for i := 0; i < sh.store.len(); i++ {
		k := keyText(sh.store.cell(i, col))
		sh.Requests = append(sh.Requests, &Request{Kind: sh.Kind, Key: k, Rows: []int32{int32(i)},
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
