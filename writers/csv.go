package writers

import (
	"bufio"
	"encoding/binary"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// utf8BOM makes Excel read the report as UTF-8 (without it, Excel in
// Spanish locale reads it as Windows-1252 and garbles every accent).
const utf8BOM = "\uFEFF"

// WriteCSV writes every row of t to path, input columns first, then the
// result columns: UTF-8 with BOM, CRLF line ends, every text cell that a
// spreadsheet would run as a formula neutralised. Cells keep their type:
// a number is written with a decimal comma (es-AR, what Excel and
// LibreOffice in Spanish sum), a date as dd/mm/yyyy, text as typed. The file
// is written atomically. An errors file is the same with only the rows
// that need attention: the input columns come first and unchanged but for
// neutralising, so the user fixes the cells and runs that file as it is
// (readers drop the result.* columns).
func WriteCSV(path string, t Table) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		return writeCSV(w, t)
	})
}

func writeCSV(w io.Writer, t Table) error {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriter(w)
	}
	if _, err := bw.WriteString(utf8BOM); err != nil {
		return err
	}
	comma := t.Comma
	if comma == 0 {
		comma = ';'
	}
	cw := newRecordWriter(bw, comma)
	width := len(t.Header)
	results := t.resultColumns()
	rec := make([]string, 0, width+len(results))
	for _, h := range t.Header {
		rec = append(rec, cell.Neutralize(h))
	}
	rec = append(rec, results...)
	if err := cw.write(rec); err != nil {
		return err
	}
	if t.Rows != nil || t.Spans != nil {
		if err := writeCSVRows(bw, csvFormat{rw: cw, t: &t, width: width, nres: len(results)}); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// csvJob is a run of report rows to format: either the positions
// [from, to) of a table's Spans, or rows copied out of the reused slices
// of its Rows (cells and kinds, width each, and result cells, nres each);
// out receives the formatted records.
type csvJob struct {
	from, to int
	cells    []string
	kinds    []cell.Kind
	res      []string
	buf      []byte // the formatted records, reused with the job
	out      chan []byte
}

// csvJobRows is how many rows (or source positions) one formatting job
// holds.
const csvJobRows = 1024

// csvFormat formats a table's rows as CSV records.
type csvFormat struct {
	rw          recordWriter
	t           *Table
	width, nres int
}

// writeCSVRows formats the rows on every core and writes them in order:
// typing and neutralising the cells of a million-row report costs as much
// as reading its input. A table with Spans has its rows made on every core
// too, each by the goroutine that formats it; one with Rows only has them
// made on this goroutine and copied into the jobs.
func writeCSVRows(bw *bufio.Writer, f csvFormat) error {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *csvJob)
	order := make(chan *csvJob, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var produce func(from, to int, emit func(Row))
			var j *csvJob
			emit := func(r Row) { j.buf = f.appendRow(j.buf, r.Cells, r.Kinds, r.Result) }
			if f.t.Spans != nil {
				produce = f.t.Spans.New()
			}
			for j = range jobs {
				j.buf = j.buf[:0]
				if produce != nil {
					produce(j.from, j.to, emit)
				} else {
					j.buf = f.appendJob(j.buf, j)
				}
				j.out <- j.buf
			}
		}()
	}
	// Written jobs come back to be filled again: the rows in flight, not
	// the report's size, bound what this costs.
	free := make(chan *csvJob, 3*workers+1)
	written := make(chan error, 1)
	// failed stops the rows once a write failed: the jobs in flight are
	// drained, no more are made.
	var failed atomic.Bool
	go func() {
		var err error
		for j := range order {
			b := <-j.out
			if err == nil {
				if _, err = bw.Write(b); err != nil {
					failed.Store(true)
				}
			}
			j.cells, j.kinds, j.res = j.cells[:0], j.kinds[:0], j.res[:0]
			select {
			case free <- j:
			default:
			}
		}
		written <- err
	}()
	newJob := func() *csvJob {
		select {
		case j := <-free:
			return j
		default:
		}
		if f.t.Spans != nil {
			return &csvJob{out: make(chan []byte, 1)}
		}
		return &csvJob{cells: make([]string, 0, csvJobRows*f.width), kinds: make([]cell.Kind, 0, csvJobRows*f.width),
			res: make([]string, 0, csvJobRows*f.nres), out: make(chan []byte, 1)}
	}
	send := func(j *csvJob) {
		order <- j
		jobs <- j
	}
	if s := f.t.Spans; s != nil {
		for from := 0; from < s.N && !failed.Load(); from += csvJobRows {
			j := newJob()
			j.from, j.to = from, min(from+csvJobRows, s.N)
			send(j)
		}
	} else {
		f.copyRows(newJob, send, &failed)
	}
	close(jobs)
	close(order)
	wg.Wait()
	return <-written
}

