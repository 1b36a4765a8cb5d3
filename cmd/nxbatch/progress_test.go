package main

import (
	"testing"
	"time"
)

// TestProgressETAUsesThePace: the bar's ETA is fed the time between
// settled requests, so a run of 20 requests a second does not show an ETA
// as if each took a second.
func TestProgressETAUsesThePace(t *testing.T) {
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	pr := &progress{tick: start}
	steps := []struct {
		at   time.Duration // since start
		want time.Duration
	}{
		{at: 50 * time.Millisecond, want: 50 * time.Millisecond},
		{at: 100 * time.Millisecond, want: 50 * time.Millisecond},
		{at: 3100 * time.Millisecond, want: 3 * time.Second},
	}
	for _, s := range steps {
		if got := pr.sinceTick(start.Add(s.at)); got != s.want {
			t.Errorf("at %v: iteration %v, want %v", s.at, got, s.want)
		}
	}
}
