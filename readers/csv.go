package readers

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/msg"
)

// csvBufSize is the read buffer of the CSV parser; it is also how far the
// parser may read ahead of the record it is on.
const csvBufSize = 64 << 10

// csvFile is what Open learned about a CSV file.
type csvFile struct {
	path   string
	opts   Options
	enc    string
	bomLen int
}

// openCSV checks that path is text and decides its encoding.
func openCSV(path string, opts Options) (*csvFile, error) {
	forced, ok := normalizeEncoding(opts.Encoding)
	if !ok {
		return nil, fileError(path, "", nil, msg.New("rd.encoding", opts.Encoding))
	}
	if d := opts.Delimiter; d != 0 && !validDelimiter(d) {
		return nil, fileError(path, "", nil, msg.New("rd.delimiter", string(d)))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, openError(path, syscall.EISDIR)
	} else if err == nil && st.Size() > limits.fileBytes {
		return nil, fileTooLarge(path, st.Size())
	}
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(f, head)
	atEOF := err == io.EOF || err == io.ErrUnexpectedEOF
	if err != nil && !atEOF {
		return nil, openError(path, err)
	}
	head = head[:n]
	enc, bomLen, bin := detectEncoding(f, head, atEOF, forced)
	if bin != nil {
		switch {
		case bytes.HasPrefix(bin, magicZip):
			return nil, fileError(path, "", ErrNotText, msg.New("rd.xlsxascsv"))
		case bytes.HasPrefix(bin, magicOLE):
			return nil, fileError(path, "", ErrNotText, msg.New("rd.xlsascsv"))
		}
		return nil, fileError(path, "", ErrNotText, msg.New("rd.nottext"))
	}
	return &csvFile{path: path, opts: opts, enc: enc, bomLen: bomLen}, nil
}

// validDelimiter mirrors encoding/csv's rule, so a bad --delimiter is
// refused at Open with a sentence instead of failing every Read.
func validDelimiter(r rune) bool {
	return r != 0 && r != '"' && r != '\r' && r != '\n' && utf8.ValidRune(r) && r != utf8.RuneError
}

// sheet opens a fresh stream of the file, decoded to UTF-8, with the
// delimiter detected from the header line.
func (c *csvFile) sheet(info *SheetInfo) (rowSource, error) {
	f, err := os.Open(c.path)
	if err != nil {
		return nil, openError(c.path, err)
	}
	if c.bomLen > 0 {
		if _, err := f.Seek(int64(c.bomLen), io.SeekStart); err != nil {
			f.Close()
			return nil, ioError(c.path, err)
		}
	}
	dec := decoder(f, c.enc)
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(dec, head)
	var stream io.Reader = bytes.NewReader(head[:n])
	switch err {
	case nil:
		stream = io.MultiReader(stream, dec)
	case io.EOF, io.ErrUnexpectedEOF:
	default:
		f.Close()
		return nil, ioError(c.path, err)
	}
	head = head[:n]
	if bytes.IndexByte(head, '\n') < 0 && bytes.IndexByte(head, '\r') >= 0 {
		// Line ends of old Mac Excel: a bare CR, which encoding/csv keeps
		// inside the line.
		stream = crToLF{stream}
		head = bytes.ReplaceAll(head, []byte{'\r'}, []byte{'\n'})
	}
	delim := c.opts.Delimiter
	lineOffset := 0
	if sep, size, ok := sepLine(head); ok {
		// Excel's "sep=;" first line names the delimiter; it is not the
		// header, but it is row 1.
		if _, err := io.CopyN(io.Discard, stream, int64(size)); err != nil {
			f.Close()
			return nil, ioError(c.path, err)
		}
		head, lineOffset = head[size:], 1
		if delim == 0 {
			delim = sep
		}
	}
	if delim == 0 {
		delim = detectDelimiter(head, c.opts.HeaderRow-lineOffset)
	}
	info.Delimiter = delim
	info.Encoding = c.enc

	lines := &lineMap{}
	stream = &crlfKeeper{r: stream, delim: utf8.AppendRune(nil, delim), lines: lines}
	capped := &capReader{r: stream, max: int64(c.opts.MaxCellBytes), limit: int64(c.opts.MaxCellBytes) + csvBufSize}
	r := newCSVParser(bufio.NewReaderSize(capped, csvBufSize), delim)
	return &csvRows{path: c.path, file: f, r: r, capped: capped, max: c.opts.MaxCellBytes, lineOffset: lineOffset, lines: lines}, nil
}

