package readers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"io"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// csvParser reads CSV records exactly as encoding/csv's Reader does with
// FieldsPerRecord -1, ReuseRecord, LazyQuotes false, no Comment and no
// TrimLeadingSpace: the same records and fields, the same FieldPos of every
// field, the same InputOffset after every record, the same *csv.ParseError
// (ErrQuote, ErrBareQuote, with the same lines and column) and the same
// calls on the bufio.Reader below, so that a read error (the capReader's
// limit) surfaces at the same record with the same partial fields.
// FuzzCSVParser checks all of that against encoding/csv.
//
// It exists because encoding/csv was most of the CPU time of reading a
// large CSV file (issue 25): for every field it calls bytes.IndexRune,
// copies the field into a record buffer and appends an index and a
// position. Most lines of a real file hold no quote, so the parser looks at
// each line once for one: a line without any (and a one-byte delimiter)
// cannot continue on the next line and has no escapes, so its record is the
// line itself, made into one string and cut at each delimiter in one pass.
// A line whose quoted fields all end on it, well formed, is cut by
// quotedLine, its fields' text copied side by side. Any other record (a
// quoted field over several lines, a misplaced quote, a delimiter of
// several bytes, a read error) goes through readQuoted, a transcription of
// encoding/csv's readRecord for the settings above.
//
// The records' strings are slices of shared 16 KiB text blocks rather than
// one allocation each: a kept cell keeps its block alive, at most 16 KiB.
type csvParser struct {
	r        *bufio.Reader
	comma    rune
	commaLen int
	comma1   byte // the delimiter when it is one byte (commaLen == 1)

	numLine int   // lines read so far
	offset  int64 // bytes read so far

	rawBuffer      []byte   // a line longer than the bufio buffer
	recordBuffer   []byte   // the unquoted text of a slow-path record
	fieldIndexes   []int    // where each field of recordBuffer ends
	fieldPositions []csvPos // of a readQuoted record
	record         []string // reused: ReuseRecord
	// plain is the line of the last record when plainLine made it, 0 when
	// readQuoted did: a plain record's fields start one delimiter after
	// the previous one ends, so their positions are not stored.
	plain int
	// text holds the text of the last lines without quotes, back to back:
	// their records are strings of it, made without an allocation each.
	// Only its free end is ever written, so the strings never change.
	text []byte
}

// csvTextSize is the size of csvParser.text. A record kept by the caller
// keeps at most this much memory alive; a line longer than csvTextSize/8
// gets a string of its own.
const csvTextSize = 16 << 10

// csvPos is where a field starts: line and column (in bytes) from 1.
type csvPos struct{ line, col int }

// newCSVParser reads records of r separated by comma, which must be valid
// (validDelimiter).
func newCSVParser(r *bufio.Reader, comma rune) *csvParser {
	p := &csvParser{r: r, comma: comma, commaLen: utf8.RuneLen(comma)}
	if p.commaLen == 1 {
		p.comma1 = byte(comma)
	}
	return p
}

// FieldPos returns the line and column where field i of the record last
// returned by Read starts, as encoding/csv's Reader.FieldPos does.
// The caller must not have changed the record's fields.
func (p *csvParser) FieldPos(i int) (line, column int) {
	if p.plain > 0 {
		if i < 0 || i >= len(p.record) {
			panic("out of range index passed to FieldPos")
		}
		column = 1
		for _, f := range p.record[:i] {
			column += len(f) + 1
		}
		return p.plain, column
	}
	if i < 0 || i >= len(p.fieldPositions) {
		panic("out of range index passed to FieldPos")
	}
	return p.fieldPositions[i].line, p.fieldPositions[i].col
}

// InputOffset returns the input stream byte offset of the end of the record
// last returned by Read, as encoding/csv's Reader.InputOffset does.
func (p *csvParser) InputOffset() int64 { return p.offset }

// readLine is encoding/csv's: the next line with its '\n' (and "\r\n" made
// "\n"), a line longer than the buffer gathered into rawBuffer, a '\r'
// right before the end of the input dropped.
func (p *csvParser) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		p.rawBuffer = append(p.rawBuffer[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = p.r.ReadSlice('\n')
			p.rawBuffer = append(p.rawBuffer, line...)
		}
		line = p.rawBuffer
	}
	readSize := len(line)
	if readSize > 0 && err == io.EOF {
		err = nil
		if line[readSize-1] == '\r' {
			line = line[:readSize-1]
		}
	}
	p.numLine++
	p.offset += int64(readSize)
	if n := len(line); n >= 2 && line[n-2] == '\r' && line[n-1] == '\n' {
		line[n-2] = '\n'
		line = line[:n-1]
	}
	return line, err
}

