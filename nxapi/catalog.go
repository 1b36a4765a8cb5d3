package nxapi

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The article catalog's answers (public-facts.md, "The article catalog"):
// GetData answers the grouped Articulo[], GetDataCurva the flat
// ArticuloConCurva[], one record per variant. The vendor's client takes
// either as a bare array or wrapped as {"data": [...]}, so both decoders
// do too.

// ErrEmptyCatalog reports a catalog answer that lists no article at all:
// a GetData answer is the warehouse's complete picture, so an empty one
// would say that no article takes part in the integration any more, which
// is far likelier a fault of the ERP than the truth. The decoders return
// it with the (empty) list; callers decide whether to keep an older copy.
var ErrEmptyCatalog = errors.New("the catalog answer lists no article")

// CatalogError is a catalog answer that could not be read: not JSON, not
// an array nor {"data": [...]}, or a record with a field of a type the
// vendor's types do not allow (then Err is a *WireError naming it).
type CatalogError struct {
	// What is "GetData" or "GetDataCurva".
	What string
	// Reason says what was wrong, in English, for logs and wrapping.
	Reason string
	Err    error
}

func (e *CatalogError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s answer: %s: %v", e.What, e.Reason, e.Err)
	}
	return fmt.Sprintf("%s answer: %s", e.What, e.Reason)
}

// Unwrap returns the decoding error, a *WireError when a field had the
// wrong JSON type.
func (e *CatalogError) Unwrap() error { return e.Err }

// DecodeGetData reads GET GetData's answer, the grouped Articulo[], as a
// bare array or as {"data": [...]}. An answer that is not one of them is a
// *CatalogError; one that lists nothing returns ErrEmptyCatalog (with an
// empty, non-nil list).
func DecodeGetData(b []byte) ([]Articulo, error) {
	return decodeCatalog[Articulo]("GetData", b)
}

// DecodeGetDataCurva reads GET GetDataCurva's answer, the flat
// ArticuloConCurva[] (one record per variant, deactivated articles with
// eliminado), as a bare array or as {"data": [...]}. Errors as
// DecodeGetData's.
func DecodeGetDataCurva(b []byte) ([]ArticuloConCurva, error) {
	return decodeCatalog[ArticuloConCurva]("GetDataCurva", b)
}

// wrapped is the {"data": [...]} form of a catalog answer.
type wrapped[T any] struct {
	Data *[]T `json:"data"`
}

func decodeCatalog[T any](what string, b []byte) ([]T, error) {
	// A UTF-8 BOM is not JSON, but a proxy or an export may add one.
	b = bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(b), []byte("\uFEFF")))
	if len(b) == 0 {
		return nil, &CatalogError{What: what, Reason: "the answer is empty"}
	}
	// Room for every record at once: growing a list of 100,000 records
	// copied it over and over (a fifth of the time). Each record names
	// its articuloId once (a curve entry too, so a grouped answer gets
	// more room than it needs).
	out := make([]T, 0, bytes.Count(b, []byte(`"articuloId"`)))
	switch b[0] {
	case '[':
		if err := decodeFast(b, &out); err != nil {
			return nil, &CatalogError{What: what, Reason: "not a list of articles", Err: err}
		}
	case '{':
		w := wrapped[T]{Data: &out}
		if err := decodeFast(b, &w); err != nil {
			return nil, &CatalogError{What: what, Reason: "not a list of articles", Err: err}
		}
		if w.Data != nil {
			out = *w.Data
		} else {
			out = nil
		}
	default:
		return nil, &CatalogError{What: what, Reason: "neither a list of articles nor {\"data\": [...]}"}
	}
	if len(out) == 0 {
		return []T{}, ErrEmptyCatalog
	}
	return out, nil
}

// Flatten turns grouped articles (GetData, "objeto" events) into the flat
// records of GetDataCurva, one per variant, each carrying its article's
// fields. An article with no curve is one record with colorId and talleId
// 0 and its stockTotal as units; a deactivated article is one record with
// eliminado set.
func Flatten(arts []Articulo) []ArticuloConCurva {
	n := 0
	for i := range arts {
		n += max(1, len(arts[i].Curva))
	}
	out := make([]ArticuloConCurva, 0, n)
	for i := range arts {
		a := &arts[i]
		base := ArticuloConCurva{ArticuloID: a.ArticuloID, Codigo: a.Codigo, Descripcion: a.Descripcion,
			DescripcionWeb: a.DescripcionWeb, Nombre: a.Nombre, TalleColor: a.TalleColor,
			Precio1: a.Precio1, Precio2: a.Precio2, Precio3: a.Precio3, Precio4: a.Precio4, Precio5: a.Precio5,
			Eliminado: a.Eliminado}
		if len(a.Curva) == 0 {
			r := base
			r.Unidades = a.StockTotal
			out = append(out, r)
			continue
		}
		for _, c := range a.Curva {
			r := base
			r.ColorID, r.TalleID = c.ColorID, c.TalleID
			r.ColorNombre, r.ColorCodigo, r.ColorHex = c.ColorNombre, c.ColorCodigo, c.ColorHex
			r.TalleNombre, r.TalleCodigo = c.TalleNombre, c.TalleCodigo
			r.CodigoBarras, r.Unidades, r.StockDepositos = c.CodigoBarras, c.Unidades, c.StockDepositos
			out = append(out, r)
		}
	}
	return out
}

// decodeFast unmarshals a catalog answer with the JSON v2 decoder, which
// reads a 100,000-variant catalog in half the time encoding/json takes
// (the budget is one second on the 2-core machine), set to read what
// encoding/json reads: names without regard to case, a repeated name's
// last value, invalid UTF-8 replaced. A field of a type the vendor's types
// do not allow is a *WireError naming it, as Decode's.
func decodeFast(b []byte, v any) error {
	err := jsonv2.Unmarshal(b, v, jsonv2.MatchCaseInsensitiveNames(true),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if err == nil {
		return nil
	}
	var se *jsonv2.SemanticError
	if !errors.As(err, &se) || se.GoType == nil {
		return err
	}
	// The field's path without the array indexes ("codigo",
	// "stockDepositos.unidades"), as encoding/json names it.
	var parts []string
	for _, p := range strings.Split(string(se.JSONPointer), "/") {
		if p != "" && strings.Trim(p, "0123456789") != "" && p != "data" {
			parts = append(parts, p)
		}
	}
	got := "value"
	if se.JSONKind != 0 {
		got = se.JSONKind.String()
	}
	if se.JSONValue != nil {
		got = describe(se.JSONValue)
	}
	return &WireError{Field: strings.Join(parts, "."), Got: got, Want: se.GoType.String()}
}
