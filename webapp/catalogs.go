package webapp

import (
	"net/http"
	"sort"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/template"
)

// catalogsData is the catalogs page: the tenant's catalogs with their age,
// the refresh button and the templates to download.
type catalogsData struct {
	base
	Tables  []catalogTable
	Notes   []string
	Problem string
	Kinds   []string
}

// catalogTable is one catalog as the page shows it.
type catalogTable struct {
	Title  string
	Header []string
	Rows   [][]string
	Age    string
	Note   string
}

// snapshot is the tenant's cached catalogs, read without the API; ok is
// false when the tenant is not known yet.
func (s *Server) snapshot(r *http.Request) (catalog.Snapshot, bool) {
	t := s.knownTenant()
	if t == "" {
		if j, release, err := s.gate.acquire(0); err == nil {
			t, _ = s.tenantKey(r.Context(), j)
			release()
		}
	}
	if t == "" || s.cfg.Backend.Catalogs == nil {
		return catalog.Snapshot{}, false
	}
	snap, err := s.cfg.Backend.Catalogs(t, nil).Load()
	return snap, err == nil
}

func (s *Server) catalogs(w http.ResponseWriter, r *http.Request) {
	s.renderCatalogs(w, r, http.StatusOK, nil, "")
}

func (s *Server) renderCatalogs(w http.ResponseWriter, r *http.Request, status int, notes []string, problem string) {
	l := lang(r)
	d := &catalogsData{base: s.base(r, "web.catalogs.title"), Notes: notes, Problem: problem, Kinds: []string{"venta", "facturar", "stock"}}
	snap, ok := s.snapshot(r)
	if !ok && problem == "" {
		d.Problem = msg.New("web.catalogs.notenant").In(l)
	}
	now := s.now()
	for _, t := range catalog.Tables(&snap, l) {
		ct := catalogTable{Title: t.Title.In(l), Rows: t.Rows}
		for _, h := range t.Header {
			ct.Header = append(ct.Header, msg.ForPage(h).In(l))
		}
		if t.Known() {
			ct.Age = msg.New("web.catalogs.age", ago(now, t.Fetched, l)).In(l)
		} else {
			ct.Age = msg.New("web.catalogs.never").In(l)
		}
		switch {
		case t.Note.Key == "catc.notfetched":
			// The command line says which command fetches it; the page
			// has its own button for that.
			ct.Note = msg.New("web.catalogs.notfetched").In(l)
		case t.Note.Key != "":
			ct.Note = msg.ForPage(t.Note).In(l)
		}
		d.Tables = append(d.Tables, ct)
	}
	s.render(w, r, status, "catalogs", d)
}

// refreshCatalogs fetches the catalogs the shared parameter window allows
// now, the oldest first, never waiting: one a minute against the real API.
func (s *Server) refreshCatalogs(w http.ResponseWriter, r *http.Request) {
	l := lang(r)
	j, release, err := s.gate.acquire(0)
	if err != nil {
		if errLocked(err) {
			s.renderCatalogs(w, r, http.StatusConflict, nil, msg.New("web.catalogs.locked").In(l))
			return
		}
		s.renderCatalogs(w, r, http.StatusInternalServerError, nil, msg.New("web.history.nojournal", err.Error()).In(l))
		return
	}
	t, err := s.tenantKey(r.Context(), j)
	if err != nil {
		release()
		s.renderCatalogs(w, r, http.StatusServiceUnavailable, nil, msg.New("web.send.notenant", err.Error()).In(l))
		return
	}
	cache := s.cfg.Backend.Catalogs(t, j)
	snap, _ := cache.Load()
	names := append([]catalog.Name(nil), catalog.Names...)
	sort.SliceStable(names, func(a, b int) bool { return age(&snap, names[a]).Before(age(&snap, names[b])) })
	_, pulled, err := cache.Pull(r.Context(), catalog.PullOptions{Names: names})
	release()
	if err != nil {
		s.renderCatalogs(w, r, http.StatusInternalServerError, nil, msg.New("web.history.nojournal", err.Error()).In(l))
		return
	}
	now := s.now()
	var notes []string
	for _, p := range pulled {
		notes = append(notes, p.Message(now).In(l))
	}
	s.log.Info("catalogs refreshed from the page")
	s.renderCatalogs(w, r, http.StatusOK, notes, "")
}

// age is when catalog n was fetched (zero when never), for ordering.
func age(s *catalog.Snapshot, n catalog.Name) time.Time {
	switch n {
	case catalog.MediosPago:
		return s.MediosPagoFetched
	case catalog.Motivos:
		return s.MotivosFetched
	case catalog.Config:
		return s.ConfigFetched
	case catalog.Depositos:
		return s.DepositosFetched
	case catalog.PuntosVenta:
		return s.PuntosVentaFetched
	case catalog.Empleados:
		return s.EmpleadosFetched
	}
	return time.Time{}
}

// templateFile downloads the template of a kind, with drop-down lists from
// the cached catalogs (a list whose catalog is not cached is left out and
// the Instrucciones sheet says so).
func (s *Server) templateFile(w http.ResponseWriter, r *http.Request) {
	k, err := schema.ParseKind(r.PathValue("kind"))
	if err != nil {
		s.fail(w, r, http.StatusNotFound, msg.New("web.template.kind"))
		return
	}
	snap, _ := s.snapshot(r)
	var notes []msg.Message
	for _, n := range template.Needs(k) {
		if age(&snap, n).IsZero() {
			notes = append(notes, msg.New("web.template.nolist", string(n)))
		}
	}
	x, err := template.Build(k, &snap, template.Options{Notes: notes, Now: s.now()})
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.readfailed", err.Error()))
		return
	}
	defer x.Close()
	w.Header().Set("Content-Type", contentType(".xlsx"))
	w.Header().Set("Content-Disposition", `attachment; filename="`+string(k)+`.xlsx"`)
	_ = x.Write(w)
}
