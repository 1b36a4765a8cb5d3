package sendrules

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

func TestLimitTable(t *testing.T) {
	tests := []struct {
		env  Env
		w    Window
		want time.Duration
	}{
		{Production, Stock, 3 * time.Second},
		{Test, Stock, 3 * time.Second},
		{Production, Params, 60 * time.Second},
		{Test, Params, 60 * time.Second},
		{Production, Comprobante, 10 * time.Second},
		{Test, Comprobante, 3 * time.Second},
		{Production, Exports, 30 * time.Second},
		{Test, Exports, 3 * time.Second},
		{Production, WebhookList, 10 * time.Second},
		{Test, WebhookList, 3 * time.Second},
		{Production, WebhookWrite, 30 * time.Second},
		{Test, WebhookWrite, 3 * time.Second},
		{Production, Masses, 10 * time.Minute},
		{Test, Masses, 10 * time.Minute},
		{Production, NoWindow, 0},
	}
	for _, tt := range tests {
		if got := tt.env.Limit(tt.w); got != tt.want {
			t.Errorf("%s %q: %v, want %v", tt.env, tt.w, got, tt.want)
		}
	}
}

func TestWindowOf(t *testing.T) {
	tests := []struct {
		method, path string
		want         Window
	}{
		{"POST", nxapi.PathStock, Stock},
		{"POST", nxapi.PathVenta, NoWindow},
		{"POST", nxapi.PathFacturar, NoWindow},
		{"POST", nxapi.PathPedido, NoWindow},
		{"POST", strings.ToLower(nxapi.PathPedidoCancelar), NoWindow},
		{"GET", nxapi.PathConfig, Params},
		{"GET", nxapi.PathDepositos, Params},
		{"GET", nxapi.PathMediosPago, Params},
		{"GET", nxapi.PathMotivos, Params},
		{"GET", nxapi.PathPuntosVenta, Params},
		{"GET", nxapi.PathEmpleados, Params},
		{"GET", nxapi.PathComprobante + "50001", Comprobante},
		{"GET", nxapi.PathVentaTotales, Exports},
		{"GET", nxapi.PathCompraItems, Exports},
		{"GET", nxapi.PathWebhooks, WebhookList},
		{"POST", nxapi.PathWebhooks, WebhookWrite},
		{"POST", nxapi.PathWebhooks + "/3", WebhookWrite},
		{"DELETE", nxapi.PathWebhooks + "/3", WebhookWrite},
		{"GET", nxapi.PathGetData, Masses},
		{"GET", nxapi.PathGetDataCurva, Masses},
		{"GET", strings.ToLower(nxapi.PathGetDataCurva), Masses},
		{"GET", strings.ToUpper(nxapi.PathGetData), Masses},
		{"GET", nxapi.PathExportStock, Masses},
		{"GET", nxapi.PathVentaItemsMasiva, Masses},
		{"POST", nxapi.PathGetData, NoWindow},
		{"GET", "/integraciones/Terceros/Config", Params},
	}
	for _, tt := range tests {
		if got := WindowOf(tt.method, tt.path); got != tt.want {
			t.Errorf("%s %s: %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

func TestHoldAndKey(t *testing.T) {
	for kind, want := range map[string]time.Duration{"venta": KeyHold, "facturar": KeyHold, "pedido": KeyHold, "cancelar": 0, "stock": 0} {
		if got := HoldOf(kind); got != want {
			t.Errorf("HoldOf(%s) = %v, want %v", kind, got, want)
		}
	}
	if KeyColumn("venta") != "ordenId" || KeyColumn("facturar") != "facturaId" || KeyColumn("stock") != "" {
		t.Error("KeyColumn: wrong business key columns")
	}
	if KeyColumn("pedido") != "ordenId" || KeyColumn("cancelar") != "facturaId" {
		t.Error("KeyColumn: wrong order key columns")
	}
}

func TestOrderKeys(t *testing.T) {
	tests := []struct {
		business string
		orden    string
		paid     bool
	}{
		{"77003", "77003", false},
		{"77003" + PaidSuffix, "77003", true},
		{"pagado", "pagado", false},
	}
	for _, tt := range tests {
		if o, p := OrderOf(tt.business); o != tt.orden || p != tt.paid {
			t.Errorf("OrderOf(%q) = %q, %v; want %q, %v", tt.business, o, p, tt.orden, tt.paid)
		}
	}
	for estado, want := range map[string]bool{"PENDIENTE": true, "PAGADO": true, "ANULADO": false, "FACTURA_VENTA": false} {
		if Cancellable(estado) != want {
			t.Errorf("Cancellable(%s) = %v", estado, !want)
		}
	}
}

func TestPacerCountsFromTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(3*time.Second, 30*time.Second, time.Time{}, nil)
		start := time.Now()
		if err := p.Wait(t.Context()); err != nil || time.Since(start) != 0 {
			t.Fatalf("first request waited %v (%v)", time.Since(start), err)
		}
		// While out, the request may arrive as late as its timeout: that is
		// what a crash leaves persisted.
		if got := p.Leave().Sub(start); got < 33*time.Second {
			t.Errorf("Leave persists %v, want at least timeout+window", got)
		}
		time.Sleep(700 * time.Millisecond) // the answer takes 0.7 s
		next := p.Answered(0)
		if got := next.Sub(start); got < 3700*time.Millisecond || got > 3800*time.Millisecond {
			t.Errorf("next allowed %v after start, want the window counted from the answer (3.7 s)", got)
		}
		if err := p.Wait(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got < 3700*time.Millisecond {
			t.Errorf("second request left %v after start, inside the window", got)
		}
	})
}

func TestPacerServerWaitAndNotSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewPacer(3*time.Second, 30*time.Second, time.Time{}, nil)
		before := p.Next()
		p.Leave()
		if got := p.NotSent(); !got.Equal(before) {
			t.Errorf("NotSent restored %v, want %v", got, before)
		}
		start := time.Now()
		p.Leave()
		next := p.Answered(5 * time.Second)
		if got := next.Sub(start); got < 5*time.Second || got > 5100*time.Millisecond {
			t.Errorf("after a 403 asking 5 s, next in %v", got)
		}
	})
}

func TestResendPolicy(t *testing.T) {
	p := ResendPolicy{MaxSends: 3, Backoff: 100 * time.Millisecond, MaxBackoff: 400 * time.Millisecond, Scale: 0.5}
	if !p.Again(2) || p.Again(3) {
		t.Error("Again: want 2 sends allowed to go again, 3 not")
	}
	for failures, want := range map[int]time.Duration{1: 50 * time.Millisecond, 2: 100 * time.Millisecond, 3: 200 * time.Millisecond, 9: 200 * time.Millisecond} {
		if got := p.NotSentWait(failures); got != want {
			t.Errorf("NotSentWait(%d) = %v, want %v", failures, got, want)
		}
	}
	if got := p.RefusedWait(4*time.Second, 1); got != 2*time.Second {
		t.Errorf("RefusedWait(4s) = %v, want the server's wait scaled", got)
	}
	if got := p.RefusedWait(0, 3); got != 1500*time.Millisecond {
		t.Errorf("RefusedWait(0, 3 sends) = %v, want 1.5 s", got)
	}
}

func TestBreaker(t *testing.T) {
	b := Breaker{Limit: 3}
	b.Failed()
	b.Failed()
	b.Answered()
	first, second := b.Failed(), b.Failed()
	if first || second {
		t.Fatal("an answer in between must reset the streak")
	}
	if !b.Failed() || !b.Open() {
		t.Fatal("three failures in a row must open the breaker")
	}
}