// Read returns the next record, as encoding/csv's Reader.Read does: the
// record (its slice reused by the next call) and, on failure, the fields
// read before it with a *csv.ParseError or the read error; io.EOF at the
// end.
func (p *csvParser) Read() ([]string, error) {
	// Read a line, skipping the empty ones.
	var line []byte
	var errRead error
	for errRead == nil {
		line, errRead = p.readLine()
		if errRead == nil && len(line) == lengthNL(line) {
			line = nil
			continue
		}
		break
	}
	if errRead == io.EOF {
		return nil, errRead
	}
	if p.commaLen == 1 {
		if bytes.IndexByte(line, '"') < 0 {
			return p.plainLine(line, errRead)
		}
		if errRead == nil {
			if rec, ok := p.quotedLine(line); ok {
				return rec, nil
			}
		}
	}
	return p.readQuoted(line, errRead)
}

// quotedLine makes the record of a line with quotes when every quoted field
// ends on it, well formed: the fields' text goes to p.text, the record's
// strings are slices of it. It reports false, having changed nothing that
// readQuoted reads, for anything else (a quoted field that goes on to the
// next line, a misplaced quote, a long line), which readQuoted then parses
// from the same line.
func (p *csvParser) quotedLine(line []byte) ([]string, bool) {
	body := line[:len(line)-lengthNL(line)]
	if len(body) > csvTextSize/8 {
		return nil, false
	}
	if cap(p.text)-len(p.text) < len(body) {
		p.text = make([]byte, 0, csvTextSize)
	}
	// Written past len(p.text), which no string reaches, until it is kept.
	text, at := p.text, len(p.text)
	ends, pos := p.fieldIndexes[:0], p.fieldPositions[:0]
	c, i := p.comma1, 0
	for {
		start := i
		if i < len(body) && body[i] == '"' {
			for i++; ; {
				j := bytes.IndexByte(body[i:], '"')
				if j < 0 {
					return nil, false // the field goes on to the next line
				}
				text = append(text, body[i:i+j]...)
				i += j + 1
				if i == len(body) || body[i] != '"' {
					break
				}
				text = append(text, '"') // "" inside quotes
				i++
			}
			ends = append(ends, len(text)-at)
			pos = append(pos, csvPos{p.numLine, start + 1})
			if i == len(body) {
				break
			}
			if body[i] != c {
				return nil, false // ErrQuote
			}
			i++
			continue
		}
		// An unquoted field: short, most often, so looked at byte by byte.
		end := i
		for end < len(body) && body[end] != c {
			if body[end] == '"' {
				return nil, false // ErrBareQuote
			}
			end++
		}
		text = append(text, body[i:end]...)
		ends = append(ends, len(text)-at)
		pos = append(pos, csvPos{p.numLine, start + 1})
		if end == len(body) {
			break
		}
		i = end + 1
	}
	str := ""
	if len(text) > at {
		str = unsafe.String(&text[at], len(text)-at)
	}
	p.text, p.fieldIndexes, p.fieldPositions, p.plain = text, ends, pos, 0
	rec, prev := p.record[:0], 0
	for _, e := range ends {
		rec = append(rec, str[prev:e])
		prev = e
	}
	p.record = rec
	return rec, true
}

// plainLine makes the record of a line without quotes: one string, cut at
// each delimiter. The delimiters are found eight bytes at a time, which
// spares a branch (most often mispredicted) per byte.
func (p *csvParser) plainLine(line []byte, errRead error) ([]string, error) {
	body := line[:len(line)-lengthNL(line)]
	str := p.recordString(body)
	rec := p.record[:0]
	c, start, i := p.comma1, 0, 0
	if len(body) >= 8 {
		mask := swarOnes * uint64(c)
		for ; i+8 <= len(body); i += 8 {
			for m := swarZeros(binary.LittleEndian.Uint64(body[i:]) ^ mask); m != 0; m &= m - 1 {
				j := i + bits.TrailingZeros64(m)>>3
				rec = append(rec, str[start:j])
				start = j + 1
			}
		}
	}
	for ; i < len(body); i++ {
		if body[i] == c {
			rec = append(rec, str[start:i])
			start = i + 1
		}
	}
	rec = append(rec, str[start:])
	p.record, p.plain = rec, p.numLine
	return rec, errRead
}

// recordString returns body as a string: a slice of p.text when it is
// short, a string of its own otherwise.
func (p *csvParser) recordString(body []byte) string {
	switch {
	case len(body) == 0:
		return ""
	case len(body) > csvTextSize/8:
		return string(body)
	case cap(p.text)-len(p.text) < len(body):
		p.text = make([]byte, 0, csvTextSize)
	}
	at := len(p.text)
	p.text = append(p.text, body...)
	return unsafe.String(&p.text[at], len(body))
}

const (
	swarOnes = 0x0101010101010101
	swarLow7 = 0x7f7f7f7f7f7f7f7f
)

