// Package release holds how nxbatch is shipped: the cross-compiled builds
// (build.sh, run by .ci/run) and the service unit for a shared office
// machine, which this test has systemd check.
package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestServiceUnitVerifies has systemd-analyze verify the unit, with the
// binary it starts built where ExecStart says: any complaint (an unknown
// key, a missing binary, a bad value) fails, not only an error exit.
func TestServiceUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is missing: install Debian's systemd package (apt-get install systemd)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "nxbatch")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/nxbatch").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	unit, err := os.ReadFile("nxbatch-serve.service")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(unit), "ExecStart=/usr/local/bin/nxbatch serve") {
		t.Fatalf("the unit does not start /usr/local/bin/nxbatch serve:\n%s", unit)
	}
	path := filepath.Join(dir, "nxbatch-serve.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), "/usr/local/bin/nxbatch", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The flags it starts serve with are serve's own.
	args := strings.Fields(strings.SplitN(strings.SplitN(string(unit), "ExecStart=", 2)[1], "\n", 2)[0])
	help, err := exec.Command(bin, "serve", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("serve --help: %v\n%s", err, help)
	}
	for _, a := range args[2:] {
		if name, _, _ := strings.Cut(a, "="); strings.HasPrefix(name, "--") && !strings.Contains(string(help), name+"=") && !strings.Contains(string(help), name+" ") {
			t.Errorf("the unit passes %s, which serve does not take", name)
		}
	}
}
