package listener

import (
	"bytes"
	"errors"
	"fmt"
)

// DefaultMaxItems caps the items of one event when Options.MaxItems is 0:
// variant records (flat format), curve entries (grouped format) and
// per-warehouse entries, counted together. The largest event seen, one
// article with 90,000 variants in 4 MB, has 90,000; a cap five times that
// still bounds what one event may cost to fold and keep.
const DefaultMaxItems = 500_000

// errNotObject reports an event record, curve entry or warehouse entry that
// is not a JSON object: a body such as [1,1,1,...] is refused at its first
// element instead of being decoded into millions of empty records.
var errNotObject = errors.New("an element of the event is not a JSON object")

// errNotEvent reports a body that is neither an array of records nor one
// record.
var errNotEvent = errors.New("the body is neither an array of article records nor one article record")

// TooManyItemsError reports an event with more items than the cap.
type TooManyItemsError struct {
	Limit int
}

// Error names the cap; the handler logs and answers the catalog's message.
func (e *TooManyItemsError) Error() string {
	return fmt.Sprintf("the event has more than %d items (variants and warehouse entries)", e.Limit)
}

// budget counts the items of one event against the cap; a limit of 0
// counts without a cap.
type budget struct {
	limit, used int
}

// take counts one item, and fails past the cap.
func (b *budget) take() error {
	b.used++
	if b.limit > 0 && b.used > b.limit {
		return &TooManyItemsError{Limit: b.limit}
	}
	return nil
}

// errNotJSON reports a body that is not JSON.
var errNotJSON = errors.New("the body is not JSON")

// maxDepth is how deeply arrays and objects may nest, as in encoding/json,
// whose verdict checkEvent gives: it also bounds checkEvent's recursion.
const maxDepth = 10000

// role is what a JSON value is to checkEvent.
type role uint8

const (
	rOther     role = iota // not looked into
	rRecords               // the top-level array of records
	rRecord                // an article record
	rCurva                 // a record's curve
	rCurvaItem             // an entry of a curve
	rDeps                  // a stockDepositos list
	rDepItem               // an entry of a stockDepositos list
)

// checker is checkEvent's position in the body.
type checker struct {
	body  []byte
	i     int
	depth int
	b     budget
}

// checkEvent is the store's check of an event before it is written, in
// one pass over the bytes that builds nothing (decoding the records, as
// the fold does, took a second for 4 MB under the race detector): the body
// must be JSON (errNotJSON; the same verdict as json.Valid), an array
// whose elements are all objects or one object (errNotEvent, errNotObject),
// with curve entries and stockDepositos entries that are objects too
// (errNotObject), and at most maxItems items (0: no cap): records, curve
// entries and warehouse entries (*TooManyItemsError). It finds curva and
// stockDepositos the way encoding/json matches field names (any letter
// case, escapes decoded), so it counts at least what decodeEvent will. An
// element of the wrong kind or one item too many stops it at once.
func checkEvent(body []byte, maxItems int) (items int, err error) {
	c := &checker{body: body, b: budget{limit: maxItems}}
	c.blank()
	switch {
	case c.i < len(body) && body[c.i] == '[':
		err = c.value(rRecords)
	case c.i < len(body) && body[c.i] == '{':
		err = c.value(rRecord)
	default:
		if err = c.value(rOther); err == nil {
			err = errNotEvent
		}
	}
	if err != nil {
		return c.b.used, err
	}
	if c.blank(); c.i != len(body) {
		return c.b.used, errNotJSON
	}
	return c.b.used, nil
}

