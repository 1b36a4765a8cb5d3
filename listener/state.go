package listener

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// State is the stock snapshot built from the event log: per article its
// code, whether it was deactivated, and per variant the last units the ERP
// reported, with the per-warehouse list in multi-warehouse mode. It is a
// pure function of the log, so it can always be rebuilt from it.
type State struct {
	Articulos map[int64]*Articulo `json:"articulos"`
	Seq       int64               `json:"seq"` // last event applied
	Stats     Stats               `json:"stats"`
}

// Stats counts what processing did with the events.
type Stats struct {
	Events       int64 `json:"events"`       // applied
	Replays      int64 `json:"replays"`      // identical to one received within the replay window; ignored
	Unrecognized int64 `json:"unrecognized"` // records without an articuloId; kept in the log, ignored
}

// Articulo is one article's last known state.
type Articulo struct {
	Codigo      string    `json:"codigo,omitempty"`
	Eliminado   bool      `json:"eliminado,omitempty"`
	Actualizado time.Time `json:"actualizado"` // last event about the article
	// Hash is the body hash of the last event about the article: a resend
	// of that event is what a replay is.
	Hash      string      `json:"hash,omitempty"`
	Variantes []*Variante `json:"variantes,omitempty"`
}

// Variante is one variant's last reported stock.
type Variante struct {
	ColorID  int64         `json:"colorId,omitempty"`
	TalleID  int64         `json:"talleId,omitempty"`
	Unidades nxapi.Decimal `json:"unidades"`
	// Depositos is the per-warehouse stock of multi-warehouse mode (API spec
	// 6.3); nil when the last event carried no stockDepositos.
	Depositos   []nxapi.StockDeposito `json:"depositos,omitempty"`
	Actualizado time.Time             `json:"actualizado"`
}

// NewState returns an empty snapshot.
func NewState() *State {
	return &State{Articulos: map[int64]*Articulo{}}
}

// record is any article record of either payload format: a flat
// ArticuloConCurva, a grouped Articulo (it has curva) or a deactivation.
type record struct {
	ArticuloID     *nxapi.ID             `json:"articuloId"`
	Codigo         string                `json:"codigo"`
	ColorID        nxapi.ID              `json:"colorId"`
	TalleID        nxapi.ID              `json:"talleId"`
	Unidades       nxapi.Decimal         `json:"unidades"`
	Eliminado      bool                  `json:"eliminado"`
	StockDepositos []nxapi.StockDeposito `json:"stockDepositos"`
	StockTotal     *nxapi.Decimal        `json:"stockTotal"`
	Curva          *[]struct {
		ColorID        nxapi.ID              `json:"colorId"`
		TalleID        nxapi.ID              `json:"talleId"`
		Unidades       nxapi.Decimal         `json:"unidades"`
		StockDepositos []nxapi.StockDeposito `json:"stockDepositos"`
	} `json:"curva"`
}

// Apply folds one logged event into s. An event whose body is identical to
// the last event about each of its articles, received within window before
// it, is a replay and changes nothing. The API's events carry no id or time
// of their own, so a body identical to an older event is not enough: stock
// that goes back to an earlier level (10, 15, 10) repeats a body, and that
// is a real change.
func (s *State) Apply(ev Event, window time.Duration) {
	s.Seq = ev.Seq
	recs := decodeRecords(ev.Body)
	if s.replay(recs, ev, window) {
		s.Stats.Replays++
		return
	}
	s.Stats.Events++
	for _, r := range recs {
		s.applyRecord(r, ev)
	}
}

// replay reports whether every article recs name had ev's body as its last
// event, within window.
func (s *State) replay(recs []record, ev Event, window time.Duration) bool {
	seen := false
	for _, r := range recs {
		if r.ArticuloID == nil || *r.ArticuloID <= 0 {
			continue
		}
		a := s.Articulos[int64(*r.ArticuloID)]
		if a == nil || a.Hash != ev.Hash || ev.At.Sub(a.Actualizado) > window {
			return false
		}
		seen = true
	}
	return seen
}

// decodeRecords reads a flat array or a single grouped object; records that
// do not decode are returned empty, to be counted as unrecognized.
func decodeRecords(body []byte) []record {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return []record{{}}
		}
	} else {
		raws = []json.RawMessage{body}
	}
	out := make([]record, len(raws))
	for i, raw := range raws {
		if json.Unmarshal(raw, &out[i]) != nil {
			out[i] = record{}
		}
	}
	return out
}

