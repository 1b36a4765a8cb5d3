package boltjournal

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	bolt "go.etcd.io/bbolt"
)

// testHold is the key hold the tests ask for: the API's 30 s.
const testHold = 30 * time.Second

// clock is a settable clock for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// mustOpen opens a journal in a fresh folder, closed when the test ends.
func mustOpen(t *testing.T, o journal.Options) (*Journal, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".nxbatch", "journal")
	j, err := Open(path, o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { j.Close() })
	return j, path
}

func mustGet(t *testing.T, j *Journal, k journal.Key) journal.Entry {
	t.Helper()
	e, found, err := j.Get(context.Background(), k)
	if err != nil || !found {
		t.Fatalf("Get(%s) = found %v, err %v", k, found, err)
	}
	return e
}

func TestOpenCreatesOwnerOnlyFolderAndFile(t *testing.T) {
	_, path := mustOpen(t, journal.Options{})
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{filepath.Dir(path), 0o700}, {path, 0o600}} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("%s mode = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestBeginRecordsIntent(t *testing.T) {
	clk := newClock()
	j, _ := mustOpen(t, journal.Options{Now: clk.Now})
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	got, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-a", Source: "ventas.csv rows 2,5", Hold: testHold})
	if err != nil {
		t.Fatal(err)
	}
	want := journal.Entry{Key: k, BodyHash: "hash-a", State: journal.Sending, Attempts: 1,
		First: clk.Now(), Last: clk.Now(), Source: "ventas.csv rows 2,5", Updated: clk.Now()}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Begin returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, mustGet(t, j, k)); diff != "" {
		t.Errorf("Get after Begin (-want +got):\n%s", diff)
	}
	if _, found, err := j.Get(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-2"}); found || err != nil {
		t.Errorf("Get(absent) = found %v, err %v", found, err)
	}
}

func TestBeginRejectsInvalidKey(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: ""}, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); err == nil {
		t.Error("Begin with empty business key succeeded")
	}
}

func TestBeginRefusesOrAllowsByStateAndTime(t *testing.T) {
	k := journal.Key{Tenant: "t1", Kind: "facturar", Business: "77"}
	tests := []struct {
		name         string
		retryUnknown bool
		prior        func(j *Journal) // leaves k in some state at clock time 0
		after        time.Duration    // clock advance before the second Begin
		wantErr      error
		wantWait     time.Duration // for ErrTooSoon
	}{
		{name: "ok is never resent", prior: finishAs(k, journal.OK), after: time.Hour, wantErr: journal.ErrNotSendable},
		{name: "sending is never resent", prior: begin(k), after: time.Hour, wantErr: journal.ErrNotSendable},
		{name: "unknown is not resent", prior: finishAs(k, journal.Unknown), after: time.Hour, wantErr: journal.ErrNotSendable},
		{name: "unknown with retry-unknown after the hold", retryUnknown: true, prior: finishAs(k, journal.Unknown), after: 30 * time.Second},
		{name: "unknown with retry-unknown within the hold", retryUnknown: true, prior: finishAs(k, journal.Unknown), after: 29 * time.Second, wantErr: journal.ErrTooSoon, wantWait: time.Second},
		{name: "rejected within the hold", prior: finishAs(k, journal.Rejected), after: 10 * time.Second, wantErr: journal.ErrTooSoon, wantWait: 20 * time.Second},
		{name: "rejected right after", prior: finishAs(k, journal.Rejected), wantErr: journal.ErrTooSoon, wantWait: 30 * time.Second},
		{name: "rejected after the hold", prior: finishAs(k, journal.Rejected), after: 30 * time.Second},
		{name: "failed after the hold", prior: resolveAs(k, journal.Failed), after: time.Minute},
		{name: "failed within the hold", prior: resolveAs(k, journal.Failed), after: time.Second, wantErr: journal.ErrTooSoon, wantWait: 29 * time.Second},
		{name: "resolved ok is never resent", prior: resolveAs(k, journal.OK), after: time.Hour, wantErr: journal.ErrNotSendable},
		{name: "clock set back asks for one hold at most", prior: finishAs(k, journal.Rejected), after: -time.Hour, wantErr: journal.ErrTooSoon, wantWait: 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			j, _ := mustOpen(t, journal.Options{Now: clk.Now, RetryUnknown: tc.retryUnknown})
			tc.prior(j)
			before := mustGet(t, j, k)
			clk.Advance(tc.after)
			got, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-2", Source: "second", Hold: testHold})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Begin error = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				var ts *journal.TooSoonError
				if errors.As(err, &ts) && ts.Wait != tc.wantWait {
					t.Errorf("wait = %v, want %v", ts.Wait, tc.wantWait)
				}
				if diff := cmp.Diff(before, mustGet(t, j, k)); diff != "" {
					t.Errorf("a refused Begin changed the entry (-before +after):\n%s", diff)
				}
				return
			}
			if got.State != journal.Sending || got.Attempts != 2 || got.BodyHash != "hash-2" ||
				!got.First.Equal(before.First) || !got.Last.Equal(clk.Now()) || got.Message != "" {
				t.Errorf("second Begin = %+v, want sending, attempt 2, new hash, first kept, last now", got)
			}
		})
	}
}

