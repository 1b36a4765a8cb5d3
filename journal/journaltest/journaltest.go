// Package journaltest is the contract of journal.Store: one suite of tests
// that every journal must pass (the bbolt file, PostgreSQL), so that the
// pipeline, the commands and the operators can count on the same
// semantics whichever journal a run uses: the states and their refusals,
// key holds, units, unsent attempts, window marks, verdicts, concurrent
// writers, leases and the recovery of a holder that is gone, storage
// failures, and copies between journals.
//
// A journal's own tests call Run with a Backend that opens journals of its
// kind.
package journaltest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/journal"
)

// Backend opens journals of one kind for the suite.
type Backend struct {
	// New prepares one new, empty journal for test t and returns how to
	// open it: each call opens that same journal again, as another process
	// (or another machine) would. o.LockTimeout is how long an open may
	// wait for another process that keeps everyone out (bbolt's file lock).
	New func(t *testing.T) (open func(o journal.Options) (journal.Store, error))
	// Crash ends s as a killed process would end: nothing is released.
	Crash func(t *testing.T, s journal.Store)
	// Break makes every later storage operation of s fail, as a failed disk
	// or a cut connection would; mend puts the medium right again.
	Break func(t *testing.T, s journal.Store) (mend func())
	// LeaseBound is how long the lease of a crashed holder outlives it (0:
	// the kernel drops it with the process, as bbolt's flock).
	LeaseBound time.Duration
	// Shared says several handles can be open on one journal at once, as
	// several machines hold one PostgreSQL database; a bbolt file keeps
	// every other process out while it is open.
	Shared bool
}

// hold is the key hold the tests ask for: the API's 30 s.
const hold = 30 * time.Second

// interrupted is the reason an entry left in flight by a holder that is
// gone becomes unknown (msg key jrn.interrupted, Spanish).
const interrupted = "en curso cuando se detuvo la ejecución anterior"

// Clock is a settable clock for journal.Options.Now.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts a clock at a fixed instant, whole seconds, UTC.
func NewClock() *Clock { return &Clock{t: time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// suite is one test's journal.
type suite struct {
	t    *testing.T
	b    Backend
	open func(o journal.Options) (journal.Store, error)
}

// start prepares a new journal for t.
func start(t *testing.T, b Backend) *suite {
	return &suite{t: t, b: b, open: b.New(t)}
}

// must opens the test's journal with o, holding the leases of tenants,
// closed when the test ends.
func (s *suite) must(o journal.Options, tenants ...string) journal.Store {
	s.t.Helper()
	j, err := s.open(o)
	if err != nil {
		s.t.Fatalf("open: %v", err)
	}
	s.t.Cleanup(func() { j.Close() })
	for _, tn := range tenants {
		if _, err := j.Acquire(context.Background(), tn, 0); err != nil {
			s.t.Fatalf("Acquire(%s): %v", tn, err)
		}
	}
	return j
}

func mustGet(t *testing.T, j journal.Store, k journal.Key) journal.Entry {
	t.Helper()
	e, found, err := j.Get(context.Background(), k)
	if err != nil || !found {
		t.Fatalf("Get(%s) = found %v, err %v", k, found, err)
	}
	return e
}

// facts1 are the facts the tests' first attempts carry: opaque text to
// the journal, kept as given.
const facts1 = `{"total":"1500.50","email":"ana@example.com","puntoVentaId":2}`

func begin(t *testing.T, j journal.Store, k journal.Key) {
	t.Helper()
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-1", Source: "first", Facts: facts1, Hold: hold}); err != nil {
		t.Fatalf("Begin(%s): %v", k, err)
	}
}

func finishAs(t *testing.T, j journal.Store, k journal.Key, st journal.State) {
	t.Helper()
	begin(t, j, k)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: st, Message: "first outcome"}); err != nil {
		t.Fatalf("Finish(%s, %s): %v", k, st, err)
	}
}

func resolveAs(t *testing.T, j journal.Store, k journal.Key, st journal.State) {
	t.Helper()
	finishAs(t, j, k, journal.Unknown)
	if err := j.Resolve(context.Background(), k, journal.Verdict{As: st, Note: "checked in the ERP"}); err != nil {
		t.Fatalf("Resolve(%s, %s): %v", k, st, err)
	}
}

func keysOf(es []journal.Entry) []journal.Key {
	var ks []journal.Key
	for _, e := range es {
		ks = append(ks, e.Key)
	}
	return ks
}

func units(ids ...string) []journal.Unit {
	var us []journal.Unit
	for _, id := range ids {
		us = append(us, journal.Unit{ID: id, BodyHash: "h-" + id, Body: `{"cantidad":3}`, Source: "stock.csv fila " + id})
	}
	return us
}

