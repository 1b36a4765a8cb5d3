package pgjournal_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestBatchIsOneTransaction: Begin sends the queued outcomes and the intent
// as one batch and counts on it being one implicit transaction (one Sync):
// a failing statement undoes the ones before it.
func TestBatchIsOneTransaction(t *testing.T) {
	_, url := newDB(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, `CREATE TABLE t (n integer PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO t VALUES (1)`)
	b.Queue(`INSERT INTO t VALUES (2)`)
	b.Queue(`INSERT INTO t VALUES (1)`) // fails
	if err := c.SendBatch(ctx, b).Close(); err == nil {
		t.Fatal("the batch with a failing statement succeeded")
	}
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rows after a failed batch (%v), want 0: the batch was not one transaction", n, err)
	}
}