func begin(k journal.Key) func(*Journal) {
	return func(j *Journal) {
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-1", Source: "first", Hold: testHold}); err != nil {
			panic(err)
		}
	}
}

func finishAs(k journal.Key, st journal.State) func(*Journal) {
	return func(j *Journal) {
		begin(k)(j)
		if err := j.Finish(context.Background(), k, journal.Outcome{State: st, FacturaID: 0, Numero: 0, PVNumero: 0, Message: "first outcome"}); err != nil {
			panic(err)
		}
	}
}

func resolveAs(k journal.Key, st journal.State) func(*Journal) {
	return func(j *Journal) {
		finishAs(k, journal.Unknown)(j)
		if err := j.Resolve(context.Background(), k, journal.Verdict{As: st, Note: "checked in the ERP"}); err != nil {
			panic(err)
		}
	}
}

func TestRefusalMessagesComeFromTheCatalog(t *testing.T) {
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-9"}
	tests := []struct {
		err  interface{ Message() msg.Message }
		want string
	}{
		{&journal.TooSoonError{Key: k, Hold: 30 * time.Second, Wait: 12 * time.Second},
			"ORD-9 se envió hace menos de 30 segundos y la API puede estar procesando ese envío todavía: se podrá reenviar en 12 segundos"},
		{&journal.NotSendableError{Key: k, State: journal.Unknown},
			"ORD-9 figura como «unknown» en el diario: no se reenvía para no duplicarlo"},
	}
	for _, tc := range tests {
		if got := tc.err.Message().In(msg.ES); got != tc.want {
			t.Errorf("Message = %q, want %q", got, tc.want)
		}
	}
}

func TestFinishRecordsOutcome(t *testing.T) {
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	tests := []struct {
		name     string
		st       journal.State
		ids      [3]int64
		message  string
		wantErr  bool
		wantSame bool // entry must stay as Begin left it
	}{
		{name: "ok with ids", st: journal.OK, ids: [3]int64{9001, 123, 4}},
		{name: "rejected with the API's words", st: journal.Rejected, message: "El cliente no existe"},
		{name: "unknown with reason", st: journal.Unknown, message: "timeout after the request was written"},
		{name: "sending is not an outcome", st: journal.Sending, wantErr: true, wantSame: true},
		{name: "failed is for operators", st: journal.Failed, wantErr: true, wantSame: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			j, _ := mustOpen(t, journal.Options{Now: clk.Now})
			begun, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "src", Hold: testHold})
			if err != nil {
				t.Fatal(err)
			}
			clk.Advance(2 * time.Second)
			err = j.Finish(context.Background(), k, journal.Outcome{State: tc.st, FacturaID: tc.ids[0], Numero: tc.ids[1], PVNumero: tc.ids[2], Message: tc.message})
			if (err != nil) != tc.wantErr {
				t.Fatalf("Finish error = %v, want error %v", err, tc.wantErr)
			}
			want := begun
			if !tc.wantSame {
				want.State, want.Message, want.Updated, want.Held = tc.st, tc.message, clk.Now(), clk.Now()
				want.FacturaID, want.Numero, want.PVNumero = tc.ids[0], tc.ids[1], tc.ids[2]
			}
			if diff := cmp.Diff(want, mustGet(t, j, k)); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFinishNeedsASendingEntry(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1, Numero: 1, PVNumero: 1, Message: ""}); !errors.Is(err, journal.ErrNotFound) {
		t.Errorf("Finish without Begin = %v, want ErrNotFound", err)
	}
	finishAs(k, journal.Rejected)(j)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1, Numero: 1, PVNumero: 1, Message: ""}); !errors.Is(err, journal.ErrWrongState) {
		t.Errorf("Finish twice = %v, want ErrWrongState", err)
	}
}

