// Package inventario turns an inventory count into stock movements, exactly
// once (nxbatch.md 3.6). A count says what there is ("there are 12"), not
// what to move: each counted row's difference with the ERP's stock, read
// once for the whole count, becomes an INGRESO_STOCK or EGRESO_STOCK line
// (INGRESO_MANUAL/EGRESO_MANUAL with --tipos manual), and the lines are
// packed into as few movements as the API takes.
//
// The count row is the unit of exactly-once, as every stock row is: its
// identity (the pipeline's rowId) keys it in the journal, and what the
// journal keeps of it is the count itself (its hash is over the warehouse,
// the variant, the counted quantity and the movement fields, never over
// the difference) together with the difference computed when it was first
// sent. So a rerun after success sends nothing even though the ERP's stock
// has moved since (sales made after the count); a row whose movement was
// journaled ok or unknown is never recomputed nor resent; and a row whose
// counted quantity changed after it was sent is a conflict that names what
// was sent.
//
// The package reads nothing itself: the current stock comes through
// StockReader, which the application backs with the API's GetDataCurva
// reads, and the journal through the small Journal and Recorder
// interfaces, which *boltjournal.Journal satisfies.
package inventario

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// Variant is what the ERP keeps a stock figure of: an article, its size and
// colour (0 when the article has none), in a warehouse.
type Variant struct {
	DepositoID, ArticuloID, TalleID, ColorID int64
}

// Count is one counted row of a count file, its article already resolved
// to ids.
type Count struct {
	// ID is the row's identity, the journal's unit id (the pipeline's
	// rowId); AddedID gives one to a row --faltantes-en-cero adds.
	ID string
	// Row is the spreadsheet's row number, for messages; 0 for added rows.
	Row int
	// Source says where the row came from, for journal listings.
	Source string
	Variant
	// The movement fields a count row carries (no tipo: it comes from the
	// difference).
	MotivoID             int64
	Fecha, Detalle, Sref string
	// Counted is the counted quantity, ≥ 0.
	Counted nxapi.Decimal
	// Added marks a variant the file does not list, counted as 0 by
	// --faltantes-en-cero.
	Added bool
}

// Hash is the count's content as the journal keeps it: the warehouse, the
// variant, the counted quantity and the movement fields. It is the unit's
// body hash, so a rerun of the same count matches what was sent whatever
// the ERP's stock is now, and a changed counted quantity does not.
func (c Count) Hash() string {
	h := sha256.New()
	for _, s := range []string{"count",
		strconv.FormatInt(c.DepositoID, 10), strconv.FormatInt(c.ArticuloID, 10),
		strconv.FormatInt(c.TalleID, 10), strconv.FormatInt(c.ColorID, 10),
		c.Counted.String(), strconv.FormatInt(c.MotivoID, 10), c.Fecha, c.Detalle, c.Sref} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// AddedID is the identity of a row --faltantes-en-cero adds for variant v
// under the movement fields of like (the first counted row of its
// warehouse): the same count run again adds the same rows under the same
// identities, so they are never sent twice.
func AddedID(like Count, v Variant) string {
	h := sha256.New()
	for _, s := range []string{"added",
		strconv.FormatInt(v.DepositoID, 10), strconv.FormatInt(v.ArticuloID, 10),
		strconv.FormatInt(v.TalleID, 10), strconv.FormatInt(v.ColorID, 10),
		strconv.FormatInt(like.MotivoID, 10), like.Fecha, like.Detalle, like.Sref} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "z" + hex.EncodeToString(h.Sum(nil)[:8])
}

// Tipos picks the movement types a difference becomes.
type Tipos int

// The movement types of a count's differences.
const (
	// TiposStock sends INGRESO_STOCK (6) and EGRESO_STOCK (7), the default.
	TiposStock Tipos = iota
	// TiposManual sends INGRESO_MANUAL (4) and EGRESO_MANUAL (5) (--tipos manual).
	TiposManual
)

// Difference is what a count becomes against the ERP's stock: the counted
// quantity less the ERP's, the movement type that moves it there and the
// (positive) quantity of the line. An equal count has Tipo 0 and moves
// nothing.
func Difference(counted, erp nxapi.Decimal, t Tipos) (diff nxapi.Decimal, tipo nxapi.TipoStock, qty nxapi.Decimal) {
	diff = counted - erp
	switch {
	case diff > 0:
		tipo, qty = nxapi.IngresoStock, diff
		if t == TiposManual {
			tipo = nxapi.IngresoManual
		}
	case diff < 0:
		tipo, qty = nxapi.EgresoStock, -diff
		if t == TiposManual {
			tipo = nxapi.EgresoManual
		}
	}
	return diff, tipo, qty
}

// Journaled is what the journal keeps of a count row (the unit's body):
// the count, the ERP's stock it was compared with and when that was read,
// and the line sent (none when the count equalled the stock). A rerun
// reports from it and never recomputes.
type Journaled struct {
	Contada nxapi.Decimal   `json:"contada"`
	ERP     nxapi.Decimal   `json:"erp"`
	Leido   time.Time       `json:"leido"`
	Tipo    nxapi.TipoStock `json:"tipo,omitempty"`
	// Linea is the article line sent; nil when nothing was sent.
	Linea *nxapi.StockArticulo `json:"linea,omitempty"`
}

// ParseJournaled reads a unit body written for a count row; ok is false
// for a body that is not one (a stock row of a movements file).
func ParseJournaled(body string) (Journaled, bool) {
	var j Journaled
	if json.Unmarshal([]byte(body), &j) != nil || j.Leido.IsZero() {
		return Journaled{}, false
	}
	return j, true
}

// Moved is the signed quantity the journaled line moved: positive for an
// ingreso, negative for an egreso, 0 when nothing was sent.
func (j Journaled) Moved() nxapi.Decimal {
	if j.Linea == nil || j.Linea.Cantidad == nil {
		return 0
	}
	if j.Tipo == nxapi.EgresoStock || j.Tipo == nxapi.EgresoManual {
		return -*j.Linea.Cantidad
	}
	return *j.Linea.Cantidad
}

// Repeated finds the variants counted twice among counts (rows of one
// file): for each later row, the index of the first row that counted the
// same variant of the same warehouse. A count says what there is, so a
// second row of one variant is an error, never a second movement.
func Repeated(counts []Count) map[int]int {
	first := make(map[Variant]int, len(counts))
	dups := map[int]int{}
	for i, c := range counts {
		if f, seen := first[c.Variant]; seen {
			dups[i] = f
			continue
		}
		first[c.Variant] = i
	}
	return dups
}

// RepeatedMessage is the error of a row that counts v again, naming the
// spreadsheet row that counted it first.
func RepeatedMessage(v Variant, firstRow int) msg.Message {
	return msg.New("cnt.repeated", v.ArticuloID, v.TalleID, v.ColorID, v.DepositoID, firstRow)
}
