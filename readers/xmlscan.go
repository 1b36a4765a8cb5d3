package readers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// xmlScanner is the pull tokenizer the XLSX reader runs over every XML part
// of a workbook. It is written for the subset of XML that spreadsheet
// programs write, with bounded memory by construction:
//
//   - Input is read through one window (64 KiB). Character data the caller
//     does not ask for (whitespace between tags, formulas, anything outside
//     the elements read) is skipped with bytes.IndexByte and never copied,
//     so a gigabyte of whitespace costs the window and nothing more.
//   - A tag (name and attributes) must fit in the window, which grows for a
//     long tag up to limits.maxTag and no further: past it the part is
//     damaged.
//   - Text is copied only through readText, into the caller's buffer and up
//     to the caller's cap; beyond the cap it is only counted.
//   - Comments, processing instructions and CDATA outside text are skipped
//     as they stream by. A DOCTYPE is refused: spreadsheet programs never
//     write one, and it is how entity-expansion bombs start.
//
// Every byte is looked at a bounded number of times, so time is linear in
// the part's size. Names are compared by their local part (a prefix such as
// "x:" in <x:row> is ignored); entities are the five predefined ones and
// character references; line ends in text are normalised to "\n" as XML
// says.
type xmlScanner struct {
	r        io.Reader
	buf      []byte // window; buf[pos:end] is unread input
	pos, end int
	eof      bool  // r returned io.EOF
	rerr     error // r failed
	maxTag   int

	// The tag next returned.
	local       []byte    // local name, aliasing buf until the next call
	selfClosing bool      // <x/>: no end tag follows
	attrs       []xmlAttr // aliasing buf until the next call
	val         []byte    // scratch for decoded attribute values
}

// xmlAttr is one attribute of the current tag, its value not yet decoded.
type xmlAttr struct {
	prefix, local, raw []byte
}

type tokKind uint8

const (
	tokStart tokKind = iota + 1 // a start tag; selfClosing says it is also its end
	tokEnd
	tokEOF
)

// Causes of a damaged part; the reader wraps them into its *msg.Error.
var (
	errXMLTruncated = errors.New("the XML ends in the middle of an element")
	errXMLTagLong   = errors.New("an XML tag is too long")
	errXMLDoctype   = errors.New("the XML has a DOCTYPE, which a workbook never has")
	errXMLSyntax    = errors.New("malformed XML")
)

const xmlWindow = 64 << 10

func newXMLScanner(r io.Reader, maxTag int) *xmlScanner {
	return &xmlScanner{r: r, buf: make([]byte, xmlWindow), maxTag: max(maxTag, 256)}
}

// fill moves the unread input to the start of the window and reads more. A
// window already full of unread input is grown (a long tag or entity) up to
// maxTag. It reports whether anything was added.
func (s *xmlScanner) fill() bool {
	if s.eof || s.rerr != nil {
		return false
	}
	if s.pos > 0 {
		n := copy(s.buf, s.buf[s.pos:s.end])
		s.pos, s.end = 0, n
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= s.maxTag {
			s.rerr = errXMLTagLong
			return false
		}
		grown := make([]byte, min(2*len(s.buf), s.maxTag))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			if err == io.EOF {
				s.eof = true
			} else {
				s.rerr = err
			}
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// need makes at least n unread bytes available; false at the end of input.
func (s *xmlScanner) need(n int) bool {
	for s.end-s.pos < n {
		if !s.fill() {
			return false
		}
	}
	return true
}

// fail is the error to return when input ran out where more was required.
func (s *xmlScanner) fail() error {
	if s.rerr != nil {
		return s.rerr
	}
	return errXMLTruncated
}

// next advances to the next start or end tag, skipping character data,
// comments, processing instructions and CDATA sections.
func (s *xmlScanner) next() (tokKind, error) {
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
		if i < 0 {
			s.pos = s.end
			if !s.fill() {
				if s.rerr != nil {
					return 0, s.rerr
				}
				return tokEOF, nil
			}
			continue
		}
		s.pos += i
		if !s.need(2) {
			return 0, s.fail()
		}
		switch s.buf[s.pos+1] {
		case '?':
			if err := s.skipPast("?>"); err != nil {
				return 0, err
			}
		case '!':
			if err := s.skipMarkup(); err != nil {
				return 0, err
			}
		default:
			return s.tag()
		}
	}
}

// skipMarkup skips a comment or CDATA section at s.pos ("<!").
func (s *xmlScanner) skipMarkup() error {
	s.need(9)
	rest := s.buf[s.pos:s.end]
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		s.pos += 4
		return s.skipPast("-->")
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		s.pos += 9
		return s.skipPast("]]>")
	case len(rest) >= 9 && bytes.EqualFold(rest[:9], []byte("<!DOCTYPE")):
		return errXMLDoctype
	}
	return errXMLSyntax
}