func TestListAndResolve(t *testing.T) {
	clk := newClock()
	j, _ := mustOpen(t, journal.Options{Now: clk.Now})
	var (
		okKey    = journal.Key{Tenant: "t1", Kind: "venta", Business: "A"}
		unkKey   = journal.Key{Tenant: "t1", Kind: "facturar", Business: "9"}
		unk2Key  = journal.Key{Tenant: "t0", Kind: "stock", Business: "dep/1#2"}
		rejKey   = journal.Key{Tenant: "t1", Kind: "venta", Business: "B"}
		inflight = journal.Key{Tenant: "t2", Kind: "venta", Business: "C"}
	)
	finishAs(okKey, journal.OK)(j)
	finishAs(unkKey, journal.Unknown)(j)
	finishAs(unk2Key, journal.Unknown)(j)
	finishAs(rejKey, journal.Rejected)(j)
	begin(inflight)(j)

	keysOf := func(es []journal.Entry) []journal.Key {
		var ks []journal.Key
		for _, e := range es {
			ks = append(ks, e.Key)
		}
		return ks
	}
	all, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]journal.Key{unk2Key, unkKey, okKey, rejKey, inflight}, keysOf(all)); diff != "" {
		t.Errorf("List(all) keys not sorted by tenant, kind, business (-want +got):\n%s", diff)
	}
	unknown, err := j.List(context.Background(), journal.Unknown)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]journal.Key{unk2Key, unkKey}, keysOf(unknown)); diff != "" {
		t.Errorf("List(unknown) (-want +got):\n%s", diff)
	}
	if _, err := j.List(context.Background(), "pending"); err == nil {
		t.Error("List with an unknown state succeeded")
	}

	resolves := []struct {
		k       journal.Key
		as      journal.State
		wantErr error
		wantAny bool // some error, not a sentinel
	}{
		{k: unkKey, as: journal.Failed},
		{k: unk2Key, as: journal.OK},
		{k: inflight, as: journal.Failed},
		{k: okKey, as: journal.Failed, wantErr: journal.ErrWrongState},
		{k: rejKey, as: journal.OK, wantErr: journal.ErrWrongState},
		{k: unkKey, as: journal.Failed, wantErr: journal.ErrWrongState}, // already resolved
		{k: journal.Key{Tenant: "t1", Kind: "venta", Business: "nope"}, as: journal.OK, wantErr: journal.ErrNotFound},
		{k: unk2Key, as: journal.Rejected, wantAny: true},
	}
	clk.Advance(time.Minute)
	for _, r := range resolves {
		before, _, _ := j.Get(context.Background(), r.k)
		err := j.Resolve(context.Background(), r.k, journal.Verdict{As: r.as, Note: "miré el ERP: " + string(r.as)})
		switch {
		case r.wantAny:
			if err == nil {
				t.Errorf("Resolve(%s, %s) succeeded, want an error", r.k, r.as)
			}
		case !errors.Is(err, r.wantErr):
			t.Errorf("Resolve(%s, %s) = %v, want %v", r.k, r.as, err, r.wantErr)
		case err == nil:
			got := mustGet(t, j, r.k)
			want := before
			want.State, want.Note, want.Updated = r.as, "miré el ERP: "+string(r.as), clk.Now()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("after Resolve(%s, %s) (-want +got):\n%s", r.k, r.as, diff)
			}
		}
	}
	if unknown, _ := j.List(context.Background(), journal.Unknown); len(unknown) != 0 {
		t.Errorf("unknown entries left after resolving: %v", keysOf(unknown))
	}

	// A key resolved failed goes out again, and the operator's note stays.
	again, err := j.Begin(context.Background(), unkKey, journal.Intent{BodyHash: "h2", Source: "retry", Hold: testHold})
	if err != nil {
		t.Fatalf("Begin after Resolve failed: %v", err)
	}
	if again.Attempts != 2 || again.Note != "miré el ERP: failed" {
		t.Errorf("Begin after Resolve failed = %+v, want attempt 2 with the note kept", again)
	}
}

