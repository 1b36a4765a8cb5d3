package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/time/rate"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/writers"
)

// Sender sends one creating request and classifies the answer;
// *apiclient.Client is the real one.
type Sender interface {
	Venta(ctx context.Context, body []byte) apiclient.Outcome
	Facturar(ctx context.Context, body []byte) apiclient.Outcome
	Stock(ctx context.Context, body []byte) apiclient.Outcome
}

// Journal is what submission needs of the journal (*journal.Journal).
type Journal interface {
	Get(k journal.Key) (journal.Entry, bool, error)
	Begin(k journal.Key, bodyHash, source string) (journal.Entry, error)
	Finish(k journal.Key, st journal.State, facturaID, numero, pvNumero int64, message string) error
	FinishAsync(k journal.Key, st journal.State, facturaID, numero, pvNumero int64, message string) <-chan error
	NextAllowed(tenant, window string) (time.Time, error)
	SetNextAllowed(tenant, window string, t time.Time) error
}

// SubmitOptions configure a run's sending.
type SubmitOptions struct {
	Tenant       string
	Workers      int     // concurrent venta/facturar requests
	Rate         float64 // venta/facturar requests per second; 0 = no limit beyond Workers
	StockWindow  time.Duration
	RetryUnknown bool
	MaxErrors    int     // stop after this many rejected requests in a row; 0 = never
	TimeScale    float64 // multiplies the waits the API asks for
	Log          *slog.Logger
	// Progress is called after each request is settled.
	Progress func(done int)
	Now      func() time.Time
}

// SubmitResult says how sending ended.
type SubmitResult struct {
	Sent        int  // requests that reached (or may have reached) the API
	Aborted     bool // the API refused the token (401)
	Interrupted bool // the context was cancelled (SIGINT/SIGTERM)
	MaxErrors   bool // --max-errors stopped the run
	// Err is a journal failure: the run stopped because an outcome could not
	// be made durable.
	Err error
}

// stockWindowName is the persisted pacing window of stock movements.
const stockWindowName = "stock/movimiento"

type job struct {
	sh  *Sheet
	r   *Request
	key journal.Key
}

type submitter struct {
	o       SubmitOptions
	send    Sender
	j       Journal
	log     *slog.Logger
	stop    context.CancelFunc // stops taking work (401, max errors, journal failure)
	sent    atomic.Int64
	done    atomic.Int64
	inARow  atomic.Int64
	mu      sync.Mutex
	res     SubmitResult
	limiter *rate.Limiter
	// finishing counts outcomes queued in the journal but not yet durable.
	finishing sync.WaitGroup
}

// Prepare checks every valid request against the journal: a key already ok
// is skipped (with the first run's ids) or a conflict (different body); an
// unknown one stays unknown unless RetryUnknown. It returns how many
// requests are left to send.
func Prepare(files []*File, j Journal, o SubmitOptions) (int, error) {
	seen := map[journal.Key]string{}
	n := 0
	for _, f := range files {
		for _, sh := range f.Sheets {
			for _, r := range sh.Requests {
				if r.Status != writers.StatusValid {
					continue
				}
				k := journal.Key{Tenant: o.Tenant, Kind: string(sh.Kind), Business: r.Key}
				if where, dup := seen[k]; dup {
					r.Status = writers.StatusConflict
					r.Outcome = msg.New("sub.duprun", where)
					continue
				}
				seen[k] = sheetLabel(f.Path, sh.Info.Name)
				e, found, err := j.Get(k)
				if err != nil {
					return 0, fmt.Errorf("read journal: %w", err)
				}
				if found {
					switch e.State {
					case journal.OK:
						r.FacturaID, r.Numero, r.PVNumero = e.FacturaID, e.Numero, e.PVNumero
						if e.BodyHash == r.BodyHash {
							r.Status = writers.StatusSkipped
							r.Outcome = msg.New("sub.skipped", e.Last.Local().Format("02/01/2006 15:04"))
						} else {
							r.Status = writers.StatusConflict
							r.Outcome = msg.New(conflictKey(sh.Kind), e.Last.Local().Format("02/01/2006 15:04"))
						}
						continue
					case journal.Unknown, journal.Sending:
						if !o.RetryUnknown {
							r.Status = writers.StatusUnknown
							r.Outcome = msg.New("sub.stillunknown", k.String())
							continue
						}
					}
				}
				r.Status = writers.StatusPending
				n++
			}
		}
	}
	return n, nil
}

