package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/sendrules"
)

// lane performs the reads of one rate window one at a time, each when the
// window allows: it waits rather than trips the window, and reserves the
// window in the journal before the read leaves (until its answer the read
// may arrive as late as its timeout) and counts it again once it answers
// (counted from the answer: the API counts from the arrival, which lies
// before it), through a sendrules.Paced. Another process, or this one
// after a kill, reads the persisted time and waits too.
type lane struct {
	w       sendrules.Window
	j       Journal
	tenant  string
	o       Options
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

// newLane returns the lane of window w. Its persisted time is asked of the
// journal before each read (Reserve), not taken from the plan.
func newLane(w sendrules.Window, j Journal, o Options) *lane {
	return &lane{w: w, j: j, tenant: o.Tenant, o: o, waiting: o.Waiting}
}

// paced is the lane's window for one read and its resends.
func (l *lane) paced() *sendrules.Paced {
	length := l.o.window(l.w)
	margin := length/100 + time.Millisecond
	return &sendrules.Paced{Store: l.j, Key: l.tenant, Window: l.w,
		Length: length, Out: l.o.Timeout + margin, Margin: margin,
		Scale: l.o.Scale, MaxRefusals: l.o.MaxRefusals, Now: l.o.Now,
		Waiting: func(_ time.Time, wait time.Duration) {
			if !l.asked {
				l.asked, l.startWait = true, max(wait, 0)
			}
			if wait > time.Second && l.waiting != nil {
				l.waiting(l.w, wait)
			}
		}}
}

// do performs read in the window. A refusal for the window is waited out
// and asked again, up to MaxRefusals times; it returns read's last error,
// an errJournal, or ctx's error.
func (l *lane) do(ctx context.Context, read func(context.Context) error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.paced()
	for {
		if _, err := w.Take(ctx, true); err != nil {
			var serr *sendrules.StoreError
			if errors.As(err, &serr) {
				return errJournal{serr.Err}
			}
			return err
		}
		l.asked = true
		if l.first.IsZero() {
			l.first = l.o.Now()
		}
		l.reads++
		err := read(ctx)
		if sendrules.Refused(err) {
			l.refused++
		}
		retry, _, perr := w.Answered(ctx, err)
		l.last = l.o.Now()
		if perr != nil {
			return errJournal{errors.Unwrap(perr)}
		}
		if retry {
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