// detectDelimiter picks the separator of the header line among ';', TAB
// and ',': the most frequent outside quotes. Ties go in that order, and a
// line with none of them gets ';': Excel in Spanish writes ';', and a comma
// is likelier than a ';' or TAB to appear inside a header or a lone column
// (as a decimal comma).
//
// The header line is row headerRow of text (--header-row) when above 0.
// Otherwise it is the first line with text, unless that line has none of
// the three (a title such as "Ventas de noviembre - sucursal centro"):
// then the first of the next HeaderProbeRows lines with text that has one
// of them outside a number ("1,5" is a decimal comma, not a header) is.
func detectDelimiter(text []byte, headerRow int) rune {
	var semi, tab, comma, textComma int
	inQuote, content := false, false
	row, lines := 1, 0
	titled := false // the first line with text had none of the three
	// decide says whether the line just ended decides the delimiter.
	decide := func() bool {
		if headerRow > 0 {
			return row == headerRow
		}
		if !content {
			return false
		}
		lines++
		if !titled {
			if semi+tab+comma > 0 {
				return true
			}
			titled = true
			return false
		}
		if semi+tab+textComma > 0 {
			comma = textComma
			return true
		}
		return false
	}
	for i, b := range text {
		switch {
		case b == '"':
			inQuote = !inQuote
		case inQuote:
			content = true
		case b == '\n':
			if decide() {
				return pickDelimiter(semi, tab, comma)
			}
			if headerRow <= 0 && lines > HeaderProbeRows {
				return ';'
			}
			semi, tab, comma, textComma, content = 0, 0, 0, 0, false
			row++
		case b == ';':
			semi++
		case b == '\t':
			tab++
		case b == ',':
			comma++
			if i == 0 || i+1 == len(text) || !isDigit(text[i-1]) || !isDigit(text[i+1]) {
				textComma++
			}
		case b != ' ' && b != '\r':
			content = true
		}
	}
	if decide() {
		return pickDelimiter(semi, tab, comma)
	}
	return ';'
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func pickDelimiter(semi, tab, comma int) rune {
	switch {
	case comma > semi && comma > tab:
		return ','
	case tab > semi:
		return '\t'
	}
	return ';'
}

// capReader bounds how far the parser may read past the end of the last
// record, since encoding/csv would otherwise hold a record of any size in
// memory: a 50 MB cell fails after about MaxCellBytes, not after 50 MB.
type capReader struct {
	r     io.Reader
	max   int64
	n     int64 // bytes read so far
	limit int64 // n may not pass this
}

// sepLine recognises Excel's optional first line "sep=X" (X the delimiter)
// and returns X and the line's length with its line end.
func sepLine(head []byte) (rune, int, bool) {
	const prefix = "sep="
	if len(head) <= len(prefix) || !strings.EqualFold(string(head[:len(prefix)]), prefix) {
		return 0, 0, false
	}
	d, size := utf8.DecodeRune(head[len(prefix):])
	end := len(prefix) + size
	rest := head[end:]
	switch {
	case bytes.HasPrefix(rest, []byte("\r\n")):
		end += 2
	case bytes.HasPrefix(rest, []byte("\n")):
		end++
	case len(rest) > 0:
		return 0, 0, false
	}
	if !validDelimiter(d) {
		return 0, 0, false
	}
	return d, end, true
}

// crlfKeeper keeps the CR of a CR LF inside a quoted cell, which
// encoding/csv would otherwise drop (it reads "\r\n" at the end of every
// line, quoted or not, as "\n"), so that every character of a cell survives
// a report round trip. It doubles that CR: the parser then drops one and
// keeps the other. It follows the quoting as encoding/csv does (a quote
// opens a quoted cell only as a cell's first character, "" inside is a
// quote) and adds no line, so row and line numbers are unchanged. Outside
// quotes only a quote can change anything, so it jumps from quote to quote
// with bytes.IndexByte: the cost is a copy of the input, and not even that
// for a chunk with no quote and no empty line, which it reads straight into
// the caller's buffer and leaves there (most chunks of most files).
type crlfKeeper struct {
	r     io.Reader
	delim []byte // the delimiter's UTF-8
	state uint8
	cr    bool // a CR inside quotes ended the last chunk: its LF is unknown yet
	// prev holds the last bytes read (up to a delimiter's length), to tell
	// whether a quote at the start of a chunk starts a cell.
	prev  [utf8.UTFMax]byte
	nprev int
	seen  bool // some input was read: the start of the file is behind
	in    []byte
	out   []byte // transformed, not yet returned
	off   int
	err   error
	// lines, when set, makes the keeper leave out the empty lines outside
	// quotes (encoding/csv skips them), noting where.
	lines   *lineMap
	midLine bool // outside quotes, the last byte passed did not end a line
	pendCR  bool // a CR at a line's start ended the last chunk: an empty line if an LF follows
	nl      int  // line ends of the input counted so far
	cntPos  int  // how far into the current chunk nl has counted
	dropped int  // empty lines left out so far
}

// lineMap maps the line numbers of the stream the parser reads, from which
// crlfKeeper left out the empty lines, back to the file's own. The empty
// lines are left out before the parser (which would skip them anyway) so
// that any number of them costs neither a record's size limit nor memory.
type lineMap struct {
	drops []lineDrop // not yet passed by a line asked about, in order
	done  int        // lines dropped before the last line asked about
}

// lineDrop says that n empty lines were left out after the stream's first
// `after` lines.
type lineDrop struct{ after, n int }

func (m *lineMap) add(after int) {
	if l := len(m.drops); l > 0 && m.drops[l-1].after == after {
		m.drops[l-1].n++
		return
	}
	m.drops = append(m.drops, lineDrop{after: after, n: 1})
}

// file returns the file's line number of the stream's line. Lines must be
// asked about in increasing order (the parser's records come in order).
func (m *lineMap) file(line int) int {
	i := 0
	for i < len(m.drops) && m.drops[i].after < line {
		m.done += m.drops[i].n
		i++
	}
	m.drops = m.drops[i:]
	return line + m.done
}

// crlfKeeper states.
const (
	csvUnquoted = iota
	csvQuoted
	csvQuoteInQuoted // a '"' inside quotes ended the last chunk: escaped or closing
)

func (k *crlfKeeper) Read(p []byte) (int, error) {
	for k.off == len(k.out) && k.err == nil && !k.cr && !k.pendCR && k.state == csvUnquoted && len(p) > 0 {
		// Nothing held back: read straight into p, and leave the bytes
		// where they are when there is nothing to change in them, as in
		// most chunks of most files.
		n, err := k.r.Read(p)
		k.err = err
		in := p[:n]
		if k.passes(in) {
			if k.lines != nil {
				k.nl += bytes.Count(in, []byte{'\n'})
				k.cntPos = 0
				if n > 0 {
					k.midLine = in[n-1] != '\n'
				}
			}
			k.remember(in)
			if n == 0 && err == nil {
				continue
			}
			if n == 0 {
				return 0, err
			}
			return n, nil
		}
		k.out, k.off = k.transform(in, k.out[:0]), 0
		if k.lines != nil {
			k.nl += bytes.Count(in[k.cntPos:], []byte{'\n'})
			k.cntPos = 0
		}
		k.remember(in)
	}
	for k.off == len(k.out) {
		if k.err != nil {
			if k.pendCR {
				k.pendCR = false
				k.out, k.off = append(k.out[:0], '\r'), 0
				break
			}
			if k.cr {
				// The file ended right after a CR inside quotes.
				k.cr = false
				k.out, k.off = append(k.out[:0], '\r'), 0
				break
			}
			return 0, k.err
		}
		if k.in == nil {
			k.in = make([]byte, csvBufSize)
		}
		n, err := k.r.Read(k.in)
		k.err = err
		k.out, k.off = k.transform(k.in[:n], k.out[:0]), 0
		if k.lines != nil {
			k.nl += bytes.Count(k.in[k.cntPos:n], []byte{'\n'})
			k.cntPos = 0
		}
		k.remember(k.in[:n])
	}
	n := copy(p, k.out[k.off:])
	k.off += n
	return n, nil
}

// passes reports whether transform would leave the chunk in as it is, the
// keeper being outside quotes with nothing held back: no quote, and with
// lines set no empty line and no CR that could start one.
func (k *crlfKeeper) passes(in []byte) bool {
	if bytes.IndexByte(in, '"') >= 0 {
		return false
	}
	if k.lines == nil || len(in) == 0 {
		return true
	}
	if !k.midLine && (in[0] == '\n' || in[0] == '\r') {
		return false
	}
	return !hasLFThenLFOrCR(in)
}

// hasLFThenLFOrCR reports whether b holds "\n\n" or "\n\r", eight bytes
// at a time: bytes.Index would stop at every line end of a CSV file.
func hasLFThenLFOrCR(b []byte) bool {
	const lf, cr = swarOnes * '\n', swarOnes * '\r'
	var carry uint64 // the high bit set when the last byte of the previous word was '\n'
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		isLF := swarZeros(x ^ lf)
		if isLF == 0 && carry == 0 {
			continue
		}
		next := isLF | swarZeros(x^cr)
		// A byte after a '\n' is the next byte up: the '\n' mask shifted
		// by one byte, with the previous word's last byte carried in.
		if (isLF<<8|carry)&next != 0 {
			return true
		}
		carry = isLF >> 56
	}
	for ; i < len(b); i++ {
		if carry != 0 && (b[i] == '\n' || b[i] == '\r') {
			return true
		}
		carry = 0
		if b[i] == '\n' {
			carry = 0x80
		}
	}
	return false
}