// swarZeros returns x with the high bit of exactly its zero bytes set
// (no false positives: the additions cannot carry from byte to byte).
func swarZeros(x uint64) uint64 {
	return ^((x&swarLow7 + swarLow7) | x | swarLow7)
}

// readQuoted parses a record that starts with line, which holds a quote or
// is cut by a delimiter of several bytes: encoding/csv's readRecord, for
// the settings csvParser has, line for line.
func (p *csvParser) readQuoted(line []byte, errRead error) ([]string, error) {
	var err error
	const quoteLen = len(`"`)
	commaLen := p.commaLen
	recLine := p.numLine // Starting line for record
	p.plain = 0
	p.recordBuffer = p.recordBuffer[:0]
	p.fieldIndexes = p.fieldIndexes[:0]
	p.fieldPositions = p.fieldPositions[:0]
	pos := csvPos{line: p.numLine, col: 1}
parseField:
	for {
		if len(line) == 0 || line[0] != '"' {
			// Non-quoted string field
			i := bytes.IndexRune(line, p.comma)
			field := line
			if i >= 0 {
				field = field[:i]
			} else {
				field = field[:len(field)-lengthNL(field)]
			}
			// Check to make sure a quote does not appear in field.
			if j := bytes.IndexByte(field, '"'); j >= 0 {
				col := pos.col + j
				err = &csv.ParseError{StartLine: recLine, Line: p.numLine, Column: col, Err: csv.ErrBareQuote}
				break parseField
			}
			p.recordBuffer = append(p.recordBuffer, field...)
			p.fieldIndexes = append(p.fieldIndexes, len(p.recordBuffer))
			p.fieldPositions = append(p.fieldPositions, pos)
			if i >= 0 {
				line = line[i+commaLen:]
				pos.col += i + commaLen
				continue parseField
			}
			break parseField
		}
		// Quoted string field
		fieldPos := pos
		line = line[quoteLen:]
		pos.col += quoteLen
		for {
			i := bytes.IndexByte(line, '"')
			if i >= 0 {
				// Hit next quote.
				p.recordBuffer = append(p.recordBuffer, line[:i]...)
				line = line[i+quoteLen:]
				pos.col += i + quoteLen
				switch rn := nextRune(line); {
				case rn == '"':
					// `""` sequence (append quote).
					p.recordBuffer = append(p.recordBuffer, '"')
					line = line[quoteLen:]
					pos.col += quoteLen
				case rn == p.comma:
					// `",` sequence (end of field).
					line = line[commaLen:]
					pos.col += commaLen
					p.fieldIndexes = append(p.fieldIndexes, len(p.recordBuffer))
					p.fieldPositions = append(p.fieldPositions, fieldPos)
					continue parseField
				case lengthNL(line) == len(line):
					// `"\n` sequence (end of line).
					p.fieldIndexes = append(p.fieldIndexes, len(p.recordBuffer))
					p.fieldPositions = append(p.fieldPositions, fieldPos)
					break parseField
				default:
					// `"*` sequence (invalid non-escaped quote).
					err = &csv.ParseError{StartLine: recLine, Line: p.numLine, Column: pos.col - quoteLen, Err: csv.ErrQuote}
					break parseField
				}
			} else if len(line) > 0 {
				// Hit end of line (copy all data so far).
				p.recordBuffer = append(p.recordBuffer, line...)
				if errRead != nil {
					break parseField
				}
				pos.col += len(line)
				line, errRead = p.readLine()
				if len(line) > 0 {
					pos.line++
					pos.col = 1
				}
				if errRead == io.EOF {
					errRead = nil
				}
			} else {
				// Abrupt end of file (EOF or error).
				if errRead == nil {
					err = &csv.ParseError{StartLine: recLine, Line: pos.line, Column: pos.col, Err: csv.ErrQuote}
					break parseField
				}
				p.fieldIndexes = append(p.fieldIndexes, len(p.recordBuffer))
				p.fieldPositions = append(p.fieldPositions, fieldPos)
				break parseField
			}
		}
	}
	if err == nil {
		err = errRead
	}

	// One string for the record, the fields slices of it.
	str := string(p.recordBuffer)
	dst := p.record[:0]
	if cap(dst) < len(p.fieldIndexes) {
		dst = make([]string, len(p.fieldIndexes))
	}
	dst = dst[:len(p.fieldIndexes)]
	var preIdx int
	for i, idx := range p.fieldIndexes {
		dst[i] = str[preIdx:idx]
		preIdx = idx
	}
	p.record = dst
	return dst, err
}

// lengthNL reports the length of the line end at the end of b: 1 or 0.
func lengthNL(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		return 1
	}
	return 0
}

// nextRune returns the rune at the start of b (utf8.RuneError when none).
func nextRune(b []byte) rune {
	r, _ := utf8.DecodeRune(b)
	return r
}
