package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
)

// A stock file is an inventory count or a list of corrections: thousands of
// rows, one article each. The row is the unit of exactly-once (each row
// must move stock once, whatever else happens to the file), and the movement
// request is only transport: rows that share a movement are packed into as
// few requests as --max-articulos allows, from whichever of them still need
// sending.
//
// A row's identity is given the first time nxbatch sees it: its movement
// fields, its article and variant, and its occurrence among identical
// articles of that movement (the same article counted on two shelves is two
// rows). Reports carry it in result.rowId, so that a row fed back from an
// errors file keeps it even after the accountant fixed its article or
// quantity. Two genuinely different movements of the same articles need a
// movimiento, fecha or detalle that tells them apart.

// Movement is the rows of a stock sheet that share one movement: the same
// `movimiento` cell, or else the same movement-level fields.
type Movement struct {
	N     int32      // its number in the sheet, from 1, for labels
	Units []*Request // its rows, in input order: one Request each
	// head is the movement-level JSON (no articulos), set by validation for
	// a run; nil when the movement itself is invalid.
	head []byte
}

// Send is one request on the wire: a sale, a presale, or a part of a stock
// movement carrying several rows.
type Send struct {
	Kind schema.Kind
	// Key is the journal's business key of the request: the ordenId, the
	// facturaId, or for a movement a hash of the identities of the rows it
	// carries (so the same rows always make the same key).
	Key      string
	Units    []*Request
	Body     []byte
	BodyHash string
	// Sent counts the times this run put the request on the wire (a resend
	// after a refusal that proved it unprocessed counts again).
	Sent int
	// NotBefore, when set, is the earliest moment the request may leave:
	// an order's paid update waits out the hold its creation took.
	NotBefore time.Time
}

// stockPackFields are the movement-level fields whose equal values put rows
// into one movement (nxbatch.md 3.5).
var stockPackFields = []string{"depositoId", "tipo", "motivoId", "fecha", "detalle", "sref", "depositoDosId", "sucursalDosId"}

// variantFields are the line fields that tell one article line from another
// within a movement; the quantity is not among them (changing it is a
// conflict, never another row).
var variantFields = []string{"articulos.articuloId", "articulos.colorId", "articulos.talleId"}

// groupStock packs the sheet's rows into movements, one Request per row,
// and gives each row its identity.
func groupStock(sh *Sheet) {
	movCol, packCols := sh.Layout.Col(schema.Movimiento), columns(sh, stockPackFields)
	varCols := columns(sh, variantFields)
	index := map[string]*Movement{}
	occurrence := map[string]int{} // pack key + variant -> rows seen so far
	var sb, vb strings.Builder
	for i := 0; i < sh.store.len(); i++ {
		pk := sh.packKey(i, movCol, packCols, &sb)
		mv, ok := index[pk]
		if !ok {
			mv = &Movement{N: int32(len(sh.Movements) + 1)}
			index[pk] = mv
			sh.Movements = append(sh.Movements, mv)
		}
		id := sh.priorID(i)
		if id == "" {
			vb.Reset()
			vb.WriteString(pk)
			for _, c := range varCols {
				vb.WriteByte(0)
				if c >= 0 {
					vb.WriteString(keyText(sh.store.cell(i, c)))
				}
			}
			vk := vb.String()
			occurrence[vk]++
			id = rowIdentity(vk, occurrence[vk])
		}
		r := &Request{Key: id, Rows: []int32{int32(i)}, firstRow: int32(sh.store.rowNumber(i)), pack: mv.N}
		mv.Units = append(mv.Units, r)
		sh.Requests = append(sh.Requests, r)
	}
	if sh.byKeys() {
		// Rows by the shop's keys get identities from what they say until
		// a catalog resolves them (reidentify).
		sh.reqOf = make([]int32, sh.store.len())
		for ri := range sh.Requests {
			sh.reqOf[ri] = int32(ri)
		}
		sh.reidentify(nil)
	}
}

