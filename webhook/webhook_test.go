package webhook

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

func str(s string) *string { return &s }

func TestCheck(t *testing.T) {
	ok := nxapi.WebhookGuardar{URL: "https://erp.example.com/hook", Topic: nxapi.TopicArticulos}
	hdrs := func(n int) []nxapi.WebhookHeader {
		var out []nxapi.WebhookHeader
		for i := range n {
			out = append(out, nxapi.WebhookHeader{Key: "X-K" + string(rune('a'+i)), Value: "v"})
		}
		return out
	}
	tests := []struct {
		name string
		edit func(g *nxapi.WebhookGuardar)
		want []string // message keys, in order
	}{
		{"valid", func(*nxapi.WebhookGuardar) {}, nil},
		{"valid grouped with 10 headers", func(g *nxapi.WebhookGuardar) { g.Extra = str("objeto"); g.Headers = hdrs(10) }, nil},
		{"url missing", func(g *nxapi.WebhookGuardar) { g.URL = "" }, []string{"wh.url.required"}},
		{"url 500 is fine", func(g *nxapi.WebhookGuardar) { g.URL = "http://h/" + strings.Repeat("a", 500-9) }, nil},
		{"url 501", func(g *nxapi.WebhookGuardar) { g.URL = "http://h/" + strings.Repeat("a", 501-9) }, []string{"wh.url.long"}},
		{"url relative", func(g *nxapi.WebhookGuardar) { g.URL = "/hook" }, []string{"wh.url.bad"}},
		{"url ftp", func(g *nxapi.WebhookGuardar) { g.URL = "ftp://h/x" }, []string{"wh.url.bad"}},
		{"topic missing", func(g *nxapi.WebhookGuardar) { g.Topic = "" }, []string{"wh.topic.required"}},
		{"topic other", func(g *nxapi.WebhookGuardar) { g.Topic = "ventas" }, []string{"wh.topic.bad"}},
		{"extra other", func(g *nxapi.WebhookGuardar) { g.Extra = str("plano") }, []string{"wh.extra.bad"}},
		{"11 headers", func(g *nxapi.WebhookGuardar) { g.Headers = hdrs(11) }, []string{"wh.headers.many"}},
		{"key missing", func(g *nxapi.WebhookGuardar) { g.Headers = []nxapi.WebhookHeader{{Value: "v"}} }, []string{"wh.key.required"}},
		{"key 101", func(g *nxapi.WebhookGuardar) {
			g.Headers = []nxapi.WebhookHeader{{Key: strings.Repeat("k", 101), Value: "v"}}
		}, []string{"wh.key.long"}},
		{"key with space", func(g *nxapi.WebhookGuardar) { g.Headers = []nxapi.WebhookHeader{{Key: "X Key", Value: "v"}} }, []string{"wh.key.bad"}},
		{"key with colon", func(g *nxapi.WebhookGuardar) { g.Headers = []nxapi.WebhookHeader{{Key: "X:K", Value: "v"}} }, []string{"wh.key.bad"}},
		{"key repeated in other case", func(g *nxapi.WebhookGuardar) {
			g.Headers = []nxapi.WebhookHeader{{Key: "X-Token", Value: "a"}, {Key: "x-token", Value: "b"}}
		}, []string{"wh.key.repeated"}},
		{"value missing", func(g *nxapi.WebhookGuardar) { g.Headers = []nxapi.WebhookHeader{{Key: "K"}} }, []string{"wh.value.required"}},
		{"value 500 is fine", func(g *nxapi.WebhookGuardar) {
			g.Headers = []nxapi.WebhookHeader{{Key: "K", Value: strings.Repeat("v", 500)}}
		}, nil},
		{"value 501", func(g *nxapi.WebhookGuardar) {
			g.Headers = []nxapi.WebhookHeader{{Key: "K", Value: strings.Repeat("v", 501)}}
		}, []string{"wh.value.long"}},
		{"value newline", func(g *nxapi.WebhookGuardar) { g.Headers = []nxapi.WebhookHeader{{Key: "K", Value: "a\nb"}} }, []string{"wh.value.newline"}},
		{"several at once", func(g *nxapi.WebhookGuardar) { g.URL = ""; g.Topic = "x"; g.Extra = str("") },
			[]string{"wh.url.required", "wh.topic.bad", "wh.extra.bad"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ok
			tt.edit(&g)
			var got []string
			for _, m := range Check(g) {
				got = append(got, m.Key)
				if s := m.In(msg.ES); strings.Contains(s, "%!") {
					t.Errorf("bad rendering: %s", s)
				}
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("Check = %v, want %v", got, tt.want)
			}
		})
	}
}

const scale = 0.01 // sandbox and client windows: 30 ms writes, 10 ms lists in production

func newAdmin(t *testing.T, win WindowStore) (*Admin, *sandbox.Running) {
	t.Helper()
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	c, err := apiclient.New(apiclient.Options{BaseURL: sb.URL, Token: apiclient.NewToken(sandbox.DefaultToken)})
	if err != nil {
		t.Fatal(err)
	}
	l, w := Windows("production")
	return &Admin{API: c, Windows: win, Tenant: "t", ListWindow: time.Duration(float64(l) * scale),
		WriteWindow: time.Duration(float64(w) * scale), Scale: scale}, sb
}

