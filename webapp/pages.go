package webapp

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/writers"
)

// funcs are the templates' helpers. t renders a catalog key in the page's
// language: every sentence a page shows comes from package msg.
// A number a template gives t or tn is a count or a page number: it is
// written with the language's thousands separator.
var funcs = template.FuncMap{
	"t": func(l msg.Lang, key string, args ...any) string { return counted(msg.New(key, args...), l).In(l) },
	// tn is t for a count n (its first argument): the key's singular when n is 1.
	"tn": func(l msg.Lang, key string, n int, args ...any) string {
		return counted(msg.Count(key, n, args...), l).In(l)
	},
	"inc": func(i int) int { return i + 1 },
}

// grouped is a count that a message's %d writes with language l's
// thousands separator: 100.000 filas, 100,000 rows.
type grouped struct {
	n int
	l msg.Lang
}

// Format writes the count for %d (and %v); any other verb as an int.
func (g grouped) Format(f fmt.State, verb rune) {
	if verb == 'd' || verb == 'v' {
		_, _ = io.WriteString(f, thousands(g.n, g.l))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), g.n)
}

// counted returns m with its numbers, and those of the messages nested in
// it, written with language l's thousands separator: for a message of
// counts (the plan, a status's count, a page number), never for one that
// carries an id or a row number.
func counted(m msg.Message, l msg.Lang) msg.Message {
	var args []any
	for i, a := range m.Args {
		var x any
		switch v := a.(type) {
		case int:
			x = grouped{v, l}
		case int64:
			x = grouped{int(v), l}
		case msg.Message:
			x = counted(v, l)
		default:
			continue
		}
		if args == nil {
			args = append([]any(nil), m.Args...)
		}
		args[i] = x
	}
	if args != nil {
		m.Args = args
	}
	return m
}

// parsePages parses every page with the layout and the shared fragments.
func parsePages() (map[string]*template.Template, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		page := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if page == "layout" || page == "partials" {
			continue
		}
		t, err := template.New(page).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/partials.html", n)
		if err != nil {
			return nil, fmt.Errorf("webapp: template %s: %w", page, err)
		}
		pages[page] = t
	}
	return pages, nil
}

// base is what every page carries: its language, title and where the
// language switch comes back to.
type base struct {
	Lang    msg.Lang
	Title   string
	Path    string
	Nav     string
	Sandbox bool
	// API and Tenant say where sends go: the base URL (never the token)
	// and the journal's tenant once learned.
	API    string
	Tenant string
	Other  msg.Lang // the language the switch offers
	// User is the logged-in user's name (the owner's pages show none).
	User string
}

func (s *Server) base(r *http.Request, title string, args ...any) base {
	l := lang(r)
	other := msg.EN
	if l == msg.EN {
		other = msg.ES
	}
	nav := ""
	switch {
	case r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, "/u/"):
		nav = "import"
	case strings.HasPrefix(r.URL.Path, "/history"):
		nav = "history"
	case strings.HasPrefix(r.URL.Path, "/catalogs"):
		nav = "catalogs"
	}
	back := r.URL.RequestURI()
	if r.Method != http.MethodGet {
		back = "/" // the switch comes back with a GET
	}
	return base{Lang: l, Title: msg.New(title, args...).In(l), Path: back, Nav: nav,
		Sandbox: s.cfg.Backend.Session.Sandbox() != nil, API: s.cfg.Backend.Session.BaseURL(), Tenant: s.knownTenant(), Other: other, User: userOf(r)}
}