// transform appends in to out, doubling each CR that precedes an LF inside
// quotes.
func (k *crlfKeeper) transform(in, out []byte) []byte {
	i := 0
	if k.cr {
		k.cr = false
		if len(in) > 0 && in[0] == '\n' {
			out = append(out, '\r')
		}
		out = append(out, '\r')
	}
	if k.pendCR {
		k.pendCR = false
		if len(in) > 0 && in[0] == '\n' {
			k.drop(in, 0)
			i = 1
		} else {
			out = append(out, '\r')
			k.midLine = true
		}
	}
	for i < len(in) {
		switch k.state {
		case csvQuoteInQuoted:
			if in[i] == '"' {
				out = append(out, '"')
				i++
				k.state = csvQuoted
				continue
			}
			k.state = csvUnquoted
		case csvQuoted:
			j := indexQuoteOrCR(in[i:])
			if j < 0 {
				return append(out, in[i:]...)
			}
			out = append(out, in[i:i+j]...)
			i += j
			switch {
			case in[i] == '\r' && i+1 == len(in):
				k.cr = true // the next chunk says whether an LF follows
				return out
			case in[i] == '\r':
				if in[i+1] == '\n' {
					out = append(out, '\r')
				}
				out = append(out, '\r')
				i++
			case i+1 == len(in):
				k.state = csvQuoteInQuoted
				return append(out, '"')
			case in[i+1] == '"':
				out = append(out, '"', '"')
				i += 2
			default:
				out = append(out, '"')
				i++
				k.state = csvUnquoted
			}
			continue
		}
		// Outside quotes: only a quote at a cell's start changes the state.
		j := bytes.IndexByte(in[i:], '"')
		if j < 0 {
			return k.plain(out, in, i, len(in))
		}
		out = append(k.plain(out, in, i, i+j), '"')
		k.midLine = true
		if k.cellStart(in, i+j) {
			k.state = csvQuoted
		}
		i += j + 1
	}
	return out
}

