package nxapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// The vendor's public types of this API send "JSON en camelCase, enums como
// enteros" (public-facts.md, "Wire types"): every enum is an integer, and
// /comprobante's ordenId is a string or null. The decoders of answers
// accept what those types allow, and a field of any other JSON type is a
// *WireError naming it, so that a read-back it belongs to is unknown
// instead of a wrong decision.

// WireError is an answer field of a JSON type the vendor's types do not
// allow (an object where a number must be, "abc" where an ordenId must be
// a number): what came is quoted, so a person can see it.
type WireError struct {
	// Field is the field's JSON path in the answer ("ordenId",
	// "items.cantidad"); "" for the answer as a whole.
	Field string
	// Got is what came: the JSON type, and the value when it is short
	// enough to quote (`string "abc"`, `object {"a":1}`).
	Got string
	// Want is the Go type it had to fit.
	Want string
}

func (e *WireError) Error() string {
	field := e.Field
	if field == "" {
		field = "(answer)"
	}
	return fmt.Sprintf("field %s: unexpected %s (want %s)", field, e.Got, e.Want)
}

// Decode unmarshals an API answer into v. A field of an unexpected JSON
// type is a *WireError; other failures (not JSON at all) are
// encoding/json's errors.
func Decode(b []byte, v any) error {
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	return AsWireError(err)
}

// AsWireError turns an encoding/json type error into a *WireError, with
// the embedding helper fields of the answers' decoders taken out of the
// path; any other error is returned as it is.
func AsWireError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	var parts []string
	for p := range strings.SplitSeq(te.Field, ".") {
		if p != "" && p != "plain" {
			parts = append(parts, p)
		}
	}
	want := "?"
	if te.Type != nil {
		want = te.Type.String()
	}
	return &WireError{Field: strings.Join(parts, "."), Got: te.Value, Want: want}
}

// maxQuoted is how much of an unexpected value an error quotes: enough to
// recognise it, never a whole answer.
const maxQuoted = 60

// typeError is what the tolerant types' UnmarshalJSON return for a value
// they cannot take: a *json.UnmarshalTypeError, which encoding/json
// completes with the field's path, quoting the value.
func typeError(raw []byte, want any) error {
	return &json.UnmarshalTypeError{Value: describe(raw), Type: reflect.TypeOf(want)}
}

// describe is the JSON type of raw and the value itself, cut short.
func describe(raw []byte) string {
	kind := "value"
	if len(raw) > 0 {
		switch raw[0] {
		case '{':
			kind = "object"
		case '[':
			kind = "array"
		case '"':
			kind = "string"
		case 't', 'f':
			kind = "boolean"
		default:
			kind = "number"
		}
	}
	s := string(raw)
	if len(s) > maxQuoted {
		cut := maxQuoted
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return kind + " " + s
}

// Code is an enum or state code as the wire carries it, kept as opaque
// text: the vendor's types send an integer (estado, tipoDocumento), older
// answers and the spec's prose a name. It is never to be interpreted: the
// numeric codes of estado are not public. A JSON string or number is
// taken as its text, null as ""; an object, array or boolean is a type
// error.
type Code string

// UnmarshalJSON implements json.Unmarshaler.
func (c *Code) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return typeError(b, Code(""))
	case string(b) == "null":
		*c = ""
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = Code(s)
		return nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		// encoding/json has already checked it is a valid number.
		*c = Code(b)
		return nil
	}
	return typeError(b, Code(""))
}

// MarshalJSON writes an integer code as a JSON number, as the vendor's
// wire does, and any other text as a string.
func (c Code) MarshalJSON() ([]byte, error) {
	if isInteger(string(c)) {
		return []byte(c), nil
	}
	return json.Marshal(string(c))
}

// isInteger reports whether s is an integer as JSON writes it: an
// optional minus, and digits without a leading zero.
func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	return allDigits(s)
}

// OrdenRef is /comprobante's ordenId: a string or null in the vendor's
// types ("77003"), a number in older answers. Its text is kept as it came;
// Int reads it as the number PedidoTerceros.ordenId was. "" is null or
// absent. It is written as the vendor does: a string, or null.
type OrdenRef string

// UnmarshalJSON implements json.Unmarshaler.
func (o *OrdenRef) UnmarshalJSON(b []byte) error {
	var c Code
	if err := c.UnmarshalJSON(b); err != nil {
		return typeError(bytes.TrimSpace(b), OrdenRef(""))
	}
	*o = OrdenRef(c)
	return nil
}

// MarshalJSON writes the ordenId as a string, or null when there is none.
func (o OrdenRef) MarshalJSON() ([]byte, error) {
	if o == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(o))
}

// Int is the ordenId as a number, compared by value ("077003" is 77003);
// ok is false when there is none or its text is not a whole number.
func (o OrdenRef) Int() (n int64, ok bool) {
	if o == "" {
		return 0, false
	}
	d, err := ParseDecimal(string(o))
	if err != nil || !d.IsInteger() {
		return 0, false
	}
	return d.Int(), true
}

// OrdenRefOf is the ordenId n as /comprobante writes it.
func OrdenRefOf(n int64) OrdenRef {
	if n == 0 {
		return ""
	}
	return OrdenRef(fmt.Sprint(n))
}
