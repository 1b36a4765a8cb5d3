package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
)

// BenchmarkVentaLoopback measures POST /venta over real loopback HTTP with
// parallel keep-alive clients and distinct ordenIds, the sandbox's share of
// nxbatch's own benchmarks. Goal: at least 5,000 req/s on 2 cores.
func BenchmarkVentaLoopback(b *testing.B) {
	r, err := Start(DemoData(), Options{}, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: 64}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	var next atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			body, _ := json.Marshal(venta(next.Add(1)))
			req, _ := http.NewRequest("POST", r.URL+nxapi.PathVenta, bytes.NewReader(body))
			req.Header.Set(nxapi.TokenHeader, DefaultToken)
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	if n := len(r.Server.State().Vouchers); n != b.N {
		b.Fatalf("%d vouchers for %d requests", n, b.N)
	}
}
