package webapp

import (
	"context"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/internal/pgtest"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/tenant"
)

// TestSendWithPostgresJournal: the page works the same on a journal in
// PostgreSQL (issue 12): a send waits for no file lock but takes the
// tenant's lease, so a run of the same tenant on another machine keeps it
// out (and nothing is sent), and once that run ends the page sends, a
// second send sends nothing, and the entries are in the shared journal.
func TestSendWithPostgresJournal(t *testing.T) {
	pg, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop() })
	ctx := context.Background()
	url, err := pg.NewDatabase(ctx, "page")
	if err != nil {
		t.Fatal(err)
	}
	url += "&lease_ttl=2s"
	b := newBed(t, bedOptions{journalURL: url})
	id := struct{ ID string }{tenant.SandboxID(b.sb.Server.InstanceID(), sendrules.Production)}

	// Another machine's run of the same tenant holds its lease.
	other, err := pgjournal.Open(ctx, url, pgjournal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	letGo, err := other.Acquire(ctx, id.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	job := b.srv.jobOf(strings.TrimPrefix(page, "/u/"))
	job.mu.Lock()
	failed := job.failed.In("es")
	job.mu.Unlock()
	if !strings.Contains(failed, "otra ejecución de nxbatch está enviando para esta empresa") {
		t.Errorf("send under another machine's lease: %q, want the page to say it was kept out", failed)
	}
	if n := len(b.sb.Server.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers created under another machine's lease", n)
	}

	if err := letGo(); err != nil {
		t.Fatal(err)
	}
	b.send(page)
	b.waitSent(page)
	if n := len(b.sb.Server.State().Vouchers); n != 4 {
		t.Fatalf("%d vouchers, want the 4 sales", n)
	}
	b.send(page)
	b.waitSent(page)
	if n := len(b.sb.Server.State().Vouchers); n != 4 {
		t.Errorf("%d vouchers after a second send, want still 4", n)
	}
	entries, err := other.List(context.Background(), journal.OK)
	if err != nil || len(entries) != 4 {
		t.Errorf("the shared journal holds %d ok entries (%v), want the 4 sales", len(entries), err)
	}
	for _, e := range entries {
		// What a later `nxbatch reconcile` narrows by, kept with the attempt.
		if f, ok := reconcile.JournalFacts(e); !ok || f.Total == nil {
			t.Errorf("%s was sent from the page without its facts (%q)", e.Key, e.Facts)
		}
	}
	// The page let go of the lease: the other machine can take it again.
	if release, err := other.Acquire(ctx, id.ID, 0); err != nil {
		t.Errorf("the page kept the tenant's lease after its send: %v", err)
	} else if err := release(); err != nil {
		t.Error(err)
	}
}