// packKey is row i's movement: its movimiento cell (at movCol), or else
// its movement-level fields (at packCols, stockPackFields' columns),
// canonicalised; sb is scratch.
func (sh *Sheet) packKey(i, movCol int, packCols []int, sb *strings.Builder) string {
	sb.Reset()
	if movCol >= 0 && strings.TrimSpace(sh.store.text(i, movCol)) != "" {
		sb.WriteString("mov\x00")
		sb.WriteString(strings.TrimSpace(sh.store.text(i, movCol)))
		return sb.String()
	}
	sb.WriteString("cols")
	for k, c := range packCols {
		sb.WriteByte(0)
		if c >= 0 {
			v, kind := sh.store.cell(i, c)
			sb.WriteString(packValue(stockPackFields[k], v, kind, sh))
		}
	}
	return sb.String()
}

// rowIdentity is a stock row's identity: a short hash of its movement
// fields, its variant and its occurrence among identical variants.
func rowIdentity(variantKey string, occurrence int) string {
	h := sha256.New()
	h.Write([]byte(variantKey))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(occurrence)))
	return "s" + hex.EncodeToString(h.Sum(nil)[:8])
}

// columns returns the header index of each path (-1 when absent).
func columns(sh *Sheet, paths []string) []int {
	out := make([]int, len(paths))
	for i, p := range paths {
		out[i] = sh.Layout.Col(p)
	}
	return out
}

// repeatedIdentities marks the later rows that carry an identity an
// earlier row of the sheet already has: an errors file whose rows were
// copied, result.rowId and all. The value is the first row's index.
func (sh *Sheet) repeatedIdentities() map[*Request]int32 {
	dups := map[*Request]int32{}
	first := map[string]int32{}
	for _, r := range sh.Requests {
		if f, seen := first[r.Key]; seen {
			dups[r] = f
		} else {
			first[r.Key] = r.Rows[0]
		}
	}
	return dups
}

// checkMovement builds movement mv, validates it, and settles each of its
// rows: a problem of the movement (its warehouse, its reason, a cell that
// differs between its rows) makes every row invalid; a problem of a line
// makes only that row invalid, and the movement's other rows still go.
// With keepBodies, valid rows keep their article line and body hash.
func (b *builder) checkMovement(mv *Movement, cat *validation.Catalog, keepBodies bool, dups map[*Request]int32) {
	sh := b.sh
	rows := make([]int32, len(mv.Units))
	for k, u := range mv.Units {
		rows[k] = u.Rows[0]
	}
	b.resetRows(rows)
	m := b.buildStock()
	b.resolveLines(cat, func(k int) (*int64, *int64, *int64) {
		a := &m.Articulos[k]
		return &a.ArticuloID, &a.TalleID, &a.ColorID
	})
	for _, is := range b.stockIssues(m, cat) {
		b.addIssue(rows, is)
	}
	for _, u := range mv.Units {
		if f, dup := dups[u]; dup {
			b.fail(u.Rows[0], "", msg.New("row.duprowid", u.Key, sh.store.rowNumber(int(f))))
		}
		if p := sh.problems[int(u.Rows[0])]; p != nil {
			b.issues = append(b.issues, rowIssue{row: u.Rows[0], msg: p.Msg})
		}
	}
	reqPath := make(map[string]bool, len(sh.reqCols))
	for _, c := range sh.reqCols {
		reqPath[c.Path] = true
	}
	bad := map[int32]bool{}
	var movementBad []int32 // rows with a problem of the movement's own
	for _, is := range b.issues {
		b.msgs[is.row] = appendUnique(b.msgs[is.row], note{is.field, is.msg})
		if is.warning {
			continue
		}
		bad[is.row] = true
		if is.request || reqPath[is.field] {
			movementBad = append(movementBad, is.row)
		}
	}
	if len(movementBad) > 0 {
		// Rows that are fine say which rows keep their movement from going.
		where := map[int32]bool{}
		var nums []string
		for _, r := range movementBad {
			if !where[r] {
				where[r] = true
				nums = append(nums, strconv.Itoa(sh.store.rowNumber(int(r))))
			}
		}
		for _, u := range mv.Units {
			if !bad[u.Rows[0]] {
				b.msgs[u.Rows[0]] = append(b.msgs[u.Rows[0]], note{msg: msg.New("row.otherrows", u.Label(), strings.Join(nums, ", "))})
			}
		}
	}
	mv.head = nil
	if keepBodies && len(movementBad) == 0 {
		head := *m
		head.Articulos = nil
		js, _ := json.Marshal(head) // cannot fail with these types
		// Articulos is the struct's last field: the head is the object up
		// to it, and each send appends the articles of its rows.
		mv.head = bytes.TrimSuffix(js, []byte(`,"articulos":null}`))
	}
	for k, u := range mv.Units {
		sh.keepCount(u, m, k)
		u.Status = StatusValid
		if len(movementBad) > 0 || bad[u.Rows[0]] {
			u.Status = StatusInvalid
			continue
		}
		if sh.Layout.Count {
			continue // its body comes from the difference (PrepareCounts)
		}
		if mv.head == nil {
			continue
		}
		line, _ := json.Marshal(m.Articulos[k])
		res := u.Record()
		res.Body = line
		sum := sha256.New()
		sum.Write(mv.head)
		sum.Write([]byte{0})
		sum.Write(line)
		res.BodyHash = hex.EncodeToString(sum.Sum(nil))
	}
}

