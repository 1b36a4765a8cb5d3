package main

import (
	"strconv"
	"strings"
	"unicode"
)

// inert makes text from an input file or the API safe to print on a
// terminal or into a cron log: control characters (CR, LF, escape
// sequences, C1 controls) and the invisible characters that reorder text
// are written as escapes, so that a header or a sheet name cannot forge a
// line such as "todo bien".
func inert(s string) string {
	clean := true
	for _, r := range s {
		if needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if needsEscape(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// needsEscape reports whether r must not reach a terminal as it is.
func needsEscape(r rune) bool {
	switch {
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r == unicode.ReplacementChar:
		return false
	case unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
		return true
	}
	return false
}
