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
	"strconv"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
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

// ErrUnavailable reports an event refused because the store cannot write
// it now (disk full, file too large, I/O error). The listener stays up,
// answers 503 and tries again with every new event and every ProbeEvery.
var ErrUnavailable = errors.New("the event store cannot write now")

// probeSize is how much the periodic probe writes (and removes) to find out
// whether the log can grow again: more than a typical event.
const probeSize = 64 << 10

// eventLog is the append-only JSONL file of events. Appends are group
// committed: whatever arrives while one fsync runs goes out in the next
// write and fsync together, so many concurrent senders share the cost of
// one fsync and each still gets its answer only once its event is on disk.
//
// A failed write or fsync (ENOSPC, EFBIG, EIO) refuses the events of its
// batch and leaves the log as it was: the bytes after the last good offset
// are truncated away before anything else is written, so a partial record
// can never end up between good ones. Retrying is then safe, unlike
// retrying an fsync over the same dirty pages: nothing not yet durable was
// acknowledged, and what a later write acknowledges is its own fsync's.
type eventLog struct {
	f          *os.File
	path       string
	now        func() time.Time
	probeEvery time.Duration
	hooks      logHooks
	mu         sync.Mutex
	queue      []*pending
	broken     error // why the last write failed; nil while writes succeed
	wake       chan struct{}
	done       chan struct{}
	stopped    chan struct{}
	stopOnce   sync.Once
	// Owned by the writer goroutine once started.
	seq     int64
	size    int64 // the last good offset: everything before it is durable
	torn    bool  // bytes after size may be on disk: truncate before writing
	lineBuf bytes.Buffer
}

// logHooks tell the store what the writer goroutine did; each is called on
// that goroutine, in order.
type logHooks struct {
	durable func(end int64)        // a batch is durable; the log's good size is end
	failed  func(err error)        // the first failed write of an outage
	refused func(n int, err error) // n events answered ErrUnavailable
	healed  func()                 // writes work again after an outage
}

type pending struct {
	body []byte
	hash string
	ev   Event
	err  chan error
}

