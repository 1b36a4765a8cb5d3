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
	if err := k.Validate(); err != nil {
		return Key{}, err
	}
	return k, nil
}

// Validate rejects keys that would not round-trip through String and
// ParseKey, or whose storage form would sort or split ambiguously: the
// stored key joins the parts with NUL so that byte order is (tenant, kind,
// business) order.
func (k Key) Validate() error {
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
