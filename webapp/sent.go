package webapp

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
)

// What was sent of an upload is read from the journal, not from the
// upload's own record of its sends: a server killed in the middle of a
// send wrote no record, but every request it sent was journaled before it
// left. The history, the import page and the result page say it from
// there.

// sentOf is what the journal says was sent of one upload.
type sentOf struct {
	// entries are the journal's entries of the upload's requests, by
	// kind and business key; units the stock requests by the rows'
	// identities they carried.
	entries map[journal.Key]journal.Entry
	units   map[string]journal.Entry
	// byKind counts the requests of each kind in each state.
	byKind map[string]map[journal.State]int
}

// empty tells whether the journal knows nothing of the upload.
func (so *sentOf) empty() bool { return so == nil || len(so.entries) == 0 }

// journalOf picks, of the journal's entries, those of the uploads us (an
// upload and those linked to it): the journal's source names the file
// sent, which is in its upload's folder.
func journalOf(entries []journal.Entry, us ...*upload) *sentOf {
	so := &sentOf{entries: map[journal.Key]journal.Entry{}, units: map[string]journal.Entry{}, byKind: map[string]map[journal.State]int{}}
	dirs := make([]string, len(us))
	for i, u := range us {
		dirs[i] = u.dir + string(filepath.Separator)
	}
	for _, e := range entries {
		if !slices.ContainsFunc(dirs, func(d string) bool { return strings.Contains(e.Source, d) }) {
			continue
		}
		k := journal.Key{Kind: e.Key.Kind, Business: e.Key.Business}
		so.entries[k] = e
		for _, id := range e.Units {
			so.units[id] = e
		}
		if so.byKind[e.Key.Kind] == nil {
			so.byKind[e.Key.Kind] = map[journal.State]int{}
		}
		so.byKind[e.Key.Kind][e.State]++
	}
	return so
}

// line says what was sent, per state: "Según el diario: 82 facturas
// creadas, 1 sin respuesta"; "" when the journal knows nothing of it.
func (so *sentOf) line(l msg.Lang) string {
	if so.empty() {
		return ""
	}
	var parts joinMessages
	for _, k := range []schema.Kind{schema.Venta, schema.Facturar, schema.Stock} {
		if n := so.byKind[string(k)][journal.OK]; n > 0 {
			parts = append(parts, msg.Count("web.jrn.ok."+string(k), n))
		}
	}
	total := func(states ...journal.State) int {
		n := 0
		for _, m := range so.byKind {
			for _, st := range states {
				n += m[st]
			}
		}
		return n
	}
	if n := total(journal.Rejected); n > 0 {
		parts = append(parts, msg.Count("web.jrn.rejected", n))
	}
	if n := total(journal.Unknown, journal.Sending); n > 0 {
		parts = append(parts, msg.Count("web.jrn.unknown", n))
	}
	if n := total(journal.Failed); n > 0 {
		parts = append(parts, msg.Count("web.jrn.failed", n))
	}
	if len(parts) == 0 {
		return ""
	}
	return msg.New("web.jrn.line", parts).In(l)
}

// unknowns counts the upload's requests whose outcome nobody knows.
func (so *sentOf) unknowns() int {
	if so == nil {
		return 0
	}
	n := 0
	for _, m := range so.byKind {
		n += m[journal.Unknown] + m[journal.Sending]
	}
	return n
}

// mark is a row's state as the journal knows it.
type mark struct {
	// from is the row's status by validation, st the journal's.
	from, st pipeline.Status
	why      string
	ids      string
}