// skipPast discards input up to and including delim.
func (s *xmlScanner) skipPast(delim string) error {
	d := []byte(delim)
	for {
		if k := bytes.Index(s.buf[s.pos:s.end], d); k >= 0 {
			s.pos += k + len(d)
			return nil
		}
		// Keep what could be the start of delim.
		if keep := len(d) - 1; s.end-s.pos > keep {
			s.pos = s.end - keep
		}
		if !s.fill() {
			return s.fail()
		}
	}
}

// tag reads the tag at s.pos ('<' followed by a name or '/').
func (s *xmlScanner) tag() (tokKind, error) {
	var j int
	for {
		if j = tagEnd(s.buf[s.pos+1 : s.end]); j >= 0 {
			break
		}
		if !s.fill() {
			return 0, s.fail()
		}
	}
	body := s.buf[s.pos+1 : s.pos+1+j]
	s.pos += j + 2
	s.attrs = s.attrs[:0]
	s.selfClosing = false
	if len(body) > 0 && body[0] == '/' {
		name := bytes.TrimRight(body[1:], " \t\r\n")
		if len(name) == 0 {
			return 0, errXMLSyntax
		}
		s.local = localName(name)
		return tokEnd, nil
	}
	if n := len(body); n > 0 && body[n-1] == '/' {
		s.selfClosing = true
		body = body[:n-1]
	}
	k := 0
	for k < len(body) && !isXMLSpace(body[k]) {
		k++
	}
	if k == 0 {
		return 0, errXMLSyntax
	}
	s.local = localName(body[:k])
	if err := s.parseAttrs(body[k:]); err != nil {
		return 0, err
	}
	return tokStart, nil
}