// Run runs the whole contract against b.
func Run(t *testing.T, b Backend) {
	tests := []struct {
		name string
		fn   func(t *testing.T, b Backend)
	}{
		{"BeginRecordsIntent", testBeginRecordsIntent},
		{"BeginRejectsInvalidKey", testBeginRejectsInvalidKey},
		{"BeginRefusesOrAllowsByStateAndTime", testBeginRefusesOrAllows},
		{"FinishRecordsOutcome", testFinishRecordsOutcome},
		{"FinishNeedsASendingEntry", testFinishNeedsSending},
		{"ListAndResolve", testListAndResolve},
		{"ResolveKeepsTheIdsFound", testResolveKeepsIDs},
		{"NextAllowedPersists", testNextAllowedPersists},
		{"HasTenantSeesOnlyThatTenant", testHasTenant},
		{"ReserveTakesAnOpenWindowOnly", testReserve},
		{"ConcurrentReservesGrantOnce", testConcurrentReserve},
		{"MarksTravelWithIntentAndOutcome", testMarks},
		{"HoldIsTheCallers", testHoldIsTheCallers},
		{"KeyHoldCountsFromTheAnswer", testKeyHoldFromAnswer},
		{"UnsentHoldsNothing", testUnsentHoldsNothing},
		{"UnitsBelongToTheirLastRequest", testUnits},
		{"ConcurrentBeginOfOneKeySendsOnce", testConcurrentBeginOneKey},
		{"ConcurrentBeginOfOneUnitSendsOnce", testConcurrentBeginOneUnit},
		{"ConcurrentWorkersAllLand", testConcurrentWorkers},
		{"RefusalsAmongConcurrentWritesUndoNothing", testRefusalsAmongWrites},
		{"FinishAsyncIsDurableWhenItAnswers", testFinishAsync},
		{"BeginSeesOutcomesQueuedBeforeIt", testBeginSeesQueuedOutcomes},
		{"RefusalDoesNotBreakTheJournal", testRefusalDoesNotBreak},
		{"StorageFailureIsReturnedAndSticky", testStorageFailure},
		{"TextThatStorageCannotHoldIsKept", testAwkwardText},
		{"SecondRunOfATenantIsKeptOut", testSecondRunKeptOut},
		{"WaitingRunGetsTheTenantWhenReleased", testWaitingRun},
		{"ReleasedHolderLeavesSendingUnknown", testReleasedHolder},
		{"CrashedHolderLosesItsTenantInBoundedTime", testCrashedHolder},
		{"CopyIsCompleteIdempotentAndRefusesToOverwrite", testCopy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, b)
		})
	}
}

func testBeginRecordsIntent(t *testing.T, b Backend) {
	clk := NewClock()
	j := start(t, b).must(journal.Options{Now: clk.Now}, "t1")
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	got, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-a", Source: "ventas.csv rows 2,5", Facts: facts1, Hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	want := journal.Entry{Key: k, BodyHash: "hash-a", State: journal.Sending, Attempts: 1,
		First: clk.Now(), Last: clk.Now(), Source: "ventas.csv rows 2,5", Updated: clk.Now(), Facts: facts1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Begin returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, mustGet(t, j, k)); diff != "" {
		t.Errorf("Get after Begin (-want +got):\n%s", diff)
	}
	if _, found, err := j.Get(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-2"}); found || err != nil {
		t.Errorf("Get(absent) = found %v, err %v", found, err)
	}
	got2, err := j.Lookup(context.Background(), []journal.Key{k, {Tenant: "t1", Kind: "venta", Business: "ORD-2"}})
	if err != nil || len(got2) != 1 || got2[k].State != journal.Sending {
		t.Errorf("Lookup = %v, %v; want only the begun key", got2, err)
	}
}

func testBeginRejectsInvalidKey(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t1")
	for _, k := range []journal.Key{{Tenant: "t1", Kind: "venta"}, {Tenant: "t1", Kind: "ven/ta", Business: "1"}, {Tenant: "t1", Kind: "venta", Business: "a\x00b"}} {
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); err == nil {
			t.Errorf("Begin(%q) succeeded", k.String())
		}
	}
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: "1"}, journal.Intent{Units: []journal.Unit{{}}}); err == nil {
		t.Error("Begin with a unit without identity succeeded")
	}
}

func testBeginRefusesOrAllows(t *testing.T, b Backend) {
	k := journal.Key{Tenant: "t1", Kind: "facturar", Business: "77"}
	tests := []struct {
		name         string
		retryUnknown bool
		prior        func(t *testing.T, j journal.Store)
		after        time.Duration
		wantErr      error
		wantWait     time.Duration
	}{
		{"ok is never resent", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.OK) }, time.Hour, journal.ErrNotSendable, 0},
		{"sending is never resent", false, func(t *testing.T, j journal.Store) { begin(t, j, k) }, time.Hour, journal.ErrNotSendable, 0},
		{"unknown is not resent", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Unknown) }, time.Hour, journal.ErrNotSendable, 0},
		{"unknown with retry-unknown after the hold", true, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Unknown) }, 30 * time.Second, nil, 0},
		{"unknown with retry-unknown within the hold", true, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Unknown) }, 29 * time.Second, journal.ErrTooSoon, time.Second},
		{"rejected within the hold", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Rejected) }, 10 * time.Second, journal.ErrTooSoon, 20 * time.Second},
		{"rejected right after", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Rejected) }, 0, journal.ErrTooSoon, 30 * time.Second},
		{"rejected after the hold", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Rejected) }, 30 * time.Second, nil, 0},
		{"failed after the hold", false, func(t *testing.T, j journal.Store) { resolveAs(t, j, k, journal.Failed) }, time.Minute, nil, 0},
		{"failed within the hold", false, func(t *testing.T, j journal.Store) { resolveAs(t, j, k, journal.Failed) }, time.Second, journal.ErrTooSoon, 29 * time.Second},
		{"resolved ok is never resent", false, func(t *testing.T, j journal.Store) { resolveAs(t, j, k, journal.OK) }, time.Hour, journal.ErrNotSendable, 0},
		{"clock set back asks for one hold at most", false, func(t *testing.T, j journal.Store) { finishAs(t, j, k, journal.Rejected) }, -time.Hour, journal.ErrTooSoon, 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := NewClock()
			j := start(t, b).must(journal.Options{Now: clk.Now, RetryUnknown: tc.retryUnknown}, "t1")
			tc.prior(t, j)
			before := mustGet(t, j, k)
			clk.Advance(tc.after)
			got, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-2", Source: "second", Facts: `{"total":"2000"}`, Hold: hold})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Begin error = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				var ts *journal.TooSoonError
				if errors.As(err, &ts) && ts.Wait != tc.wantWait {
					t.Errorf("wait = %v, want %v", ts.Wait, tc.wantWait)
				}
				var ns *journal.NotSendableError
				if errors.As(err, &ns) && ns.State != before.State {
					t.Errorf("refused as %s, the entry is %s", ns.State, before.State)
				}
				if diff := cmp.Diff(before, mustGet(t, j, k)); diff != "" {
					t.Errorf("a refused Begin changed the entry (-before +after):\n%s", diff)
				}
				return
			}
			if got.State != journal.Sending || got.Attempts != 2 || got.BodyHash != "hash-2" ||
				!got.First.Equal(before.First) || !got.Last.Equal(clk.Now()) || got.Message != "" || got.Facts != `{"total":"2000"}` {
				t.Errorf("second Begin = %+v, want sending, attempt 2, new hash and facts, first kept, last now", got)
			}
			if e := mustGet(t, j, k); e.Facts != `{"total":"2000"}` || e.BodyHash != "hash-2" {
				t.Errorf("after the second Begin the entry has facts %q of body %q, want the second attempt's", e.Facts, e.BodyHash)
			}
			// An attempt without facts leaves none of an earlier body's.
			if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(hold)
			if third, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "hash-3", Hold: hold}); err != nil || third.Facts != "" {
				t.Errorf("third Begin without facts = %+v, %v; want no facts", third, err)
			}
			if e := mustGet(t, j, k); e.Facts != "" {
				t.Errorf("after a Begin without facts the entry keeps %q", e.Facts)
			}
		})
	}
}

