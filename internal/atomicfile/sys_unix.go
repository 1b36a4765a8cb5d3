//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// noFollow makes an open fail on a symbolic link at its last element.
const noFollow = syscall.O_NOFOLLOW

// alive asks the kernel with signal 0; a process of another user answers
// EPERM and is alive.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// NoFollow is the open flag that refuses a symbolic link at the last
// element of a path (0 where the system has none: OpenFile checks first).
const NoFollow = syscall.O_NOFOLLOW

// NoFollowDir opens a folder refusing a link (and anything not a folder).
const NoFollowDir = syscall.O_DIRECTORY | syscall.O_NOFOLLOW

// Lock takes an exclusive advisory lock on f: waiting for another process
// to let go when wait, else failing at once with ErrLockHeld.
func Lock(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	err := syscall.Flock(int(f.Fd()), how)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLockHeld
	}
	return err
}

// Unlock lets go a lock Lock took.
func Unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
