// Package atomicfile writes files so that a reader, or the next run after a
// crash, sees either the previous file or the complete new one, never a
// half-written report; and so that what nxbatch writes (reports with CUITs,
// DNIs and e-mails, catalogs with bank accounts) is private by default.
//
// A file is written to a temporary file in a private folder beside it
// (.nxbatch-tmp, owner-only, on the same file system so the rename is
// atomic), fsynced, renamed over the target, and the folder fsynced. The
// temporary file's name carries the writer's process id, so that the next
// nxbatch to write in that folder removes what a killed process left
// behind. No write and no permission change follows a symbolic link: a
// link planted where nxbatch writes is refused, never followed, never
// replaced.
package atomicfile

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
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/nxbatch/nxbatch/msg"
)

// Modes of what nxbatch writes: private unless the user widens them for a
// shared folder.
const (
	Private    fs.FileMode = 0o600
	PrivateDir fs.FileMode = 0o700
	Shared     fs.FileMode = 0o640
	SharedDir  fs.FileMode = 0o750
)

// TempFolder is the private folder beside a target that holds its
// temporary files.
const TempFolder = ".nxbatch-tmp"

// ErrSymlink means a symbolic link sits where nxbatch was to write. It is
// said in the user's words wherever the cause of a failed write is shown.
var ErrSymlink = &msg.Error{Msg: msg.New("cause.symlink")}

// Write writes the file at path through write, atomically, with mode perm
// whatever the umask. write receives a buffered writer; it must not keep it
// after returning. On any error the temporary file is removed, an existing
// file at path is left untouched, and the error names path.
func Write(path string, perm fs.FileMode, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("write %s: %w", path, ErrSymlink)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("write %s: not a regular file", path)
		}
	}
	f, tmp, err := createTemp(dir, filepath.Base(path), perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = f.Close() // already closed on the success path; the error is moot
			_ = os.Remove(tmp)
			_ = os.Remove(filepath.Dir(tmp)) // only when empty
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
	_ = os.Remove(filepath.Join(dir, TempFolder)) // only when empty
	return syncDir(dir)
}

// createTemp opens a new file in dir's private temporary folder with
// O_EXCL, never through a link, and sets its mode on the open file (the
// umask only ever narrows a mode given at creation).
func createTemp(dir, base string, perm fs.FileMode) (*os.File, string, error) {
	var b [6]byte
	for range 10 {
		tdir, err := tempFolder(dir)
		if err != nil {
			return nil, "", err
		}
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
		name := filepath.Join(tdir, strconv.Itoa(os.Getpid())+"."+hex.EncodeToString(b[:])+"."+base)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, perm)
		switch {
		case errors.Is(err, fs.ErrExist), errors.Is(err, fs.ErrNotExist):
			// A name taken, or the folder removed by another writer that
			// found it empty: try again.
			continue
		case err != nil:
			return nil, "", err
		}
		if err := f.Chmod(perm); err != nil {
			_ = f.Close()
			_ = os.Remove(name)
			return nil, "", err
		}
		return f, name, nil
	}
	return nil, "", errors.New("cannot create a temporary file: too many name collisions")
}

// cleaned remembers the folders whose stale temporary files this process
// already removed.
var cleaned sync.Map

// tempFolder makes (or checks) dir's private temporary folder and, the
// first time this process uses it, removes what dead processes left there.
func tempFolder(dir string) (string, error) {
	tdir := filepath.Join(dir, TempFolder)
	if err := os.Mkdir(tdir, PrivateDir); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(tdir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: %w", tdir, ErrSymlink)
	}
	if _, done := cleaned.LoadOrStore(tdir, true); !done {
		_ = Clean(dir)
	}
	return tdir, nil
}

