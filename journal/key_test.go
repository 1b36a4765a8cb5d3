package journal

import "testing"

func TestKeyStringParseRoundTrip(t *testing.T) {
	keys := []Key{
		{"ab12cd", "venta", "ORD-0001"},
		{"ab12cd", "facturar", "00042"},
		{"ab12cd", "stock", "dep1/2025-03-14/motivo 7#3"},
		{"ab12cd", "stock", "a//b/"},
		{"ab12cd", "venta", "Ñandú café"},
	}
	for _, k := range keys {
		got, err := ParseKey(k.String())
		if err != nil {
			t.Errorf("ParseKey(%q): %v", k.String(), err)
			continue
		}
		if got != k {
			t.Errorf("ParseKey(%q) = %#v, want %#v", k.String(), got, k)
		}
	}
}

func TestParseKeyRejectsMalformed(t *testing.T) {
	for _, s := range []string{"", "tenant", "tenant/venta", "tenant/venta/", "/venta/1", "tenant//1", "t/venta/a\x00b"} {
		if k, err := ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q) = %#v, want an error", s, k)
		}
	}
}