func TestOpenTurnsSendingIntoUnknown(t *testing.T) {
	clk := newClock()
	j, path := mustOpen(t, journal.Options{Now: clk.Now})
	done, inflight := journal.Key{Tenant: "t", Kind: "venta", Business: "done"}, journal.Key{Tenant: "t", Kind: "venta", Business: "inflight"}
	finishAs(done, journal.OK)(j)
	begin(inflight)(j)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	j, err := Open(path, journal.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if got := mustGet(t, j, done); got.State != journal.OK {
		t.Errorf("finished entry is %s after reopen, want ok", got.State)
	}
	got := mustGet(t, j, inflight)
	if got.State != journal.Unknown || got.Message != "en curso cuando se detuvo la ejecución anterior" || !got.Updated.Equal(clk.Now()) {
		t.Errorf("in-flight entry after reopen = %+v, want unknown with the interruption reason", got)
	}
}

func TestNextAllowedPersists(t *testing.T) {
	j, path := mustOpen(t, journal.Options{})
	if got, err := j.NextAllowed(context.Background(), "t1", "stock"); err != nil || !got.IsZero() {
		t.Errorf("NextAllowed unset = %v, %v; want zero time", got, err)
	}
	at := time.Date(2025, 3, 14, 9, 0, 3, 500, time.FixedZone("ART", -3*3600))
	if err := j.SetNextAllowed(context.Background(), "t1", "stock", at); err != nil {
		t.Fatal(err)
	}
	if err := j.SetNextAllowed(context.Background(), "t2", "stock", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := j.SetNextAllowed(context.Background(), "", "stock", at); err == nil {
		t.Error("SetNextAllowed without tenant succeeded")
	}
	j.Close()
	j, err := Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, c := range []struct {
		tenant, window string
		want           time.Time
	}{{"t1", "stock", at}, {"t2", "stock", at.Add(time.Hour)}, {"t1", "params", time.Time{}}} {
		got, err := j.NextAllowed(context.Background(), c.tenant, c.window)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("NextAllowed(%s, %s) = %v, %v; want %v", c.tenant, c.window, got, err, c.want)
		}
	}
}

func TestConcurrentBeginOfOneKeySendsOnce(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "same"}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		wins    int
		refused int
	)
	for range 8 {
		wg.Go(func() {
			_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, journal.ErrNotSendable):
				refused++
			default:
				t.Errorf("Begin: %v", err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || refused != 7 {
		t.Errorf("8 concurrent Begins: %d sent, %d refused; want 1 and 7", wins, refused)
	}
}

func TestConcurrentWorkersAllLand(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 25 {
				k := journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprintf("w%d-%d", w, i)}
				if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); err != nil {
					t.Error(err)
					return
				}
				if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: int64(i + 1), Numero: 1, PVNumero: 1, Message: ""}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	ok, err := j.List(context.Background(), journal.OK)
	if err != nil || len(ok) != 200 {
		t.Errorf("List(ok) = %d entries, %v; want 200", len(ok), err)
	}
}

func TestStorageFailureIsReturnedAndSticky(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	fsyncErr := errors.New("fdatasync: input/output error")
	calls := 0
	j.commit = func(func(*bolt.Tx) error) error { calls++; return fsyncErr }
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); !errors.Is(err, fsyncErr) {
		t.Fatalf("Begin = %v, want the storage error", err)
	}
	j.commit = j.db.Update // the disk "recovers": the journal must still refuse
	if err := j.SetNextAllowed(context.Background(), "t", "stock", time.Now()); !errors.Is(err, fsyncErr) {
		t.Errorf("write after a storage failure = %v, want the same storage error", err)
	}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); !errors.Is(err, fsyncErr) {
		t.Errorf("Begin after a storage failure = %v, want the same storage error", err)
	}
	if calls != 1 {
		t.Errorf("storage was tried %d times, want 1 (never retried)", calls)
	}
}

func TestRefusalDoesNotBreakTheJournal(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	begin(k)(j)
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); !errors.Is(err, journal.ErrNotSendable) {
		t.Fatalf("second Begin = %v, want ErrNotSendable", err)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1, Numero: 2, PVNumero: 3, Message: ""}); err != nil {
		t.Errorf("Finish after a refusal: %v", err)
	}
}

// TestHoldIsTheCallers: the journal knows no API rule; a request whose
// intent asks for no hold (a stock movement) may go again at once, one that
// asks for 30 s may not.
func TestHoldIsTheCallers(t *testing.T) {
	clk := newClock()
	j, _ := mustOpen(t, journal.Options{Now: clk.Now})
	for i, tc := range []struct {
		hold     time.Duration
		wantSoon bool
	}{{testHold, true}, {0, false}} {
		k := journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprint(i)}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: tc.hold}); err != nil {
			t.Fatalf("hold %v: first begin: %v", tc.hold, err)
		}
		if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected, Message: "not processed"}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
		_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: tc.hold})
		if got := errors.Is(err, journal.ErrTooSoon); got != tc.wantSoon {
			t.Errorf("hold %v: second begin 1 s later: err = %v, want too soon = %v", tc.hold, err, tc.wantSoon)
		}
	}
}

