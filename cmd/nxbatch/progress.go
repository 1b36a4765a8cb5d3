package main

import (
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/nxbatch/nxbatch/msg"
)

// progress shows how far sending is: a bar on a terminal, and a plain log
// line every logEvery without one, so cron logs stay readable.
type progress struct {
	e     *env
	l     msg.Lang
	total int
	p     *mpb.Progress
	bar   *mpb.Bar
	mu    sync.Mutex
	last  time.Time // last log line
	tick  time.Time // last settled request, for the bar's ETA
	done  int
}

const logEvery = 10 * time.Second

func newProgress(e *env, total int, l msg.Lang) *progress {
	pr := &progress{e: e, l: l, total: total, last: time.Now()}
	pr.tick = pr.last
	if total == 0 {
		return pr
	}
	if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		pr.p = mpb.New(mpb.WithOutput(f), mpb.WithWidth(40))
		pr.bar = pr.p.AddBar(int64(total),
			mpb.PrependDecorators(decor.Name(msg.New("progress.bar").In(l)+" "), decor.CountersNoUnit("%d / %d")),
			mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.EwmaETA(decor.ET_STYLE_GO, 30)))
	}
	return pr
}

// update is called after each request is settled, from any goroutine.
func (pr *progress) update(done int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.bar != nil {
		pr.bar.EwmaIncrement(pr.sinceTick(time.Now()))
		return
	}
	pr.done = max(pr.done, done)
	if time.Since(pr.last) >= logEvery {
		pr.last = time.Now()
		pr.e.log.Info(msg.New("log.progress", pr.done, msg.Count("n.requests", pr.total)).In(pr.l))
	}
}

func (pr *progress) finish() {
	if pr.p != nil {
		pr.bar.SetTotal(-1, true)
		pr.p.Wait()
		return
	}
	if pr.total > 0 {
		pr.e.log.Info(msg.New("log.progress.done", pr.done, msg.Count("n.requests", pr.total)).In(pr.l))
	}
}

// sinceTick is how long the request settled at now took, as the bar's ETA
// needs it: the time since the previous one settled (with several workers,
// the run's pace per request, not one request's latency).
func (pr *progress) sinceTick(now time.Time) time.Duration {
	d := now.Sub(pr.tick)
	pr.tick = now
	return d
}