func testFinishRecordsOutcome(t *testing.T, b Backend) {
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	tests := []struct {
		name     string
		st       journal.State
		ids      [3]int64
		message  string
		wantErr  bool
		wantSame bool
	}{
		{name: "ok with ids", st: journal.OK, ids: [3]int64{9001, 123, 4}},
		{name: "rejected with the API's words", st: journal.Rejected, message: "El cliente no existe"},
		{name: "unknown with reason", st: journal.Unknown, message: "timeout after the request was written"},
		{name: "sending is not an outcome", st: journal.Sending, wantErr: true, wantSame: true},
		{name: "failed is for operators", st: journal.Failed, wantErr: true, wantSame: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := NewClock()
			j := start(t, b).must(journal.Options{Now: clk.Now}, "t1")
			begun, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "src", Facts: facts1, Hold: hold})
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

func testFinishNeedsSending(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t1")
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "ORD-1"}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1}); !errors.Is(err, journal.ErrNotFound) {
		t.Errorf("Finish without Begin = %v, want ErrNotFound", err)
	}
	finishAs(t, j, k, journal.Rejected)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1}); !errors.Is(err, journal.ErrWrongState) {
		t.Errorf("Finish twice = %v, want ErrWrongState", err)
	}
	if e := mustGet(t, j, k); e.State != journal.Rejected || e.FacturaID != 0 {
		t.Errorf("a refused Finish changed the entry: %+v", e)
	}
}

func testListAndResolve(t *testing.T, b Backend) {
	clk := NewClock()
	j := start(t, b).must(journal.Options{Now: clk.Now}, "t0", "t1", "t2")
	var (
		okKey    = journal.Key{Tenant: "t1", Kind: "venta", Business: "A"}
		unkKey   = journal.Key{Tenant: "t1", Kind: "facturar", Business: "9"}
		unk2Key  = journal.Key{Tenant: "t0", Kind: "stock", Business: "dep/1#2"}
		rejKey   = journal.Key{Tenant: "t1", Kind: "venta", Business: "B"}
		inflight = journal.Key{Tenant: "t2", Kind: "venta", Business: "C"}
		upper    = journal.Key{Tenant: "t1", Kind: "venta", Business: "Z"}
		lower    = journal.Key{Tenant: "t1", Kind: "venta", Business: "a"}
	)
	finishAs(t, j, okKey, journal.OK)
	finishAs(t, j, unkKey, journal.Unknown)
	finishAs(t, j, unk2Key, journal.Unknown)
	finishAs(t, j, rejKey, journal.Rejected)
	finishAs(t, j, lower, journal.OK)
	finishAs(t, j, upper, journal.OK)
	begin(t, j, inflight)

	all, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	// Byte order: "Z" before "a", whatever the database's collation.
	if diff := cmp.Diff([]journal.Key{unk2Key, unkKey, okKey, rejKey, upper, lower, inflight}, keysOf(all)); diff != "" {
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
		wantAny bool
	}{
		{k: unkKey, as: journal.Failed},
		{k: unk2Key, as: journal.OK},
		{k: inflight, as: journal.Failed},
		{k: okKey, as: journal.Failed, wantErr: journal.ErrWrongState},
		{k: rejKey, as: journal.OK, wantErr: journal.ErrWrongState},
		{k: unkKey, as: journal.Failed, wantErr: journal.ErrWrongState},
		{k: journal.Key{Tenant: "t1", Kind: "venta", Business: "nope"}, as: journal.OK, wantErr: journal.ErrNotFound},
		{k: unk2Key, as: journal.Rejected, wantAny: true},
	}
	clk.Advance(time.Minute)
	for _, r := range resolves {
		before, _, _ := j.Get(context.Background(), r.k)
		err := j.Resolve(context.Background(), r.k, journal.Verdict{As: r.as, Note: "miré el ERP: " + string(r.as), Evidence: `{"read":"GET /comprobante"}`})
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
			want.State, want.Note, want.Evidence, want.Updated = r.as, "miré el ERP: "+string(r.as), `{"read":"GET /comprobante"}`, clk.Now()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("after Resolve(%s, %s) (-want +got):\n%s", r.k, r.as, diff)
			}
		}
	}
	if unknown, _ := j.List(context.Background(), journal.Unknown); len(unknown) != 0 {
		t.Errorf("unknown entries left after resolving: %v", keysOf(unknown))
	}
	again, err := j.Begin(context.Background(), unkKey, journal.Intent{BodyHash: "h2", Source: "retry", Hold: hold})
	if err != nil {
		t.Fatalf("Begin after Resolve failed: %v", err)
	}
	if again.Attempts != 2 || again.Note != "miré el ERP: failed" {
		t.Errorf("Begin after Resolve failed = %+v, want attempt 2 with the note kept", again)
	}
}