// render writes page name with data and status, whole.
func (s *Server) render(w http.ResponseWriter, _ *http.Request, status int, name string, data any) {
	var b bytes.Buffer
	t := s.pages[name]
	if t == nil {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		s.log.Error(s.logText("web.log.render"), "page", name, "err", err.Error())
		http.Error(w, "render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = b.WriteTo(w)
}

// renderFragment writes one fragment of page name (an htmx swap).
func (s *Server) renderFragment(w http.ResponseWriter, page, fragment string, data any) {
	var b bytes.Buffer
	if err := s.pages[page].ExecuteTemplate(&b, fragment, data); err != nil {
		s.log.Error(s.logText("web.log.render"), "fragment", fragment, "err", err.Error())
		http.Error(w, "render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = b.WriteTo(w)
}

// statusText is a status as a page names it.
func statusText(st pipeline.Status, l msg.Lang) string { return msg.New("web.st." + st.String()).In(l) }

// toneClass is the CSS class of a status's colour, as the reports colour
// rows.
func toneClass(st pipeline.Status) string {
	switch st.Tone() {
	case writers.ToneDone:
		return "done"
	case writers.ToneReady:
		return "ready"
	case writers.ToneFix:
		return "fix"
	case writers.ToneCheck:
		return "check"
	case writers.ToneWaiting:
		return "waiting"
	}
	return ""
}

// count is one status's count on a page.
type count struct {
	Status string
	Text   string
	N      int
	Tone   string
}

// counts lists the statuses that have rows, in report order.
func counts(rows map[pipeline.Status]int, l msg.Lang) []count {
	var out []count
	for _, st := range pipeline.AllStatuses {
		if n := rows[st]; n > 0 {
			out = append(out, count{Status: st.String(), Text: counted(msg.Count("st.count."+st.String(), n), l).In(l), N: n, Tone: toneClass(st)})
		}
	}
	return out
}

// ago says how old t is, in words.
func ago(now, t time.Time, l msg.Lang) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return msg.New("web.ago.now").In(l)
	case d < time.Hour:
		return msg.Count("web.ago.min", int(d/time.Minute)).In(l)
	case d < 48*time.Hour:
		return msg.Count("web.ago.hours", int(d/time.Hour)).In(l)
	}
	return msg.Count("web.ago.days", int(d/(24*time.Hour))).In(l)
}

// duration says a duration in words a person reads: seconds, minutes.
func duration(d time.Duration, l msg.Lang) string {
	switch {
	case d < time.Second:
		return msg.New("web.dur.none").In(l)
	case d < time.Minute:
		return msg.Count("web.dur.sec", int(d.Round(time.Second)/time.Second)).In(l)
	case d < time.Hour:
		m := int(d / time.Minute)
		sec := int((d % time.Minute).Round(time.Second) / time.Second)
		return msg.New("web.dur.min", m, sec).In(l)
	}
	return msg.New("web.dur.hours", int(d/time.Hour), int((d%time.Hour)/time.Minute)).In(l)
}

// catalogLine says which catalog a validation used and how old it is, or
// that its ids were not checked.
func catalogLine(c catalogUse, now time.Time, l msg.Lang) string {
	name := msg.New("web.cat." + string(c.Name)).In(l)
	if c.Fetched.IsZero() {
		return msg.New("web.plan.catalog.none", name).In(l)
	}
	return msg.New("web.plan.catalog", name, ago(now, c.Fetched, l)).In(l)
}

// home is the upload page.
type homePage struct {
	base
	Problem string // why the last upload was refused
	MaxMB   int64
	// MaxBytes lets the page refuse a file over the limit before sending it.
	MaxBytes int64
	MaxRows  string
	Recent   []recentUpload
	Kinds    []string
}

// recentUpload is one upload listed on the home page.
type recentUpload struct {
	ID, Name, When string
}

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	problem, _ := s.noticeOf(r)
	s.renderHome(w, r, http.StatusOK, problem)
}

// renderHome answers the upload page with status, saying problem when not
// empty.
func (s *Server) renderHome(w http.ResponseWriter, r *http.Request, status int, problem string) {
	l := lang(r)
	p := &homePage{base: s.base(r, "web.home.title"), MaxMB: s.cfg.Limits.MaxBytes >> 20, MaxBytes: s.cfg.Limits.MaxBytes,
		MaxRows: thousands(s.cfg.Limits.MaxRows, l), Kinds: []string{"venta", "facturar", "stock"}}
	p.Problem = problem
	now := s.now()
	for i, u := range s.uploads.all() {
		if i == 5 {
			break
		}
		p.Recent = append(p.Recent, recentUpload{ID: u.meta.ID, Name: u.meta.Name, When: ago(now, u.meta.Uploaded, l)})
	}
	s.render(w, r, status, "home", p)
}

// thousands writes n with the language's thousands separator.
func thousands(n int, l msg.Lang) string {
	if n < 0 {
		return "-" + thousands(-n, l)
	}
	s := strconv.Itoa(n)
	sep := "."
	if l == msg.EN {
		sep = ","
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}
