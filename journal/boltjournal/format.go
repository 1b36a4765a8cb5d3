package boltjournal

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	bolt "go.etcd.io/bbolt"
)

// formatVersion is the journal's file format. Bump it whenever a stored
// record changes in a way an older nxbatch would misread; Open refuses any
// other version rather than guess.
//
//	1  (no meta bucket) tenants hashed from URL and token; stock keyed by chunk
//	2  tenants from the API's identity; stock rows as units; held times
const formatVersion = 2

var metaBucket = []byte("meta")

// Keys of the meta bucket.
var (
	metaFormat = []byte("format")
	metaID     = []byte("id")
)

// unusable is Open's refusal of a journal file, with the sentence the user
// needs; it matches ErrUnusable and the cause.
func unusable(path, key string, cause error, args ...any) error {
	a := append([]any{path}, args...)
	if cause != nil {
		return &msg.Error{Msg: msg.New(key, a...), Err: errors.Join(ErrUnusable, cause)}
	}
	return &msg.Error{Msg: msg.New(key, a...), Err: ErrUnusable}
}

// preflight looks at the file before bbolt does: bbolt would take an empty
// file for a new journal, and a journal whose file is gone while its
// high-water record remains was removed or moved. fresh says there is no
// journal yet.
func preflight(path string) (fresh bool, err error) {
	// Neither the journal nor its record is ever written through a
	// symbolic link: whoever planted one would choose where nxbatch writes.
	if fi, err := os.Lstat(hwmPath(path)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return false, &msg.Error{Msg: msg.New("jrn.hwm.symlink", hwmPath(path)), Err: errors.Join(ErrUnusable, atomicfile.ErrSymlink)}
	}
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return false, unusable(path, "jrn.symlink", atomicfile.ErrSymlink)
	case errors.Is(err, fs.ErrNotExist):
		if _, herr := os.Stat(hwmPath(path)); herr == nil {
			return false, unusable(path, "jrn.missing", nil, hwmPath(path))
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("journal: %w", err)
	case !fi.Mode().IsRegular():
		return false, unusable(path, "jrn.notfile", nil)
	case fi.Size() == 0 && committed(path):
		// Something was recorded here once: an empty file lost it.
		return false, unusable(path, "jrn.empty", nil)
	case fi.Size() == 0:
		// Never committed: a journal another process is creating right
		// now (it holds the lock that Open waits for), or one whose
		// creation was cut short. Nothing can be lost by starting it.
		return true, nil
	}
	return false, nil
}

// committed reports whether the high-water record beside path says a
// transaction was ever committed to the journal.
func committed(path string) bool {
	b, err := os.ReadFile(hwmPath(path))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b))
	if len(fields) != 3 {
		return true // a record that cannot be read: be careful
	}
	n, err := strconv.Atoi(fields[2])
	return err != nil || n > 0
}

// init checks an existing journal (format, identity, consistency, the
// high-water record) or stamps a new one, and opens the high-water record.
func (j *Journal) init(fresh bool) error {
	var (
		format, txid int
		id           string
		size         int64
	)
	err := j.view(context.Background(), func(tx *bolt.Tx) error {
		txid, size = tx.ID(), tx.Size()
		if m := tx.Bucket(metaBucket); m != nil {
			format, _ = strconv.Atoi(string(m.Get(metaFormat)))
			id = string(m.Get(metaID))
		} else if tx.Bucket(entriesBucket) != nil {
			format = 1
		}
		return nil
	})
	if err != nil {
		return unusable(j.path, "jrn.damaged", err, err.Error())
	}
	switch {
	case format == 1:
		return unusable(j.path, "jrn.oldformat", nil, format, formatVersion)
	case format > formatVersion:
		return unusable(j.path, "jrn.newerformat", nil, format, formatVersion)
	case format != 0 && format != formatVersion:
		return unusable(j.path, "jrn.oldformat", nil, format, formatVersion)
	}

	h, err := openHWM(hwmPath(j.path))
	if err != nil {
		return err
	}
	h.noSync = j.db.NoSync
	j.hwm = h
	if format == 0 {
		// A new journal, or a bbolt file nothing was ever written to.
		if h.txid > 0 {
			h.close()
			return unusable(j.path, "jrn.behind", nil, txid, h.txid, j.path)
		}
		id = newID()
		h.id = id
		err := j.update(func(tx *bolt.Tx) error {
			m, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			if err := m.Put(metaFormat, []byte(strconv.Itoa(formatVersion))); err != nil {
				return err
			}
			if err := m.Put(metaID, []byte(id)); err != nil {
				return err
			}
			for _, b := range [][]byte{entriesBucket, unitsBucket, windowsBucket} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			h.close()
			return err
		}
		j.id = id
		return nil
	}
	j.id = id
	switch {
	case h.id != "" && h.id != id:
		h.close()
		return unusable(j.path, "jrn.otherjournal", nil, j.path)
	case txid < h.txid:
		h.close()
		return unusable(j.path, "jrn.behind", nil, txid, h.txid, j.path)
	}
	if damage := j.check(size); damage != "" {
		h.close()
		return unusable(j.path, "jrn.damaged", errors.New(damage), damage)
	}
	h.id = id
	return h.record(txid)
}

// check walks every page of the journal (bbolt's consistency check) and
// says what is wrong, "" when nothing is. It runs before anything is sent:
// a bad page found halfway through a run would stop it with requests out.
func (j *Journal) check(size int64) string {
	if fi, err := os.Stat(j.path); err == nil && fi.Size() < size {
		// Pages past the end of the file would fault when read.
		return fmt.Sprintf("the file is %d bytes, its pages need %d", fi.Size(), size)
	}
	var damage []string
	err := j.view(context.Background(), func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			if len(damage) < 3 {
				damage = append(damage, err.Error())
			}
		}
		return nil
	})
	if err != nil {
		damage = append(damage, err.Error())
	}
	return strings.Join(damage, "; ")
}

