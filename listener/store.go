package listener

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
)

// File names inside a store directory.
const (
	LogFile      = "events.jsonl"
	SnapshotFile = "snapshot.json"
	SecretFile   = "secret"
	RefusedFile  = "refused.json"
)

// DefaultReplayWindow is how long a resent body counts as a replay.
const DefaultReplayWindow = time.Hour

// DefaultProbeEvery is how often a store whose disk refuses writes tries
// one on its own.
const DefaultProbeEvery = 5 * time.Second

// Options tune a store.
type Options struct {
	// ReplayWindow: a body identical to the last event about each of its
	// articles, received at most this long before, is a replay and changes
	// nothing. 0 means DefaultReplayWindow.
	ReplayWindow time.Duration
	// SnapshotEvery is how often a changed snapshot is rewritten; 0 means
	// 2 s. It only bounds how much log a restart reapplies.
	SnapshotEvery time.Duration
	// MaxItems caps the items of one event (records, curve entries,
	// warehouse entries); 0 means DefaultMaxItems.
	MaxItems int
	// ProbeEvery: while the disk refuses writes, how often the store tries
	// one on its own to find out it can store events again (every event
	// that arrives meanwhile is a try too); 0 means DefaultProbeEvery.
	ProbeEvery time.Duration
	Lang       msg.Lang         // of the log's messages; "" is Spanish
	Now        func() time.Time // nil: time.Now
	Log        *slog.Logger     // nil: discard
}

