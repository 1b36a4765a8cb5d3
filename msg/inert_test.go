package msg

import "testing"

func TestInert(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Señor Pérez — 1.234,56 €", "Señor Pérez — 1.234,56 €"},
		{"a\r\nb", `a\r\nb`},
		{"\x1b[31mrojo\x1b[0m", `\x1b[31mrojo\x1b[0m`},
		{"col\tcol", `col\tcol`},
		{"c1\u009bx del\x7f", `c1\u009bx del\x7f`},
		{"\u202eevil\u2066 \u2028", `\u202eevil\u2066 \u2028`},
		{"bad \uFFFD kept", "bad \uFFFD kept"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Inert(tt.in); got != tt.want {
			t.Errorf("Inert(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
