package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// echo answers status with a body that repeats the request's token header
// in the way named by style, the way an API or a proxy echoing headers in
// an error page does.
func echo(status int, style string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		tok := r.Header.Get(nxapi.TokenHeader)
		var body string
		switch style {
		case "text":
			body = fmt.Sprintf("Bad gateway\r\nX-Nx-Token: %s\r\nAccept: application/json\r\n", tok)
		case "json":
			b, _ := json.Marshal(map[string]any{"error": "encabezados: X-Nx-Token=" + tok, "headers": r.Header})
			body = string(b)
		case "json-unicode": // every character \u-escaped
			var sb strings.Builder
			for _, c := range "token " + tok {
				fmt.Fprintf(&sb, `\u%04x`, c)
			}
			body = `{"mensajes":["` + sb.String() + `"]}`
		case "factura": // a 200 that says errores, quoting the headers
			b, _ := json.Marshal(map[string]any{"errores": true, "facturaId": 0, "datos": map[string]any{"error": "token " + tok + " sin permiso"}})
			body = string(b)
		case "html":
			body = "<html><body><pre>X-Nx-Token: " + html.EscapeString(tok) + "</pre></body></html>"
		case "url":
			body = "GET /?token=" + url.QueryEscape(tok) + " refused"
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// TestScrubEchoedToken: whatever way the answer repeats the token, no text
// the client hands on (Outcome.Message, Outcome.Err, a read's error) holds
// it, and the rest of the message is still there.
func TestScrubEchoedToken(t *testing.T) {
	tokens := []string{
		"CANARY-5b0e-token-must-never-leak",
		`tok"with<special>&chars/+=?`,
		"sh0rt",
	}
	styles := []struct {
		status int
		style  string
		class  Class
	}{
		{400, "text", Rejected},
		{502, "text", Unknown},
		{400, "json", Rejected},
		{500, "json-unicode", Unknown},
		{200, "factura", Rejected},
		{403, "html", Rejected},
		{404, "url", Rejected},
	}
	for _, tok := range tokens {
		for _, s := range styles {
			t.Run(fmt.Sprintf("%s/%d-%s", tok, s.status, s.style), func(t *testing.T) {
				_, c := newServer(t, NewToken(tok), 5*time.Second, echo(s.status, s.style))
				o := c.Venta(context.Background(), []byte(ventaBody))
				if o.Class != s.class {
					t.Errorf("class %v, want %v (message %q, err %v)", o.Class, s.class, o.Message, o.Err)
				}
				texts := []string{o.Message, fmt.Sprint(o.Err)}
				if !strings.Contains(o.Message, redacted) {
					t.Errorf("message %q does not say where the token was", o.Message)
				}
				if s.status != 200 {
					_, err := c.Config(context.Background())
					if err == nil {
						t.Fatal("Config: no error on an error answer")
					}
					texts = append(texts, err.Error())
				}
				for _, x := range texts {
					if leaks(x, tok) {
						t.Errorf("the token leaks: %q", x)
					}
				}
			})
		}
	}
}

// leaks reports whether s holds tok as written or in an escaped form.
func leaks(s, tok string) bool {
	for _, f := range tokenForms(tok) {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// TestScrubKeepsAnswers: a short token that is also a piece of ordinary
// words and values leaves an answer without it untouched, and a JSON answer
// stays valid JSON whatever is scrubbed from it.
func TestScrubKeepsAnswers(t *testing.T) {
	cases := []struct {
		tok, body, want string
	}{
		{"t", `{"facturaId":12,"pVNumero":3,"errores":false}`, `{"facturaId":12,"pVNumero":3,"errores":false}`},
		{"1", `{"facturaId":1,"mensajes":["fila 1"]}`, `{"facturaId":1,"mensajes":["fila [redacted]"]}`},
		{"t", "Token t invalido", "Token [redacted] invalido"},
		{"abc", `{"a":"x\u0041abc y"}`, `{"a":"x\u0041abc y"}`},
		{"abc", `{"a":"x \u0061bc y"}`, `{"a":"x [redacted] y"}`},
		{"CANARY-long-token", `{"a":"xCANARY-long-tokeny"}`, `{"a":"x[redacted]y"}`},
		{"CANARY-long-token", `not json CANARY-long-token`, `not json [redacted]`},
	}
	for _, c := range cases {
		got := string(NewToken(c.tok).scrub([]byte(c.body)))
		if got != c.want {
			t.Errorf("token %q in %s: got %s, want %s", c.tok, c.body, got, c.want)
		}
		if json.Valid([]byte(c.body)) && !json.Valid([]byte(got)) {
			t.Errorf("token %q: %s is no longer JSON", c.tok, got)
		}
	}
}

// FuzzScrub: whatever the token and the answer, the scrubbed answer holds
// no copy of the token standing as a word, and JSON stays JSON.
func FuzzScrub(f *testing.F) {
	f.Add("CANARY-token-123456", `{"error":"X-Nx-Token: CANARY-token-123456"}`)
	f.Add("t", `{"facturaId":1,"t":"t"}`)
	f.Add(`a"b`, `{"x":"a\"b"}`)
	f.Fuzz(func(t *testing.T, tok, body string) {
		if tok == "" || !validHeaderValue(tok) {
			return
		}
		got := NewToken(tok).scrub([]byte(body))
		if json.Valid([]byte(body)) && !json.Valid(got) {
			t.Fatalf("%q is no longer JSON: %q", body, got)
		}
		if len(tok) >= shortToken && !json.Valid([]byte(body)) && strings.Contains(string(got), tok) &&
			!strings.Contains(tok, redacted) {
			t.Fatalf("token %q left in %q", tok, got)
		}
	})
}

// BenchmarkScrubCatalog scrubs a catalog-sized answer (about 2 MB of JSON
// whose names carry \u escapes, as some servers write accents) that holds
// no token: the price every large answer pays.
func BenchmarkScrubCatalog(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`[`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"articuloId":%d,"nombre":"Art\u00edculo n\u00famero %d","codigo":"A-%06d","precio":1234.5}`, i, i, i)
	}
	sb.WriteString(`]`)
	body := []byte(sb.String())
	tok := NewToken("CANARY-5b0e-token-must-never-leak")
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		_ = tok.scrub(body)
	}
}
