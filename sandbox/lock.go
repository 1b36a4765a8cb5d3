package sandbox

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// The lock file beside the state file (path+".lock") serialises the
// sandboxes of every process that serve the same state file, and holds
// the number of the last save, so that each can tell, reading 8 bytes,
// whether another wrote the state since it last read it. It is a separate
// file because the state file is replaced by each save.

// openLock opens (creating it owner-only, never through a link) the lock
// file.
func openLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|atomicfile.NoFollow, atomicfile.Private)
	if errors.Is(err, syscall.ELOOP) {
		return nil, atomicfile.ErrSymlink
	}
	return f, err
}

// lockEx takes the lock, waiting for another process's request to end
// (they hold it only for one).
func lockEx(f *os.File) error { return atomicfile.Lock(f, true) }

func unlock(f *os.File) error { return atomicfile.Unlock(f) }

// readSaves is the number of the last save; 0 for a new lock file.
func readSaves(f *os.File) (uint64, error) {
	var b [8]byte
	n, err := f.ReadAt(b[:], 0)
	switch {
	case n == len(b):
		return binary.BigEndian.Uint64(b[:]), nil
	case errors.Is(err, io.EOF) && n == 0:
		return 0, nil
	case err == nil:
		err = io.ErrUnexpectedEOF
	}
	return 0, err
}

// writeSaves records a save's number, before the save: a process that
// dies between the two leaves others reading a state that did not change,
// which is harmless; the other order could leave them not reading one
// that did.
func writeSaves(f *os.File, n uint64) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	_, err := f.WriteAt(b[:], 0)
	return err
}
