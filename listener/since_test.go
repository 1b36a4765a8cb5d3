package listener

import (
	"os"
	"path/filepath"
	"slices"
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
