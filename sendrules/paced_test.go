package sendrules

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// apiWait is the API's "Debe esperar N segundos".
type apiWait time.Duration

func (w apiWait) Error() string          { return "Debe esperar" }
func (w apiWait) APIWait() time.Duration { return time.Duration(w) }

func TestPacedTake(t *testing.T) {
	tests := []struct {
		name     string
		closed   time.Duration // the window is closed this long at the start
		wait     bool
		wantWait time.Duration // how long Take waited
		closedEr bool          // Take returns a *ClosedError
	}{
		{name: "open window granted", closed: 0, wait: true},
		{name: "open window granted without waiting", closed: 0, wait: false},
		{name: "closed window waited", closed: 5 * time.Second, wait: true, wantWait: 5 * time.Second},
		{name: "closed window refused", closed: 5 * time.Second, wait: false, closedEr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				st := &sendrulestest.Windows{}
				if tt.closed > 0 {
					st.SetNextAllowed(context.Background(), "k", string(Params), start.Add(tt.closed))
				}
				var told time.Duration
				p := &Paced{Store: st, Key: "k", Window: Params, Length: 60 * time.Second,
					Waiting: func(_ time.Time, d time.Duration) { told = d }}
				next, err := p.Take(t.Context(), tt.wait)
				waited := time.Since(start)
				if tt.closedEr {
					var ce *ClosedError
					if !errors.As(err, &ce) || !ce.Next.Equal(start.Add(tt.closed)) || ce.Window != Params {
						t.Fatalf("Take: %v, want a *ClosedError at %v", err, start.Add(tt.closed))
					}
					if waited != 0 {
						t.Errorf("a refused Take waited %v", waited)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if waited != tt.wantWait || told != tt.wantWait {
					t.Errorf("waited %v (told %v), want %v", waited, told, tt.wantWait)
				}
				if want := start.Add(tt.wantWait + 60*time.Second); !next.Equal(want) {
					t.Errorf("reserved until %v, want %v", next.Sub(start), want.Sub(start))
				}
			})
		})
	}
}

func TestPacedAnswered(t *testing.T) {
	tests := []struct {
		name      string
		answers   []error // the answers in order, until one is not retried
		scale     float64
		minWait   time.Duration
		max       int
		wantRetry []bool
		wantNext  time.Duration // after the last answer, from its time
	}{
		{name: "success counts the window from the answer", answers: []error{nil},
			max: 3, wantRetry: []bool{false}, wantNext: 60 * time.Second},
		{name: "other failure counts the window, no retry", answers: []error{errors.New("401")},
			max: 3, wantRetry: []bool{false}, wantNext: 60 * time.Second},
		{name: "API wait honoured", answers: []error{apiWait(10 * time.Second)},
			max: 3, wantRetry: []bool{true}, wantNext: 10 * time.Second},
		{name: "API wait scaled", answers: []error{apiWait(10 * time.Second)},
			scale: 0.01, max: 3, wantRetry: []bool{true}, wantNext: 100 * time.Millisecond},
		{name: "API wait not below the floor", answers: []error{apiWait(10 * time.Second)},
			minWait: 60 * time.Second, max: 3, wantRetry: []bool{true}, wantNext: 60 * time.Second},
		{name: "wrapped API wait", answers: []error{errors.Join(errors.New("GET /config"), apiWait(time.Second))},
			max: 1, wantRetry: []bool{true}, wantNext: time.Second},
		{name: "retries bounded", answers: []error{apiWait(time.Second), apiWait(time.Second), apiWait(time.Second)},
			max: 2, wantRetry: []bool{true, true, false}, wantNext: time.Second},
		{name: "no retries when not asked", answers: []error{apiWait(time.Second)},
			max: 0, wantRetry: []bool{false}, wantNext: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				st := &sendrulestest.Windows{}
				p := &Paced{Store: st, Key: "k", Window: Params, Length: 60 * time.Second,
					Scale: tt.scale, MinRefusalWait: tt.minWait, MaxRefusals: tt.max}
				var next time.Time
				for i, answer := range tt.answers {
					if _, err := p.Take(t.Context(), true); err != nil {
						t.Fatal(err)
					}
					time.Sleep(700 * time.Millisecond) // the answer takes 0.7 s
					retry, n, err := p.Answered(context.Background(), answer)
					if err != nil {
						t.Fatal(err)
					}
					if retry != tt.wantRetry[i] {
						t.Fatalf("answer %d: retry %v, want %v", i, retry, tt.wantRetry[i])
					}
					if got := time.Until(n); got != tt.wantNext {
						t.Errorf("answer %d: next in %v, want %v", i, got, tt.wantNext)
					}
					next = n
					if !retry {
						break
					}
				}
				if got := st.Next("k", string(Params)); !got.Equal(next) {
					t.Errorf("store keeps %v, want %v", got, next)
				}
			})
		})
	}
}

func TestPacedMarginAndOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := &Paced{Store: &sendrulestest.Windows{}, Key: "k", Window: Exports, Length: 3 * time.Second,
			Out: 30 * time.Second, Margin: 31 * time.Millisecond}
		next, err := p.Take(t.Context(), true)
		if err != nil {
			t.Fatal(err)
		}
		if got := next.Sub(start); got != 33*time.Second {
			t.Errorf("reserved %v while out, want the window and the timeout", got)
		}
		time.Sleep(time.Second)
		_, next, _ = p.Answered(context.Background(), nil)
		if got := next.Sub(start); got != 4031*time.Millisecond {
			t.Errorf("next %v after start, want the window from the answer plus the margin", got)
		}
	})
}

func TestPacedTwoTakersOneGrant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := &sendrulestest.Windows{}
		var grants, closed int
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				p := &Paced{Store: st, Key: "k", Window: Params, Length: 60 * time.Second}
				_, err := p.Take(context.Background(), false)
				mu.Lock()
				defer mu.Unlock()
				var ce *ClosedError
				switch {
				case err == nil:
					grants++
				case errors.As(err, &ce):
					closed++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if grants != 1 || closed != 1 {
			t.Errorf("%d grants and %d refusals, want one of each", grants, closed)
		}
	})
}

func TestPacedWaitingTakersTakeTurns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st := &sendrulestest.Windows{}
		start := time.Now()
		var mu sync.Mutex
		var at []time.Duration
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				p := &Paced{Store: st, Key: "k", Window: Params, Length: 60 * time.Second}
				if _, err := p.Take(t.Context(), true); err != nil {
					t.Error(err)
				}
				mu.Lock()
				at = append(at, time.Since(start))
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(at) != 2 || at[0] != 0 || at[1] != 60*time.Second {
			t.Errorf("granted at %v, want one now and one a window later", at)
		}
	})
}

func TestPacedStopsOnStoreAndContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		boom := errors.New("disk full")
		p := &Paced{Store: &sendrulestest.Windows{Fail: boom}, Key: "k", Window: Params, Length: time.Second}
		var se *StoreError
		if _, err := p.Take(t.Context(), true); !errors.As(err, &se) || !errors.Is(err, boom) {
			t.Errorf("Take on a failing store: %v, want a *StoreError", err)
		}
		if _, _, err := p.Answered(context.Background(), nil); !errors.As(err, &se) {
			t.Errorf("Answered on a failing store: %v, want a *StoreError", err)
		}

		st := &sendrulestest.Windows{}
		st.SetNextAllowed(context.Background(), "k", string(Params), time.Now().Add(time.Minute))
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		p = &Paced{Store: st, Key: "k", Window: Params, Length: time.Minute}
		if _, err := p.Take(ctx, true); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Take past its context: %v", err)
		}

		stop := errors.New("bound meanwhile")
		p = &Paced{Store: st, Key: "k", Window: Params, Length: time.Minute, Woke: func() error { return stop }}
		if _, err := p.Take(t.Context(), true); !errors.Is(err, stop) {
			t.Errorf("Take after Woke failed: %v", err)
		}
	})
}
