package pgjournal_test

import (
	"context"
	"sync"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
)

// TestDocumentsAreSwappedNeverOverwritten: two machines changing the
// tenants' registry at once: exactly one swap from each starting point
// lands, the other reads again.
func TestDocumentsAreSwappedNeverOverwritten(t *testing.T) {
	_, url := newDB(t)
	a, b := mustOpen(t, url, journal.Options{}), mustOpen(t, url, journal.Options{})
	if doc, err := a.Document(context.Background(), "tenants"); err != nil || doc != nil {
		t.Fatalf("Document of an empty journal = %q, %v; want none", doc, err)
	}
	var wg sync.WaitGroup
	won := make([]bool, 2)
	for i, s := range []interface {
		SwapDocument(ctx context.Context, name string, old, doc []byte) (bool, error)
	}{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.SwapDocument(context.Background(), "tenants", nil, []byte{'A' + byte(i)})
			if err != nil {
				t.Error(err)
			}
			won[i] = ok
		}()
	}
	wg.Wait()
	if won[0] == won[1] {
		t.Fatalf("both or neither of two first writes landed: %v", won)
	}
	cur, err := b.Document(context.Background(), "tenants")
	if err != nil || len(cur) != 1 {
		t.Fatalf("Document = %q, %v", cur, err)
	}
	for _, c := range []struct {
		old  []byte
		want bool
	}{{[]byte("stale"), false}, {nil, false}, {cur, true}} {
		if ok, err := a.SwapDocument(context.Background(), "tenants", c.old, []byte("next")); err != nil || ok != c.want {
			t.Errorf("SwapDocument(old %q) = %v, %v; want %v", c.old, ok, err, c.want)
		}
	}
	if doc, _ := b.Document(context.Background(), "tenants"); string(doc) != "next" {
		t.Errorf("after the swap: %q, want next", doc)
	}
}
