//go:build !race

package listener_test

const raceEnabled = false

// slowdown is 1 without the race detector: the bounds are the issue's own.
const slowdown = 1
