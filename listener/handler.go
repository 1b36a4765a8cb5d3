package listener

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// SecretHeader is the header nxbatch configures on the webhook to carry the
// shared secret, and that Handler checks.
const SecretHeader = "X-NXBATCH-SECRET"

// DefaultMaxBody caps an event body when Handler.MaxBody is 0. An event is
// one article with its variants; megabytes mean something is wrong.
const DefaultMaxBody = 4 << 20

// Appender stores an event durably (*Store).
type Appender interface {
	Append(body []byte) (Event, error)
}

// Handler receives articulos events: POST only, the shared secret checked
// in constant time when one is configured, the body capped and required to
// be JSON, and 200 only once the event is durable.
type Handler struct {
	Store   Appender
	Secret  []byte // nil: no secret is required
	MaxBody int64  // 0: DefaultMaxBody
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
// echo the secret.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if h.Secret != nil && !h.authentic(r.Header.Get(SecretHeader)) {
		h.log().Warn("event refused: missing or wrong shared secret", "remote", r.RemoteAddr)
		http.Error(w, "missing or wrong "+SecretHeader, http.StatusUnauthorized)
		return
	}
	limit := h.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			h.log().Warn("event refused: body too large", "limit", limit)
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "body not read", http.StatusBadRequest)
		return
	}
	if !json.Valid(body) {
		h.log().Warn("event refused: body is not JSON", "bytes", len(body))
		http.Error(w, "body is not JSON", http.StatusBadRequest)
		return
	}
	ev, err := h.Store.Append(body)
	if err != nil {
		// Not acknowledged: the sender counts the delivery as failed.
		h.log().Error("event not stored", "error", err)
		http.Error(w, "event not stored", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
	h.log().Debug("event stored", "seq", ev.Seq, "bytes", len(body), "ack", time.Since(start))
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