// plain appends in[i:j], text outside quotes, to out. With lines set it
// leaves out the empty lines ("\n" or "\r\n" at a line's start), noting
// where.
func (k *crlfKeeper) plain(out, in []byte, i, j int) []byte {
	if k.lines == nil {
		return append(out, in[i:j]...)
	}
	for i < j {
		if !k.midLine {
			switch {
			case in[i] == '\n':
				k.drop(in, i)
				i++
				continue
			case in[i] == '\r' && i+1 < j && in[i+1] == '\n':
				k.drop(in, i)
				i += 2
				continue
			case in[i] == '\r' && i+1 == len(in):
				k.pendCR = true // the next chunk says whether an LF follows
				return out
			}
			k.midLine = true
		}
		p := bytes.IndexByte(in[i:j], '\n')
		if p < 0 {
			return append(out, in[i:j]...)
		}
		out = append(out, in[i:i+p+1]...)
		i += p + 1
		k.midLine = false
	}
	return out
}

// drop notes an empty line left out at position p of the chunk in.
func (k *crlfKeeper) drop(in []byte, p int) {
	k.nl += bytes.Count(in[k.cntPos:p], []byte{'\n'})
	k.cntPos = p
	k.lines.add(k.nl - k.dropped)
	k.dropped++
}

// indexQuoteOrCR returns the index of the first '"' or '\r' in b, or -1.
func indexQuoteOrCR(b []byte) int {
	q := bytes.IndexByte(b, '"')
	if q < 0 {
		return bytes.IndexByte(b, '\r')
	}
	if c := bytes.IndexByte(b[:q], '\r'); c >= 0 {
		return c
	}
	return q
}