func testResolveKeepsIDs(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k := journal.Key{Tenant: "t", Kind: "facturar", Business: "33"}
	finishAs(t, j, k, journal.Unknown)
	if err := j.Resolve(context.Background(), k, journal.Verdict{As: journal.OK, Note: "reconciliado", FacturaID: 33, Numero: 1500, PVNumero: 2}); err != nil {
		t.Fatal(err)
	}
	if e := mustGet(t, j, k); e.State != journal.OK || e.FacturaID != 33 || e.Numero != 1500 || e.PVNumero != 2 {
		t.Errorf("resolved entry = %+v, want ok with ids 33, 1500, 2", e)
	}
}

func testNextAllowedPersists(t *testing.T, b Backend) {
	s := start(t, b)
	j := s.must(journal.Options{})
	if got, err := j.NextAllowed(context.Background(), "t1", "stock"); err != nil || !got.IsZero() {
		t.Errorf("NextAllowed unset = %v, %v; want zero time", got, err)
	}
	at := time.Date(2025, 3, 14, 9, 0, 3, 500_000, time.FixedZone("ART", -3*3600))
	if err := j.SetNextAllowed(context.Background(), "t1", "stock", at); err != nil {
		t.Fatal(err)
	}
	if err := j.SetNextAllowed(context.Background(), "t2", "stock", at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := j.SetNextAllowed(context.Background(), "", "stock", at); err == nil {
		t.Error("SetNextAllowed without tenant succeeded")
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = s.must(journal.Options{})
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

func testHasTenant(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "app1.production")
	begin(t, j, journal.Key{Tenant: "app1.production", Kind: "venta", Business: "1"})
	for _, c := range []struct {
		tenant string
		want   bool
	}{{"app1.production", true}, {"app1", false}, {"app1.production@localhost:8091", false}, {"app1.productio", false}, {"", false}} {
		if got, err := j.HasTenant(context.Background(), c.tenant); err != nil || got != c.want {
			t.Errorf("HasTenant(%q) = %v, %v; want %v", c.tenant, got, err, c.want)
		}
	}
}

func testReserve(t *testing.T, b Backend) {
	s := start(t, b)
	j := s.must(journal.Options{})
	t0 := time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)
	// Each step runs on the journal as the steps before it left it.
	for _, c := range []struct {
		name        string
		tenant      string
		now         time.Time
		wantGranted bool
		wantNext    time.Time
	}{
		{"a window never taken is open", "cred", t0, true, t0.Add(time.Minute)},
		{"inside the window: refused, with when it opens", "cred", t0.Add(30 * time.Second), false, t0.Add(time.Minute)},
		{"a microsecond early is still inside", "cred", t0.Add(time.Minute - time.Microsecond), false, t0.Add(time.Minute)},
		{"at its next allowed time it opens again", "cred", t0.Add(time.Minute), true, t0.Add(2 * time.Minute)},
		{"another tenant's window is its own", "other", t0.Add(time.Minute), true, t0.Add(2 * time.Minute)},
	} {
		granted, next, err := j.Reserve(context.Background(), c.tenant, "params", c.now, time.Minute)
		if err != nil || granted != c.wantGranted || !next.Equal(c.wantNext) {
			t.Errorf("%s: Reserve = %v, %v, %v; want %v, %v", c.name, granted, next, err, c.wantGranted, c.wantNext)
		}
	}
	if got, err := j.NextAllowed(context.Background(), "cred", "params"); err != nil || !got.Equal(t0.Add(2*time.Minute)) {
		t.Errorf("NextAllowed after the reserves = %v, %v; want %v", got, err, t0.Add(2*time.Minute))
	}
	// A window set by SetNextAllowed (the API's own wait) refuses too.
	if err := j.SetNextAllowed(context.Background(), "cred", "params", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if granted, next, err := j.Reserve(context.Background(), "cred", "params", t0.Add(3*time.Minute), time.Minute); err != nil || granted || !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("Reserve before the API's wait is over = %v, %v, %v; want refused until %v", granted, next, err, t0.Add(time.Hour))
	}
	if _, _, err := j.Reserve(context.Background(), "", "params", t0, time.Minute); err == nil {
		t.Error("Reserve without tenant succeeded")
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// Persisted: the next run is refused as well.
	j = s.must(journal.Options{})
	if granted, next, err := j.Reserve(context.Background(), "cred", "params", t0.Add(4*time.Minute), time.Minute); err != nil || granted || !next.Equal(t0.Add(time.Hour)) {
		t.Errorf("Reserve after reopening = %v, %v, %v; want refused until %v", granted, next, err, t0.Add(time.Hour))
	}
}

// testConcurrentReserve has many goroutines reserve one window at the
// same instant, through two handles where the journal is shared between
// machines: exactly one is granted, the others are told when it opens.
func testConcurrentReserve(t *testing.T, b Backend) {
	s := start(t, b)
	handles := []journal.Store{s.must(journal.Options{})}
	if b.Shared {
		handles = append(handles, s.must(journal.Options{}))
	}
	const perHandle = 8
	t0 := time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)
	type result struct {
		granted bool
		next    time.Time
		err     error
	}
	results := make(chan result, perHandle*len(handles))
	ready := make(chan struct{})
	var wg sync.WaitGroup
	for _, h := range handles {
		for range perHandle {
			wg.Go(func() {
				<-ready
				g, n, err := h.Reserve(context.Background(), "cred", "params", t0, time.Minute)
				results <- result{g, n, err}
			})
		}
	}
	close(ready)
	wg.Wait()
	close(results)
	grants := 0
	for r := range results {
		if r.err != nil {
			t.Fatalf("Reserve: %v", r.err)
		}
		if r.granted {
			grants++
		}
		if !r.next.Equal(t0.Add(time.Minute)) {
			t.Errorf("Reserve's next = %v (granted %v), want %v", r.next, r.granted, t0.Add(time.Minute))
		}
	}
	if grants != 1 {
		t.Errorf("%d of %d concurrent reserves of one window were granted, want exactly 1", grants, perHandle*len(handles))
	}
}

func testMarks(t *testing.T, b Backend) {
	clk := NewClock()
	j := start(t, b).must(journal.Options{Now: clk.Now}, "t")
	k := journal.Key{Tenant: "t", Kind: "stock", Business: "m"}
	out := clk.Now().Add(33 * time.Second)
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Window: &journal.Mark{Tenant: "t", Name: "stock/movimiento", Next: out}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(out) {
		t.Errorf("window after intent = %v, want %v", got, out)
	}
	answered := clk.Now().Add(3 * time.Second)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 4, Window: &journal.Mark{Tenant: "t", Name: "stock/movimiento", Next: answered}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := j.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(answered) {
		t.Errorf("window after outcome = %v, want %v", got, answered)
	}
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "stock", Business: "n"}, journal.Intent{Window: &journal.Mark{Name: "x"}}); err == nil {
		t.Error("Begin with a window mark without tenant succeeded")
	}
	// A refused Begin moves no window.
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Window: &journal.Mark{Tenant: "t", Name: "stock/movimiento", Next: out.Add(time.Hour)}}); !errors.Is(err, journal.ErrNotSendable) {
		t.Fatalf("Begin of an ok key = %v, want refused", err)
	}
	if got, _ := j.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(answered) {
		t.Errorf("window after a refused intent = %v, want %v", got, answered)
	}
}

