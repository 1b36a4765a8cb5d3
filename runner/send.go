package runner

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/validation"
)

// Progress follows a send as it goes: the command line's plan, notes and
// bar, the page's live progress. Its methods are called from the send's
// goroutines; Settled from the workers' concurrently.
type Progress interface {
	// Note is something the user hears on the way: a catalog waited for,
	// fetched or left unchecked.
	Note(m msg.Message)
	// Validated is called for each file once it is validated against the
	// catalogs, before anything is sent.
	Validated(f *pipeline.File)
	// Planned is called once the journal has said what is left: how many
	// requests will be sent and the least time the API's windows allow for
	// them, before the first one leaves.
	Planned(toSend int, least time.Duration)
	// Settled is called as each request is settled (or left pending by a
	// stop): how many are settled so far, and what its rows became.
	Settled(done int, st pipeline.Settled)
}

// SendOptions configure Send.
type SendOptions struct {
	// Paths are the files to send, read with Load; LoadFailed, when set,
	// is told of each file that cannot be read as it fails.
	Paths      []string
	Load       pipeline.LoadOptions
	LoadFailed func(path string, err error)
	// Submit is how to send; the tenant, the environment and the time
	// scale are the Session's, and what the journal keeps with each attempt
	// is what reconciliation narrows by (reconcile.IntentFacts).
	Submit pipeline.SubmitOptions
	// CatalogTTL is how old a cached catalog may be before it is fetched
	// again.
	CatalogTTL time.Duration
	// WaitTenant waits for the parameter window when the tenant must be
	// learned (GET /config) instead of failing: a command waits, the page
	// does not.
	WaitTenant bool
	// Report is how the reports are written; their API is the Session's.
	Report pipeline.ReportOptions
	// Names chooses the reports' names for the files loaded; nil is
	// pipeline.ReportNames in Report.Dir.
	Names func(files []*pipeline.File) map[string]pipeline.ReportName
	// ReportUnstarted writes the reports, every row pending and saying
	// why, even when the tenant could not be learned (a cron job's reports
	// say why nothing was sent); without it only a send that started
	// writes them (the page says why on its progress page).
	ReportUnstarted bool
	// AfterSubmit, when set, is called once the submit is over and before
	// the reports are written (not when the send could not start): the
	// command line ends its bar there, and run --reconcile settles the
	// unknowns of a send that was not stopped (ReconcileAfterSend).
	AfterSubmit func(ctx context.Context, sent *Sent)
	// Progress follows the send; nil follows nothing.
	Progress Progress
	// Count is how inventory counts become movements.
	Count CountOptions
}

// Step is a step of Send that could keep the send from starting.
type Step string

// The steps of Send that can fail before anything is sent.
const (
	StepTenant  Step = "tenant"  // the tenant could not be learned
	StepLease   Step = "lease"   // the tenant's lease is held elsewhere, or could not be taken
	StepJournal Step = "journal" // the journal could not be asked what is left
)

// StartError is a send that could not start: nothing was sent.
type StartError struct {
	Step Step
	Err  error
}

