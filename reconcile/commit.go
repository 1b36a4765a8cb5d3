package reconcile

import (
	"context"
	"errors"
	"fmt"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// Commit writes every decision of res to the journal as a verdict with its
// note and evidence, each in its own durable write: a run killed halfway
// leaves some entries settled and the rest unknown, both true. After a 401
// it writes nothing: the reads stopped, and the rule is that a refused
// token changes nothing. A decision on an entry that is no longer unknown
// (settled meanwhile by a person) is skipped with a warning in res.
func Commit(ctx context.Context, j Journal, res *Result) (int, error) {
	if res.Unauthorized {
		return 0, nil
	}
	written := 0
	for _, d := range res.Decisions {
		err := j.Resolve(ctx, d.Key, d.Verdict)
		switch {
		case errors.Is(err, journal.ErrWrongState), errors.Is(err, journal.ErrNotFound):
			res.Warnings = append(res.Warnings, msg.New("rec.changed", d.Key.String()))
		case err != nil:
			return written, fmt.Errorf("reconcile: write the verdict on %s: %w", d.Key, err)
		default:
			written++
		}
	}
	return written, nil
}
