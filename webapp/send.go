package webapp

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/schema"
)

// sendJob is one send of an upload: its progress, shared with the pages
// that follow it.
type sendJob struct {
	id     string
	cancel context.CancelFunc

	mu       sync.Mutex
	state    string // preparing, sending, stopping, done
	started  time.Time
	toSend   int
	done     int
	rows     map[pipeline.Status]int
	remain   map[schema.Kind]int // requests left, by kind, for the ETA
	said     msg.Message
	failed   msg.Message // the send could not start (journal, tenant)
	changed  chan struct{}
	finished time.Time
	// end is how the send ended, for the page's heading: done, stopped
	// (the stop button), cut (the API or the journal cut it short, or too
	// many rejections), failed (it could not start).
	end string
}

// update changes the job under its lock and wakes the pages following it.
func (j *sendJob) update(fn func()) {
	j.mu.Lock()
	fn()
	close(j.changed)
	j.changed = make(chan struct{})
	j.mu.Unlock()
}

// progress is what a progress page shows, as the events carry it.
type progress struct {
	State   string  `json:"state"`
	Heading string  `json:"heading"`
	Count   string  `json:"count"`
	ToSend  int     `json:"toSend"`
	Done    int     `json:"done"`
	Percent int     `json:"percent"`
	ETA     string  `json:"eta"`
	Counts  []count `json:"counts"`
	Said    string  `json:"said"`
	Result  string  `json:"result"`
}

// snapshot renders the job's state in language l; j.mu is held.
func (j *sendJob) snapshot(s *Server, l msg.Lang) progress {
	p := progress{State: j.state, ToSend: j.toSend, Done: j.done, Counts: counts(j.rows, l)}
	p.Heading = msg.New(j.headingKey(), s.nameOf(j.id)).In(l)
	p.Count = counted(msg.New("web.send.count", j.done, j.toSend), l).In(l)
	if j.toSend > 0 {
		p.Percent = j.done * 100 / j.toSend
	} else if j.state == "done" {
		p.Percent = 100
	}
	switch {
	case j.failed.Key != "":
		p.Said = j.failed.In(l)
	case j.said.Key != "":
		p.Said = msg.ForPage(j.said).In(l)
	}
	if j.state == "sending" {
		p.ETA = msg.New("web.send.eta", duration(j.eta(s, s.now()), l)).In(l)
	}
	if j.state == "done" {
		p.Result = "/u/" + j.id + "/result"
	}
	return p
}

// headingKey is the key of the progress page's heading: sending, stopping,
// or how the send ended; j.mu is held.
func (j *sendJob) headingKey() string {
	switch {
	case j.state == "stopping":
		return "web.send.title.stopping"
	case j.state != "done":
		return "web.send.title"
	}
	return "web.send.title." + j.end
}

// nameOf is the file name of upload id, as the page shows it.
func (s *Server) nameOf(id string) string {
	if u := s.uploads.get(id); u != nil {
		return u.meta.Name
	}
	return ""
}

// eta is how long the rest of the send will take: at least what the API's
// windows allow for the requests left of each kind, and at least the pace
// seen so far; j.mu is held.
func (j *sendJob) eta(s *Server, now time.Time) time.Duration {
	floor := pipeline.KindsLeastTime(j.remain, s.pacing())
	left := j.toSend - j.done
	if j.done >= 3 && left > 0 {
		pace := now.Sub(j.started) / time.Duration(j.done) * time.Duration(left)
		return max(floor, pace)
	}
	return floor
}

// sendingFor returns the send in progress of upload id, nil when none.
func (s *Server) sendingFor(id string) *sendJob {
	s.smu.Lock()
	defer s.smu.Unlock()
	if s.sending != nil && s.sending.id == id {
		return s.sending
	}
	return nil
}

