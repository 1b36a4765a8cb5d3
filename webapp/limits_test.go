package webapp

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// TestParseBudgetQueuesThenRefuses: reads beyond the budget's shares wait
// their turn in order; past maxParseQueue waiting, or after maxParseWait,
// a read is refused with errBusy.
func TestParseBudgetQueuesThenRefuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newParseBudget(2 * parseShare)
		if cap(b.shares) != 2 {
			t.Fatalf("%d shares, want 2", cap(b.shares))
		}
		var held []func()
		for range 2 {
			r, err := b.acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, r)
		}
		got := make(chan error, maxParseQueue+1)
		for range maxParseQueue {
			go func() {
				r, err := b.acquire(context.Background())
				if err == nil {
					r()
				}
				got <- err
			}()
		}
		synctest.Wait() // all waiting
		if _, err := b.acquire(context.Background()); !errors.Is(err, errBusy) {
			t.Fatalf("read %d: %v, want errBusy", maxParseQueue+3, err)
		}
		for _, r := range held {
			r()
		}
		for range maxParseQueue {
			if err := <-got; err != nil {
				t.Errorf("a queued read: %v", err)
			}
		}
		// A read that waits longer than maxParseWait is refused.
		r, _ := b.acquire(context.Background())
		r2, _ := b.acquire(context.Background())
		start := time.Now()
		if _, err := b.acquire(context.Background()); !errors.Is(err, errBusy) || time.Since(start) != maxParseWait {
			t.Errorf("after %v: %v, want errBusy after %v", time.Since(start), err, maxParseWait)
		}
		r()
		r2()
	})
}
