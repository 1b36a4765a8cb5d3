// Package journal is nxbatch's exactly-once journal: a bbolt file that
// records, for every request, the intent before it is sent and the outcome
// after, so that no run ever sends twice what may already have been
// processed.
//
// The life of an entry:
//
//	Begin                  -> Sending   (durable before the request leaves)
//	Finish                 -> OK | Rejected | Unknown
//	Open after a crash     Sending -> Unknown
//	Resolve (operator)     Unknown -> OK | Failed
//
// Rejected and Failed entries may be sent again (Begin accepts them); OK,
// Unknown and Sending entries are refused, and so is any key whose previous
// attempt is younger than the API's 30 s key hold.
//
// Every write is a committed, fsynced bbolt transaction when the method
// returns; concurrent writes share transactions (group commit). A write that fails at the storage level (a failed fsync, a full
// disk) is never retried: it is returned, and every later write returns it
// too, so the caller stops the run.
//
// bbolt takes an exclusive flock on the file, so a second nxbatch process on
// the same journal gets ErrLocked (or waits, see Options.LockTimeout); the
// kernel drops the lock when a process dies, so a crash leaves no stale lock.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// State is where a journaled request stands.
type State string

// The states of an entry.
const (
	Sending  State = "sending"  // intent durable, outcome not yet known
	OK       State = "ok"       // the API created it
	Rejected State = "rejected" // the API refused it; a later run may try again
	Unknown  State = "unknown"  // may have been processed; never resent unless RetryUnknown
	Failed   State = "failed"   // an operator checked the ERP and it was NOT created: may be sent again
)

// valid reports whether s is one of the defined states.
func (s State) valid() bool {
	switch s {
	case Sending, OK, Rejected, Unknown, Failed:
		return true
	}
	return false
}

// DefaultKeyHold is how long the API keeps a business key after a request,
// even one it refused: a second request with the key within it is answered
// "La solicitud ya se esta procesando".
const DefaultKeyHold = 30 * time.Second

// Entry is the journal's record of one request.
type Entry struct {
	Key                         Key
	BodyHash                    string
	State                       State
	Attempts                    int
	First, Last                 time.Time // first and last attempt (intent) times
	FacturaID, Numero, PVNumero int64
	Message                     string // API text or reason
	Note                        string // operator's note from Resolve
	Source                      string // e.g. "ventas.csv rows 2,5,9" for listings
	Updated                     time.Time
}

// Options configure Open.
type Options struct {
	// LockTimeout is how long Open waits for another process's lock: 0 fails
	// at once with ErrLocked, a negative value waits as long as it takes.
	LockTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// NoSync skips fsync. ONLY for benchmarks comparing; the default (false)
	// is durable.
	NoSync bool
	// KeyHold is the minimum time between two attempts with the same key
	// (0 means DefaultKeyHold); tests against a time-scaled sandbox scale it.
	KeyHold time.Duration
	// RetryUnknown lets Begin send again a key whose outcome is Unknown
	// (the --retry-unknown flag: the operator accepts the risk of a duplicate).
	RetryUnknown bool
}

var (
	// ErrLocked means another nxbatch process holds the journal. Open wraps it
	// in a *msg.Error naming the file and telling the user to wait for the
	// other run or stop it.
	ErrLocked = errors.New("journal locked by another nxbatch process")
	// ErrTooSoon means the key's previous attempt is younger than the key
	// hold; Begin returns it as a *TooSoonError carrying the time left.
	ErrTooSoon = errors.New("journal: key attempted too recently")
	// ErrNotSendable means Begin refused a key that is OK, Unknown or still
	// Sending; Begin returns it as a *NotSendableError.
	ErrNotSendable = errors.New("journal: key must not be sent again")
	// ErrNotFound means the key has no entry.
	ErrNotFound = errors.New("journal: no entry for key")
	// ErrWrongState means Finish or Resolve was called on an entry in a state
	// that does not allow it (Finish needs Sending; Resolve needs Unknown or
	// Sending).
	ErrWrongState = errors.New("journal: entry is not in a state that allows this")
)

// TooSoonError is Begin's refusal of a key attempted less than the key hold
// ago. Wait is the time left; it matches ErrTooSoon with errors.Is.
type TooSoonError struct {
	Key  Key
	Hold time.Duration
	Wait time.Duration
}