// conflictKey is the message for a key journaled ok with another body: a
// stock movement is told apart by its movement columns, a sale or presale
// by its number.
func conflictKey(k schema.Kind) string {
	if k == schema.Stock {
		return "sub.conflict.stock"
	}
	return "sub.conflict"
}

// Submit sends every pending request of files: venta and facturar through
// Workers concurrent workers, stock movements one at a time paced by the
// stock window. Each request's intent is journaled before it leaves and its
// outcome after. Cancelling ctx stops taking work; requests in flight are
// settled and journaled before Submit returns.
func Submit(ctx context.Context, files []*File, send Sender, j Journal, o SubmitOptions) SubmitResult {
	if o.Workers < 1 {
		o.Workers = 1
	}
	if o.TimeScale <= 0 {
		o.TimeScale = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	lim := rate.NewLimiter(rate.Inf, 1)
	if o.Rate > 0 {
		lim = rate.NewLimiter(rate.Limit(o.Rate), 1)
	}
	work, stop := context.WithCancel(ctx)
	defer stop()
	s := &submitter{o: o, send: send, j: j, log: o.Log, stop: stop, limiter: lim}

	var parallel, stock []job
	for _, f := range files {
		for _, sh := range f.Sheets {
			for _, r := range sh.Requests {
				if r.Status != writers.StatusPending {
					continue
				}
				jb := job{sh: sh, r: r, key: journal.Key{Tenant: o.Tenant, Kind: string(sh.Kind), Business: r.Key}}
				if sh.Kind == schema.Stock {
					stock = append(stock, jb)
				} else {
					parallel = append(parallel, jb)
				}
			}
		}
	}
	var wg sync.WaitGroup
	queue := make(chan job)
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range queue {
				s.one(work, jb, false)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, jb := range stock {
			if work.Err() != nil {
				return
			}
			s.one(work, jb, true)
		}
	}()
	for _, jb := range parallel {
		if work.Err() != nil {
			break
		}
		if err := lim.Wait(work); err != nil {
			break
		}
		select {
		case queue <- jb:
		case <-work.Done():
		}
	}
	close(queue)
	wg.Wait()
	s.finishing.Wait()
	s.res.Sent = int(s.sent.Load())
	if ctx.Err() != nil {
		s.res.Interrupted = true
	}
	return s.res
}

// sleep waits d or until ctx is done; false means ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// maxResends bounds how often one request is resent after answers that
// prove it was not processed (a rate window, a refused connection).
const maxResends = 20

// one sends a single request to a settled outcome, or leaves it pending
// when the run stops first.
func (s *submitter) one(ctx context.Context, jb job, isStock bool) {
	r := jb.r
	defer func() {
		if s.o.Progress != nil {
			s.o.Progress(int(s.done.Add(1)))
		}
	}()
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return // stays pending
		}
		if isStock && !s.waitStockWindow(ctx) {
			return
		}
		// The window is persisted before the intent: if it cannot be, the
		// journal is failing and the movement must not leave, and no entry
		// is left sending (which the next run would call unknown).
		if isStock && !s.markStockSent() {
			return
		}
		_, err := s.j.Begin(jb.key, r.BodyHash, source(jb))
		var soon *journal.TooSoonError
		switch {
		case errors.As(err, &soon):
			// The API holds the key for 30 s after any attempt, refused or
			// not: wait it out rather than be told "ya se esta procesando".
			if !sleep(ctx, soon.Wait) {
				return
			}
			continue
		case errors.Is(err, journal.ErrNotSendable):
			r.Status = writers.StatusUnknown
			r.Outcome = msg.New("sub.stillunknown", jb.key.String())
			return
		case err != nil:
			s.fatal(fmt.Errorf("journal intent for %s: %w", jb.key, err))
			return
		}
		// In-flight requests are settled even after an interrupt: cancelling
		// one mid-flight would only turn a known outcome into an unknown one.
		sendCtx := context.WithoutCancel(ctx)
		var out apiclient.Outcome
		switch jb.sh.Kind {
		case schema.Venta:
			out = s.send.Venta(sendCtx, r.Body)
		case schema.Facturar:
			out = s.send.Facturar(sendCtx, r.Body)
		default:
			out = s.send.Stock(sendCtx, r.Body)
		}
		if out.Written || out.Status != 0 {
			s.sent.Add(1)
			r.Sent++
		}
		if out.Class == apiclient.Resend && attempt < maxResends {
			if err := s.j.Finish(jb.key, journal.Rejected, 0, 0, 0, "not processed: "+resendReason(out)); err != nil {
				s.fatal(fmt.Errorf("journal outcome for %s: %w", jb.key, err))
				return
			}
			wait := time.Duration(float64(out.Wait) * s.o.TimeScale)
			if out.Wait == 0 {
				wait = time.Duration(float64(time.Second) * s.o.TimeScale * float64(attempt+1))
			}
			s.log.Info("resending after a refusal that proves the request was not processed",
				"request", r.Key, "wait", wait, "status", out.Status)
			if isStock {
				s.pushStockWindow(wait)
			} else if !sleep(ctx, wait) {
				return
			}
			continue
		}
		s.settle(jb, out)
		return
	}
}

