package pipeline

import (
	"context"
	"errors"
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
	"github.com/nxbatch/nxbatch/sendrules"
)

// Sender sends one creating request and classifies the answer;
// *apiclient.Client is the real one.
type Sender interface {
	Venta(ctx context.Context, body []byte) apiclient.Outcome
	Facturar(ctx context.Context, body []byte) apiclient.Outcome
	Stock(ctx context.Context, body []byte) apiclient.Outcome
	Pedido(ctx context.Context, body []byte) apiclient.Outcome
	Cancelar(ctx context.Context, body []byte) apiclient.Outcome
}

// Journal is what submission needs of the journal (*boltjournal.Journal).
type Journal interface {
	Lookup(ctx context.Context, keys []journal.Key) (map[journal.Key]journal.Entry, error)
	Units(ctx context.Context, tenant, kind string, ids []string) (map[string]journal.UnitRecord, map[journal.Key]journal.Entry, error)
	Begin(ctx context.Context, k journal.Key, in journal.Intent) (journal.Entry, error)
	Finish(ctx context.Context, k journal.Key, out journal.Outcome) error
	FinishAsync(ctx context.Context, k journal.Key, out journal.Outcome) <-chan error
	NextAllowed(ctx context.Context, tenant, window string) (time.Time, error)
}

// journalTimeout bounds a journal write that outlives the run's
// cancellation (an intent begun, an outcome): a store that cannot commit
// in this time has failed, and the run stops.
const journalTimeout = 15 * time.Second

// SubmitOptions configure a run's sending.
type SubmitOptions struct {
	Tenant  string
	Workers int     // concurrent venta/facturar requests
	Rate    float64 // venta/facturar requests per second; 0 = no limit beyond Workers
	// Env picks the API environment's windows; TimeScale multiplies every
	// window, hold and wait (tests against a sandbox started with the same
	// factor).
	Env       sendrules.Env
	TimeScale float64
	// Timeout bounds one request: a movement that left at t has reached the
	// API by t+Timeout or never will (the stock window counts from there
	// while its answer is unknown).
	Timeout      time.Duration
	RetryUnknown bool
	// RetryRejected sends again a request the API rejected in an earlier
	// run although its body did not change (by default it is not: the same
	// request would be rejected the same way, every night of a cron job).
	RetryRejected bool
	MaxErrors     int // stop after this many rejected requests in a row; 0 = never
	// Resend is the resend policy; the zero value is sendrules.DefaultResend.
	Resend sendrules.ResendPolicy
	// BreakerLimit stops the run after this many requests in a row that
	// could not reach the API; 0 is sendrules.DefaultBreakerLimit.
	BreakerLimit int
	Log          *slog.Logger
	// Lang is the language of the log lines.
	Lang msg.Lang
	// Progress is called after each request is settled.
	Progress func(done int)
	// Settled, when set, is called after each send is settled (or left
	// pending by a stop) with what its rows became, from the goroutine that
	// settled it, before Progress: a page counts statuses live from it
	// without reading requests another worker is writing.
	Settled func(Settled)
	// Facts, when set, tells what the journal keeps with each attempt of a
	// request of kind (schema.Venta, ...) whose exact body is body, for a
	// later reading of its outcome (Intent.Facts): package reconcile's
	// IntentFacts. "" keeps none. It is called once per send, before its
	// first attempt; the body does not change between attempts.
	Facts func(kind string, body []byte) string
	Now   func() time.Time
}

// scale multiplies an API duration by the time scale.
func (o SubmitOptions) scale(d time.Duration) time.Duration { return sendrules.Scale(d, o.TimeScale) }

// SubmitResult says how sending ended.
type SubmitResult struct {
	Sent        int  // requests that reached (or may have reached) the API
	Aborted     bool // the API refused the token (401)
	Interrupted bool // the context was cancelled (SIGINT/SIGTERM)
	MaxErrors   bool // --max-errors stopped the run
	// Unreachable: requests kept failing before they left (connection
	// refused, DNS, TLS): the run stopped. Cause is the last failure.
	Unreachable bool
	Cause       error
	// Err is a journal failure: the run stopped because an outcome could not
	// be made durable.
	Err error
}

