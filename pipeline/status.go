package pipeline

import (
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/writers"
)

// Status is a row's outcome.
type Status string

// Row and request outcomes. The values are the codes written in the
// result.status column; they stay the same in every report language.
const (
	StatusOK       Status = "ok"
	StatusInvalid  Status = "invalid"
	StatusRejected Status = "rejected"
	StatusUnknown  Status = "unknown"
	StatusSkipped  Status = "skipped"
	StatusConflict Status = "conflict"
	StatusPending  Status = "pending"
	StatusValid    Status = "valid"
)

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
func (s Status) Meaning() msg.Message { return msg.New("rep.status." + string(s)) }