// cellStart reports whether position q of in (with the bytes read before
// it) is a cell's first character: the start of the file, or right after a
// line end or a delimiter.
func (k *crlfKeeper) cellStart(in []byte, q int) bool {
	if q == 0 && !k.seen {
		return true
	}
	return k.follows(in, q, []byte{'\n'}) || k.follows(in, q, k.delim)
}

// follows reports whether the input just before position q of in ends with s.
func (k *crlfKeeper) follows(in []byte, q int, s []byte) bool {
	if q >= len(s) {
		return bytes.Equal(in[q-len(s):q], s)
	}
	need := len(s) - q // bytes of s from the previous chunk
	if need > k.nprev {
		return false
	}
	return bytes.Equal(k.prev[k.nprev-need:k.nprev], s[:need]) && bytes.Equal(in[:q], s[need:])
}

// remember keeps the last bytes read.
func (k *crlfKeeper) remember(in []byte) {
	if len(in) == 0 {
		return
	}
	k.seen = true
	if len(in) >= len(k.prev) {
		k.nprev = copy(k.prev[:], in[len(in)-len(k.prev):])
		return
	}
	keep := min(k.nprev, len(k.prev)-len(in))
	copy(k.prev[:], k.prev[k.nprev-keep:k.nprev])
	k.nprev = keep + copy(k.prev[keep:], in)
}

// crToLF turns every CR into LF, for files whose lines end in a bare CR.
type crToLF struct{ r io.Reader }

