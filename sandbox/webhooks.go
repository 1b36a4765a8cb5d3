package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Webhook field limits (API spec 4.6, 8), from the one table.
const (
	maxURL         = sendrules.WebhookURLMax
	maxHeaders     = sendrules.WebhookHeadersMax
	maxHeaderKey   = sendrules.WebhookHeaderKeyMax
	maxHeaderValue = sendrules.WebhookHeaderValueMax
	// deliveryTimeout is how long a receiver has to answer (spec 6.1).
	deliveryTimeout = sendrules.ReceiverDeadline
)

// Webhook validation texts, one per rule of spec 4.6; the sandbox's own.
const (
	msgURLReq        = "La url es requerida"
	msgURLLarga      = "La url supera los 500 caracteres"
	msgURLInvalida   = "La url debe ser absoluta, http o https"
	msgTopicReq      = "El topic es requerido"
	msgTopicInvalido = "El topic %q no es valido: el unico topic es articulos"
	msgExtraInvalido = "El extra %q no es valido: use null, objeto o curva"
	msgHeadersMax    = "Se permiten como maximo 10 headers"
	msgKeyReq        = "El header %d no tiene key"
	msgKeyLarga      = "La key del header %d supera los 100 caracteres"
	msgKeyInvalida   = "La key %q contiene espacios o caracteres especiales"
	msgKeyRepetida   = "La key %q esta repetida"
	msgValueReq      = "El header %q no tiene valor"
	msgValueLargo    = "El valor del header %q supera los 500 caracteres"
	msgValueSalto    = "El valor del header %q contiene saltos de linea"
	msgJSONInvalido  = "El cuerpo de la solicitud no es un JSON valido"
)

// validateWebhook returns every rule of spec 4.6 that g breaks.
func validateWebhook(g *nxapi.WebhookGuardar) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	switch u, err := url.Parse(g.URL); {
	case g.URL == "":
		add(msgURLReq)
	case utf8.RuneCountInString(g.URL) > maxURL:
		add(msgURLLarga)
	case err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		add(msgURLInvalida)
	}
	switch g.Topic {
	case "":
		add(msgTopicReq)
	case nxapi.TopicArticulos:
	default:
		add(msgTopicInvalido, g.Topic)
	}
	if g.Extra != nil && *g.Extra != nxapi.ExtraObjeto && *g.Extra != nxapi.ExtraCurva {
		add(msgExtraInvalido, *g.Extra)
	}
	if len(g.Headers) > maxHeaders {
		add(msgHeadersMax)
	}
	seen := map[string]bool{}
	for i, h := range g.Headers {
		switch {
		case h.Key == "":
			add(msgKeyReq, i+1)
		case utf8.RuneCountInString(h.Key) > maxHeaderKey:
			add(msgKeyLarga, i+1)
		case !tokenKey(h.Key):
			add(msgKeyInvalida, h.Key)
		case seen[strings.ToLower(h.Key)]:
			add(msgKeyRepetida, h.Key)
		}
		seen[strings.ToLower(h.Key)] = true
		switch {
		case h.Value == "":
			add(msgValueReq, h.Key)
		case utf8.RuneCountInString(h.Value) > maxHeaderValue:
			add(msgValueLargo, h.Key)
		case strings.ContainsAny(h.Value, "\r\n"):
			add(msgValueSalto, h.Key)
		}
	}
	return out
}

