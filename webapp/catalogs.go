package webapp

import (
	"errors"
	"net/http"
	"sort"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/plantilla"
	"github.com/nxbatch/nxbatch/schema"
)

// catalogsData is the catalogs page: the tenant's catalogs with their age,
// the refresh button and the templates to download.
type catalogsData struct {
	base
	Tables  []catalogTable
	Notes   []string
	Problem string
	Kinds   []string
	// Articles is the article catalog, listed apart: it is searched and
	// paged, never shown whole.
	Articles *articlesView
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
	if t == "" {
		return catalog.Snapshot{}, false
	}
	snap, err := s.catalogCache(nil).Load()
	return snap, err == nil
}

func (s *Server) catalogs(w http.ResponseWriter, r *http.Request) {
	problem, notes := s.noticeOf(r)
	s.renderCatalogs(w, r, notes, problem)
}

func (s *Server) renderCatalogs(w http.ResponseWriter, r *http.Request, notes []string, problem string) {
	l := lang(r)
	d := &catalogsData{base: s.base(r, "web.catalogs.title"), Notes: notes, Problem: problem, Kinds: []string{"venta", "facturar", "stock", "pedido", "cancelar"}}
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
		for _, c := range t.Stamps {
			// The API's timestamps, as the page writes dates.
			for _, row := range ct.Rows {
				if c < len(row) {
					row[c] = shownTimestamp(row[c])
				}
			}
		}
		if t.Known() {
			ct.Age = msg.New("web.catalogs.age", ago(now, t.Fetched, l)).In(l)
		} else {
			ct.Age = msg.New("web.catalogs.never").In(l)
		}
		switch {
		case !t.Known():
			// The command line says which command fetches it; the page
			// has its own button for that.
			ct.Note = msg.New("web.catalogs.notfetched").In(l)
		case t.Note.Key != "":
			ct.Note = msg.ForPage(t.Note).In(l)
		}
		d.Tables = append(d.Tables, ct)
	}
	if ok {
		d.Articles = s.articlesData(r, l)
	}
	s.render(w, r, http.StatusOK, "catalogs", d)
}

// refreshCatalogs fetches the catalogs the shared parameter window allows
// now, the oldest first, never waiting: one a minute against the real API.
// It answers with a redirect to the catalogs page, which says what it did.
func (s *Server) refreshCatalogs(w http.ResponseWriter, r *http.Request) {
	fail := func(m msg.Message) { s.redirectWith(w, r, "/catalogs", notice{problem: m}) }
	j, release, err := s.gate.acquire(0)
	if err != nil {
		if errLocked(err) {
			fail(msg.New("web.catalogs.locked"))
			return
		}
		fail(msg.New("web.history.nojournal", msg.CauseOf(err)))
		return
	}
	_, err = s.tenantKey(r.Context(), j)
	if err != nil {
		release()
		fail(msg.New("web.send.notenant", msg.CauseOf(err)))
		return
	}
	cache := s.catalogCache(j)
	snap, _ := cache.Load()
	names := append([]catalog.Name(nil), catalog.Names...)
	sort.SliceStable(names, func(a, b int) bool { return age(&snap, names[a]).Before(age(&snap, names[b])) })
	_, pulled, err := cache.Pull(r.Context(), catalog.PullOptions{Names: names})
	release()
	if err != nil {
		fail(msg.New("web.history.nojournal", msg.CauseOf(err)))
		return
	}
	now := s.now()
	var notes []msg.Localizer
	for _, p := range pulled {
		notes = append(notes, pulledNote{p, now})
	}
	s.log.Info(s.logText("web.log.catalogs"))
	s.redirectWith(w, r, "/catalogs", notice{notes: notes})
}

// pulledNote is what a refresh did to one catalog, in either language.
type pulledNote struct {
	p   catalog.Pulled
	now time.Time
}

// In renders the note in language l.
func (n pulledNote) In(l msg.Lang) string { return pulledText(n.p, n.now, l) }

// pulledText says what a refresh did to one catalog, as the page says it:
// the catalog by the name the page shows, ages in words, no command.
func pulledText(p catalog.Pulled, now time.Time, l msg.Lang) string {
	name := catalogName(p.Name)
	var why msg.Message
	switch p.Status {
	case catalog.Fetched:
		if p.Local {
			return msg.New("web.catalogs.pull.local", name).In(l)
		}
		return msg.New("web.catalogs.pull.fetched", name).In(l)
	case catalog.Fresh:
		return msg.New("web.catalogs.pull.fresh", name, ago(now, p.Fetched, l)).In(l)
	case catalog.Waiting:
		why = msg.New("web.catalogs.pull.window", p.Next.Local().Format("15:04:05"), duration(p.Next.Sub(now), l))
	default:
		var we *apiclient.WaitError
		switch {
		case errors.Is(p.Err, apiclient.ErrUnauthorized):
			why = msg.New("web.catalogs.pull.unauthorized")
		case errors.As(p.Err, &we) && we.Message != "" && !p.Next.IsZero():
			why = msg.New("web.catalogs.pull.apiwait", duration(we.Wait, l), we.Message, p.Next.Local().Format("15:04:05"))
		default:
			why = msg.New("cat.fetchfailed", msg.CauseOf(p.Err))
		}
	}
	if p.Fetched.IsZero() {
		return msg.New("web.catalogs.pull.none", name, why).In(l)
	}
	return msg.New("web.catalogs.pull.cached", name, ago(now, p.Fetched, l), why).In(l)
}

// catalogName is catalog n as the page names it ("Depósitos"), in the
// sentence's language.
func catalogName(n catalog.Name) msg.Message { return msg.New("web.catname." + string(n)) }

// shownTimestamp writes one of the API's timestamps ("2026-01-05T09:00:00")
// as the page writes dates (05/01/2026 09:00); anything else as it came.
func shownTimestamp(v string) string {
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.Format("02/01/2006 15:04")
		}
	}
	if t, err := time.Parse("2006-01-02", v); err == nil {
		return t.Format("02/01/2006")
	}
	return v
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
	for _, n := range plantilla.Needs(k) {
		if age(&snap, n).IsZero() {
			notes = append(notes, msg.New("web.template.nolist", catalogName(n)))
		}
	}
	o := plantilla.Options{Notes: notes, Now: s.now(), Say: msg.ForPage}
	if plantilla.NeedsArticulos(k) {
		o.Articulos, o.ArticulosFetched = s.articleCopy(r.Context())
	}
	x, err := plantilla.Build(k, &snap, o)
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.readfailed", msg.CauseOf(err)))
		return
	}
	defer x.Close()
	w.Header().Set("Content-Type", contentType(".xlsx"))
	w.Header().Set("Content-Disposition", `attachment; filename="`+string(k)+`.xlsx"`)
	_ = x.Write(w)
}
