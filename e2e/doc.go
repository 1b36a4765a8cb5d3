// Package e2e proves nxbatch's submission end to end: its tests build the
// real binary once and run it against API sandboxes they start in-process,
// killing it, interrupting it, injecting faults and refusing its token, and
// then check through the sandbox's state that nothing was created twice,
// nothing was lost, and every report row says what really happened.
//
// The package holds only tests; `go test ./e2e` runs them all.
package e2e