func (s *State) applyRecord(r record, ev Event) {
	at := ev.At
	if r.ArticuloID == nil || *r.ArticuloID <= 0 {
		s.Stats.Unrecognized++
		return
	}
	id := int64(*r.ArticuloID)
	a := s.Articulos[id]
	if a == nil {
		a = &Articulo{}
		s.Articulos[id] = a
	}
	a.Actualizado, a.Hash = at, ev.Hash
	if r.Codigo != "" {
		a.Codigo = r.Codigo
	}
	if r.Eliminado {
		// A logical removal (API spec 6.4): the last known stock stays for
		// the accountant to see, marked eliminado.
		a.Eliminado = true
		return
	}
	a.Eliminado = false
	if r.Curva == nil && r.StockTotal == nil {
		// Flat: one variant per record, the others untouched.
		a.set(int64(r.ColorID), int64(r.TalleID), r.Unidades, r.StockDepositos, at)
		return
	}
	// Grouped (only it has curva and stockTotal): the curve is the article's
	// whole variant list, so a variant missing from it is gone.
	a.Variantes = nil
	if r.Curva == nil || len(*r.Curva) == 0 {
		if r.StockTotal != nil {
			a.set(0, 0, *r.StockTotal, r.StockDepositos, at)
		}
		return
	}
	for _, c := range *r.Curva {
		a.set(int64(c.ColorID), int64(c.TalleID), c.Unidades, c.StockDepositos, at)
	}
}

// set replaces one variant's stock; an event reports the whole state of a
// variant, so applying it twice gives the same result.
func (a *Articulo) set(color, talle int64, u nxapi.Decimal, deps []nxapi.StockDeposito, at time.Time) {
	deps = slices.Clone(deps)
	slices.SortFunc(deps, func(x, y nxapi.StockDeposito) int { return cmp.Compare(x.DepositoID, y.DepositoID) })
	for _, v := range a.Variantes {
		if v.ColorID == color && v.TalleID == talle {
			v.Unidades, v.Depositos, v.Actualizado = u, deps, at
			return
		}
	}
	a.Variantes = append(a.Variantes, &Variante{ColorID: color, TalleID: talle, Unidades: u, Depositos: deps, Actualizado: at})
	slices.SortFunc(a.Variantes, func(x, y *Variante) int {
		return cmp.Or(cmp.Compare(x.ColorID, y.ColorID), cmp.Compare(x.TalleID, y.TalleID))
	})
}

// Row is one line of the snapshot export: an article, variant and
// warehouse. DepositoID is 0 when the event carried no stockDepositos, and
// then Unidades is what the event reported as unidades.
type Row struct {
	ArticuloID  int64
	Codigo      string
	ColorID     int64
	TalleID     int64
	DepositoID  int64
	Unidades    nxapi.Decimal
	HasUnidades bool // false for a deactivated article never seen with stock
	Eliminado   bool
	Actualizado time.Time
}

// Rows lists the snapshot ordered by article, variant and warehouse,
// keeping rows updated at or after since (zero: all).
func (s *State) Rows(since time.Time) []Row {
	ids := make([]int64, 0, len(s.Articulos))
	for id := range s.Articulos {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []Row
	add := func(r Row) {
		if !r.Actualizado.Before(since) {
			out = append(out, r)
		}
	}
	for _, id := range ids {
		a := s.Articulos[id]
		base := Row{ArticuloID: id, Codigo: a.Codigo, Eliminado: a.Eliminado}
		if len(a.Variantes) == 0 {
			base.Actualizado = a.Actualizado
			add(base)
			continue
		}
		for _, v := range a.Variantes {
			r := base
			r.ColorID, r.TalleID, r.HasUnidades, r.Actualizado = v.ColorID, v.TalleID, true, v.Actualizado
			if a.Eliminado {
				r.Actualizado = a.Actualizado
			}
			if len(v.Depositos) == 0 {
				r.Unidades = v.Unidades
				add(r)
				continue
			}
			for _, d := range v.Depositos {
				r.DepositoID, r.Unidades = d.DepositoID, d.Unidades
				add(r)
			}
		}
	}
	return out
}
