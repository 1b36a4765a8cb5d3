//go:build !linux

package sandbox

import "time"

// sleepOS sleeps d; only Linux has the precise version.
func sleepOS(d time.Duration) { time.Sleep(d) }