func (o *Options) defaults() {
	if o.ReplayWindow <= 0 {
		o.ReplayWindow = DefaultReplayWindow
	}
	if o.SnapshotEvery <= 0 {
		o.SnapshotEvery = 2 * time.Second
	}
	if o.MaxItems <= 0 {
		o.MaxItems = DefaultMaxItems
	}
	if o.ProbeEvery <= 0 {
		o.ProbeEvery = DefaultProbeEvery
	}
	if o.Lang == "" {
		o.Lang = msg.ES
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

// text renders a catalog message in the log's language.
func (o *Options) text(key string, args ...any) string { return msg.New(key, args...).In(o.Lang) }

// cause is an error as a log line's "error" attribute: the system failure
// in the user's words when it is a known one, else quoted as the technical
// detail it is: the system's own words, not the wrapping sentences of this
// package.
func (o *Options) cause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return msg.CauseText(err, o.Lang)
}

// snapshotVersion changes whenever State.Apply changes what it makes of the
// log: a snapshot of another version is rebuilt from the log, the truth.
// Version 2 stopped treating every body seen within the replay window as a
// replay; version 3 keeps one entry per warehouse of a variant.
const snapshotVersion = 3

// snapshotFile is what snapshot.json holds.
type snapshotFile struct {
	Version int    `json:"version"`
	Offset  int64  `json:"offset"` // bytes of the log the state covers
	State   *State `json:"state"`
}

// Store is an open event store: one process at a time (flock on the log).
//
// Acknowledging an event and folding it never wait for each other: the log
// writer hands each durable batch over by moving one offset under mu, an
// instant; the processor reads the events back from the log and folds them
// under stMu, which only View and the snapshot's encoding also take. So a
// huge event, a rebuild after a restart or a snapshot write delay the
// snapshot, never the next 200.
type Store struct {
	dir string
	o   Options
	log *eventLog
	ref *refusals

	mu        sync.Mutex
	cond      *sync.Cond // durable or published moved, or closing
	durable   int64      // log offset made durable
	published int64      // log offset the state covers, for Sync
	closing   bool

	stMu sync.Mutex
	st   *State

	procDone chan struct{}
}

// Open opens (creating, owner-only) the store in dir for receiving: it
// takes the log's lock and loads the snapshot; the events after it are
// folded in the background while new ones are already acknowledged. A
// symbolic link in place of the store or any of its files is refused.
func Open(dir string, o Options) (*Store, error) {
	o.defaults()
	if err := checkStore(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LogFile)
	snap, err := loadSnapshot(dir, &o)
	if err != nil {
		return nil, err
	}
	el, err := openLog(path, snap.Offset)
	if err != nil {
		return nil, err
	}
	if el.seq == 0 {
		// No event after the snapshot: numbering goes on from its last.
		el.seq = snap.State.Seq
	}
	s := &Store{dir: dir, o: o, log: el, st: snap.State, durable: el.size, published: snap.Offset,
		procDone: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	s.ref = openRefusals(dir, &s.o)
	if r := s.ref.get(); r.Total() > 0 {
		o.Log.Warn(o.text("lst.log.refused.before", r.Total(), r.Last.Local().Format(time.DateTime)))
	}
	el.start(o.Now, o.ProbeEvery, logHooks{durable: s.onDurable, failed: s.onFailed, refused: s.onRefused, healed: s.onHealed})
	go s.process(snap.Offset, el.size != snap.Offset)
	return s, nil
}

// checkStore creates dir owner-only and refuses a symbolic link in place
// of it or of any file listen writes in it.
func checkStore(dir string) error {
	if err := mkdirPrivate(dir); err != nil {
		return err
	}
	for _, name := range []string{LogFile, SnapshotFile, SecretFile, RefusedFile} {
		if err := refuseLink(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	// A snapshot half written when listen was killed: nothing refers to it.
	_ = atomicfile.Clean(dir)
	return nil
}

// loadSnapshot reads snapshot.json; a missing or unreadable one, or one
// that covers more than the log holds (not this log's), means "rebuild from
// the start of the log", never an error; a symbolic link is one.
func loadSnapshot(dir string, o *Options) (snapshotFile, error) {
	var sf snapshotFile
	f, err := openPrivate(filepath.Join(dir, SnapshotFile), os.O_RDONLY)
	if errors.Is(err, ErrSymlink) {
		return sf, err
	}
	if err == nil {
		err = json.NewDecoder(f).Decode(&sf)
		f.Close()
	}
	if err == nil && sf.Version != snapshotVersion {
		err = fmt.Errorf("snapshot of version %d, not %d", sf.Version, snapshotVersion)
	}
	if err == nil {
		if fi, serr := os.Lstat(filepath.Join(dir, LogFile)); serr != nil || fi.Size() < sf.Offset {
			err = fmt.Errorf("snapshot covers %d bytes, more than the event log holds", sf.Offset)
		} else if !atRecordEnd(filepath.Join(dir, LogFile), sf.Offset) {
			// Not where a record of this log ends: not this log's snapshot.
			err = fmt.Errorf("snapshot covers %d bytes, not the end of a record of the event log", sf.Offset)
		}
	}
	if err != nil || sf.State == nil || sf.State.Articulos == nil {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			o.Log.Warn(o.text("lst.log.snapshot.rebuild"), "error", o.cause(err))
		}
		return snapshotFile{State: NewState()}, nil
	}
	return sf, nil
}

// atRecordEnd reports whether offset of the log at path is where a record
// ends (the start, or just after a newline), so reading can resume there.
func atRecordEnd(path string, offset int64) bool {
	if offset == 0 {
		return true
	}
	if offset < 0 {
		return false
	}
	f, err := openPrivate(path, os.O_RDONLY)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [1]byte
	_, err = f.ReadAt(b[:], offset-1)
	return err == nil && b[0] == '\n'
}

// Load reads the store in dir without taking its lock, for exporting while
// a listener runs: the last snapshot plus every complete event after it.
func Load(dir string, o Options) (*State, error) {
	o.defaults()
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, symlinkErr(dir)
	}
	f, err := openPrivate(filepath.Join(dir, LogFile), os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat event log: %w", err)
	}
	snap, err := loadSnapshot(dir, &o)
	if err != nil {
		return nil, err
	}
	st := snap.State
	if _, _, err := scanLog(f, snap.Offset, fi.Size(), func(ev Event, _ int64) { st.Apply(ev, o.ReplayWindow) }); err != nil {
		return nil, err
	}
	return st, nil
}

// Hash is the replay key of a body: hex SHA-256.
func Hash(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// ErrNotEvent reports a body Append refused because it is not an article
// event: not JSON, not an array of objects or one object, or with a curve
// or warehouse entry that is not an object. Its message is for the log;
// errors.Is(err, ErrNotJSON) tells the first kind apart.
var ErrNotEvent = errors.New("the body is not an article event")

// ErrNotJSON reports a body that is not JSON; it wraps ErrNotEvent.
var ErrNotJSON = fmt.Errorf("%w: %w", ErrNotEvent, errNotJSON)

// Append stores body durably and returns its event once it is on disk; the
// event is applied to the snapshot afterwards. Only article events of at
// most MaxItems items enter the log (checkEvent, one pass over the body):
// anything else is an error wrapping ErrNotEvent or a *TooManyItemsError,
// so the log stays readable line by line and every event in it folds at a
// bounded cost. While the disk refuses writes the error wraps
// ErrUnavailable.
func (s *Store) Append(body []byte) (Event, error) {
	_, err := checkEvent(body, s.o.MaxItems)
	var tm *TooManyItemsError
	switch {
	case errors.As(err, &tm):
		return Event{}, tm
	case errors.Is(err, errNotJSON):
		return Event{}, ErrNotJSON
	case err != nil:
		return Event{}, fmt.Errorf("%w: %w", ErrNotEvent, err)
	}
	line := body
	if bytes.ContainsAny(body, "\r\n") {
		// One event per line: valid JSON has line breaks only between
		// tokens, and compacting removes them.
		var buf bytes.Buffer
		if err := json.Compact(&buf, body); err != nil {
			return Event{}, fmt.Errorf("%w: %w", ErrNotJSON, err)
		}
		line = buf.Bytes()
	}
	return s.log.append(line, Hash(body))
}

// Unavailable returns why the store cannot write events now, nil while it
// can.
func (s *Store) Unavailable() error { return s.log.failure() }

// onDurable hands a committed batch to the processor: the ack path's only
// touch of the store's locks.
func (s *Store) onDurable(end int64) {
	s.mu.Lock()
	s.durable = end
	s.mu.Unlock()
	s.cond.Broadcast()
}

// onFailed says in the log, once per outage, that events are being refused
// and why.
func (s *Store) onFailed(err error) {
	s.o.Log.Error(s.o.text("lst.log.unstored.first", s.o.ProbeEvery.String()), "error", s.o.cause(err))
}

// onRefused counts events the disk refused, persistently, and says so.
func (s *Store) onRefused(n int, _ error) {
	r, outage := s.ref.add(Unstored, n, s.o.Now())
	s.o.Log.Warn(s.o.text("lst.log.unstored", n, outage, r.Total()))
}

// onHealed says the store writes again and how many events the outage
// cost.
func (s *Store) onHealed() {
	n, since := s.ref.endOutage()
	s.o.Log.Warn(s.o.text("lst.log.healed", n, since.Local().Format(time.DateTime)))
}

// Refuse counts n events the handler refused for their content (kind
// TooLarge or Malformed): events the ERP will not send again. It returns
// the counts so far.
func (s *Store) Refuse(kind Refusal, n int) Refusals {
	r, _ := s.ref.add(kind, n, s.o.Now())
	return r
}

// Refusals returns the counts of events refused so far.
func (s *Store) Refusals() Refusals { return s.ref.get() }

// process folds durable events off the request path, reading them back
// from the log, and rewrites the snapshot now and then. applied is the log
// offset the loaded state covers.
func (s *Store) process(applied int64, dirty bool) {
	defer close(s.procDone)
	tick := time.NewTicker(s.o.SnapshotEvery)
	defer tick.Stop()
	wake := make(chan struct{})
	go func() {
		// Turn ticks into cond wake-ups, so one wait serves both.
		for {
			select {
			case <-tick.C:
				s.mu.Lock()
				s.mu.Unlock()
				s.cond.Broadcast()
			case <-wake:
				return
			}
		}
	}()
	defer close(wake)
	lastSave := s.o.Now()
	saveFailing := false
	due := func() bool { return dirty && s.o.Now().Sub(lastSave) >= s.o.SnapshotEvery }
	for {
		s.mu.Lock()
		for s.durable == applied && !s.closing && !due() {
			s.cond.Wait()
		}
		end, closing := s.durable, s.closing
		s.mu.Unlock()
		if applied < end {
			applied = s.fold(applied, end)
			dirty = true
			s.mu.Lock()
			s.published = applied
			s.mu.Unlock()
			s.cond.Broadcast()
			continue
		}
		if dirty && (closing || due()) {
			err := s.save(applied)
			switch {
			case err != nil && !saveFailing:
				s.o.Log.Warn(s.o.text("lst.log.snapshot.failed"), "error", s.o.cause(err))
			case err == nil && saveFailing:
				s.o.Log.Info(s.o.text("lst.log.snapshot.saved"))
			}
			saveFailing, dirty = err != nil, err != nil
			lastSave = s.o.Now()
		}
		if closing {
			return
		}
	}
}

// fold applies the log's events between from and end, one at a time under
// stMu, and returns the offset it reached.
func (s *Store) fold(from, end int64) int64 {
	reached, _, err := scanLog(s.log.f, from, end, func(ev Event, next int64) {
		s.stMu.Lock()
		s.st.Apply(ev, s.o.ReplayWindow)
		s.stMu.Unlock()
	})
	if err != nil {
		// Only a damaged disk can give this: the writer wrote these lines
		// whole and fsynced them. Go on with what comes after; the next
		// start refuses the log and says where it is damaged.
		s.o.Log.Error(s.o.text("lst.log.corrupt"), "error", s.o.cause(err))
		return end
	}
	return reached
}

// save rewrites snapshot.json atomically and owner-only. Only the encoding
// holds stMu: the file is written with no lock held.
func (s *Store) save(applied int64) error {
	s.stMu.Lock()
	b, err := json.Marshal(snapshotFile{Version: snapshotVersion, Offset: applied, State: s.st})
	s.stMu.Unlock()
	if err != nil {
		return fmt.Errorf("encode snapshot: %w", err)
	}
	return writePrivate(filepath.Join(s.dir, SnapshotFile), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Sync waits until every event acknowledged so far is in the snapshot.
func (s *Store) Sync(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		// Under the lock, so a waiter between its check and Wait cannot
		// miss the wake-up.
		s.mu.Lock()
		s.mu.Unlock() //lint:ignore SA2001 taking the lock is the point (see above)
		s.cond.Broadcast()
	})
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	target := s.durable
	for s.published < target {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.cond.Wait()
	}
	return nil
}

// View calls fn with the current snapshot; fn must not keep it. It waits
// at most for the one event being folded.
func (s *Store) View(fn func(*State)) {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	fn(s.st)
}

// Stats returns what processing did with the events so far.
func (s *Store) Stats() Stats {
	s.stMu.Lock()
	defer s.stMu.Unlock()
	return s.st.Stats
}

// Close stops receiving, applies the remaining events, saves the snapshot
// and releases the lock.
func (s *Store) Close() error {
	s.log.stop()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cond.Broadcast()
	<-s.procDone
	s.ref.close()
	return s.log.f.Close()
}
