package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/writers"
)

// Request is one API request a sheet becomes: a sale (all rows of one
// ordenId), one presale to invoice (one row), or one chunk of a packed stock
// movement.
type Request struct {
	Kind schema.Kind
	// Key is the business key the journal and the API's anti-duplicate guard
	// use: the ordenId, the facturaId, or the stock packing key and chunk.
	Key  string
	Rows []int32 // indexes of the sheet's rows, in input order
	// firstRow names a request without a key by its row; pack, chunk and
	// chunks name a stock movement part. Labels are derived from them
	// rather than stored: a 200,000-sale file would otherwise keep 200,000
	// rendered labels.
	firstRow            int32
	pack, chunk, chunks int32

	Status   writers.Status
	Outcome  msg.Message // the send outcome, when there is one
	BodyHash string
	Body     []byte // the exact JSON sent, kept only while a run needs it
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
	return msg.New("req.stock", int(r.pack), int(r.chunk), int(r.chunks))
}

// group splits a sheet's rows into requests for its kind.
func group(sh *Sheet, maxArticulos int) {
	switch sh.Kind {
	case schema.Venta:
		groupByKey(sh, "ordenId")
	case schema.Facturar:
		groupByRow(sh)
	case schema.Stock:
		groupStock(sh, maxArticulos)
	}
	sh.reqOf = make([]int32, sh.store.len())
	for ri, r := range sh.Requests {
		for _, row := range r.Rows {
			sh.reqOf[row] = int32(ri)
		}
	}
}

// keyText canonicalises an integer key cell ("0042" and "42" are one order);
// text that is not an integer is kept, trimmed, so that it still groups and
// is reported once by validation.
func keyText(s string, raw bool) string {
	s = strings.TrimSpace(s)
	if n, err := schema.ParseInt(s, raw); err == nil {
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
		c := strings.TrimSpace(sh.store.cell(i, col))
		if c == "" {
			add(newReq(""), i)
			sh.Requests[len(sh.Requests)-1].firstRow = int32(sh.store.rowNumber(i))
			continue
		}
		if n, err := schema.ParseInt(c, sh.Info.RawNumbers); err == nil {
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
	col := sh.Layout.Col("facturaId")
	for i := 0; i < sh.store.len(); i++ {
		k := keyText(sh.store.cell(i, col), sh.Info.RawNumbers)
		sh.Requests = append(sh.Requests, &Request{Kind: sh.Kind, Key: k, Rows: []int32{int32(i)},
			firstRow: int32(sh.store.rowNumber(i))})
	}
}

// stockPackFields are the movement-level fields whose equal values put rows
// into one movement (nxbatch.md 3.5).
var stockPackFields = []string{"depositoId", "tipo", "motivoId", "fecha", "detalle", "sref", "depositoDosId", "sucursalDosId"}

// groupStock packs rows that share the `movimiento` column (when present and
// filled) or all movement-level fields into movements, then splits each into
// chunks of at most maxArticulos articles. Chunks follow input order, so the
// same file always yields the same chunks and journal keys.
func groupStock(sh *Sheet, maxArticulos int) {
	movCol := sh.Layout.Col(schema.Movimiento)
	var cols []int
	for _, p := range stockPackFields {
		cols = append(cols, sh.Layout.Col(p))
	}
	type pack struct {
		key  string
		rows []int32
	}
	var packs []*pack
	index := map[string]*pack{}
	var sb strings.Builder
	for i := 0; i < sh.store.len(); i++ {
		sb.Reset()
		if movCol >= 0 && strings.TrimSpace(sh.store.cell(i, movCol)) != "" {
			sb.WriteString("mov\x00")
			sb.WriteString(strings.TrimSpace(sh.store.cell(i, movCol)))
		} else {
			sb.WriteString("cols")
			for k, c := range cols {
				sb.WriteByte(0)
				if c >= 0 {
					sb.WriteString(packValue(stockPackFields[k], sh.store.cell(i, c), sh))
				}
			}
		}
		k := sb.String()
		p, ok := index[k]
		if !ok {
			p = &pack{key: k}
			index[k] = p
			packs = append(packs, p)
		}
		p.rows = append(p.rows, int32(i))
	}
	for n, p := range packs {
		chunks := (len(p.rows) + maxArticulos - 1) / maxArticulos
		for c := 0; c < chunks; c++ {
			end := min((c+1)*maxArticulos, len(p.rows))
			rows := p.rows[c*maxArticulos : end]
			sh.Requests = append(sh.Requests, &Request{
				Kind:   schema.Stock,
				Key:    stockKey(sh, p.key, rows),
				Rows:   rows,
				pack:   int32(n + 1),
				chunk:  int32(c + 1),
				chunks: int32(chunks),
			})
		}
	}
}

// stockKey is a movement chunk's journal key: its movement fields and the
// set of articles (articuloId, colorId, talleId) it carries, never its
// position. Rerunning a file gives the same keys (skipped); changing a
// quantity keeps the key (a conflict, never a second movement); a re-fed
// errors file with the fixed articles of a failed chunk gets a key of its
// own instead of colliding with the chunks that went through.
func stockKey(sh *Sheet, packKey string, rows []int32) string {
	cols := []int{sh.Layout.Col("articulos.articuloId"), sh.Layout.Col("articulos.colorId"), sh.Layout.Col("articulos.talleId")}
	arts := make([]string, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for _, c := range cols {
			if c >= 0 {
				b.WriteString(keyText(sh.store.cell(int(r), c), sh.Info.RawNumbers))
			}
			b.WriteByte('/')
		}
		arts = append(arts, b.String())
	}
	sort.Strings(arts)
	h := sha256.New()
	h.Write([]byte(packKey))
	for _, a := range arts {
		h.Write([]byte{0})
		h.Write([]byte(a))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// packValue canonicalises a movement-level cell so that "6" and
// "INGRESO_STOCK", or "23/11/2026" and "2026-11-23", pack together.
func packValue(path, s string, sh *Sheet) string {
	s = strings.TrimSpace(s)
	switch path {
	case "tipo":
		if t, err := schema.ParseTipoStock(s); err == nil {
			return strconv.Itoa(int(t))
		}
	case "fecha":
		if d, err := schema.ParseDate(s, sh.Info.RawNumbers, sh.Info.Date1904); err == nil {
			return d
		}
	case "detalle", "sref":
		return s
	default:
		return keyText(s, sh.Info.RawNumbers)
	}
	return s
}