func testHoldIsTheCallers(t *testing.T, b Backend) {
	clk := NewClock()
	j := start(t, b).must(journal.Options{Now: clk.Now}, "t")
	for i, tc := range []struct {
		hold     time.Duration
		wantSoon bool
	}{{hold, true}, {0, false}} {
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

func testKeyHoldFromAnswer(t *testing.T, b Backend) {
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "501"}
	tests := []struct {
		name            string
		answered, after time.Duration
		wantWait        time.Duration
	}{
		{name: "answer at once, hold over", after: 30 * time.Second},
		{name: "slow answer, hold over from the intent only", answered: 8 * time.Second, after: 25 * time.Second, wantWait: 5 * time.Second},
		{name: "slow answer, hold over from the answer", answered: 8 * time.Second, after: 30 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := NewClock()
			j := start(t, b).must(journal.Options{Now: clk.Now}, "t1")
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "first", Hold: hold}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(tc.answered)
			if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected, Message: "Articulo no encontrado"}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(tc.after)
			_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "second", Hold: hold})
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

func testUnsentHoldsNothing(t *testing.T, b Backend) {
	clk := NewClock()
	j := start(t, b).must(journal.Options{Now: clk.Now}, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "7"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Unsent, Message: "connection refused"}); err != nil {
		t.Fatal(err)
	}
	e, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold})
	if err != nil {
		t.Fatalf("Begin right after an unsent attempt = %v, want allowed", err)
	}
	if e.Attempts != 1 || !e.Held.IsZero() {
		t.Errorf("after an unsent attempt and a new intent: attempts %d, held %v; want 1 and none", e.Attempts, e.Held)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); !errors.Is(err, journal.ErrTooSoon) {
		t.Errorf("Begin right after a rejected attempt = %v, want too soon", err)
	}
}

