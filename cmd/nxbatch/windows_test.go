package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// copySamples copies the README's sample files into dir.
func copySamples(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "samples", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// windowsOf returns the rate windows a bbolt journal keeps, by name.
func windowsOf(t *testing.T, path string) map[string][]journal.Mark {
	t.Helper()
	j, err := boltjournal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	out := map[string][]journal.Mark{}
	err = j.Export(context.Background(), func(r journal.Record) error {
		if r.Window != nil {
			out[r.Window.Name] = append(out[r.Window.Name], *r.Window)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSandboxRunTakesNoParameterWindow runs the README's first command:
// the embedded sandbox answers its tenant and its catalogs in-process, so
// the run reads no parameter endpoint over HTTP and takes no parameter
// window (every HTTP read of one reserves it in the journal), and never
// waits for one.
func TestSandboxRunTakesNoParameterWindow(t *testing.T) {
	dir := t.TempDir()
	files := []string{"ventas.csv", "facturar.csv", "stock.csv", "demo.xlsx"}
	copySamples(t, dir, files...)
	jr := filepath.Join(dir, "state", "journal")
	args := append([]string{"run", "--sandbox", "--time-scale", "0.01", "--journal", jr, "--no-xlsx"}, files...)
	code, out, errOut := runCLI(t, dir, args...)
	if code != exitOK {
		t.Fatalf("run --sandbox: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"medios-pago: tomado del sandbox embebido", "motivos: tomado del sandbox embebido"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("run --sandbox does not say %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "nunca se consultó") {
		t.Errorf("run --sandbox waited for a catalog:\n%s", errOut)
	}
	if w := windowsOf(t, jr)[catalog.WindowName]; len(w) != 0 {
		t.Errorf("run --sandbox took the parameter window: %+v", w)
	}
}

// TestFirstRunWaitsForItsCatalog: against an API (a sandbox of its own,
// not embedded) with an empty state folder, GET /config takes the
// parameter window; run then waits for the window to read the catalog its
// stock file needs, saying so in the run's language, instead of sending
// unchecked ids; validate does not wait and says the ids are unchecked.
// The sandbox refuses a read inside the window, as the API does: none is.
func TestFirstRunWaitsForItsCatalog(t *testing.T) {
	tests := []struct {
		name        string
		args        []string
		want        string
		wantMotivos map[int]int
	}{
		{"run waits, in Spanish", []string{"run", "--no-xlsx"},
			"motivos: nunca se consultó para esta empresa y sin él no se pueden verificar los ids", map[int]int{200: 1}},
		{"run waits, in English", []string{"run", "--no-xlsx", "--lang", "en"},
			"motivos: never fetched for this company, and without it the ids cannot be checked", map[int]int{200: 1}},
		{"validate does not wait", []string{"validate", "--no-xlsx"},
			"y no hay copia guardada: sus ids no se verifican localmente en esta ejecución", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: 0.01}, "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Close()
			dir := t.TempDir()
			copySamples(t, dir, "stock.csv")
			tok := filepath.Join(dir, "token")
			if err := os.WriteFile(tok, []byte(sandbox.DefaultToken), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append(tt.args, "--base-url", sb.URL, "--token-file", tok, "--time-scale", "0.01",
				"--journal", filepath.Join(dir, "state", "journal"), "stock.csv")
			code, out, errOut := runCLI(t, dir, args...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, errOut)
			}
			reqs := sb.Server.State().Requests
			if got, want := reqs["GET "+nxapi.PathConfig], map[int]int{200: 1}; !maps.Equal(got, want) {
				t.Errorf("/config answered %v, want %v", got, want)
			}
			if got := reqs["GET "+nxapi.PathMotivos]; !maps.Equal(got, tt.wantMotivos) {
				t.Errorf("/motivos answered %v, want %v", got, tt.wantMotivos)
			}
		})
	}
}
