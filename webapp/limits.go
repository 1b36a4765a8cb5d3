package webapp

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
)

// One memory budget bounds everything the server parses at once. Reading
// a file is the one thing whose memory a user chooses: a 200 KB workbook
// may hold texts the readers take up to their 128 MiB limit before they
// refuse it, and sixteen of them at once took the server past 2 GB. Each
// read (an upload's first preview, a preview read again, a fix, the
// column screen, a send) takes a share of the budget for as long as it
// reads; reads beyond it wait their turn, and past maxParseQueue waiting
// (or maxParseWait) are refused with a sentence saying to try again.

// DefaultParseMemory is the budget when Config.ParseMemory is 0.
const DefaultParseMemory = 512 << 20

// parseShare is what one read is allowed: the readers' limit on a
// workbook's texts (readers.MaxSharedStringBytes), the largest part held
// in memory, and room for the rows read.
const parseShare = 192 << 20

// maxParseQueue is how many reads may wait for their turn.
const maxParseQueue = 64

// maxParseWait is the longest a read waits for its turn.
const maxParseWait = 2 * time.Minute

// parseBudget hands out the budget's shares.
type parseBudget struct {
	shares  chan struct{}
	waiting atomic.Int32
}

func newParseBudget(memory int64) *parseBudget {
	n := max(1, int(memory/parseShare))
	return &parseBudget{shares: make(chan struct{}, n)}
}

// errBusy refuses a read when too many wait.
var errBusy = &msg.Error{Msg: msg.New("web.busy")}

// acquire takes a share, waiting its turn; release gives it back.
func (b *parseBudget) acquire(ctx context.Context) (release func(), err error) {
	select {
	case b.shares <- struct{}{}:
		return b.release, nil
	default:
	}
	if b.waiting.Add(1) > maxParseQueue {
		b.waiting.Add(-1)
		return nil, errBusy
	}
	defer b.waiting.Add(-1)
	t := time.NewTimer(maxParseWait)
	defer t.Stop()
	select {
	case b.shares <- struct{}{}:
		return b.release, nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, errBusy
	}
}

func (b *parseBudget) release() { <-b.shares }

// load reads path within the budget.
func (s *Server) load(ctx context.Context, path string, lo pipeline.LoadOptions) (*pipeline.File, error) {
	release, err := s.parsing.acquire(ctx)
	if err != nil {
		s.log.Warn("a read refused: the server is reading as much as its memory budget allows")
		return nil, err
	}
	defer release()
	return pipeline.Load(path, lo)
}
