package listener

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/nxapi"
)

// record is any article record of either payload format: a flat
// ArticuloConCurva, a grouped Articulo (it has curva) or a deactivation.
type record struct {
	ArticuloID     *nxapi.ID
	Codigo         string
	ColorID        nxapi.ID
	TalleID        nxapi.ID
	Unidades       nxapi.Decimal
	Eliminado      bool
	StockDepositos []nxapi.StockDeposito
	StockTotal     *nxapi.Decimal
	Curva          curva
}

// curvaItem is one variant of a grouped record's curve.
type curvaItem struct {
	ColorID        nxapi.ID
	TalleID        nxapi.ID
	Unidades       nxapi.Decimal
	StockDepositos []nxapi.StockDeposito
}

// curva is a grouped record's curve. present is false when the record has
// no curve or a null one, which is what tells a flat record from a grouped
// one.
type curva struct {
	items   []curvaItem
	present bool
}

// decodeEvent reads body, a flat array of records or one grouped record,
// and calls fn for each record in order (fn must copy what it keeps: r is
// reused for the next record): r is nil for an element that is
// not an article record (not an object, or with a field of the wrong type),
// to be counted as unrecognized; so is a body that is neither an array nor
// an object. It returns the items it counted (records, curve entries,
// warehouse entries) and an error only for a body that is not JSON.
//
// It decodes by hand, in one pass: encoding/json with reflection, element
// by element, took 0.85 s for the audit's 4 MB event under the race
// detector, and every fold, export and rebuild pays it. What it makes of a
// record is exactly what json.Unmarshal made of it into the struct the
// listener used before (field names in any letter case, escapes decoded,
// the last of repeated keys, null leaving a field as it was, any type
// mismatch making the whole record unrecognized): FuzzFold holds the two
// to the same records. Memory is that of one record at a time (of one
// curve for a grouped record), whatever the body holds; the fold is lenient
// because what the log holds was acknowledged and must never fail to fold.
func decodeEvent(body []byte, fn func(r *record)) (items int, err error) {
	d := &decoder{c: checker{body: body}, r: new(record)}
	c := &d.c
	c.blank()
	if c.i >= len(body) {
		return 0, errNotJSON
	}
	switch body[c.i] {
	case '{':
		d.items++
		r, err := d.record()
		if err != nil {
			return d.items, err
		}
		fn(r)
	case '[':
		c.i++
		if c.blank(); c.i < len(body) && body[c.i] == ']' {
			c.i++
			break
		}
		for {
			c.blank()
			d.items++
			if c.i < len(body) && body[c.i] == '{' {
				r, err := d.record()
				if err != nil {
					return d.items, err
				}
				fn(r)
			} else {
				if err := c.value(rOther); err != nil {
					return d.items, err
				}
				fn(nil)
			}
			if c.blank(); c.i >= len(body) {
				return d.items, errNotJSON
			}
			if body[c.i] == ']' {
				c.i++
				break
			}
			if body[c.i] != ',' {
				return d.items, errNotJSON
			}
			c.i++
		}
	default:
		if err := c.value(rOther); err != nil {
			return d.items, err
		}
		fn(nil)
	}
	if c.blank(); c.i != len(body) {
		return d.items, errNotJSON
	}
	return d.items, nil
}

// decoder is decodeEvent's position and item count.
type decoder struct {
	c     checker
	items int
	// r is the record being decoded, one for the whole event: fn gets it
	// and copies what it keeps, so a body of a million empty objects
	// leaves no million records for the collector.
	r *record
}

// fields calls set with each key of the object at the decoder's position
// and the raw bytes of its value, which set may decode. It returns an
// error only for text that is not JSON, and reports whether every set
// call did.
func (d *decoder) fields(set func(key, raw []byte) bool) (ok bool, err error) {
	c := &d.c
	ok = true
	c.i++ // '{'
	if c.depth++; c.depth > maxDepth {
		return false, errNotJSON
	}
	defer func() { c.depth-- }()
	if c.blank(); c.i < len(c.body) && c.body[c.i] == '}' {
		c.i++
		return true, nil
	}
	for {
		if c.blank(); c.i >= len(c.body) || c.body[c.i] != '"' {
			return false, errNotJSON
		}
		key, err := c.str()
		if err != nil {
			return false, err
		}
		if c.blank(); c.i >= len(c.body) || c.body[c.i] != ':' {
			return false, errNotJSON
		}
		c.i++
		c.blank()
		start := c.i
		if err := c.value(rOther); err != nil {
			return false, err
		}
		// After a field of the wrong type the record is lost: the rest is
		// only checked, not decoded (a curve of junk builds nothing).
		if ok && !set(unescapeKey(key), c.body[start:c.i]) {
			ok = false
		}
		if c.blank(); c.i >= len(c.body) {
			return false, errNotJSON
		}
		switch c.body[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return ok, nil
		default:
			return false, errNotJSON
		}
	}
}

