//go:build race

package listener_test

// raceEnabled: the race detector slows everything several times, so the
// load test then checks correctness only and logs its figures.
const raceEnabled = true
