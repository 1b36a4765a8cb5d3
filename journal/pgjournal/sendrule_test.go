package pgjournal_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
)

// TestSendRuleAgrees holds the send rule's copy in SQL (nxbatch.begin_intent)
// to the one in Go (journal.State.Sendable): for every state an entry can be
// in, with and without --retry-unknown, Begin of the key itself, and of
// another request carrying a unit of it, is refused exactly when the Go rule
// says the state is not sendable.
func TestSendRuleAgrees(t *testing.T) {
	_, url := newDB(t)
	ctx := t.Context()
	long := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, retry := range []bool{false, true} {
		s, err := openPG(t, url, journal.Options{RetryUnknown: retry})
		if err != nil {
			t.Fatal(err)
		}
		tenant := fmt.Sprintf("t%v", retry)
		release, err := s.Acquire(ctx, tenant, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range journal.States {
			t.Run(fmt.Sprintf("%s/retryUnknown=%v", st, retry), func(t *testing.T) {
				want := st.Sendable(retry)
				k := journal.Key{Tenant: tenant, Kind: "venta", Business: "k-" + string(st)}
				carrier := journal.Key{Tenant: tenant, Kind: "stock", Business: "r-" + string(st)}
				unit := journal.UnitRecord{Unit: journal.Unit{ID: "u-" + string(st), BodyHash: "h"}, Request: carrier}
				entry := func(k journal.Key, units []string) journal.Record {
					return journal.Record{Entry: &journal.Entry{Key: k, BodyHash: "h", State: st, Attempts: 1,
						First: long, Last: long, Updated: long, Units: units}}
				}
				res, err := s.Import(ctx, []journal.Record{entry(k, nil), entry(carrier, []string{unit.ID}), {Unit: &unit}})
				if err != nil || res.Written != 3 {
					t.Fatalf("import: %+v, %v", res, err)
				}
				_, err = s.Begin(ctx, k, journal.Intent{BodyHash: "h2"})
				if got := err == nil; got != want || (err != nil && !errors.Is(err, journal.ErrNotSendable)) {
					t.Errorf("Begin of a key in state %s: %v; the Go rule says sendable=%v", st, err, want)
				}
				other := journal.Key{Tenant: tenant, Kind: "stock", Business: "n-" + string(st)}
				_, err = s.Begin(ctx, other, journal.Intent{BodyHash: "h3", Units: []journal.Unit{{ID: unit.ID, BodyHash: "h3"}}})
				if got := err == nil; got != want || (err != nil && !errors.Is(err, journal.ErrNotSendable)) {
					t.Errorf("Begin carrying a unit of a request in state %s: %v; the Go rule says sendable=%v", st, err, want)
				}
			})
		}
		if err := release(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