func (c crToLF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

var errRecordTooLarge = errors.New("csv record over the size limit")

func (c *capReader) Read(p []byte) (int, error) {
	room := c.limit - c.n
	if room <= 0 {
		return 0, errRecordTooLarge
	}
	if int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// recordEnded moves the window on once a record ending at offset end (in
// decoded bytes) has been parsed.
func (c *capReader) recordEnded(end int64) { c.limit = end + c.max + csvBufSize }

// csvRows reads the records of one CSV stream.
type csvRows struct {
	path    string
	file    *os.File
	r       *csvParser
	capped  *capReader
	max     int
	lastEnd int64
	header  []string // physical header, to name the column of a bad quote
	// lineOffset counts lines removed before the parser (a "sep=" line).
	lineOffset int
	// folded counts the line breaks inside quoted cells of the records read
	// so far: a spreadsheet shows such a cell within one row, so they do not
	// count as rows.
	folded int
	// lines maps the parser's line numbers, without the empty lines, to
	// the file's.
	lines   *lineMap
	records int // records read so far
	rec     rawRow
}

func (c *csvRows) next(limit int) (*rawRow, error) {
	row, cells, err := c.record()
	if err != nil {
		return nil, err
	}
	// Records, not row numbers, are counted: empty lines are nothing,
	// however many there are.
	if c.records++; c.records > limits.rows {
		return nil, errAt(c.pos(0), ErrTooLarge, msg.New("rd.csvrows", count(limits.rows)))
	}
	c.rec = rawRow{num: row, cells: cells, over: overflow{quoted: c.rec.over.quoted[:0]}}
	fitRow(&c.rec, limit)
	return &c.rec, nil
}

// record reads one CSV record and its spreadsheet row number.
func (c *csvRows) record() (int, []string, error) {
	rec, err := c.r.Read()
	if err != nil {
		return 0, nil, c.readError(rec, err)
	}
	line, _ := c.r.FieldPos(0)
	row := c.row(line)
	if c.r.plain == 0 {
		// The record's own line breaks: from its first line to where its
		// last cell starts, plus those inside that last cell. A line
		// without quotes has none.
		last := len(rec) - 1
		lastLine, _ := c.r.FieldPos(last)
		c.folded += lastLine - line + strings.Count(rec[last], "\n")
	}
	end := c.r.InputOffset()
	if end-c.lastEnd > int64(c.max) {
		return 0, nil, c.tooLarge(row)
	}
	c.lastEnd = end
	c.capped.recordEnded(end)
	return row, rec, nil
}

// row turns the parser's line number of a record's start into the
// spreadsheet's row number.
func (c *csvRows) row(line int) int { return c.fileLine(line) - c.folded }

// fileLine turns a line number of the parser into the file's.
func (c *csvRows) fileLine(line int) int {
	if c.lines != nil {
		line = c.lines.file(line)
	}
	return line + c.lineOffset
}

func (c *csvRows) columnName(names []string) { c.header = names }

func (c *csvRows) close() error { return c.file.Close() }

// readError turns a failed Read into a *msg.Error naming the row where the
// record starts.
func (c *csvRows) readError(rec []string, err error) error {
	if err == io.EOF {
		return io.EOF
	}
	var pe *csv.ParseError
	switch {
	case errors.As(err, &pe) && (errors.Is(pe.Err, csv.ErrQuote) || errors.Is(pe.Err, csv.ErrBareQuote)):
		key := "rd.quote"
		if errors.Is(pe.Err, csv.ErrBareQuote) {
			key = "rd.barequote"
		}
		// The fields before the faulty one were parsed: its index is
		// their count.
		col := ""
		if i := len(rec); i < len(c.header) && c.header[i] != "" {
			col = c.header[i]
		}
		pos := c.pos(c.row(pe.StartLine))
		pos.Column = col
		return errAt(pos, err, msg.New(key, c.fileLine(pe.Line)))
	case errors.Is(err, errRecordTooLarge):
		row := 0
		if len(rec) > 0 {
			line, _ := c.r.FieldPos(0)
			row = c.row(line)
		}
		return c.tooLarge(row)
	}
	return errAt(c.pos(0), fmt.Errorf("reading csv: %w", err), msg.New("rd.io", causeText(err)))
}

func (c *csvRows) tooLarge(line int) *msg.Error {
	return errAt(c.pos(line), ErrCellTooLarge, msg.New("rd.rowtoolarge", c.max))
}

func (c *csvRows) pos(row int) msg.Position { return msg.Position{File: c.path, Row: row} }
