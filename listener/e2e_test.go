package listener_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// The end-to-end test runs the real binary: webhooks set, listen, run and
// stock export, against an in-process sandbox.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func nxbatchBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "nxbatch-e2e")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "nxbatch")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/nxbatch/nxbatch/cmd/nxbatch").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

const e2eScale = "0.01"

type e2e struct {
	t     *testing.T
	bin   string
	dir   string
	sb    *sandbox.Running
	env   []string
	port  int
	store string
}

func newE2E(t *testing.T, flujo int) *e2e {
	t.Helper()
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{Env: "test", TimeScale: 0.01, FlujoDeposito: flujo}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return &e2e{t: t, bin: nxbatchBin(t), dir: dir, sb: sb, port: port, store: filepath.Join(dir, "store"),
		env: append(os.Environ(), "NX_TOKEN="+sandbox.DefaultToken, "NX_BASE_URL="+sb.URL)}
}

// nx runs one nxbatch command to completion and returns its stdout.
func (x *e2e) nx(args ...string) string {
	x.t.Helper()
	cmd := exec.Command(x.bin, args...)
	cmd.Dir, cmd.Env = x.dir, x.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		x.t.Fatalf("nxbatch %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

func (x *e2e) url() string { return fmt.Sprintf("http://127.0.0.1:%d/eventos", x.port) }

// listen starts `nxbatch listen` and waits until it serves.
func (x *e2e) listen() *exec.Cmd {
	x.t.Helper()
	cmd := exec.Command(x.bin, "listen", "--addr", fmt.Sprintf("127.0.0.1:%d", x.port), "--store", x.store, "--lang", "en")
	cmd.Dir, cmd.Env = x.dir, x.env
	stdout, _ := cmd.StdoutPipe()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		x.t.Fatal(err)
	}
	x.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !regexp.MustCompile(`http://127\.0\.0\.1:\d+`).MatchString(line) {
		x.t.Fatalf("listen did not start: %q %v\n%s", line, err, errb.String())
	}
	go io.Copy(io.Discard, stdout)
	return cmd
}

func (x *e2e) stop(cmd *exec.Cmd) {
	x.t.Helper()
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		x.t.Fatalf("listen exited with %v", err)
	}
}

// export runs stock export and returns the CSV's bytes and rows.
func (x *e2e) export(extra ...string) ([]byte, [][]string) {
	x.t.Helper()
	path := filepath.Join(x.dir, "snapshot.csv")
	x.nx(append([]string{"stock", "export", path, "--store", x.store}, extra...)...)
	b, err := os.ReadFile(path)
	if err != nil {
		x.t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\uFEFF"))))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		x.t.Fatal(err)
	}
	return b, rows[1:]
}