func testUnits(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	m1 := journal.Key{Tenant: "t", Kind: "stock", Business: "m1"}
	m2 := journal.Key{Tenant: "t", Kind: "stock", Business: "m2"}
	m3 := journal.Key{Tenant: "t", Kind: "stock", Business: "m3"}
	if _, err := j.Begin(context.Background(), m1, journal.Intent{BodyHash: "b1", Units: units("r1", "r2")}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []journal.State{journal.Sending, journal.Unknown, journal.OK} {
		if st != journal.Sending {
			if err := j.Finish(context.Background(), m1, journal.Outcome{State: st}); err != nil && st != journal.OK {
				t.Fatal(err)
			}
		}
		_, err := j.Begin(context.Background(), m2, journal.Intent{BodyHash: "b2", Units: units("r2", "r3")})
		var ns *journal.NotSendableError
		if !errors.As(err, &ns) || ns.Unit != "r2" || ns.State != st {
			t.Fatalf("m1 %s: Begin of a request carrying r2 = %v, want refused for unit r2", st, err)
		}
		if st == journal.Unknown {
			if err := j.Resolve(context.Background(), m1, journal.Verdict{As: journal.Failed, Note: "no está en el ERP"}); err != nil {
				t.Fatal(err)
			}
			if _, err := j.Begin(context.Background(), m1, journal.Intent{BodyHash: "b1", Units: units("r1", "r2")}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := j.Begin(context.Background(), m3, journal.Intent{BodyHash: "b3", Units: units("r3")}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(context.Background(), m3, journal.Outcome{State: journal.Rejected, Message: "El articulo 999 no existe"}); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Begin(context.Background(), m2, journal.Intent{BodyHash: "b2", Units: units("r3", "r4")}); err != nil {
		t.Fatalf("Begin with a unit of a rejected request: %v", err)
	}
	got, reqs, err := j.Units(context.Background(), "t", "stock", []string{"r1", "r3", "r4", "r9"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]journal.UnitRecord{
		"r1": {Unit: units("r1")[0], Request: m1},
		"r3": {Unit: units("r3")[0], Request: m2},
		"r4": {Unit: units("r4")[0], Request: m2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Units (-want +got):\n%s", diff)
	}
	if reqs[m1].State != journal.OK || reqs[m2].State != journal.Sending || len(reqs) != 2 {
		t.Errorf("Units' requests = %v, want m1 ok and m2 sending", reqs)
	}
	if diff := cmp.Diff([]string{"r3", "r4"}, mustGet(t, j, m2).Units); diff != "" {
		t.Errorf("m2's units (-want +got):\n%s", diff)
	}
	if got, _, err := j.Units(context.Background(), "t", "venta", []string{"r1"}); err != nil || len(got) != 0 {
		t.Errorf("units of another kind = %v, %v; want none", got, err)
	}
}

// concurrently runs fn n times at once and waits for all.
func concurrently(n int, fn func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			fn(i)
		})
	}
	close(start)
	wg.Wait()
}

func testConcurrentBeginOneKey(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "same"}
	var mu sync.Mutex
	wins, refused := 0, 0
	concurrently(8, func(int) {
		_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold})
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
	if wins != 1 || refused != 7 {
		t.Errorf("8 concurrent Begins: %d sent, %d refused; want 1 and 7", wins, refused)
	}
	if e := mustGet(t, j, k); e.Attempts != 1 {
		t.Errorf("attempts = %d, want 1", e.Attempts)
	}
}

// testConcurrentBeginOneUnit: two requests carrying the same row, begun at
// once: one goes, the other is refused for the row.
func testConcurrentBeginOneUnit(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	var mu sync.Mutex
	wins, refused := 0, 0
	concurrently(6, func(i int) {
		k := journal.Key{Tenant: "t", Kind: "stock", Business: fmt.Sprintf("m%d", i)}
		_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Units: units(fmt.Sprintf("own%d", i), "shared")})
		mu.Lock()
		defer mu.Unlock()
		var ns *journal.NotSendableError
		switch {
		case err == nil:
			wins++
		case errors.As(err, &ns) && ns.Unit == "shared":
			refused++
		default:
			t.Errorf("Begin: %v", err)
		}
	})
	if wins != 1 || refused != 5 {
		t.Errorf("6 concurrent requests carrying one row: %d sent, %d refused; want 1 and 5", wins, refused)
	}
}

func testConcurrentWorkers(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	concurrently(8, func(w int) {
		for i := range 25 {
			k := journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprintf("w%d-%d", w, i)}
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); err != nil {
				t.Error(err)
				return
			}
			if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: int64(i + 1), Numero: 1, PVNumero: 1}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	ok, err := j.List(context.Background(), journal.OK)
	if err != nil || len(ok) != 200 {
		t.Errorf("List(ok) = %d entries, %v; want 200", len(ok), err)
	}
}

// testRefusalsAmongWrites: writes that go together (bbolt's group commit,
// PostgreSQL's concurrent transactions) are each kept or refused on their
// own: a refusal among them undoes none of the others.
func testRefusalsAmongWrites(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	done := journal.Key{Tenant: "t", Kind: "venta", Business: "done"}
	finishAs(t, j, done, journal.OK)
	var mu sync.Mutex
	refused := 0
	concurrently(16, func(i int) {
		k := journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprint(i)}
		if i%2 == 1 {
			k = done
		}
		_, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold})
		switch {
		case i%2 == 1 && errors.Is(err, journal.ErrNotSendable):
			mu.Lock()
			refused++
			mu.Unlock()
		case i%2 == 0 && err != nil:
			t.Errorf("Begin(%s): %v", k, err)
		case i%2 == 1:
			t.Errorf("Begin of an ok key = %v, want refused", err)
		}
	})
	sending, err := j.List(context.Background(), journal.Sending)
	if err != nil || len(sending) != 8 || refused != 8 {
		t.Errorf("%d sending, %d refused (%v); want 8 and 8", len(sending), refused, err)
	}
}

func testFinishAsync(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k1, k2 := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Key{Tenant: "t", Kind: "venta", Business: "2"}
	begin(t, j, k1)
	done := j.FinishAsync(context.Background(), k1, journal.Outcome{State: journal.OK, FacturaID: 10, Numero: 20, PVNumero: 3})
	begin(t, j, k2)
	if err := <-done; err != nil {
		t.Fatalf("FinishAsync: %v", err)
	}
	if e := mustGet(t, j, k1); e.State != journal.OK || e.FacturaID != 10 {
		t.Errorf("after FinishAsync answered: %+v; want ok with facturaId 10", e)
	}
	if err := <-j.FinishAsync(context.Background(), k1, journal.Outcome{State: journal.Sending}); err == nil {
		t.Error("FinishAsync as sending: no error")
	}
	if err := <-j.FinishAsync(context.Background(), k1, journal.Outcome{State: journal.OK}); !errors.Is(err, journal.ErrWrongState) {
		t.Errorf("FinishAsync of an ok entry = %v, want ErrWrongState", err)
	}
}