// startSend opens the journal (refusing, clearly, while another process
// holds it) and starts sending the upload's current file in the
// background; the progress page follows it.
func (s *Server) startSend(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	l := lang(r)
	if ok, given := s.confirmed(r, u); !ok {
		s.refuseUnconfirmed(w, r, u, given)
		return
	}
	sf, ok, err := s.fileToSend(r.Context(), r, u)
	if !ok {
		// A fix came in between: not what was confirmed.
		s.refuseUnconfirmed(w, r, u, true)
		return
	}
	if err != nil {
		s.refuseSend(w, r, u, msg.New("web.send.noread", fileMsg{s, u, err}))
		return
	}
	started := false
	defer func() {
		if !started {
			sf.unpin()
		}
	}()
	s.smu.Lock()
	if s.sending != nil {
		busy := s.sending.id
		s.smu.Unlock()
		if busy == u.meta.ID {
			http.Redirect(w, r, "/u/"+u.meta.ID+"/send", http.StatusSeeOther)
			return
		}
		s.refuseSend(w, r, u, msg.New("web.send.busy"))
		return
	}
	if rj := s.reconciling; rj != nil {
		rj.mu.Lock()
		running := rj.running
		rj.mu.Unlock()
		if running {
			s.smu.Unlock()
			s.refuseSend(w, r, u, msg.New("web.send.reconciling"))
			return
		}
	}
	j, release, err := s.gate.acquire(s.cfg.Send.Wait)
	if err != nil {
		s.smu.Unlock()
		if errLocked(err) {
			s.refuseSend(w, r, u, msg.New("web.send.locked"))
			return
		}
		s.refuseSend(w, r, u, msg.New("web.send.nojournal", s.fileText(u, err, l)))
		return
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	job := &sendJob{id: u.meta.ID, cancel: cancel, state: "preparing", started: s.now(),
		rows: map[pipeline.Status]int{}, remain: map[schema.Kind]int{}, changed: make(chan struct{})}
	s.sending = job
	s.smu.Unlock()
	s.log.Info(s.logText("web.log.send.started"), "id", u.meta.ID)
	started = true
	go s.runSend(ctx, u, sf, job, j, release)
	http.Redirect(w, r, "/u/"+u.meta.ID+"/send", http.StatusSeeOther)
}

// sendFile is what a send reads: the upload's current file, holding every
// fix, kept in place (its fileMu held for reading) until the send has read
// it, and how it is read.
type sendFile struct {
	path  string
	load  pipeline.LoadOptions
	count runner.CountOptions
	u     *upload
	once  sync.Once
}

// unpin lets the file be replaced again (by a later fix's write).
func (sf *sendFile) unpin() { sf.once.Do(sf.u.fileMu.RUnlock) }

// fileToSend brings u's fixed version up to date with every fix (flush)
// and keeps it in place for the send, when r's confirmation still names u
// as it stands: ok is false when a fix (or another change) came in since.
func (s *Server) fileToSend(ctx context.Context, r *http.Request, u *upload) (sf *sendFile, ok bool, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !hmac.Equal([]byte(r.PostFormValue(confirmParam)), []byte(s.confirmToken(u))) {
		return nil, false, nil
	}
	if err := s.flush(ctx, u); err != nil {
		return nil, true, err
	}
	u.fileMu.RLock()
	return &sendFile{path: u.current(), load: s.loadOptions(u), count: runner.CountOptions{MissingAsZero: u.meta.ZeroMissing}, u: u}, true, nil
}

// refuseSend shows the import page with why the send did not start: a
// redirect, so that a reload does not try the send again.
func (s *Server) refuseSend(w http.ResponseWriter, r *http.Request, u *upload, why msg.Message) {
	if r.Header.Get("HX-Request") == "true" {
		s.fail(w, r, http.StatusConflict, why)
		return
	}
	s.redirectWith(w, r, "/u/"+u.meta.ID, notice{problem: why})
}

// runSend is the send itself: the same flow as `nxbatch run`
// (runner.Send), on a fresh reading of the upload's current file, with the
// journal and the tenant's lease held from the first request to the last
// outcome and let go after.
func (s *Server) runSend(ctx context.Context, u *upload, sf *sendFile, job *sendJob, j journal.Store, release func()) {
	defer job.cancel()
	defer sf.unpin()
	sess := s.cfg.Backend.Session
	started := s.now()
	finish := func(f *pipeline.File, res runner.Result, failed msg.Message) {
		sess.LetGo()
		release()
		job.update(func() {
			job.state, job.finished = "done", s.now()
			job.said, job.failed = res.Said, failed
			switch {
			case failed.Key != "":
				job.end = "failed"
			case res.Interrupted:
				job.end = "stopped"
			case res.Stopped() || res.MaxErrors:
				job.end = "cut"
			default:
				job.end = "done"
			}
			if f != nil && failed.Key == "" {
				job.rows, _ = f.Counts()
			}
		})
		s.smu.Lock()
		s.sending = nil
		s.smu.Unlock()
		s.lastJobs.Store(u.meta.ID, job)
		s.journalChanged()
	}
	path, lo, count := sf.path, sf.load, sf.count
	// The send's read takes its share of the memory budget until the
	// file is validated.
	parsed, err := s.parsing.acquire(ctx)
	if err != nil {
		finish(nil, runner.Result{}, msg.New("web.send.noread", fileMsg{s, u, err}))
		return
	}
	var readOnce sync.Once
	read := func() { readOnce.Do(parsed); sf.unpin() }
	defer read()
	base := filepath.Join(u.reportDir(), strings.TrimSuffix(u.meta.Name, filepath.Ext(u.meta.Name)))
	sent := runner.Send(ctx, sess, j, runner.SendOptions{Paths: []string{path}, Load: lo,
		Submit: pipeline.SubmitOptions{Workers: s.cfg.Send.Workers, Rate: s.cfg.Send.Rate, Timeout: s.cfg.Send.Timeout,
			MaxErrors: s.cfg.Send.MaxErrors, Log: s.log, Lang: msg.ES},
		// As run does, a catalog never fetched is waited for (the
		// parameter window), rather than sending ids nobody checked; a
		// catalog refused with 401 stops the send before anything leaves.
		CatalogTTL: s.cfg.CatalogTTL,
		Count:      count,
		Report:     pipeline.ReportOptions{Dir: u.reportDir(), Lang: msg.ES, Command: "serve", Tool: s.cfg.Tool, Started: started, Say: msg.ForPage},
		Names: func(files []*pipeline.File) map[string]pipeline.ReportName {
			names := map[string]pipeline.ReportName{}
			for _, f := range files {
				names[f.Path] = pipeline.ReportName{Base: base}
			}
			return names
		},
		Progress: &pageProgress{s: s, job: job, read: read}})
	var se *runner.StartError
	if errors.As(sent.NotStarted, &se) {
		switch {
		case se.Step == runner.StepTenant:
			me, _ := sess.Refusal(se.Err)
			finish(nil, runner.Result{}, msg.New("web.send.notenant", msg.CauseOf(me)))
		case se.Step == runner.StepLease && errLocked(se.Err):
			// A journal shared by several machines (PostgreSQL) sends for
			// a tenant only under its lease.
			finish(nil, runner.Result{}, msg.New("web.send.leased", msg.CauseOf(se.Err)))
		default:
			finish(nil, runner.Result{}, msg.New("web.send.nojournal", msg.CauseOf(se.Err)))
		}
		return
	}
	if len(sent.LoadErrors) > 0 {
		finish(nil, runner.Result{}, msg.New("web.send.noread", fileMsg{s, u, sent.LoadErrors[0].Err}))
		return
	}
	f := sent.Files[0]
	res := sent.Result
	if res.ToSend == 0 && !res.Stopped() {
		rows, _ := f.Counts()
		res.Said = nothingToSend(rows)
	}
	if sent.ReportErr != nil {
		res.Said = msg.New("web.send.noreports", msg.CauseOf(sent.ReportErr))
	}
	if err := s.copyReports(u.reportDir(), listReports(u.reportDir())); err != nil {
		s.log.Warn(s.logText("web.log.settings.copy"), "id", u.meta.ID, "err", err.Error())
		res.Said = msg.New("web.settings.reportdir.copyfailed", s.settings().ReportDir, msg.CauseOf(err))
	}
	rows, _ := f.Counts()
	rec := sendRecord{Started: started, Finished: s.now(), Sent: res.Sent, Rows: map[string]int{}}
	if res.Said.Key != "" {
		said := msg.ForPage(res.Said)
		rec.Said = map[msg.Lang]string{msg.ES: said.In(msg.ES), msg.EN: said.In(msg.EN)}
	}
	for st, n := range rows {
		rec.Rows[st.String()] = n
	}
	u.mu.Lock()
	u.last = f
	u.reports = listReports(u.reportDir())
	u.meta.Sends = append(u.meta.Sends, rec)
	_ = u.saveMeta()
	u.mu.Unlock()
	s.log.Info(s.logText("web.log.send.finished"), "id", u.meta.ID, "sent", res.Sent)
	finish(f, res, msg.Message{})
}

// pageProgress is the page's live view of a send (runner.Progress): the
// job its progress page follows.
type pageProgress struct {
	s   *Server
	job *sendJob
	f   *pipeline.File
	// read gives back the read's share of the memory budget.
	read func()
}

// Note is said on the command line only: the progress page shows counts.
func (p *pageProgress) Note(msg.Message) {}

// Validated keeps the upload's file, whose rows the job counts.
func (p *pageProgress) Validated(f *pipeline.File) {
	p.f = f
	if p.read != nil {
		p.read() // the read is over: its memory share goes back
	}
}

// Planned starts the job's counts: every row's status, the requests left
// of each kind for the ETA.
func (p *pageProgress) Planned(toSend int, _ time.Duration) {
	if p.f == nil {
		return // the file could not be read: runSend says so
	}
	rows, _ := p.f.Counts()
	remain := pendingByKind(p.f, toSend)
	p.job.update(func() {
		p.job.state, p.job.toSend, p.job.rows, p.job.remain, p.job.started = "sending", toSend, rows, remain, p.s.now()
	})
}

// Settled moves the rows of one send from pending to their status.
func (p *pageProgress) Settled(done int, st pipeline.Settled) {
	p.s.journalChanged()
	p.job.update(func() {
		for status, n := range st.Rows {
			p.job.rows[pipeline.StatusPending] -= n
			p.job.rows[status] += n
		}
		p.job.remain[st.Kind] = max(0, p.job.remain[st.Kind]-1)
		p.job.done = max(p.job.done, done)
	})
}

// pendingByKind counts the requests left to send of each kind: a sale or a
// presale is one request, and the stock movements are what is left of
// toSend.
func pendingByKind(f *pipeline.File, toSend int) map[schema.Kind]int {
	out := map[schema.Kind]int{}
	others := 0
	for _, sh := range f.Sheets {
		if sh.Kind == schema.Stock {
			continue
		}
		for _, r := range sh.Requests {
			if r.Status == pipeline.StatusPending {
				out[sh.Kind]++
				others++
			}
		}
	}
	out[schema.Stock] = max(0, toSend-others)
	return out
}

// nothingToSend says why a send sent nothing: every row was sent before,
// waits for a check in the ERP, is in conflict, or has errors.
func nothingToSend(rows map[pipeline.Status]int) msg.Message {
	var parts []any
	for _, st := range pipeline.AllStatuses {
		if n := rows[st]; n > 0 {
			parts = append(parts, msg.Count("st.count."+st.String(), n))
		}
	}
	return msg.New("web.send.nothing", joinMessages(parts))
}

// joinMessages renders messages joined by commas, per language.
type joinMessages []any

// In renders the list in language l.
func (j joinMessages) In(l msg.Lang) string {
	parts := make([]string, len(j))
	for i, p := range j {
		parts[i] = counted(p.(msg.Message), l).In(l)
	}
	return strings.Join(parts, ", ")
}

// progressPage follows a send: its progress bar, counts, ETA and the stop
// button, updated by server-sent events (a refresh without script).
type progressData struct {
	base
	ID, Name string
	P        progress
	Running  bool
}

func (s *Server) progressPage(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	job := s.jobOf(u.meta.ID)
	if job == nil {
		http.Redirect(w, r, "/u/"+u.meta.ID, http.StatusSeeOther)
		return
	}
	job.mu.Lock()
	p := job.snapshot(s, lang(r))
	job.mu.Unlock()
	job.mu.Lock()
	title := job.headingKey()
	job.mu.Unlock()
	s.render(w, r, http.StatusOK, "progress", &progressData{base: s.base(r, title, u.meta.Name),
		ID: u.meta.ID, Name: u.meta.Name, P: p, Running: p.State != "done"})
}

// jobOf is the send in progress of upload id, or its last one.
func (s *Server) jobOf(id string) *sendJob {
	if j := s.sendingFor(id); j != nil {
		return j
	}
	if v, ok := s.lastJobs.Load(id); ok {
		return v.(*sendJob)
	}
	return nil
}

// events streams a send's progress as server-sent events: a "progress"
// event at every change (at most five a second), "done" at the end.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	job := s.jobOf(u.meta.ID)
	if job == nil {
		http.NotFound(w, r)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	l := lang(r)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		job.mu.Lock()
		p := job.snapshot(s, l)
		changed := job.changed
		job.mu.Unlock()
		b, _ := json.Marshal(p)
		event := "progress"
		if p.State == "done" {
			event = "done"
		}
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return
		}
		fl.Flush()
		if event == "done" {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		case <-time.After(15 * time.Second):
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// stopSend stops a send as Ctrl-C stops a run: nothing more is taken, what
// is in flight is settled and journaled, the rest stays pending.
func (s *Server) stopSend(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	if job := s.sendingFor(u.meta.ID); job != nil {
		job.update(func() {
			if job.state != "done" {
				job.state = "stopping"
			}
		})
		job.cancel()
		s.log.Info(s.logText("web.log.send.stopped"), "id", u.meta.ID)
	}
	if r.Header.Get("HX-Request") == "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, "/u/"+u.meta.ID+"/send", http.StatusSeeOther)
}

// resultData is the result page: every row of the last send with its
// status, message and ids, and the reports to download.
type resultData struct {
	base
	ID, Name string
	Said     string
	Counts   []count
	Files    []download
	Table    previewData
	HasTable bool
	Sheets   []sheetTab
	// Journal says what the journal knows was sent; NoRecord that the
	// send's own record is missing (the server stopped during it);
	// Unknowns how many outcomes are left to settle.
	Journal  string
	NoRecord bool
	Unknowns int
}

// download is one file to download.
type download struct {
	Name, URL, What string
}

func (s *Server) resultPage(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	l := lang(r)
	u.mu.Lock()
	// After a restart only the reports are left (they hold every row with
	// its outcome): the page offers them without the table.
	f := u.last
	reports := append([]string(nil), u.reports...)
	var said string
	if n := len(u.meta.Sends); n > 0 {
		said = u.meta.Sends[n-1].Said[l]
	}
	u.mu.Unlock()
	// A server stopped in the middle of a send kept neither the file nor
	// the reports of it: the journal says what was sent, and the page
	// stays (the tab that followed the send lands here when the server
	// is back).
	so := s.sentOf(u)
	if f == nil && len(reports) == 0 && so.empty() {
		// Never sent: nothing to show but the import.
		http.Redirect(w, r, "/u/"+u.meta.ID, http.StatusSeeOther)
		return
	}
	q := parseQuery(r.URL.Query())
	d := &resultData{base: s.base(r, "web.result.title", u.meta.Name), ID: u.meta.ID, Name: u.meta.Name, Said: said,
		Journal: so.line(l), NoRecord: f == nil && len(reports) == 0, Unknowns: so.unknowns()}
	if f != nil {
		attn := make([][]int32, len(f.Sheets))
		for si, sh := range f.Sheets {
			for i := range sh.Rows() {
				if pipeline.NeedsAttention(sh.RowStatus(i)) {
					attn[si] = append(attn[si], int32(i))
				}
			}
		}
		t := s.tableData(l, u.meta.ID, f, attn, 0, q, "", true)
		if !so.empty() {
			// A row with errors here, fixed and sent from its errors
			// file (linked by its id), reads so: the journal says it.
			marks := so.rowMarks(f, l)
			marked(&t, marks[t.Sheet], l)
			rows, _ := f.Counts()
			t.Counts = counts(recount(rows, marks), l)
		}
		if r.Header.Get("HX-Request") == "true" {
			s.renderFragment(w, "result", "preview", t)
			return
		}
		d.Table, d.Counts, d.HasTable = t, t.Counts, true
	}
	for _, name := range reports {
		d.Files = append(d.Files, download{Name: name, URL: "/u/" + u.meta.ID + "/files/" + name, What: reportWhat(name, l)})
	}
	if f != nil && len(f.Sheets) > 1 {
		for i, sh := range f.Sheets {
			tq := query{Sheet: i, Page: 1}
			d.Sheets = append(d.Sheets, sheetTab{Index: i, Name: sh.Info.Name, Selected: i == q.Sheet, URL: "/u/" + u.meta.ID + "/result?" + tq.values().Encode()})
		}
	}
	s.render(w, r, http.StatusOK, "result", d)
}

// reportWhat says what a report file holds.
func reportWhat(name string, l msg.Lang) string {
	switch {
	case strings.HasSuffix(name, ".result.xlsx"):
		return msg.New("web.file.resultxlsx").In(l)
	case strings.HasSuffix(name, ".result.csv"):
		return msg.New("web.file.resultcsv").In(l)
	case strings.Contains(name, ".errors"):
		return msg.New("web.file.errors").In(l)
	case strings.HasSuffix(name, ".summary.json"):
		return msg.New("web.file.summary").In(l)
	}
	return ""
}

// uploadFile downloads one of the upload's reports: only a name listed in
// its reports folder, opened inside that folder.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	name := r.PathValue("name")
	u.mu.Lock()
	ok := false
	for _, n := range u.reports {
		ok = ok || n == name
	}
	u.mu.Unlock()
	if !ok {
		s.fail(w, r, http.StatusNotFound, msg.New("web.file.gone"))
		return
	}
	if strings.HasSuffix(name, ".errors.csv") {
		// The errors file carries the import's id: uploaded again, it
		// is linked to this one whatever its name.
		serveWithOrigin(w, r, filepath.Join(u.reportDir(), name), name, u.meta.ID)
		return
	}
	serveFromRoot(w, r, u.reportDir(), name)
}

// serveFromRoot sends file name of dir, opened through os.Root so that no
// name can reach outside dir.
func serveFromRoot(w http.ResponseWriter, r *http.Request, dir, name string) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	serveOpened(w, r, f, name)
}

