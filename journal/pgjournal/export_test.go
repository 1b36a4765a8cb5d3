package pgjournal

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nxbatch/nxbatch/journal"
)

// Crash ends s as a killed process would: its heartbeats stop and its
// connections close, and its leases stay in the database until they expire.
func Crash(js journal.Store) {
	s := js.(*Store)
	s.mu.Lock()
	ls := s.leases
	s.leases = map[string]*lease{}
	s.mu.Unlock()
	for _, l := range ls {
		close(l.stop)
		<-l.done
	}
	s.pool.Close()
	s.lpool.Close()
}

// PauseHeartbeats stops renewing s's leases, as a process stopped or cut
// off would, without closing anything.
func PauseHeartbeats(js journal.Store) {
	s := js.(*Store)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.leases {
		close(l.stop)
		<-l.done
		l.stop = make(chan struct{}) // release closes it again
		l.done = make(chan struct{})
		close(l.done)
	}
}

// Setting is the value of a server setting in s's sessions.
func Setting(js journal.Store, name string) (string, error) {
	s := js.(*Store)
	ctx, cancel := s.op(context.Background())
	defer cancel()
	var v string
	err := s.pool.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&v)
	return v, err
}

// LeaseLength is how far ahead of its last renewal tenant's lease expires,
// as the database holds it.
func LeaseLength(js journal.Store, tenant string) (time.Duration, error) {
	s := js.(*Store)
	ctx, cancel := s.op(context.Background())
	defer cancel()
	var us int64
	err := s.pool.QueryRow(ctx, "SELECT (extract(epoch FROM expires - renewed) * 1e6)::bigint FROM nxbatch.leases WHERE tenant = $1", tenant).Scan(&us)
	return time.Duration(us) * time.Microsecond, err
}

// MigrateTo creates the schema at url as the nxbatch that knew only the
// first version migrations would have: the database an upgrade finds.
func MigrateTo(ctx context.Context, url string, version int) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if version < 1 || version > len(ms) {
		return fmt.Errorf("no schema version %d", version)
	}
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	return create(ctx, c, "test", ms[:version])
}