// tokenKey accepts letters, digits, '-' and '_': "no spaces or special
// characters" read strictly, which every HTTP stack accepts as a header name.
func tokenKey(k string) bool {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// decodeWebhook reads and validates a WebhookGuardar, answering 400 itself.
func decodeWebhook(w http.ResponseWriter, c *call) (*nxapi.WebhookGuardar, bool) {
	var g nxapi.WebhookGuardar
	if err := c.decode(&g); err != nil {
		writeError(w, http.StatusBadRequest, msgWebhookDatos, msgJSONInvalido)
		return nil, false
	}
	if errs := validateWebhook(&g); len(errs) > 0 {
		writeError(w, http.StatusBadRequest, msgWebhookDatos, errs...)
		return nil, false
	}
	return &g, true
}

func webhookFrom(id int64, g *nxapi.WebhookGuardar) nxapi.Webhook {
	wh := nxapi.Webhook{ID: id, URL: g.URL, Topic: g.Topic, Activo: true, Extra: g.Extra,
		Headers: append([]nxapi.WebhookHeader{}, g.Headers...)}
	if g.Activo != nil {
		wh.Activo = *g.Activo
	}
	return wh
}

// webhookList copies the webhooks; s.mu must be held.
func (s *Server) webhookList() []nxapi.Webhook {
	out := make([]nxapi.Webhook, 0, len(s.webhooks))
	for _, wh := range s.webhooks {
		wh.Headers = append([]nxapi.WebhookHeader{}, wh.Headers...)
		out = append(out, wh)
	}
	return out
}

func (s *Server) listWebhooks(w http.ResponseWriter, _ *call) {
	s.mu.Lock()
	l := s.webhookList()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, l)
}

// createWebhook is POST /config/webhooks: one webhook per topic; a second
// one for the topic is a 400 (status not shown by the spec; sandbox's own).
func (s *Server) createWebhook(w http.ResponseWriter, c *call) {
	g, ok := decodeWebhook(w, c)
	if !ok {
		return
	}
	s.mu.Lock()
	for _, wh := range s.webhooks {
		if wh.Topic == g.Topic {
			s.mu.Unlock()
			writeError(w, http.StatusBadRequest, fmt.Sprintf(msgWebhookTopic, g.Topic))
			return
		}
	}
	s.webhooks = append(s.webhooks, webhookFrom(s.nextWebhook, g))
	s.nextWebhook++
	s.answerWebhooksLocked(w)
}

// answerWebhooksLocked saves a change of the webhooks and answers their
// list. s.mu is held, and released.
func (s *Server) answerWebhooksLocked(w http.ResponseWriter) {
	l := s.webhookList()
	gen := s.changedLocked()
	s.mu.Unlock()
	if s.saved(w, gen) {
		writeJSON(w, http.StatusOK, l)
	}
}

// changeWebhook applies change to the index of the webhook c names and
// answers the list; without such a webhook it answers missing.
func (s *Server) changeWebhook(w http.ResponseWriter, c *call, missing int, change func(i int)) {
	id, _ := strconv.ParseInt(c.id, 10, 64)
	s.mu.Lock()
	for i, wh := range s.webhooks {
		if wh.ID == id {
			change(i)
			s.answerWebhooksLocked(w)
			return
		}
	}
	s.mu.Unlock()
	writeError(w, missing, fmt.Sprintf(msgWebhookNoHay, c.id))
}

// editWebhook is POST /config/webhooks/{id}; a missing id is 404 (sandbox's
// own: the spec only rules on DELETE).
func (s *Server) editWebhook(w http.ResponseWriter, c *call) {
	g, ok := decodeWebhook(w, c)
	if !ok {
		return
	}
	s.changeWebhook(w, c, http.StatusNotFound, func(i int) { s.webhooks[i] = webhookFrom(s.webhooks[i].ID, g) })
}

// deleteWebhook is DELETE /config/webhooks/{id}; a missing id is 400, so
// DELETE is not idempotent (spec 4.6).
func (s *Server) deleteWebhook(w http.ResponseWriter, c *call) {
	s.changeWebhook(w, c, http.StatusBadRequest, func(i int) { s.webhooks = append(s.webhooks[:i], s.webhooks[i+1:]...) })
}

