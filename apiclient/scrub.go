package apiclient

import (
	"bytes"
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shortToken is the length under which the token is scrubbed only where it
// stands as a word of its own: a token that short ("t" in tests) is also a
// piece of ordinary words ("facturaId"), which must survive. A real token is
// far longer and is scrubbed wherever it appears.
const shortToken = 12

// scrub returns an answer body with every copy of the token replaced by
// "[redacted]": an API or a proxy that echoes the request's headers in an
// error page ("X-Nx-Token: …") must not carry the token into the messages,
// reports, journal and logs built from that body. Every answer passes here
// once, in exchange, so every caller gets scrubbed text.
//
// The token is looked for as sent and as a JSON, URL or HTML escaper would
// write it. In a JSON body only string literals are touched (each decoded,
// so a \u-escaped copy is found too), so numbers, keys' structure and
// literals stay valid JSON.
func (t Token) scrub(body []byte) []byte {
	tok := t.reveal()
	if tok == "" || len(body) == 0 {
		return body
	}
	needles := tokenForms(tok)
	bneedles := asBytes(needles)
	if !containsAny(body, bneedles) && bytes.IndexByte(body, '\\') < 0 {
		return body // the fast path: no copy, and no escape that could hide one
	}
	if json.Valid(body) {
		return scrubJSON(body, needles, bneedles, len(tok) < shortToken)
	}
	return []byte(replaceForms(string(body), needles, len(tok) < shortToken))
}

// tokenForms are the spellings of tok an echo may use, longest first so a
// longer escaped form is replaced before the raw text inside it.
func tokenForms(tok string) []string {
	forms := []string{tok}
	add := func(s string) {
		for _, f := range forms {
			if f == s {
				return
			}
		}
		forms = append(forms, s)
	}
	if b, err := json.Marshal(tok); err == nil {
		add(string(b[1 : len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(tok) == nil {
		s := strings.TrimSpace(buf.String())
		add(s[1 : len(s)-1])
	}
	add(url.QueryEscape(tok))
	add(url.PathEscape(tok))
	add(html.EscapeString(tok))
	for i := 1; i < len(forms); i++ {
		for j := i; j > 0 && len(forms[j]) > len(forms[j-1]); j-- {
			forms[j], forms[j-1] = forms[j-1], forms[j]
		}
	}
	return forms
}

func containsAny(b []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

func asBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// replaceForms replaces every form of the token in s. With wordOnly, a copy
// that runs into a letter or digit on a side where the token itself ends in
// one is part of another word and stays.
func replaceForms(s string, forms []string, wordOnly bool) string {
	for _, f := range forms {
		s = replaceWord(s, f, wordOnly)
	}
	return s
}

func replaceWord(s, f string, wordOnly bool) string {
	if !wordOnly {
		return strings.ReplaceAll(s, f, redacted)
	}
	first, _ := utf8.DecodeRuneInString(f)
	last, _ := utf8.DecodeLastRuneInString(f)
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], f)
		if j < 0 {
			break
		}
		j += i
		end := j + len(f)
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (j > 0 && word(first) && word(before)) || (end < len(s) && word(last) && word(after)) {
			b.WriteString(s[i : j+1])
			i = j + 1
			continue
		}
		b.WriteString(s[i:j])
		b.WriteString(redacted)
		i = end
	}
	if i == 0 {
		return s
	}
	b.WriteString(s[i:])
	return b.String()
}

func word(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// scrubJSON scrubs the string literals of a valid JSON document, leaving
// everything between them as it is.
func scrubJSON(body []byte, forms []string, bforms [][]byte, wordOnly bool) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(body); i++ {
		if body[i] != '"' {
			continue
		}
		start := i
		for i++; i < len(body) && body[i] != '"'; i++ {
			if body[i] == '\\' {
				i++
			}
		}
		lit := body[start : i+1]
		if bytes.IndexByte(lit, '\\') < 0 && !containsAny(lit, bforms) {
			continue // as written is as decoded, and no copy is in it
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			continue
		}
		clean := replaceForms(s, forms, wordOnly)
		if clean == s {
			continue
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(clean) != nil {
			continue
		}
		out = append(out, body[last:start]...)
		out = append(out, bytes.TrimRight(buf.Bytes(), "\n")...)
		last = i + 1
	}
	if out == nil {
		return body
	}
	return append(out, body[last:]...)
}
