package journal

import (
	"errors"
	"fmt"
	"strings"
)

// Key identifies one request in the journal: the tenant (a hash of base URL
// and token, never the token itself), the request kind ("venta", "facturar"
// or "stock") and the business key (ordenId, facturaId, or the stock packing
// key + "#" + chunk).
type Key struct{ Tenant, Kind, Business string }

// String renders k as "tenant/kind/business", the form `nxbatch journal
// resolve KEY` takes. Business may itself contain '/': ParseKey takes
// everything after the second '/' as the business part, so it round-trips.
func (k Key) String() string { return k.Tenant + "/" + k.Kind + "/" + k.Business }

// ParseKey parses the "tenant/kind/business" form written by Key.String.
func ParseKey(s string) (Key, error) {
	parts := strings.SplitN(s, "/", 3)
	if len(parts) != 3 {
		return Key{}, fmt.Errorf("journal key %q: want tenant/kind/business", s)
	}
	k := Key{Tenant: parts[0], Kind: parts[1], Business: parts[2]}
	if err := k.validate(); err != nil {
		return Key{}, err
	}
	return k, nil
}

// validate rejects keys that would not round-trip through String and
// ParseKey, or whose storage form would sort or split ambiguously: the
// stored key joins the parts with NUL so that byte order is (tenant, kind,
// business) order.
func (k Key) validate() error {
	switch {
	case k.Tenant == "" || k.Kind == "" || k.Business == "":
		return fmt.Errorf("journal key %q: tenant, kind and business must all be set", k.String())
	case strings.Contains(k.Tenant, "/") || strings.Contains(k.Kind, "/"):
		return fmt.Errorf("journal key %q: tenant and kind cannot contain '/'", k.String())
	case strings.ContainsRune(k.String(), 0):
		return errors.New("journal key contains a NUL byte")
	}
	return nil
}

// bytes is the storage form of k.
func (k Key) bytes() []byte {
	b := make([]byte, 0, len(k.Tenant)+len(k.Kind)+len(k.Business)+2)
	b = append(b, k.Tenant...)
	b = append(b, 0)
	b = append(b, k.Kind...)
	b = append(b, 0)
	return append(b, k.Business...)
}

// keyFromBytes is the inverse of Key.bytes.
func keyFromBytes(b []byte) (Key, error) {
	parts := strings.SplitN(string(b), "\x00", 3)
	if len(parts) != 3 {
		return Key{}, fmt.Errorf("journal: malformed stored key %q", b)
	}
	return Key{Tenant: parts[0], Kind: parts[1], Business: parts[2]}, nil
}
