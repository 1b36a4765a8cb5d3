package webapp

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/writers"
)

// historyData is the history page: past imports from the page and from
// other runs' report folders, and the outcomes nobody knows yet.
type historyData struct {
	base
	Imports  []pastImport
	Runs     []pastImport
	Unknown  []unknownEntry
	Listing  string // why the journal could not be listed, when it could not
	Notice   string
	Problem  string
	RunsNote string
	// ReportDir is the report folder of the scheduled runs chosen in the
	// page; Flags those the server was started with; Notes what a
	// setting's change did.
	ReportDir string
	Flags     []string
	Notes     []string
	// Reconcile is the last reconciliation run from the page, nil when
	// none; CanReconcile offers it (there are unknowns, none running).
	Reconcile    *reconcileView
	CanReconcile bool
}

// pastImport is one import, from the page or a report folder.
type pastImport struct {
	Name    string
	When    string
	Command string
	Counts  string
	Sends   []string // the page's sends of an upload, newest first
	// Journal says what the journal knows was sent of an upload.
	Journal string
	// Of is the upload this one is the errors file of; Fixed its errors
	// files uploaded again.
	Of    *link
	Fixed []link
	// OfText and FixedText introduce them.
	OfText, FixedText string
	Stopped           string
	URL               string
	Files             []download
}

// unknownEntry is one journal entry whose outcome is not known, with what
// is known of it.
type unknownEntry struct {
	Key      string
	FormID   string
	Kind     string
	Business string
	Source   string
	Attempts int
	Last     string
	Message  string
	Evidence string
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	l := lang(r)
	now := s.now()
	d := &historyData{base: s.base(r, "web.history.title")}
	// The journal first: what it says was sent of each upload is the
	// truth, whatever the upload's own record (a server killed mid-send
	// wrote none).
	entries, err := s.gate.list(r.Context(), "")
	for _, u := range s.uploads.all() {
		so := journalOf(entries, s.related(u)...)
		of, fixed := s.links(u)
		u.mu.Lock()
		pi := pastImport{Name: u.meta.Name, When: ago(now, u.meta.Uploaded, l), Command: msg.New("web.history.fromweb").In(l), URL: "/u/" + u.meta.ID,
			Of: of, Fixed: fixed, OfText: msg.New("web.link.of").In(l), FixedText: msg.New("web.link.fixed").In(l)}
		if n := len(u.meta.Sends); n > 0 {
			// Every send, newest first: a second send's "nothing left"
			// must not hide what the first one created.
			for i := n - 1; i >= 0; i-- {
				pi.Sends = append(pi.Sends, sendLine(u.meta.Sends[i], now, l))
			}
			pi.Stopped = u.meta.Sends[n-1].Said[l]
		} else if so.empty() {
			pi.Counts = msg.New("web.history.notsent").In(l)
		}
		pi.Journal = so.line(l)
		for _, name := range u.reports {
			pi.Files = append(pi.Files, download{Name: name, URL: "/u/" + u.meta.ID + "/files/" + url.PathEscape(name), What: reportWhat(name, l)})
		}
		u.mu.Unlock()
		d.Imports = append(d.Imports, pi)
	}
	dirs := s.reportDirs()
	for di, dir := range dirs {
		d.Runs = append(d.Runs, s.reportRuns(di, dir, now, l)...)
	}
	if len(dirs) == 0 {
		d.RunsNote = msg.New("web.history.nodirs").In(l)
	}
	d.ReportDir = s.settings().ReportDir
	d.Flags = s.cfg.ReportDirs
	d.Problem, d.Notes = s.noticeOf(r)
	switch {
	case err != nil && errLocked(err):
		d.Listing = msg.New("web.history.locked").In(l)
	case err != nil:
		d.Listing = msg.New("web.history.nojournal", msg.CauseOf(err)).In(l)
	}
	for _, e := range entries {
		if e.State != journal.Unknown && e.State != journal.Sending {
			continue
		}
		d.Unknown = append(d.Unknown, unknownEntry{Key: e.Key.String(), FormID: "u" + strconv.Itoa(len(d.Unknown)),
			Kind: e.Key.Kind, Business: e.Key.Business, Source: msg.Source(s.shortSource(e.Source), l), Attempts: e.Attempts,
			Last: e.Last.Local().Format("02/01/2006 15:04:05"), Message: e.Message, Evidence: e.Evidence})
	}
	s.smu.Lock()
	rj := s.reconciling
	s.smu.Unlock()
	d.Reconcile = rj.view(now, l)
	d.CanReconcile = len(d.Unknown) > 0 && (d.Reconcile == nil || !d.Reconcile.Running)
	if k := r.URL.Query().Get("resuelta"); k != "" {
		d.Notice = msg.New("web.resolve.done", k, r.URL.Query().Get("como")).In(l)
	}
	s.render(w, r, http.StatusOK, "history", d)
}

