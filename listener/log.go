package listener

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Event is one received event as the log keeps it.
type Event struct {
	Seq  int64           `json:"seq"`
	At   time.Time       `json:"at"`     // when it was received (made durable)
	Hash string          `json:"sha256"` // of the body as received
	Body json.RawMessage `json:"body"`
}

// ErrLocked reports a store another listen process is using.
var ErrLocked = errors.New("another listen process is using this store")

// eventLog is the append-only JSONL file of events. Appends are group
// committed: whatever arrives while one fsync runs goes out in the next
// write and fsync together, so many concurrent senders share the cost of
// one fsync and each still gets its answer only once its event is on disk.
type eventLog struct {
	f        *os.File
	now      func() time.Time
	durable  func(evs []Event, end int64) // called in order after each fsync
	mu       sync.Mutex
	queue    []*pending
	wake     chan struct{}
	done     chan struct{}
	stopped  chan struct{}
	failed   error
	seq      int64
	size     int64
	lineBuf  bytes.Buffer
	stopOnce sync.Once
}

type pending struct {
	body []byte
	hash string
	ev   Event
	err  chan error
	done bool // answered already
}

// openLog opens (creating) the log at path with an exclusive flock, scans
// it, drops a torn last line (one never acknowledged: acknowledgement comes
// only after the whole line's fsync) and calls replay for every event from
// offset on.
func openLog(path string, offset int64, replay func(Event)) (*eventLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open event log: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", path, ErrLocked)
		}
		return nil, fmt.Errorf("lock event log %s: %w", path, err)
	}
	end, last, err := scanLog(f, offset, replay)
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Size() > end {
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, fmt.Errorf("drop the torn end of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("seek %s: %w", path, err)
	}
	// The file's fsync does not make its directory entry durable: without
	// this, a power cut could take a just-created log (or store directory),
	// and with it every event acknowledged so far.
	for _, dir := range []string{filepath.Dir(path), filepath.Dir(filepath.Dir(path))} {
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, err
		}
	}
	return &eventLog{f: f, seq: last, size: end, wake: make(chan struct{}, 1),
		done: make(chan struct{}), stopped: make(chan struct{})}, nil
}

// syncDir makes dir's entries (a created file's name) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open store directory: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync store directory %s: %w", dir, err)
	}
	return nil
}

// scanLog reads complete lines from offset, returning the offset after the
// last good line and the last sequence number. Only the final line may be
// incomplete or unreadable (a write cut by a crash); anything else is
// corruption and an error.
func scanLog(f *os.File, offset int64, fn func(Event)) (end, lastSeq int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, fmt.Errorf("stat event log: %w", err)
	}
	if offset > fi.Size() {
		return 0, 0, fmt.Errorf("event log shorter (%d bytes) than its snapshot (%d)", fi.Size(), offset)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return 0, 0, fmt.Errorf("seek event log: %w", err)
	}
	r := bufio.NewReaderSize(f, 1<<20)
	end = offset
	var bad error
	for {
		line, rerr := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if bad != nil {
				return 0, 0, bad // a bad line with good ones after it
			}
			var ev Event
			if jerr := json.Unmarshal(line, &ev); jerr != nil {
				bad = fmt.Errorf("event log corrupt at byte %d: %w", end, jerr)
			} else {
				lastSeq = ev.Seq
				fn(ev)
				end += int64(len(line))
				continue
			}
		}
		if rerr == io.EOF {
			return end, lastSeq, nil
		}
		if rerr != nil {
			return 0, 0, fmt.Errorf("read event log: %w", rerr)
		}
	}
}

// start runs the writer; durable is told of every batch after its fsync.
func (l *eventLog) start(now func() time.Time, durable func([]Event, int64)) {
	l.now, l.durable = now, durable
	go l.run()
}

// append makes body durable and returns its event. It fails for good after
// one failed write or fsync: the page cache's state is then unknown, and
// retrying an fsync can report success for data that was lost.
func (l *eventLog) append(body []byte, hash string) (Event, error) {
	p := &pending{body: body, hash: hash, err: make(chan error, 1)}
	l.mu.Lock()
	if l.failed != nil {
		l.mu.Unlock()
		return Event{}, l.failed
	}
	select {
	case <-l.done:
		l.mu.Unlock()
		return Event{}, errClosed
	default:
	}
	l.queue = append(l.queue, p)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	if err := <-p.err; err != nil {
		return Event{}, err
	}
	return p.ev, nil
}

var errClosed = errors.New("the event store is closed")

func (l *eventLog) run() {
	defer close(l.stopped)
	for {
		l.mu.Lock()
		q := l.queue
		l.queue = nil
		l.mu.Unlock()
		if len(q) > 0 {
			l.commit(q)
			continue
		}
		select {
		case <-l.wake:
		case <-l.done:
			l.mu.Lock()
			q := l.queue
			l.queue = nil
			l.mu.Unlock()
			if len(q) > 0 {
				l.commit(q)
			}
			return
		}
	}
}

// commit writes and fsyncs one batch, then answers every waiter in it.
func (l *eventLog) commit(q []*pending) {
	l.mu.Lock()
	err := l.failed
	l.mu.Unlock()
	if err == nil {
		l.lineBuf.Reset()
		at := l.now().UTC()
		evs := make([]Event, 0, len(q))
		for _, p := range q {
			l.seq++
			p.ev = Event{Seq: l.seq, At: at, Hash: p.hash, Body: p.body}
			line, merr := json.Marshal(p.ev)
			if merr != nil {
				// The handler only passes valid JSON; keep the log clean.
				p.err <- fmt.Errorf("encode event: %w", merr)
				p.done = true
				l.seq--
				continue
			}
			l.lineBuf.Write(line)
			l.lineBuf.WriteByte('\n')
			evs = append(evs, p.ev)
		}
		if _, err = l.f.Write(l.lineBuf.Bytes()); err == nil {
			err = l.f.Sync()
		}
		if err == nil {
			l.size += int64(l.lineBuf.Len())
			l.durable(evs, l.size)
		} else {
			err = fmt.Errorf("store the event durably: %w", err)
			l.mu.Lock()
			l.failed = err
			l.mu.Unlock()
		}
	}
	for _, p := range q {
		if !p.done {
			p.err <- err
		}
	}
}

// close stops the writer after the queued events, and unlocks the file.
func (l *eventLog) close() error {
	l.stopOnce.Do(func() { close(l.done) })
	<-l.stopped
	return l.f.Close()
}
