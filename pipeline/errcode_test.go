package pipeline

import (
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// TestRejectedBeforeIsNotKeyedOnItsMessage: a request is "rejected before"
// because it was concluded so, not because its outcome carries a given
// message key: the same key put there otherwise decides nothing, and a
// later conclusion clears it.
func TestRejectedBeforeIsNotKeyedOnItsMessage(t *testing.T) {
	e := journal.Entry{Last: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), Message: "no"}
	tests := []struct {
		name string
		do   func(r *Request)
		want bool
	}{
		{"concluded as rejected before", func(r *Request) { r.concludeRejectedBefore(e) }, true},
		{"the same message key, concluded otherwise", func(r *Request) {
			r.Conclude(StatusRejected, msg.New("sub.rejected.unchanged", "ayer", "no"))
		}, false},
		{"rejected before, then concluded again", func(r *Request) {
			r.concludeRejectedBefore(e)
			r.Conclude(StatusRejected, msg.New("sub.rejected", "no"))
		}, false},
		{"rejected before, then pending", func(r *Request) {
			r.concludeRejectedBefore(e)
			r.Status = StatusPending
		}, false},
	}
	for _, tt := range tests {
		r := &Request{}
		tt.do(r)
		if got := r.RejectedBefore(); got != tt.want {
			t.Errorf("%s: RejectedBefore = %v, want %v", tt.name, got, tt.want)
		}
	}
}