func (e *TooSoonError) Error() string {
	return fmt.Sprintf("journal: %s was attempted less than %s ago; wait %s", e.Key, e.Hold, e.Wait)
}

// Is makes errors.Is(err, ErrTooSoon) true.
func (e *TooSoonError) Is(target error) bool { return target == ErrTooSoon }

// Message is the user-facing text of e.
func (e *TooSoonError) Message() msg.Message {
	return msg.New("jrn.too_soon", e.Key.Business, e.Hold.String(), e.Wait.Round(time.Second/10).String())
}

// NotSendableError is Begin's refusal of a key whose entry is OK, Unknown or
// Sending. It matches ErrNotSendable with errors.Is.
type NotSendableError struct {
	Key   Key
	State State
}

func (e *NotSendableError) Error() string {
	return fmt.Sprintf("journal: %s is %s: not sending it again", e.Key, e.State)
}

// Is makes errors.Is(err, ErrNotSendable) true.
func (e *NotSendableError) Is(target error) bool { return target == ErrNotSendable }

// Message is the user-facing text of e.
func (e *NotSendableError) Message() msg.Message {
	return msg.New("jrn.not_sendable", e.Key.Business, string(e.State))
}

var (
	entriesBucket = []byte("entries")
	windowsBucket = []byte("windows")
)

// Journal is an open journal file. Its methods are safe for concurrent use
// by the submitting workers.
type Journal struct {
	db     *bolt.DB
	path   string
	now    func() time.Time
	hold   time.Duration
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
// and takes its lock. Entries a crashed run left in Sending become Unknown,
// durably, before Open returns: their request may have reached the API.
func Open(path string, o Options) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("journal: create folder for %s: %w", path, err)
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
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, &msg.Error{Msg: msg.New("jrn.locked", path), Err: ErrLocked}
	}
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	db.NoSync = o.NoSync
	j := &Journal{db: db, path: path, now: o.Now, hold: o.KeyHold, retryU: o.RetryUnknown}
	if j.now == nil {
		j.now = time.Now
	}
	if j.hold == 0 {
		j.hold = DefaultKeyHold
	}
	j.commit = db.Update
	if err := j.recover(); err != nil {
		db.Close()
		return nil, err
	}
	return j, nil
}