// shortSource drops the server's own folders from a journal source: the
// accountant knows an upload by its file's name.
func (s *Server) shortSource(src string) string {
	dir := s.uploads.dir + string(filepath.Separator)
	i := strings.Index(src, dir)
	if i < 0 {
		return src
	}
	rest := src[i+len(dir):]
	// ID/original/NAME or ID/corregido/NAME
	if parts := strings.SplitN(rest, string(filepath.Separator), 3); len(parts) == 3 {
		return src[:i] + parts[2]
	}
	return src
}

// reportRuns lists the runs whose summaries are in dir, newest first.
func (s *Server) reportRuns(di int, dir string, now time.Time, l msg.Lang) []pastImport {
	names, _ := filepath.Glob(filepath.Join(dir, "*.summary.json"))
	type run struct {
		pi  pastImport
		fin time.Time
	}
	var runs []run
	files := listReports(dir)
	for _, p := range names {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var sum writers.Summary
		if json.Unmarshal(b, &sum) != nil {
			continue
		}
		if sum.Command == "serve" {
			continue // a copy of a page's send: listed with the imports
		}
		base := strings.TrimSuffix(filepath.Base(p), ".summary.json")
		pi := pastImport{Name: filepath.Base(sum.File), When: ago(now, sum.Finished, l), Command: sum.Command,
			Counts: countsText(sum.Rows, l), Stopped: sum.Stopped}
		for _, f := range files {
			if strings.HasPrefix(f, base+".") && isReport(f) {
				pi.Files = append(pi.Files, download{Name: f, URL: "/history/" + strconv.Itoa(di) + "/" + url.PathEscape(f), What: reportWhat(f, l)})
			}
		}
		runs = append(runs, run{pi, sum.Finished})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].fin.After(runs[j].fin) })
	out := make([]pastImport, len(runs))
	for i, r := range runs {
		out[i] = r.pi
	}
	return out
}

// isReport reports whether name is one of nxbatch's report files.
func isReport(name string) bool {
	for _, suf := range []string{".result.csv", ".result.xlsx", ".summary.json", ".csv"} {
		if strings.HasSuffix(name, suf) && (strings.Contains(name, ".result.") || strings.Contains(name, ".errors") || strings.HasSuffix(name, ".summary.json")) {
			return true
		}
	}
	return false
}

// reportFile downloads a report of a report folder: only report files.
func (s *Server) reportFile(w http.ResponseWriter, r *http.Request) {
	di, err := strconv.Atoi(r.PathValue("dir"))
	name := r.PathValue("name")
	dirs := s.reportDirs()
	if err != nil || di < 0 || di >= len(dirs) || !isReport(name) || strings.ContainsAny(name, `/\`) {
		s.fail(w, r, http.StatusNotFound, msg.New("web.file.gone"))
		return
	}
	serveFromRoot(w, r, dirs[di], name)
}

// resolve settles an unknown outcome, as `nxbatch journal resolve` does:
// ok (the ERP shows it) or failed (it does not; the next send sends it),
// with the note saying what was checked.
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) {
	key, as, note := r.FormValue("key"), r.FormValue("as"), strings.TrimSpace(r.FormValue("note"))
	k, err := journal.ParseKey(key)
	switch {
	case err != nil:
		s.fail(w, r, http.StatusBadRequest, msg.New("web.resolve.badkey"))
		return
	case as != string(journal.OK) && as != string(journal.Failed):
		s.fail(w, r, http.StatusBadRequest, msg.New("web.resolve.badas"))
		return
	case note == "" || len(note) > 2000:
		s.fail(w, r, http.StatusBadRequest, msg.New("web.resolve.nonote"))
		return
	}
	j, release, err := s.gate.acquire(0)
	if err != nil {
		if errLocked(err) {
			s.fail(w, r, http.StatusConflict, msg.New("web.resolve.locked"))
			return
		}
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.history.nojournal", msg.CauseOf(err)))
		return
	}
	err = j.Resolve(r.Context(), k, journal.Verdict{As: journal.State(as), Note: note})
	release()
	switch {
	case errors.Is(err, journal.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, msg.New("jrn.resolve.notfound"))
		return
	case errors.Is(err, journal.ErrWrongState):
		s.fail(w, r, http.StatusConflict, msg.New("jrn.resolve.notunknown"))
		return
	case err != nil:
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.history.nojournal", msg.CauseOf(err)))
		return
	}
	s.journalChanged()
	s.log.Info(s.logText("web.log.resolved"), "key", inert(key), "as", as)
	v := url.Values{"resuelta": {key}, "como": {as}}
	http.Redirect(w, r, "/history?"+v.Encode()+"#desconocidos", http.StatusSeeOther)
}
