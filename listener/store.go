// Package listener receives the API's articulos events (API spec 6): it
// authenticates a shared-secret header in constant time, caps the body,
// appends every event to a durable log (fsync before answering 200), and
// folds the events asynchronously and idempotently into a local stock
// snapshot that `stock export` writes for the accountant.
//
// The log (events.jsonl) is the truth. The snapshot (snapshot.json) is a
// cache of the state up to a byte offset of the log, rewritten now and then;
// opening a store loads it and applies the log from that offset, so a
// listener killed at any instant loses no acknowledged event.
package listener

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/writers"
)

// File names inside a store directory.
const (
	LogFile      = "events.jsonl"
	SnapshotFile = "snapshot.json"
	SecretFile   = "secret"
)

// DefaultReplayWindow is how long a resent body counts as a replay.
const DefaultReplayWindow = time.Hour

// Options tune a store.
type Options struct {
	// ReplayWindow: a body identical to the last event about each of its
	// articles, received at most this long before, is a replay and changes
	// nothing. 0 means DefaultReplayWindow.
	ReplayWindow time.Duration
	// SnapshotEvery is how often a changed snapshot is rewritten; 0 means
	// 2 s. It only bounds how much log a restart reapplies.
	SnapshotEvery time.Duration
	Now           func() time.Time // nil: time.Now
	Log           *slog.Logger     // nil: discard
}

