package apiclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Class is what a request's outcome means for nxbatch (nxbatch.md section 5).
type Class int

// The classes of an outcome.
const (
	// OK: the API created the voucher or registered the movement.
	OK Class = iota + 1
	// Rejected: the API refused it; a later run may send it again once the
	// data is fixed.
	Rejected
	// Unknown: it may have been processed; never resent automatically.
	Unknown
	// Resend: provably not processed; wait Outcome.Wait and send again.
	Resend
	// Abort: the token was refused (401); nothing more may be sent.
	Abort
)

// String returns the class's lower-case name, as the journal and logs use it.
func (c Class) String() string {
	switch c {
	case OK:
		return "ok"
	case Rejected:
		return "rejected"
	case Unknown:
		return "unknown"
	case Resend:
		return "resend"
	case Abort:
		return "abort"
	}
	return "class(" + strconv.Itoa(int(c)) + ")"
}

// Outcome is the classified result of one creating request.
type Outcome struct {
	Class  Class
	Status int // HTTP status, 0 if none
	// Message is the API's own text, verbatim (datos.error, observaciones,
	// errorFE, errores, mensajes, or the body's text), "" if none.
	Message string
	// Wait is, for Resend after a 403 "Debe esperar N segundos", N seconds
	// (unscaled, as the server said); 0 for a never-sent retry.
	Wait   time.Duration
	Result *nxapi.FacturaResult // venta/facturar, when decoded
	Stock  *nxapi.NxResultado   // stock, when decoded
	// Err is the transport, read or decode error, if any. It never contains
	// the token: the token travels only in a header.
	Err error
	// Written reports that the request was (maybe partly) written to the
	// connection, so the server may have received it.
	Written bool
}

var (
	waitRE = regexp.MustCompile(`(?i)debe\s+esperar\s+(\d{1,9}(?:[.,]\d{1,9})?)\s*segundo`)
	// busyRE matches nxapi.MsgEnProceso, also with the accent and any case.
	busyRE = regexp.MustCompile(`(?i)la\s+solicitud\s+ya\s+se\s+est(?:a|á|\\u00e1)\s+procesando`)
)

// maxWait bounds a server-given wait, so a garbled number cannot park a run
// for years.
const maxWait = 24 * time.Hour

// ParseWait finds "Debe esperar N segundos" in any body (JSON or text) and
// returns N seconds. The body's shape is not documented, so the raw bytes are
// searched whatever the content type.
func ParseWait(body []byte) (time.Duration, bool) {
	m := waitRE.FindSubmatch(body)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(strings.Replace(string(m[1]), ",", ".", 1), 64)
	if err != nil {
		return 0, false
	}
	d := time.Duration(n * float64(time.Second))
	if d > maxWait {
		d = maxWait
	}
	return d, true
}

// Classify turns what one creating request got back into its Outcome: the one
// classification of the whole tool (nxbatch.md section 5). It is pure: status
// is the HTTP status (0 if no answer arrived), body what was read of the
// answer, transportErr the error of sending or reading, written whether the
// request was (maybe partly) written, stock whether it was a stock movement.
func Classify(status int, body []byte, transportErr error, written bool, stock bool) Outcome {
	o := Outcome{Status: status, Err: transportErr, Written: written || status != 0}

	if transportErr != nil {
		// Only a request that provably never left may go again; anything
		// else (a timeout, a cut connection, an unreadable answer) may have
		// been processed.
		if !o.Written && notSent(transportErr) {
			o.Class = Resend
			return o
		}
		o.Class = Unknown
		return o
	}

	// A request with this key already arrived: whatever the status, the
	// first one may still create the voucher.
	if busyRE.Match(body) {
		o.Class = Unknown
		o.Message = apiMessage(body)
		if o.Message == "" {
			o.Message = nxapi.MsgEnProceso
		}
		return o
	}

	switch {
	case status == 401:
		o.Class = Abort
		o.Message = apiMessage(body)
	case status >= 200 && status <= 299:
		if stock {
			classifyStock(&o, body)
		} else {
			classifyFactura(&o, body)
		}
	case status == 403 || status == 429:
		o.Message = apiMessage(body)
		if wait, ok := ParseWait(body); ok {
			o.Class = Resend
			o.Wait = wait
		} else if status == 429 {
			// Too Many Requests is a refusal before processing by definition.
			o.Class = Resend
		} else {
			// Branch scope, an inactive entidadId, a malformed stock body
			// (MsgStockIncorrecto): refused, not processed.
			o.Class = Rejected
		}
	case status >= 500 && status <= 599:
		// A 5xx on a creating POST is indeterminate: the voucher may exist.
		o.Class = Unknown
		o.Message = apiMessage(body)
	case status >= 300 && status <= 399:
		// A redirect proves nothing about a POST: a 303 conventionally means
		// "processed, see the result there". It is never followed (the
		// token would go with it), so the outcome stays unknown.
		o.Class = Unknown
		o.Message = apiMessage(body)
	case status >= 400 && status <= 499:
		// 400, 404 and the other client errors: the request was not
		// processed as sent.
		o.Class = Rejected
		o.Message = apiMessage(body)
	default:
		o.Class = Unknown
		o.Message = apiMessage(body)
	}
	return o
}