// Accept makes the high-water record beside path agree with the journal as
// it is now, after the user chose to go on with a journal Open refused as
// behind or as another journal (a restored copy they trust). The journal
// itself must be readable and of this format.
func Accept(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return &msg.Error{Msg: msg.New("jrn.accept.open", path, msg.CauseOf(err)), Err: err}
	case !fi.Mode().IsRegular():
		return unusable(path, "jrn.notfile", nil)
	case fi.Size() == 0:
		return unusable(path, "jrn.empty", nil)
	}
	if err := os.Rename(hwmPath(path), hwmPath(path)+".old"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &msg.Error{Msg: msg.New("jrn.accept.setaside", hwmPath(path), msg.CauseOf(err)), Err: err}
	}
	j, err := Open(path, journal.Options{})
	if err != nil {
		return err
	}
	return j.Close()
}

// newID is a journal's random identity.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// guard runs fn with memory faults turned into panics and every panic into
// an error: bbolt reads a damaged or truncated file through a memory map,
// and a bad page must end in a message, not a Go trace.
func guard(fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			err = fmt.Errorf("the journal file is damaged: %v", r)
		}
	}()
	return fn()
}

// hwmPath is the high-water record beside a journal.
func hwmPath(path string) string { return path + ".hwm" }

// hwmFile is the high-water record: the journal's identity and the id of
// its last committed transaction. A journal file whose own last transaction
// is older (a copy restored over it, a meta page lost after a crash) would
// otherwise forget, silently, requests it had recorded as sent.
//
// The record is rewritten in place after every commit and fsynced by a
// goroutine of its own, off the path of the commit: it may lag behind the
// journal after a power cut, never lead it (it is written only after the
// commit is durable), so it can only ever miss a regression, not invent
// one; a killed process leaves it in the page cache, current.
type hwmFile struct {
	f      *os.File
	id     string
	txid   int
	noSync bool // Options.NoSync: benchmarks only

	mu      sync.Mutex
	syncErr error         // the first failed background fsync; sticky
	dirty   chan struct{} // wakes the syncer
	done    chan struct{} // closed when the syncer ends
	closing sync.Once
	closed  error
}

const hwmMagic = "nxbatch-journal-hwm"

func openHWM(path string) (*hwmFile, error) {
	f, err := atomicfile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if errors.Is(err, atomicfile.ErrSymlink) {
		return nil, &msg.Error{Msg: msg.New("jrn.hwm.symlink", path), Err: errors.Join(ErrUnusable, err)}
	}
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w", path, err)
	}
	h := &hwmFile{f: f, dirty: make(chan struct{}, 1), done: make(chan struct{})}
	buf := make([]byte, 128)
	n, _ := f.ReadAt(buf, 0)
	var ok bool
	if h.id, h.txid, ok = parseHWM(buf[:n]); !ok {
		f.Close()
		return nil, unusable(path, "jrn.badhwm", nil)
	}
	go h.syncer()
	return h, nil
}

// parseHWM reads the record's line: the journal's identity and its last
// committed transaction; an empty record (a new journal) is zero. ok is
// false for anything nxbatch does not write.
func parseHWM(b []byte) (id string, txid int, ok bool) {
	line := strings.TrimSpace(string(b))
	if line == "" {
		return "", 0, true
	}
	fields := strings.Fields(line)
	if len(fields) != 3 || fields[0] != hwmMagic {
		return "", 0, false
	}
	txid, err := strconv.Atoi(fields[2])
	if err != nil || txid < 0 {
		return "", 0, false
	}
	return fields[1], txid, true
}

// hwmSyncEvery spaces the record's fsyncs: a busy journal commits hundreds
// of times a second, and an fsync of the record after each would compete
// with the journal's own for the disk.
const hwmSyncEvery = 50 * time.Millisecond

// syncer fsyncs the record whenever it was rewritten, at most once every
// hwmSyncEvery, coalescing the rewrites in between.
func (h *hwmFile) syncer() {
	defer close(h.done)
	for range h.dirty {
		if h.noSync {
			continue
		}
		if err := datasync(h.f); err != nil {
			h.mu.Lock()
			if h.syncErr == nil {
				h.syncErr = fmt.Errorf("journal: sync %s: %w", h.f.Name(), err)
			}
			h.mu.Unlock()
		}
		time.Sleep(hwmSyncEvery)
	}
}

// record notes txid as committed. The line has a fixed width, so it is
// rewritten in place. A failed write, or an earlier failed fsync, is
// returned: the journal then stops, as for its own storage failures.
func (h *hwmFile) record(txid int) error {
	if h == nil || txid <= h.txid {
		return nil
	}
	h.mu.Lock()
	err := h.syncErr
	h.mu.Unlock()
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%s %s %020d\n", hwmMagic, h.id, txid)
	if _, err := h.f.WriteAt([]byte(line), 0); err != nil {
		return fmt.Errorf("journal: write %s: %w", h.f.Name(), err)
	}
	h.txid = txid
	select {
	case h.dirty <- struct{}{}:
	default: // an fsync is already due
	}
	return nil
}

// close stops the syncer and fsyncs the record one last time.
func (h *hwmFile) close() error {
	if h == nil {
		return nil
	}
	h.closing.Do(func() {
		close(h.dirty)
		<-h.done
		h.mu.Lock()
		err := h.syncErr
		h.mu.Unlock()
		if err == nil && !h.noSync {
			err = h.f.Sync()
		}
		h.closed = errors.Join(err, h.f.Close())
	})
	return h.closed
}