func (o *Options) defaults() {
	if o.ReplayWindow <= 0 {
		o.ReplayWindow = DefaultReplayWindow
	}
	if o.SnapshotEvery <= 0 {
		o.SnapshotEvery = 2 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
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
type Store struct {
	dir  string
	o    Options
	log  *eventLog
	mu   sync.Mutex
	cond *sync.Cond
	st   *State
	// queue holds durable events not yet applied, with the log offset after
	// the last of them.
	queue     []Event
	queueEnd  int64
	applied   int64 // offset the state covers
	durable   int64 // last durable seq
	processed int64 // last applied seq
	dirty     bool
	closing   bool
	procDone  chan struct{}
}

// Open opens (creating) the store in dir for receiving: it takes the log's
// lock, loads the snapshot and applies the log after it.
func Open(dir string, o Options) (*Store, error) {
	o.defaults()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create store %s: %w", dir, err)
	}
	path := filepath.Join(dir, LogFile)
	snap := loadSnapshot(dir, path, o.Log)
	st := snap.State
	el, err := openLog(path, snap.Offset, func(ev Event) { st.Apply(ev, o.ReplayWindow) })
	if err != nil {
		return nil, err
	}
	// The state has applied every event, including those before the
	// snapshot's offset that the log scan did not read.
	el.seq = st.Seq
	s := &Store{dir: dir, o: o, log: el, st: st, applied: el.size, queueEnd: el.size,
		durable: el.seq, processed: el.seq, procDone: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	s.dirty = el.size != snap.Offset
	el.start(o.Now, s.onDurable)
	go s.process()
	return s, nil
}

// loadSnapshot reads snapshot.json; a missing or unreadable one, or one
// that covers more than the log holds (not this log's), means "rebuild from
// the start of the log", never an error.
func loadSnapshot(dir, logPath string, lg *slog.Logger) snapshotFile {
	b, err := os.ReadFile(filepath.Join(dir, SnapshotFile))
	var sf snapshotFile
	if err == nil {
		err = json.Unmarshal(b, &sf)
	}
	if err == nil && sf.Version != snapshotVersion {
		err = fmt.Errorf("snapshot of version %d, not %d", sf.Version, snapshotVersion)
	}
	if err == nil {
		if fi, serr := os.Stat(logPath); serr != nil || fi.Size() < sf.Offset {
			err = fmt.Errorf("snapshot covers %d bytes, more than the event log holds", sf.Offset)
		}
	}
	if err != nil || sf.State == nil || sf.State.Articulos == nil {
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			lg.Warn("snapshot unreadable; rebuilding it from the event log", "error", err)
		}
		return snapshotFile{State: NewState()}
	}
	return sf
}

// Load reads the store in dir without taking its lock, for exporting while
// a listener runs: the last snapshot plus every complete event after it.
func Load(dir string, o Options) (*State, error) {
	o.defaults()
	f, err := os.Open(filepath.Join(dir, LogFile))
	if errors.Is(err, os.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("open event log: %w", err)
	}
	defer f.Close()
	snap := loadSnapshot(dir, f.Name(), o.Log)
	st := snap.State
	if _, _, err := scanLog(f, snap.Offset, func(ev Event) { st.Apply(ev, o.ReplayWindow) }); err != nil {
		return nil, err
	}
	return st, nil
}

// Hash is the replay key of a body: hex SHA-256.
func Hash(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// Append stores body (valid JSON) durably and returns its event once it is
// on disk; the event is applied to the snapshot afterwards.
func (s *Store) Append(body []byte) (Event, error) {
	return s.log.append(body, Hash(body))
}

// onDurable hands a committed batch to the processor.
func (s *Store) onDurable(evs []Event, end int64) {
	s.mu.Lock()
	s.queue = append(s.queue, evs...)
	s.queueEnd = end
	if n := len(evs); n > 0 {
		s.durable = evs[n-1].Seq
	}
	s.mu.Unlock()
	s.cond.Broadcast()
}

// process applies durable events off the request path and rewrites the
// snapshot now and then.
func (s *Store) process() {
	defer close(s.procDone)
	tick := time.NewTicker(s.o.SnapshotEvery)
	defer tick.Stop()
	wake := make(chan struct{}, 1)
	go func() {
		// Turn ticks into cond wake-ups, so one wait serves both.
		for {
			select {
			case <-tick.C:
				s.cond.Broadcast()
			case <-wake:
				return
			}
		}
	}()
	defer close(wake)
	lastSave := s.o.Now()
	s.mu.Lock()
	for {
		for len(s.queue) == 0 && !s.closing && !(s.dirty && s.o.Now().Sub(lastSave) >= s.o.SnapshotEvery) {
			s.cond.Wait()
		}
		if len(s.queue) > 0 {
			q, end := s.queue, s.queueEnd
			s.queue = nil
			for _, ev := range q {
				s.st.Apply(ev, s.o.ReplayWindow)
			}
			s.applied, s.processed, s.dirty = end, q[len(q)-1].Seq, true
			s.cond.Broadcast()
			continue
		}
		if s.dirty {
			if err := s.saveLocked(); err != nil {
				s.o.Log.Warn("snapshot not saved; the event log still holds every event", "error", err)
			}
			lastSave = s.o.Now()
		}
		if s.closing {
			s.mu.Unlock()
			return
		}
	}
}

// saveLocked rewrites snapshot.json atomically; s.mu must be held. The
// file is written with the lock released, so that acknowledgements (which
// hand events over under it) do not wait for the snapshot's fsync.
func (s *Store) saveLocked() error {
	b, err := json.Marshal(snapshotFile{Version: snapshotVersion, Offset: s.applied, State: s.st})
	if err != nil {
		return fmt.Errorf("encode snapshot: %w", err)
	}
	s.dirty = false
	s.mu.Unlock()
	err = writers.WriteFileAtomic(filepath.Join(s.dir, SnapshotFile), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	s.mu.Lock()
	if err != nil {
		s.dirty = true
	}
	return err
}

// Sync waits until every event acknowledged so far is in the snapshot.
func (s *Store) Sync(ctx context.Context) error {
	stop := context.AfterFunc(ctx, s.cond.Broadcast)
	defer stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.processed < s.durable {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.cond.Wait()
	}
	return nil
}

// View calls fn with the current snapshot; fn must not keep it.
func (s *Store) View(fn func(*State)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.st)
}

// Close stops receiving, applies the remaining events, saves the snapshot
// and releases the lock.
func (s *Store) Close() error {
	err := s.log.close()
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cond.Broadcast()
	<-s.procDone
	return err
}