// record decodes the object at the decoder's position into d.r; nil if a
// field has the wrong type.
func (d *decoder) record() (*record, error) {
	*d.r = record{}
	r := d.r
	ok, err := d.fields(func(key, raw []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("articuloId")):
			if isNullRaw(raw) {
				r.ArticuloID = nil
				return true
			}
			if r.ArticuloID == nil {
				r.ArticuloID = new(nxapi.ID)
			}
			return setID(r.ArticuloID, raw)
		case bytes.EqualFold(key, []byte("codigo")):
			return setString(&r.Codigo, raw)
		case bytes.EqualFold(key, []byte("colorId")):
			return setID(&r.ColorID, raw)
		case bytes.EqualFold(key, []byte("talleId")):
			return setID(&r.TalleID, raw)
		case bytes.EqualFold(key, []byte("unidades")):
			return setDecimal(&r.Unidades, raw)
		case bytes.EqualFold(key, []byte("eliminado")):
			return setBool(&r.Eliminado, raw)
		case bytes.EqualFold(key, []byte("stockDepositos")):
			return d.depositos(&r.StockDepositos, raw)
		case bytes.EqualFold(key, []byte("stockTotal")):
			if isNullRaw(raw) {
				r.StockTotal = nil
				return true
			}
			if r.StockTotal == nil {
				r.StockTotal = new(nxapi.Decimal)
			}
			return r.StockTotal.UnmarshalJSON(raw) == nil
		case bytes.EqualFold(key, []byte("curva")):
			return d.curva(&r.Curva, raw)
		}
		return true
	})
	if err != nil || !ok {
		return nil, err
	}
	return r, nil
}

// sub decodes raw, a value already checked, with a decoder of its own
// that counts into d's items.
func (d *decoder) sub(raw []byte, fn func(sd *decoder) bool) bool {
	sd := &decoder{c: checker{body: raw, depth: d.c.depth}}
	ok := fn(sd)
	d.items += sd.items
	return ok
}

// elements calls fn at each element of the array raw (already checked),
// with the decoder at the element, and reports whether every call did; it
// stops at the first that did not, which loses the record.
func (d *decoder) elements(raw []byte, fn func(sd *decoder) bool) bool {
	return d.sub(raw, func(sd *decoder) bool {
		c := &sd.c
		c.i++ // '['
		for {
			if c.blank(); c.i >= len(c.body) || c.body[c.i] == ']' {
				return true
			}
			sd.items++
			if !fn(sd) {
				return false
			}
			if c.blank(); c.i < len(c.body) && c.body[c.i] == ',' {
				c.i++
			}
		}
	})
}

// object decodes the object (or null, a zero element) at sd's position
// with set, and moves past it; false if it is neither, or a field has the
// wrong type.
func (sd *decoder) object(set func(key, raw []byte) bool) bool {
	c := &sd.c
	if c.body[c.i] != '{' {
		isNull := c.body[c.i] == 'n'
		_ = c.value(rOther)
		return isNull // json.Unmarshal of null into a struct element is a zero element
	}
	ok, err := sd.fields(set)
	return ok && err == nil
}

// curva decodes a curve: null (none), or an array of entries. As
// encoding/json does with a repeated key, an array decodes into the entries
// an earlier one left, field by field.
func (d *decoder) curva(cv *curva, raw []byte) bool {
	switch raw[0] {
	case 'n':
		*cv = curva{}
		return true
	case '[':
	default:
		return false
	}
	items, ok := reuseElements(d, raw, cv.items, func(sd *decoder, it *curvaItem, key, raw []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("colorId")):
			return setID(&it.ColorID, raw)
		case bytes.EqualFold(key, []byte("talleId")):
			return setID(&it.TalleID, raw)
		case bytes.EqualFold(key, []byte("unidades")):
			return setDecimal(&it.Unidades, raw)
		case bytes.EqualFold(key, []byte("stockDepositos")):
			return sd.depositos(&it.StockDepositos, raw)
		}
		return true
	})
	*cv = curva{items: items, present: true}
	return ok
}

