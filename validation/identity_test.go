package validation

import (
	"errors"
	"strings"
	"testing"
)

func TestCUIT(t *testing.T) {
	tests := []struct {
		in     string
		reason error // nil: valid
		digits int
		want   int // expected check digit, for ErrCUITCheckDigit
	}{
		{in: "20-12345678-6"},
		{in: "20123456786"},
		{in: "20 12345678 6"},
		{in: "20.12345678.6"},
		{in: "30-71234567-1"},
		{in: "27-25369874-3"},
		{in: "20-00000006-0"}, // 11 - 0 → 0
		{in: "20-00000001-9"}, // 11 - 1 = 10 → 9
		{in: "20-12345678-5", reason: ErrCUITCheckDigit, digits: 11, want: 6},
		{in: "20-12345687-6", reason: ErrCUITCheckDigit, digits: 11, want: 5}, // two digits swapped
		{in: "20-00000001-0", reason: ErrCUITCheckDigit, digits: 11, want: 9},
		{in: "20-1234567-6", reason: ErrCUITLength, digits: 10},
		{in: "20-123456789-6", reason: ErrCUITLength, digits: 12},
		{in: "", reason: ErrCUITLength, digits: 0},
		{in: "---", reason: ErrCUITLength, digits: 0},
		{in: "20/12345678/6", reason: ErrCUITChars},
		{in: "2O-12345678-6", reason: ErrCUITChars}, // letter O
		{in: "２0-12345678-6", reason: ErrCUITChars}, // full-width digit
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := CUIT(tt.in)
			if tt.reason == nil {
				if err != nil {
					t.Fatalf("CUIT(%q) = %v, want valid", tt.in, err)
				}
				return
			}
			if !errors.Is(err, tt.reason) {
				t.Fatalf("CUIT(%q) = %v, want %v", tt.in, err, tt.reason)
			}
			var ce *CUITError
			if !errors.As(err, &ce) {
				t.Fatalf("CUIT(%q) error %T is not a *CUITError", tt.in, err)
			}
			if tt.reason != ErrCUITChars && ce.Digits != tt.digits {
				t.Errorf("Digits = %d, want %d", ce.Digits, tt.digits)
			}
			if tt.reason == ErrCUITCheckDigit && ce.Want != tt.want {
				t.Errorf("Want = %d, want %d", ce.Want, tt.want)
			}
		})
	}
}

func FuzzCUIT(f *testing.F) {
	for _, s := range []string{"20-12345678-6", "20123456786", "", "-", "2O-1", "20-00000001-9", "\xff\xfe", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CUIT(s)
		if err != nil {
			var ce *CUITError
			if !errors.As(err, &ce) {
				t.Fatalf("CUIT(%q) error %T is not a *CUITError", s, err)
			}
			_ = err.Error()
			return
		}
		// A valid CUIT has 11 digits whose last is the check digit of the others.
		var digits []int
		for _, r := range s {
			if r >= '0' && r <= '9' {
				digits = append(digits, int(r-'0'))
			}
		}
		if len(digits) != 11 || CUITCheckDigit([10]int(digits[:10])) != digits[10] {
			t.Fatalf("CUIT(%q) accepted digits %v", s, digits)
		}
	})
}

func TestDNI(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"12.345.678", nil},
		{"12345678", nil},
		{"1.234.567", nil},
		{"1234567", nil},
		{" 12 345 678 ", nil},
		{"123456", ErrDNILength},
		{"123456789", ErrDNILength},
		{"", ErrDNILength},
		{"12-345-678", ErrDNIChars},
		{"M1234567", ErrDNIChars},
	}
	for _, tt := range tests {
		if err := DNI(tt.in); !errors.Is(err, tt.want) {
			t.Errorf("DNI(%q) = %v, want %v", tt.in, err, tt.want)
		}
	}
}

func TestEmail(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"ana@example.com", true},
		{"ana.perez+facturas@estudio-contable.com.ar", true},
		{"ANA@EXAMPLE.COM", true},
		{"josé@ñandú.com.ar", true},
		{"ana@gmail", false},
		{"ana@@gmail.com", false},
		{"ana@gmail..com", false},
		{"ana@gmail.com.", false},
		{"ana@.gmail.com", false},
		{"ana@-gmail.com", false},
		{"ana @gmail.com", false},
		{" ana@gmail.com", false},
		{"ana@gmail.c", false},
		{"ana@192.168.0.1", false},
		{"@gmail.com", false},
		{"ana.@gmail.com", false},
		{".ana@gmail.com", false},
		{"Ana Pérez <ana@gmail.com>", false},
		{"ana;beto@gmail.com", false},
		{"ana@gmail.com;beto@gmail.com", false},
		{"anagmail.com", false},
		{"ana@gmail-.com", false},
		{"ana@x.y.z.com", true},
		{"ana@x.y.12", false},
		{"ana@" + strings.Repeat("a", 64) + ".com", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := Email(tt.in); got != tt.want {
			t.Errorf("Email(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestISODate(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"2024-03-31", true},
		{"2024-03-31T14:05", true},
		{"2024-03-31T14:05:00", true},
		{"2024-03-31T14:05:00.123", true},
		{"2024-03-31T14:05:00Z", true},
		{"2024-03-31T14:05:00-03:00", true},
		{"2024-02-29", true},
		{"2023-02-29", false},
		{"31/03/2024", false},
		{"2024-3-31", false},
		{"2024-03-31 14:05:00", false},
		{"20240331", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ISODate(tt.in); got != tt.want {
			t.Errorf("ISODate(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