func resendReason(out apiclient.Outcome) string {
	if out.Message != "" {
		return out.Message
	}
	if out.Err != nil {
		return out.Err.Error()
	}
	return "HTTP " + strconv.Itoa(out.Status)
}

// settle journals and records a definite classification.
func (s *submitter) settle(jb job, out apiclient.Outcome) {
	r := jb.r
	var st journal.State
	var fid, num, pv int64
	text := out.Message
	switch out.Class {
	case apiclient.OK:
		st = journal.OK
		if out.Result != nil {
			fid, num, pv = int64(out.Result.FacturaID), int64(out.Result.Numero), int64(out.Result.PVNumero)
		}
		if out.Stock != nil {
			fid = int64(out.Stock.ID)
		}
		r.Status, r.Outcome = writers.StatusOK, msg.New("sub.ok")
		s.inARow.Store(0)
	case apiclient.Rejected, apiclient.Resend:
		// Resend here means the resends ran out: every answer proved the
		// request was not processed, so a later run may send it again.
		st = journal.Rejected
		if out.Class == apiclient.Resend {
			text = resendReason(out)
		}
		r.Status, r.Outcome = writers.StatusRejected, msg.New("sub.rejected", out.Status, quoted(text))
		if out.Class == apiclient.Resend {
			r.Outcome = msg.New("sub.notsent", text)
		}
		if n := s.inARow.Add(1); s.o.MaxErrors > 0 && n >= int64(s.o.MaxErrors) {
			s.mu.Lock()
			s.res.MaxErrors = true
			s.mu.Unlock()
			s.stop()
		}
	case apiclient.Abort:
		// A 401 is not processed: the request goes back to pending and the
		// run stops; the next run with a valid token sends it.
		st = journal.Rejected
		r.Status, r.Outcome = writers.StatusPending, msg.New("sub.unauthorized")
		s.mu.Lock()
		s.res.Aborted = true
		s.mu.Unlock()
		s.stop()
	default: // Unknown
		st = journal.Unknown
		reason := unknownReason(out)
		text = reason.In(msg.ES)
		r.Status, r.Outcome = writers.StatusUnknown, msg.New("sub.unknown", reason, jb.key.String())
	}
	r.FacturaID, r.Numero, r.PVNumero = fid, num, pv
	// The outcome is queued now and made durable together with this
	// worker's next intent (one fsync for both); Submit waits for it. A
	// crash before it lands leaves the entry sending, i.e. unknown: never
	// a double send.
	done := s.j.FinishAsync(jb.key, st, fid, num, pv, text)
	s.finishing.Go(func() {
		if err := <-done; err != nil {
			s.fatal(fmt.Errorf("journal outcome for %s: %w", jb.key, err))
		}
	})
}

