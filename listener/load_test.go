package listener_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/listener"
)

// loadResult is what one load run measured.
type loadResult struct {
	sent, acked int
	elapsed     time.Duration // first send to last answer
	p50, p99    time.Duration
	max         time.Duration
}

func (r loadResult) rate() float64 { return float64(r.acked) / r.elapsed.Seconds() }

func (r loadResult) String() string {
	return fmt.Sprintf("%d/%d acked in %v: %.0f events/s, ack p50 %v p99 %v max %v",
		r.acked, r.sent, r.elapsed.Round(time.Millisecond), r.rate(), r.p50, r.p99, r.max)
}

// runLoad posts n events over loopback to a listener on a store in dir,
// scheduled at perSecond (open loop: a slow answer does not slow the
// schedule), from a pool of senders, and checks afterwards that every
// acknowledged event is in the snapshot.
func runLoad(tb testing.TB, dir string, n int, perSecond float64) loadResult {
	tb.Helper()
	st, err := listener.Open(dir, listener.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: &listener.Handler{Store: st, Secret: []byte("load-secret")}, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	url := "http://" + ln.Addr().String() + "/"

	const senders = 64
	tr := &http.Transport{MaxIdleConnsPerHost: senders, MaxConnsPerHost: senders}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	lat := make([]time.Duration, n)
	ok := make([]bool, n)
	jobs := make(chan int, n)
	var wg sync.WaitGroup
	start := time.Now()
	var lastMu sync.Mutex
	var last time.Time
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				// A flat event, like the sandbox's, with a distinct article
				// so its presence can be checked afterwards.
				body := fmt.Sprintf(`[{"articuloId":%d,"codigo":"L%d","descripcion":"Artículo de carga","colorId":1,"talleId":2,"unidades":%d,"stockDepositos":[{"depositoId":1,"unidades":%d},{"depositoId":2,"unidades":0}]}]`, 100000+i, i, i, i)
				req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(listener.SecretHeader, "load-secret")
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					continue
				}
				resp.Body.Close()
				done := time.Now()
				lat[i], ok[i] = done.Sub(t0), resp.StatusCode == http.StatusOK
				lastMu.Lock()
				if done.After(last) {
					last = done
				}
				lastMu.Unlock()
			}
		}()
	}
	interval := time.Duration(float64(time.Second) / perSecond)
	for i := range n {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(ctx)
	tr.CloseIdleConnections()

	res := loadResult{sent: n, elapsed: last.Sub(start)}
	var acked []time.Duration
	for i := range n {
		if ok[i] {
			acked = append(acked, lat[i])
		}
	}
	res.acked = len(acked)
	if len(acked) > 0 {
		slices.Sort(acked)
		res.p50, res.p99, res.max = acked[len(acked)/2], acked[len(acked)*99/100], acked[len(acked)-1]
	}
	if err := st.Sync(ctx); err != nil {
		tb.Fatal(err)
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	// Every acknowledged event is in the snapshot, as a fresh reader sees it.
	snap, err := listener.Load(dir, listener.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		if !ok[i] {
			continue
		}
		a := snap.Articulos[int64(100000+i)]
		if a == nil || len(a.Variantes) != 1 || a.Variantes[0].Unidades.Int() != int64(i) || len(a.Variantes[0].Depositos) != 2 {
			tb.Fatalf("acknowledged event %d not in the snapshot: %+v", i, a)
		}
	}
	return res
}

// TestLoad: at least 1,000 events/s sustained over loopback with p99
// acknowledgement under 50 ms, every acknowledged event durable (fsync) and
// in the snapshot. Bounded: 4,000 events scheduled at 1,250/s (about 3.2 s).
func TestLoad(t *testing.T) {
	res := runLoad(t, t.TempDir(), 4000, 1250)
	t.Log(res)
	if res.acked != res.sent {
		t.Fatalf("%d of %d events not acknowledged", res.sent-res.acked, res.sent)
	}
	if raceEnabled {
		return // the race detector's slowdown says nothing about the listener's speed
	}
	if res.rate() < 1000 {
		t.Errorf("sustained %.0f events/s, want at least 1,000", res.rate())
	}
	if res.p99 >= 50*time.Millisecond {
		t.Errorf("p99 acknowledgement %v, want under 50 ms", res.p99)
	}
}

// BenchmarkListen measures acknowledgement latency and throughput at a
// scheduled 2,000 events/s: go test -bench Listen -run ^$ ./listener
func BenchmarkListen(b *testing.B) {
	for b.Loop() {
		res := runLoad(b, b.TempDir(), 4000, 2000)
		b.ReportMetric(res.rate(), "events/s")
		b.ReportMetric(float64(res.p99.Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(res.p50.Microseconds())/1000, "p50-ms")
	}
}
