package webapp

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/sendrules"
)

// reconcileJob is the history's "Conciliar con el ERP": the same
// reconciliation as `nxbatch reconcile` (runner.Reconcile), run in the
// background (its reads wait for the API's windows), whose plan, waits and
// decisions the history shows.
type reconcileJob struct {
	mu       sync.Mutex
	running  bool
	started  time.Time
	finished time.Time
	plan     []msg.Message
	waiting  msg.Message
	lines    []msg.Message // decisions, what stays unknown, warnings
	summary  msg.Message
	failed   msg.Message
}

// reconcileView is the job as the history shows it.
type reconcileView struct {
	Running bool
	When    string
	Plan    []string
	Waiting string
	Lines   []string
	Summary string
	Failed  string
}

// view renders the job in language l; nil when none ran.
func (rj *reconcileJob) view(now time.Time, l msg.Lang) *reconcileView {
	if rj == nil {
		return nil
	}
	rj.mu.Lock()
	defer rj.mu.Unlock()
	v := &reconcileView{Running: rj.running}
	if !rj.finished.IsZero() {
		v.When = ago(now, rj.finished, l)
	}
	for _, m := range rj.plan {
		v.Plan = append(v.Plan, msg.ForPage(m).In(l))
	}
	if rj.running && rj.waiting.Key != "" {
		v.Waiting = rj.waiting.In(l)
	}
	for _, m := range rj.lines {
		v.Lines = append(v.Lines, msg.ForPage(m).In(l))
	}
	if rj.summary.Key != "" {
		v.Summary = rj.summary.In(l)
	}
	if rj.failed.Key != "" {
		v.Failed = msg.ForPage(rj.failed).In(l)
	}
	return v
}

// Holding is told how long a send's key hold is waited out (not here:
// the page reconciles after the key hold of any send has passed).
func (rj *reconcileJob) Holding(time.Duration) {}

// Waiting says a window is waited for.
func (rj *reconcileJob) Waiting(w sendrules.Window, d time.Duration) {
	rj.mu.Lock()
	rj.waiting = msg.New("rec.waiting", msg.Duration(d), string(w))
	rj.mu.Unlock()
}

// Planned keeps what will be read.
func (rj *reconcileJob) Planned(p *reconcile.Plan) {
	rj.mu.Lock()
	rj.plan = p.Messages()
	rj.mu.Unlock()
}

// startReconcile runs the reconciliation of the unknown outcomes in the
// background and goes back to the history, which follows it. It is
// refused while a send is in progress (its unknowns are not settled yet)
// or another process holds the journal.
func (s *Server) startReconcile(w http.ResponseWriter, r *http.Request) {
	s.smu.Lock()
	defer s.smu.Unlock()
	if s.sending != nil {
		s.fail(w, r, http.StatusConflict, msg.New("web.reconcile.sending"))
		return
	}
	if s.reconciling != nil {
		s.reconciling.mu.Lock()
		running := s.reconciling.running
		s.reconciling.mu.Unlock()
		if running {
			http.Redirect(w, r, "/history#conciliar", http.StatusSeeOther)
			return
		}
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
	rj := &reconcileJob{running: true, started: s.now()}
	s.reconciling = rj
	s.log.Info(s.logText("web.log.reconcile.started"))
	go s.runReconcile(context.WithoutCancel(r.Context()), rj, j, release)
	http.Redirect(w, r, "/history#conciliar", http.StatusSeeOther)
}

// runReconcile is the reconciliation itself, with the journal held from
// the plan to the last decision written.
func (s *Server) runReconcile(ctx context.Context, rj *reconcileJob, j journal.Store, release func()) {
	sess := s.cfg.Backend.Session
	var (
		rec runner.Reconciled
		err error
	)
	if _, err = s.tenantKey(ctx, j); err == nil {
		rec, err = runner.Reconcile(ctx, sess, j, runner.ReconcileOptions{
			Options:    reconcile.Options{Timeout: s.cfg.Send.Timeout, Now: s.now},
			CatalogTTL: s.cfg.CatalogTTL, Progress: rj})
	}
	release()
	s.journalChanged()
	rj.mu.Lock()
	defer rj.mu.Unlock()
	rj.running, rj.finished = false, s.now()
	res := rec.Result
	switch {
	case err != nil:
		rj.failed = msg.New("web.reconcile.failed", msg.CauseOf(err))
	case res == nil:
		rj.summary = msg.New("rec.none")
	default:
		ok, failed := 0, 0
		for _, d := range res.Decisions {
			as := msg.New("web.reconcile.as.failed")
			if d.Verdict.As == journal.OK {
				ok++
				as = msg.New("web.reconcile.as.ok")
			} else {
				failed++
			}
			rj.lines = append(rj.lines, msg.New("rec.decided", d.Key.String(), as, d.Why))
		}
		for _, u := range res.Undecided {
			rj.lines = append(rj.lines, msg.New("rec.left", u.Key.String(), u.Why))
		}
		for _, st := range res.Stock {
			rj.lines = append(rj.lines, msg.New("web.reconcile.stock", st.Key.String()))
		}
		rj.lines = append(rj.lines, res.Warnings...)
		rj.summary = msg.New("rec.summary", len(res.Decisions), ok, failed, len(res.Undecided)+len(res.Stock))
		if res.Unauthorized {
			rj.failed = msg.New("web.reconcile.unauthorized")
		}
	}
	s.log.Info(s.logText("web.log.reconcile.finished"), "written", rec.Written)
}