// Reason is why the run stopped before sending everything, for the summary
// and the console: "" when nothing stopped it.
func (r SubmitResult) Reason() string {
	switch {
	case r.Err != nil:
		return "journal"
	case r.Aborted:
		return "unauthorized"
	case r.Unreachable:
		return "unreachable"
	case r.Interrupted:
		return "interrupted"
	case r.MaxErrors:
		return "max-errors"
	}
	return ""
}

// Prepare checks every valid unit against the journal: a sale or presale
// already ok is skipped (with the first run's ids) or a conflict (different
// body); an unknown one stays unknown unless RetryUnknown; a stock row the
// same, by its identity. What is left is pending, and the pending stock rows
// are packed into movement requests. It returns how many requests are left
// to send.
func Prepare(ctx context.Context, files []*File, j Journal, o SubmitOptions) (int, error) {
	seen := map[journal.Key]string{}
	n := 0
	for _, f := range files {
		for _, sh := range f.Sheets {
			var err error
			if sh.Layout != nil && sh.Layout.Count {
				if !sh.prepared {
					sh.prepareCountUnread()
				}
				sh.prepared = true
				n += len(sh.sends())
				continue
			}
			switch sh.Kind {
			case schema.Stock:
				err = prepareStock(ctx, f, sh, j, o, seen)
			case schema.Pedido:
				err = prepareOrders(ctx, f, sh, j, o, seen)
			default:
				err = prepareRequests(ctx, f, sh, j, o, seen)
			}
			if err != nil {
				return 0, &msg.Error{Msg: msg.New("sub.journal.read", msg.CauseOf(err)), Err: err}
			}
			sh.prepared = true
			n += len(sh.sends())
		}
	}
	return n, nil
}

// duplicateInRun marks r a conflict when its key already came in another
// file or sheet of this run.
func duplicateInRun(f *File, sh *Sheet, r *Request, k journal.Key, seen map[journal.Key]string) bool {
	if where, dup := seen[k]; dup {
		r.Conclude(StatusConflict, msg.New("sub.duprun", where))
		return true
	}
	seen[k] = sheetLabel(f.Path, sh.Info.Name)
	return false
}

func prepareRequests(ctx context.Context, f *File, sh *Sheet, j Journal, o SubmitOptions, seen map[journal.Key]string) error {
	var keys []journal.Key
	for _, r := range sh.Requests {
		if r.Status == StatusValid {
			keys = append(keys, journal.Key{Tenant: o.Tenant, Kind: string(sh.Kind), Business: r.Key})
		}
	}
	known, err := j.Lookup(ctx, keys)
	if err != nil {
		return err
	}
	sh.pending = sh.pending[:0]
	for _, r := range sh.Requests {
		if r.Status != StatusValid {
			continue
		}
		k := journal.Key{Tenant: o.Tenant, Kind: string(sh.Kind), Business: r.Key}
		if duplicateInRun(f, sh, r, k, seen) {
			continue
		}
		if e, found := known[k]; found {
			switch e.State {
			case journal.OK:
				res := r.Record()
				res.FacturaID, res.Numero, res.PVNumero = e.FacturaID, e.Numero, e.PVNumero
				if e.BodyHash == res.BodyHash {
					r.Conclude(StatusSkipped, msg.New("sub.skipped", when(e.Last)))
				} else {
					r.Conclude(StatusConflict, msg.New("sub.conflict", when(e.Last)))
				}
				continue
			case journal.Unknown, journal.Sending:
				if !o.RetryUnknown {
					r.Conclude(StatusUnknown, msg.New("sub.stillunknown", resolveHint(k)))
					continue
				}
			case journal.Rejected:
				if !o.RetryRejected && rejectedForContent(e) && e.BodyHash == r.Result().BodyHash {
					r.concludeRejectedBefore(e)
					continue
				}
			}
		}
		r.Status = StatusPending
		sh.pending = append(sh.pending, &Send{Kind: sh.Kind, Key: r.Key, Units: []*Request{r}, Body: r.Result().Body, BodyHash: r.Result().BodyHash})
	}
	return nil
}