// recover creates the buckets and turns every Sending entry into Unknown.
func (j *Journal) recover() error {
	reason := msg.New("jrn.interrupted").In(msg.ES)
	err := j.db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(windowsBucket); err != nil {
			return err
		}
		b, err := tx.CreateBucketIfNotExists(entriesBucket)
		if err != nil {
			return err
		}
		var stuck []Entry
		err = b.ForEach(func(k, v []byte) error {
			e, err := decode(k, v)
			if err != nil {
				return err
			}
			if e.State == Sending {
				stuck = append(stuck, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
		now := j.now()
		for _, e := range stuck {
			e.State, e.Message, e.Updated = Unknown, reason, now
			if err := put(b, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("journal: recover %s: %w", j.path, err)
	}
	return nil
}

// Close releases the lock and closes the file.
func (j *Journal) Close() error {
	if err := j.db.Close(); err != nil {
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
func (j *Journal) write(fn func(*bolt.Tx) error) error {
	w, lead, err := j.enqueue(fn)
	if err != nil {
		return err
	}
	return j.await(w, lead)
}

// enqueue queues fn for the next group commit; lead says the caller must
// commit it (await does).
func (j *Journal) enqueue(fn func(*bolt.Tx) error) (w *pendingWrite, lead bool, err error) {
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

// commitGroup runs every write of group in one transaction and records each
// one's result.
func (j *Journal) commitGroup(group []*pendingWrite) {
	err := j.commit(func(tx *bolt.Tx) error {
		for _, w := range group {
			w.err = w.fn(tx)
		}
		return nil
	})
	if err == nil {
		return
	}
	err = fmt.Errorf("journal: write to %s failed, stop the run: %w", j.path, err)
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

// Get returns the entry for k, if any.
func (j *Journal) Get(k Key) (Entry, bool, error) {
	var (
		e     Entry
		found bool
	)
	err := j.db.View(func(tx *bolt.Tx) error {
		var err error
		e, found, err = get(tx.Bucket(entriesBucket), k)
		return err
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("journal: read %s: %w", k, err)
	}
	return e, found, nil
}

// heldKinds are the kinds whose business key the API guards for 30 s after
// any attempt (ordenId on /venta, facturaId on /facturar). A stock packing
// key is ours alone: the API only spaces movements by time, which the
// pipeline paces separately.
var heldKinds = map[string]bool{"venta": true, "facturar": true}

// Begin records the intent to send k, durably, before the request leaves:
// State Sending, one more attempt, Last (and First, the first time) now,
// the body hash and the source rows. It refuses with a *NotSendableError
// when the entry is OK, Sending or Unknown (unless Options.RetryUnknown):
// the caller decides skip/conflict/unknown before, this is the safety net
// against a double send. It refuses with a *TooSoonError when the previous
// attempt, counted from its outcome when that came later, is younger than
// the key hold.
func (j *Journal) Begin(k Key, bodyHash, source string) (Entry, error) {
	if err := k.validate(); err != nil {
		return Entry{}, err
	}
	var out Entry
	err := j.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		e, found, err := get(b, k)
		if err != nil {
			return err
		}
		now := j.now()
		if found {
			if e.State == OK || e.State == Sending || (e.State == Unknown && !j.retryU) {
				return &NotSendableError{Key: k, State: e.State}
			}
			// The API takes the key when the request arrives, which may be
			// long after the intent: only the outcome's time (Updated, when
			// Finish set it; Resolve's is an operator's, much later) bounds
			// that moment, so the hold counts from the later of the two.
			since := e.Last
			if (e.State == Rejected || e.State == Unknown) && e.Updated.After(since) {
				since = e.Updated
			}
			if wait := j.hold - now.Sub(since); wait > 0 && heldKinds[k.Kind] {
				// A clock set back makes Last look in the future; never ask
				// for more than one hold.
				return &TooSoonError{Key: k, Hold: j.hold, Wait: min(wait, j.hold)}
			}
		} else {
			e = Entry{Key: k, First: now}
		}
		e.State, e.Attempts, e.Last, e.Updated = Sending, e.Attempts+1, now, now
		e.BodyHash, e.Source = bodyHash, source
		e.FacturaID, e.Numero, e.PVNumero, e.Message = 0, 0, 0, ""
		out = e
		return put(b, e)
	})
	if err != nil {
		return Entry{}, err
	}
	return out, nil
}

// Finish records the outcome of k's request, durably: OK with the ids the
// API returned, Rejected or Unknown with the API's text or the reason.
// The entry must be Sending (Begin was called).
func (j *Journal) Finish(k Key, st State, facturaID, numero, pvNumero int64, message string) error {
	fn, err := j.finish(k, st, facturaID, numero, pvNumero, message)
	if err != nil {
		return err
	}
	return j.write(fn)
}

// FinishAsync is Finish that does not wait: the write is queued before it
// returns and the channel receives its result once it is durable. A worker
// that records an outcome this way and then calls Begin for its next
// request gets both into one group commit, one fsync instead of two; and
// since any later write commits in the same group or after it, a failure
// of this one fails them too.
func (j *Journal) FinishAsync(k Key, st State, facturaID, numero, pvNumero int64, message string) <-chan error {
	done := make(chan error, 1)
	fn, err := j.finish(k, st, facturaID, numero, pvNumero, message)
	if err != nil {
		done <- err
		return done
	}
	w, lead, err := j.enqueue(fn)
	if err != nil {
		done <- err
		return done
	}
	go func() { done <- j.await(w, lead) }()
	return done
}

// finish builds Finish's write.
func (j *Journal) finish(k Key, st State, facturaID, numero, pvNumero int64, message string) (func(*bolt.Tx) error, error) {
	if st != OK && st != Rejected && st != Unknown {
		return nil, fmt.Errorf("journal: finish %s as %q: want ok, rejected or unknown", k, st)
	}
	return func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		e, found, err := get(b, k)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("finish %s: %w", k, ErrNotFound)
		case e.State != Sending:
			return fmt.Errorf("finish %s: it is %s, not sending: %w", k, e.State, ErrWrongState)
		}
		e.State, e.FacturaID, e.Numero, e.PVNumero = st, facturaID, numero, pvNumero
		e.Message, e.Updated = message, j.now()
		return put(b, e)
	}, nil
}

// Resolve records an operator's verdict on an entry whose outcome is not
// known (Unknown, or Sending): OK (it was created in the ERP) or Failed (it
// was not; a later run may send it again). The note says how they know.
func (j *Journal) Resolve(k Key, as State, note string) error {
	if as != OK && as != Failed {
		return fmt.Errorf("journal: resolve %s as %q: want ok or failed", k, as)
	}
	return j.write(func(tx *bolt.Tx) error {
		b := tx.Bucket(entriesBucket)
		e, found, err := get(b, k)
		switch {
		case err != nil:
			return err
		case !found:
			return fmt.Errorf("resolve %s: %w", k, ErrNotFound)
		case e.State != Unknown && e.State != Sending:
			return fmt.Errorf("resolve %s: it is %s, only unknown entries are resolved: %w", k, e.State, ErrWrongState)
		}
		e.State, e.Note, e.Updated = as, note, j.now()
		return put(b, e)
	})
}

// List returns the entries in state filter ("" for all), sorted by key
// (tenant, kind, business).
func (j *Journal) List(filter State) ([]Entry, error) {
	if filter != "" && !filter.valid() {
		return nil, fmt.Errorf("journal: unknown state %q: want sending, ok, rejected, unknown or failed", filter)
	}
	var out []Entry
	err := j.db.View(func(tx *bolt.Tx) error {
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
func (j *Journal) NextAllowed(tenant, window string) (time.Time, error) {
	var t time.Time
	err := j.db.View(func(tx *bolt.Tx) error {
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
func (j *Journal) SetNextAllowed(tenant, window string, t time.Time) error {
	if tenant == "" || window == "" {
		return errors.New("journal: a rate window needs a tenant and a name")
	}
	v, err := t.MarshalBinary()
	if err != nil {
		return fmt.Errorf("journal: window %s of %s: %w", window, tenant, err)
	}
	return j.write(func(tx *bolt.Tx) error {
		return tx.Bucket(windowsBucket).Put(windowKey(tenant, window), v)
	})
}

func windowKey(tenant, window string) []byte {
	return []byte(tenant + "\x00" + window)
}

// record is the stored form of an Entry (the key is the bucket key). Its
// field names are the file format: rename with care.
type record struct {
	BodyHash  string    `json:"body_hash,omitempty"`
	State     State     `json:"state"`
	Attempts  int       `json:"attempts"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
	FacturaID int64     `json:"factura_id,omitempty"`
	Numero    int64     `json:"numero,omitempty"`
	PVNumero  int64     `json:"pv_numero,omitempty"`
	Message   string    `json:"message,omitempty"`
	Note      string    `json:"note,omitempty"`
	Source    string    `json:"source,omitempty"`
	Updated   time.Time `json:"updated"`
}

func get(b *bolt.Bucket, k Key) (Entry, bool, error) {
	v := b.Get(k.bytes())
	if v == nil {
		return Entry{}, false, nil
	}
	e, err := decode(k.bytes(), v)
	return e, err == nil, err
}

func put(b *bolt.Bucket, e Entry) error {
	v, err := json.Marshal(record{
		BodyHash: e.BodyHash, State: e.State, Attempts: e.Attempts, First: e.First, Last: e.Last,
		FacturaID: e.FacturaID, Numero: e.Numero, PVNumero: e.PVNumero,
		Message: e.Message, Note: e.Note, Source: e.Source, Updated: e.Updated,
	})
	if err != nil {
		return err
	}
	return b.Put(e.Key.bytes(), v)
}

func decode(k, v []byte) (Entry, error) {
	key, err := keyFromBytes(k)
	if err != nil {
		return Entry{}, err
	}
	var r record
	if err := json.Unmarshal(v, &r); err != nil {
		return Entry{}, fmt.Errorf("journal: entry %s is corrupt: %w", key, err)
	}
	return Entry{
		Key: key, BodyHash: r.BodyHash, State: r.State, Attempts: r.Attempts, First: r.First, Last: r.Last,
		FacturaID: r.FacturaID, Numero: r.Numero, PVNumero: r.PVNumero,
		Message: r.Message, Note: r.Note, Source: r.Source, Updated: r.Updated,
	}, nil
}
