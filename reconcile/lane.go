package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/sendrules"
)

// lane performs the reads of one rate window one at a time, each when the
// window allows: it waits rather than trips the window, and persists the
// window's next allowed time in the journal before the read leaves (until
// its answer the read may arrive as late as its timeout) and again once it
// answers (counted from the answer: the API counts from the arrival, which
// lies before it). Another process, or this one after a kill, reads the
// persisted time and waits too.
type lane struct {
	w       sendrules.Window
	j       Journal
	tenant  string
	o       Options
	pacer   *sendrules.Pacer
	waiting func(sendrules.Window, time.Duration)

	mu          sync.Mutex
	reads       int // requests put on the wire, refused ones included
	refused     int // of them, refused for the window (403 Debe esperar)
	first, last time.Time
	startWait   time.Duration // how long the window was still closed when first asked
	asked       bool
}

// errJournal marks a failure to persist a window: the reads stop, because
// another run could no longer see the window.
type errJournal struct{ err error }

func (e errJournal) Error() string { return "reconcile: persist the API's window: " + e.err.Error() }
func (e errJournal) Unwrap() error { return e.err }

func newLane(w sendrules.Window, j Journal, o Options, next time.Time) *lane {
	return &lane{w: w, j: j, tenant: o.Tenant, o: o, waiting: o.Waiting,
		pacer: sendrules.NewPacer(o.window(w), o.Timeout, next, o.Now)}
}

// do performs read in the window. A refusal for the window is waited out
// and asked again, up to MaxRefusals times; it returns read's last error,
// an errJournal, or ctx's error.
func (l *lane) do(ctx context.Context, read func(context.Context) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for refusals := 0; ; refusals++ {
		now := l.o.Now()
		wait := l.pacer.Next().Sub(now)
		if !l.asked {
			l.asked, l.startWait = true, max(wait, 0)
		}
		if wait > time.Second && l.waiting != nil {
			l.waiting(l.w, wait)
		}
		if err := l.pacer.Wait(ctx); err != nil {
			return err
		}
		if err := l.j.SetNextAllowed(l.tenant, string(l.w), l.pacer.Leave()); err != nil {
			l.pacer.NotSent()
			return errJournal{err}
		}
		if l.first.IsZero() {
			l.first = l.o.Now()
		}
		l.reads++
		err := read(ctx)
		var we *apiclient.WaitError
		var serverWait time.Duration
		if errors.As(err, &we) {
			l.refused++
			serverWait = sendrules.Scale(we.Wait, l.o.Scale)
		}
		next := l.pacer.Answered(serverWait)
		l.last = l.o.Now()
		if perr := l.j.SetNextAllowed(l.tenant, string(l.w), next); perr != nil {
			return errJournal{perr}
		}
		if we != nil && refusals < l.o.MaxRefusals {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", l.w, err)
		}
		return nil
	}
}

// stats returns what the lane did.
func (l *lane) stats() (reads, refused int, first, last time.Time, startWait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reads, l.refused, l.first, l.last, l.startWait
}