// sendLine says what one send did, for the import page and history.
func sendLine(sr sendRecord, now time.Time, l msg.Lang) string {
	return msg.New("web.send.line", ago(now, sr.Finished, l), counted(msg.Count("n.requests", sr.Sent), l), countsText(sr.Rows, l)).In(l)
}

// countsText says how many rows ended in each status, from the status
// codes a send's record or a summary.json keeps ("ok": 3).
func countsText(byCode map[string]int, l msg.Lang) string {
	rows := map[pipeline.Status]int{}
	for code, n := range byCode {
		if st, ok := pipeline.ParseStatus(code); ok {
			rows[st] = n
		}
	}
	var parts []string
	for _, c := range counts(rows, l) {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, ", ")
}

// Close stops a send in progress as Ctrl-C stops a run and waits, until
// ctx ends, for it to settle what is in flight and write its reports, and
// for the reads and writes in the background (warmUp, the fixed versions
// not written yet) to end.
func (s *Server) Close(ctx context.Context) {
	s.stopOnce.Do(func() { close(s.stop) })
	defer func() {
		done := make(chan struct{})
		go func() { s.warming.Wait(); s.writing.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
		}
	}()
	s.smu.Lock()
	job := s.sending
	s.smu.Unlock()
	if job == nil {
		return
	}
	job.cancel()
	for {
		job.mu.Lock()
		state, changed := job.state, job.changed
		job.mu.Unlock()
		if state == "done" {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}
