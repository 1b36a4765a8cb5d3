//go:build !race

package listener_test

const raceEnabled = false
