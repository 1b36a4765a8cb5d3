package pipeline

import (
	"fmt"
	"strconv"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/writers"
)

// Status is a row's outcome. It is a byte, not a string: a file of a
// million one-line sales carries a million of them.
type Status uint8

// Row and request outcomes. Their codes (String) are what the
// result.status column says; they stay the same in every report language.
// The zero Status is a request not yet validated, never sent.
const (
	StatusOK Status = iota + 1
	StatusInvalid
	StatusRejected
	StatusUnknown
	StatusSkipped
	StatusConflict
	StatusPending
	StatusValid
)

var statusCodes = [...]string{"", "ok", "invalid", "rejected", "unknown", "skipped", "conflict", "pending", "valid"}

// String returns the status's code: "ok", "invalid"...
func (s Status) String() string {
	if int(s) < len(statusCodes) {
		return statusCodes[s]
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// ParseStatus returns the status whose code is s.
func ParseStatus(s string) (Status, bool) {
	for i, c := range statusCodes {
		if i > 0 && c == s {
			return Status(i), true
		}
	}
	return 0, false
}

// MarshalText writes the status's code, so a map keyed by status reads
// {"ok": 3} in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's code.
func (s *Status) UnmarshalText(b []byte) error {
	st, ok := ParseStatus(string(b))
	if !ok {
		return fmt.Errorf("unknown row status %q", b)
	}
	*s = st
	return nil
}

// AllStatuses lists every status in report order.
var AllStatuses = []Status{
	StatusOK, StatusSkipped, StatusValid, StatusInvalid,
	StatusRejected, StatusConflict, StatusUnknown, StatusPending,
}

// NeedsAttention reports whether a row with status s goes into the errors
// file: something the user must fix, check or send again.
func NeedsAttention(s Status) bool {
	switch s {
	case StatusInvalid, StatusRejected, StatusUnknown, StatusConflict, StatusPending:
		return true
	}
	return false
}

// Tone is how the reports colour a row of status s.
func (s Status) Tone() writers.Tone {
	switch s {
	case StatusOK, StatusSkipped:
		return writers.ToneDone
	case StatusValid:
		return writers.ToneReady
	case StatusInvalid, StatusRejected, StatusConflict:
		return writers.ToneFix
	case StatusUnknown:
		return writers.ToneCheck
	case StatusPending:
		return writers.ToneWaiting
	}
	return writers.ToneNone
}

// Meaning says in words what status s means, for the summary sheet.
func (s Status) Meaning() msg.Message { return msg.New("rep.status." + s.String()) }

// Word is status s in a word of the report's language ("rechazada"), as
// the XLSX report shows it.
func (s Status) Word() msg.Message { return msg.New("rep.word." + s.String()) }
