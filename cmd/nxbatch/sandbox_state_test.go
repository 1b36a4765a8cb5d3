package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sandboxFile is what the test reads of the embedded sandbox's state file.
type sandboxFile struct {
	Instance    string            `json:"instance"`
	Vouchers    []json.RawMessage `json:"vouchers"`
	NextFactura int64             `json:"nextFactura"`
}

func readSandboxFile(t *testing.T, path string) sandboxFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the sandbox's state file: %v", err)
	}
	var f sandboxFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("the sandbox's state file: %v", err)
	}
	return f
}

// TestRunSandboxTwice: the embedded sandbox keeps its state in the state
// folder, so a second run --sandbox (another process, another sandbox)
// sends nothing and what the user is told ("ya enviadas antes") is what
// the sandbox holds.
func TestRunSandboxTwice(t *testing.T) {
	dir := t.TempDir()
	input, err := filepath.Abs(filepath.Join("..", "..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--sandbox", "--time-scale", "0.01", "--no-xlsx", "--report-dir", filepath.Join(dir, "r"), input}
	state := filepath.Join(dir, "state", "nxbatch", "sandbox", "production.json")

	code, out, errs := nxcli(t, dir, args...)
	if code != 0 || !strings.Contains(out, "a enviar: 4 solicitudes") {
		t.Fatalf("first run: exit %d, want 4 requests sent\n%s%s", code, out, errs)
	}
	first := readSandboxFile(t, state)
	if len(first.Vouchers) != 4 {
		t.Fatalf("the sandbox's state file holds %d vouchers after the first run, want 4", len(first.Vouchers))
	}
	// The summary names the sandbox and its tenant, never a token.
	b, err := os.ReadFile(filepath.Join(dir, "r", "ventas.summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		API struct {
			BaseURL string `json:"baseUrl"`
			Tenant  string `json:"tenant"`
			Sandbox bool   `json:"sandbox"`
		} `json:"api"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if !sum.API.Sandbox || sum.API.Tenant != "sandbox-"+first.Instance+".production" || !strings.HasPrefix(sum.API.BaseURL, "http://127.0.0.1:") {
		t.Errorf("summary.json api = %+v; want the embedded sandbox, tenant sandbox-%s.production", sum.API, first.Instance)
	}

	code, out, errs = nxcli(t, dir, args...)
	if code != 0 || !strings.Contains(out, "a enviar: 0 solicitudes") || !strings.Contains(out, "6 ya enviadas antes") {
		t.Fatalf("second run: exit %d, want nothing sent and the 6 rows sent before\n%s%s", code, out, errs)
	}
	second := readSandboxFile(t, state)
	if second.Instance != first.Instance || len(second.Vouchers) != 4 || second.NextFactura != first.NextFactura {
		t.Errorf("after the second run the sandbox is %s with %d vouchers, next facturaId %d; want %s with the same 4 and %d",
			second.Instance, len(second.Vouchers), second.NextFactura, first.Instance, first.NextFactura)
	}

	// The state file deleted: a new, empty sandbox is a new tenant, so its
	// rows are sent to it, never called sent before.
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	code, out, errs = nxcli(t, dir, args...)
	if code != 0 || !strings.Contains(out, "a enviar: 4 solicitudes") || strings.Contains(out, "ya enviadas antes") {
		t.Fatalf("run after the state was deleted: exit %d, want the 4 requests sent to the new sandbox\n%s%s", code, out, errs)
	}
	if third := readSandboxFile(t, state); third.Instance == first.Instance || len(third.Vouchers) != 4 {
		t.Errorf("the new sandbox is %s with %d vouchers; want another instance with 4", third.Instance, len(third.Vouchers))
	}
}

// TestRunSandboxDamagedState: a state file the sandbox cannot read is
// not replaced; the run exits 2 naming it and saying what deleting it
// means.
func TestRunSandboxDamagedState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state", "nxbatch", "sandbox", "test.json")
	if err := os.MkdirAll(filepath.Dir(state), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, []byte("{roto"), 0o600); err != nil {
		t.Fatal(err)
	}
	input, err := filepath.Abs(filepath.Join("..", "..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := nxcli(t, dir, "run", "--sandbox", "--env", "test", "--time-scale", "0.01", "--no-xlsx",
		"--report-dir", filepath.Join(dir, "r"), input)
	if code != exitUsage || !strings.Contains(errs, state) || !strings.Contains(errs, "si lo borra") {
		t.Errorf("run over a damaged sandbox state: exit %d, want 2 naming %s\n%s%s", code, state, out, errs)
	}
	if b, _ := os.ReadFile(state); string(b) != "{roto" {
		t.Errorf("the damaged state file was changed: %q", b)
	}
}