// unknownReason says, in the user's words, why an outcome is not known:
// the API's own text when it gave one, else what happened on the wire.
func unknownReason(out apiclient.Outcome) msg.Message {
	var ne net.Error
	switch {
	case out.Message != "":
		return msg.New("api.quoted", out.Message)
	case errors.Is(out.Err, context.DeadlineExceeded) || (errors.As(out.Err, &ne) && ne.Timeout()):
		return msg.New("sub.reason.timeout")
	case errors.Is(out.Err, io.EOF) || errors.Is(out.Err, io.ErrUnexpectedEOF) || errors.Is(out.Err, syscall.ECONNRESET):
		return msg.New("sub.reason.cut")
	case out.Err != nil && out.Status == 0:
		return msg.New("sub.reason.transport", out.Err.Error())
	case out.Status >= 500:
		return msg.New("sub.reason.status", out.Status)
	}
	return msg.New("sub.reason.nodata", out.Status)
}

func quoted(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// fatal stops the run after a journal failure: nothing more may be sent
// once an intent or outcome cannot be made durable.
func (s *submitter) fatal(err error) {
	s.mu.Lock()
	if s.res.Err == nil {
		s.res.Err = err
	}
	s.mu.Unlock()
	s.stop()
}

// stockMargin is added to the stock window: the API measures it from when
// the previous movement arrived, which may be a little after we sent it.
func (s *submitter) stockMargin() time.Duration {
	return s.o.StockWindow/50 + time.Millisecond
}

// waitStockWindow waits until the persisted stock window allows a movement.
func (s *submitter) waitStockWindow(ctx context.Context) bool {
	next, err := s.j.NextAllowed(s.o.Tenant, stockWindowName)
	if err != nil {
		s.fatal(fmt.Errorf("journal stock window: %w", err))
		return false
	}
	return sleep(ctx, next.Sub(s.o.Now()))
}

// markStockSent persists when the next movement may leave, before this one
// does, so that a restarted run never trips the window. False means the
// journal failed and the run is stopping.
func (s *submitter) markStockSent() bool {
	if err := s.j.SetNextAllowed(s.o.Tenant, stockWindowName, s.o.Now().Add(s.o.StockWindow+s.stockMargin())); err != nil {
		s.fatal(fmt.Errorf("journal stock window: %w", err))
		return false
	}
	return true
}

// pushStockWindow moves the stock window out after the API asked to wait.
func (s *submitter) pushStockWindow(wait time.Duration) {
	if err := s.j.SetNextAllowed(s.o.Tenant, stockWindowName, s.o.Now().Add(wait+s.stockMargin())); err != nil {
		s.fatal(fmt.Errorf("journal stock window: %w", err))
	}
}

// source describes where a request came from, for journal listings.
func source(jb job) string {
	var b strings.Builder
	b.WriteString(jb.sh.Info.File)
	if jb.sh.Info.Name != "" {
		b.WriteString(" [" + jb.sh.Info.Name + "]")
	}
	b.WriteString(" rows ")
	for i, row := range jb.r.Rows {
		if i == 8 {
			fmt.Fprintf(&b, ", … (%d rows)", len(jb.r.Rows))
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Itoa(jb.sh.store.rowNumber(int(row))))
	}
	return b.String()
}

// MarkPending explains the requests a stopped run left unsent.
func (f *File) MarkPending() {
	for _, sh := range f.Sheets {
		for _, r := range sh.Requests {
			if r.Status == writers.StatusPending && r.Outcome.Key == "" {
				r.Outcome = msg.New("sub.pending")
			}
		}
	}
}
