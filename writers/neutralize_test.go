package writers

import "testing"

func TestNeutralize(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"hola", "hola"},
		{"1234,56", "1234,56"},
		{"=1+2", "'=1+2"},
		{"=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"},
		{"+54 11 4444-5555", "'+54 11 4444-5555"},
		{"-5", "'-5"}, // a negative number is text the user typed: still neutralised
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"\rcmd", "'\rcmd"},
		{" =1", " =1"}, // only the first character counts
		{"a=b", "a=b"},
		{"'", "'"},
		{"'hola", "'hola"},
		{"'=1", "''=1"}, // already looks neutralised: escaped once more
		{"''", "'''"},
		{"\n=1", "\n=1"},
	}
	for _, tt := range tests {
		if got := Neutralize(tt.in); got != tt.want {
			t.Errorf("Neutralize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Unneutralize(tt.want); got != tt.in {
			t.Errorf("Unneutralize(%q) = %q, want %q", tt.want, got, tt.in)
		}
	}
}

// TestUnneutralizeInvertsNeutralize checks every string of up to three
// characters over an alphabet of the characters that matter; only the first
// two characters decide what either function does, so this covers all
// strings.
func TestUnneutralizeInvertsNeutralize(t *testing.T) {
	alphabet := []string{"", "'", "=", "+", "-", "@", "\t", "\r", "a", "5", " ", "ñ"}
	n := 0
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				x := a + b + c
				n++
				if got := Unneutralize(Neutralize(x)); got != x {
					t.Errorf("Unneutralize(Neutralize(%q)) = %q", x, got)
				}
				if y := Neutralize(x); y != "" && isFormulaLead(y[0]) {
					t.Errorf("Neutralize(%q) = %q still starts a formula", x, y)
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("checked only %d strings", n)
	}
}

func FuzzNeutralizeRoundTrip(f *testing.F) {
	for _, s := range []string{"", "=", "'=", "''", "-5", "hola", "@x", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, x string) {
		y := Neutralize(x)
		if Unneutralize(y) != x {
			t.Errorf("Unneutralize(Neutralize(%q)) = %q", x, Unneutralize(y))
		}
		if y != "" && isFormulaLead(y[0]) {
			t.Errorf("Neutralize(%q) = %q still starts a formula", x, y)
		}
	})
}
