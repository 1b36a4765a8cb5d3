package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nxbatch/nxbatch/journal"
)

// Export calls fn for every entry (in key order), every unit and every
// window, from one snapshot: a run going on meanwhile changes nothing of
// what is exported.
func (s *Store) Export(ctx context.Context, fn func(journal.Record) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+entryCols+` FROM nxbatch.entries ORDER BY tenant COLLATE "C", kind COLLATE "C", business COLLATE "C"`)
		if err != nil {
			return err
		}
		for rows.Next() {
			e, err := scanEntry(rows)
			if err == nil {
				err = fn(journal.Record{Entry: &e})
			}
			if err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT tenant, kind, id, request, body_hash, body, source FROM nxbatch.units ORDER BY tenant COLLATE "C", kind COLLATE "C", id COLLATE "C"`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var u journal.UnitRecord
			err := rows.Scan(&u.Request.Tenant, &u.Request.Kind, &u.ID, &u.Request.Business, &u.BodyHash, &u.Body, &u.Source)
			if err == nil {
				err = fn(journal.Record{Unit: &u})
			}
			if err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT tenant, name, next FROM nxbatch.windows ORDER BY tenant COLLATE "C", name COLLATE "C"`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var m journal.Mark
			err := rows.Scan(&m.Tenant, &m.Name, &m.Next)
			if err == nil {
				err = fn(journal.Record{Window: &m})
			}
			if err != nil {
				rows.Close()
				return err
			}
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("journal: export %s: %w", s.display, err)
	}
	return nil
}

// Import writes recs in one transaction: what the journal lacks is
// written, what it holds alike is left, what it holds different is
// reported; a window keeps the later time. It refuses, writing nothing,
// when another run holds the lease of a tenant among recs.
func (s *Store) Import(ctx context.Context, recs []journal.Record) (journal.ImportResult, error) {
	var res journal.ImportResult
	tenants := map[string]bool{}
	for _, r := range recs {
		switch {
		case r.Entry != nil:
			if err := validKey(r.Entry.Key); err != nil {
				return res, err
			}
			if !slices.Contains(journal.States, r.Entry.State) {
				return res, fmt.Errorf("journal: import %s: unknown state %q", r.Entry.Key, r.Entry.State)
			}
			tenants[r.Entry.Key.Tenant] = true
		case r.Unit != nil:
			if r.Unit.ID == "" || validKey(r.Unit.Request) != nil {
				return res, errors.New("journal: import: a unit needs an identity and a valid request key")
			}
			tenants[r.Unit.Request.Tenant] = true
		case r.Window != nil:
			if r.Window.Tenant == "" || r.Window.Name == "" {
				return res, errors.New("journal: a rate window needs a tenant and a name")
			}
		}
	}
	if err := s.brokenErr(); err != nil {
		return res, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*opTimeout)
	defer cancel()
	refusal, err := s.inTx(ctx, func(tx pgx.Tx) (error, error) {
		res = journal.ImportResult{}
		for t := range tenants {
			if busy, err := s.heldElsewhere(ctx, tx, t); err != nil || busy != nil {
				return busy, err
			}
		}
		for _, r := range recs {
			var err error
			switch {
			case r.Entry != nil:
				err = s.importEntry(ctx, tx, *r.Entry, &res)
			case r.Unit != nil:
				err = s.importUnit(ctx, tx, *r.Unit, &res)
			case r.Window != nil:
				err = s.importWindow(ctx, tx, *r.Window, &res)
			}
			if err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	if err != nil {
		return journal.ImportResult{}, s.fail(err)
	}
	if refusal != nil {
		return journal.ImportResult{}, refusal
	}
	return res, nil
}

func (s *Store) importEntry(ctx context.Context, tx pgx.Tx, e journal.Entry, res *journal.ImportResult) error {
	have, err := scanEntry(tx.QueryRow(ctx, `SELECT `+entryCols+` FROM nxbatch.entries WHERE tenant = $1 AND kind = $2 AND business = $3`,
		e.Key.Tenant, e.Key.Kind, e.Key.Business))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := tx.Exec(ctx, upsertEntry, entryArgs(e)...); err != nil {
			return err
		}
		res.Written++
		return nil
	case err != nil:
		return err
	}
	if d := journal.EntryDiff(have, e); d != "" {
		res.Conflicts = append(res.Conflicts, journal.Conflict{Key: e.Key, Field: d})
	} else {
		res.Same++
	}
	return nil
}

func (s *Store) importUnit(ctx context.Context, tx pgx.Tx, u journal.UnitRecord, res *journal.ImportResult) error {
	have := journal.UnitRecord{Request: journal.Key{Tenant: u.Request.Tenant, Kind: u.Request.Kind}, Unit: journal.Unit{ID: u.ID}}
	err := tx.QueryRow(ctx, `SELECT request, body_hash, body, source FROM nxbatch.units WHERE tenant = $1 AND kind = $2 AND id = $3`,
		u.Request.Tenant, u.Request.Kind, u.ID).Scan(&have.Request.Business, &have.BodyHash, &have.Body, &have.Source)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if _, err := tx.Exec(ctx, upsertUnits, unitArgs(u.Request, []journal.Unit{u.Unit})...); err != nil {
			return err
		}
		res.Written++
		return nil
	case err != nil:
		return err
	}
	if d := journal.UnitDiff(have, u); d != "" {
		res.Conflicts = append(res.Conflicts, journal.Conflict{Key: u.Request, Unit: u.ID, Field: d})
	} else {
		res.Same++
	}
	return nil
}

func (s *Store) importWindow(ctx context.Context, tx pgx.Tx, m journal.Mark, res *journal.ImportResult) error {
	var have time.Time
	err := tx.QueryRow(ctx, `SELECT next FROM nxbatch.windows WHERE tenant = $1 AND name = $2`, m.Tenant, m.Name).Scan(&have)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if !m.Next.Truncate(time.Microsecond).After(have) {
		res.Same++
		return nil
	}
	if _, err := tx.Exec(ctx, upsertWindow, m.Tenant, m.Name, m.Next); err != nil {
		return err
	}
	res.Written++
	return nil
}
