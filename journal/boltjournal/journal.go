// Package boltjournal is the journal of one machine: a bbolt file that
// records, for every request, the intent before it is sent and the outcome
// after, so that no run ever sends twice what may already have been
// processed. Its *Journal is a journal.Store; package journal holds the
// types, the rules and the contract it shares with package pgjournal.
//
// The journal is storage: it knows requests, their states and the units
// they carry, never the API's rules. The caller says how long a key is held
// after an attempt (package sendrules knows the API's 30 s), and which rate
// window to move with an intent or an outcome.
//
// The life of an entry:
//
//	Begin                  -> Sending   (durable before the request leaves)
//	Finish                 -> OK | Rejected | Unknown | Unsent
//	Open after a crash     Sending -> Unknown
//	Resolve (operator)     Unknown -> OK | Failed
//
// Rejected, Failed and Unsent entries may be sent again (Begin accepts them);
// OK, Unknown and Sending entries are refused, and so is a key whose previous
// attempt may have reached the API less than Intent.Hold ago. Unsent means
// the request provably never left (no connection was made): it holds no key.
//
// A request may carry units: the rows of a stock movement, each with its own
// identity. The unit is what exactly-once is about (a row of an inventory
// count must move stock once), the request is transport: a unit belongs to
// the last request that carried it, and Begin refuses a request carrying a
// unit whose request is OK, Unknown or Sending.
//
// Every write is a committed, fsynced bbolt transaction when the method
// returns; concurrent writes share transactions (group commit). A write that
// fails at the storage level (a failed fsync, a full disk) is never retried:
// it is returned, and every later write returns it too, so the caller stops
// the run.
//
// The file's format is versioned, and a small high-water record beside it
// (NAME.hwm) holds the journal's identity and its last committed
// transaction: Open refuses a journal that is empty, damaged, from another
// format, or behind what was last committed (a restored copy, a lost page),
// with a message saying what to do, instead of silently using it as new.
//
// bbolt takes an exclusive flock on the file, so a second nxbatch process on
// the same journal gets journal.ErrLocked (or waits, see
// journal.Options.LockTimeout); the kernel drops the lock when a process
// dies, so a crash leaves no stale lock. While a run holds it, the journal
// can still be listed through the running process (ServeListing,
// ListRunning).
package boltjournal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// ErrUnusable means Open refused the file: empty, damaged, of another
// format, or behind what was last committed. Open returns it wrapped in
// a *msg.Error that says what happened and what to do.
var ErrUnusable = errors.New("journal file cannot be used")

var (
	entriesBucket = []byte("entries")
	unitsBucket   = []byte("units")
	windowsBucket = []byte("windows")
)

// Journal is an open journal file. Its methods are safe for concurrent use
// by the submitting workers.
type Journal struct {
	db     *bolt.DB
	path   string
	id     string // the journal's identity, also in the high-water record
	hwm    *hwmFile
	now    func() time.Time
	retryU bool
	// commit runs a write transaction; it is db.Update, swapped by benchmarks
	// that compare strategies.
	commit func(func(*bolt.Tx) error) error

	mu     sync.Mutex
	broken error // the first storage-level write failure; sticky

	gmu     sync.Mutex      // guards the group commit's queue and leader
	queue   []*pendingWrite // writes waiting for the next group commit
	leading bool            // a writer is committing a group
}

