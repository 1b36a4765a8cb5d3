package writers

import (
	"bufio"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

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
	if t.Rows != nil {
		if err := writeCSVRows(bw, cw, t, width, len(results)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// csvJob is a run of report rows to format: their cells and kinds (width
// each) and result cells (nres each), copied out of the rows' reused
// slices; out receives the formatted records.
type csvJob struct {
	cells []string
	kinds []cell.Kind
	res   []string
	buf   []byte // the formatted records, reused with the job
	out   chan []byte
}

// csvJobRows is how many rows one formatting job holds.
const csvJobRows = 1024

// writeCSVRows formats the rows on every core and writes them in order:
// typing and neutralising the cells of a million-row report costs as much
// as reading its input, and the rows come cheaply from the row store.
func writeCSVRows(bw *bufio.Writer, cw recordWriter, t Table, width, nres int) error {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *csvJob)
	order := make(chan *csvJob, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.buf = formatCSVJob(cw, t, j, width, nres, j.buf[:0])
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
		return &csvJob{cells: make([]string, 0, csvJobRows*width), kinds: make([]cell.Kind, 0, csvJobRows*width),
			res: make([]string, 0, csvJobRows*nres), out: make(chan []byte, 1)}
	}
	send := func(j *csvJob) {
		order <- j
		jobs <- j
	}
	j := newJob()
	for r := range t.Rows {
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
		if len(j.cells) == csvJobRows*width {
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
	close(jobs)
	close(order)
	wg.Wait()
	return <-written
}

// formatCSVJob formats a job's rows as CSV records.
func formatCSVJob(cw recordWriter, t Table, j *csvJob, width, nres int, out []byte) []byte {
	rows := len(j.res) / max(nres, 1)
	if nres == 0 {
		rows = len(j.cells) / max(width, 1)
	}
	rec := make([]string, 0, width+nres)
	for k := range rows {
		rec = rec[:0]
		for i := range width {
			rec = append(rec, csvCell(j.cells[k*width+i], j.kinds[k*width+i], &t))
		}
		for _, v := range j.res[k*nres : (k+1)*nres] {
			rec = append(rec, cell.Neutralize(v))
		}
		out = cw.appendRecord(out, rec)
	}
	return out
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
	// quote marks the bytes that make a field quoted (the separator when
	// it is one byte, the quote, CR and LF).
	quote *[256]bool
}

// newRecordWriter returns a record writer with separator comma.
func newRecordWriter(w *bufio.Writer, comma rune) recordWriter {
	q := new([256]bool)
	q['"'], q['\r'], q['\n'] = true, true, true
	if comma < utf8.RuneSelf {
		q[comma] = true
	}
	return recordWriter{w: w, comma: comma, quote: q}
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
			if rw.comma < utf8.RuneSelf {
				buf = append(buf, byte(rw.comma))
			} else {
				buf = utf8.AppendRune(buf, rw.comma)
			}
		}
		if !rw.needsQuotes(f) {
			buf = append(buf, f...)
			continue
		}
		buf = append(buf, '"')
		for j := 0; j < len(f); j++ {
			if f[j] == '"' {
				buf = append(buf, '"')
			}
			buf = append(buf, f[j])
		}
		buf = append(buf, '"')
	}
	return append(buf, '\r', '\n')
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
	if rw.comma < utf8.RuneSelf {
		for i := 0; i < len(f); i++ {
			if rw.quote[f[i]] {
				return true
			}
		}
		return false
	}
	return strings.ContainsRune(f, rw.comma) || strings.ContainsAny(f, "\"\r\n")
}
