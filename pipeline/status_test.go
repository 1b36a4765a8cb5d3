package pipeline

import (
	"encoding/json"
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
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("statuses needing attention = %v, want %v", got, want)
	}
	if len(AllStatuses) != 8 {
		t.Errorf("AllStatuses has %d statuses, want 8", len(AllStatuses))
	}
}

// TestStatusCodes: every status's code reads back as that status, in JSON
// too, and no two share a code.
func TestStatusCodes(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range AllStatuses {
		code := s.String()
		if code == "" || seen[code] {
			t.Errorf("status %d: code %q empty or repeated", s, code)
		}
		seen[code] = true
		if back, ok := ParseStatus(code); !ok || back != s {
			t.Errorf("ParseStatus(%q) = %v, %v; want %v", code, back, ok, s)
		}
	}
	data, err := json.Marshal(map[Status]int{StatusOK: 2, StatusPending: 1})
	if err != nil || string(data) != `{"ok":2,"pending":1}` {
		t.Errorf("JSON = %s, %v", data, err)
	}
	var back map[Status]int
	if err := json.Unmarshal(data, &back); err != nil || back[StatusOK] != 2 || back[StatusPending] != 1 {
		t.Errorf("read back %v, %v", back, err)
	}
	if _, ok := ParseStatus(""); ok {
		t.Error(`ParseStatus("") accepted the zero status`)
	}
	if err := json.Unmarshal([]byte(`{"hecho":1}`), &back); err == nil {
		t.Error("an unknown code was accepted")
	}
}
