package sendrules

import (
	"context"
	"errors"
	"time"
)

// WindowStore persists the API's rate windows per key (a tenant, or a
// credential before the tenant is known) across runs and machines: a
// journal.Store. Reserve takes a window for a request atomically, so that
// of the machines sharing the store only one is granted per window;
// SetNextAllowed counts it again from the answer. The store takes window
// names as strings: Paced converts at that boundary.
type WindowStore interface {
	Reserve(ctx context.Context, key, window string, now time.Time, d time.Duration) (granted bool, next time.Time, err error)
	SetNextAllowed(ctx context.Context, key, window string, t time.Time) error
}

// APIWait is the API's own refusal for a window ("Debe esperar N
// segundos", a 403 before the request was processed): APIWait is the N
// the API asked for, in API time (unscaled). apiclient.WaitError
// implements it.
type APIWait interface {
	error
	APIWait() time.Duration
}

// ClosedError means the window does not allow a request yet and the taker
// asked not to wait; Next is when it will.
type ClosedError struct {
	Window Window
	Next   time.Time
}

func (e *ClosedError) Error() string {
	return "the API's " + string(e.Window) + " window allows the next request at " + e.Next.Format("15:04:05")
}

// StoreError is a failure to read or persist a window in the store: the
// requests stop, because another run could no longer see the window. Its
// text is the store's own.
type StoreError struct{ Err error }

func (e *StoreError) Error() string { return e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// Paced is one persisted rate window of the API for one key: Take it
// before a request and report the request's answer to Answered. All its
// waits are in this run's time: Length is already scaled, the API's own
// waits are scaled here by Scale.
type Paced struct {
	Store  WindowStore
	Key    string
	Window Window
	// Length is the window, already scaled by --time-scale.
	Length time.Duration
	// Out is how much longer than Length Take reserves the window while a
	// request is out (Take reserves Length+Out): a request may reach the
	// API as late as its timeout, and the API counts its window from the
	// arrival.
	Out time.Duration
	// Margin is added to every next allowed time counted from an answer.
	Margin time.Duration
	// MinRefusalWait is the least a refusal closes the window for, even
	// when the API asks for less (0: the API's wait as it says).
	MinRefusalWait time.Duration
	// Scale multiplies the API's own waits (--time-scale; 0 means 1).
	Scale float64
	// MaxRefusals is how many times Answered says to ask again after the
	// API refused for its window: a refused request was not processed, so
	// asking again is safe, but a server that keeps refusing is not waited
	// on forever.
	MaxRefusals int
	Now         func() time.Time                                 // nil: time.Now
	Sleep       func(ctx context.Context, d time.Duration) error // nil: Sleep
	// Waiting, when set, is told before Take waits for the window: when
	// it opens and how long that is from now.
	Waiting func(next time.Time, d time.Duration)
	// Woke, when set, is called after each wait: an error ends Take with
	// it (another machine may have done the work meanwhile).
	Woke func() error

	refusals int
}

func (p *Paced) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Paced) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Take reserves the window for one request, atomically in the store. While
// the window is closed it waits when wait (telling Waiting first), or
// returns a *ClosedError. It returns the reserved next allowed time; a
// store failure is a *StoreError; a wait ended early returns ctx's error
// (or Woke's).
func (p *Paced) Take(ctx context.Context, wait bool) (time.Time, error) {
	for {
		now := p.now()
		granted, next, err := p.Store.Reserve(ctx, p.Key, string(p.Window), now, p.Length+p.Out)
		if err != nil {
			return time.Time{}, &StoreError{err}
		}
		if granted {
			return next, nil
		}
		if !wait {
			return next, &ClosedError{Window: p.Window, Next: next}
		}
		d := next.Sub(now)
		if p.Waiting != nil {
			p.Waiting(next, d)
		}
		if err := p.sleep(ctx, d); err != nil {
			return next, err
		}
		if p.Woke != nil {
			if err := p.Woke(); err != nil {
				return next, err
			}
		}
	}
}

// Answered counts the window again from the answer of the request Take
// allowed (the API started counting somewhere before the answer came
// back): Length after it, or when err is the API's own refusal for the
// window (an APIWait), the API's wait scaled by Scale. retry says to Take
// again and resend: the API refused and fewer than MaxRefusals refusals
// were answered so far. err2 is the store's failure (a *StoreError).
//
// The mark is written even when ctx is done: the request was answered, and
// a lost mark would let the next request leave inside the window.
func (p *Paced) Answered(ctx context.Context, err error) (retry bool, next time.Time, err2 error) {
	wait := p.Length
	var aw APIWait
	refused := errors.As(err, &aw)
	if refused {
		wait = max(Scale(aw.APIWait(), p.Scale), p.MinRefusalWait)
	}
	next = p.now().Add(wait + p.Margin)
	if serr := p.Store.SetNextAllowed(context.WithoutCancel(ctx), p.Key, string(p.Window), next); serr != nil {
		err2 = &StoreError{serr}
	}
	if refused && p.refusals < p.MaxRefusals {
		p.refusals++
		retry = true
	}
	return retry, next, err2
}

// Refused reports whether err is the API's refusal for a window.
func Refused(err error) bool {
	var aw APIWait
	return errors.As(err, &aw)
}