// Open opens (creating it, and its folder, if needed) the journal at path
// and takes its lock. A journal that exists but cannot be trusted (empty,
// damaged, another format, behind its high-water record) is refused with
// an error matching ErrUnusable. Entries a crashed run left in Sending
// become Unknown, durably, before Open returns: their request may have
// reached the API.
func Open(path string, o journal.Options) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, &msg.Error{Msg: msg.New("jrn.mkdir", path, msg.CauseOf(err)), Err: err}
	}
	fresh, err := preflight(path)
	if err != nil {
		return nil, err
	}
	timeout := o.LockTimeout
	switch {
	case timeout == 0:
		// bbolt reads 0 as "wait forever"; any positive value shorter than its
		// 50 ms retry step gives up after the first failed try.
		timeout = time.Nanosecond
	case timeout < 0:
		timeout = 0
	}
	var db *bolt.DB
	err = guard(func() error {
		var err error
		db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, OpenFile: atomicfile.OpenFile})
		return err
	})
	if errors.Is(err, atomicfile.ErrSymlink) {
		// A link planted after preflight looked.
		return nil, unusable(path, "jrn.symlink", err)
	}
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &msg.Error{Msg: msg.New("jrn.locked", path), Err: journal.ErrLocked}
	}
	if err != nil {
		return nil, unusable(path, "jrn.damaged", err, err.Error())
	}
	db.NoSync = o.NoSync
	j := &Journal{db: db, path: path, now: o.Now, retryU: o.RetryUnknown}
	if j.now == nil {
		j.now = time.Now
	}
	j.commit = db.Update
	if err := j.init(fresh); err != nil {
		db.Close()
		return nil, err
	}
	if err := j.recover(); err != nil {
		db.Close()
		return nil, err
	}
	return j, nil
}

