package cell

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
		{"-5", "-5"}, // a plain number is never a formula: it must still sum
		{"-3", "-3"},
		{"+5", "+5"},
		{"-1.234,56", "-1.234,56"},
		{"1E-05", "1E-05"},
		{"-2+3", "'-2+3"},
		{"-", "'-"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"\rcmd", "'\rcmd"},
		{" =1", "' =1"},           // spreadsheets skip the blank before deciding
		{"\u00a0=1", "'\u00a0=1"}, // a no-break space too
		{"\u200b=cmd()", "'\u200b=cmd()"},
		{"＝1+2", "'＝1+2"}, // full-width
		{"＋54 11", "'＋54 11"},
		{"   ", "   "},
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
	alphabet := []string{"", "'", "=", "+", "-", "@", "\t", "\r", "a", "5", " ", "ñ", "\u00a0", "＝", ","}
	n := 0
	for _, a := range alphabet {
		for _, b := range alphabet {
			for _, c := range alphabet {
				x := a + b + c
				n++
				if got := Unneutralize(Neutralize(x)); got != x {
					t.Errorf("Unneutralize(Neutralize(%q)) = %q", x, got)
				}
				if y := Neutralize(x); y != "" && needsGuard(y) {
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
	for _, s := range []string{"", "=", "'=", "''", "-5", "hola", "@x", "\t", " =1", "＝1", "\u200b+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, x string) {
		y := Neutralize(x)
		if Unneutralize(y) != x {
			t.Errorf("Unneutralize(Neutralize(%q)) = %q", x, Unneutralize(y))
		}
		if needsGuard(y) {
			t.Errorf("Neutralize(%q) = %q still starts a formula", x, y)
		}
		// The first-character shortcut decides as the full check does.
		want := x
		if x != "" && (needsGuard(x) || escapesApostrophe(x)) {
			want = "'" + x
		}
		if y != want {
			t.Errorf("Neutralize(%q) = %q, the full check gives %q", x, y, want)
		}
	})
}
