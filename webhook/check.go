// Package webhook administers the integration's one articulos webhook (API
// spec 4.6): it checks every field rule locally, with the API's own limits,
// before anything is sent, and paces list and write calls by the API's
// windows persisted across runs, so that a second command right after the
// first waits instead of being refused.
package webhook

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Field limits of API spec 4.6 and 8 (package sendrules holds them).
const (
	MaxURL         = sendrules.WebhookURLMax
	MaxHeaders     = sendrules.WebhookHeadersMax
	MaxHeaderKey   = sendrules.WebhookHeaderKeyMax
	MaxHeaderValue = sendrules.WebhookHeaderValueMax
)

// Check returns every rule of API spec 4.6 that g breaks, as messages an
// operator can act on; none means the API should accept g.
func Check(g nxapi.WebhookGuardar) []msg.Message {
	var out []msg.Message
	u, err := url.Parse(g.URL)
	switch {
	case strings.TrimSpace(g.URL) == "":
		out = append(out, msg.New("wh.url.required"))
	case utf8.RuneCountInString(g.URL) > MaxURL:
		out = append(out, msg.New("wh.url.long", utf8.RuneCountInString(g.URL), MaxURL))
	case err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		out = append(out, msg.New("wh.url.bad", g.URL))
	}
	switch g.Topic {
	case nxapi.TopicArticulos:
	case "":
		out = append(out, msg.New("wh.topic.required"))
	default:
		out = append(out, msg.New("wh.topic.bad", g.Topic))
	}
	if g.Extra != nil && *g.Extra != nxapi.ExtraObjeto && *g.Extra != nxapi.ExtraCurva {
		out = append(out, msg.New("wh.extra.bad", *g.Extra))
	}
	if len(g.Headers) > MaxHeaders {
		out = append(out, msg.New("wh.headers.many", len(g.Headers), MaxHeaders))
	}
	seen := map[string]string{}
	for i, h := range g.Headers {
		n := i + 1
		switch {
		case h.Key == "":
			out = append(out, msg.New("wh.key.required", n))
		case utf8.RuneCountInString(h.Key) > MaxHeaderKey:
			out = append(out, msg.New("wh.key.long", n, MaxHeaderKey))
		case !plainKey(h.Key):
			out = append(out, msg.New("wh.key.bad", h.Key))
		default:
			// The API compares keys ignoring letter case.
			if prev, dup := seen[strings.ToLower(h.Key)]; dup {
				out = append(out, msg.New("wh.key.repeated", h.Key, prev))
			} else {
				seen[strings.ToLower(h.Key)] = h.Key
			}
		}
		switch {
		case h.Value == "":
			out = append(out, msg.New("wh.value.required", h.Key))
		case utf8.RuneCountInString(h.Value) > MaxHeaderValue:
			out = append(out, msg.New("wh.value.long", h.Key, MaxHeaderValue))
		case strings.ContainsAny(h.Value, "\r\n"):
			out = append(out, msg.New("wh.value.newline", h.Key))
		}
	}
	return out
}

// plainKey reads "no spaces or special characters" strictly: letters,
// digits, '-' and '_', which every HTTP stack also accepts as a header name.
func plainKey(k string) bool {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// SecretInClear reports whether a shared secret sent to rawURL would cross
// the network unencrypted: plain http to a host that is not loopback.
// https, and http to localhost or a loopback address (the sandbox, a proxy
// on the same machine), keep it off the wire.
func SecretInClear(rawURL string) bool { return apiclient.ClearText(rawURL) }
