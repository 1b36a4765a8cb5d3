package msg

import (
	"strconv"
	"strings"
	"unicode"
)

// Inert makes text from an input file, a note or the API safe to print on
// a terminal, into a cron log or a listing: control characters (CR, LF,
// TAB, escape sequences, C1 controls) and the invisible characters that
// reorder text are written as Go escapes (\r, \x1b, \u202e), so that a
// message or a note cannot forge a line such as "todo bien", repaint the
// screen or shift a listing's columns. Every other character is kept.
func Inert(s string) string {
	i := strings.IndexFunc(s, needsEscape)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
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
