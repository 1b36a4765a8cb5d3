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
// schedule; 0 sends as fast as the senders go), from a pool of senders,
// and checks afterwards that every acknowledged event is in the snapshot,
// once.
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
	// The timeout only keeps a hung listener from hanging the test; how fast
	// the answers come is BenchmarkListen's to say.
	client := &http.Client{Transport: tr, Timeout: time.Minute}
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
	var interval time.Duration
	if perSecond > 0 {
		interval = time.Duration(float64(time.Second) / perSecond)
	}
	for i := range n {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 {
			time.Sleep(d)
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
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
	// Every acknowledged event is in the snapshot, as a fresh reader sees
	// it, and was applied once: one event a distinct article, none taken
	// for a replay of another.
	snap, err := listener.Load(dir, listener.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if got := snap.Stats; got.Events < int64(res.acked) || got.Events > int64(n) || got.Replays != 0 || got.Unrecognized != 0 {
		tb.Fatalf("snapshot stats %+v after %d acknowledged of %d sent", got, res.acked, n)
	}
	if len(snap.Articulos) != int(snap.Stats.Events) {
		tb.Fatalf("%d articles in the snapshot from %d events of one article each", len(snap.Articulos), snap.Stats.Events)
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

// TestLoad: 2,000 events posted over loopback by 64 concurrent senders,
// as fast as they go, are all acknowledged, and each is in the snapshot
// exactly once (durable: a fresh reader of the log and snapshot sees it).
// How fast (events/s, acknowledgement p50/p99) is BenchmarkListen's to
// measure, not this test's: the suite must pass on a loaded machine.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	res := runLoad(t, dir, 2000, 0)
	t.Log(res)
	if res.acked != res.sent {
		t.Fatalf("%d of %d events not acknowledged", res.sent-res.acked, res.sent)
	}
	snap, err := listener.Load(dir, listener.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Stats.Events != int64(res.sent) || len(snap.Articulos) != res.sent {
		t.Fatalf("%d events, %d articles in the snapshot; want each of the %d events once", snap.Stats.Events, len(snap.Articulos), res.sent)
	}
}

// BenchmarkListen measures acknowledgement latency and throughput of 4,000
// events scheduled at 1,250/s and at 2,000/s (goal, issue 6: at least 1,000
// events/s with p99 under 50 ms):
//
//	go test -bench Listen -run '^$' -benchtime 1x ./listener
func BenchmarkListen(b *testing.B) {
	for _, rate := range []float64{1250, 2000} {
		b.Run(fmt.Sprintf("%.0f-per-s", rate), func(b *testing.B) {
			for b.Loop() {
				res := runLoad(b, b.TempDir(), 4000, rate)
				if res.acked != res.sent {
					b.Fatalf("%d of %d events not acknowledged", res.sent-res.acked, res.sent)
				}
				b.ReportMetric(res.rate(), "events/s")
				b.ReportMetric(float64(res.p99.Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(res.p50.Microseconds())/1000, "p50-ms")
			}
		})
	}
}
