package writers

import (
	"encoding/csv"
	"fmt"
	"io"
)

// utf8BOM makes Excel read the report as UTF-8 (without it, Excel in
// Spanish locale reads it as Windows-1252 and garbles every accent).
const utf8BOM = "\uFEFF"

// WriteCSV writes every row of t to path, input columns first, then the
// result columns: UTF-8 with BOM, CRLF line ends, every cell neutralised.
// The file is written atomically. An errors file is the same with only the
// rows that need attention: the input columns come first and unchanged
// but for neutralising, so the user fixes the cells and runs that file as
// it is (readers drop the result.* columns).
func WriteCSV(path string, t Table) error {
	return WriteFileAtomic(path, func(w io.Writer) error {
		return writeCSV(w, t)
	})
}

func writeCSV(w io.Writer, t Table) error {
	if _, err := io.WriteString(w, utf8BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = t.Comma
	if cw.Comma == 0 {
		cw.Comma = ';'
	}
	cw.UseCRLF = true

	width := len(t.Header)
	results := t.resultColumns()
	rec := make([]string, 0, width+len(results))
	for _, h := range t.Header {
		rec = append(rec, Neutralize(h))
	}
	rec = append(rec, results...)
	if err := cw.Write(rec); err != nil {
		return err
	}
	if t.Rows != nil {
		for r := range t.Rows {
			rec = rec[:0]
			for i := range width {
				cell := ""
				if i < len(r.Cells) {
					cell = r.Cells[i]
				}
				rec = append(rec, Neutralize(cell))
			}
			rec = resultCells(rec, r, len(results))
			for i := width; i < len(rec); i++ {
				rec[i] = Neutralize(rec[i])
			}
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("source row %d: %w", r.SourceRow, err)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
