package webapp

import (
	"context"
	"log"
	"log/slog"
	"net/http"
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

// Timeouts bound how long a connection may hold the server: a client
// that sends its request a byte at a time, never reads its answer, or
// keeps an idle connection open.
type Timeouts struct {
	// Header is the most time to read a request's headers (and the first
	// request of a connection to start).
	Header time.Duration
	// Read is the most time to read a whole request, body included (an
	// upload of --max-upload MB over a slow link).
	Read time.Duration
	// Write is the most time to write an answer; a progress stream's
	// deadline moves on at every event it sends.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
}

// DefaultTimeouts are the timeouts when Config.Timeouts leaves one 0.
var DefaultTimeouts = Timeouts{Header: 10 * time.Second, Read: 5 * time.Minute, Write: 5 * time.Minute, Idle: 2 * time.Minute}

// DefaultMaxStreams caps the live-progress streams open at once when
// Config.MaxStreams is 0; the progress page refreshes itself without one.
const DefaultMaxStreams = 16

// HTTPServer is the http.Server for the page, with its timeouts.
func (s *Server) HTTPServer(errorLog *log.Logger) *http.Server {
	t := s.cfg.Timeouts
	return &http.Server{Handler: s.Handler(), ReadHeaderTimeout: t.Header, ReadTimeout: t.Read, WriteTimeout: t.Write,
		IdleTimeout: t.Idle, MaxHeaderBytes: 64 << 10, ErrorLog: errorLog}
}

// capStreams answers 503 beyond MaxStreams live-progress streams, and
// moves a stream's write deadline on at every event it flushes: a stream
// nobody reads ends at the write timeout, one that is read lasts.
func (s *Server) capStreams(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.streams.Add(1) > int32(s.cfg.MaxStreams) {
			s.streams.Add(-1)
			s.log.Warn("refused a progress stream: too many open", slog.Int("max", s.cfg.MaxStreams), slog.String("from", remoteIP(r)))
			w.Header().Set("Retry-After", "5")
			http.Error(w, msg.New("web.streams").In(lang(r)), http.StatusServiceUnavailable)
			return
		}
		defer s.streams.Add(-1)
		h(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), write: s.cfg.Timeouts.Write, now: time.Now}, r)
	}
}

// deadlineWriter moves the write deadline on at every flush.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	write time.Duration
	now   func() time.Time
}

// Flush sends what was written and gives the next event a full write
// timeout.
func (d *deadlineWriter) Flush() {
	_ = d.rc.Flush()
	_ = d.rc.SetWriteDeadline(d.now().Add(d.write))
}

// Unwrap lets http.ResponseController reach the connection.
func (d *deadlineWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }
