package webapp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/profiles"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
)

// columnsData is the mapping screen: one row per column of the file, with
// the API field it fills (proposed by the CLI's own matching) to confirm
// or change, saved as a named profile.
type columnsData struct {
	base
	ID, Name string
	Kind     string
	Kinds    []kindOption
	Columns  []columnRow
	Profiles []profileLink
	Profile  string
	Problems []string
	Sample   bool
	// HeaderRow is the sheet row the titles were taken from, which the
	// user may change on this screen.
	HeaderRow int
}

// kindOption is one kind of the kind selector.
type kindOption struct {
	Value, Text string
	Selected    bool
}

// columnRow is one column of the file and the field it fills.
type columnRow struct {
	Index   int
	Header  string
	Example string
	ID      string
	Options []fieldOption
	// Field is the API field chosen ("" none), shown small beside the
	// field's name; Desc says in one line what the field holds.
	Field, Desc string
	// Question asks which field a column that could be two fills; such a
	// column is never matched silently.
	Question string
	// Suggested is true when the field came from the column's name (the
	// common names of each field), not from an exact match.
	Suggested bool
	// FromCatalog says why the field was proposed from the column's
	// values: how many are the article catalog's codes.
	FromCatalog string
}

// fieldOption is one API field a column may fill.
type fieldOption struct {
	Value, Text string
	Selected    bool
}

// profileLink offers a saved profile made for the same headers.
type profileLink struct {
	Name, URL string
}

// fileHeader reads the header of the upload's first data sheet and one
// example row. The header is the row Load takes (pipeline.HeaderProbe with
// the upload's columns), else the first with two cells or more, not a
// title line above the table.
func (s *Server) fileHeader(u *upload) ([]string, []string, int, error) {
	release, err := s.parsing.acquire(context.Background())
	if err != nil {
		return nil, nil, 0, err
	}
	defer release()
	probe := pipeline.HeaderProbe("", s.loadOptions(u).Mapping)
	opts := readers.Options{IsHeader: func(cells []string) bool {
		n := 0
		for _, c := range cells {
			if strings.TrimSpace(c) != "" {
				n++
			}
		}
		return n >= 2 || probe(cells)
	}, HeaderRow: u.meta.HeaderRow}
	rf, err := readers.Open(u.current(), opts)
	if err != nil {
		return nil, nil, 0, err
	}
	defer rf.Close()
	var firstErr error
	for _, name := range rf.Sheets() {
		if rf.Hidden(name) || schema.IsTemplateSheet(name) {
			continue
		}
		sr, err := rf.Sheet(name)
		if err != nil {
			firstErr = errors.Join(firstErr, err)
			continue
		}
		h, row := sr.Info().Header, sr.Info().HeaderRow
		var example []string
		if rec, err := sr.Next(); err == nil {
			example = append(example, rec.Cells...)
		}
		sr.Close()
		if len(h) > 0 {
			return h, example, row, nil
		}
	}
	if firstErr == nil {
		firstErr = readers.ErrNoHeader
	}
	return nil, nil, 0, firstErr
}

// bestKind is the kind whose columns match most of header.
func bestKind(header []string) schema.Kind {
	best, most := schema.Venta, -1
	for _, k := range schema.Kinds {
		lay, _ := schema.Match(k, header, nil)
		if n := len(lay.Index); n > most {
			best, most = k, n
		}
	}
	return best
}

// fieldLabel is a field's name in the user's words.
func fieldLabel(path string, l msg.Lang) string { return msg.New("web.field." + path).In(l) }

// fieldDesc is the one line that says what field path of kind k holds:
// the template's own description (a kind's wording first).
func fieldDesc(k schema.Kind, path string, l msg.Lang) string {
	if _, ok := msg.Lookup("tpl.col." + string(k) + "." + path); ok {
		return msg.New("tpl.col." + string(k) + "." + path).In(l)
	}
	if _, ok := msg.Lookup("tpl.col." + path); ok {
		return msg.New("tpl.col." + path).In(l)
	}
	return ""
}

func (s *Server) columns(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil || !s.fileUpToDate(w, r, u) {
		return
	}
	s.renderColumns(w, r, u, http.StatusOK, r.URL.Query().Get("kind"), nil, r.URL.Query().Get("perfil"), nil)
}

