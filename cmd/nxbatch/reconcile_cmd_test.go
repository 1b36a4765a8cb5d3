package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/reconcile"
	"github.com/nxbatch/nxbatch/sandbox"
)

// listEntries reads the journal at path.
func listEntries(t *testing.T, path string) []journal.Entry {
	t.Helper()
	j, err := boltjournal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	all, err := j.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestReconcileCommand: after a run against a faulty API, `reconcile
// --dry-run` prints decisions and writes nothing; `reconcile` writes every
// one with its evidence, each agreeing with what the sandbox holds; `journal
// list` shows the evidence; a third reconciliation has nothing to do.
func TestReconcileCommand(t *testing.T) {
	const scale = "0.01"
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: 0.01, Fail500: 0.15, DropAfter: 0.15, Seed: 3}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte(sandbox.DefaultToken), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(saleHeader)
	for o := 1; o <= 40; o++ {
		fmt.Fprintf(&b, "%d,c%d@example.com,105,1500,1,1500,0,0,0,1500,EFECTIVO\n", o, o)
	}
	if err := os.WriteFile(filepath.Join(dir, "ventas.csv"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	jr := filepath.Join(dir, "state", "journal")
	conn := []string{"--base-url", sb.URL, "--token-file", tok, "--time-scale", scale, "--journal", jr}

	code, out, errOut := runCLI(t, dir, append([]string{"run", "--no-xlsx", "--rate", "0", "ventas.csv"}, conn...)...)
	if code != exitUnknown {
		t.Fatalf("run: exit %d, want 3\n%s\n%s", code, out, errOut)
	}
	unknown := 0
	for _, e := range listEntries(t, jr) {
		if e.State == journal.Unknown {
			unknown++
		}
	}
	if unknown == 0 {
		t.Fatal("no unknown outcome: pick another seed")
	}
	time.Sleep(400 * time.Millisecond) // the key hold, 30 s × 0.01

	code, out, errOut = runCLI(t, dir, append([]string{"reconcile", "--dry-run", "--settle-after", "1s"}, conn...)...)
	if code != exitOK || strings.Count(out, " → ") != unknown || !strings.Contains(out, "--dry-run") {
		t.Fatalf("dry run: exit %d, want every one of %d unknowns decided\n%s\n%s", code, unknown, out, errOut)
	}
	for _, e := range listEntries(t, jr) {
		if e.Evidence != "" || e.State == journal.Failed {
			t.Errorf("the dry run wrote %s: %s", e.Key, e.State)
		}
	}

	code, out, errOut = runCLI(t, dir, append([]string{"reconcile", "--settle-after", "1s", "--lang", "en"}, conn...)...)
	if code != exitOK || !strings.Contains(out, fmt.Sprintf("decisions written to the journal with their evidence: %d", unknown)) || !strings.Contains(out, "least the API's windows allow") {
		t.Fatalf("reconcile: exit %d\n%s\n%s", code, out, errOut)
	}
	vouchers := map[string]int64{}
	for _, v := range sb.Server.State().Vouchers {
		vouchers[fmt.Sprint(v.OrdenID)] = v.FacturaID
	}
	for _, e := range listEntries(t, jr) {
		switch {
		case e.State == journal.Unknown:
			t.Errorf("%s stayed unknown", e.Key)
		case e.State == journal.OK && e.FacturaID != vouchers[e.Key.Business]:
			t.Errorf("%s ok with facturaId %d, the sandbox has %d", e.Key, e.FacturaID, vouchers[e.Key.Business])
		case e.State == journal.Failed && (vouchers[e.Key.Business] != 0 || e.Evidence == ""):
			t.Errorf("%s failed, but the sandbox has voucher %d (evidence %q)", e.Key, vouchers[e.Key.Business], e.Evidence)
		}
	}

	code, out, _ = runCLI(t, dir, "journal", "list", "--journal", jr, "--format", "csv")
	recs, err := csv.NewReader(bytes.NewReader([]byte(out))).ReadAll()
	if code != exitOK || err != nil || recs[0][len(recs[0])-1] != "evidence" {
		t.Fatalf("journal list csv: exit %d, %v, header %v", code, err, recs[0])
	}
	withEvidence := 0
	for _, r := range recs[1:] {
		if strings.Contains(r[len(r)-1], `"rule":"venta.`) {
			withEvidence++
		}
	}
	if withEvidence != unknown {
		t.Errorf("%d listed entries carry evidence, want %d", withEvidence, unknown)
	}
	if code, out, _ = runCLI(t, dir, "journal", "list", "--journal", jr, "--evidence"); code != exitOK || strings.Count(out, `{"rule":`) != unknown {
		t.Errorf("journal list --evidence: exit %d\n%s", code, out)
	}

	if code, out, _ = runCLI(t, dir, append([]string{"reconcile"}, conn...)...); code != exitOK || !strings.Contains(out, "no hay solicitudes") {
		t.Errorf("third reconciliation: exit %d\n%s", code, out)
	}
}

// TestRunReconcilePresales: run --reconcile settles the run's own unknown
// presales once the key hold has passed: the reports say ok with the ids
// for a lost answer, pending for a 500 (the next run sends it), and the run
// exits 1 because rows are left for the next run.
func TestRunReconcilePresales(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("facturaId,puntoVentaId,electronica,medioPago.tipo\n")
	for id := 1001; id <= 1012; id++ {
		fmt.Fprintf(&b, "%d,1,no,EFECTIVO\n", id)
	}
	if err := os.WriteFile(filepath.Join(dir, "pres.csv"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	jr := filepath.Join(dir, "state", "journal")
	code, out, errOut := runCLI(t, dir, "run", "--sandbox", "--sandbox-fail-500", "0.25", "--sandbox-drop-after", "0.25",
		"--sandbox-seed", "1", "--time-scale", "0.01", "--journal", jr, "--no-xlsx", "--reconcile", "pres.csv")
	if code != exitRowProblems {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "pres.result.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	byState := map[string]int{}
	for _, rec := range recs[1:] {
		st, m := rec[col["result.status"]], rec[col["result.message"]]
		byState[st]++
		reconciled := strings.Contains(m, "conciliado después del envío")
		switch {
		case st == "pending" && !reconciled:
			t.Errorf("presale %s pending: %s", rec[0], m)
		case reconciled && st == "ok" && rec[col["result.facturaId"]] != rec[0]:
			t.Errorf("presale %s reconciled ok with facturaId %s", rec[0], rec[col["result.facturaId"]])
		case st == "unknown":
			t.Errorf("presale %s stayed unknown: %s", rec[0], m)
		}
	}
	if byState["pending"] == 0 || !strings.Contains(out, "→ ok") {
		t.Errorf("statuses %v; want some presales reconciled ok and some pending: pick another seed\n%s", byState, out)
	}
}

func TestReconcileUsage(t *testing.T) {
	dir := t.TempDir()
	tests := [][]string{
		{"reconcile", "--since", "yesterday-ish", "--base-url", "http://127.0.0.1:1"},
		{"reconcile", "--kind", "pedido", "--base-url", "http://127.0.0.1:1"},
		{"reconcile", "--settle-after", "-1m", "--base-url", "http://127.0.0.1:1"},
	}
	for _, args := range tests {
		if code, _, errOut := runCLI(t, dir, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d (%q), want a usage error", args, code, errOut)
		}
	}
}

// TestReconcileReadsTheSalesBranch: a run journals each sale's facts; a
// standalone `reconcile` (another process, knowing only the journal) then
// learns the branch of the sales' point of sale from /puntos-venta and
// reads that branch's export alone. The same journal without the facts
// (as nxbatch wrote it before it kept them) has it read every enabled
// branch. Every sale's answer is lost after the API created it, so both
// find them all; the demo data enables branches 1 and 2, and point of sale
// 2 is branch 2's. The API's windows are scaled to a ten-thousandth.
func TestReconcileReadsTheSalesBranch(t *testing.T) {
	const scale = "0.0001"
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: 0.0001, DropAfter: 1, Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte(sandbox.DefaultToken), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("ordenId,usuario.email,puntoVentaId,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for o := 1; o <= 3; o++ {
		fmt.Fprintf(&b, "%d,c%d@example.com,2,105,1500,1,1500,0,0,0,1500,EFECTIVO\n", o, o)
	}
	if err := os.WriteFile(filepath.Join(dir, "ventas.csv"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	jr := filepath.Join(dir, "state", "journal")
	conn := func(journal string) []string {
		return []string{"--base-url", sb.URL, "--token-file", tok, "--time-scale", scale, "--journal", journal, "--lang", "en"}
	}
	if code, out, errOut := runCLI(t, dir, append([]string{"run", "--no-xlsx", "--rate", "0", "ventas.csv"}, conn(jr)...)...); code != exitUnknown {
		t.Fatalf("run: exit %d, want 3\n%s\n%s", code, out, errOut)
	}

	// The journal as it was before it kept facts: a copy without them.
	old := filepath.Join(dir, "old", "journal")
	withoutFacts(t, jr, old)

	// The key hold is 3 ms here; a reconciliation started inside it plans
	// nothing and says so: start again (no sleep).
	reconcileOf := func(journal string, extra ...string) string {
		t.Helper()
		for range 50 {
			code, out, errOut := runCLI(t, dir, append(append([]string{"reconcile"}, extra...), conn(journal)...)...)
			if strings.Contains(out, "the API holds the key") {
				continue
			}
			if code != exitOK {
				t.Fatalf("reconcile %s: exit %d\n%s\n%s", journal, code, out, errOut)
			}
			return out
		}
		t.Fatalf("reconcile %s: still inside the key hold", journal)
		return ""
	}
	readsOf := func(out string) string {
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "reads: ") && strings.Contains(line, " of the export and ") { // the reads made, not the plan
				return line
			}
		}
		t.Fatalf("no reads line:\n%s", out)
		return ""
	}
	before := readsOf(reconcileOf(old, "--dry-run"))
	after := readsOf(reconcileOf(jr))
	t.Logf("journal without facts: %s", before)
	t.Logf("journal with facts:    %s", after)
	if !strings.HasPrefix(before, "reads: 2 of the export and 3 of GET /comprobante") {
		t.Errorf("without facts: %q, want both branches' exports and the 3 vouchers", before)
	}
	if !strings.HasPrefix(after, "reads: 1 of the export and 3 of GET /comprobante") {
		t.Errorf("with facts: %q, want branch 2's export alone and the 3 vouchers", after)
	}
	vouchers := map[string]int64{}
	for _, v := range sb.Server.State().Vouchers {
		vouchers[fmt.Sprint(v.OrdenID)] = v.FacturaID
	}
	for _, e := range listEntries(t, jr) {
		var ev reconcile.Evidence
		if err := json.Unmarshal([]byte(e.Evidence), &ev); err != nil || e.State != journal.OK || e.FacturaID != vouchers[e.Key.Business] {
			t.Errorf("%s: %s %d (%v), want ok with the sandbox's %d", e.Key, e.State, e.FacturaID, err, vouchers[e.Key.Business])
			continue
		}
		for _, x := range ev.Exports {
			if x.SucursalID != 2 {
				t.Errorf("%s rests on branch %d's export, want branch 2's only", e.Key, x.SucursalID)
			}
		}
	}
}

// withoutFacts copies the bbolt journal at from to a new one at to, every
// entry without its facts.
func withoutFacts(t *testing.T, from, to string) {
	t.Helper()
	src, err := boltjournal.Open(from, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := boltjournal.Open(to, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	var recs []journal.Record
	err = src.Export(context.Background(), func(r journal.Record) error {
		if r.Entry != nil {
			if r.Entry.Facts == "" {
				return fmt.Errorf("%s has no facts to leave out", r.Entry.Key)
			}
			r.Entry.Facts = ""
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dst.Import(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
}
