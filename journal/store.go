package journal

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Store is a journal, whatever keeps it: the bbolt file of one machine
// (package boltjournal) or a PostgreSQL database shared by several (package
// pgjournal). Both keep the same promises, proved by one contract suite
// (package journaltest):
//
//   - Begin returns only once the intent is durable (a committed, synced
//     transaction): nothing leaves without it.
//   - A storage failure (a failed fsync, a lost connection) is returned and
//     every later write returns it too: the run stops, it never retries.
//   - A tenant's requests are sent by one run at a time: the run that holds
//     the tenant's lease (Acquire). Entries a holder left in Sending become
//     Unknown before anyone else sends for that tenant.
//
// Every method that reads or writes takes the caller's context: a done
// context stops an operation (bbolt: before its transaction starts; its
// transactions cannot be interrupted). A caller that must have a write
// recorded even when its run is stopping (an outcome) detaches it with
// context.WithoutCancel.
//
// Store is the whole of it, for the command line that opens, administers
// and closes journals. Everyone else takes a part: SendPath (the send
// path), Admin (listing, resolving, copying), Process (the lease, the
// listing socket, closing), or smaller interfaces declared where they are
// used (pipeline.Journal, reconcile.Journal, inventario.Journal; the
// API's windows are sendrules.WindowStore, paced by sendrules.Paced).
type Store interface {
	SendPath
	Admin
	Process
}

// Windows keeps the API's rate windows for every process and machine on
// the journal.
type Windows interface {
	// NextAllowed and SetNextAllowed read and write a window's next
	// allowed time.
	NextAllowed(ctx context.Context, tenant, window string) (time.Time, error)
	SetNextAllowed(ctx context.Context, tenant, window string, t time.Time) error
	// Reserve takes a rate window atomically, for every process and
	// machine on the journal: when the window's next allowed time is at or
	// before now it becomes now+d and Reserve returns granted, next=now+d;
	// otherwise it changes nothing and returns the stored next allowed
	// time. Reading with NextAllowed and then writing with SetNextAllowed
	// lets two machines both read inside one window (a 403 from the API).
	Reserve(ctx context.Context, tenant, window string, now time.Time, d time.Duration) (granted bool, next time.Time, err error)
}

// SendPath is the send path: what a run reads before it sends, the intent
// before a request leaves, the outcome after, and the API's windows.
type SendPath interface {
	// Lookup returns the entries of keys that have one, in one read.
	Lookup(ctx context.Context, keys []Key) (map[Key]Entry, error)
	// Units returns the units of kind for tenant among ids that the journal
	// knows, with the entry of the last request that carried each.
	Units(ctx context.Context, tenant, kind string, ids []string) (map[string]UnitRecord, map[Key]Entry, error)
	// Begin records the intent to send k durably before the request
	// leaves, or refuses it (*NotSendableError, *TooSoonError).
	Begin(ctx context.Context, k Key, in Intent) (Entry, error)
	// Finish records the outcome of k's request durably.
	Finish(ctx context.Context, k Key, out Outcome) error
	// FinishAsync is Finish that does not wait: the channel receives its
	// result once it is durable.
	FinishAsync(ctx context.Context, k Key, out Outcome) <-chan error
	// Get returns the entry for k, if any.
	Get(ctx context.Context, k Key) (Entry, bool, error)
	Windows
}

// Admin is administration: listing, settling unknown outcomes, copying
// between journals.
type Admin interface {
	// List returns the entries in state filter ("" for all), sorted by key.
	List(ctx context.Context, filter State) ([]Entry, error)
	// Resolve records a verdict on an entry whose outcome was not known.
	Resolve(ctx context.Context, k Key, v Verdict) error
	Copier
	// HasTenant reports whether the journal holds any entry of tenant
	// (a journal of an earlier version, whose keys named tenants otherwise).
	HasTenant(ctx context.Context, tenant string) (bool, error)
}

// Copier is what Copy needs of both journals.
type Copier interface {
	// Export calls fn for every entry, then every unit, then every window,
	// from one consistent read.
	Export(ctx context.Context, fn func(Record) error) error
	// Import writes records the journal lacks, leaves those it holds alike,
	// and reports those it holds different instead of overwriting them. A
	// window keeps the later of the two times. It refuses (ErrLocked) to
	// write for a tenant whose lease another run holds.
	Import(ctx context.Context, recs []Record) (ImportResult, error)
	// Path names the journal for messages: a file name, or a URL without
	// its password.
	Path() string
}

// Process is what the process that opened a journal does with it: take a
// tenant's lease, answer listings while it runs, close it.
type Process interface {
	// Acquire takes tenant's lease: while it is held, no other run of that
	// tenant, on this machine or another, can send. It waits up to wait for
	// a holder to let go (or to be declared gone) and then fails with an
	// error matching ErrLocked that names the tenant. Taking a lease turns
	// the Sending entries a gone holder left into Unknown, in the same
	// transaction. release lets go; Close also does.
	Acquire(ctx context.Context, tenant string, wait time.Duration) (release func() error, err error)
	// ServeListing answers `journal list` for other processes while this
	// one runs, where they could not read the journal themselves; a journal
	// anyone can read returns a stop that does nothing.
	ServeListing() (stop func(), err error)
	// Path names the journal for messages: a file name, or a URL without
	// its password.
	Path() string
	// Close lets go of every lease and closes the journal.
	Close() error
}

