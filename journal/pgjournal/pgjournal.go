// Package pgjournal is nxbatch's journal in PostgreSQL, for integrators who
// run nxbatch on several machines (Kubernetes CronJobs, a pair of VMs): one
// shared, durable, exactly-once record of every request, with the same
// semantics as the bbolt file (package journal's Store, proved by the same
// contract suite).
//
// What the bbolt file gets from being one file on one machine, this gets
// from the database:
//
//   - Durability: every intent is a committed transaction with
//     synchronous_commit on before Begin returns; PostgreSQL groups the WAL
//     flushes of concurrent commits, as bbolt's group commit does.
//   - One run at a time per tenant: a lease row per tenant, renewed by a
//     heartbeat every third of its time and judged by the database's clock
//     (the one clock every machine shares). Begin checks, in its own
//     transaction, that this run still holds the lease; a run that could
//     not renew it in time sends nothing more.
//   - Recovery: whoever takes a tenant's lease after a holder that is gone
//     (killed, cut off) turns that holder's Sending entries into Unknown in
//     the same transaction, before it can send anything.
//
// The schema (schema nxbatch of the database in the URL) is created and
// migrated by Open: versioned migrations embedded in the binary, applied in
// one transaction under an advisory lock.
package pgjournal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// DefaultLeaseTTL is how long a lease outlives its last renewal: a run that
// dies loses its tenant within this time. The holder renews it every third
// of it, so two renewals may fail (a database failover, a slow network)
// before it is lost.
const DefaultLeaseTTL = 30 * time.Second

// opTimeout bounds one journal operation. A Begin that cannot commit in this
// time fails and the run stops: the stock window persisted with the intent
// counts from the moment the request was to leave, so a request must not
// leave long after it.
const opTimeout = 15 * time.Second

var (
	// ErrNewerSchema means the database holds a schema of a newer nxbatch.
	ErrNewerSchema = errors.New("pgjournal: the journal's schema is newer than this nxbatch")
	// ErrLeaseLost means this run's lease on a tenant expired or was taken
	// by another run: it must not send anything more.
	ErrLeaseLost = errors.New("pgjournal: lease lost")
	// ErrUnreachable is the code of Open's *msg.Error when the database
	// cannot be reached or set up: like an unreachable API, not a
	// misconfiguration.
	ErrUnreachable = errors.New("pgjournal: database unreachable")
)

// Options configure Open.
type Options struct {
	journal.Options
	// LeaseTTL is how long a lease outlives its last renewal (0: the URL's
	// lease_ttl parameter, else DefaultLeaseTTL).
	LeaseTTL time.Duration
	// Host names this machine in the lease, for the message a second run
	// gets ("" : the host name).
	Host string
}

// Store is an open PostgreSQL journal. Its methods are safe for concurrent
// use by the submitting workers.
type Store struct {
	pool    *pgxpool.Pool // journal operations
	lpool   *pgxpool.Pool // leases: their heartbeats never queue behind busy workers
	display string
	secret  string // the password, only to make sure no error carries it
	now     func() time.Time
	retryU  bool
	ttl     time.Duration
	host    string

	mu     sync.Mutex
	broken error             // the first storage-level failure; sticky
	leases map[string]*lease // by tenant

	outMu    sync.Mutex        // guards the outcomes FinishAsync queued
	outs     []*pendingOutcome // waiting to be committed
	outTimer *time.Timer       // commits them together after outcomeDelay
	flights  []*flight         // the timer's commits under way
}

var _ journal.Store = (*Store)(nil)

// IsURL reports whether s names a PostgreSQL journal rather than a file: a
// postgres:// or postgresql:// URL, or a keyword/value connection string
// (host=db dbname=nxbatch password=…), which must never become a file
// named after its password.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://") || isKeywords(s)
}