// packStock packs the rows of each movement whose status is pending into
// sends of at most max articles, in input order.
func (sh *Sheet) packStock(max int) []*Send {
	var out []*Send
	for _, mv := range sh.Movements {
		var units []*Request
		for _, u := range mv.Units {
			if u.Status == StatusPending {
				units = append(units, u)
			}
		}
		chunks := (len(units) + max - 1) / max
		for c := range chunks {
			part := units[c*max : min((c+1)*max, len(units))]
			for _, u := range part {
				u.chunk, u.chunks = int32(c+1), int32(chunks)
			}
			out = append(out, newStockSend(mv, part))
		}
	}
	return out
}

// newStockSend builds the movement request that carries units: the
// movement's fields and the units' article lines.
func newStockSend(mv *Movement, units []*Request) *Send {
	var body []byte
	body = append(body, mv.head...)
	if len(mv.head) > 1 {
		body = append(body, ',')
	}
	body = append(body, `"articulos":[`...)
	ids := make([]string, len(units))
	for k, u := range units {
		if k > 0 {
			body = append(body, ',')
		}
		body = append(body, u.Result().Body...)
		ids[k] = u.Key
	}
	body = append(body, "]}"...)
	sort.Strings(ids)
	h := sha256.New()
	for _, id := range ids {
		h.Write([]byte(id))
		h.Write([]byte{0})
	}
	bh := sha256.Sum256(body)
	return &Send{Kind: schema.Stock, Key: "m" + hex.EncodeToString(h.Sum(nil)[:8]), Units: units,
		Body: body, BodyHash: hex.EncodeToString(bh[:])}
}

// stockRequests is how many movement requests the valid rows of the sheet
// make (the plan of validate, before the journal says what is left).
func (sh *Sheet) stockRequests(max int) int {
	n := 0
	for _, mv := range sh.Movements {
		valid := 0
		for _, u := range mv.Units {
			if u.Status == StatusValid || u.Status == StatusPending {
				valid++
			}
		}
		n += (valid + max - 1) / max
	}
	return n
}

// sentQuantity reads the quantity a journaled stock row was sent with, for
// the conflict message.
func sentQuantity(body string) string {
	var a nxapi.StockArticulo
	if json.Unmarshal([]byte(body), &a) != nil || a.Cantidad == nil {
		return "?"
	}
	return a.Cantidad.String()
}
