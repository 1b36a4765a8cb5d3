//go:build race

package listener_test

// raceEnabled: the race detector slows everything several times, so the
// load test then checks correctness only and logs its figures.
const raceEnabled = true

// slowdown stretches the bounds of the timed steps that must still hold
// under the race detector (about 10x slower, measured): a loaded CI machine
// does not fail them, while the quadratic code they guard against (21 s)
// still does.
const slowdown = 3