func (x *e2e) post(secret, body string) int {
	x.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, x.url(), strings.NewReader(body))
	req.Header.Set(listener.SecretHeader, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		x.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (x *e2e) secret() string {
	b, err := os.ReadFile(filepath.Join(x.store, listener.SecretFile))
	if err != nil {
		x.t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// flush waits until the sandbox delivered every event and checks each was
// acknowledged.
func (x *e2e) flush() []sandbox.Delivery {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := x.sb.Server.Flush(ctx); err != nil {
		x.t.Fatal(err)
	}
	d := x.sb.Server.State().Deliveries
	for _, dl := range d {
		if dl.Status != http.StatusOK {
			x.t.Fatalf("delivery for %v: status %d %s", dl.ArticuloIDs, dl.Status, dl.Error)
		}
	}
	return d
}

// expected renders the sandbox's stock of the touched articles as export
// rows (articuloId;colorId;talleId;depositoId;unidades): per warehouse in
// multi-warehouse mode, else the integration's total.
func expected(sb *sandbox.Server, arts map[int64]bool, multi bool) []string {
	integ := map[int64]bool{}
	for _, d := range sandbox.DemoData().Depositos {
		integ[d.DepositoID] = d.Integracion
	}
	type vk struct{ art, color, talle int64 }
	totals := map[vk]nxapi.Decimal{}
	var out []string
	id := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	for _, s := range sb.State().Stock {
		if !arts[s.ArticuloID] || !integ[s.DepositoID] {
			continue
		}
		if multi {
			out = append(out, fmt.Sprintf("%d;%s;%s;%d;%s", s.ArticuloID, id(s.ColorID), id(s.TalleID), s.DepositoID, s.Unidades))
			continue
		}
		k := vk{s.ArticuloID, s.ColorID, s.TalleID}
		totals[k] += s.Unidades
	}
	for k, u := range totals {
		out = append(out, fmt.Sprintf("%d;%s;%s;;%s", k.art, id(k.color), id(k.talle), u))
	}
	slices.Sort(out)
	return out
}

func got(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join([]string{r[0], r[2], r[3], r[4], r[5]}, ";"))
	}
	slices.Sort(out)
	return out
}

func TestEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the end-to-end test builds nxbatch and needs the go command")
	}
	for _, tc := range []struct {
		format string
		flujo  int
	}{{"flat", 0}, {"grouped", 0}, {"flat", nxapi.FlujoMultiDeposito}, {"grouped", nxapi.FlujoMultiDeposito}} {
		t.Run(fmt.Sprintf("%s flujo %d", tc.format, tc.flujo), func(t *testing.T) {
			x := newE2E(t, tc.flujo)
			common := []string{"--env", "test", "--time-scale", e2eScale, "--journal", filepath.Join(x.dir, "journal")}
			out := x.nx(append([]string{"webhooks", "set", "--url", x.url(), "--format", tc.format, "--secret", "--store", x.store, "--lang", "en"}, common...)...)
			secret := x.secret()
			if strings.Count(out, secret) != 1 {
				t.Fatalf("the new secret must be shown exactly once:\n%s", out)
			}
			if wh := x.sb.Server.State().Webhooks; len(wh) != 1 || wh[0].Headers[0].Value != secret {
				t.Fatalf("sandbox webhooks %+v", wh)
			}
			ls := x.listen()

			in, err := os.ReadFile("../samples/stock.csv")
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(x.dir, "stock.csv"), in, 0o644)
			x.nx(append([]string{"run", filepath.Join(x.dir, "stock.csv"), "--no-xlsx"}, common...)...)
			deliveries := x.flush()
			touched := map[int64]bool{}
			for _, d := range deliveries {
				for _, a := range d.ArticuloIDs {
					touched[a] = true
				}
			}
			if len(touched) < 5 {
				t.Fatalf("only %d articles touched: %v", len(touched), touched)
			}
			want := expected(x.sb.Server, touched, tc.flujo == nxapi.FlujoMultiDeposito)
			before, rows := x.export()
			if diff := strings.Join(want, "\n") != strings.Join(got(rows), "\n"); diff {
				t.Fatalf("snapshot differs from the sandbox's stock\nwant:\n%s\ngot:\n%s", strings.Join(want, "\n"), strings.Join(got(rows), "\n"))
			}

			// A replayed event (the first one delivered) changes nothing.
			if st := x.post(secret, string(deliveries[0].Body)); st != 200 {
				t.Fatalf("replay answered %d", st)
			}
			// An event with a wrong secret is refused and not stored.
			if st := x.post(secret[:63]+"x", `[{"articuloId":987654,"unidades":1}]`); st != http.StatusUnauthorized {
				t.Fatalf("wrong secret answered %d", st)
			}
			x.stop(ls)
			after, _ := x.export()
			if !bytes.Equal(before, after) {
				t.Fatalf("the replay changed the snapshot:\n%s\n---\n%s", before, after)
			}
			if log, _ := os.ReadFile(filepath.Join(x.store, listener.LogFile)); bytes.Contains(log, []byte("987654")) {
				t.Fatal("an event with a wrong secret was stored")
			}
			if _, rows := x.export("--since", "1h"); len(rows) != len(want) {
				t.Fatalf("--since 1h kept %d rows, want %d", len(rows), len(want))
			}
		})
	}
}

// TestKillLosesNoAcknowledgedEvent kills listen with SIGKILL while events
// arrive, restarts it, and checks every acknowledged event is in the
// snapshot.
func TestKillLosesNoAcknowledgedEvent(t *testing.T) {
	x := newE2E(t, 0)
	ls := x.listen()
	const n = 400
	var mu sync.Mutex
	acked := map[int]bool{}
	var wg sync.WaitGroup
	next := make(chan int)
	client := &http.Client{Timeout: 5 * time.Second}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				body := fmt.Sprintf(`[{"articuloId":%d,"codigo":"K%d","unidades":%d}]`, 1000+i, i, i)
				resp, err := client.Post(x.url(), "application/json", strings.NewReader(body))
				if err != nil {
					continue // killed: not acknowledged
				}
				resp.Body.Close()
				if resp.StatusCode == 200 {
					mu.Lock()
					acked[i] = true
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		if i == n/2 {
			ls.Process.Signal(syscall.SIGKILL)
		}
		next <- i
	}
	close(next)
	wg.Wait()
	ls.Wait()
	if len(acked) < n/4 {
		t.Fatalf("only %d events acknowledged before the kill", len(acked))
	}
	x.stop(x.listen()) // restart: reapplies the log
	_, rows := x.export()
	have := map[int]string{}
	for _, r := range rows {
		id, _ := strconv.Atoi(r[0])
		have[id-1000] = r[5]
	}
	for i := range acked {
		if have[i] != strconv.Itoa(i) {
			t.Fatalf("acknowledged event %d missing after SIGKILL and restart (got %q)", i, have[i])
		}
	}
	t.Logf("%d events acknowledged before SIGKILL, all in the snapshot", len(acked))
}