// enqueueChanges queues one articulos event per article for the webhook, as
// the article is now. s.mu must be held, so events leave in the order of the
// changes. `activo` does not stop delivery (spec 6.5); only deleting does.
func (s *Server) enqueueChanges(arts []int64) {
	if len(s.webhooks) == 0 {
		return
	}
	wh := s.webhooks[0]
	for _, id := range arts {
		a := s.articulos[id]
		grouped := wh.Extra != nil && *wh.Extra == nxapi.ExtraObjeto
		var payload any
		switch {
		case a.Eliminado && grouped:
			payload = eliminado{a.ArticuloID, true}
		case a.Eliminado:
			payload = []eliminado{{a.ArticuloID, true}}
		case grouped:
			payload = s.groupedEvent(a)
		default:
			payload = s.flatEvent(a)
		}
		body, err := json.Marshal(payload)
		if err != nil {
			s.log.Error("webhook event not encoded", "articuloId", id, "error", err)
			continue
		}
		s.deliv.push(job{url: wh.URL, headers: wh.Headers, body: body, arts: []int64{id}})
	}
}

// job is one event delivery, or, with flush set, a marker closed when every
// earlier job is done.
type job struct {
	url     string
	headers []nxapi.WebhookHeader
	body    []byte
	arts    []int64
	flush   chan struct{}
}

// deliverer posts events one at a time, in order, off the request path.
type deliverer struct {
	s       *Server
	client  *http.Client
	mu      sync.Mutex
	queue   []job
	wake    chan struct{}
	stopped chan struct{}
}

func newDeliverer(s *Server) *deliverer {
	d := &deliverer{s: s, wake: make(chan struct{}, 1), stopped: make(chan struct{}),
		client: &http.Client{Timeout: s.scaled(deliveryTimeout), Transport: &http.Transport{}}}
	go d.run()
	return d
}

func (d *deliverer) push(j job) {
	d.mu.Lock()
	d.queue = append(d.queue, j)
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *deliverer) run() {
	defer close(d.stopped)
	defer d.client.CloseIdleConnections()
	for {
		d.mu.Lock()
		q := d.queue
		d.queue = nil
		d.mu.Unlock()
		for _, j := range q {
			switch {
			case j.flush != nil:
				close(j.flush)
			case d.closed():
			default:
				d.send(j)
			}
		}
		if len(q) > 0 {
			continue
		}
		select {
		case <-d.wake:
		case <-d.s.done:
			return
		}
	}
}

func (d *deliverer) closed() bool {
	select {
	case <-d.s.done:
		return true
	default:
		return false
	}
}

func (d *deliverer) wait() { <-d.stopped }

// send posts one event with the webhook's headers; a failure is logged and
// recorded, never retried (the API documents no retry policy).
func (d *deliverer) send(j job) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-d.s.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	rec := Delivery{URL: j.url, ArticuloIDs: j.arts, Body: j.body}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, j.url, bytes.NewReader(j.body))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		for _, h := range j.headers {
			req.Header.Set(h.Key, h.Value)
		}
		var resp *http.Response
		resp, err = d.client.Do(req)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			rec.Status = resp.StatusCode
		}
	}
	rec.Time = d.s.now()
	if err != nil {
		rec.Error = err.Error()
		d.s.log.Warn("webhook delivery failed", "url", j.url, "articulos", j.arts, "error", err)
	} else if rec.Status != http.StatusOK {
		d.s.log.Warn("webhook delivery refused", "url", j.url, "articulos", j.arts, "status", rec.Status)
	}
	d.s.mu.Lock()
	d.s.deliveries = append(d.s.deliveries, rec)
	d.s.mu.Unlock()
}

// Flush waits until every event queued so far has been delivered (or has
// failed), so tests can assert on deliveries without sleeping.
func (s *Server) Flush(ctx context.Context) error {
	done := make(chan struct{})
	s.deliv.push(job{flush: done})
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.deliv.stopped:
		return fmt.Errorf("sandbox: closed before the events were delivered")
	}
}
