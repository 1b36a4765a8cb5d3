package boltjournal

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	bolt "go.etcd.io/bbolt"
)

// TestGroupCommitSharesTransactions holds the first commit open until three
// more writes have queued behind it: they must go through in one second
// transaction, and the one refused among them must not undo the others.
func TestGroupCommitSharesTransactions(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	release := make(chan struct{})
	var commits atomic.Int32
	j.commit = func(fn func(*bolt.Tx) error) error {
		if commits.Add(1) == 1 {
			<-release
		}
		return j.db.Update(fn)
	}
	k0, k1, k2 := journal.Key{Tenant: "t", Kind: "venta", Business: "0"}, journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Key{Tenant: "t", Kind: "venta", Business: "2"}
	errs := make([]error, 4)
	var wg sync.WaitGroup
	wg.Go(func() {
		_, errs[0] = j.Begin(context.Background(), k0, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	for commits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	wg.Go(func() {
		_, errs[1] = j.Begin(context.Background(), k1, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	wg.Go(func() {
		_, errs[2] = j.Begin(context.Background(), k2, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	wg.Go(func() {
		_, errs[3] = j.Begin(context.Background(), k0, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	}) // k0 is sending by then: refused
	for queued := 0; queued < 3; {
		time.Sleep(time.Millisecond)
		j.gmu.Lock()
		queued = len(j.queue)
		j.gmu.Unlock()
	}
	close(release)
	wg.Wait()

	if n := commits.Load(); n != 2 {
		t.Errorf("%d commits for 4 writes queued as 1 + 3, want 2", n)
	}
	for i, err := range errs[:3] {
		if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if !errors.Is(errs[3], journal.ErrNotSendable) {
		t.Errorf("second Begin of a sending key = %v, want ErrNotSendable", errs[3])
	}
	sending, err := j.List(context.Background(), journal.Sending)
	if err != nil || len(sending) != 3 {
		t.Errorf("List(sending) = %d entries, %v; want the 3 begun despite the refusal in their group", len(sending), err)
	}
}

// TestGroupCommitStorageFailureFailsTheGroup: when the shared commit fails,
// every write of the group gets the storage error, and so does every later
// one.
func TestGroupCommitStorageFailureFailsTheGroup(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	fsyncErr := errors.New("fdatasync: input/output error")
	release := make(chan struct{})
	var commits atomic.Int32
	j.commit = func(fn func(*bolt.Tx) error) error {
		if commits.Add(1) == 1 {
			<-release
			return j.db.Update(fn)
		}
		return fsyncErr
	}
	errs := make([]error, 3)
	var wg sync.WaitGroup
	wg.Go(func() {
		_, errs[0] = j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "0"}, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	for commits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	wg.Go(func() {
		_, errs[1] = j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	wg.Go(func() { errs[2] = j.SetNextAllowed(context.Background(), "t", "stock", time.Now()) })
	for queued := 0; queued < 2; {
		time.Sleep(time.Millisecond)
		j.gmu.Lock()
		queued = len(j.queue)
		j.gmu.Unlock()
	}
	close(release)
	wg.Wait()
	if errs[0] != nil {
		t.Errorf("first write: %v", errs[0])
	}
	for i, err := range errs[1:] {
		if !errors.Is(err, fsyncErr) {
			t.Errorf("write %d of the failed group = %v, want the storage error", i+1, err)
		}
	}
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "3"}, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); !errors.Is(err, fsyncErr) {
		t.Errorf("write after the failed group = %v, want the storage error", err)
	}
}

// TestFinishAsyncSharesTheNextIntentsCommit: an outcome queued with
// FinishAsync and the same worker's next Begin go out in one commit, and
// the outcome is durable when its channel answers.
func TestFinishAsyncSharesTheNextIntentsCommit(t *testing.T) {
	j, _ := mustOpen(t, journal.Options{})
	k1, k2 := journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Key{Tenant: "t", Kind: "venta", Business: "2"}
	if _, err := j.Begin(context.Background(), k1, journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var commits atomic.Int32
	j.commit = func(fn func(*bolt.Tx) error) error {
		if commits.Add(1) == 1 {
			<-release
		}
		return j.db.Update(fn)
	}
	// Something else is committing: both writes queue behind it.
	var wg sync.WaitGroup
	wg.Go(func() { _ = j.SetNextAllowed(context.Background(), "t", "stock", time.Now()) })
	for commits.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	done := j.FinishAsync(context.Background(), k1, journal.Outcome{State: journal.OK, FacturaID: 10, Numero: 20, PVNumero: 3, Message: ""})
	var beginErr error
	wg.Go(func() {
		_, beginErr = j.Begin(context.Background(), k2, journal.Intent{BodyHash: "h", Source: "", Hold: testHold})
	})
	for queued := 0; queued < 2; {
		time.Sleep(time.Millisecond)
		j.gmu.Lock()
		queued = len(j.queue)
		j.gmu.Unlock()
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("FinishAsync: %v", err)
	}
	wg.Wait()
	if beginErr != nil {
		t.Fatalf("Begin: %v", beginErr)
	}
	if n := commits.Load(); n != 2 {
		t.Errorf("%d commits, want 2: the outcome and the next intent share one", n)
	}
	e, _, err := j.Get(context.Background(), k1)
	if err != nil || e.State != journal.OK || e.FacturaID != 10 {
		t.Errorf("after FinishAsync answered: %+v, %v; want ok with facturaId 10", e, err)
	}
	if err := <-j.FinishAsync(context.Background(), k1, journal.Outcome{State: "sending"}); err == nil {
		t.Error("FinishAsync as sending: no error")
	}
}