// Error names the step and the cause.
func (e *StartError) Error() string { return "send: " + string(e.Step) + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// LoadError is a file that could not be read: it is not sent.
type LoadError struct {
	Path string
	Err  error
}

// Sent is how Send ended.
type Sent struct {
	Result
	// Files are the files read, with every row's outcome.
	Files []*pipeline.File
	// LoadErrors are the files that could not be read.
	LoadErrors []LoadError
	// NotStarted is why the send could not start (*StartError); nil when
	// it started.
	NotStarted error
	// Written are the reports written; ReportErr the first file whose
	// reports could not be (*ReportError).
	Written   []Written
	ReportErr error
}

// Send is the one send of `nxbatch run` and of the page: read the files,
// learn the tenant, take its lease in j, load the catalogs, validate,
// ask the journal what is left, submit it with the API's pacing, and write
// every file's reports with the rows not sent marked pending and why.
// Whatever stops it after the tenant is known (a refused token, an API out
// of reach, an interrupt), the reports are written. The lease is the
// Session's: let go by Session.LetGo or Close.
func Send(ctx context.Context, s *Session, j journal.Store, o SendOptions) Sent {
	p := o.Progress
	if p == nil {
		p = quiet{}
	}
	var out Sent
	for _, path := range o.Paths {
		f, err := pipeline.Load(path, o.Load)
		if err != nil {
			out.LoadErrors = append(out.LoadErrors, LoadError{Path: path, Err: err})
			if o.LoadFailed != nil {
				o.LoadFailed(path, err)
			}
			continue
		}
		out.Files = append(out.Files, f)
	}
	if err := s.Identify(ctx, j, o.WaitTenant); err != nil {
		// Without knowing the tenant the journal cannot be asked what was
		// sent: nothing is sent.
		out.NotStarted = &StartError{Step: StepTenant, Err: err}
		if o.ReportUnstarted {
			out.stopBefore(s.Unsent(err))
			out.report(s, o)
		}
		return out
	}
	if err := s.Lease(ctx, j); err != nil {
		out.NotStarted = &StartError{Step: StepLease, Err: err}
		// Another run has this tenant: its reports are not ours to
		// overwrite (as when a bbolt journal is locked at the start).
		if o.ReportUnstarted && !errors.Is(err, journal.ErrLocked) {
			out.stopBefore(s.Unsent(err))
			out.report(s, o)
		}
		return out
	}

	// A catalog never fetched for this tenant is waited for, not skipped:
	// without it ids nobody checked would be sent.
	cat, notes, err := s.LoadCatalogs(ctx, j, Need(out.Files), o.CatalogTTL, func(n catalog.Name, next time.Time) {
		key := "run.catalogwait"
		if n == catalog.Articulos {
			key = "run.articuloswait"
		}
		p.Note(msg.New(key, string(n), msg.Duration(time.Until(next)), next.Format("15:04:05")))
	})
	for _, n := range notes {
		p.Note(n)
	}
	if errors.Is(err, apiclient.ErrUnauthorized) {
		// The token was refused reading a catalog: nothing else would be
		// accepted with it either. Nothing is sent, and every row says why.
		out.Aborted = true
		out.stopBefore(msg.New("sub.unauthorized"))
		out.Said = msg.New("sub.unauthorized")
		out.report(s, o)
		return out
	}
	if err != nil {
		cat = &validation.Catalog{}
		p.Note(msg.New("cmd.nocatalog", err.Error()))
	}
	for _, f := range out.Files {
		f.Validate(cat, true)
		p.Validated(f)
	}

	so := o.Submit
	so.Tenant, so.Env, so.TimeScale = s.Tenant(), s.Env(), s.TimeScale()
	if so.Facts == nil {
		so.Facts = reconcile.IntentFacts
	}
	if pipeline.HasCounts(out.Files) {
		s.prepareCounts(ctx, j, out.Files, so, o.Count, p)
	}
	var done atomic.Int64
	so.Settled = func(st pipeline.Settled) { p.Settled(int(done.Add(1)), st) }
	res, err := Submit(ctx, out.Files, s.Client(), j, Options{Submit: so, Pacing: s.Pacing(so.Rate), BaseURL: s.BaseURL(),
		Planned: func(toSend int, least time.Duration) func(int) {
			p.Planned(toSend, least)
			return nil
		}})
	if err != nil {
		out.NotStarted = &StartError{Step: StepJournal, Err: err}
		return out
	}
	out.Result = res
	if o.AfterSubmit != nil {
		o.AfterSubmit(ctx, &out)
	}
	out.report(s, o)
	return out
}

// stopBefore validates the files without catalogs when the send stops
// before validation (the reports show every row's own errors) and marks
// why nothing was sent.
func (out *Sent) stopBefore(why msg.Message) {
	for _, f := range out.Files {
		f.Validate(nil, false)
	}
	out.Why = why
}

// report writes the reports of every file read.
func (out *Sent) report(s *Session, o SendOptions) {
	ro := ReportOptions{ReportOptions: o.Report}
	ro.API = s.API()
	if o.Names != nil {
		ro.Names = o.Names(out.Files)
	}
	out.Written, out.ReportErr = Report(out.Files, out.Why, ro)
}

// quiet follows nothing.
type quiet struct{}

func (quiet) Note(msg.Message)              {}
func (quiet) Validated(*pipeline.File)      {}
func (quiet) Planned(int, time.Duration)    {}
func (quiet) Settled(int, pipeline.Settled) {}