// testBeginSeesQueuedOutcomes: an outcome queued with FinishAsync, not yet
// answered, is seen by a later Begin of the same key and by the unit check
// of a later Begin carrying the same units, whether it is still queued or
// being committed: otherwise a resend is refused as "still sending" and
// its rows end unknown.
func testBeginSeesQueuedOutcomes(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	for i := range 100 {
		k := journal.Key{Tenant: "t", Kind: "venta", Business: strconv.Itoa(i)}
		begin(t, j, k)
		done := j.FinishAsync(context.Background(), k, journal.Outcome{State: journal.Rejected, Message: "refused"})
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
			t.Fatalf("round %d: Begin after FinishAsync(rejected) of the same key: %v", i, err)
		}
		if err := <-done; err != nil {
			t.Fatalf("round %d: FinishAsync: %v", i, err)
		}

		unit := []journal.Unit{{ID: "row" + strconv.Itoa(i), BodyHash: "u"}}
		m1 := journal.Key{Tenant: "t", Kind: "stock", Business: "a" + strconv.Itoa(i)}
		m2 := journal.Key{Tenant: "t", Kind: "stock", Business: "b" + strconv.Itoa(i)}
		if _, err := j.Begin(context.Background(), m1, journal.Intent{BodyHash: "h", Units: unit}); err != nil {
			t.Fatalf("round %d: Begin %v: %v", i, m1, err)
		}
		done = j.FinishAsync(context.Background(), m1, journal.Outcome{State: journal.Rejected, Message: "refused"})
		if _, err := j.Begin(context.Background(), m2, journal.Intent{BodyHash: "h", Units: unit}); err != nil {
			t.Fatalf("round %d: Begin of another movement with the refused one's row: %v", i, err)
		}
		if err := <-done; err != nil {
			t.Fatalf("round %d: FinishAsync: %v", i, err)
		}
	}
}

func testRefusalDoesNotBreak(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	begin(t, j, k)
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); !errors.Is(err, journal.ErrNotSendable) {
		t.Fatalf("second Begin = %v, want ErrNotSendable", err)
	}
	if err := j.Finish(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "absent"}, journal.Outcome{State: journal.OK}); !errors.Is(err, journal.ErrNotFound) {
		t.Fatalf("Finish of an absent key = %v, want ErrNotFound", err)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 1, Numero: 2, PVNumero: 3}); err != nil {
		t.Errorf("Finish after refusals: %v", err)
	}
}

func testStorageFailure(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}
	begin(t, j, journal.Key{Tenant: "t", Kind: "venta", Business: "0"})
	mend := b.Break(t, j)
	_, first := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold})
	if first == nil {
		t.Fatal("Begin on a broken medium succeeded")
	}
	if errors.Is(first, journal.ErrNotSendable) || errors.Is(first, journal.ErrTooSoon) {
		t.Fatalf("Begin on a broken medium = %v, want the storage error", first)
	}
	mend() // the medium recovers: the journal must still refuse to write
	if err := j.SetNextAllowed(context.Background(), "t", "stock", time.Now()); err == nil || err.Error() != first.Error() {
		t.Errorf("write after a storage failure = %v, want the same error %v", err, first)
	}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: hold}); err == nil || err.Error() != first.Error() {
		t.Errorf("Begin after a storage failure = %v, want the same error", err)
	}
	if err := j.Finish(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "0"}, journal.Outcome{State: journal.OK}); err == nil {
		t.Error("Finish after a storage failure succeeded")
	}
}

// testAwkwardText: an API message with a NUL byte or invalid UTF-8 is
// stored (made valid if the storage needs it), never a failure that stops
// the run.
func testAwkwardText(t *testing.T, b Backend) {
	j := start(t, b).must(journal.Options{}, "t")
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "Ñandú café"}
	begin(t, j, k)
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Rejected, Message: "mal\x00formado \xff fin"}); err != nil {
		t.Fatalf("Finish with awkward text: %v", err)
	}
	e := mustGet(t, j, k)
	if !strings.HasPrefix(e.Message, "mal") || !strings.HasSuffix(e.Message, " fin") || e.Key != k {
		t.Errorf("stored %+v, want the message's text and the key kept", e)
	}
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "2"}, journal.Intent{BodyHash: "h"}); err != nil {
		t.Errorf("Begin after awkward text: %v", err)
	}
}

// lockedOut opens the journal again (another process, another machine) and
// asks for tenant with wait: it must be kept out, at open (bbolt's file
// lock) or at Acquire (a lease), with ErrLocked.
func lockedOut(t *testing.T, s *suite, tenant string, wait time.Duration) {
	t.Helper()
	other, err := s.open(journal.Options{LockTimeout: wait})
	if err == nil {
		defer other.Close()
		_, err = other.Acquire(context.Background(), tenant, wait)
	}
	if !errors.Is(err, journal.ErrLocked) {
		t.Errorf("a second run of tenant %s while the first holds it: %v, want ErrLocked", tenant, err)
	}
}

func testSecondRunKeptOut(t *testing.T, b Backend) {
	s := start(t, b)
	j := s.must(journal.Options{}, "t1")
	begin(t, j, journal.Key{Tenant: "t1", Kind: "venta", Business: "1"})
	lockedOut(t, s, "t1", 0)
	lockedOut(t, s, "t1", 300*time.Millisecond)
	// The holder is not disturbed by the attempts.
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t1", Kind: "venta", Business: "2"}, journal.Intent{BodyHash: "h"}); err != nil {
		t.Errorf("holder's Begin after others were kept out: %v", err)
	}
	if e := mustGet(t, j, journal.Key{Tenant: "t1", Kind: "venta", Business: "1"}); e.State != journal.Sending {
		t.Errorf("holder's entry is %s after others were kept out, want sending", e.State)
	}
}

