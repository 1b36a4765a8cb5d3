// Package sendrulestest holds what tests of the API's windows share: an
// in-memory window store that takes a window atomically, as the journal
// does on disk (journal.Store's Reserve, SetNextAllowed, NextAllowed).
package sendrulestest

import (
	"context"
	"sync"
	"time"
)

// Windows is a window store in memory, safe for concurrent use. Its zero
// value is empty; Fail, when set, is what every method answers.
type Windows struct {
	mu   sync.Mutex
	next map[string]time.Time
	Fail error
}

func name(key, window string) string { return key + "/" + window }

// Reserve takes window of key when it is open at now: it then ends at
// now+d. A closed window is left as it is, and its end returned.
func (w *Windows) Reserve(_ context.Context, key, window string, now time.Time, d time.Duration) (bool, time.Time, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.Fail != nil {
		return false, time.Time{}, w.Fail
	}
	if n := w.next[name(key, window)]; n.After(now) {
		return false, n, nil
	}
	w.set(key, window, now.Add(d))
	return true, now.Add(d), nil
}

// SetNextAllowed moves the end of window of key to t.
func (w *Windows) SetNextAllowed(_ context.Context, key, window string, t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.Fail != nil {
		return w.Fail
	}
	w.set(key, window, t)
	return nil
}

// NextAllowed is when window of key opens; zero when it was never taken.
func (w *Windows) NextAllowed(_ context.Context, key, window string) (time.Time, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.Fail != nil {
		return time.Time{}, w.Fail
	}
	return w.next[name(key, window)], nil
}

// Next is NextAllowed for a test's assertions.
func (w *Windows) Next(key, window string) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.next[name(key, window)]
}

// Set is SetNextAllowed for a test's setup.
func (w *Windows) Set(key, window string, t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.set(key, window, t)
}

// Len is how many windows were ever taken or set.
func (w *Windows) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.next)
}

func (w *Windows) set(key, window string, t time.Time) {
	if w.next == nil {
		w.next = map[string]time.Time{}
	}
	w.next[name(key, window)] = t
}
