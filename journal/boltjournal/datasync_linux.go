package boltjournal

import (
	"os"
	"syscall"
)

// datasync flushes f's data without its metadata: the high-water record is
// rewritten in place, so its size never changes and fdatasync suffices
// (and, unlike fsync, does not force a file system journal commit that the
// journal's own fsyncs would queue behind).
func datasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