func prepareStock(ctx context.Context, f *File, sh *Sheet, j Journal, o SubmitOptions, seen map[journal.Key]string) error {
	var ids []string
	for _, r := range sh.Requests {
		if r.Status == StatusValid {
			ids = append(ids, r.Key)
		}
	}
	units, reqs, err := j.Units(ctx, o.Tenant, string(schema.Stock), ids)
	if err != nil {
		return err
	}
	// A rejected movement is held back only when every row it carried is
	// here again, unchanged: sending the same rows would be rejected the
	// same way. When one of them was fixed or dropped, the others go again
	// (in new movements): the rejection may have been that row's alone.
	unchanged := map[journal.Key]bool{}
	if !o.RetryRejected {
		byID := map[string]*Request{}
		for _, r := range sh.Requests {
			if r.Status == StatusValid {
				byID[r.Key] = r
			}
		}
		for k, e := range reqs {
			if !rejectedForContent(e) {
				continue
			}
			same := len(e.Units) > 0
			for _, id := range e.Units {
				u, ok := units[id]
				r := byID[id]
				if !ok || r == nil || u.Request != k || u.BodyHash != r.Result().BodyHash {
					same = false
					break
				}
			}
			unchanged[k] = same
		}
	}
	for _, r := range sh.Requests {
		if r.Status != StatusValid {
			continue
		}
		if duplicateInRun(f, sh, r, journal.Key{Tenant: o.Tenant, Kind: string(schema.Stock), Business: r.Key}, seen) {
			continue
		}
		u, found := units[r.Key]
		e, carried := reqs[u.Request]
		if !found || !carried {
			r.Status = StatusPending
			continue
		}
		switch e.State {
		case journal.OK:
			res := r.Record()
			res.FacturaID = e.FacturaID
			if u.BodyHash == res.BodyHash {
				r.Conclude(StatusSkipped, msg.New("sub.skipped", when(e.Last)))
			} else {
				r.Conclude(StatusConflict, msg.New("sub.conflict.stockrow", sentQuantity(u.Body), movementName(e), when(e.Last), msg.SourceOf(u.Source)))
			}
			continue
		case journal.Unknown, journal.Sending:
			if !o.RetryUnknown {
				r.Conclude(StatusUnknown, msg.New("sub.stillunknown", resolveHint(e.Key)))
				continue
			}
		case journal.Rejected:
			if unchanged[u.Request] {
				r.concludeRejectedBefore(e)
				continue
			}
		}
		r.Status = StatusPending
	}
	sh.pending = sh.packStock(sh.maxArticulos)
	return nil
}

// notProcessed is the journal's message for a request the API refused
// before processing it (a rate window, a refused token): journaled
// rejected, so that it may be sent again, but no rejection of its content.
func notProcessed(out apiclient.Outcome) string {
	return msg.New("jrn.notprocessed", resendReason(out)).In(msg.ES)
}

// rejectedForContent reports whether a journaled rejection is the API's
// answer to the request's content (a 400, errores=true, a 404), which the
// same request would get again, rather than a refusal before processing
// (notProcessed), which says nothing of it.
func rejectedForContent(e journal.Entry) bool {
	return e.State == journal.Rejected && !strings.HasPrefix(e.Message, notProcessedPrefix)
}

// notProcessedPrefix begins every notProcessed message.
var notProcessedPrefix = strings.TrimSuffix(msg.New("jrn.notprocessed", "").In(msg.ES), " ")

// concludeRejectedBefore concludes a request the API rejected in an earlier
// run and that is not sent again, its body unchanged, saying why: when,
// what the API said, and what to do.
func (r *Request) concludeRejectedBefore(e journal.Entry) {
	r.Conclude(StatusRejected, msg.New("sub.rejected.unchanged", when(e.Last), e.Message))
	r.rejectedBefore = true
}

// RejectedBefore reports whether the request was not sent because the API
// rejected it in an earlier run and it did not change since: nothing new
// went wrong with it in this run.
func (r *Request) RejectedBefore() bool {
	return r.Status == StatusRejected && r.rejectedBefore
}

// RejectedBefore counts the file's rows whose request was not sent again
// because the API rejected it in an earlier run, unchanged since.
func (f *File) RejectedBefore() int {
	n := 0
	for _, sh := range f.Sheets {
		for _, r := range sh.Requests {
			if r.RejectedBefore() {
				n += len(r.Rows)
			}
		}
	}
	return n
}