// copyRows copies the rows of the table's Rows into jobs and sends each
// full one, until a write fails.
func (f csvFormat) copyRows(newJob func() *csvJob, send func(*csvJob), failed *atomic.Bool) {
	width, nres := f.width, f.nres
	j := newJob()
	for r := range f.t.Rows {
		for i := range width {
			c, k := "", cell.Text
			if i < len(r.Cells) {
				c = r.Cells[i]
			}
			if i < len(r.Kinds) {
				k = r.Kinds[i]
			}
			j.cells, j.kinds = append(j.cells, c), append(j.kinds, k)
		}
		j.res = resultCells(j.res, r, nres)
		if len(j.cells) == csvJobRows*width && len(j.res) == csvJobRows*nres {
			send(j)
			j = newJob()
			if failed.Load() {
				break
			}
		}
	}
	if len(j.cells) > 0 || len(j.res) > 0 {
		send(j)
	}
}

// appendJob formats the rows copied into a job as CSV records.
func (f csvFormat) appendJob(out []byte, j *csvJob) []byte {
	width, nres := f.width, f.nres
	rows := len(j.res) / max(nres, 1)
	if nres == 0 {
		rows = len(j.cells) / max(width, 1)
	}
	for k := range rows {
		out = f.appendRow(out, j.cells[k*width:(k+1)*width], j.kinds[k*width:(k+1)*width], j.res[k*nres:(k+1)*nres])
	}
	return out
}

// appendRow appends one row as a CSV record, line end included: its
// cells (padded to the header's width; a missing kind is text), then its
// result cells (padded to the result columns).
func (f csvFormat) appendRow(out []byte, cells []string, kinds []cell.Kind, res []string) []byte {
	// The separator and the field's quoting are written out here rather
	// than called: this runs for every cell of a report.
	rw, sep := f.rw, f.rw.sep
	for i := range f.width {
		if i > 0 {
			if sep != 0 {
				out = append(out, sep)
			} else {
				out = rw.appendComma(out)
			}
		}
		c, k := "", cell.Text
		if i < len(cells) {
			c = cells[i]
		}
		if i < len(kinds) {
			k = kinds[i]
		}
		if k == cell.Text || k == cell.Empty {
			if c == "" {
				continue
			}
			c = cell.Neutralize(c) // most cells: csvCell's own first case, inlined
		} else {
			c = csvCell(c, k, f.t)
		}
		if rw.needsQuotes(c) {
			out = rw.appendQuoted(out, c)
		} else {
			out = append(out, c...)
		}
	}
	for i := range f.nres {
		if f.width > 0 || i > 0 {
			if sep != 0 {
				out = append(out, sep)
			} else {
				out = rw.appendComma(out)
			}
		}
		if i < len(res) && res[i] != "" {
			c := cell.Neutralize(res[i])
			if rw.needsQuotes(c) {
				out = rw.appendQuoted(out, c)
			} else {
				out = append(out, c...)
			}
		}
	}
	return append(out, '\r', '\n')
}

// csvCell is a cell as the CSV report writes it: a stored number with a
// decimal comma, a date as dd/mm/yyyy (with the time when it has one), a
// boolean as the spreadsheet's own word, text as typed (neutralised).
func csvCell(c string, k cell.Kind, t *Table) string {
	if k == cell.Text {
		return cell.Neutralize(c) // most cells: no switch to go through
	}
	switch k {
	case cell.Number:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			return strings.Replace(strconv.FormatFloat(f, 'f', -1, 64), ".", ",", 1)
		}
	case cell.Date:
		if d, ok := dateOf(c, t.Date1904); ok {
			return dateText(d)
		}
	case cell.Bool:
		if c == "1" {
			return msg.New("rep.bool.true").In(t.Lang)
		}
		return msg.New("rep.bool.false").In(t.Lang)
	}
	return cell.Neutralize(c)
}

// dateOf is the date a Date cell's serial stands for.
func dateOf(serial string, date1904 bool) (time.Time, bool) {
	f, err := strconv.ParseFloat(serial, 64)
	if err != nil {
		return time.Time{}, false
	}
	return cell.DateOf(f, date1904)
}

// dateText writes a date as an Argentine accountant reads it.
func dateText(d time.Time) string {
	if d.Hour() == 0 && d.Minute() == 0 && d.Second() == 0 {
		return d.Format("02/01/2006")
	}
	return d.Format("02/01/2006 15:04:05")
}

