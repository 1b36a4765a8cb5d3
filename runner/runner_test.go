package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sandbox"
)

// load reads and validates a sample for sending.
func load(t *testing.T, name string) []*pipeline.File {
	t.Helper()
	f, err := pipeline.Load(filepath.Join("..", "samples", name), pipeline.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.Validate(nil, true)
	return []*pipeline.File{f}
}

// TestSendThenNothingThenReports: a send goes through the journal; the same
// file again sends nothing (every row skipped); an interrupted send leaves
// its rows pending and says why, in the reports too.
func TestSendThenNothingThenReports(t *testing.T) {
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: 0.01}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	client, err := apiclient.New(apiclient.Options{BaseURL: sb.URL, Token: apiclient.NewToken(sandbox.DefaultToken), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	j, err := boltjournal.Open(filepath.Join(dir, "journal"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	o := Options{Submit: pipeline.SubmitOptions{Tenant: "t", Workers: 2, TimeScale: 0.01}, BaseURL: sb.URL}

	var planned int
	o.Planned = func(n int, _ time.Duration) func(int) { planned = n; return nil }
	files := load(t, "ventas.csv")
	res, err := Submit(context.Background(), files, client, j, o)
	if err != nil || res.Stopped() || res.ToSend != 4 || planned != 4 || res.Sent != 4 {
		t.Fatalf("first send: %+v %v (planned %d)", res, err, planned)
	}

	again := load(t, "ventas.csv")
	res, err = Submit(context.Background(), again, client, j, o)
	rows, _ := again[0].Counts()
	if err != nil || res.ToSend != 0 || res.Sent != 0 || rows[pipeline.StatusSkipped] != 6 {
		t.Fatalf("second send: %+v %v rows %v", res, err, rows)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped := load(t, "facturar.csv")
	res, err = Submit(ctx, stopped, client, j, o)
	if err != nil || !res.Interrupted || !res.Stopped() || res.Why.Key != "sub.pending" || res.Said.Key != "run.interrupted" {
		t.Fatalf("interrupted send: %+v %v", res, err)
	}
	written, err := Report(stopped, res.Why, ReportOptions{ReportOptions: pipeline.ReportOptions{Dir: dir, Lang: msg.ES, Command: "run"}})
	if err != nil || len(written) != 1 || written[0].Rows[pipeline.StatusPending] == 0 || written[0].Paths.Summary == "" {
		t.Fatalf("reports of the interrupted send: %+v %v", written, err)
	}
}

func TestNeed(t *testing.T) {
	files := append(load(t, "ventas.csv"), load(t, "stock.csv")...)
	if n := Need(files); !n.MediosPago || !n.Motivos {
		t.Errorf("Need(venta+stock) = %+v", n)
	}
	if n := Need(load(t, "stock.csv")); n.MediosPago || !n.Motivos {
		t.Errorf("Need(stock) = %+v", n)
	}
}

// TestReportFailureLeavesTheOtherFilesReported: when one file's reports
// cannot be written (its folder is not writable), the other files of the
// run still get theirs: their rows were sent, and their reports are the
// only place that says with which ids.
func TestReportFailureLeavesTheOtherFilesReported(t *testing.T) {
	dir := t.TempDir()
	blocked := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	files := append(load(t, "ventas.csv"), load(t, "facturar.csv")...)
	names := map[string]pipeline.ReportName{
		files[0].Path: {Base: filepath.Join(blocked, "ventas")},
		files[1].Path: {Base: filepath.Join(dir, "facturar")},
	}
	written, err := Report(files, msg.Message{}, ReportOptions{Names: names,
		ReportOptions: pipeline.ReportOptions{Lang: msg.ES, Command: "run"}})
	var re *ReportError
	if !errors.As(err, &re) || re.Path != files[0].Path {
		t.Fatalf("Report error %v, want the first file's", err)
	}
	if len(written) != 1 || written[0].File != files[1] {
		t.Fatalf("written %+v, want the second file's reports", written)
	}
	for _, p := range append(written[0].Paths.CSV, written[0].Paths.Summary) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("second file's report: %v", err)
		}
	}
}
