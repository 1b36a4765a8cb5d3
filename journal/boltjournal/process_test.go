package boltjournal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// The tests below re-run this test binary as a second process (the helper)
// selected by these environment variables.
const (
	helperEnv = "NXBATCH_JOURNAL_HELPER" // "hold" or "crash"
	pathEnv   = "NXBATCH_JOURNAL_PATH"
	crashKeys = 6
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		if err := helper(mode, os.Getenv(pathEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper is the second process. "hold" keeps the journal open until its
// stdin is closed. "crash" begins crashKeys keys, finishes the even ones,
// and kills itself with SIGKILL: no Close, no deferred code, like kill -9.
func helper(mode, path string) error {
	j, err := Open(path, journal.Options{})
	if err != nil {
		return err
	}
	switch mode {
	case "hold":
		stop, err := j.ServeListing()
		if err != nil {
			return err
		}
		k := journal.Key{Tenant: "t", Kind: "venta", Business: "held"}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "child"}); err != nil {
			return err
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		stop()
		return j.Close()
	case "crash":
		for i := range crashKeys {
			k := crashKey(i)
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "child", Hold: testHold}); err != nil {
				return err
			}
			if i%2 == 0 {
				if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: int64(1000 + i), Numero: int64(i), PVNumero: 3, Message: ""}); err != nil {
					return err
				}
			}
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal ends the process
	}
	return fmt.Errorf("unknown mode %q", mode)
}

func crashKey(i int) journal.Key {
	return journal.Key{Tenant: "t", Kind: "venta", Business: fmt.Sprintf("ORD-%d", i)}
}

func helperCmd(t *testing.T, mode, path string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, pathEnv+"="+path)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestSecondProcessIsLockedOut(t *testing.T) {
	path := t.TempDir() + "/journal"
	child := helperCmd(t, "hold", path)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("helper said %q, %v; want ready", line, err)
	}

	// While it holds the journal, the holder answers listings.
	listed, err := ListRunning(context.Background(), path, "")
	if err != nil || len(listed) != 1 || listed[0].Key != (journal.Key{Tenant: "t", Kind: "venta", Business: "held"}) || listed[0].State != journal.Sending {
		t.Errorf("ListRunning while held = %+v, %v; want the holder's one sending entry", listed, err)
	}
	if fi, err := os.Stat(path + ".sock"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("listing socket: %v, %v; want owner-only", fi, err)
	}

	j, err := Open(path, journal.Options{})
	if !errors.Is(err, journal.ErrLocked) {
		if j != nil {
			j.Close()
		}
		t.Fatalf("Open while another process holds the journal = %v, want ErrLocked", err)
	}
	var me *msg.Error
	if !errors.As(err, &me) || me.Msg.In(msg.ES) != "Otra ejecución de nxbatch está usando el diario "+path+": espere a que termine o deténgala, y vuelva a intentar" {
		t.Errorf("locked error does not name the file and what to do: %v", err)
	}

	// A waiting Open gets the journal once the other process lets go.
	opened := make(chan error, 1)
	go func() {
		j, err := Open(path, journal.Options{LockTimeout: -1})
		if err == nil {
			err = j.Close()
		}
		opened <- err
	}()
	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	if err := <-opened; err != nil {
		t.Errorf("waiting Open after the other process exited: %v", err)
	}
	j, err = Open(path, journal.Options{})
	if err != nil {
		t.Fatalf("Open after the other process exited: %v", err)
	}
	j.Close()
	if _, err := ListRunning(context.Background(), path, ""); !errors.Is(err, ErrNoListing) {
		t.Errorf("ListRunning with no run = %v, want ErrNoListing", err)
	}
}

func TestKilledRunLeavesInFlightKeysUnknown(t *testing.T) {
	path := t.TempDir() + "/journal"
	err := helperCmd(t, "crash", path).Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper ended with %v, want killed by SIGKILL", err)
	}
	j, err := Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for i := range crashKeys {
		got := mustGet(t, j, crashKey(i))
		want := journal.Entry{State: journal.Unknown, Message: "en curso cuando se detuvo la ejecución anterior"}
		if i%2 == 0 {
			want = journal.Entry{State: journal.OK, FacturaID: int64(1000 + i), Numero: int64(i), PVNumero: 3}
		}
		if got.State != want.State || got.Message != want.Message || got.FacturaID != want.FacturaID ||
			got.Numero != want.Numero || got.PVNumero != want.PVNumero || got.Attempts != 1 {
			t.Errorf("%s after kill -9 = %+v, want %+v with 1 attempt", crashKey(i), got, want)
		}
	}
	// Unknown keys are never sent again automatically.
	if _, err := j.Begin(context.Background(), crashKey(1), journal.Intent{BodyHash: "h", Source: "", Hold: testHold}); !errors.Is(err, journal.ErrNotSendable) {
		t.Errorf("Begin of an interrupted key = %v, want ErrNotSendable", err)
	}
}
