package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// lease is a tenant's lease held by this journal.
type lease struct {
	tenant, holder string
	lost           atomic.Bool
	stop           chan struct{}
	done           chan struct{}
}

// holding returns the lease this journal holds on tenant: Begin needs it.
func (s *Store) holding(tenant string) (*lease, error) {
	s.mu.Lock()
	l := s.leases[tenant]
	s.mu.Unlock()
	switch {
	case l == nil:
		return nil, fmt.Errorf("journal: begin for tenant %s: %w", tenant, journal.ErrNoLease)
	case l.lost.Load():
		return nil, s.fail(s.leaseLost(tenant))
	}
	return l, nil
}

func (s *Store) leaseLost(tenant string) error {
	return &msg.Error{Msg: msg.New("pgj.leaselost", tenant, s.display), Err: ErrLeaseLost}
}

// pollEvery is how often a waiting Acquire looks at the lease again.
func (s *Store) pollEvery() time.Duration { return min(time.Second, s.ttl/10) }

// Acquire takes tenant's lease, waiting up to wait for its holder to let go
// or to be gone (its lease expired: at most the holder's lease time after
// its last renewal). In the transaction that takes it, the Sending entries
// the previous holder left become Unknown: their requests may have reached
// the API. A heartbeat renews the lease every third of its time until
// release (or Close).
func (s *Store) Acquire(ctx context.Context, tenant string, wait time.Duration) (func() error, error) {
	if tenant == "" {
		return nil, errors.New("journal: a lease needs a tenant")
	}
	s.mu.Lock()
	_, held := s.leases[tenant]
	s.mu.Unlock()
	if held {
		return nil, fmt.Errorf("journal: this run already holds the lease of tenant %s", tenant)
	}
	l := &lease{tenant: tenant, holder: randomID(), stop: make(chan struct{}), done: make(chan struct{})}
	deadline := time.Now().Add(wait)
	for {
		busy, err := s.tryAcquire(ctx, l)
		if err != nil {
			return nil, fmt.Errorf("journal: lease of tenant %s in %s: %w", tenant, s.display, err)
		}
		if busy == nil {
			break
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, busy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(left, s.pollEvery())):
		}
	}
	s.mu.Lock()
	s.leases[tenant] = l
	s.mu.Unlock()
	go s.heartbeat(l)
	return func() error { return s.release(l) }, nil
}

// tryAcquire takes the lease if nobody else holds a live one; busy says who
// does.
func (s *Store) tryAcquire(ctx context.Context, l *lease) (busy error, err error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	return s.leaseTx(ctx, func(tx pgx.Tx) (error, error) {
		if busy, err := s.heldElsewhere(ctx, tx, l.tenant); err != nil || busy != nil {
			return busy, err
		}
		// One reading of the clock for all three times, so that a lease
		// lasts exactly its length after each renewal.
		tag, err := tx.Exec(ctx, `INSERT INTO nxbatch.leases (tenant, holder, host, pid, acquired, renewed, expires)
			SELECT $1, $2, $3, $4, c.t, c.t, c.t + $5 * interval '1 microsecond' FROM (SELECT clock_timestamp() AS t) c
			ON CONFLICT (tenant) DO UPDATE SET holder = EXCLUDED.holder, host = EXCLUDED.host, pid = EXCLUDED.pid,
				acquired = EXCLUDED.acquired, renewed = EXCLUDED.renewed, expires = EXCLUDED.expires
			WHERE nxbatch.leases.expires <= clock_timestamp()`,
			l.tenant, l.holder, s.host, os.Getpid(), s.ttl.Microseconds())
		if err != nil {
			return nil, err
		}
		if tag.RowsAffected() == 0 {
			// Another run took it between our look and our write.
			return s.heldElsewhere(ctx, tx, l.tenant)
		}
		now := s.now()
		_, err = tx.Exec(ctx, `UPDATE nxbatch.entries SET state = 'unknown', message = $2, updated = $3, held = $3
			WHERE tenant = $1 AND state = 'sending'`, l.tenant, msg.New("jrn.interrupted").In(msg.ES), now)
		return nil, err
	})
}

// heldElsewhere locks tenant's lease row (waiting for the Begins that check
// it to commit) and says who holds it, when that is a live lease of another
// run; nil when it is free, expired or ours.
func (s *Store) heldElsewhere(ctx context.Context, tx pgx.Tx, tenant string) (error, error) {
	var (
		holder, host string
		pid          int
		expires      time.Time
		live         bool
	)
	err := tx.QueryRow(ctx, `SELECT holder, host, pid, expires, expires > clock_timestamp() FROM nxbatch.leases
		WHERE tenant = $1 FOR UPDATE`, tenant).Scan(&holder, &host, &pid, &expires, &live)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	case !live:
		return nil, nil
	}
	s.mu.Lock()
	l := s.leases[tenant]
	s.mu.Unlock()
	if l != nil && l.holder == holder {
		return nil, nil
	}
	who := msg.New("pgj.holder", host, pid, expires.Local().Format("15:04:05"))
	return &msg.Error{Msg: msg.New("pgj.locked", s.display, tenant, who), Err: journal.ErrLocked}, nil
}

// leaseTx is inTx on the leases' own connections.
func (s *Store) leaseTx(ctx context.Context, fn func(pgx.Tx) (error, error)) (error, error) {
	tx, err := s.lpool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	refusal, err := fn(tx)
	if err != nil || refusal != nil {
		return refusal, err
	}
	return nil, tx.Commit(ctx)
}

// heartbeat renews l every third of the lease time. A renewal that finds
// the lease gone (expired and taken, or expired while the database could
// not be reached) marks it lost: Begin refuses from then on. A failed
// renewal is tried again at the next beat; Begin's own check, against the
// database's clock, is what keeps a run whose lease ran out from sending.
func (s *Store) heartbeat(l *lease) {
	defer close(l.done)
	t := time.NewTicker(s.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		// The heartbeat is the store's own work, for as long as the lease
		// is held: no caller's context bounds it.
		ctx, cancel := context.WithTimeout(context.Background(), s.ttl/3)
		tag, err := s.lpool.Exec(ctx, `UPDATE nxbatch.leases
			SET renewed = c.t, expires = c.t + $3 * interval '1 microsecond' FROM (SELECT clock_timestamp() AS t) c
			WHERE tenant = $1 AND holder = $2 AND expires > c.t`, l.tenant, l.holder, s.ttl.Microseconds())
		cancel()
		if err == nil && tag.RowsAffected() == 0 {
			l.lost.Store(true)
			return
		}
	}
}

// release stops l's heartbeat and lets the lease go, so that the next run
// of the tenant need not wait for it to expire.
func (s *Store) release(l *lease) error {
	s.mu.Lock()
	if s.leases[l.tenant] != l {
		s.mu.Unlock()
		return nil // released already
	}
	delete(s.leases, l.tenant)
	s.mu.Unlock()
	close(l.stop)
	<-l.done
	// Letting go is never cancelled: a lease left behind keeps the next run
	// waiting for it to expire.
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	if _, err := s.lpool.Exec(ctx, `DELETE FROM nxbatch.leases WHERE tenant = $1 AND holder = $2`, l.tenant, l.holder); err != nil {
		return fmt.Errorf("release the lease of tenant %s: %w", l.tenant, err)
	}
	return nil
}
