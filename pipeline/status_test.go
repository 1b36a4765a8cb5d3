package pipeline

import (
	"slices"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/writers"
)

func TestStatuses(t *testing.T) {
	var got []Status
	for _, s := range AllStatuses {
		if NeedsAttention(s) {
			got = append(got, s)
		}
		if s.Tone() == writers.ToneNone {
			t.Errorf("status %s has no tone", s)
		}
		if m := s.Meaning(); m.In(msg.ES) == m.Key {
			t.Errorf("status %s has no meaning in the catalog", s)
		}
	}
	slices.Sort(got)
	want := []Status{StatusConflict, StatusInvalid, StatusPending, StatusRejected, StatusUnknown}
	if !slices.Equal(got, want) {
		t.Errorf("statuses needing attention = %v, want %v", got, want)
	}
	if len(AllStatuses) != 8 {
		t.Errorf("AllStatuses has %d statuses, want 8", len(AllStatuses))
	}
}
