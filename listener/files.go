package listener

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
)

// Every file listen and stock export write holds business data (stock,
// the shared secret), so it is owner-only whatever the umask, and nothing
// is ever written, opened for writing or chmod-ed through a symbolic link:
// a link planted in the store (or at the export's path) would otherwise
// make nxbatch change or create a file of the attacker's choosing.

// Modes of what listen and stock export create.
const (
	fileMode fs.FileMode = 0o600
	dirMode  fs.FileMode = 0o700
)

// ErrSymlink reports a symbolic link where nxbatch writes; the error that
// wraps it is a *msg.Error naming the path.
var ErrSymlink = errors.New("symbolic link refused")

// symlinkErr is the refusal of path, a symbolic link.
func symlinkErr(path string) error {
	return &msg.Error{Msg: msg.New("lst.symlink", path), Err: ErrSymlink}
}

// notRegularErr is the refusal of path, which is not a regular file (a
// folder, a device, a pipe).
func notRegularErr(path string) error {
	return &msg.Error{Msg: msg.New("lst.notregular", path)}
}

// refuseLink returns an error when path is a symbolic link (dangling or
// not) or exists and is not a regular file; a missing path is fine.
func refuseLink(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("inspect %s: %w", path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return symlinkErr(path)
	case !fi.Mode().IsRegular():
		return notRegularErr(path)
	}
	return nil
}

// openPrivate opens path with flag (os.O_RDONLY, os.O_RDWR|os.O_CREATE, ...)
// without following a symbolic link in its last component: O_NOFOLLOW makes
// the kernel refuse a link, dangling or not, so a planted link can neither
// redirect the write nor create its target. A file it opens for writing is
// made exactly 0600 through the open descriptor (fchmod, which cannot be
// redirected), whatever the umask or the mode it had.
func openPrivate(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|atomicfile.NoFollow, fileMode)
	if errors.Is(err, syscall.ELOOP) {
		return nil, symlinkErr(path)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegularErr(path)
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 && fi.Mode().Perm() != fileMode {
		if err := f.Chmod(fileMode); err != nil {
			f.Close()
			return nil, fmt.Errorf("make %s owner-only: %w", path, err)
		}
	}
	return f, nil
}

// mkdirPrivate creates dir and its missing parents owner-only (0700 through
// the new folder's descriptor, whatever the umask). dir itself must not be a
// symbolic link: the store's files would then land wherever it points.
// Existing parents are the user's and are left as they are.
func mkdirPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return symlinkErr(dir)
	case err == nil && !fi.IsDir():
		return &msg.Error{Msg: msg.New("lst.notdir", dir)}
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("inspect %s: %w", dir, err)
	}
	if parent := filepath.Dir(dir); parent != dir {
		if _, err := os.Stat(parent); errors.Is(err, fs.ErrNotExist) {
			if err := mkdirPrivate(parent); err != nil {
				return err
			}
		}
	}
	if err := os.Mkdir(dir, dirMode); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	d, err := os.OpenFile(dir, os.O_RDONLY|atomicfile.NoFollowDir, 0)
	if errors.Is(err, syscall.ELOOP) {
		return symlinkErr(dir) // swapped for a link right after creating it
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Chmod(dirMode); err != nil {
		return fmt.Errorf("make %s owner-only: %w", dir, err)
	}
	return nil
}

// writePrivate writes the file at path owner-only and atomically, with
// atomicfile.Write (which also refuses a link planted meanwhile, and whose
// temporary files the next command removes after a crash); a symbolic link
// or a non-regular file already at path is refused first in listen's own
// words.
func writePrivate(path string, write func(w io.Writer) error) error {
	if err := refuseLink(path); err != nil {
		return err
	}
	return atomicfile.Write(path, atomicfile.Private, write)
}
