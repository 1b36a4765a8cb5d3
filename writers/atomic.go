package writers

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// WriteFileAtomic writes the file at path through write so that a reader,
// or the next run after a crash, sees either the old file or the complete
// new one, never a half-written report. It writes a temporary file in the
// same directory, fsyncs and closes it, renames it over path and fsyncs the
// directory. On any error the temporary file is removed, an existing file
// at path is left untouched, and the error names path.
//
// write receives a buffered writer; it must not keep it after returning.
// A new file gets mode 0644 less the umask; a replaced file keeps its mode.
func WriteFileAtomic(path string, write func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	perm := fs.FileMode(0o644)
	if fi, statErr := os.Stat(path); statErr == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		perm = fi.Mode().Perm()
	}
	f, tmp, err := createTemp(dir, base, perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close() // already closed on the success path; the error is moot
			_ = os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()

	bw := bufio.NewWriterSize(f, 256<<10)
	if err = write(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// createTemp opens a new file beside the target with O_EXCL. It does not use
// os.CreateTemp because that fixes the mode at 0600 regardless of the umask.
func createTemp(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	var b [6]byte
	for range 10 {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		name := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if perm != 0o644 {
			// Keep the replaced file's mode even where it is wider than the umask allows.
			if err := f.Chmod(perm); err != nil {
				_ = f.Close()
				_ = os.Remove(name)
				return nil, "", err
			}
		}
		return f, name, nil
	}
	return nil, "", errors.New("cannot create a temporary file: too many name collisions")
}

// syncDir makes the rename durable. Windows cannot fsync a directory, so
// there the rename is left to the file system's own journal.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil {
		_ = d.Close()
		return fmt.Errorf("sync directory: %w", err)
	}
	return d.Close()
}