// Clean removes the temporary files that processes no longer running left
// in dir's private temporary folder (a run killed while writing its
// reports). Files of live processes are left alone.
func Clean(dir string) error {
	tdir := filepath.Join(dir, TempFolder)
	entries, err := os.ReadDir(tdir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		pid, _, ok := strings.Cut(e.Name(), ".")
		if !ok {
			continue
		}
		if n, err := strconv.Atoi(pid); err == nil && !Alive(n) {
			if err := os.Remove(filepath.Join(tdir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	_ = os.Remove(tdir) // only when empty
	return errors.Join(errs...)
}

// Alive reports whether a process with id pid is running (or may be: a
// process of another user answers EPERM).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	return alive(pid)
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

// MkdirAll makes dir and its missing parents with mode perm (PrivateDir
// for what holds private data); folders that exist are left as they are.
// dir itself must be a folder, not a symbolic link to one (ErrSymlink): a
// folder of the state folder (catalogs/, profiles/) replaced by a link
// would send every write in it wherever the link points.
func MkdirAll(dir string, perm fs.FileMode) error {
	if err := notLink(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, perm); err != nil {
		return err
	}
	return notLink(dir) // a link planted between the check and the make
}

// notLink refuses a symbolic link at path; a path that does not exist is
// fine.
func notLink(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return linkAt(path)
	}
	return nil
}

// ErrLockHeld is a lock another process holds (Lock without waiting).
var ErrLockHeld = errors.New("locked by another process")

// linkAt is ErrSymlink naming the link, for a message that quotes its
// cause without the path.
func linkAt(path string) error {
	return &msg.Error{Msg: msg.New("cause.symlink.at", path), Err: ErrSymlink}
}

// OpenFile is os.OpenFile that never follows a symbolic link at path: a
// link there gives an error matching ErrSymlink (said in the user's
// words), whatever flag asks (create, append, read and write).
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if noFollow == 0 {
		// No O_NOFOLLOW here (Windows): look before opening.
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, linkAt(path)
		}
	}
	f, err := os.OpenFile(path, flag|noFollow, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, linkAt(path)
	}
	return f, err
}

// tempRoot is the folder that holds every nxbatch process's temporary
// folder: one per user under the system's temporary folder, owner-only.
func tempRoot() string {
	return filepath.Join(os.TempDir(), "nxbatch-"+strconv.Itoa(os.Getuid()))
}

var (
	tempOnce sync.Once
	tempDir  string
	tempErr  error
)

// TempDir is this process's private temporary folder: the XLSX library's
// spill files go there, not in the shared temporary folder where anyone
// could read a report's data. It is made on first use (owner-only, never
// through a link), the folders of processes that died are removed then,
// and RemoveTemp removes this one at exit.
func TempDir() (string, error) {
	tempOnce.Do(func() {
		root := tempRoot()
		if err := os.Mkdir(root, PrivateDir); err != nil && !errors.Is(err, fs.ErrExist) {
			tempErr = err
			return
		}
		fi, err := os.Lstat(root)
		switch {
		case err != nil:
			tempErr = err
			return
		case !fi.IsDir():
			tempErr = fmt.Errorf("%s: %w", root, ErrSymlink)
			return
		case !ownedByMe(fi):
			tempErr = fmt.Errorf("%s belongs to another user", root)
			return
		}
		if fi.Mode().Perm() != PrivateDir {
			if err := os.Chmod(root, PrivateDir); err != nil {
				tempErr = err
				return
			}
		}
		CleanTemp()
		dir := filepath.Join(root, strconv.Itoa(os.Getpid()))
		if err := os.Mkdir(dir, PrivateDir); err != nil && !errors.Is(err, fs.ErrExist) {
			tempErr = err
			return
		}
		tempDir = dir
	})
	return tempDir, tempErr
}

// CleanTemp removes the temporary folders of nxbatch processes that are no
// longer running (a run killed while it wrote a large report).
func CleanTemp() {
	entries, err := os.ReadDir(tempRoot())
	if err != nil {
		return
	}
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && !Alive(pid) {
			_ = os.RemoveAll(filepath.Join(tempRoot(), e.Name()))
		}
	}
}

// RemoveTemp removes this process's temporary folder, at exit.
func RemoveTemp() {
	if tempDir != "" {
		_ = os.RemoveAll(tempDir)
	}
}
