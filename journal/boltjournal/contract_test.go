package boltjournal_test

import (
	"path/filepath"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/journaltest"
)

// TestContract runs the journal contract against the bbolt file.
func TestContract(t *testing.T) {
	journaltest.Run(t, journaltest.Backend{
		New: func(t *testing.T) func(o journal.Options) (journal.Store, error) {
			path := filepath.Join(t.TempDir(), "state", "journal")
			return func(o journal.Options) (journal.Store, error) {
				j, err := boltjournal.Open(path, o)
				if err != nil {
					return nil, err
				}
				return j, nil
			}
		},
		// The kernel drops a killed process's flock: closing the file is
		// what the next process sees of a crash.
		Crash: func(t *testing.T, s journal.Store) { s.Close() },
		Break: func(t *testing.T, s journal.Store) func() { return boltjournal.BreakStorage(s) },
	})
}
