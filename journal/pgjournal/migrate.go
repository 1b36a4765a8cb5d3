package pgjournal

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/nxbatch/nxbatch/msg"
)

// migrations are the schema's versions, applied in order: NNN_name.sql.
// A migration is never edited once released; a change is a new file.
//
//go:embed migrations/*.sql
var migrations embed.FS

// migrateLock is the advisory lock under which the schema is created or
// migrated: two machines starting at once on a new database must not both
// create it.
const migrateLock int64 = 0x6e78626174636801 // "nxbatch" 01

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, f := range files {
		base := strings.TrimPrefix(f, "migrations/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("pgjournal: migration %s is not named NNN_name.sql", base)
		}
		b, err := migrations.ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("pgjournal: migration %s out of sequence (want version %d)", m.name, i+1)
		}
	}
	return out, nil
}

// SchemaVersion is the newest schema this nxbatch knows.
func SchemaVersion() int {
	ms, _ := loadMigrations()
	return len(ms)
}

// migrate brings the schema to this nxbatch's version, in one transaction
// under an advisory lock; a schema newer than this nxbatch knows is refused.
// A schema already at this version is only read: a role with no more than
// USAGE on the schema and SELECT, INSERT, UPDATE and DELETE on its tables
// can run nxbatch once another role (one with CREATE on the database)
// created or migrated it.
func migrate(ctx context.Context, c *pgx.Conn, display string) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	var (
		exists bool
		have   int
	)
	if err := c.QueryRow(ctx, `SELECT to_regclass('nxbatch.migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return err
	}
	if exists {
		if err := c.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM nxbatch.migrations`).Scan(&have); err != nil {
			return err
		}
		switch {
		case have > len(ms):
			return &msg.Error{Msg: msg.New("pgj.newerschema", display, have, len(ms)), Err: ErrNewerSchema}
		case have == len(ms):
			return nil
		}
	}
	if err := create(ctx, c, display, ms); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42501" { // insufficient_privilege
			return &msg.Error{Msg: msg.New("pgj.nocreate", display, have, len(ms)), Err: err}
		}
		return err
	}
	return nil
}

// create creates or migrates the schema under the advisory lock.
func create(ctx context.Context, c *pgx.Conn, display string, ms []migration) error {
	var have int
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrateLock); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS nxbatch`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS nxbatch.migrations (
		version integer PRIMARY KEY,
		name    text NOT NULL,
		applied timestamptz NOT NULL DEFAULT now(),
		by      text NOT NULL)`); err != nil {
		return err
	}
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM nxbatch.migrations`).Scan(&have); err != nil {
		return err
	}
	if have > len(ms) {
		return &msg.Error{Msg: msg.New("pgj.newerschema", display, have, len(ms)), Err: ErrNewerSchema}
	}
	if have == len(ms) {
		return tx.Rollback(ctx) // nothing to do; the lock goes with it
	}
	for _, m := range ms[have:] {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO nxbatch.migrations (version, name, by) VALUES ($1, $2, $3)`,
			m.version, m.name, "nxbatch"); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}