// movementName names the movement the API created for a journaled request.
func movementName(e journal.Entry) msg.Message {
	if e.FacturaID != 0 {
		return msg.New("sub.movid", e.FacturaID)
	}
	return msg.New("sub.movkey", e.Key.Business)
}

// when renders a journaled time for messages.
func when(t time.Time) string { return t.Local().Format("02/01/2006 15:04") }

// resolveHint is the command that settles an unknown entry, as the user
// types it.
func resolveHint(k journal.Key) string {
	return "nxbatch journal resolve " + k.String() + " --as ok|failed --note \"...\""
}

// sends returns what the sheet will put on the wire: its pending sends.
func (sh *Sheet) sends() []*Send { return sh.pending }

// job is one send of one sheet.
type job struct {
	sh  *Sheet
	s   *Send
	key journal.Key
}

type submitter struct {
	o        SubmitOptions
	send     Sender
	j        Journal
	log      *slog.Logger
	stop     context.CancelFunc // stops taking work (401, max errors, journal failure, unreachable)
	sent     atomic.Int64
	done     atomic.Int64
	inARow   atomic.Int64
	breaker  *sendrules.Breaker
	mu       sync.Mutex
	res      SubmitResult
	stockPac *sendrules.Pacer
	// finishing counts outcomes queued in the journal but not yet durable.
	finishing sync.WaitGroup
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
	if o.Env == "" {
		o.Env = sendrules.Production
	}
	if o.Timeout <= 0 {
		o.Timeout = apiclient.DefaultTimeout
	}
	if o.Resend.MaxSends == 0 {
		o.Resend = sendrules.DefaultResend
		o.Resend.Scale = o.TimeScale
	}
	lim := rate.NewLimiter(rate.Inf, 1)
	if o.Rate > 0 {
		lim = rate.NewLimiter(rate.Limit(o.Rate), 1)
	}
	work, stop := context.WithCancel(ctx)
	defer stop()
	s := &submitter{o: o, send: send, j: j, log: o.Log, stop: stop, breaker: &sendrules.Breaker{Limit: o.BreakerLimit}}

	var parallel, stock []job
	for _, f := range files {
		for _, sh := range f.Sheets {
			for _, sd := range sh.sends() {
				jb := job{sh: sh, s: sd, key: journal.Key{Tenant: o.Tenant, Kind: string(sh.Kind), Business: sd.Key}}
				if sh.Kind == schema.Stock {
					stock = append(stock, jb)
				} else {
					parallel = append(parallel, jb)
				}
			}
		}
	}
	// Recorded even when the run is stopping: each record is an intent
	// and its outcome, and one cut between the two is an unknown.
	if err := recordEqual(context.WithoutCancel(ctx), files, j); err != nil {
		s.fatal(&msg.Error{Msg: msg.New("sub.journal.intent", "conteo", msg.CauseOf(err)), Err: err})
		stock, parallel = nil, nil
	}
	if len(stock) > 0 {
		next, err := j.NextAllowed(ctx, o.Tenant, string(sendrules.Stock))
		if err != nil {
			s.fatal(&msg.Error{Msg: msg.New("sub.journal.window", msg.CauseOf(err)), Err: err})
			stock = nil
		}
		s.stockPac = sendrules.NewPacer(o.scale(o.Env.Limit(sendrules.Stock)), o.Timeout, next, o.Now)
	}
	var wg sync.WaitGroup
	queue := make(chan job)
	for range o.Workers {
		wg.Go(func() {
			for jb := range queue {
				s.one(work, jb)
			}
		})
	}
	wg.Go(func() {
		for _, jb := range stock {
			if work.Err() != nil {
				return
			}
			s.one(work, jb)
		}
	})
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

// one sends a single request to a settled outcome, or leaves it pending
// when the run stops first. Only answers that prove the request was not
// processed send it again: it never left (no connection), or the API
// refused it for a window before processing it.
func (s *submitter) one(ctx context.Context, jb job) {
	sd := jb.s
	isStock := jb.sh.Kind == schema.Stock
	defer func() {
		if s.o.Settled != nil {
			s.o.Settled(settledOf(jb))
		}
		if s.o.Progress != nil {
			s.o.Progress(int(s.done.Add(1)))
		}
	}()
	var facts string
	if s.o.Facts != nil {
		facts = s.o.Facts(string(jb.sh.Kind), sd.Body)
	}
	sends, failures := 0, 0
	if !s.waitHold(ctx, sd) {
		return // stays pending
	}
	for {
		if ctx.Err() != nil {
			return // stays pending
		}
		in := journal.Intent{BodyHash: sd.BodyHash, Source: source(jb), Hold: s.o.scale(sendrules.HoldOf(jb.key.Kind)),
			Units: units(jb), Facts: facts}
		if isStock {
			if s.stockPac.Wait(ctx) != nil {
				return
			}
			in.Window = s.mark(s.stockPac.Leave())
		}
		// An intent begun is completed even if the run stops meanwhile (its
		// stop was checked above): cut short, it could be durable with no
		// request behind it, an entry sending that the next run must call
		// unknown. journalTimeout bounds it: the stock window persisted
		// with it counts from now, so the request must not leave long after.
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
		_, err := s.j.Begin(bctx, jb.key, in)
		cancel()
		var soon *journal.TooSoonError
		switch {
		case errors.As(err, &soon):
			// The API holds the key for 30 s after any attempt, refused or
			// not: wait it out rather than be told "ya se esta procesando".
			s.notSentStock(isStock)
			if sendrules.Sleep(ctx, soon.Wait) != nil {
				return
			}
			continue
		case errors.Is(err, journal.ErrNotSendable):
			s.notSentStock(isStock)
			for _, u := range sd.Units {
				u.Conclude(StatusUnknown, msg.New("sub.stillunknown", resolveHint(jb.key)))
			}
			return
		case err != nil:
			s.fatal(&msg.Error{Msg: msg.New("sub.journal.intent", jb.key.String(), msg.CauseOf(err)), Err: err})
			return
		}
		// In-flight requests are settled even after an interrupt: cancelling
		// one mid-flight would only turn a known outcome into an unknown one.
		out := s.post(context.WithoutCancel(ctx), jb.sh.Kind, sd.Body)
		if neverLeft(out) {
			failures++
			s.journalOutcome(ctx, jb, journal.Outcome{State: journal.Unsent, Message: resendReason(out), Window: s.stockNotSent(isStock)})
			if s.breaker.Failed() {
				s.mu.Lock()
				s.res.Unreachable, s.res.Cause = true, out.Err
				s.mu.Unlock()
				s.stop()
				return // pending: the next run sends it
			}
			wait := s.o.Resend.NotSentWait(failures)
			s.log.Info(msg.New("log.resend.unsent", jb.key.String(), msg.Duration(wait)).In(s.o.Lang))
			if sendrules.Sleep(ctx, wait) != nil {
				return
			}
			continue
		}
		s.breaker.Answered()
		sends++
		s.sent.Add(1)
		sd.Sent++
		if out.Class == apiclient.Resend && s.o.Resend.Again(sends) {
			wait := s.o.Resend.RefusedWait(out.Wait, sends)
			s.journalOutcome(ctx, jb, journal.Outcome{State: journal.Rejected, Message: notProcessed(out),
				Window: s.stockAnswered(isStock, wait)})
			s.log.Info(msg.New("log.resend.window", jb.key.String(), out.Status, msg.Duration(wait)).In(s.o.Lang))
			if !isStock && sendrules.Sleep(ctx, wait) != nil {
				return
			}
			continue
		}
		s.settle(ctx, jb, out, s.stockAnswered(isStock, 0))
		return
	}
}

// Settled is what one send's rows became.
type Settled struct {
	Kind schema.Kind
	// Rows counts the rows the send carried, by status.
	Rows map[Status]int
}

// settledOf counts the statuses of the rows a settled send carried.
func settledOf(jb job) Settled {
	st := Settled{Kind: jb.sh.Kind, Rows: map[Status]int{}}
	for _, u := range jb.s.Units {
		st.Rows[u.Status] += len(u.Rows)
	}
	return st
}

// post sends body to the kind's endpoint.
func (s *submitter) post(ctx context.Context, k schema.Kind, body []byte) apiclient.Outcome {
	switch k {
	case schema.Venta:
		return s.send.Venta(ctx, body)
	case schema.Facturar:
		return s.send.Facturar(ctx, body)
	case schema.Pedido:
		return s.send.Pedido(ctx, body)
	case schema.Cancelar:
		return s.send.Cancelar(ctx, body)
	}
	return s.send.Stock(ctx, body)
}

// neverLeft reports an attempt that provably never reached the API: no
// connection was made (refused, DNS, TLS, unreachable).
func neverLeft(out apiclient.Outcome) bool {
	return out.Class == apiclient.Resend && out.Status == 0 && !out.Written
}

// units are the journal units a stock send carries: its rows, each with
// its identity, its article line and where it came from.
func units(jb job) []journal.Unit {
	if jb.sh.Kind != schema.Stock {
		return nil
	}
	out := make([]journal.Unit, len(jb.s.Units))
	for k, u := range jb.s.Units {
		res := u.Result()
		out[k] = journal.Unit{ID: u.Key, BodyHash: res.BodyHash, Body: string(res.Body), Source: journalUnitSource(jb.sh, u)}
	}
	return out
}

// mark is the persisted stock window at next.
func (s *submitter) mark(next time.Time) *journal.Mark {
	return &journal.Mark{Tenant: s.o.Tenant, Name: string(sendrules.Stock), Next: next}
}

// stockAnswered moves the stock window after an answer; nil for the other
// kinds.
func (s *submitter) stockAnswered(isStock bool, serverWait time.Duration) *journal.Mark {
	if !isStock {
		return nil
	}
	return s.mark(s.stockPac.Answered(serverWait))
}

// stockNotSent puts the stock window back after a movement that never left;
// nil for the other kinds.
func (s *submitter) stockNotSent(isStock bool) *journal.Mark {
	if !isStock {
		return nil
	}
	return s.mark(s.stockPac.NotSent())
}

// notSentStock puts the in-memory stock window back when Begin refused the
// intent (nothing was persisted, nothing left).
func (s *submitter) notSentStock(isStock bool) {
	if isStock {
		s.stockPac.NotSent()
	}
}

// journalOutcome records an outcome that sends the request again; a
// failure stops the run.
func (s *submitter) journalOutcome(ctx context.Context, jb job, out journal.Outcome) {
	// Recorded even when the run is stopping: the request was answered,
	// and an outcome lost leaves its entry sending, an unknown for an
	// operator to settle.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	if err := s.j.Finish(ctx, jb.key, out); err != nil {
		s.fatal(&msg.Error{Msg: msg.New("sub.journal.outcome", jb.key.String(), msg.CauseOf(err)), Err: err})
	}
}