// TestKeyHoldCountsFromTheAnswer: the API takes the key when the request
// arrives, which may be well after the intent was journaled (a slow
// network, a slow server); only the answer bounds that moment. Counting
// the hold from the intent let a resend arrive while the API still held
// the key, and "La solicitud ya se esta procesando" made a refused
// request unknown.
func TestKeyHoldCountsFromTheAnswer(t *testing.T) {
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "501"}
	tests := []struct {
		name     string
		answered time.Duration // from the intent to the outcome
		after    time.Duration // from the outcome to the next Begin
		wantWait time.Duration // 0: Begin is allowed
	}{
		{name: "answer at once, hold over", after: 30 * time.Second},
		{name: "slow answer, hold from the intent over but not from the answer", answered: 8 * time.Second, after: 25 * time.Second, wantWait: 5 * time.Second},
		{name: "slow answer, hold from the answer over", answered: 8 * time.Second, after: 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newClock()
			j, _ := mustOpen(t, journal.Options{Now: clk.Now})
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "first", Hold: testHold}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(tc.answered)
			if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected, FacturaID: 0, Numero: 0, PVNumero: 0, Message: "Articulo no encontrado"}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(tc.after)
			_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "second", Hold: testHold})
			var ts *journal.TooSoonError
			switch {
			case tc.wantWait == 0 && err != nil:
				t.Fatalf("Begin = %v, want allowed", err)
			case tc.wantWait != 0 && !errors.As(err, &ts):
				t.Fatalf("Begin = %v, want too soon by %v", err, tc.wantWait)
			case tc.wantWait != 0 && ts.Wait != tc.wantWait:
				t.Errorf("wait = %v, want %v", ts.Wait, tc.wantWait)
			}
		})
	}
}

// TestOpenNeverFollowsALink: a link planted as the journal or as its
// high-water record (to an existing journal, to a file of the user's, or
// to nothing) is refused with a sentence naming it, and what the link
// points to is neither made nor changed.
func TestOpenNeverFollowsALink(t *testing.T) {
	cases := []struct {
		name    string
		link    func(path string) string // which file is the link
		target  func(dir string) string  // what it points to
		wantKey string
	}{
		{"the journal, to a journal", func(p string) string { return p }, func(d string) string { return filepath.Join(d, "real") }, "jrn.symlink"},
		{"the journal, to nothing", func(p string) string { return p }, func(d string) string { return filepath.Join(d, "absent") }, "jrn.symlink"},
		{"the record, to a user's file", hwmPath, func(d string) string { return filepath.Join(d, "victim") }, "jrn.hwm.symlink"},
		{"the record, to nothing", hwmPath, func(d string) string { return filepath.Join(d, "absent") }, "jrn.hwm.symlink"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			elsewhere := t.TempDir()
			real := filepath.Join(elsewhere, "real")
			j, err := Open(real, journal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			if err := os.WriteFile(filepath.Join(elsewhere, "victim"), []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, elsewhere)

			path := filepath.Join(t.TempDir(), "journal")
			if err := os.Symlink(c.target(elsewhere), c.link(path)); err != nil {
				t.Fatal(err)
			}
			j, err = Open(path, journal.Options{})
			if err == nil {
				j.Close()
				t.Fatal("Open went through a link")
			}
			var me *msg.Error
			if !errors.As(err, &me) || me.Msg.Key != c.wantKey || !errors.Is(err, ErrUnusable) {
				t.Errorf("Open: %v, want a %s refusal", err, c.wantKey)
			}
			if s := me.In(msg.ES); !strings.Contains(s, "enlace simbólico") || !strings.Contains(s, c.link(path)) {
				t.Errorf("the user reads %q", s)
			}
			if after := snapshot(t, elsewhere); !maps.Equal(before, after) {
				t.Errorf("the link's side changed:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// snapshot is every file of dir with its bytes and mode.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fi, _ := e.Info()
		m[e.Name()] = fmt.Sprintf("%v %x", fi.Mode(), sha256.Sum256(b))
	}
	return m
}
