package pgjournal_test

import (
	"context"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/journaltest"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
)

// testTTL is the lease time of the tests: short, so that a crashed holder's
// lease expires within the test, long enough for a loaded machine's
// heartbeats.
const testTTL = 2 * time.Second

func openPG(t *testing.T, url string, o journal.Options) (*pgjournal.Store, error) {
	return pgjournal.Open(context.Background(), url, pgjournal.Options{Options: o, LeaseTTL: testTTL, Host: "test"})
}

// TestContract runs the journal contract against PostgreSQL.
func TestContract(t *testing.T) {
	journaltest.Run(t, journaltest.Backend{
		New: func(t *testing.T) func(o journal.Options) (journal.Store, error) {
			name, url := newDB(t)
			return func(o journal.Options) (journal.Store, error) {
				s, err := openPG(t, url, o)
				if err != nil {
					return nil, err
				}
				dbNames.Store(s, name)
				return s, nil
			}
		},
		Crash: func(t *testing.T, s journal.Store) { pgjournal.Crash(s) },
		Break: func(t *testing.T, s journal.Store) func() {
			name, _ := dbNames.Load(s)
			ctx := context.Background()
			if err := srv.Cut(ctx, name.(string)); err != nil {
				t.Fatal(err)
			}
			return func() {
				if err := srv.Mend(ctx, name.(string)); err != nil {
					t.Fatal(err)
				}
			}
		},
		LeaseBound: testTTL,
		Shared:     true,
	})
}