// renderColumns renders the mapping screen: chosen (header → field) when
// the user already chose, else a profile's columns, else the proposals.
func (s *Server) renderColumns(w http.ResponseWriter, r *http.Request, u *upload, status int, kind string, chosen map[string]string, profile string, problems []string) {
	l := lang(r)
	header, example, headerRow, err := s.fileHeader(u)
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, msg.New("web.readfailed", s.fileText(u, err, l)))
		return
	}
	store := profiles.Store{Dir: profiles.DirIn(s.cfg.Backend.Session.StateDir())}
	fits, _ := store.For(header)
	if profile != "" && chosen == nil {
		if p, err := store.Load(profile); err == nil {
			chosen, kind = p.Columns, string(p.Kind)
		}
	}
	u.mu.Lock()
	if chosen == nil && len(u.meta.Columns) > 0 {
		chosen, profile = u.meta.Columns, u.meta.Profile
	}
	u.mu.Unlock()
	k, err := schema.ParseKind(kind)
	if err != nil {
		k = bestKind(header)
		if chosen != nil {
			mapped := make([]string, len(header))
			for i, h := range header {
				mapped[i] = chosen[h]
			}
			if dk, ok := schema.DetectKind(mapped, nil); ok {
				k = dk
			}
		}
	}
	d := &columnsData{base: s.base(r, "web.columns.title", u.meta.Name), ID: u.meta.ID, Name: u.meta.Name, Kind: string(k),
		Profile: profile, Problems: problems, HeaderRow: headerRow}
	for _, kk := range schema.Kinds {
		d.Kinds = append(d.Kinds, kindOption{Value: string(kk), Text: msg.New("web.kind." + string(kk)).In(l), Selected: kk == k})
	}
	for _, p := range fits {
		d.Profiles = append(d.Profiles, profileLink{Name: p.Name, URL: "/u/" + u.meta.ID + "/columns?" + url.Values{"perfil": {p.Name}}.Encode()})
	}
	proposed := schema.Suggest(k, header)
	var hits map[int]catalogHit
	if chosen == nil {
		// A column the names left unproposed (or proposed only from a
		// common name) whose values are mostly the catalog's codes.
		hits = s.catalogColumns(r.Context(), u, k, header, headerRow, func(i int) bool {
			return !proposed[i].Exact && len(proposed[i].Choices) == 0 && !strings.HasSuffix(proposed[i].Path, "codigo") &&
				!strings.HasSuffix(proposed[i].Path, "codigoBarras")
		})
		for i, h := range hits {
			for j := range proposed {
				if j != i && proposed[j].Path == h.path {
					proposed[j].Path = "" // the values say more than a name
				}
			}
			proposed[i] = schema.Suggestion{Path: h.path}
		}
	}
	// The paths go through strings.Clone on their way to a message key:
	// msg's key scan would otherwise take a .Path here for base.Path's
	// literals, not the kind's column paths it completes "web.field.*" with.
	for i, h := range header {
		sg := proposed[i]
		sel := sg.Path
		if chosen != nil {
			sel = chosen[h]
		}
		cr := columnRow{Index: i, Header: h, ID: "col-" + strconv.Itoa(i), Field: sel, Suggested: chosen == nil && sel != "" && !sg.Exact}
		if sel != "" {
			cr.Desc = fieldDesc(k, strings.Clone(sel), l)
		}
		if sel == schema.CantidadContada {
			cr.Desc = countedDesc(l)
		}
		if h, ok := hits[i]; ok {
			// Proposed from its values, which the line says: not from
			// the column's name.
			cr.FromCatalog, cr.Suggested = h.text(l), false
		}
		if chosen == nil && len(sg.Choices) > 0 {
			names := make([]string, len(sg.Choices))
			for j, p := range sg.Choices {
				names[j] = "«" + fieldLabel(strings.Clone(p), l) + "» (" + p + ")"
			}
			cr.Question = msg.New("web.columns.question", h, strings.Join(names, msg.New("web.columns.or").In(l))).In(l)
		}
		if i < len(example) {
			cr.Example = example[i]
		}
		cr.Options = append(cr.Options, fieldOption{Value: "", Text: msg.New("web.columns.none").In(l), Selected: sel == ""})
		for _, c := range fieldColumns(k) {
			key := "web.columns.option"
			if c.Required {
				key = "web.columns.option.required"
			}
			cr.Options = append(cr.Options, fieldOption{Value: c.Path, Text: msg.New(key, fieldLabel(strings.Clone(c.Path), l), c.Path).In(l), Selected: sel == c.Path})
		}
		d.Columns = append(d.Columns, cr)
	}
	s.render(w, r, status, "columns", d)
}