// Record is one item of a journal as Export yields it and Import takes it:
// exactly one of its fields is set.
type Record struct {
	Entry  *Entry
	Unit   *UnitRecord
	Window *Mark
}

// Conflict is a record Import did not write because the journal holds a
// different one under the same key.
type Conflict struct {
	Key   Key    // the entry's key; for a unit, its request's key
	Unit  string // the unit's identity, "" for an entry
	Field string // the first field that differs
}

func (c Conflict) String() string {
	if c.Unit != "" {
		return fmt.Sprintf("unit %s of %s/%s: %s differs", c.Unit, c.Key.Tenant, c.Key.Kind, c.Field)
	}
	return fmt.Sprintf("%s: %s differs", c.Key, c.Field)
}

// ImportResult counts what Import did.
type ImportResult struct {
	Written, Same int
	Conflicts     []Conflict
}

// timePrecision is the precision both journals keep times to: PostgreSQL's
// timestamps hold microseconds, bbolt's nanoseconds. Two times equal to the
// microsecond are the same time for Import.
const timePrecision = time.Microsecond

// EntryDiff returns the name of the first field in which a and b differ,
// "" when they are the same entry (times compared to the microsecond, the
// precision of every journal).
func EntryDiff(a, b Entry) string {
	sameTime := func(x, y time.Time) bool { return x.Truncate(timePrecision).Equal(y.Truncate(timePrecision)) }
	switch {
	case a.Key != b.Key:
		return "key"
	case a.State != b.State:
		return "state"
	case a.BodyHash != b.BodyHash:
		return "body_hash"
	case a.Attempts != b.Attempts:
		return "attempts"
	case a.FacturaID != b.FacturaID || a.Numero != b.Numero || a.PVNumero != b.PVNumero:
		return "ids"
	case !sameTime(a.First, b.First):
		return "first"
	case !sameTime(a.Last, b.Last):
		return "last"
	case !sameTime(a.Held, b.Held):
		return "held"
	case !sameTime(a.Updated, b.Updated):
		return "updated"
	case a.Message != b.Message:
		return "message"
	case a.Note != b.Note:
		return "note"
	case a.Source != b.Source:
		return "source"
	case a.Evidence != b.Evidence:
		return "evidence"
	case a.Facts != b.Facts:
		return "facts"
	case !slices.Equal(a.Units, b.Units):
		return "units"
	}
	return ""
}

// UnitDiff is EntryDiff for units.
func UnitDiff(a, b UnitRecord) string {
	switch {
	case a.Request != b.Request:
		return "request"
	case a.ID != b.ID:
		return "id"
	case a.BodyHash != b.BodyHash:
		return "body_hash"
	case a.Body != b.Body:
		return "body"
	case a.Source != b.Source:
		return "source"
	}
	return ""
}

// CopyResult counts what Copy did.
type CopyResult struct {
	Entries, Units, Windows int // records read from the source
	Written, Same           int
	Conflicts               []Conflict
}

// copyBatch is how many records go to the destination per Import: one
// transaction each, large enough to amortise a commit, small enough to keep
// memory flat on a journal of millions of entries.
const copyBatch = 1000

// Copy copies every entry, unit and window of src into dst: what dst lacks
// is written, what it holds alike is counted as the same, and what it holds
// different is reported, never overwritten. Units whose request was
// reported are not copied either (they would belong to a request dst does
// not have as src has it). Running it again changes nothing.
func Copy(ctx context.Context, dst, src Copier) (CopyResult, error) {
	var (
		res      CopyResult
		batch    []Record
		conflict = map[Key]bool{}
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		r, err := dst.Import(ctx, batch)
		batch = batch[:0]
		if err != nil {
			return err
		}
		res.Written += r.Written
		res.Same += r.Same
		for _, c := range r.Conflicts {
			if c.Unit == "" {
				conflict[c.Key] = true
			}
			res.Conflicts = append(res.Conflicts, c)
		}
		return nil
	}
	err := src.Export(ctx, func(r Record) error {
		switch {
		case r.Entry != nil:
			res.Entries++
		case r.Unit != nil:
			res.Units++
			if len(batch) > 0 && batch[len(batch)-1].Entry != nil {
				// Entries first, so that a unit's request is judged before it.
				if err := flush(); err != nil {
					return err
				}
			}
			if conflict[r.Unit.Request] {
				res.Conflicts = append(res.Conflicts, Conflict{Key: r.Unit.Request, Unit: r.Unit.ID, Field: "request"})
				return nil
			}
		case r.Window != nil:
			res.Windows++
		default:
			return errors.New("journal: copy: an empty record")
		}
		batch = append(batch, r)
		if len(batch) >= copyBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return res, fmt.Errorf("journal: copy %s to %s: %w", src.Path(), dst.Path(), err)
	}
	return res, nil
}

// ErrNoLease means Begin was called for a tenant whose lease this journal
// does not hold (it was never taken, released, or lost to another run after
// it could not be renewed): nothing may be sent.
var ErrNoLease = errors.New("journal: this run does not hold the tenant's lease")