// blank skips JSON white space.
func (c *checker) blank() {
	for c.i < len(c.body) {
		switch c.body[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value checks the value at c.i, of role r, and moves past it.
func (c *checker) value(r role) error {
	c.blank()
	isObj := r == rRecord || r == rCurvaItem || r == rDepItem
	if isObj {
		if err := c.b.take(); err != nil {
			return err
		}
	}
	if c.i >= len(c.body) {
		return errNotJSON
	}
	ch := c.body[c.i]
	if isObj && ch != '{' {
		return errNotObject
	}
	switch {
	case ch == '{' || ch == '[':
		if ch == '{' && !isObj || ch == '[' && r != rRecords && r != rCurva && r != rDeps {
			r = rOther // of no interest, or a field of the wrong type
		}
		if c.depth++; c.depth > maxDepth {
			return errNotJSON
		}
		var err error
		if ch == '{' {
			err = c.object(r)
		} else {
			err = c.array(r)
		}
		c.depth--
		return err
	case ch == '"':
		_, err := c.str()
		return err
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	case ch == '-' || ch >= '0' && ch <= '9':
		return c.number()
	}
	return errNotJSON
}

// object checks the object at c.i ('{'), of role r.
func (c *checker) object(r role) error {
	c.i++
	if c.blank(); c.i < len(c.body) && c.body[c.i] == '}' {
		c.i++
		return nil
	}
	for {
		if c.blank(); c.i >= len(c.body) || c.body[c.i] != '"' {
			return errNotJSON
		}
		key, err := c.str()
		if err != nil {
			return err
		}
		if c.blank(); c.i >= len(c.body) || c.body[c.i] != ':' {
			return errNotJSON
		}
		c.i++
		if err := c.value(keyRole(r, key)); err != nil {
			return err
		}
		c.blank()
		if c.i >= len(c.body) {
			return errNotJSON
		}
		switch c.body[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return nil
		default:
			return errNotJSON
		}
	}
}

// array checks the array at c.i ('['), of role r.
func (c *checker) array(r role) error {
	elem := rOther
	switch r {
	case rRecords:
		elem = rRecord
	case rCurva:
		elem = rCurvaItem
	case rDeps:
		elem = rDepItem
	}
	c.i++
	if c.blank(); c.i < len(c.body) && c.body[c.i] == ']' {
		c.i++
		return nil
	}
	for {
		if err := c.value(elem); err != nil {
			return err
		}
		c.blank()
		if c.i >= len(c.body) {
			return errNotJSON
		}
		switch c.body[c.i] {
		case ',':
			c.i++
		case ']':
			c.i++
			return nil
		default:
			return errNotJSON
		}
	}
}

// str checks the string at c.i ('"') and returns its raw contents.
func (c *checker) str() ([]byte, error) {
	start := c.i + 1
	for j := start; j < len(c.body); j++ {
		switch ch := c.body[j]; {
		case ch == '"':
			c.i = j + 1
			return c.body[start:j], nil
		case ch < 0x20:
			return nil, errNotJSON
		case ch == '\\':
			j++
			if j >= len(c.body) {
				return nil, errNotJSON
			}
			switch c.body[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(c.body) {
					return nil, errNotJSON
				}
				for _, h := range c.body[j+1 : j+5] {
					if !isHex(h) {
						return nil, errNotJSON
					}
				}
				j += 4
			default:
				return nil, errNotJSON
			}
		}
	}
	return nil, errNotJSON
}

func isHex(h byte) bool { return h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F' }

func isDigit(h byte) bool { return h >= '0' && h <= '9' }

// literal checks that word is at c.i.
func (c *checker) literal(word string) error {
	if len(c.body)-c.i < len(word) || string(c.body[c.i:c.i+len(word)]) != word {
		return errNotJSON
	}
	c.i += len(word)
	return nil
}

// number checks the number at c.i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *checker) number() error {
	b, i := c.body, c.i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return errNotJSON
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return errNotJSON
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return errNotJSON
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	c.i = i
	return nil
}

// keyRole is the role of the value of key in an object of role r.
func keyRole(r role, key []byte) role {
	if r != rRecord && r != rCurvaItem {
		return rOther
	}
	key = unescapeKey(key)
	switch {
	case r == rRecord && bytes.EqualFold(key, []byte("curva")):
		return rCurva
	case bytes.EqualFold(key, []byte("stockDepositos")):
		return rDeps
	}
	return rOther
}
