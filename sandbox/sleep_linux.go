package sandbox

import (
	"errors"
	"syscall"
	"time"
)

// sleepOS sleeps d in the kernel (nanosleep), to within the kernel's timer
// slack of about 50 µs. It does not read Go's clock, so it also ends inside
// a testing/synctest bubble, after d of real time.
func sleepOS(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for ts.Sec > 0 || ts.Nsec > 0 {
		var left syscall.Timespec
		// The runtime's signals (preemption) interrupt the sleep: go on
		// with what is left.
		if err := syscall.Nanosleep(&ts, &left); !errors.Is(err, syscall.EINTR) {
			return
		}
		ts = left
	}
}