// Redact is s without its password (in the user part or the password
// parameter of a URL, the password keyword of a keyword/value string), for
// every message, log line and listing: the connection string itself is a
// secret, its display is not. The other parameters are shown as written.
func Redact(s string) string {
	if isKeywords(s) {
		ps, err := parseKeywords(s)
		if err != nil {
			return "host=… (?)"
		}
		return writeKeywords(without(without(ps, "password"), "sslpassword"))
	}
	u, err := url.Parse(s)
	if err != nil {
		return "postgres://…"
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	ps, err := splitQuery(u.RawQuery)
	if err != nil {
		return "postgres://…"
	}
	u.RawQuery = joinQuery(without(without(ps, "password"), "sslpassword"))
	u.ForceQuery = false
	return u.String()
}

// Open connects to the journal at rawURL (a postgres:// URL or a
// keyword/value string), creates or migrates its schema, and returns it.
// It takes no lease: Acquire does, per tenant, once the tenant is known.
// Errors never carry the password.
func Open(ctx context.Context, rawURL string, o Options) (*Store, error) {
	display := Redact(rawURL)
	u, q, err := asURL(rawURL)
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("pgj.badurl", display), Err: errors.New("pgjournal: not a postgres:// URL")}
	}
	ttl := o.LeaseTTL
	if v, ok := lookup(q, "lease_ttl"); ok {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second {
			return nil, &msg.Error{Msg: msg.New("pgj.badparam", "lease_ttl", v, display, msg.New("pgj.want.duration")),
				Err: fmt.Errorf("pgjournal: lease_ttl %q: want a duration of 1s or more", v)}
		}
		if ttl == 0 {
			ttl = d
		}
	}
	if ttl == 0 {
		ttl = DefaultLeaseTTL
	}
	q = without(q, "lease_ttl") // ours, not the server's
	if v, ok := lookup(q, "pool_max_conns"); ok {
		if n, err := strconv.Atoi(v); err != nil || n < 1 {
			return nil, &msg.Error{Msg: msg.New("pgj.badparam", "pool_max_conns", v, display, msg.New("pgj.want.count")),
				Err: fmt.Errorf("pgjournal: pool_max_conns %q: want a whole number of 1 or more", v)}
		}
	} else {
		// pgxpool's default (the number of CPUs) would make 8 workers queue
		// for 2 connections on a 2-core machine.
		q = append(q, param{key: "pool_max_conns", value: "16"})
	}
	// Each parameter as written (or escaped as libpq reads it back): Go's
	// query encoding would turn a space into "+", which libpq and pgx
	// read as a plus.
	u.RawQuery = joinQuery(q)
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("pgj.badurl", display), Err: errors.New("pgjournal: the URL cannot be parsed")}
	}
	secret := cfg.ConnConfig.Password
	sync := "on"
	if o.NoSync {
		sync = "off" // benchmarks comparing only
	}
	cfg.ConnConfig.RuntimeParams["synchronous_commit"] = sync
	s := &Store{display: display, secret: secret, now: o.Now, retryU: o.RetryUnknown, ttl: ttl, host: o.Host, leases: map[string]*lease{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.host == "" {
		s.host, _ = os.Hostname()
	}
	// pg_stat_activity shows which machine and process each connection is
	// (an operator looking for a run, a test waiting for a killed one's
	// connections to end).
	app := fmt.Sprintf("nxbatch %s pid %d", s.host, os.Getpid())
	if len(app) > 63 {
		app = app[len(app)-63:]
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = app
	lcfg := cfg.Copy()
	lcfg.MaxConns = 2
	cctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, cfg.ConnConfig)
	if err != nil {
		return nil, s.connectError(err)
	}
	err = migrate(cctx, conn, display)
	conn.Close(context.Background())
	if err != nil {
		var me *msg.Error
		if errors.As(err, &me) {
			return nil, err
		}
		return nil, s.connectError(fmt.Errorf("schema: %w", err))
	}
	if s.pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err == nil {
		s.lpool, err = pgxpool.NewWithConfig(context.Background(), lcfg)
	}
	if err != nil {
		s.Close()
		return nil, s.connectError(err)
	}
	return s, nil
}

// connectError is a failure to reach or set up the database, in the user's
// words, with the URL shown without its password.
func (s *Store) connectError(err error) error {
	sc := &scrubbed{err: err, text: s.scrub(err.Error())}
	return &msg.Error{Code: ErrUnreachable, Msg: msg.New("pgj.connect", s.display, msg.CauseOf(sc)), Err: sc}
}

// scrubbed is a driver's error with the password taken out of its text; it
// still unwraps to the cause, so a refused connection or a timeout is said
// in the user's words.
type scrubbed struct {
	err  error
	text string
}

func (e *scrubbed) Error() string { return e.text }
func (e *scrubbed) Unwrap() error { return e.err }

// scrub removes the password from a driver's text: pgx does not print
// passwords, and this makes sure of it.
func (s *Store) scrub(text string) string {
	if s.secret != "" {
		text = strings.ReplaceAll(text, s.secret, "xxxxx")
	}
	return strings.TrimSpace(text)
}

// Path is the journal's URL without its password.
func (s *Store) Path() string { return s.display }

// ServeListing does nothing: any machine can read a PostgreSQL journal
// while a run uses it, so nobody needs the running process to answer.
func (s *Store) ServeListing() (func(), error) { return func() {}, nil }

// Close lets go of every lease this journal holds and closes its
// connections.
func (s *Store) Close() error {
	// Every outcome is durable before the lease goes: a run that took the
	// lease would turn a still-sending entry into unknown.
	s.flushOutcomes()
	s.outMu.Lock()
	flights := slices.Clone(s.flights)
	s.outMu.Unlock()
	for _, f := range flights {
		<-f.done
	}
	s.mu.Lock()
	ls := make([]*lease, 0, len(s.leases))
	for _, l := range s.leases {
		ls = append(ls, l)
	}
	s.mu.Unlock()
	var errs []error
	for _, l := range ls {
		errs = append(errs, s.release(l))
	}
	if s.pool != nil {
		s.pool.Close()
	}
	if s.lpool != nil {
		s.lpool.Close()
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("pgjournal: close %s: %w", s.display, err)
	}
	return nil
}

// op is the context of one operation: the caller's, bounded by opTimeout.
func (s *Store) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, opTimeout)
}

// fail records a storage-level failure: it is returned now and by every
// later write, never retried, so that the run stops.
func (s *Store) fail(err error) error {
	if errors.Is(err, context.Canceled) {
		// The caller stopped the operation: the storage did not fail.
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken == nil {
		// Said in the user's words (a cut database is what an integrator
		// meets, not a bug): the run's last line is this message.
		var me *msg.Error
		if !errors.As(err, &me) {
			err = &msg.Error{Msg: msg.New("pgj.failed", s.display, msg.CauseOf(&scrubbed{err: err, text: s.scrub(err.Error())})), Err: err}
		}
		s.broken = err
	}
	return s.broken
}

// brokenErr is the sticky failure, if any.
func (s *Store) brokenErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.broken
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// clean makes text storable: PostgreSQL's text holds neither NUL nor
// invalid UTF-8, and an API message carrying either must not stop a run.
func clean(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// nullTime is t for a nullable column: NULL for the zero time.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// validKey refuses keys bbolt refuses, with the same rules.
func validKey(k journal.Key) error {
	p, err := journal.ParseKey(k.String())
	if err != nil {
		return err
	}
	if p != k {
		return fmt.Errorf("journal key %q: tenant and kind cannot contain '/'", k.String())
	}
	return nil
}
