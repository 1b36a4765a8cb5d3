package writers

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
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
	return WriteFileAtomic(path, func(w io.Writer) error {
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
	cw := recordWriter{w: bw, comma: comma}
	width := len(t.Header)
	results := t.resultColumns()
	rec := make([]string, 0, width+len(results))
	for _, h := range t.Header {
		rec = append(rec, Neutralize(h))
	}
	rec = append(rec, results...)
	if err := cw.write(rec); err != nil {
		return err
	}
	if t.Rows != nil {
		for r := range t.Rows {
			rec = rec[:0]
			for i := range width {
				c, k := "", cell.Text
				if i < len(r.Cells) {
					c = r.Cells[i]
				}
				if i < len(r.Kinds) {
					k = r.Kinds[i]
				}
				rec = append(rec, csvCell(c, k, t))
			}
			rec = resultCells(rec, r, len(results))
			for i := width; i < len(rec); i++ {
				rec[i] = Neutralize(rec[i])
			}
			if err := cw.write(rec); err != nil {
				return fmt.Errorf("source row %d: %w", r.SourceRow, err)
			}
		}
	}
	return bw.Flush()
}

// csvCell is a cell as the CSV report writes it: a stored number with a
// decimal comma, a date as dd/mm/yyyy (with the time when it has one), a
// boolean as the spreadsheet's own word, text as typed (neutralised).
func csvCell(c string, k cell.Kind, t Table) string {
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
	return Neutralize(c)
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
}

func (rw recordWriter) write(fields []string) error {
	for i, f := range fields {
		if i > 0 {
			rw.w.WriteRune(rw.comma)
		}
		if !rw.needsQuotes(f) {
			rw.w.WriteString(f)
			continue
		}
		rw.w.WriteByte('"')
		rw.w.WriteString(strings.ReplaceAll(f, `"`, `""`))
		rw.w.WriteByte('"')
	}
	_, err := rw.w.WriteString("\r\n")
	return err
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
		return strings.ContainsAny(f, string(rw.comma)+"\"\r\n")
	}
	return strings.ContainsRune(f, rw.comma) || strings.ContainsAny(f, "\"\r\n")
}
