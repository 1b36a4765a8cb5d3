package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
)

// TestJournalErrorDecidesOnCodes: an unreachable shared journal aborts
// the run because of its code, whatever its message says; the message key
// alone decides nothing.
func TestJournalErrorDecidesOnCodes(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want int
	}{
		{"unreachable, renamed message", &msg.Error{Code: pgjournal.ErrUnreachable, Msg: msg.New("renamed.connect")}, exitAborted},
		{"unreachable, wrapped", fmt.Errorf("open: %w", &msg.Error{Code: pgjournal.ErrUnreachable, Msg: msg.New("pgj.connect", "db", "x")}), exitAborted},
		{"the old key without its code", &msg.Error{Msg: msg.New("pgj.connect", "db", "x")}, exitUsage},
		{"another journal problem", &msg.Error{Msg: msg.New("renamed"), Err: errors.New("bad")}, exitUsage},
	}
	for _, tt := range tests {
		if got := exitCode(journalError(tt.err, msg.ES)); got != tt.want {
			t.Errorf("%s: exit code %d, want %d", tt.name, got, tt.want)
		}
	}
}
