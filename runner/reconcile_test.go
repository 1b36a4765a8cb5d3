package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
)

// TestSendFacts: run --reconcile narrows the search with what the run sent,
// and only for the body the entry's last attempt carried.
func TestSendFacts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "v.csv")
	data := "ordenId,usuario.email,usuario.dni,puntoVentaId,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
		"7,ana@example.com,30111222,2,105,1500,1,1500,0,0,0,1500,EFECTIVO\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := pipeline.Load(path, pipeline.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Validate(&validation.Catalog{}, true)
	r := f.Sheets[0].Requests[0]
	facts := SendFacts([]*pipeline.File{f})
	key := journal.Key{Tenant: "app1.production", Kind: "venta", Business: "7"}
	tests := []struct {
		name string
		e    journal.Entry
		want bool
	}{
		{"the body sent", journal.Entry{Key: key, BodyHash: r.Result().BodyHash}, true},
		{"an earlier body of the same ordenId", journal.Entry{Key: key, BodyHash: "other"}, false},
		{"a presale with that number", journal.Entry{Key: journal.Key{Tenant: key.Tenant, Kind: "facturar", Business: "7"}, BodyHash: r.Result().BodyHash}, false},
	}
	for _, tt := range tests {
		got, ok := facts(tt.e)
		if ok != tt.want {
			t.Errorf("%s: known %v, want %v", tt.name, ok, tt.want)
		}
		if ok && (got.Total == nil || got.Total.String() != "1500" || got.Email != "ana@example.com" || got.DNI != "30111222" || got.PuntoVentaID != 2) {
			t.Errorf("%s: facts %+v", tt.name, got)
		}
	}
}

// TestReconcile: sales whose answers were lost after the API created them
// (the sandbox drops every connection) stay unknown after the send;
// reconciliation reads them back: after the send (run --reconcile) the
// rows become ok with the sandbox's ids, and on its own it writes its
// decisions unless it is a dry run. A journal with nothing unknown has
// nothing to reconcile.
func TestReconcile(t *testing.T) {
	tests := []struct {
		name        string
		dropAfter   float64
		afterSend   bool
		dryRun      bool
		wantDecided int
		wantWritten int
		wantOKRows  int
	}{
		{name: "after the send", dropAfter: 1, afterSend: true, wantDecided: 4, wantWritten: 4, wantOKRows: 6},
		{name: "on its own", dropAfter: 1, wantDecided: 4, wantWritten: 4},
		{name: "a dry run", dropAfter: 1, dryRun: true, wantDecided: 4},
		{name: "nothing unknown", afterSend: true, wantOKRows: 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sb := startSandbox(t, sandbox.Options{DropAfter: tc.dropAfter, Seed: 1})
			var said []msg.Message
			cfg := sessionConfig(t, &said)
			cfg.Sandbox, cfg.Local = sb, localCatalogs{sb.Server}
			s, err := Connect(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			j, err := s.Open(false)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			b, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "ventas.csv")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			var rec Reconciled
			var recErr error
			holding := time.Duration(0)
			o := ReconcileOptions{Options: reconcile.Options{Timeout: 5 * time.Second}, CatalogTTL: time.Hour, DryRun: tc.dryRun,
				Progress: holdingRecorder{&holding}}
			sent := Send(context.Background(), s, j, SendOptions{Paths: []string{path}, CatalogTTL: time.Hour,
				Submit: pipeline.SubmitOptions{Workers: 2, Timeout: 5 * time.Second},
				Report: pipeline.ReportOptions{Dir: dir, Lang: msg.ES, Command: "run"},
				AfterSubmit: func(ctx context.Context, sent *Sent) {
					if tc.afterSend {
						rec, _, recErr = ReconcileAfterSend(ctx, s, j, sent.Files, o)
					}
				}})
			if sent.NotStarted != nil || sent.Stopped() {
				t.Fatalf("send: %+v", sent)
			}
			if !tc.afterSend {
				// Planned as a minute later: the key hold of the send's
				// attempts is over, without waiting for it.
				o.Now = func() time.Time { return time.Now().Add(time.Minute) }
				rec, recErr = Reconcile(context.Background(), s, j, o)
			} else if holding != s.Scaled(sendrules.KeyHold) {
				t.Errorf("held %v, want the key hold %v", holding, s.Scaled(sendrules.KeyHold))
			}
			if recErr != nil {
				t.Fatal(recErr)
			}
			decided := 0
			if rec.Result != nil {
				decided = len(rec.Result.Decisions)
			}
			if decided != tc.wantDecided || rec.Written != tc.wantWritten {
				t.Errorf("%d decided, %d written, want %d and %d", decided, rec.Written, tc.wantDecided, tc.wantWritten)
			}
			unknown, err := j.List(context.Background(), journal.Unknown)
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.wantDecided - tc.wantWritten; len(unknown) != want {
				t.Errorf("%d entries still unknown, want %d", len(unknown), want)
			}
			if tc.afterSend {
				if got := sent.Written[0].Rows[pipeline.StatusOK]; got != tc.wantOKRows {
					t.Errorf("reports: %v, want %d rows ok", sent.Written[0].Rows, tc.wantOKRows)
				}
			}
		})
	}
}

// holdingRecorder keeps the key hold a reconciliation after a send waited.
type holdingRecorder struct{ d *time.Duration }

func (h holdingRecorder) Holding(d time.Duration)                 { *h.d = d }
func (h holdingRecorder) Waiting(sendrules.Window, time.Duration) {}
func (h holdingRecorder) Planned(*reconcile.Plan)                 {}
