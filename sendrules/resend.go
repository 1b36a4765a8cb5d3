package sendrules

import (
	"sync"
	"time"
)

// ResendPolicy says when a request that provably was not processed goes
// again. Only two kinds of answer prove it: the request never left (no
// connection: refused, DNS, TLS, unreachable), or the API refused it before
// processing (403 "Debe esperar N segundos", 429). Everything else that is
// not a definite answer is unknown and never resent automatically: after a
// timeout, a cut connection, a 5xx or a 3xx, the voucher may exist.
type ResendPolicy struct {
	// MaxSends bounds how many times one request is put on the wire in a
	// run and refused for the window before it is given up (and reported
	// as not sent); waits for the key hold are not sends.
	MaxSends int
	// Backoff is the wait before resending a request that never left; it
	// doubles with each failure in a row, up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// Scale multiplies every wait (--time-scale).
	Scale float64
}

// DefaultResend is the policy of a run.
var DefaultResend = ResendPolicy{MaxSends: 20, Backoff: 250 * time.Millisecond, MaxBackoff: 2 * time.Second, Scale: 1}

// Again reports whether a request refused before processing after sends
// sends may go once more.
func (p ResendPolicy) Again(sends int) bool { return sends < p.MaxSends }

// NotSentWait is the wait before resending a request that never left, after
// failures such failures in a row (1 for the first).
func (p ResendPolicy) NotSentWait(failures int) time.Duration {
	d := p.Backoff
	for i := 1; i < failures && d < p.MaxBackoff; i++ {
		d *= 2
	}
	return Scale(min(d, p.MaxBackoff), p.Scale)
}

// RefusedWait is the wait before resending after the API refused a request
// before processing it: the N seconds of its "Debe esperar N segundos"
// (serverWait, unscaled, as the API said), or one second per send so far
// when it said none (429).
func (p ResendPolicy) RefusedWait(serverWait time.Duration, sends int) time.Duration {
	if serverWait <= 0 {
		serverWait = time.Duration(max(sends, 1)) * time.Second
	}
	return Scale(serverWait, p.Scale)
}

// Breaker stops a run when the API cannot be reached: after Limit requests
// in a row failed before leaving (connection refused, DNS, TLS,
// unreachable), with no answer of any kind in between, there is no point in
// trying the rest. It is safe for concurrent use by the workers.
type Breaker struct {
	Limit int

	mu      sync.Mutex
	streak  int
	tripped bool
}

// DefaultBreakerLimit is how many failures to connect in a row stop a run.
const DefaultBreakerLimit = 5

// Failed records a request that could not reach the API and reports whether
// the breaker is now open (the run must stop).
func (b *Breaker) Failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.streak++
	limit := b.Limit
	if limit <= 0 {
		limit = DefaultBreakerLimit
	}
	if b.streak >= limit {
		b.tripped = true
	}
	return b.tripped
}

// Answered records that the API answered something, which ends a streak of
// failures.
func (b *Breaker) Answered() {
	b.mu.Lock()
	b.streak = 0
	b.mu.Unlock()
}

// Open reports whether the breaker stopped the run.
func (b *Breaker) Open() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tripped
}
