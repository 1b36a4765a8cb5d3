package listener

import (
	"errors"
	"fmt"
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
	_, _, err = scanLog(f, 0, fi.Size(), func(ev Event, _ int64) {
		if ev.At.After(t) {
			fn(ev)
		}
	})
	return err
}
