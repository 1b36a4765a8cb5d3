package webapp

import (
	"net/http"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
)

// An inventory count in the page (nxbatch.md 3.6): the column screen
// offers the counted quantity (articulos.cantidadContada) for a stock
// file, and the import page of a count has the switch the command line
// calls --faltantes-en-cero: the articles with stock in a counted
// warehouse that the file does not list are counted as 0. What it does
// is said beside it and again in the confirmation, before anything is
// sent.

// isCount tells whether f holds an inventory count.
func isCount(f *pipeline.File) bool {
	for _, sh := range f.Sheets {
		if sh.Kind == schema.Stock && sh.Layout != nil && sh.Layout.Count {
			return true
		}
	}
	return false
}

// fieldColumns are the fields the column screen offers for kind k: its
// columns and, for stock, the inventory count's counted quantity.
func fieldColumns(k schema.Kind) []schema.Column {
	cols := k.Columns()
	if k != schema.Stock {
		return cols
	}
	for _, c := range schema.CountColumns() {
		if c.Path == schema.CantidadContada {
			return append(cols[:len(cols):len(cols)], c)
		}
	}
	return cols
}

// fieldOf is the field path of kind k the column screen takes.
func fieldOf(k schema.Kind, path string) bool {
	for _, c := range fieldColumns(k) {
		if c.Path == path {
			return true
		}
	}
	return false
}

// countedDesc is the one line that says what the counted quantity holds.
func countedDesc(l msg.Lang) string { return msg.New("web.field.desc.cantidadContada").In(l) }

// saveOptions keeps the import's options: "faltantes en cero" for a
// count. The import page says what changed.
func (s *Server) saveOptions(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	zero := r.PostFormValue("faltantes") == "1"
	u.mu.Lock()
	u.meta.ZeroMissing = zero
	err := u.saveMeta()
	u.mu.Unlock()
	if err != nil {
		s.redirectWith(w, r, "/u/"+u.meta.ID, notice{problem: msg.New("web.settings.notsaved", msg.CauseOf(err))})
		return
	}
	done := msg.New("web.zero.off.saved")
	if zero {
		done = msg.New("web.zero.on.saved")
	}
	s.redirectWith(w, r, "/u/"+u.meta.ID, notice{notes: []msg.Localizer{done}})
}

// countNote says, for the confirmation of a count, what happens to the
// articles the file does not list.
func countNote(zero bool, l msg.Lang) string {
	if zero {
		return msg.New("web.confirm.zero.on").In(l)
	}
	return msg.New("web.confirm.zero.off").In(l)
}
