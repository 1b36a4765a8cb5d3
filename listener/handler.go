package listener

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// SecretHeader is the header nxbatch configures on the webhook to carry the
// shared secret, and that Handler checks.
const SecretHeader = "X-NXBATCH-SECRET"

// DefaultMaxBody caps an event body when Handler.MaxBody is 0. An event is
// one article with its variants; megabytes mean something is wrong.
const DefaultMaxBody = 4 << 20

// EventStore stores events durably and counts those refused (*Store).
type EventStore interface {
	Append(body []byte) (Event, error)
	Refuse(kind Refusal, n int) Refusals
}

// Handler receives articulos events: POST only, the shared secret checked
// in constant time when one is configured, the body capped, the store's
// check (an article event of at most Options.MaxItems items), and 200 only
// once the event is durable.
type Handler struct {
	Store   EventStore
	Secret  []byte // nil: no secret is required
	MaxBody int64  // 0: DefaultMaxBody
	Lang    msg.Lang
	Log     *slog.Logger
	// SecretDir, when set with Secret, is where the secret is re-read from
	// (at most once a second) when a request does not carry the one in use:
	// after `webhooks set --secret` the ERP sends the new secret at once and
	// does not retry refused events, so waiting for a restart loses them.
	SecretDir string

	mu       sync.Mutex
	current  []byte // the secret in use once reloaded; nil: Secret
	reloaded time.Time
}

// ServeHTTP answers one delivery. Refusals say why in plain text; they never
// echo the secret. An event refused for its content or because it could
// not be stored is counted: the ERP will not send it again.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, h.text("lst.http.post"), http.StatusMethodNotAllowed)
		return
	}
	if h.Secret != nil && !h.authentic(r.Header.Get(SecretHeader)) {
		h.log().Warn(h.text("lst.log.badsecret", SecretHeader), "remote", r.RemoteAddr)
		http.Error(w, h.text("lst.http.badsecret", SecretHeader), http.StatusUnauthorized)
		return
	}
	limit := h.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, limit), r.ContentLength, limit)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			h.refuse(w, TooLarge, http.StatusRequestEntityTooLarge, "lst.log.toolarge", limit)
			return
		}
		http.Error(w, h.text("lst.http.unread"), http.StatusBadRequest)
		return
	}
	ev, err := h.Store.Append(body)
	var tm *TooManyItemsError
	switch {
	case errors.As(err, &tm):
		h.refuse(w, TooLarge, http.StatusRequestEntityTooLarge, "lst.log.toomany", tm.Limit)
		return
	case errors.Is(err, ErrNotJSON):
		h.refuse(w, Malformed, http.StatusBadRequest, "lst.log.notjson", len(body))
		return
	case errors.Is(err, ErrNotEvent):
		h.refuse(w, Malformed, http.StatusBadRequest, "lst.log.notevent", len(body))
		return
	case err != nil:
		// Not acknowledged: the sender counts the delivery as failed. The
		// store has logged and counted it.
		http.Error(w, h.text("lst.http.unstored"), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
	h.log().Debug(h.text("lst.log.stored", ev.Seq, len(body), time.Since(start).String()))
}

// refuse answers status with the log's message key (whose one argument is
// arg), after counting the refusal.
func (h *Handler) refuse(w http.ResponseWriter, kind Refusal, status int, key string, arg any) {
	r := h.Store.Refuse(kind, 1)
	h.log().Warn(h.text(key, arg), "status", status, "refused", r.Total())
	http.Error(w, h.text(key, arg), status)
}

func (h *Handler) text(key string, args ...any) string {
	l := h.Lang
	if l == "" {
		l = msg.ES
	}
	return msg.New(key, args...).In(l)
}

// readBody reads the whole body into one buffer of the announced size
// (within limit): io.ReadAll's growing copies cost a fifth of a 4 MB
// event's acknowledgement under the race detector.
func readBody(r io.Reader, announced, limit int64) ([]byte, error) {
	size := int64(512)
	if announced > 0 {
		size = min(announced, limit) + 1 // +1: room for the read that sees the end
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // a body longer than announced
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// authentic reports whether got is the secret in use, re-reading the
// secret file once on a mismatch in case it was rotated.
func (h *Handler) authentic(got string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.current == nil {
		h.current = h.Secret
	}
	if sameSecret(got, h.current) {
		return true
	}
	if h.SecretDir == "" || time.Since(h.reloaded) < time.Second {
		return false
	}
	h.reloaded = time.Now()
	s, ok, err := LoadSecret(h.SecretDir)
	if err != nil || !ok {
		// A secret file now unreadable or removed does not lift the check.
		return false
	}
	h.current = s
	return sameSecret(got, h.current)
}

// sameSecret compares in constant time; hashing first makes the time
// independent of the lengths too.
func sameSecret(got string, want []byte) bool {
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256(want)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1 && len(want) > 0
}

func (h *Handler) log() *slog.Logger {
	if h.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.Log
}
