//go:build !linux

package boltjournal

import "os"

// datasync flushes f; elsewhere than Linux, with a full fsync.
func datasync(f *os.File) error { return f.Sync() }
