package validation

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reasons a CUIT is refused; a *CUITError wraps one of them.
var (
	ErrCUITChars      = errors.New("CUIT holds characters other than digits, '-', ' ' and '.'")
	ErrCUITLength     = errors.New("CUIT does not have 11 digits")
	ErrCUITCheckDigit = errors.New("CUIT check digit does not match")
)

// CUITError says why a CUIT or CUIL is not valid, with what a message needs
// to tell the user which digit to look at.
type CUITError struct {
	Reason error // ErrCUITChars, ErrCUITLength or ErrCUITCheckDigit
	Digits int   // how many digits the text holds
	Want   int   // for ErrCUITCheckDigit: the check digit the first ten digits call for
	Got    int   // for ErrCUITCheckDigit: the check digit written
}

// Error says what is wrong, with the digit count or the expected check digit.
func (e *CUITError) Error() string {
	switch e.Reason {
	case ErrCUITLength:
		return fmt.Sprintf("%v: it has %d", e.Reason, e.Digits)
	case ErrCUITCheckDigit:
		return fmt.Sprintf("%v: it is %d, the first ten digits call for %d", e.Reason, e.Got, e.Want)
	}
	return e.Reason.Error()
}

// Unwrap returns the reason, for errors.Is.
func (e *CUITError) Unwrap() error { return e.Reason }

// cuitWeights are the check-digit weights over the first ten digits
// (public-facts.md).
var cuitWeights = [10]int{5, 4, 3, 2, 7, 6, 5, 4, 3, 2}

// CUIT checks a CUIT or CUIL as people write it (20-12345678-6, 20 12345678 6,
// 20123456786): 11 digits once '-', ' ' and '.' are removed, the last one the
// check digit of the first ten. The error is a *CUITError.
func CUIT(s string) error {
	digits := make([]int, 0, 11)
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = append(digits, int(r-'0'))
		case r == '-' || r == ' ' || r == '.':
		default:
			return &CUITError{Reason: ErrCUITChars, Digits: len(digits)}
		}
	}
	if len(digits) != 11 {
		return &CUITError{Reason: ErrCUITLength, Digits: len(digits)}
	}
	want := CUITCheckDigit([10]int(digits[:10]))
	if digits[10] != want {
		return &CUITError{Reason: ErrCUITCheckDigit, Digits: 11, Want: want, Got: digits[10]}
	}
	return nil
}

// CUITCheckDigit returns the check digit for the first ten digits of a CUIT:
// 11 - (Σ digit×weight mod 11), where 11 becomes 0 and 10 becomes 9.
func CUITCheckDigit(first [10]int) int {
	sum := 0
	for i, d := range first {
		sum += d * cuitWeights[i]
	}
	switch dv := 11 - sum%11; dv {
	case 11:
		return 0
	case 10:
		return 9
	default:
		return dv
	}
}

// Reasons a DNI is refused.
var (
	ErrDNIChars  = errors.New("DNI holds characters other than digits, dots and blanks")
	ErrDNILength = errors.New("DNI does not have 7 or 8 digits")
)

// DNI checks a national identity number as people write it (12.345.678):
// 7 or 8 digits once dots and blanks are removed. A DNI has no check digit.
func DNI(s string) error {
	n := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			n++
		case r == '.' || r == ' ':
		default:
			return ErrDNIChars
		}
	}
	if n < 7 || n > 8 {
		return fmt.Errorf("%w: it has %d", ErrDNILength, n)
	}
	return nil
}

// Email reports whether s looks like a plain email address (name@domain.tld):
// one '@', no blanks or characters that only appear in display forms, a
// domain with at least two labels. It catches typos, not every RFC 5322 form.
func Email(s string) bool {
	if len(s) > 254 {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || len(local) > 64 || strings.Contains(domain, "@") {
		return false
	}
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	for _, r := range local {
		if r < utf8.RuneSelf {
			if notInLocal[r] {
				return false
			}
			continue
		}
		if r == utf8.RuneError || unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	// The domain's labels are walked in place (no slice of them): this runs
	// on every row of a file of a million sales.
	if !strings.Contains(domain, ".") {
		return false
	}
	tld := ""
	for rest := domain; ; {
		label, after, more := strings.Cut(rest, ".")
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			// Non-ASCII letters are allowed: internationalised domains.
			if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' ||
				r > 0x7f && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
				return false
			}
		}
		if !more {
			tld = label
			break
		}
		rest = after
	}
	if len(tld) < 2 {
		return false
	}
	for i := range len(tld) {
		if tld[i] < '0' || tld[i] > '9' {
			return true
		}
	}
	return false // an all-digit top-level domain is an IP address
}

// notInLocal marks the ASCII characters an address's local part cannot
// have: blanks and controls, and those that only appear in display forms.
var notInLocal = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = c <= ' ' || c == 0x7f || strings.ContainsRune(`()<>[]\,;:"`, rune(c))
	}
	return t
}()
