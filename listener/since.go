package listener

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// EventsSince calls fn with every complete event of the store in dir that
// was received after t, in the order received, reading the log without
// taking its lock (as Load does), so that a command can apply what listen
// received over a catalog fetched at t while a listener runs. A store that
// does not exist has no events; a symbolic link in place of the store or
// its log is an error.
//
// The log is in the order received, so it is not read whole: a binary
// search over its lines finds where the events of about t begin, and only
// from there is it read (a catalog load must not read months of events).
func EventsSince(dir string, t time.Time, fn func(Event)) error {
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return symlinkErr(dir)
	}
	f, err := openPrivate(filepath.Join(dir, LogFile), os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat event log: %w", err)
	}
	start, err := seekBefore(f, fi.Size(), t.Add(-clockSlack))
	if err != nil {
		return err
	}
	_, _, err = scanLog(f, start, fi.Size(), func(ev Event, _ int64) {
		if ev.At.After(t) {
			fn(ev)
		}
	})
	return err
}

// clockSlack is how far back of t the search starts: the time an event is
// stamped with comes from the machine's clock, which may step back a
// little; events stamped up to this much out of order are still found.
const clockSlack = 5 * time.Minute

// seekChunk is how much of the log the search leaves to the linear scan.
const seekChunk = 1 << 20

// seekBefore returns the start of a line of the log (size bytes) such that
// every line before it was received at or before t: where a scan for the
// events after t may begin. Lines that are not in the log's frame stop
// the search there (the scan reads them as it always does).
func seekBefore(f io.ReaderAt, size int64, t time.Time) (int64, error) {
	lo, hi := int64(0), size
	for hi-lo > seekChunk {
		mid := lo + (hi-lo)/2
		pos, at, ok, err := lineAt(f, mid, hi)
		if err != nil {
			return 0, err
		}
		if ok && !at.After(t) {
			lo = pos
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// lineAt finds the first line starting after offset from (and before to)
// and reads when it was received from its frame; ok is false when there
// is no such line or its frame cannot be read.
func lineAt(f io.ReaderAt, from, to int64) (pos int64, at time.Time, ok bool, err error) {
	buf := make([]byte, 64<<10)
	pos = from
	for {
		if pos >= to {
			return 0, time.Time{}, false, nil
		}
		n, rerr := f.ReadAt(buf[:min(int64(len(buf)), to-pos)], pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			pos += int64(i) + 1
			break
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return 0, time.Time{}, false, fmt.Errorf("read event log: %w", rerr)
		}
		if n == 0 {
			return 0, time.Time{}, false, nil
		}
		pos += int64(n)
	}
	if pos >= to {
		return 0, time.Time{}, false, nil
	}
	n, rerr := f.ReadAt(buf[:min(256, to-pos)], pos)
	if rerr != nil && !errors.Is(rerr, io.EOF) {
		return 0, time.Time{}, false, fmt.Errorf("read event log: %w", rerr)
	}
	_, rest, ok1 := bytes.Cut(buf[:n], []byte(`,"at":"`))
	stamp, _, ok2 := bytes.Cut(rest, []byte(`"`))
	if !bytes.HasPrefix(buf[:n], []byte(`{"seq":`)) || !ok1 || !ok2 {
		return pos, time.Time{}, false, nil
	}
	at, perr := time.Parse(time.RFC3339Nano, string(stamp))
	return pos, at, perr == nil, nil
}