func resendReason(out apiclient.Outcome) string {
	if out.Message != "" {
		return out.Message
	}
	if out.Err != nil {
		return msg.CauseText(out.Err, msg.ES) // kept in the journal, in the users' language
	}
	return "HTTP " + strconv.Itoa(out.Status)
}

// settle journals and records a definite classification on every unit the
// send carried.
func (s *submitter) settle(ctx context.Context, jb job, out apiclient.Outcome, window *journal.Mark) {
	var st journal.State
	var fid, num, pv int64
	var status Status
	var outcome msg.Message
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
		if jb.sh.Kind == schema.Cancelar {
			// The order cancelled is the one the row names, whatever id
			// the NxResultado carries.
			fid, _ = strconv.ParseInt(jb.s.Key, 10, 64)
		}
		status, outcome = StatusOK, okOutcome(jb)
		s.inARow.Store(0)
	case apiclient.Rejected, apiclient.Resend:
		// Resend here means the resends ran out: every answer proved the
		// request was not processed, so a later run may send it again.
		st = journal.Rejected
		status, outcome = StatusRejected, msg.New("sub.rejected", out.Status, quoted(text))
		if out.Class == apiclient.Resend {
			outcome = msg.New("sub.notsent", resendReason(out))
			text = notProcessed(out)
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
		status, outcome = StatusPending, msg.New("sub.unauthorized")
		text = notProcessed(out)
		s.mu.Lock()
		s.res.Aborted = true
		s.mu.Unlock()
		s.stop()
	default: // Unknown
		st = journal.Unknown
		if jb.sh.Kind == schema.Pedido && out.Result != nil && out.Result.FacturaID > 0 {
			// A failure that still names the order: reconcile reads it
			// back by this id (orders are in no export).
			fid, num, pv = int64(out.Result.FacturaID), int64(out.Result.Numero), int64(out.Result.PVNumero)
		}
		reason := unknownReason(out)
		text = reason.In(msg.ES)
		status, outcome = StatusUnknown, msg.New("sub.unknown", reason, resolveHint(jb.key))
		if jb.sh.Kind == schema.Pedido {
			// Orders are in no sales export: say how to find it.
			outcome = msg.New("sub.unknown.pedido", reason, orderOf(jb.s.Key), resolveHint(jb.key))
			text = msg.New("jrn.pedido.unknown", text, orderOf(jb.s.Key)).In(msg.ES)
		}
	}
	for _, u := range jb.s.Units {
		u.Conclude(status, jb.sh.countOutcome(u, outcome))
		res := u.Record()
		res.FacturaID, res.Numero, res.PVNumero = fid, num, pv
	}
	// The outcome is queued now and made durable together with other
	// writes (bbolt: this worker's next intent, one fsync for both;
	// PostgreSQL: the outcomes of the next 2 ms); Submit waits for it. A
	// crash before it lands leaves the entry sending, i.e. unknown: never
	// a double send.
	//
	// It is recorded even when the run is stopping (ctx detached): losing
	// it would turn an invoice the API created into an unknown. The store
	// bounds the commit of queued outcomes itself.
	done := s.j.FinishAsync(context.WithoutCancel(ctx), jb.key, journal.Outcome{State: st, FacturaID: fid, Numero: num, PVNumero: pv,
		Message: text, Window: window})
	s.finishing.Go(func() {
		if err := <-done; err != nil {
			s.fatal(&msg.Error{Msg: msg.New("sub.journal.outcome", jb.key.String(), msg.CauseOf(err)), Err: err})
			if st == journal.OK {
				// The report tells the truth (created, with its ids) and
				// what the journal will say until someone settles it.
				for _, u := range jb.s.Units {
					u.Record().Outcome = msg.New("sub.ok.unjournaled", resolveHint(jb.key))
				}
			}
		}
	})
}