// tagEnd returns the index of the '>' that ends a tag, outside quoted
// attribute values ('>' is legal inside them), or -1.
func tagEnd(b []byte) int {
	var quote byte
	for i, c := range b {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

func (s *xmlScanner) parseAttrs(b []byte) error {
	for {
		for len(b) > 0 && isXMLSpace(b[0]) {
			b = b[1:]
		}
		if len(b) == 0 {
			return nil
		}
		k := 0
		for k < len(b) && b[k] != '=' && !isXMLSpace(b[k]) {
			k++
		}
		name := b[:k]
		b = b[k:]
		for len(b) > 0 && isXMLSpace(b[0]) {
			b = b[1:]
		}
		if len(name) == 0 || len(b) == 0 || b[0] != '=' {
			return errXMLSyntax
		}
		b = b[1:]
		for len(b) > 0 && isXMLSpace(b[0]) {
			b = b[1:]
		}
		if len(b) == 0 || (b[0] != '"' && b[0] != '\'') {
			return errXMLSyntax
		}
		q := b[0]
		e := bytes.IndexByte(b[1:], q)
		if e < 0 {
			return errXMLSyntax
		}
		a := xmlAttr{local: name, raw: b[1 : 1+e]}
		if c := bytes.IndexByte(name, ':'); c >= 0 {
			a.prefix, a.local = name[:c], name[c+1:]
		}
		s.attrs = append(s.attrs, a)
		b = b[2+e:]
	}
}

// attr returns the raw value of the current tag's unprefixed attribute
// local (r, s, t, name...).
func (s *xmlScanner) attr(local string) ([]byte, bool) {
	for _, a := range s.attrs {
		if len(a.prefix) == 0 && string(a.local) == local {
			return a.raw, true
		}
	}
	return nil, false
}

// relID returns the value of the relationship id attribute (r:id, whatever
// the prefix): the one prefixed attribute named id a workbook uses.
func (s *xmlScanner) relID() ([]byte, bool) {
	for _, a := range s.attrs {
		if len(a.prefix) > 0 && string(a.local) == "id" && string(a.prefix) != "xml" && string(a.prefix) != "xmlns" {
			return a.raw, true
		}
	}
	return nil, false
}

// value decodes a raw attribute value: entities, and white space turned
// into spaces as XML normalises attributes. The result aliases scratch
// memory until the next call.
func (s *xmlScanner) value(raw []byte) ([]byte, error) {
	if bytes.IndexByte(raw, '&') < 0 && !bytes.ContainsAny(raw, "\t\r\n") {
		return raw, nil
	}
	s.val = s.val[:0]
	for i := 0; i < len(raw); {
		c := raw[i]
		switch c {
		case '&':
			out, n, err := decodeEntity(raw[i:], s.val)
			if err != nil {
				return nil, err
			}
			s.val = out
			i += n
			continue
		case '\t', '\n':
			c = ' '
		case '\r':
			c = ' '
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
		}
		s.val = append(s.val, c)
		i++
	}
	return s.val, nil
}

// skip consumes the rest of the element whose start tag was just read.
func (s *xmlScanner) skip() error {
	if s.selfClosing {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := s.next()
		if err != nil {
			return err
		}
		switch tok {
		case tokStart:
			if !s.selfClosing {
				depth++
			}
		case tokEnd:
			depth--
		case tokEOF:
			return errXMLTruncated
		}
	}
	return nil
}

// readText reads the character data of the element whose start tag was
// just read, up to its end tag (consumed), appending at most room bytes of
// it to dst. n is the text's full decoded length, so that a caller can tell
// how long a text was that it did not keep. Elements nested inside (never
// written by spreadsheet programs) are skipped with their text.
func (s *xmlScanner) readText(dst []byte, room int) (out []byte, n int, err error) {
	if s.selfClosing {
		return dst, 0, nil
	}
	for {
		dst, n, err = s.chars(dst, room, n)
		if err != nil {
			return dst, n, err
		}
		tok, err := s.next()
		if err != nil {
			return dst, n, err
		}
		switch tok {
		case tokEnd:
			return dst, n, nil
		case tokEOF:
			return dst, n, errXMLTruncated
		}
		if err := s.skip(); err != nil {
			return dst, n, err
		}
	}
}

// chars copies character data up to the next tag (left unread), n counting
// every decoded byte, room bounding what is appended.
func (s *xmlScanner) chars(dst []byte, room, n int) ([]byte, int, error) {
	appendText := func(b []byte) {
		if keep := room - n; keep > 0 {
			dst = append(dst, b[:min(keep, len(b))]...)
		}
		n += len(b)
	}
	for {
		w := s.buf[s.pos:s.end]
		k := 0
		for k < len(w) && w[k] != '<' && w[k] != '&' && w[k] != '\r' {
			k++
		}
		appendText(w[:k])
		s.pos += k
		if k == len(w) {
			if !s.fill() {
				return dst, n, s.fail()
			}
			continue
		}
		switch w[k] {
		case '\r':
			// CR LF and a lone CR are both one line end.
			s.need(2)
			s.pos++
			if s.pos < s.end && s.buf[s.pos] == '\n' {
				s.pos++
			}
			appendText([]byte{'\n'})
		case '&':
			s.need(maxEntity)
			var ent [utf8.UTFMax]byte
			out, size, err := decodeEntity(s.buf[s.pos:s.end], ent[:0])
			if err != nil {
				return dst, n, err
			}
			appendText(out)
			s.pos += size
		case '<':
			if !s.need(9) && s.end-s.pos < 2 {
				return dst, n, s.fail()
			}
			rest := s.buf[s.pos:s.end]
			switch {
			case bytes.HasPrefix(rest, []byte("<![CDATA[")):
				s.pos += 9
				var err error
				if dst, n, err = s.cdata(dst, room, n); err != nil {
					return dst, n, err
				}
			case bytes.HasPrefix(rest, []byte("<!--")):
				s.pos += 4
				if err := s.skipPast("-->"); err != nil {
					return dst, n, err
				}
			case bytes.HasPrefix(rest, []byte("<?")):
				if err := s.skipPast("?>"); err != nil {
					return dst, n, err
				}
			default:
				return dst, n, nil
			}
		}
	}
}

// cdata copies a CDATA section's content (after "<![CDATA[") verbatim but
// for line ends.
func (s *xmlScanner) cdata(dst []byte, room, n int) ([]byte, int, error) {
	put := func(c byte) {
		if n < room {
			dst = append(dst, c)
		}
		n++
	}
	for {
		if !s.need(3) {
			return dst, n, s.fail()
		}
		c := s.buf[s.pos]
		switch {
		case c == ']' && s.buf[s.pos+1] == ']' && s.buf[s.pos+2] == '>':
			s.pos += 3
			return dst, n, nil
		case c == '\r':
			s.pos++
			if s.buf[s.pos] == '\n' {
				s.pos++
			}
			put('\n')
		default:
			s.pos++
			put(c)
		}
	}
}

// maxEntity is the longest entity reference accepted ("&#x0010FFFF;" with
// some leading zeros to spare).
const maxEntity = 32

// decodeEntity decodes the reference at the start of b ('&'), appending its
// character to dst, and returns how many bytes of b it took.
func decodeEntity(b []byte, dst []byte) ([]byte, int, error) {
	end := bytes.IndexByte(b[:min(len(b), maxEntity)], ';')
	if end < 2 {
		return dst, 0, fmt.Errorf("%w: bad entity reference %q", errXMLSyntax, b[:min(len(b), 12)])
	}
	name := b[1:end]
	switch string(name) {
	case "amp":
		return append(dst, '&'), end + 1, nil
	case "lt":
		return append(dst, '<'), end + 1, nil
	case "gt":
		return append(dst, '>'), end + 1, nil
	case "quot":
		return append(dst, '"'), end + 1, nil
	case "apos":
		return append(dst, '\''), end + 1, nil
	}
	if name[0] != '#' || len(name) < 2 {
		return dst, 0, fmt.Errorf("%w: unknown entity &%s;", errXMLSyntax, name)
	}
	digits, base := name[1:], rune(10)
	if digits[0] == 'x' {
		digits, base = digits[1:], 16
	}
	var r rune
	for _, c := range digits {
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return dst, 0, fmt.Errorf("%w: bad character reference &%s;", errXMLSyntax, name)
		}
		r = r*base + d
		if r > utf8.MaxRune {
			return dst, 0, fmt.Errorf("%w: bad character reference &%s;", errXMLSyntax, name)
		}
	}
	if len(digits) == 0 || !xmlChar(r) {
		return dst, 0, fmt.Errorf("%w: bad character reference &%s;", errXMLSyntax, name)
	}
	return utf8.AppendRune(dst, r), end + 1, nil
}

// xmlChar reports whether r may appear in an XML 1.0 document.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || (0x20 <= r && r <= 0xD7FF) ||
		(0xE000 <= r && r <= 0xFFFD) || (0x10000 <= r && r <= utf8.MaxRune)
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// localName strips a namespace prefix: "x:row" → "row".
func localName(name []byte) []byte {
	if c := bytes.LastIndexByte(name, ':'); c >= 0 {
		return name[c+1:]
	}
	return name
}

// decodeOOXMLEscapes undoes the escapes OOXML uses in shared and inline
// strings for characters XML cannot hold (ST_Xstring): "_x000D_" is a CR,
// "_x005F_" an underscore (so "_x005F_x000D_" reads "_x000D_"). It works in
// place, the decoded text never being longer, and returns the new length.
// A lone surrogate becomes U+FFFD; a pair becomes its character.
func decodeOOXMLEscapes(b []byte) int {
	if !bytes.Contains(b, []byte("_x")) {
		return len(b)
	}
	w := 0
	for r := 0; r < len(b); {
		if c, ok := ooxmlEscape(b[r:]); ok {
			r += 7
			if 0xD800 <= c && c <= 0xDBFF {
				if lo, ok := ooxmlEscape(b[r:]); ok && 0xDC00 <= lo && lo <= 0xDFFF {
					r += 7
					c = 0x10000 + (c-0xD800)<<10 + (lo - 0xDC00)
				}
			}
			if !utf8.ValidRune(c) {
				c = utf8.RuneError
			}
			w += utf8.EncodeRune(b[w:], c)
			continue
		}
		b[w] = b[r]
		w++
		r++
	}
	return w
}

// ooxmlEscape parses "_xHHHH_" at the start of b.
func ooxmlEscape(b []byte) (rune, bool) {
	if len(b) < 7 || b[0] != '_' || b[1] != 'x' || b[6] != '_' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
