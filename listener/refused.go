package listener

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The ERP does not resend an event it could not deliver (API spec 6.5
// shows no retry policy; the sandbox makes none), so every event listen
// refuses is stock the snapshot will never see. The store counts them,
// durably, so that stock export and the log can tell the operator a full
// resync is due (API spec 6.1 recommends one periodically anyway).

// Refusal is why an event was refused.
type Refusal int

// Kinds of refusal.
const (
	// Unstored: answered 503 because the disk refused the write.
	Unstored Refusal = iota
	// TooLarge: answered 413, more than --max-body bytes or --max-items
	// items.
	TooLarge
	// Malformed: answered 400, not JSON or not an article event.
	Malformed
)

// Refusals counts the events refused since the store was created.
type Refusals struct {
	Unstored  int64     `json:"unstored"`
	TooLarge  int64     `json:"tooLarge"`
	Malformed int64     `json:"malformed"`
	First     time.Time `json:"first,omitzero"` // of the first refusal
	Last      time.Time `json:"last,omitzero"`  // of the last refusal
}

// Total is the number of events refused.
func (r Refusals) Total() int64 { return r.Unstored + r.TooLarge + r.Malformed }

// refusedSize is refused.json's fixed size. The file is created at this
// size and then rewritten in place: an overwrite within a file's allocated
// blocks needs no new space, so the count can be kept even while the disk
// is full (on file systems that overwrite in place, as ext4 and XFS do),
// and it is one disk sector, written whole or not at all.
const refusedSize = 512

// refusals is the store's persisted count.
type refusals struct {
	mu  sync.Mutex
	o   *Options
	dir string
	f   *os.File // nil until it could be opened
	r   Refusals
	// The current outage of the disk, for the message when it ends.
	outage      int64
	outageSince time.Time
	warned      bool // a failure to persist was logged
}

// openRefusals loads refused.json, creating it if it can; a failure is
// logged and retried at the next refusal, never a reason not to start
// receiving.
func openRefusals(dir string, o *Options) *refusals {
	rf := &refusals{o: o, dir: dir}
	if err := rf.open(); err != nil {
		o.Log.Warn(o.text("lst.log.refused.unsaved"), "error", o.cause(err))
		rf.warned = true
	}
	return rf
}

// open opens the file and reads the counts it holds; mu held or not shared.
func (rf *refusals) open() error {
	f, err := openPrivate(filepath.Join(rf.dir, RefusedFile), os.O_RDWR|os.O_CREATE)
	if err != nil {
		return err
	}
	r, err := readRefusals(f)
	if err != nil {
		// A torn or foreign file: say so, and count on from what this
		// process knows rather than never persisting again.
		rf.o.Log.Warn(rf.o.text("lst.log.refused.unreadable", filepath.Join(rf.dir, RefusedFile)), "error", rf.o.cause(err))
		r = Refusals{}
	}
	rf.f = f
	if r.Total() > rf.r.Total() {
		rf.r = r
	}
	fi, err := f.Stat()
	if err == nil && (fi.Size() < refusedSize || r.Total() == 0) {
		err = rf.write()
	}
	return err
}

// readRefusals reads a refused.json; an empty one counts nothing.
func readRefusals(f io.ReaderAt) (Refusals, error) {
	var r Refusals
	b, err := io.ReadAll(io.NewSectionReader(f, 0, refusedSize))
	if err != nil {
		return r, fmt.Errorf("read %s: %w", RefusedFile, err)
	}
	if b = bytes.TrimSpace(b); len(b) == 0 {
		return r, nil
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("read %s: %w", RefusedFile, err)
	}
	return r, nil
}

// write rewrites the file in place, padded to its fixed size, and syncs it.
func (rf *refusals) write() error {
	b, err := json.Marshal(rf.r)
	if err != nil {
		return fmt.Errorf("encode %s: %w", RefusedFile, err)
	}
	buf := bytes.Repeat([]byte{' '}, refusedSize)
	copy(buf, b)
	buf[refusedSize-1] = '\n'
	if _, err := rf.f.WriteAt(buf, 0); err != nil {
		return fmt.Errorf("write %s: %w", RefusedFile, err)
	}
	if err := rf.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", RefusedFile, err)
	}
	return nil
}

// add counts n refusals of kind at now and persists the counts, best
// effort. It returns the counts and how many the disk's current outage
// refused.
func (rf *refusals) add(kind Refusal, n int, now time.Time) (Refusals, int64) {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	switch kind {
	case Unstored:
		rf.r.Unstored += int64(n)
		if rf.outage == 0 {
			rf.outageSince = now
		}
		rf.outage += int64(n)
	case TooLarge:
		rf.r.TooLarge += int64(n)
	default:
		rf.r.Malformed += int64(n)
	}
	if rf.r.First.IsZero() {
		rf.r.First = now.UTC()
	}
	rf.r.Last = now.UTC()
	err := error(nil)
	if rf.f == nil {
		err = rf.open()
	}
	if err == nil {
		err = rf.write()
	}
	switch {
	case err != nil && !rf.warned:
		rf.o.Log.Warn(rf.o.text("lst.log.refused.unsaved"), "error", rf.o.cause(err))
		rf.warned = true
	case err == nil && rf.warned:
		rf.warned = false
	}
	return rf.r, rf.outage
}

// endOutage returns how many events the disk's outage refused and since
// when, and starts counting afresh.
func (rf *refusals) endOutage() (int64, time.Time) {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	n, since := rf.outage, rf.outageSince
	rf.outage, rf.outageSince = 0, time.Time{}
	if n == 0 {
		since = rf.o.Now()
	}
	return n, since
}

func (rf *refusals) get() Refusals {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	return rf.r
}

func (rf *refusals) close() {
	rf.mu.Lock()
	defer rf.mu.Unlock()
	if rf.f != nil {
		rf.f.Close()
		rf.f = nil
	}
}

// LoadRefusals reads the counts of refused events of the store in dir,
// for stock export; a store without any has none.
func LoadRefusals(dir string) (Refusals, error) {
	f, err := openPrivate(filepath.Join(dir, RefusedFile), os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return Refusals{}, nil
	}
	if err != nil {
		return Refusals{}, err
	}
	defer f.Close()
	return readRefusals(f)
}
