package listener

import (
	"cmp"
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
	Hash string `json:"hash,omitempty"`
	// Variantes are in the order they first appeared; Rows sorts them.
	// Keeping them sorted on every insert made an event of n new variants
	// cost n² (90,000 variants: 20 s).
	Variantes []*Variante `json:"variantes,omitempty"`
	// index finds a variant by color and size in constant time. It is not
	// stored: the first change after loading a snapshot rebuilds it.
	index map[varKey]*Variante
}

// varKey identifies a variant within its article.
type varKey struct{ color, talle int64 }

// Variante is one variant's last reported stock.
type Variante struct {
	ColorID  int64         `json:"colorId,omitempty"`
	TalleID  int64         `json:"talleId,omitempty"`
	Unidades nxapi.Decimal `json:"unidades"`
	// Depositos is the per-warehouse stock of multi-warehouse mode (API spec
	// 6.3), by warehouse, one entry each; nil when the last event carried no
	// stockDepositos.
	Depositos   []nxapi.StockDeposito `json:"depositos,omitempty"`
	Actualizado time.Time             `json:"actualizado"`
}

// NewState returns an empty snapshot.
func NewState() *State {
	return &State{Articulos: map[int64]*Articulo{}}
}

// Apply folds one logged event into s. An event whose body is identical to
// the last event about each of its articles, received within window before
// it, is a replay and changes nothing. The API's events carry no id or time
// of their own, so a body identical to an older event is not enough: stock
// that goes back to an earlier level (10, 15, 10) repeats a body, and that
// is a real change. The cost is linear in the body's size.
func (s *State) Apply(ev Event, window time.Duration) {
	s.Seq = ev.Seq
	var recs []record
	var unrecognized int64
	// What the log holds was acknowledged, and folding it never fails;
	// what is not an article record is only counted.
	_, err := decodeEvent(ev.Body, func(r *record) {
		if r == nil || r.ArticuloID == nil || *r.ArticuloID <= 0 {
			unrecognized++
			return
		}
		recs = append(recs, *r)
	})
	if err != nil {
		// Not JSON at all (only a damaged log line could be): nothing of it
		// is applied.
		recs, unrecognized = nil, 1
	}
	if s.replay(recs, ev, window) {
		s.Stats.Replays++
		return
	}
	s.Stats.Events++
	s.Stats.Unrecognized += unrecognized
	for i := range recs {
		s.applyRecord(&recs[i], ev)
	}
}

// replay reports whether every article recs name had ev's body as its last
// event, within window.
func (s *State) replay(recs []record, ev Event, window time.Duration) bool {
	for _, r := range recs {
		a := s.Articulos[int64(*r.ArticuloID)]
		if a == nil || a.Hash != ev.Hash || ev.At.Sub(a.Actualizado) > window {
			return false
		}
	}
	return len(recs) > 0
}

func (s *State) applyRecord(r *record, ev Event) {
	at := ev.At
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
	if !r.Curva.present && r.StockTotal == nil {
		// Flat: one variant per record, the others untouched.
		a.set(int64(r.ColorID), int64(r.TalleID), r.Unidades, r.StockDepositos, at)
		return
	}
	// Grouped (only it has curva and stockTotal): the curve is the article's
	// whole variant list, so a variant missing from it is gone.
	a.Variantes, a.index = nil, nil
	if len(r.Curva.items) == 0 {
		if r.StockTotal != nil {
			a.set(0, 0, *r.StockTotal, r.StockDepositos, at)
		}
		return
	}
	for _, c := range r.Curva.items {
		a.set(int64(c.ColorID), int64(c.TalleID), c.Unidades, c.StockDepositos, at)
	}
}

// set replaces one variant's stock; an event reports the whole state of a
// variant, so applying it twice gives the same result. Constant time but
// for the variant's own warehouses, which it sorts.
func (a *Articulo) set(color, talle int64, u nxapi.Decimal, deps []nxapi.StockDeposito, at time.Time) {
	deps = byWarehouse(deps)
	if a.index == nil {
		a.index = make(map[varKey]*Variante, len(a.Variantes))
		for _, v := range a.Variantes {
			a.index[varKey{v.ColorID, v.TalleID}] = v
		}
	}
	k := varKey{color, talle}
	if v := a.index[k]; v != nil {
		v.Unidades, v.Depositos, v.Actualizado = u, deps, at
		return
	}
	v := &Variante{ColorID: color, TalleID: talle, Unidades: u, Depositos: deps, Actualizado: at}
	a.Variantes = append(a.Variantes, v)
	a.index[k] = v
}

// byWarehouse returns a copy of deps ordered by warehouse with one entry
// per warehouse, the last one the event gave (an event lists each
// warehouse once; a repeated one must not become two export rows).
func byWarehouse(deps []nxapi.StockDeposito) []nxapi.StockDeposito {
	if len(deps) == 0 {
		return nil
	}
	deps = slices.Clone(deps)
	slices.SortStableFunc(deps, func(x, y nxapi.StockDeposito) int { return cmp.Compare(x.DepositoID, y.DepositoID) })
	out := deps[:0]
	for i, d := range deps {
		if i+1 < len(deps) && deps[i+1].DepositoID == d.DepositoID {
			continue // a later entry for the same warehouse wins
		}
		out = append(out, d)
	}
	return slices.Clip(out)
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
		vs := slices.Clone(a.Variantes)
		slices.SortFunc(vs, func(x, y *Variante) int {
			return cmp.Or(cmp.Compare(x.ColorID, y.ColorID), cmp.Compare(x.TalleID, y.TalleID))
		})
		for _, v := range vs {
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
