package boltjournal

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	bolt "go.etcd.io/bbolt"
)

// *Journal is the bbolt Store.
var _ journal.Store = (*Journal)(nil)

// Acquire takes tenant's lease. bbolt's file lock, taken by Open, is every
// tenant's lease at once: no other process can write the file while this
// one has it open, and Open turned what a previous holder left in Sending
// into Unknown. So there is nothing more to take, and nothing to wait for.
func (j *Journal) Acquire(ctx context.Context, tenant string, wait time.Duration) (func() error, error) {
	if tenant == "" {
		return nil, fmt.Errorf("journal: a lease needs a tenant")
	}
	return func() error { return nil }, ctx.Err()
}

// Export calls fn for every entry, unit and window, in key order, within
// one read transaction.
func (j *Journal) Export(ctx context.Context, fn func(journal.Record) error) error {
	err := j.view(ctx, func(tx *bolt.Tx) error {
		err := tx.Bucket(entriesBucket).ForEach(func(k, v []byte) error {
			e, err := decode(k, v)
			if err != nil {
				return err
			}
			return fn(journal.Record{Entry: &e})
		})
		if err != nil {
			return err
		}
		err = tx.Bucket(unitsBucket).ForEach(func(k, _ []byte) error {
			key, err := keyFromBytes(k)
			if err != nil {
				return err
			}
			u, _, err := getUnit(tx.Bucket(unitsBucket), key.Tenant, key.Kind, key.Business)
			if err != nil {
				return err
			}
			return fn(journal.Record{Unit: &u})
		})
		if err != nil {
			return err
		}
		return tx.Bucket(windowsBucket).ForEach(func(k, v []byte) error {
			tenant, name, ok := strings.Cut(string(k), "\x00")
			if !ok {
				return fmt.Errorf("journal: malformed window key %q", k)
			}
			m := journal.Mark{Tenant: tenant, Name: name}
			if err := m.Next.UnmarshalBinary(v); err != nil {
				return fmt.Errorf("journal: window %s of %s: %w", name, tenant, err)
			}
			return fn(journal.Record{Window: &m})
		})
	})
	if err != nil {
		return fmt.Errorf("journal: export %s: %w", j.path, err)
	}
	return nil
}

// Import writes recs in one durable transaction: what the journal lacks is
// written, what it holds alike is left, what it holds different is
// reported. A window keeps the later time. The file lock keeps every run
// out meanwhile, so no tenant can be in use by another.
func (j *Journal) Import(ctx context.Context, recs []journal.Record) (journal.ImportResult, error) {
	var res journal.ImportResult
	err := j.write(ctx, func(tx *bolt.Tx) error {
		res = journal.ImportResult{}
		eb, ub, wb := tx.Bucket(entriesBucket), tx.Bucket(unitsBucket), tx.Bucket(windowsBucket)
		// Decide everything first, write after: a refusal must leave the
		// group commit's other writes alone.
		var entries []journal.Entry
		var units []journal.UnitRecord
		var marks []*journal.Mark
		for _, r := range recs {
			switch {
			case r.Entry != nil:
				if err := r.Entry.Key.Validate(); err != nil {
					return err
				}
				if !r.Entry.State.Valid() {
					return fmt.Errorf("journal: import %s: unknown state %q", r.Entry.Key, r.Entry.State)
				}
				have, found, err := get(eb, r.Entry.Key)
				if err != nil {
					return err
				}
				if !found {
					entries = append(entries, *r.Entry)
				} else if d := journal.EntryDiff(have, *r.Entry); d != "" {
					res.Conflicts = append(res.Conflicts, journal.Conflict{Key: r.Entry.Key, Field: d})
				} else {
					res.Same++
				}
			case r.Unit != nil:
				u := r.Unit
				if err := u.Request.Validate(); err != nil || u.ID == "" {
					return fmt.Errorf("journal: import: a unit needs an identity and a valid request key (%v)", err)
				}
				have, found, err := getUnit(ub, u.Request.Tenant, u.Request.Kind, u.ID)
				if err != nil {
					return err
				}
				if !found {
					units = append(units, *u)
				} else if d := journal.UnitDiff(have, *u); d != "" {
					res.Conflicts = append(res.Conflicts, journal.Conflict{Key: u.Request, Unit: u.ID, Field: d})
				} else {
					res.Same++
				}
			case r.Window != nil:
				if err := r.Window.Validate(); err != nil {
					return err
				}
				var have time.Time
				if v := wb.Get(windowKey(r.Window.Tenant, r.Window.Name)); v != nil {
					if err := have.UnmarshalBinary(v); err != nil {
						return err
					}
				}
				if r.Window.Next.After(have) {
					marks = append(marks, r.Window)
				} else {
					res.Same++
				}
			}
		}
		for _, e := range entries {
			if err := put(eb, e); err != nil {
				return err
			}
		}
		for _, u := range units {
			if err := putUnit(ub, u.Request, u.Unit); err != nil {
				return err
			}
		}
		for _, m := range marks {
			if err := putMark(tx, m); err != nil {
				return err
			}
		}
		res.Written = len(entries) + len(units) + len(marks)
		return nil
	})
	if err != nil {
		return journal.ImportResult{}, fmt.Errorf("journal: import into %s: %w", j.path, err)
	}
	return res, nil
}
