//go:build windows

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// noFollow is 0 where the system has no O_NOFOLLOW (Windows): OpenFile
// looks with Lstat before opening instead.
const noFollow = 0

// NoFollow is the open flag that refuses a symbolic link at the last
// element of a path: none here, so callers that cannot check first accept
// the open as it is.
const NoFollow = 0

// NoFollowDir opens a folder refusing a link: none here.
const NoFollowDir = 0

// alive: on Windows FindProcess opens the process, and fails when there is
// none.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

// Lock takes an exclusive lock on f's first byte: waiting for another
// process to let go when wait, else failing at once with ErrLockHeld.
func Lock(f *os.File, wait bool) error {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLockHeld
	}
	return err
}

// Unlock lets go a lock Lock took.
func Unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}