func testWaitingRun(t *testing.T, b Backend) {
	s := start(t, b)
	j, err := s.open(journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	release, err := j.Acquire(context.Background(), "t1", 0)
	if err != nil {
		t.Fatal(err)
	}
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "1"}
	finishAs(t, j, k, journal.OK)
	got := make(chan error, 1)
	go func() {
		other, err := s.open(journal.Options{LockTimeout: time.Minute})
		if err == nil {
			defer other.Close()
			_, err = other.Acquire(context.Background(), "t1", time.Minute)
			if err == nil {
				_, err = other.Begin(context.Background(), k, journal.Intent{BodyHash: "h"})
			}
		}
		got <- err
	}()
	time.Sleep(200 * time.Millisecond)
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if !errors.Is(err, journal.ErrNotSendable) {
			t.Errorf("the waiting run, once it had the tenant, began an ok key: %v; want refused", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiting run never got the tenant")
	}
}

func testReleasedHolder(t *testing.T, b Backend) {
	clk := NewClock()
	s := start(t, b)
	j := s.must(journal.Options{Now: clk.Now}, "t")
	done, inflight := journal.Key{Tenant: "t", Kind: "venta", Business: "done"}, journal.Key{Tenant: "t", Kind: "venta", Business: "inflight"}
	finishAs(t, j, done, journal.OK)
	begin(t, j, inflight)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	j = s.must(journal.Options{Now: clk.Now}, "t")
	if got := mustGet(t, j, done); got.State != journal.OK {
		t.Errorf("finished entry is %s after reopen, want ok", got.State)
	}
	got := mustGet(t, j, inflight)
	if got.State != journal.Unknown || got.Message != interrupted || !got.Updated.Equal(clk.Now()) || !got.Held.Equal(clk.Now()) {
		t.Errorf("in-flight entry after reopen = %+v, want unknown with the interruption reason", got)
	}
	if _, err := j.Begin(context.Background(), inflight, journal.Intent{BodyHash: "h", Hold: hold}); !errors.Is(err, journal.ErrNotSendable) {
		t.Errorf("Begin of an interrupted key = %v, want ErrNotSendable", err)
	}
}

func testCrashedHolder(t *testing.T, b Backend) {
	s := start(t, b)
	j, err := s.open(journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Acquire(context.Background(), "t", 0); err != nil {
		t.Fatal(err)
	}
	inflight := journal.Key{Tenant: "t", Kind: "venta", Business: "inflight"}
	begin(t, j, inflight)
	b.Crash(t, j)
	crashed := time.Now()
	wait := b.LeaseBound + 10*time.Second
	j = s.must(journal.Options{LockTimeout: wait})
	if _, err := j.Acquire(context.Background(), "t", wait); err != nil {
		t.Fatalf("Acquire after the holder crashed: %v", err)
	}
	// The bound, plus a poll and a loaded machine's slack.
	if took := time.Since(crashed); took > b.LeaseBound+3*time.Second {
		t.Errorf("the tenant was free %v after its holder crashed, want within %v", took, b.LeaseBound)
	}
	if got := mustGet(t, j, inflight); got.State != journal.Unknown || got.Message != interrupted {
		t.Errorf("in-flight entry of a crashed holder = %+v, want unknown", got)
	}
}

func testCopy(t *testing.T, b Backend) {
	clk := NewClock()
	src := start(t, b).must(journal.Options{Now: clk.Now}, "t", "u")
	for i := range 5 {
		finishAs(t, src, journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprint(i)}, journal.OK)
	}
	finishAs(t, src, journal.Key{Tenant: "u", Kind: "facturar", Business: "9"}, journal.Unknown)
	m := journal.Key{Tenant: "t", Kind: "stock", Business: "m1"}
	if _, err := src.Begin(context.Background(), m, journal.Intent{BodyHash: "b", Units: units("r1", "r2"), Facts: facts1}); err != nil {
		t.Fatal(err)
	}
	if err := src.Finish(context.Background(), m, journal.Outcome{State: journal.OK, FacturaID: 77}); err != nil {
		t.Fatal(err)
	}
	at := clk.Now().Add(3 * time.Second)
	if err := src.SetNextAllowed(context.Background(), "t", "stock/movimiento", at); err != nil {
		t.Fatal(err)
	}
	dst := start(t, b).must(journal.Options{Now: clk.Now})
	res, err := journal.Copy(context.Background(), dst, src)
	if err != nil {
		t.Fatal(err)
	}
	if res.Entries != 7 || res.Units != 2 || res.Windows != 1 || res.Written != 10 || len(res.Conflicts) != 0 {
		t.Errorf("first copy = %+v, want 7 entries, 2 units, 1 window, all written", res)
	}
	want, _ := src.List(context.Background(), "")
	got, _ := dst.List(context.Background(), "")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("copied entries (-src +dst):\n%s", diff)
	}
	for _, e := range got {
		if e.Facts != facts1 {
			t.Errorf("copied %s has facts %q, want those of its attempt %q", e.Key, e.Facts, facts1)
		}
	}
	us, reqs, err := dst.Units(context.Background(), "t", "stock", []string{"r1", "r2"})
	if err != nil || len(us) != 2 || reqs[m].FacturaID != 77 {
		t.Errorf("copied units = %v, %v, %v", us, reqs, err)
	}
	if got, _ := dst.NextAllowed(context.Background(), "t", "stock/movimiento"); !got.Equal(at) {
		t.Errorf("copied window = %v, want %v", got, at)
	}
	again, err := journal.Copy(context.Background(), dst, src)
	if err != nil || again.Written != 0 || again.Same != 10 || len(again.Conflicts) != 0 {
		t.Errorf("second copy = %+v, %v; want nothing written, 10 the same", again, err)
	}

	// dst settles the unknown; src still has it unknown: copying does not
	// overwrite the verdict, and says so.
	unk := journal.Key{Tenant: "u", Kind: "facturar", Business: "9"}
	if _, err := dst.Acquire(context.Background(), "u", 0); err != nil {
		t.Fatal(err)
	}
	if err := dst.Resolve(context.Background(), unk, journal.Verdict{As: journal.OK, Note: "en el ERP", FacturaID: 9}); err != nil {
		t.Fatal(err)
	}
	third, err := journal.Copy(context.Background(), dst, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(third.Conflicts) != 1 || third.Conflicts[0].Key != unk || third.Conflicts[0].Field != "state" {
		t.Errorf("copy over a changed entry: conflicts %v, want %s's state", third.Conflicts, unk)
	}
	if e := mustGet(t, dst, unk); e.State != journal.OK || e.FacturaID != 9 {
		t.Errorf("the copy overwrote a different entry: %+v", e)
	}
}