// unknownReason says, in the user's words, why an outcome is not known:
// the API's own text when it gave one, else what happened on the wire.
func unknownReason(out apiclient.Outcome) msg.Message {
	var ne net.Error
	switch {
	case out.Status >= 300 && out.Status <= 399:
		return msg.New("sub.reason.redirect", out.Status)
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

// source describes where a request came from, for journal listings:
// the file, the sheet and its rows as ranges.
func source(jb job) string {
	var b strings.Builder
	b.WriteString(jb.sh.Info.File)
	if jb.sh.Info.Name != "" {
		b.WriteString(" [" + jb.sh.Info.Name + "]")
	}
	var rows []int
	for _, u := range jb.s.Units {
		for _, r := range u.Rows {
			rows = append(rows, jb.sh.store.rowNumber(int(r)))
		}
	}
	b.WriteString(" rows ")
	b.WriteString(rowRanges(rows))
	return b.String()
}

// rowSource is where one row came from: the file, the sheet and its row.
func rowSource(sh *Sheet, row int32) string {
	return sheetLabel(sh.Info.File, sh.Info.Name) + " row " + strconv.Itoa(sh.store.rowNumber(int(row)))
}

// rowRanges renders row numbers as ranges: "2-501, 503, 610-700".
func rowRanges(rows []int) string {
	var b strings.Builder
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1] == rows[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(rows[i]))
		if j > i {
			b.WriteString("-")
			b.WriteString(strconv.Itoa(rows[j]))
		}
		i = j + 1
	}
	return b.String()
}

// NotSent marks what a stopped run did not send: requests still valid (the
// run stopped before asking the journal) or pending, with why (the reason
// the run stopped; the plain "not sent" when it is empty) unless they
// already say something.
func (f *File) NotSent(why msg.Message) {
	if why.Key == "" {
		why = msg.New("sub.pending")
	}
	for _, sh := range f.Sheets {
		for _, r := range sh.Requests {
			if r.Status != StatusPending && r.Status != StatusValid {
				continue
			}
			r.Status = StatusPending
			if res := r.Record(); res.Outcome.Key == "" {
				res.Outcome = why
			}
		}
	}
}