// recordWriter writes CSV records with CRLF line ends and every character
// of a cell as it is: encoding/csv's writer drops a lone CR inside a
// field when it writes CRLF line ends, and a report must give back what
// it was given.
type recordWriter struct {
	w     *bufio.Writer
	comma rune
	sep   byte // comma when it is one byte, else 0
	// quote marks the bytes that make a field quoted (the separator when
	// it is one byte, the quote, CR and LF).
	quote *[256]bool
}

// newRecordWriter returns a record writer with separator comma.
func newRecordWriter(w *bufio.Writer, comma rune) recordWriter {
	q := new([256]bool)
	q['"'], q['\r'], q['\n'] = true, true, true
	var sep byte
	if comma < utf8.RuneSelf {
		q[comma] = true
		sep = byte(comma)
	}
	return recordWriter{w: w, comma: comma, sep: sep, quote: q}
}

func (rw recordWriter) write(fields []string) error {
	// Into the writer's own free space, then one Write.
	_, err := rw.w.Write(rw.appendRecord(rw.w.AvailableBuffer(), fields))
	return err
}

// appendRecord appends fields as one CSV record, line end included.
func (rw recordWriter) appendRecord(buf []byte, fields []string) []byte {
	for i, f := range fields {
		if i > 0 {
			buf = rw.appendComma(buf)
		}
		buf = rw.appendField(buf, f)
	}
	return append(buf, '\r', '\n')
}

// appendComma appends the separator.
func (rw recordWriter) appendComma(buf []byte) []byte {
	if rw.sep != 0 {
		return append(buf, rw.sep)
	}
	return utf8.AppendRune(buf, rw.comma)
}

// appendField appends one field, quoted when it must be.
func (rw recordWriter) appendField(buf []byte, f string) []byte {
	if !rw.needsQuotes(f) {
		return append(buf, f...)
	}
	return rw.appendQuoted(buf, f)
}

// appendQuoted appends f quoted, its quotes doubled.
func (rw recordWriter) appendQuoted(buf []byte, f string) []byte {
	buf = append(buf, '"')
	for j := 0; j < len(f); j++ {
		if f[j] == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, f[j])
	}
	return append(buf, '"')
}

// needsQuotes reports whether field must be quoted: it holds the
// separator, a quote, a line break, or begins with a space (which a reader
// could trim).
func (rw recordWriter) needsQuotes(f string) bool {
	if f == "" {
		return false
	}
	if f[0] == ' ' || f[0] == '\t' {
		return true
	}
	if rw.sep != 0 {
		// Eight (or four) bytes at a time, the last word overlapping the
		// one before, while none of them can be one that makes the field
		// quoted: most fields have none, and a report has tens of
		// millions of them. A word that may have one is looked at byte by
		// byte.
		n, p := len(f), unsafe.StringData(f)
		switch {
		case n >= 8:
			for i := 0; i < n-8; i += 8 {
				if mayQuote(load64(p, i), rw.sep) {
					return rw.quotedByte(f)
				}
			}
			return mayQuote(load64(p, n-8), rw.sep) && rw.quotedByte(f)
		case n >= 4:
			// Each four-byte word twice over: its bytes, none added.
			lo, hi := uint64(load32(p, 0)), uint64(load32(p, n-4))
			return (mayQuote(lo|lo<<32, rw.sep) || mayQuote(hi|hi<<32, rw.sep)) && rw.quotedByte(f)
		}
		return rw.quotedByte(f)
	}
	return strings.ContainsRune(f, rw.comma) || strings.ContainsAny(f, "\"\r\n")
}

// quotedByte reports whether f holds a byte that makes a field quoted
// (the separator being one byte).
func (rw recordWriter) quotedByte(f string) bool {
	for i := 0; i < len(f); i++ {
		if rw.quote[f[i]] {
			return true
		}
	}
	return false
}

// load64 is the eight bytes at p+i, little-endian.
func load64(p *byte, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), i)), 8))
}

// load32 is the four bytes at p+i, little-endian.
func load32(p *byte, i int) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), i)), 4))
}

// SWAR constants: one in every byte, and every byte's high bit.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// mayQuote reports whether one of the eight bytes of x may make a field
// quoted: the separator comma, a quote, or a byte below 0x0E (CR and LF
// among them). It may say true of others (a byte after one of those), never
// false of one of them: the caller then looks at each byte.
func mayQuote(x uint64, comma byte) bool {
	return hasZero(x^(lowBits*uint64(comma)))|hasZero(x^(lowBits*'"'))|hasLess(x, 0x0E) != 0
}

// hasZero is non-zero when a byte of x is zero (the classic SWAR test: its
// lowest set high bit marks the first zero byte).
func hasZero(x uint64) uint64 { return (x - lowBits) &^ x & highBits }

// hasLess is non-zero when a byte of x is below n (n at most 128).
func hasLess(x uint64, n uint64) uint64 { return (x - lowBits*n) &^ x & highBits }
