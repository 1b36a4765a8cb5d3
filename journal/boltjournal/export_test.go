package boltjournal

import (
	"errors"

	"github.com/nxbatch/nxbatch/journal"
	bolt "go.etcd.io/bbolt"
)

// BreakStorage makes every later commit of j fail, as a failed fsync would;
// mend puts the real commit back. For the contract suite, which runs
// outside the package.
func BreakStorage(s journal.Store) (mend func()) {
	j := s.(*Journal)
	j.commit = func(func(*bolt.Tx) error) error { return errors.New("fdatasync: input/output error") }
	return func() { j.commit = j.db.Update }
}