// recover turns every Sending entry into Unknown.
func (j *Journal) recover() error {
	reason := msg.New("jrn.interrupted").In(msg.ES)
	return j.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		var stuck []journal.Entry
		err := b.ForEach(func(k, v []byte) error {
			e, err := decode(k, v)
			if err != nil {
				return err
			}
			if e.State == journal.Sending {
				stuck = append(stuck, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// The crashed process is gone, and its connections with it: whatever
		// it sent has arrived by now or never will.
		now := j.now()
		for _, e := range stuck {
			e.State, e.Message, e.Updated, e.Held = journal.Unknown, reason, now, now
			if err := put(b, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// update runs fn in a write transaction outside the group commit (Open's
// own writes) and records the high-water mark.
func (j *Journal) update(fn func(*bolt.Tx) error) error {
	var txid int
	err := guard(func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			txid = tx.ID()
			return fn(tx)
		})
	})
	if err != nil {
		return fmt.Errorf("journal: write %s: %w", j.path, err)
	}
	return j.hwm.record(txid)
}

// Close releases the lock and closes the file.
func (j *Journal) Close() error {
	err := j.db.Close()
	if herr := j.hwm.close(); err == nil {
		err = herr
	}
	if err != nil {
		return fmt.Errorf("journal: close %s: %w", j.path, err)
	}
	return nil
}

// Path is the journal's file name.
func (j *Journal) Path() string { return j.path }

// write commits fn durably. A refusal fn itself returns (a logic error) is
// passed through; any other failure is a storage failure: it is returned
// now and by every later write, never retried.
//
// Writes are group-committed: while one transaction is being committed
// (an fsync, most of a write's cost), the writes that arrive queue up, and
// the next of them to lead commits them all in one transaction and one
// fsync. An idle journal commits at once; eight busy workers share their
// fsyncs instead of waiting for each other's in turn. Every write still
// returns only after its own transaction is durable.
//
// Because several writes share a transaction, fn must decide any refusal
// before it writes anything: a refusal does not roll back the transaction,
// so that it cannot undo the other writes of the group. Every fn in this
// file checks first and puts last.
func (j *Journal) write(ctx context.Context, fn func(*bolt.Tx) error) error {
	w, lead, err := j.enqueue(ctx, fn)
	if err != nil {
		return err
	}
	return j.await(w, lead)
}

// enqueue queues fn for the next group commit; lead says the caller must
// commit it (await does).
func (j *Journal) enqueue(ctx context.Context, fn func(*bolt.Tx) error) (w *pendingWrite, lead bool, err error) {
	// A transaction of bbolt cannot be interrupted: a context done before
	// the write is queued stops it, once queued it completes.
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	j.mu.Lock()
	broken := j.broken
	j.mu.Unlock()
	if broken != nil {
		return nil, false, broken
	}
	w = &pendingWrite{fn: fn, wake: make(chan bool, 1)}
	j.gmu.Lock()
	j.queue = append(j.queue, w)
	lead = !j.leading
	j.leading = true
	j.gmu.Unlock()
	return w, lead, nil
}

// await returns once w is durable (or failed), leading a group commit when
// lead is set or when the previous leader hands the lead over.
func (j *Journal) await(w *pendingWrite, lead bool) error {
	if !lead && !<-w.wake {
		return w.err // a leader committed it
	}

	// Lead: commit everything queued, this write included, then pass the
	// lead to the first write that queued meanwhile, so that no leader
	// keeps committing for others after its own write is durable.
	j.gmu.Lock()
	group := j.queue
	j.queue = nil
	j.gmu.Unlock()
	j.commitGroup(group)
	j.gmu.Lock()
	if len(j.queue) > 0 {
		j.queue[0].wake <- true
	} else {
		j.leading = false
	}
	j.gmu.Unlock()
	for _, o := range group {
		if o != w {
			o.wake <- false
		}
	}
	return w.err
}

// pendingWrite is one write waiting for its group's commit.
type pendingWrite struct {
	fn   func(*bolt.Tx) error
	err  error     // fn's refusal, or the storage failure; set before wake
	wake chan bool // true: lead the next group; false: committed (see err)
}

// commitGroup runs every write of group in one transaction, records each
// one's result, and then the high-water mark.
func (j *Journal) commitGroup(group []*pendingWrite) {
	var txid int
	err := guard(func() error {
		return j.commit(func(tx *bolt.Tx) error {
			txid = tx.ID()
			for _, w := range group {
				w.err = w.fn(tx)
			}
			return nil
		})
	})
	if err == nil {
		err = j.hwm.record(txid)
	}
	if err == nil {
		return
	}
	err = &msg.Error{Msg: msg.New("jrn.writefailed", j.path, msg.CauseOf(err)), Err: err}
	j.mu.Lock()
	if j.broken == nil {
		j.broken = err
	}
	err = j.broken
	j.mu.Unlock()
	for _, w := range group {
		w.err = err
	}
}

// view runs fn in a read transaction, turning a fault on a damaged page into
// an error.
func (j *Journal) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	// As for writes: a done context stops a read before it starts.
	if err := ctx.Err(); err != nil {
		return err
	}
	return guard(func() error { return j.db.View(fn) })
}

// Get returns the entry for k, if any.
func (j *Journal) Get(ctx context.Context, k journal.Key) (journal.Entry, bool, error) {
	var (
		e     journal.Entry
		found bool
	)
	err := j.view(ctx, func(tx *bolt.Tx) error {
		var err error
		e, found, err = get(tx.Bucket(entriesBucket), k)
		return err
	})
	if err != nil {
		return journal.Entry{}, false, fmt.Errorf("journal: read %s: %w", k, err)
	}
	return e, found, nil
}

// Lookup returns the entries of keys that have one, in one read.
func (j *Journal) Lookup(ctx context.Context, keys []journal.Key) (map[journal.Key]journal.Entry, error) {
	out := make(map[journal.Key]journal.Entry)
	err := j.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		for _, k := range keys {
			e, found, err := get(b, k)
			if err != nil {
				return err
			}
			if found {
				out[k] = e
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", j.path, err)
	}
	return out, nil
}

// Units returns, in one read, the units of kind for tenant among ids that
// the journal knows, with the entry of the last request that carried each.
func (j *Journal) Units(ctx context.Context, tenant, kind string, ids []string) (map[string]journal.UnitRecord, map[journal.Key]journal.Entry, error) {
	units := make(map[string]journal.UnitRecord)
	reqs := make(map[journal.Key]journal.Entry)
	err := j.view(ctx, func(tx *bolt.Tx) error {
		ub, eb := tx.Bucket(unitsBucket), tx.Bucket(entriesBucket)
		for _, id := range ids {
			u, found, err := getUnit(ub, tenant, kind, id)
			if err != nil {
				return err
			}
			if !found {
				continue
			}
			units[id] = u
			if _, seen := reqs[u.Request]; seen {
				continue
			}
			e, found, err := get(eb, u.Request)
			if err != nil {
				return err
			}
			if found {
				reqs[u.Request] = e
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("journal: read %s: %w", j.path, err)
	}
	return units, reqs, nil
}

// Begin records the intent to send k, durably, before the request leaves:
// State Sending, Last (and First, the first time) now, the body hash, the
// source rows and the units it carries (each now belongs to k), and the
// rate window's mark when in.Window is set. It refuses with a
// *NotSendableError when the entry is OK, Sending or Unknown (unless
// Options.RetryUnknown), or when a unit it carries belongs to another
// request in one of those states: the caller decides
// skip/conflict/unknown before, this is the safety net against a double
// send. It refuses with a *TooSoonError while the previous attempt may have
// arrived less than in.Hold ago.
func (j *Journal) Begin(ctx context.Context, k journal.Key, in journal.Intent) (journal.Entry, error) {
	if err := k.Validate(); err != nil {
		return journal.Entry{}, err
	}
	var out journal.Entry
	err := j.write(ctx, func(tx *bolt.Tx) error {
		b, ub := tx.Bucket(entriesBucket), tx.Bucket(unitsBucket)
		e, found, err := get(b, k)
		if err != nil {
			return err
		}
		now := j.now()
		if found {
			if !e.State.Sendable(j.retryU) {
				return &journal.NotSendableError{Key: k, State: e.State}
			}
			if wait := in.Hold - now.Sub(e.Held); in.Hold > 0 && !e.Held.IsZero() && wait > 0 {
				// A clock set back makes Held look in the future; never ask
				// for more than one hold.
				return &journal.TooSoonError{Key: k, Hold: in.Hold, Wait: min(wait, in.Hold)}
			}
		} else {
			e = journal.Entry{Key: k, First: now}
		}
		for _, u := range in.Units {
			prev, found, err := getUnit(ub, k.Tenant, k.Kind, u.ID)
			if err != nil {
				return err
			}
			if !found || prev.Request == k {
				continue
			}
			pe, found, err := get(b, prev.Request)
			if err != nil {
				return err
			}
			if found && !pe.State.Sendable(j.retryU) {
				return &journal.NotSendableError{Key: k, Unit: u.ID, State: pe.State}
			}
		}
		e.State, e.Attempts, e.Last, e.Updated = journal.Sending, e.Attempts+1, now, now
		e.BodyHash, e.Source, e.Facts = in.BodyHash, in.Source, in.Facts
		e.FacturaID, e.Numero, e.PVNumero, e.Message = 0, 0, 0, ""
		e.Units = e.Units[:0]
		for _, u := range in.Units {
			e.Units = append(e.Units, u.ID)
			if err := putUnit(ub, k, u); err != nil {
				return err
			}
		}
		if err := putMark(tx, in.Window); err != nil {
			return err
		}
		out = e
		return put(b, e)
	})
	if err != nil {
		return journal.Entry{}, err
	}
	return out, nil
}

// Finish records the outcome of k's request, durably: OK with the ids the
// API returned, Rejected or Unknown with the API's text or the reason, or
// Unsent when the request provably never left (the attempt is then not
// counted and holds no key). The entry must be Sending (Begin was called).
func (j *Journal) Finish(ctx context.Context, k journal.Key, out journal.Outcome) error {
	fn, err := j.finish(k, out)
	if err != nil {
		return err
	}
	return j.write(ctx, fn)
}

// FinishAsync is Finish that does not wait: the write is queued before it
// returns and the channel receives its result once it is durable. A worker
// that records an outcome this way and then calls Begin for its next
// request gets both into one group commit, one fsync instead of two; and
// since any later write commits in the same group or after it, a failure
// of this one fails them too.
func (j *Journal) FinishAsync(ctx context.Context, k journal.Key, out journal.Outcome) <-chan error {
	done := make(chan error, 1)
	fn, err := j.finish(k, out)
	if err != nil {
		done <- err
		return done
	}
	w, lead, err := j.enqueue(ctx, fn)
	if err != nil {
		done <- err
		return done
	}
	go func() { done <- j.await(w, lead) }()
	return done
}

// finish builds Finish's write.
func (j *Journal) finish(k journal.Key, out journal.Outcome) (func(*bolt.Tx) error, error) {
	switch out.State {
	case journal.OK, journal.Rejected, journal.Unknown, journal.Unsent:
	default:
		return nil, fmt.Errorf("journal: finish %s as %q: want ok, rejected, unknown or unsent", k, out.State)
	}
	return func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		e, found, err := get(b, k)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("finish %s: %w", k, journal.ErrNotFound)
		case e.State != journal.Sending:
			return fmt.Errorf("finish %s: it is %s, not sending: %w", k, e.State, journal.ErrWrongState)
		}
		now := j.now()
		e.State, e.FacturaID, e.Numero, e.PVNumero = out.State, out.FacturaID, out.Numero, out.PVNumero
		e.Message, e.Updated = out.Message, now
		if out.State == journal.Unsent {
			e.Attempts--
		} else {
			e.Held = now
		}
		if err := putMark(tx, out.Window); err != nil {
			return err
		}
		return put(b, e)
	}, nil
}

// Resolve records a verdict on an entry whose outcome is not known
// (Unknown, or Sending): OK (it was created in the ERP) or Failed (it was
// not; a later run may send it again).
func (j *Journal) Resolve(ctx context.Context, k journal.Key, v journal.Verdict) error {
	if v.As != journal.OK && v.As != journal.Failed {
		return fmt.Errorf("journal: resolve %s as %q: want ok or failed", k, v.As)
	}
	return j.write(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		e, found, err := get(b, k)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("resolve %s: %w", k, journal.ErrNotFound)
		case e.State != journal.Unknown && e.State != journal.Sending:
			return fmt.Errorf("resolve %s: it is %s, only unknown entries are resolved: %w", k, e.State, journal.ErrWrongState)
		}
		e.State, e.Note, e.Evidence, e.Updated = v.As, v.Note, v.Evidence, j.now()
		if v.As == journal.OK && (v.FacturaID != 0 || v.Numero != 0 || v.PVNumero != 0) {
			e.FacturaID, e.Numero, e.PVNumero = v.FacturaID, v.Numero, v.PVNumero
		}
		return put(b, e)
	})
}

// List returns the entries in state filter ("" for all), sorted by key
// (tenant, kind, business).
func (j *Journal) List(ctx context.Context, filter journal.State) ([]journal.Entry, error) {
	if filter != "" && !filter.Valid() {
		return nil, fmt.Errorf("journal: unknown state %q: want sending, ok, rejected, unknown, failed or unsent", filter)
	}
	var out []journal.Entry
	err := j.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(entriesBucket).ForEach(func(k, v []byte) error {
			e, err := decode(k, v)
			if err != nil {
				return err
			}
			if filter == "" || e.State == filter {
				out = append(out, e)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("journal: list %s: %w", j.path, err)
	}
	return out, nil
}

// NextAllowed returns the persisted "next allowed time" of a rate window for
// a tenant, or the zero time if none was set.
func (j *Journal) NextAllowed(ctx context.Context, tenant, window string) (time.Time, error) {
	var t time.Time
	err := j.view(ctx, func(tx *bolt.Tx) error {
		v := tx.Bucket(windowsBucket).Get(windowKey(tenant, window))
		if v == nil {
			return nil
		}
		return t.UnmarshalBinary(v)
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("journal: read window %s of %s: %w", window, tenant, err)
	}
	return t, nil
}

// SetNextAllowed persists the "next allowed time" of a rate window, so a
// restarted run does not send early and trip a 403.
func (j *Journal) SetNextAllowed(ctx context.Context, tenant, window string, t time.Time) error {
	m := &journal.Mark{Tenant: tenant, Name: window, Next: t}
	if err := m.Validate(); err != nil {
		return err
	}
	return j.write(ctx, func(tx *bolt.Tx) error { return putMark(tx, m) })
}

// Reserve takes a rate window if its next allowed time is at or before
// now (see Store.Reserve): the read and the write are one transaction.
func (j *Journal) Reserve(ctx context.Context, tenant, window string, now time.Time, d time.Duration) (granted bool, next time.Time, err error) {
	m := &journal.Mark{Tenant: tenant, Name: window}
	if err := m.Validate(); err != nil {
		return false, time.Time{}, err
	}
	err = j.write(ctx, func(tx *bolt.Tx) error {
		// A group commit runs the writes of one transaction one after the
		// other: a concurrent Reserve of the same window sees this one's.
		granted, next = false, time.Time{}
		if v := tx.Bucket(windowsBucket).Get(windowKey(tenant, window)); v != nil {
			if err := next.UnmarshalBinary(v); err != nil {
				return err
			}
			if next.After(now) {
				return nil
			}
		}
		m.Next = now.Add(d)
		if err := putMark(tx, m); err != nil {
			return err
		}
		granted, next = true, m.Next
		return nil
	})
	if err != nil {
		return false, time.Time{}, fmt.Errorf("journal: reserve window %s of %s: %w", window, tenant, err)
	}
	return granted, next, nil
}

func putMark(tx *bolt.Tx, m *journal.Mark) error {
	if m == nil {
		return nil
	}
	if err := m.Validate(); err != nil {
		return err
	}
	v, err := m.Next.MarshalBinary()
	if err != nil {
		return fmt.Errorf("journal: window %s of %s: %w", m.Name, m.Tenant, err)
	}
	return tx.Bucket(windowsBucket).Put(windowKey(m.Tenant, m.Name), v)
}

func windowKey(tenant, window string) []byte {
	return []byte(tenant + "\x00" + window)
}

// record is the stored form of an Entry (the key is the bucket key). Its
// field names are the file format: rename with care, and bump
// formatVersion when a change would be misread by an older nxbatch.
type record struct {
	BodyHash  string        `json:"body_hash,omitempty"`
	State     journal.State `json:"state"`
	Attempts  int           `json:"attempts"`
	First     time.Time     `json:"first"`
	Last      time.Time     `json:"last"`
	Held      time.Time     `json:"held,omitzero"`
	FacturaID int64         `json:"factura_id,omitempty"`
	Numero    int64         `json:"numero,omitempty"`
	PVNumero  int64         `json:"pv_numero,omitempty"`
	Message   string        `json:"message,omitempty"`
	Note      string        `json:"note,omitempty"`
	Source    string        `json:"source,omitempty"`
	Updated   time.Time     `json:"updated"`
	Units     []string      `json:"units,omitempty"`
	Evidence  string        `json:"evidence,omitempty"`
	// Facts came after format 2 without a bump: an older nxbatch reads an
	// entry that has them (it ignores the field) and drops them when it
	// writes the entry again, which only leaves a later reconciliation
	// knowing less; an entry written before reads as "".
	Facts string `json:"facts,omitempty"`
}

// unitRecord is the stored form of a UnitRecord.
type unitRecord struct {
	Request  string `json:"request"` // the business part of the request's key
	BodyHash string `json:"body_hash"`
	Body     string `json:"body,omitempty"`
	Source   string `json:"source,omitempty"`
}

func get(b *bolt.Bucket, k journal.Key) (journal.Entry, bool, error) {
	v := b.Get(keyBytes(k))
	if v == nil {
		return journal.Entry{}, false, nil
	}
	e, err := decode(keyBytes(k), v)
	return e, err == nil, err
}

func put(b *bolt.Bucket, e journal.Entry) error {
	v, err := json.Marshal(record{
		BodyHash: e.BodyHash, State: e.State, Attempts: e.Attempts, First: e.First, Last: e.Last, Held: e.Held,
		FacturaID: e.FacturaID, Numero: e.Numero, PVNumero: e.PVNumero,
		Message: e.Message, Note: e.Note, Source: e.Source, Updated: e.Updated, Units: e.Units, Evidence: e.Evidence,
		Facts: e.Facts,
	})
	if err != nil {
		return err
	}
	return b.Put(keyBytes(e.Key), v)
}

func decode(k, v []byte) (journal.Entry, error) {
	key, err := keyFromBytes(k)
	if err != nil {
		return journal.Entry{}, err
	}
	var r record
	if err := json.Unmarshal(v, &r); err != nil {
		return journal.Entry{}, fmt.Errorf("journal: entry %s is corrupt: %w", key, err)
	}
	if !r.State.Valid() {
		return journal.Entry{}, fmt.Errorf("journal: entry %s has an unknown state %q", key, r.State)
	}
	return journal.Entry{
		Key: key, BodyHash: r.BodyHash, State: r.State, Attempts: r.Attempts, First: r.First, Last: r.Last, Held: r.Held,
		FacturaID: r.FacturaID, Numero: r.Numero, PVNumero: r.PVNumero,
		Message: r.Message, Note: r.Note, Source: r.Source, Updated: r.Updated, Units: r.Units, Evidence: r.Evidence,
		Facts: r.Facts,
	}, nil
}

func unitKey(tenant, kind, id string) []byte {
	return keyBytes(journal.Key{Tenant: tenant, Kind: kind, Business: id})
}

func getUnit(b *bolt.Bucket, tenant, kind, id string) (journal.UnitRecord, bool, error) {
	v := b.Get(unitKey(tenant, kind, id))
	if v == nil {
		return journal.UnitRecord{}, false, nil
	}
	var r unitRecord
	if err := json.Unmarshal(v, &r); err != nil {
		return journal.UnitRecord{}, false, fmt.Errorf("journal: unit %s/%s/%s is corrupt: %w", tenant, kind, id, err)
	}
	return journal.UnitRecord{
		Unit:    journal.Unit{ID: id, BodyHash: r.BodyHash, Body: r.Body, Source: r.Source},
		Request: journal.Key{Tenant: tenant, Kind: kind, Business: r.Request},
	}, true, nil
}

func putUnit(b *bolt.Bucket, req journal.Key, u journal.Unit) error {
	if u.ID == "" {
		return errors.New("journal: a unit needs an identity")
	}
	v, err := json.Marshal(unitRecord{Request: req.Business, BodyHash: u.BodyHash, Body: u.Body, Source: u.Source})
	if err != nil {
		return err
	}
	return b.Put(unitKey(req.Tenant, req.Kind, u.ID), v)
}

// HasTenant reports whether the journal holds any entry of tenant.
func (j *Journal) HasTenant(ctx context.Context, tenant string) (bool, error) {
	prefix := append([]byte(tenant), 0)
	found := false
	err := j.view(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		if b == nil {
			return nil
		}
		k, _ := b.Cursor().Seek(prefix)
		found = k != nil && bytes.HasPrefix(k, prefix)
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("journal: entries of %s: %w", tenant, err)
	}
	return found, nil
}

// keyBytes is the storage form of k: its parts joined with NUL, so that
// byte order is (tenant, kind, business) order.
func keyBytes(k journal.Key) []byte {
	b := make([]byte, 0, len(k.Tenant)+len(k.Kind)+len(k.Business)+2)
	b = append(b, k.Tenant...)
	b = append(b, 0)
	b = append(b, k.Kind...)
	b = append(b, 0)
	return append(b, k.Business...)
}

// keyFromBytes is the inverse of keyBytes.
func keyFromBytes(b []byte) (journal.Key, error) {
	parts := strings.SplitN(string(b), "\x00", 3)
	if len(parts) != 3 {
		return journal.Key{}, fmt.Errorf("journal: malformed stored key %q", b)
	}
	return journal.Key{Tenant: parts[0], Kind: parts[1], Business: parts[2]}, nil
}
