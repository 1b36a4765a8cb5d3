// Package runner is the application layer of every command and the page.
// Session is the connection: the token, the one API client (so that
// --allow-insecure-http means the same everywhere), the tenant, its lease,
// its catalogs and the journal, opened when needed. Send is the one send:
// read the files, learn the tenant, take its lease, load the catalogs,
// validate, ask the journal what is left, submit it with the API's pacing
// and the one classification of outcomes, say why sending stopped when it
// did, and write every file's reports with the rows not sent marked
// pending. Reconcile settles unknown outcomes from what the API shows.
// `nxbatch run` and the web page's send both call it, so that a file sent
// from a terminal, a cron job or a browser goes through the same journal,
// the same windows and the same reports; the command line keeps flags,
// printing and exit codes, the page its jobs.
package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
)

// Need returns the catalogs the files' kinds check ids against: sales,
// orders and invoicings need /medios-pago, stock needs /motivos; the lines
// of sales, orders and stock the article catalog.
func Need(files []*pipeline.File) catalog.Need {
	var n catalog.Need
	for _, f := range files {
		for _, sh := range f.Sheets {
			if sh.Kind == schema.Stock {
				n.Motivos = true
			} else {
				n.MediosPago = true
			}
			if sh.Kind == schema.Stock || sh.Kind == schema.Venta || sh.Kind == schema.Pedido {
				n.Articulos = true
			}
		}
	}
	return n
}

// Options configure Submit.
type Options struct {
	Submit pipeline.SubmitOptions
	// Pacing is what the API's limits allow, for the least-time estimate.
	Pacing pipeline.Pacing
	// BaseURL names the API in the sentence said when it cannot be reached.
	BaseURL string
	// Planned, when set, is called once the journal has said what is left:
	// how many requests will be sent and the least time the API's windows
	// allow for them, before the first one leaves. What it returns, when
	// not nil, is called as each request is settled (a progress bar sized
	// by toSend).
	Planned func(toSend int, least time.Duration) (progress func(done int))
}

// Result is how a send ended.
type Result struct {
	pipeline.SubmitResult
	// ToSend is how many requests the journal left to send.
	ToSend int
	// Why is what the rows left unsent say; zero when nothing stopped the
	// send early.
	Why msg.Message
	// Said is the sentence that tells the user why sending stopped (a
	// refused token, an API out of reach, an interrupt, too many
	// rejections in a row); zero when it was not stopped.
	Said msg.Message
}

// Stopped reports whether the send was cut short in a way that makes the
// whole run fail (a journal failure, a 401, an unreachable API, an
// interrupt); --max-errors stops sending but is the rows' problem.
func (r Result) Stopped() bool {
	return r.Err != nil || r.Aborted || r.Unreachable || r.Interrupted
}

// Submit asks the journal what is left of files (pipeline.Prepare: ok rows
// skipped, unknown ones kept, conflicts told), then submits it. The error
// is the journal's, when it could not be read: nothing was sent. Send is
// the whole flow around it.
func Submit(ctx context.Context, files []*pipeline.File, s pipeline.Sender, j pipeline.Journal, o Options) (Result, error) {
	// Read even when the run is already stopping: what the journal says
	// (skipped, unknown, pending) is what the reports of a stopped run tell.
	toSend, err := pipeline.Prepare(context.WithoutCancel(ctx), files, j, o.Submit)
	if err != nil {
		return Result{}, err
	}
	if o.Planned != nil {
		if p := o.Planned(toSend, pipeline.RunLeastTime(files, o.Pacing)); p != nil {
			o.Submit.Progress = p
		}
	}
	res := Result{ToSend: toSend}
	if toSend > 0 {
		res.SubmitResult = pipeline.Submit(ctx, files, s, j, o.Submit)
	} else if ctx.Err() != nil {
		res.Interrupted = true
	}
	switch {
	case res.Err != nil:
		res.Why = msg.New("sub.pending.journal")
		res.Said = msg.New("sub.pending.journal")
	case res.Aborted:
		res.Why, res.Said = msg.New("sub.unauthorized"), msg.New("sub.unauthorized")
	case res.Unreachable:
		res.Why = msg.New("sub.unreachable", o.BaseURL, msg.CauseOf(res.Cause))
		res.Said = msg.New("conn.unreachable", o.BaseURL, msg.CauseOf(res.Cause))
	case res.Interrupted:
		res.Why, res.Said = msg.New("sub.pending"), msg.New("run.interrupted")
	case res.MaxErrors:
		res.Why = msg.New("sub.pending.maxerrors", o.Submit.MaxErrors)
		res.Said = msg.New("run.maxerrors", o.Submit.MaxErrors)
	}
	return res, nil
}

// ReportOptions are pipeline.ReportOptions for every file of a send; the
// report names are chosen for all of them together.
type ReportOptions struct {
	pipeline.ReportOptions
	// Names are the reports' names by input path (pipeline.ReportNames);
	// nil chooses them for these files.
	Names map[string]pipeline.ReportName
}

// Written is one file's reports and its rows by status.
type Written struct {
	File  *pipeline.File
	Paths pipeline.ReportPaths
	Rows  map[pipeline.Status]int
}

// ReportError is a file whose reports could not be written.
type ReportError struct {
	Path string
	Err  error
}

// Error names the file and the cause.
func (e *ReportError) Error() string { return fmt.Sprintf("reports of %s: %v", e.Path, e.Err) }

// Unwrap returns the cause, for errors.Is and CauseText.
func (e *ReportError) Unwrap() error { return e.Err }

// Report marks what was not sent as pending (why says why; zero for the
// plain "not sent") and writes every file's reports. A file whose reports
// cannot be written does not keep the others from theirs: the error is the
// first such file's, and the files written are returned all the same.
func Report(files []*pipeline.File, why msg.Message, o ReportOptions) ([]Written, error) {
	names := o.Names
	if names == nil {
		paths := make([]string, len(files))
		for i, f := range files {
			paths[i] = f.Path
		}
		names = pipeline.ReportNames(paths, o.Dir)
	}
	out := make([]Written, 0, len(files))
	var first error
	for _, f := range files {
		f.NotSent(why)
		ro := o.ReportOptions
		ro.Stopped, ro.Name = why, names[f.Path]
		paths, err := f.WriteReports(ro)
		if err != nil {
			if first == nil {
				first = &ReportError{Path: f.Path, Err: err}
			}
			continue
		}
		rows, _ := f.Counts()
		out = append(out, Written{File: f, Paths: paths, Rows: rows})
	}
	return out, first
}