func TestSetCreatesEditsAndSparesWrites(t *testing.T) {
	ctx := context.Background()
	a, sb := newAdmin(t, &sendrulestest.Windows{})
	g := nxapi.WebhookGuardar{URL: "http://127.0.0.1:9/hook", Extra: str(nxapi.ExtraCurva),
		Headers: []nxapi.WebhookHeader{{Key: "X-A", Value: "1"}}}
	steps := []struct {
		edit func(*nxapi.WebhookGuardar)
		want Action
	}{
		{func(*nxapi.WebhookGuardar) {}, Created},
		{func(*nxapi.WebhookGuardar) {}, Unchanged},
		{func(g *nxapi.WebhookGuardar) { g.Extra = str(nxapi.ExtraObjeto) }, Edited},
		{func(g *nxapi.WebhookGuardar) { g.URL = "http://127.0.0.1:9/other" }, Edited},
	}
	var id int64
	for i, s := range steps {
		s.edit(&g)
		res, err := a.Set(ctx, g)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if res.Action != s.want {
			t.Fatalf("step %d: action %s, want %s", i, res.Action, s.want)
		}
		if id == 0 {
			id = res.Webhook.ID
		}
		if res.Webhook.ID != id || res.Webhook.URL != g.URL || *res.Webhook.Extra != *g.Extra {
			t.Fatalf("step %d: webhook %+v, want id %d with %+v", i, res.Webhook, id, g)
		}
	}
	st := sb.Server.State()
	if len(st.Webhooks) != 1 {
		t.Fatalf("sandbox has %d webhooks, want 1", len(st.Webhooks))
	}
	// Every write went through the window: none was refused.
	for path, byStatus := range st.Requests {
		if byStatus[403] > 0 {
			t.Fatalf("%s refused %d times for its window", path, byStatus[403])
		}
	}
}

func TestSetChecksLocallyFirst(t *testing.T) {
	a, sb := newAdmin(t, &sendrulestest.Windows{})
	_, err := a.Set(context.Background(), nxapi.WebhookGuardar{URL: "hook", Headers: []nxapi.WebhookHeader{{Key: "a b", Value: "x"}}})
	var ce *CheckError
	if !errors.As(err, &ce) || len(ce.Problems) != 2 {
		t.Fatalf("err = %v, want a CheckError with 2 problems", err)
	}
	if n := len(sb.Server.State().Requests); n != 0 {
		t.Fatalf("%d endpoints called, want none", n)
	}
}

func TestDeleteMissingIsAnError(t *testing.T) {
	ctx := context.Background()
	a, _ := newAdmin(t, &sendrulestest.Windows{})
	res, err := a.Set(ctx, nxapi.WebhookGuardar{URL: "http://127.0.0.1:9/hook"})
	if err != nil {
		t.Fatal(err)
	}
	list, err := a.Delete(ctx, res.Webhook.ID)
	if err != nil || len(list) != 0 {
		t.Fatalf("first delete: %v, %v", list, err)
	}
	if _, err := a.Delete(ctx, res.Webhook.ID); !errors.Is(err, ErrNoSuchWebhook) {
		t.Fatalf("second delete: %v, want ErrNoSuchWebhook", err)
	}
}

func TestWindowPersistedAndRefusalResent(t *testing.T) {
	// A window recorded by an earlier run is waited for, and a refusal
	// from the server (its own clock) is waited out and resent.
	ctx := context.Background()
	win := &sendrulestest.Windows{}
	a, sb := newAdmin(t, win)
	now := time.Now()
	var waited []time.Duration
	a.Waiting = func(d time.Duration) { waited = append(waited, d) }
	win.SetNextAllowed(context.Background(), "t", ListWindowName, now.Add(50*time.Millisecond))
	if _, err := a.List(ctx); err != nil {
		t.Fatal(err)
	}
	if len(waited) != 1 || waited[0] <= 0 {
		t.Fatalf("waited %v, want one wait for the persisted window", waited)
	}
	// Forget our window: the server still holds it and refuses once.
	win.SetNextAllowed(context.Background(), "t", ListWindowName, time.Time{})
	if _, err := a.List(ctx); err != nil {
		t.Fatalf("list after a refusal: %v", err)
	}
	st := sb.Server.State()
	if got := st.Requests["GET "+nxapi.PathWebhooks]; got[200] != 2 || got[403] != 1 {
		t.Fatalf("requests %v, want 2 answered and 1 refused", got)
	}
	if next, _ := win.NextAllowed(context.Background(), "t", ListWindowName); !next.After(now) {
		t.Fatalf("next allowed %v not persisted", next)
	}
}

func TestSecretInClear(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"http://stock.example.com/eventos", true},
		{"HTTP://stock.example.com/eventos", true},
		{"http://192.0.2.7:8092/", true},
		{"http://10.0.0.5/", true},              // a private network is still a network
		{"http://localhost.example.com/", true}, // not localhost
		{"http://127.0.0.1.example.com/", true}, // nor this
		{"https://stock.example.com/eventos", false},
		{"http://127.0.0.1:8092/eventos", false},
		{"http://127.8.9.10/", false},
		{"http://localhost:8092/", false},
		{"http://LOCALHOST./", false},
		{"http://[::1]:8092/", false},
		{"http://[::ffff:127.0.0.1]/", false},
		{"ftp://stock.example.com/", false}, // not http at all: Check refuses it
	}
	for _, tt := range tests {
		if got := SecretInClear(tt.url); got != tt.want {
			t.Errorf("SecretInClear(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}
