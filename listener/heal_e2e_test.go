package listener_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/nxbatch/nxbatch/listener"
)

// lockedBuffer collects a child's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestListenHealsAfterDiskFull runs the real `nxbatch listen` and fills its
// disk for real: the test lowers the running process's file size limit
// (prlimit on RLIMIT_FSIZE, no root needed; writes past it fail with EFBIG
// since Go ignores SIGXFSZ), then raises it again. listen stays up,
// answers 503 while it cannot store (the ERP does not resend, so these are
// counted), cuts the partial record off the log, and stores the next event
// after the space comes back, without a restart; its log says all of it
// in Spanish, and stock export reports the refused events.
func TestListenHealsAfterDiskFull(t *testing.T) {
	bin := nxbatchBin(t)
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	cmd := exec.Command(bin, "listen", "--addr", "127.0.0.1:0", "--store", store)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	first, err := bufio.NewReader(stdout).ReadString('\n')
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(first)
	if err != nil || url == "" {
		t.Fatalf("listen did not start: %q %v\n%s", first, err, stderr.String())
	}
	go io.Copy(io.Discard, stdout)

	post := func(i int) int {
		body := fmt.Sprintf(`[{"articuloId":%d,"codigo":"ART-%d-%s","unidades":%d}]`, i, i, strings.Repeat("x", 60), i)
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatalf("event %d: %v (listen must stay up)", i, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	logPath := filepath.Join(store, listener.LogFile)
	size := func() int64 {
		fi, err := os.Stat(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	pid := cmd.Process.Pid
	var lim unix.Rlimit
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, nil, &lim); err != nil {
		t.Fatalf("read listen's file size limit: %v", err)
	}
	setLimit := func(soft uint64) {
		t.Helper()
		if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: min(soft, lim.Max), Max: lim.Max}, nil); err != nil {
			t.Fatalf("set listen's file size limit: %v", err)
		}
	}

	steps := []struct {
		name   string
		events []int
		before func()
		want   int
	}{
		{"stored while there is room", []int{1, 2, 3, 4, 5, 6, 7, 8}, nil, http.StatusOK},
		// Room for part of the next record only: the write is cut short.
		{"refused once the disk is full", []int{9, 10, 11}, func() { setLimit(uint64(size()) + 40) }, http.StatusServiceUnavailable},
		{"stored again once there is room, without a restart", []int{12, 13}, func() { setLimit(lim.Cur) }, http.StatusOK},
	}
	var good int64
	for _, st := range steps {
		if st.before != nil {
			st.before()
		}
		for _, i := range st.events {
			if got := post(i); got != st.want {
				t.Fatalf("%s: event %d answered %d, want %d\n%s", st.name, i, got, st.want, stderr.String())
			}
			if st.want != http.StatusOK && size() != good {
				t.Fatalf("%s: the log has %d bytes after the refusal, want its last good %d", st.name, size(), good)
			}
		}
		good = size()
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("listen exited with %v\n%s", err, stderr.String())
	}
	logText := stderr.String()
	for _, want := range []string{
		"No se puede guardar en el disco: se responde 503",
		"file too large", // the cause, as the system gives it
		"Eventos rechazados (503) por no poder guardarlos: 1 ahora, 3 desde que el disco dejó de aceptar escrituras",
		"El disco vuelve a aceptar escrituras: se reanuda la recepción. Eventos rechazados: 3,",
		"eventos del ERP rechazados: 3 (no guardados: 3;",
	} {
		if !strings.Contains(logText, want) {
			t.Errorf("listen's output lacks %q:\n%s", want, logText)
		}
	}

	// Every record in the log is whole: events 1-8, 12 and 13 as 1-10.
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for i, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var ev listener.Event
		if err := json.Unmarshal(line, &ev); err != nil || ev.Seq != int64(i+1) {
			t.Fatalf("log line %d is not a whole event: %v %q", i+1, err, line)
		}
		var recs []struct{ ArticuloID int64 }
		json.Unmarshal(ev.Body, &recs)
		ids = append(ids, recs[0].ArticuloID)
	}
	if fmt.Sprint(ids) != "[1 2 3 4 5 6 7 8 12 13]" {
		t.Fatalf("the log holds articles %v", ids)
	}

	// stock export says the refused events call for a resync.
	out := filepath.Join(dir, "stock.csv")
	export := exec.Command(bin, "stock", "export", out, "--store", store)
	export.Dir = dir
	res, err := export.CombinedOutput()
	if err != nil {
		t.Fatalf("stock export: %v\n%s", err, res)
	}
	if !strings.Contains(string(res), "eventos del ERP rechazados: 3") || !strings.Contains(string(res), "resincronización completa") {
		t.Errorf("stock export does not report the refused events:\n%s", res)
	}
	if lines := countLines(t, out); lines != 11 {
		t.Errorf("the export has %d lines, want a header and 10 articles", lines)
	}
}