// rowMarks gives the valid rows of f the state the journal knows for
// them: a row sent reads "enviada" with its ids, not "válida". Rows with
// other statuses (errors, fixed since) are left as validation says.
func (so *sentOf) rowMarks(f *pipeline.File, l msg.Lang) []map[int32]mark {
	out := make([]map[int32]mark, len(f.Sheets))
	if so.empty() {
		return out
	}
	for si, sh := range f.Sheets {
		for _, r := range sh.Requests {
			if r.Status != pipeline.StatusValid && r.Status != pipeline.StatusInvalid {
				continue
			}
			var e journal.Entry
			var ok bool
			if sh.Kind == schema.Stock {
				e, ok = so.units[r.Key]
			} else {
				e, ok = so.entries[journal.Key{Kind: string(sh.Kind), Business: r.Key}]
			}
			if !ok {
				continue
			}
			m, ok := markOf(e, l)
			if !ok {
				continue
			}
			if r.Status == pipeline.StatusInvalid {
				// A row with errors here was fixed and sent from its
				// errors file: only that is said of it.
				if m.st != pipeline.StatusOK {
					continue
				}
				m.why = msg.New("web.jrn.row.fixed").In(l)
			}
			m.from = r.Status
			if out[si] == nil {
				out[si] = map[int32]mark{}
			}
			for _, row := range r.Rows {
				out[si][row] = m
			}
		}
	}
	return out
}

// markOf is the row state of a journal entry; false when the entry leaves
// the row to be sent (never left, or settled as not created).
func markOf(e journal.Entry, l msg.Lang) (mark, bool) {
	switch e.State {
	case journal.OK:
		m := mark{st: pipeline.StatusOK, why: msg.New("web.jrn.row.ok").In(l)}
		switch {
		case e.Numero != 0 || e.PVNumero != 0:
			m.ids = msg.New("web.ids", e.FacturaID, e.Numero, e.PVNumero).In(l)
		case e.FacturaID != 0:
			m.ids = msg.New("web.ids.mov", e.FacturaID).In(l)
		}
		return m, true
	case journal.Rejected:
		return mark{st: pipeline.StatusRejected, why: e.Message}, true
	case journal.Unknown, journal.Sending:
		return mark{st: pipeline.StatusUnknown, why: msg.New("web.jrn.row.unknown").In(l)}, true
	}
	return mark{}, false
}

// marked applies marks to a page of rows.
func marked(d *previewData, marks map[int32]mark, l msg.Lang) {
	for i := range d.Rows {
		rd := &d.Rows[i]
		if m, ok := marks[int32(rd.Index)]; ok {
			rd.Status, rd.StatusText, rd.Tone, rd.Message, rd.IDs = m.st.String(), statusText(m.st, l), toneClass(m.st), m.why, m.ids
			d.Result = d.Result || m.ids != ""
		}
	}
}

// recount moves the marked rows of every sheet out of "válida" into the
// state the journal knows.
func recount(rows map[pipeline.Status]int, marks []map[int32]mark) map[pipeline.Status]int {
	out := map[pipeline.Status]int{}
	for st, n := range rows {
		out[st] = n
	}
	for _, sm := range marks {
		for _, m := range sm {
			out[m.from]--
			out[m.st]++
		}
	}
	return out
}

// sentOf reads what the journal says was sent of u, once for every change
// of the journal this server made (a send, a settling): a fix or a page
// of rows does not list the journal again.
func (s *Server) sentOf(u *upload) *sentOf {
	gen := s.jgen.Load()
	u.mu.Lock()
	so, ok := u.sent, u.sentGen == gen && u.sent != nil
	u.mu.Unlock()
	if ok {
		return so
	}
	// Not bound to the request that asked: what is read is kept for every
	// page until the journal changes.
	entries, err := s.gate.list(context.Background(), "")
	if err != nil {
		// The journal is held by a process that does not answer: what
		// was read last, if anything.
		return so
	}
	so = journalOf(entries, s.related(u)...)
	u.mu.Lock()
	u.sent, u.sentGen = so, gen
	u.mu.Unlock()
	return so
}

// journalChanged tells the pages that the journal changed: what they read
// of it is read again.
func (s *Server) journalChanged() { s.jgen.Add(1) }