// saveColumns checks the chosen fields (each used once, every required
// one present), saves them as a named profile, and validates the file with
// them.
func (s *Server) saveColumns(w http.ResponseWriter, r *http.Request) {
	// The screen reads the file, and a change of the titles row or of the
	// mapping reads it anew: it first holds every fix (a replay of the
	// fixes made reads it as they were made).
	u := s.uploadOf(w, r)
	if u == nil || !s.fileUpToDate(w, r, u) {
		return
	}
	l := lang(r)
	if hr := strings.TrimSpace(r.FormValue("header_row")); hr != "" {
		n, err := strconv.Atoi(hr)
		if err != nil || n < 1 || n > maxHeaderRow {
			s.renderColumns(w, r, u, http.StatusUnprocessableEntity, r.FormValue("kind"), nil, "", []string{msg.New("web.columns.headerrow.bad").In(l)})
			return
		}
		_, _, was, _ := s.fileHeader(u)
		if n != was {
			// Another row holds the titles: read the file again from it
			// and propose anew for its columns.
			u.mu.Lock()
			prev := u.meta.HeaderRow
			u.meta.HeaderRow = n
			if _, _, _, err := s.fileHeader(u); err != nil {
				u.meta.HeaderRow = prev
				u.mu.Unlock()
				s.renderColumns(w, r, u, http.StatusUnprocessableEntity, r.FormValue("kind"), nil, "", []string{msg.New("web.columns.headerrow.empty", n).In(l)})
				return
			}
			u.meta.Columns, u.meta.Profile, u.meta.AutoProfile = nil, "", false
			u.cur = nil
			err := u.saveMeta()
			u.mu.Unlock()
			if err != nil {
				s.fail(w, r, http.StatusInternalServerError, msg.New("web.readfailed", msg.CauseOf(err)))
				return
			}
			s.renderColumns(w, r, u, http.StatusOK, r.FormValue("kind"), nil, "", nil)
			return
		}
	}
	header, _, _, err := s.fileHeader(u)
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, msg.New("web.readfailed", s.fileText(u, err, l)))
		return
	}
	k, err := schema.ParseKind(r.FormValue("kind"))
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, msg.New("web.template.kind"))
		return
	}
	name := strings.TrimSpace(r.FormValue("name"))
	if r.FormValue("change") != "" {
		// Only the kind changed: propose again for it.
		s.renderColumns(w, r, u, http.StatusOK, string(k), nil, "", nil)
		return
	}
	chosen := map[string]string{}
	used := map[string]string{}
	var problems []string
	for i, h := range header {
		p := r.FormValue("c" + strconv.Itoa(i))
		if p == "" {
			continue
		}
		if !fieldOf(k, p) {
			s.fail(w, r, http.StatusBadRequest, msg.New("web.columns.badfield", p))
			return
		}
		if prev, dup := used[p]; dup {
			problems = append(problems, msg.New("web.columns.twice", p, prev, h).In(l))
		}
		used[p] = h
		chosen[h] = p
	}
	prof := profiles.Profile{Name: name, Kind: k, Headers: header, Columns: chosen, Saved: s.now()}
	if _, herrs := schema.Match(k, header, prof.Mapping()); len(herrs) > 0 && len(problems) == 0 {
		for _, he := range herrs {
			m := he.Msg
			if errors.Is(he, schema.ErrMissingColumn) && len(m.Args) == 2 {
				// The command line's sentence names --map; here the
				// table is where the columns are named.
				m = msg.New("web.columns.missing", m.Args[1])
			}
			problems = append(problems, m.In(l))
		}
	}
	if err := profiles.CheckName(name); err != nil {
		problems = append(problems, msg.New("web.columns.name").In(l))
	}
	if len(problems) > 0 {
		s.renderColumns(w, r, u, http.StatusUnprocessableEntity, string(k), chosen, name, problems)
		return
	}
	store := profiles.Store{Dir: profiles.DirIn(s.cfg.Backend.Session.StateDir())}
	if err := store.Save(prof); err != nil {
		s.renderColumns(w, r, u, http.StatusInternalServerError, string(k), chosen, name, []string{msg.New("web.profile.savefailed", name, msg.CauseOf(err)).In(l)})
		return
	}
	u.mu.Lock()
	u.meta.Profile, u.meta.Columns, u.meta.AutoProfile = name, chosen, false
	u.cur = nil
	_, verr := s.loaded(r.Context(), u)
	_ = u.saveMeta()
	u.mu.Unlock()
	s.log.Info(s.logText("web.log.profile"), "profile", name)
	if verr != nil {
		if mapping := headerProblem(verr); mapping {
			s.renderColumns(w, r, u, http.StatusUnprocessableEntity, string(k), chosen, name, []string{s.fileText(u, verr, l)})
			return
		}
		s.render(w, r, http.StatusUnprocessableEntity, "error", &errorPage{base: s.base(r, "web.error.title"), Text: s.fileText(u, verr, l)})
		return
	}
	http.Redirect(w, r, "/u/"+u.meta.ID, http.StatusSeeOther)
}

// maxHeaderRow is the highest titles row the column screen takes: a
// spreadsheet's last row.
const maxHeaderRow = 1 << 20

// applySavedProfile applies to u, whose headers matched no kind, the
// newest saved profile made for the same headers, when one validates the
// file: the next file of the same export needs no second visit to the
// column screen. The import page says it was applied, with a way back.
// u.mu is held; it reports whether a profile was applied.
func (s *Server) applySavedProfile(ctx context.Context, u *upload) bool {
	header, _, _, err := s.fileHeader(u)
	if err != nil {
		return false
	}
	store := profiles.Store{Dir: profiles.DirIn(s.cfg.Backend.Session.StateDir())}
	fits, _ := store.For(header)
	for _, p := range fits {
		u.meta.Profile, u.meta.Columns, u.meta.AutoProfile = p.Name, p.Columns, true
		if v, err := s.validate(ctx, u, u.meta.Edits); err == nil {
			u.cur = v
			return true
		}
	}
	u.meta.Profile, u.meta.Columns, u.meta.AutoProfile = "", nil, false
	return false
}