func classifyFactura(o *Outcome, body []byte) {
	var r nxapi.FacturaResult
	if err := decodeObject(body, &r); err != nil {
		o.Class = Unknown
		o.Err = fmt.Errorf("decoding the answer: %w", err)
		o.Message = rawText(body)
		return
	}
	o.Result = &r
	switch {
	case r.Errores && r.FacturaID > 0:
		// A failure that still names a voucher (e.g. the electronic invoice
		// failed after the sale was recorded): resending could invoice twice.
		o.Class = Unknown
		o.Message = r.ErrorText()
		if o.Message == "" {
			o.Message = jsonMessage(body)
		}
	case r.Errores:
		o.Class = Rejected
		o.Message = r.ErrorText()
		if o.Message == "" {
			o.Message = jsonMessage(body)
		}
	case r.FacturaID > 0:
		o.Class = OK
	default:
		// errores=false but no facturaId: the API did not say what happened.
		o.Class = Unknown
		o.Message = r.ErrorText()
	}
}

func classifyStock(o *Outcome, body []byte) {
	var r nxapi.NxResultado
	if err := decodeObject(body, &r); err != nil {
		o.Class = Unknown
		o.Err = fmt.Errorf("decoding the answer: %w", err)
		o.Message = rawText(body)
		return
	}
	o.Stock = &r
	// tipo must be present: a missing tipo decodes as 0 (ERROR), which
	// would turn "no definite answer" into "rejected".
	var probe struct {
		Tipo json.RawMessage `json:"tipo"`
	}
	_ = json.Unmarshal(body, &probe)
	if len(probe.Tipo) == 0 || string(probe.Tipo) == "null" {
		o.Class = Unknown
		o.Message = joinTexts(r.Errores, r.Mensajes)
		return
	}
	if r.Tipo == nxapi.NxOK {
		o.Class = OK
		return
	}
	o.Class = Rejected
	o.Message = joinTexts(r.Errores, r.Mensajes)
}

// decodeObject decodes a JSON object into v; anything else (empty, null,
// an array, trailing garbage) is an error, because it is not a definite
// answer.
func decodeObject(body []byte, v any) error {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return errors.New("empty body")
	}
	if b[0] != '{' {
		return errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		// A field of an unexpected type is named and quoted.
		return nxapi.AsWireError(err)
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// joinTexts returns the errores texts, else the mensajes texts, joined.
func joinTexts(errores, mensajes []nxapi.Text) string {
	for _, list := range [][]nxapi.Text{errores, mensajes} {
		var parts []string
		for _, t := range list {
			if s := strings.TrimSpace(string(t)); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "; ")
		}
	}
	return ""
}

// messageFields are the JSON fields an error body may carry its text in, in
// the order they are preferred: the spec's mensajes first.
var messageFields = []string{"mensajes", "errores", "error", "mensaje", "message", "Message", "detail", "title", "datos"}

// apiMessage extracts the API's own text from an answer body: a JSON
// object's message fields, a JSON string or list of strings, or else the raw
// text. The text is kept verbatim, only trimmed and capped.
func apiMessage(body []byte) string {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return ""
	}
	if s := jsonMessage(b); s != "" {
		return s
	}
	return rawText(b)
}

// jsonMessage is the message text a JSON body carries in its known fields,
// "" if it is not JSON or has none.
func jsonMessage(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	return capText(textOf(v, 0))
}

// textOf finds message text in a decoded JSON value, looking one object
// level deep (e.g. {"datos": {"error": "..."}}).
func textOf(v any, depth int) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case []any:
		var parts []string
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				parts = append(parts, strings.TrimSpace(s))
			} else if depth < 1 {
				if s := textOf(e, depth+1); s != "" {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "; ")
	case map[string]any:
		if depth > 1 {
			return ""
		}
		for _, k := range messageFields {
			if f, ok := x[k]; ok {
				if s := textOf(f, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// maxMessage caps a quoted body (an HTML error page would otherwise fill a
// report cell).
const maxMessage = 1000

func rawText(b []byte) string {
	return capText(string(bytes.TrimSpace(b)))
}

func capText(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// notSentError marks a failure that happened before the transport had a
// connection for the request, so nothing of it can have reached the server.
type notSentError struct{ err error }

func (e notSentError) Error() string { return e.err.Error() }
func (e notSentError) Unwrap() error { return e.err }

// notSent reports whether err provably happened before the request left:
// no connection was ever obtained, or a dial, DNS, refused or unreachable
// error. In doubt it says false (unknown).
func notSent(err error) bool {
	var ns notSentError
	if errors.As(err, &ns) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ENETUNREACH) ||
		errors.Is(err, syscall.EHOSTUNREACH)
}
