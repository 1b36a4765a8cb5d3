package webapp

import (
	"context"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/runner"
)

// gate opens the journal only while something needs it, and shares the one
// open journal among whatever needs it at the same time: the bbolt lock is
// per open file, so two opens in this process would keep each other out,
// while one held for the server's lifetime would keep every cron job out.
// A send holds it from its first request to its last outcome; a listing,
// a resolve or a catalog fetch for milliseconds.
type gate struct {
	session *runner.Session
	path    string

	mu     sync.Mutex
	cur    journal.Store
	closeJ func()
	refs   int
}

// acquire returns the open journal (opening it, waiting at most wait for
// another process's lock) and the function that gives it back; the last
// one given back closes it.
func (g *gate) acquire(wait time.Duration) (journal.Store, func(), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur == nil {
		// While the page holds the journal, `nxbatch journal list` asks it.
		j, closeJ, err := g.session.OpenJournal(wait, true)
		if err != nil {
			return nil, nil, err
		}
		g.cur, g.closeJ = j, closeJ
	}
	g.refs++
	j := g.cur
	var once sync.Once
	return j, func() { once.Do(g.release) }, nil
}

func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.refs--
	if g.refs == 0 && g.cur != nil {
		g.closeJ()
		g.cur, g.closeJ = nil, nil
	}
}

// list returns the journal's entries in state filter: from the journal
// when it can be opened, else from the process that holds it (a cron
// job's run answers listings while it runs).
func (g *gate) list(ctx context.Context, filter journal.State) ([]journal.Entry, error) {
	j, release, err := g.acquire(0)
	if err == nil {
		defer release()
		return j.List(ctx, filter)
	}
	if errLocked(err) {
		if entries, lerr := boltjournal.ListRunning(ctx, g.path, filter); lerr == nil {
			return entries, nil
		}
	}
	return nil, err
}
