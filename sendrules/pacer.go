package sendrules

import (
	"context"
	"sync"
	"time"
)

// Pacer spaces the requests of one rate window. The API counts a window from
// the arrival of the previous request, a moment nxbatch cannot see: it lies
// between the moment the request left and the moment its answer came back.
// So the pacer counts from the answer (or, while a request is out, from the
// latest moment it could still arrive), never from the moment it left: a
// request that took long to arrive would otherwise pull the next one inside
// the window.
//
// The times the pacer returns are what a caller persists (in the journal,
// with the request's intent and outcome), so that a run restarted after a
// crash waits for the same window.
type Pacer struct {
	// Window is the window's length, already scaled.
	Window time.Duration
	// Timeout bounds one request: a request that left at t has arrived by
	// t+Timeout or never will.
	Timeout time.Duration
	// Now is the clock; nil means time.Now (testing/synctest fakes both).
	Now func() time.Time

	mu   sync.Mutex
	next time.Time
	prev time.Time // next before the request now out left, for NotSent
}

// NewPacer returns a pacer for window whose next request may leave at next
// (the persisted time, or zero).
func NewPacer(window, timeout time.Duration, next time.Time, now func() time.Time) *Pacer {
	return &Pacer{Window: window, Timeout: timeout, Now: now, next: next}
}

func (p *Pacer) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// margin covers the rounding of the two clocks involved: a hundredth of the
// window and a millisecond.
func (p *Pacer) margin() time.Duration { return p.Window/100 + time.Millisecond }

// Next is when the window allows the next request.
func (p *Pacer) Next() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.next
}

// Wait returns once the window allows the next request, or with ctx's error.
func (p *Pacer) Wait(ctx context.Context) error {
	for {
		d := p.Next().Sub(p.now())
		if d <= 0 {
			return ctx.Err()
		}
		if err := Sleep(ctx, d); err != nil {
			return err
		}
	}
}

// Leave records that a request leaves now and returns the next allowed time
// to persist before it does: until its answer comes, it may arrive as late
// as now+Timeout, and the window counts from there.
func (p *Pacer) Leave() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prev = p.next
	p.next = p.now().Add(p.Timeout + p.Window + p.margin())
	return p.next
}

// Answered records that the answer to the request came now. A request the
// API refused for the window (403 "Debe esperar N segundos") did not take
// it: serverWait is that N, scaled, and the next request waits it out. Any
// other answer means the request arrived by now, so the window counts from
// now. It returns the next allowed time to persist.
func (p *Pacer) Answered(serverWait time.Duration) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	wait := p.Window
	if serverWait > 0 {
		wait = serverWait
	}
	p.next = p.now().Add(wait + p.margin())
	return p.next
}

// NotSent records that the request that was leaving provably never left
// (no connection was made): the window is what it was before Leave. It
// returns the next allowed time to persist.
func (p *Pacer) NotSent() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = p.prev
	return p.next
}

// Sleep waits d or until ctx ends, returning ctx's error in that case.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