// openLog opens (creating, owner-only) the log at path with an exclusive
// flock, checks it from offset on, and drops a torn last line (one never
// acknowledged: acknowledgement comes only after the whole line's fsync).
// It does not apply the events: the store folds them in the background, so
// that a restart answers events at once however long the rebuild.
func openLog(path string, offset int64) (*eventLog, error) {
	f, err := openPrivate(path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Lock(f, false); err != nil {
		f.Close()
		if errors.Is(err, atomicfile.ErrLockHeld) {
			return nil, fmt.Errorf("%s: %w", path, ErrLocked)
		}
		return nil, fmt.Errorf("lock event log %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat event log: %w", err)
	}
	end, last, err := scanLog(f, offset, fi.Size(), nil)
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.Size() > end {
		if err := f.Truncate(end); err != nil {
			f.Close()
			return nil, fmt.Errorf("drop the torn end of %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, fmt.Errorf("sync %s: %w", path, err)
		}
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
	return &eventLog{f: f, path: path, seq: last, size: end, wake: make(chan struct{}, 1),
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

// scanLog reads the complete lines of r between offset and size, calling
// fn (when set) with each event and the offset after its line, and returns
// the offset after the last good line and the last sequence number (0 if
// none). Only the final line may be incomplete or unreadable (a write cut
// by a crash, or the probe's filler); anything else is corruption and an
// error. It reads through ReadAt, so the store can fold what the writer
// has made durable while the writer appends after it.
func scanLog(r io.ReaderAt, offset, size int64, fn func(ev Event, next int64)) (end, lastSeq int64, err error) {
	if offset > size {
		return 0, 0, fmt.Errorf("event log shorter (%d bytes) than its snapshot (%d)", size, offset)
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, offset, size-offset), 1<<20)
	end = offset
	var bad error
	for {
		line, rerr := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if bad != nil {
				return 0, 0, bad // a bad line with good ones after it
			}
			ev, jerr := parseLine(line)
			if jerr != nil {
				bad = fmt.Errorf("event log corrupt at byte %d: %w", end, jerr)
			} else {
				lastSeq = ev.Seq
				end += int64(len(line))
				if fn != nil {
					fn(ev, end)
				}
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

// parseLine reads one log line. The lines commit writes (and json.Marshal
// wrote before it) have a fixed frame, read here without scanning the
// body, which the fold decodes anyway: json.Unmarshal of a 4 MB line took
// 0.3 s under the race detector, paid again by every export and rebuild.
// Any other line goes through json.Unmarshal.
func parseLine(line []byte) (Event, error) {
	var ev Event
	rest, ok := bytes.CutPrefix(line, []byte(`{"seq":`))
	var seq, at, hash []byte
	if ok {
		seq, rest, ok = bytes.Cut(rest, []byte(`,"at":"`))
	}
	if ok {
		at, rest, ok = bytes.Cut(rest, []byte(`","sha256":"`))
	}
	if ok {
		hash, rest, ok = bytes.Cut(rest, []byte(`","body":`))
	}
	if ok {
		rest, ok = bytes.CutSuffix(rest, []byte("}\n"))
	}
	var err error
	if ok {
		ev.Seq, err = strconv.ParseInt(string(seq), 10, 64)
		ok = err == nil && ev.Seq > 0
	}
	if ok {
		ev.At, err = time.Parse(time.RFC3339Nano, string(at))
		ok = err == nil && len(hash) == 64 && len(rest) > 0
	}
	if ok {
		ev.Hash, ev.Body = string(hash), rest
		return ev, nil
	}
	ev = Event{}
	err = json.Unmarshal(line, &ev)
	return ev, err
}

// start runs the writer.
func (l *eventLog) start(now func() time.Time, probeEvery time.Duration, h logHooks) {
	l.now, l.probeEvery, l.hooks = now, probeEvery, h
	go l.run()
}

// append makes body durable and returns its event. While the disk refuses
// writes it returns an error wrapping ErrUnavailable; each call is also a
// new try.
func (l *eventLog) append(body []byte, hash string) (Event, error) {
	p := &pending{body: body, hash: hash, err: make(chan error, 1)}
	l.mu.Lock()
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

// failure returns why writes fail now, nil while they work.
func (l *eventLog) failure() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.broken
}

func (l *eventLog) setFailure(err error) {
	l.mu.Lock()
	l.broken = err
	l.mu.Unlock()
}

func (l *eventLog) take() []*pending {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.queue
	l.queue = nil
	return q
}

func (l *eventLog) run() {
	defer close(l.stopped)
	// The probe ticks only while writes fail.
	var probe *time.Ticker
	defer func() {
		if probe != nil {
			probe.Stop()
		}
	}()
	for {
		if q := l.take(); len(q) > 0 {
			l.commit(q)
			continue
		}
		var tick <-chan time.Time
		switch broken := l.failure() != nil; {
		case broken && probe == nil:
			probe = time.NewTicker(l.probeEvery)
		case !broken && probe != nil:
			probe.Stop()
			probe = nil
		}
		if probe != nil {
			tick = probe.C
		}
		select {
		case <-l.wake:
		case <-tick:
			l.probe()
		case <-l.done:
			if q := l.take(); len(q) > 0 {
				l.commit(q)
			}
			return
		}
	}
}

// commit writes and fsyncs one batch at the last good offset, then answers
// every waiter in it.
func (l *eventLog) commit(q []*pending) {
	if l.failure() != nil {
		if err := l.repair(); err != nil {
			l.refuse(q, err)
			return
		}
	}
	l.lineBuf.Reset()
	at := l.now().UTC()
	first := l.seq
	atJSON, err := at.MarshalJSON()
	if err != nil {
		l.refuse(q, fmt.Errorf("encode the time of an event: %w", err))
		return
	}
	for _, p := range q {
		l.seq++
		p.ev = Event{Seq: l.seq, At: at, Hash: p.hash, Body: p.body}
		// What json.Marshal(p.ev) writes, without scanning the body again:
		// Store.Append checked it is JSON on one line.
		l.lineBuf.WriteString(`{"seq":`)
		l.lineBuf.WriteString(strconv.FormatInt(l.seq, 10))
		l.lineBuf.WriteString(`,"at":`)
		l.lineBuf.Write(atJSON)
		l.lineBuf.WriteString(`,"sha256":"`)
		l.lineBuf.WriteString(p.hash)
		l.lineBuf.WriteString(`","body":`)
		l.lineBuf.Write(p.body)
		l.lineBuf.WriteString("}\n")
	}
	_, err = l.f.WriteAt(l.lineBuf.Bytes(), l.size)
	if err == nil {
		err = l.f.Sync()
	}
	if err != nil {
		l.seq = first
		l.torn = true
		err = fmt.Errorf("store the event durably in %s: %w", l.path, err)
		wasWorking := l.failure() == nil
		l.setFailure(err)
		if wasWorking {
			l.hooks.failed(err)
		}
		// At once, not only before the next write: a reader (stock export)
		// must not meet a partial record for longer than it takes.
		if rerr := l.repair(); rerr != nil {
			err = fmt.Errorf("%w; %w", err, rerr)
		}
		l.refuse(q, err)
		return
	}
	l.size += int64(l.lineBuf.Len())
	if l.failure() != nil {
		l.setFailure(nil)
		l.hooks.healed()
	}
	l.hooks.durable(l.size)
	for _, p := range q {
		p.err <- nil
	}
}

// refuse answers every waiter of q with ErrUnavailable.
func (l *eventLog) refuse(q []*pending, cause error) {
	err := fmt.Errorf("%w: %w", ErrUnavailable, cause)
	for _, p := range q {
		p.err <- err
	}
	l.hooks.refused(len(q), cause)
}

// repair truncates the log back to its last good offset when a failed
// write may have left bytes after it, and makes that durable.
func (l *eventLog) repair() error {
	if !l.torn {
		return nil
	}
	if err := l.f.Truncate(l.size); err != nil {
		return fmt.Errorf("cut %s back to its last complete event: %w", l.path, err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", l.path, err)
	}
	l.torn = false
	return nil
}

// probe tries, while writes fail and no event comes to try them, whether
// the log can grow again: it writes probeSize blanks after the last good
// offset, fsyncs and cuts them off again. Blanks without a line end are at
// worst a torn last line, which opening the log drops.
func (l *eventLog) probe() {
	err := l.repair()
	if err == nil {
		l.torn = true
		_, err = l.f.WriteAt(bytes.Repeat([]byte{' '}, probeSize), l.size)
		if err == nil {
			err = l.f.Sync()
		}
		if rerr := l.repair(); err == nil {
			err = rerr
		}
	}
	if err != nil {
		l.setFailure(fmt.Errorf("store events in %s: %w", l.path, err))
		return
	}
	l.setFailure(nil)
	l.hooks.healed()
}

// stop stops the writer after the queued events; the file stays open for
// the store to finish folding it.
func (l *eventLog) stop() {
	l.stopOnce.Do(func() { close(l.done) })
	<-l.stopped
}
