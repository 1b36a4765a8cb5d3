package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// start serves the demo data on loopback and closes it at the end of the test.
func start(t *testing.T, opts Options) *Running {
	t.Helper()
	r, err := Start(DemoData(), opts, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

// post sends a venta over the wire and returns the status, or the transport
// error.
func post(ctx context.Context, client *http.Client, base string, body any) (int, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, "POST", base+nxapi.PathVenta, bytes.NewReader(b))
	req.Header.Set(nxapi.TokenHeader, DefaultToken)
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// failedOrdenes sends ventas 1..n in the given order and lists the ordenIds
// answered 500.
func failedOrdenes(t *testing.T, seed int64, order []int64) []int64 {
	r := start(t, Options{Fail500: 0.3, Seed: seed})
	var failed []int64
	for _, id := range order {
		status, err := post(context.Background(), http.DefaultClient, r.URL, venta(id))
		if err != nil {
			t.Fatal(err)
		}
		if status == http.StatusInternalServerError {
			failed = append(failed, id)
		}
	}
	slices.Sort(failed)
	// A 500 comes before any processing: none of those ordenIds has a voucher.
	for _, v := range r.Server.State().Vouchers {
		if slices.Contains(failed, v.OrdenID) {
			t.Fatalf("ordenId %d answered 500 but was processed", v.OrdenID)
		}
	}
	if got := len(r.Server.State().Vouchers) + len(failed); got != len(order) {
		t.Fatalf("%d vouchers + %d failures, want %d", got-len(failed), len(failed), len(order))
	}
	return failed
}

func TestFaultsDeterministicUnderSeed(t *testing.T) {
	var forward, backward []int64
	for i := int64(1); i <= 60; i++ {
		forward = append(forward, i)
		backward = append([]int64{i}, backward...)
	}
	a := failedOrdenes(t, 7, forward)
	b := failedOrdenes(t, 7, backward)
	c := failedOrdenes(t, 8, forward)
	if !slices.Equal(a, b) {
		t.Fatalf("same seed, different order: %v vs %v", a, b)
	}
	if len(a) < 5 || len(a) > 35 {
		t.Fatalf("%d of 60 failed with fraction 0.3", len(a))
	}
	if slices.Equal(a, c) {
		t.Fatalf("seeds 7 and 8 failed the same ordenIds %v", a)
	}
}

func TestFaultDropProcessesThenCutsTheConnection(t *testing.T) {
	r := start(t, Options{DropAfter: 1})
	_, err := post(context.Background(), http.DefaultClient, r.URL, venta(1))
	if err == nil {
		t.Fatal("want a transport error, got an answer")
	}
	st := r.Server.State()
	if len(st.Vouchers) != 1 || st.Vouchers[0].OrdenID != 1 {
		t.Fatalf("vouchers %+v, want the dropped sale processed", st.Vouchers)
	}
	if st.Requests["POST "+nxapi.PathVenta][0] != 1 {
		t.Fatalf("requests %v, want one without answer (status 0)", st.Requests)
	}
}

func TestFaultHangIsNotProcessed(t *testing.T) {
	r := start(t, Options{Hang: 1})
	client := &http.Client{Timeout: 50 * time.Millisecond}
	_, err := post(context.Background(), client, r.URL, venta(1))
	if err == nil {
		t.Fatal("want a timeout")
	}
	// The handler notices the client left; wait for its counter through the
	// inspection of the state, which is updated when the handler returns.
	for ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second); ; {
		if r.Server.State().Requests["POST "+nxapi.PathVenta][0] == 1 {
			cancel()
			break
		}
		if ctx.Err() != nil {
			cancel()
			t.Fatal("hung request never ended after the client gave up")
		}
		time.Sleep(time.Millisecond)
	}
	if n := len(r.Server.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers from a hung request", n)
	}
	// Other endpoints are not affected.
	req, _ := http.NewRequest("GET", r.URL+nxapi.PathConfig, nil)
	req.Header.Set(nxapi.TokenHeader, DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /config: %v %v", resp, err)
	}
	resp.Body.Close()
}

func TestCloseReleasesHangingRequests(t *testing.T) {
	r, err := Start(DemoData(), Options{Hang: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := post(context.Background(), http.DefaultClient, r.URL, venta(1))
		errc <- err
	}()
	for !faultDrawn(r.Server) {
		time.Sleep(time.Millisecond)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err == nil {
		t.Fatal("a hung request got an answer")
	}
}

// faultDrawn reports whether a request has reached the fault injector.
func faultDrawn(s *Server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodySeen) > 0
}

func TestLatencyComesBeforeProcessing(t *testing.T) {
	r := start(t, Options{Latency: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := post(ctx, http.DefaultClient, r.URL, venta(1)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the client's deadline", err)
	}
	if n := len(r.Server.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers", n)
	}
}

func TestOptionsValidated(t *testing.T) {
	for _, o := range []Options{
		{Env: "staging"}, {TimeScale: -1}, {Fail500: 1.5}, {Hang: -0.1},
		{Fail500: 0.5, DropAfter: 0.4, Hang: 0.2}, {Latency: -time.Second},
	} {
		if s, err := New(DemoData(), o); err == nil {
			s.Close()
			t.Errorf("New accepted %+v", o)
		}
	}
}
