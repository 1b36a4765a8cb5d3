package listener

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// fsizeChildEnv marks the re-executed test binary that runs under a file
// size limit: the limit is the process's own, so it must not be the test
// process running everything else.
const fsizeChildEnv = "NXBATCH_LISTENER_FSIZE_CHILD"

// TestProbeResumesWithoutAnEvent fills the "disk" for real, with a file
// size limit (RLIMIT_FSIZE: writes past it fail with EFBIG, which Go gets
// as an error because its runtime ignores SIGXFSZ), then lifts it: the
// store refuses events while it cannot write, leaves no partial record in
// the log, and its periodic probe finds out by itself, on a fake clock,
// that it can write again, without an event and without a restart. The
// limit applies to the whole process, so the test runs itself again as a
// child that does only this.
func TestProbeResumesWithoutAnEvent(t *testing.T) {
	if os.Getenv(fsizeChildEnv) == "1" {
		probeChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestProbeResumesWithoutAnEvent$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), fsizeChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestProbeResumesWithoutAnEvent")) {
		t.Fatalf("the child under a file size limit failed: %v\n%s", err, out)
	}
	t.Logf("child:\n%s", out)
}

// setFileSizeLimit sets this process's soft RLIMIT_FSIZE (the hard limit
// stays, so it can be raised again without privileges).
func setFileSizeLimit(t *testing.T, soft uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	lim.Cur = min(soft, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
}

func probeChild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		var logs syncBuffer
		const probe = 5 * time.Second
		s, err := Open(dir, Options{ProbeEvery: probe, SnapshotEvery: time.Hour, Log: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		event := func(i int) []byte {
			return fmt.Appendf(nil, `[{"articuloId":%d,"codigo":"%s","unidades":%d}]`, i, strings.Repeat("x", 40), i)
		}
		for i := 1; i <= 10; i++ {
			if _, err := s.Append(event(i)); err != nil {
				t.Fatal(err)
			}
		}
		logPath := filepath.Join(dir, LogFile)
		good := fileSize(t, logPath)

		// Room for part of one more line: the write is cut short.
		setFileSizeLimit(t, uint64(good)+30)
		for i := 11; i <= 13; i++ {
			if _, err := s.Append(event(i)); !errors.Is(err, ErrUnavailable) || !errors.Is(err, syscall.EFBIG) {
				t.Fatalf("event %d with the disk full: %v, want ErrUnavailable from EFBIG", i, err)
			}
			if size := fileSize(t, logPath); size != good {
				t.Fatalf("after a failed write the log has %d bytes, want its last good %d", size, good)
			}
		}
		if s.Unavailable() == nil {
			t.Fatal("the store says it can write while it cannot")
		}

		// Space comes back; no event arrives. Before the probe's time the
		// store does not know yet; at it, it finds out.
		setFileSizeLimit(t, ^uint64(0))
		time.Sleep(probe - time.Millisecond)
		synctest.Wait()
		if s.Unavailable() == nil {
			t.Fatal("the store resumed before its probe")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if err := s.Unavailable(); err != nil {
			t.Fatalf("the probe did not find the disk writable again: %v", err)
		}
		if size := fileSize(t, logPath); size != good {
			t.Fatalf("the probe left %d bytes in the log, want %d", size, good)
		}
		healed := msg.New("lst.log.healed", 3, t0.Format(time.DateTime)).In(msg.ES)
		healed = healed[:strings.Index(healed, "3")] // the fixed start of the message
		if !strings.Contains(logs.String(), healed) || !strings.Contains(logs.String(), "Eventos rechazados: 3,") {
			t.Fatalf("the log does not say receiving resumed after 3 refusals:\n%s", logs.String())
		}

		// Events are stored again, numbered on from the last good one.
		ev, err := s.Append(event(14))
		if err != nil || ev.Seq != 11 {
			t.Fatalf("after the probe: %+v %v, want event 11 stored", ev, err)
		}
		if r := s.Refusals(); r.Unstored != 3 || r.Total() != 3 {
			t.Fatalf("refusals %+v, want 3 unstored", r)
		}
		if err := s.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		checkLog(t, logPath, 11)
	})
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// checkLog fails t unless the log at path is n whole events numbered 1 to
// n, each line JSON.
func checkLog(t *testing.T, path string, n int64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		t.Fatalf("the log ends in a partial line: %q", b[max(0, len(b)-60):])
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 8<<20)
	var seq int64
	for sc.Scan() {
		ev, err := parseLine(append(sc.Bytes(), '\n'))
		if err != nil || ev.Seq != seq+1 {
			t.Fatalf("log line %d: %+v %v", seq+1, ev, err)
		}
		seq = ev.Seq
	}
	if seq != n {
		t.Fatalf("the log holds %d events, want %d", seq, n)
	}
}
