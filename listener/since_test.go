package listener

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestEventsSince(t *testing.T) {
	dir := t.TempDir()
	// The store's own goroutine reads the clock too.
	var at atomic.Int64
	at.Store(time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	st, err := Open(dir, Options{Now: func() time.Time { return time.Unix(0, at.Load()).UTC() }})
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{`[{"articuloId":1}]`, `[{"articuloId":2}]`, `[{"articuloId":3}]`} {
		at.Store(time.Date(2026, 9, 1, 12, i, 0, 0, time.UTC).UnixNano())
		if _, err := st.Append([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		after time.Time
		want  []int64
	}{
		{time.Time{}, []int64{1, 2, 3}},
		{time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC), []int64{2, 3}},
		{time.Date(2026, 9, 1, 12, 2, 0, 0, time.UTC), nil},
	} {
		var got []int64
		if err := EventsSince(dir, tc.after, func(ev Event) { got = append(got, ev.Seq) }); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("after %v: events %v, want %v", tc.after, got, tc.want)
		}
	}
	if err := EventsSince(filepath.Join(dir, "none"), time.Time{}, func(Event) { t.Error("event from no store") }); err != nil {
		t.Errorf("no store: %v", err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if err := EventsSince(link, time.Time{}, func(Event) {}); err == nil {
		t.Error("read a store through a symbolic link")
	}
}

// TestEventsSinceSeeks: in a long log the search starts near t, and
// still finds every event after it, those stamped a little out of order
// included.
func TestEventsSinceSeeks(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	base := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	pad := strings.Repeat("x", 2000)
	const n = 5000
	stamp := func(i int) time.Time {
		at := base.Add(time.Duration(i) * time.Minute)
		if i == 4001 {
			at = at.Add(-2 * time.Minute) // the clock stepped back
		}
		return at
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&log, `{"seq":%d,"at":"%s","sha256":"%064d","body":[{"articuloId":%d,"codigo":"%s"}]}`+"\n",
			i, stamp(i).Format(time.RFC3339Nano), i, i, pad)
	}
	if err := os.WriteFile(filepath.Join(dir, LogFile), log.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, after := range []int{0, 1, 2500, 4000, 4001, n - 1, n} {
		t.Run(fmt.Sprint(after), func(t *testing.T) {
			tm := stamp(after)
			var want []int64
			for i := 1; i <= n; i++ {
				if stamp(i).After(tm) {
					want = append(want, int64(i))
				}
			}
			var got []int64
			if err := EventsSince(dir, tm, func(ev Event) { got = append(got, ev.Seq) }); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("after event %d: %d events (first %v), want %d", after, len(got), got[:min(3, len(got))], len(want))
			}
		})
	}
	f, err := os.Open(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start, err := seekBefore(f, int64(log.Len()), stamp(4500))
	if err != nil || start < int64(log.Len())/2 || start > int64(log.Len())-seekChunk {
		t.Errorf("search for event 4,500 of %d starts at byte %d of %d (%v)", n, start, log.Len(), err)
	}
	if start > 0 && log.Bytes()[start-1] != '\n' {
		t.Errorf("byte %d is not a line's start", start)
	}
}
