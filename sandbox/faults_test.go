package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
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

// TestPauseIsNeverShort: the stated latency is a floor, whichever part of
// it the Go timer or the operating system sleeps; a client that gives up
// during the operating system's part still ends the pause unanswered.
func TestPauseIsNeverShort(t *testing.T) {
	s, err := New(DemoData(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, d := range []time.Duration{500 * time.Microsecond, osTail, osTail + time.Millisecond, 15 * time.Millisecond} {
		start := time.Now()
		if !s.pause(context.Background(), d) {
			t.Errorf("pause(%v) gave up with nobody giving up", d)
		}
		if got := time.Since(start); got < d {
			t.Errorf("pause(%v) lasted %v", d, got)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond+osTail/2)
	defer cancel()
	if s.pause(ctx, 10*time.Millisecond+osTail) {
		t.Errorf("a pause whose client gave up in its last %v reported it elapsed", osTail)
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

// send posts body as JSON with the demo token and returns the status and
// the body, or the transport error (a dropped connection, a timeout).
func send(t *testing.T, client *http.Client, base, path string, body any) (int, string, error) {
	t.Helper()
	var raw []byte
	if s, ok := body.(string); ok {
		raw = []byte(s)
	} else {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest("POST", base+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(nxapi.TokenHeader, DefaultToken)
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// TestFaultsComeAfterTheStockWindow is issue 9: the 3 s window (30 ms at
// TimeScale 0.01) is decided before any fault, so movements sent too soon
// get the same 403s under every fault as without faults, and only the
// movements the API would accept are faulted: processed when the answer is
// dropped, not processed after a 500 or a hang.
func TestFaultsComeAfterTheStockWindow(t *testing.T) {
	ms := time.Millisecond
	offsets := []time.Duration{0, 10 * ms, 29 * ms, 30 * ms, 45 * ms, 59 * ms, 60 * ms, 100 * ms}
	window := map[int]string{1: "Debe esperar 2 segundos", 2: "Debe esperar 1 segundos",
		4: "Debe esperar 2 segundos", 5: "Debe esperar 1 segundos"} // index → the 403 of a request too soon
	for _, tc := range []struct {
		name      string
		opts      Options
		accepted  int // status of a movement inside the rules; 0: no answer
		processed bool
	}{
		{"no faults", Options{}, 200, true},
		{"drop after", Options{DropAfter: 1}, 0, true},
		{"500", Options{Fail500: 1}, 500, false},
		{"hang", Options{Hang: 1}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
			tc.opts.Now, tc.opts.TimeScale = clock.Now, 0.01
			r := start(t, tc.opts)
			client := &http.Client{Timeout: 200 * time.Millisecond}
			accepted, prev := 0, time.Duration(0)
			for i, off := range offsets {
				clock.Advance(off - prev)
				prev = off
				status, body, err := send(t, client, r.URL, nxapi.PathStock, movimiento())
				if want, tooSoon := window[i]; tooSoon {
					if status != http.StatusForbidden || !strings.Contains(body, want) {
						t.Fatalf("movement %d at %v: %d %q %v, want 403 %q as without faults", i, off, status, body, err, want)
					}
					continue
				}
				accepted++
				if status != tc.accepted || (status == 0) != (err != nil) {
					t.Fatalf("movement %d at %v: %d %q %v, want %d", i, off, status, body, err, tc.accepted)
				}
			}
			want := 0
			if tc.processed {
				want = accepted
			}
			if n := len(r.Server.State().Movements); n != want || accepted != 4 {
				t.Fatalf("%d movements registered of %d accepted, want %d", n, accepted, want)
			}
		})
	}
}

// TestFaultsNeverHideARefusal: a request the API would refuse gets its
// refusal under every fault, draws no fault and changes nothing; only then
// does a valid request meet the fault.
func TestFaultsNeverHideARefusal(t *testing.T) {
	mod := func(f func(v *nxapi.Venta)) *nxapi.Venta { v := venta(20); f(v); return v }
	badMotivo := movimiento()
	badMotivo.MotivoID = 4
	refused := []struct {
		name, path string
		body       any
		status     int
		text       string
	}{
		{"venta body invalid", nxapi.PathVenta, mod(func(v *nxapi.Venta) { v.Productos = nil }), 400, nxapi.MsgVentaInvalida},
		{"venta without medioPago", nxapi.PathVenta, mod(func(v *nxapi.Venta) { v.MedioPago = nil }), 400, nxapi.MsgMedioPagoReq},
		{"venta totals", nxapi.PathVenta, mod(func(v *nxapi.Venta) { v.Total = dec("1") }), 200, nxapi.MsgTotales},
		{"venta unknown article", nxapi.PathVenta, mod(func(v *nxapi.Venta) { v.OrdenID = 21; v.Productos[0].ArticuloID = 999 }), 404, "El articulo 999 no existe"},
		{"venta pos out of scope", nxapi.PathVenta, mod(func(v *nxapi.Venta) { v.OrdenID = 22; v.PuntoVentaID = 9 }), 403, "El punto de venta 9 pertenece"},
		{"facturar not pendiente", nxapi.PathFacturar, facturar(1013), 200, "no esta PENDIENTE"},
		{"facturar another integration's", nxapi.PathFacturar, facturar(2001), 404, "El comprobante 2001 no existe"},
		{"stock malformed", nxapi.PathStock, `{"depositoId":1,`, 403, nxapi.MsgStockIncorrecto},
		{"stock deleted motivo", nxapi.PathStock, badMotivo, 200, "El motivo 4 no existe o fue eliminado"},
	}
	for _, tc := range []struct {
		name  string
		opts  Options
		valid int // status of the valid sale after the refusals; 0: no answer
	}{
		{"drop after", Options{DropAfter: 1}, 0},
		{"500", Options{Fail500: 1}, 500},
		{"hang", Options{Hang: 1}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)}
			tc.opts.Now = clock.Now
			r := start(t, tc.opts)
			client := &http.Client{Timeout: 200 * time.Millisecond}
			for _, rf := range refused {
				clock.Advance(3 * time.Second) // the stock window
				status, body, err := send(t, client, r.URL, rf.path, rf.body)
				if err != nil || status != rf.status || !strings.Contains(body, rf.text) {
					t.Errorf("%s: %d %q %v, want %d %q", rf.name, status, body, err, rf.status, rf.text)
				}
			}
			if faultDrawn(r.Server) {
				t.Fatal("a refused request drew a fault")
			}
			st := r.Server.State()
			if len(st.Vouchers)+len(st.Movements) != 0 {
				t.Fatalf("refused requests created %+v %+v", st.Vouchers, st.Movements)
			}
			// The totals refusal held ordenId 20 (spec 4.1.3): a fixed sale
			// inside the hold is the duplicate refusal, not a fault.
			if status, body, err := send(t, client, r.URL, nxapi.PathVenta, venta(20)); status != 400 || !strings.Contains(body, nxapi.MsgEnProceso) {
				t.Fatalf("duplicate: %d %q %v, want 400 %q", status, body, err, nxapi.MsgEnProceso)
			}
			status, _, err := send(t, client, r.URL, nxapi.PathVenta, venta(30))
			if status != tc.valid || (status == 0) != (err != nil) || !faultDrawn(r.Server) {
				t.Fatalf("valid sale: %d %v, want %d after a fault draw", status, err, tc.valid)
			}
		})
	}
}

// TestFaultDropHoldsTheKeyAndFail500DoesNot: a dropped sale was processed,
// so its ordenId is held as any processed one; a sale answered 500 was not,
// so it leaves no trace and a resend is processed once.
func TestFaultDropHoldsTheKeyAndFail500DoesNot(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		resend int
		want   int // vouchers after the resend
	}{
		{"drop after", Options{DropAfter: 1}, 400, 1},
		{"500", Options{Fail500: 1, Seed: 1}, 500, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := start(t, tc.opts)
			send(t, http.DefaultClient, r.URL, nxapi.PathVenta, venta(40))
			if status, _, _ := send(t, http.DefaultClient, r.URL, nxapi.PathVenta, venta(40)); status != tc.resend {
				t.Fatalf("resend: %d, want %d", status, tc.resend)
			}
			if n := len(r.Server.State().Vouchers); n != tc.want {
				t.Fatalf("%d vouchers, want %d", n, tc.want)
			}
		})
	}
}