// reuseElements decodes the array raw of objects into a new slice, element
// i starting from old[i] (what an earlier array left, as encoding/json
// does), every key of an element through field.
func reuseElements[T any](d *decoder, raw []byte, old []T, field func(sd *decoder, it *T, key, raw []byte) bool) ([]T, bool) {
	out := []T{}
	ok := d.elements(raw, func(sd *decoder) bool {
		var it T
		if len(out) < len(old) {
			it = old[len(out)]
		}
		ok := sd.object(func(key, raw []byte) bool { return field(sd, &it, key, raw) })
		out = append(out, it)
		return ok
	})
	return out, ok
}

// depositos decodes a stockDepositos list: null (none), or an array of
// entries, decoded into the entries an earlier one left like curva's.
func (d *decoder) depositos(deps *[]nxapi.StockDeposito, raw []byte) bool {
	switch raw[0] {
	case 'n':
		*deps = nil
		return true
	case '[':
	default:
		return false
	}
	out, ok := reuseElements(d, raw, *deps, func(_ *decoder, sdp *nxapi.StockDeposito, key, raw []byte) bool {
		switch {
		case bytes.EqualFold(key, []byte("depositoId")):
			return setInt(&sdp.DepositoID, raw)
		case bytes.EqualFold(key, []byte("unidades")):
			return setDecimal(&sdp.Unidades, raw)
		}
		return true
	})
	*deps = out
	return ok
}

// smallInt reads raw when it is a JSON integer of at most 14 digits, the
// usual id and quantity, without the allocations of the nxapi parsers
// (under the race detector every allocation counts); for such a number
// they give the same value, and anything else goes to them.
func smallInt(raw []byte) (int64, bool) {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 14 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	var v int64
	for _, c := range digits {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if len(digits) < len(raw) {
		v = -v
	}
	return v, true
}

// setID decodes an id as nxapi.ID.UnmarshalJSON does.
func setID(id *nxapi.ID, raw []byte) bool {
	if v, ok := smallInt(raw); ok {
		*id = nxapi.ID(v)
		return true
	}
	return id.UnmarshalJSON(raw) == nil
}

// setDecimal decodes a quantity as nxapi.Decimal.UnmarshalJSON does.
func setDecimal(d *nxapi.Decimal, raw []byte) bool {
	if v, ok := smallInt(raw); ok {
		*d = nxapi.DecimalFromInt(v)
		return true
	}
	return d.UnmarshalJSON(raw) == nil
}

func isNullRaw(raw []byte) bool { return len(raw) == 4 && string(raw) == "null" }

// setString decodes a JSON string into s, as encoding/json does (null
// leaves s as it was; anything else is the wrong type).
func setString(s *string, raw []byte) bool {
	switch {
	case isNullRaw(raw):
		return true
	case raw[0] != '"':
		return false
	case bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw):
		*s = string(raw[1 : len(raw)-1])
		return true
	}
	return json.Unmarshal(raw, s) == nil
}

// setBool decodes true or false into b (null leaves it as it was).
func setBool(b *bool, raw []byte) bool {
	switch string(raw) {
	case "true":
		*b = true
	case "false":
		*b = false
	case "null":
	default:
		return false
	}
	return true
}

// setInt decodes a JSON integer into n, as encoding/json does for an int64
// field (null leaves it as it was; a fraction, an exponent or a string is
// the wrong type).
func setInt(n *int64, raw []byte) bool {
	if isNullRaw(raw) {
		return true
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return false
	}
	*n = v
	return true
}

// unescapeKey decodes a key's escapes, as encoding/json does before
// matching it to a field.
func unescapeKey(key []byte) []byte {
	if bytes.IndexByte(key, '\\') < 0 && utf8.Valid(key) {
		return key
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
		return key
	}
	return []byte(s)
}
