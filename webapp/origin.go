package webapp

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/writers"
)

// An errors file the page hands out carries the id of the import it came
// from, in a column of its own on every row: result.importacion. A column
// survives what an accountant does to the file (edit and save it in Excel
// or LibreOffice, as XLSX or as CSV with either separator, rename it),
// where a document property or a hidden sheet would not survive a CSV;
// and the readers drop every result.* column of a report fed back, so it
// never reaches the API. Uploaded again, the file is linked to its
// original by that id; the name ("ventas.errores (1).xlsx") is only the
// fallback for a file without it.

// originColumn is the column that carries the import's id.
const originColumn = "result.importacion"

// withOrigin returns t with the origin column after its result columns,
// holding id on every row.
func withOrigin(t writers.Table, id string) writers.Table {
	res := t.Result
	if res == nil {
		res = writers.ResultColumns
	}
	n := len(res)
	t.Result = append(res[:n:n], originColumn)
	rows := t.Rows
	t.Rows = func(yield func(writers.Row) bool) {
		var cells []string
		for r := range rows {
			cells = append(cells[:0], r.Result...)
			for len(cells) < n {
				cells = append(cells, "")
			}
			r.Result = append(cells[:n], id)
			if !yield(r) {
				return
			}
		}
	}
	return t
}

// originScan is how many rows of a file are looked at for the origin
// column's header and its first value.
const originScan = 64

// originOf reads the import id an errors file carries ("" when none): the
// first value under a result.importacion header, in any sheet of a
// workbook or in a CSV of any separator.
func originOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".xlsm":
		return originXLSX(path)
	case ".csv", ".txt":
		return originCSV(path)
	}
	return ""
}

// originXLSX finds the origin column in a workbook's sheets.
func originXLSX(path string) string {
	f, err := excelize.OpenFile(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, sh := range f.GetSheetList() {
		rows, err := f.Rows(sh)
		if err != nil {
			continue
		}
		col := -1
		for i := 0; i < originScan && rows.Next(); i++ {
			cells, err := rows.Columns()
			if err != nil {
				break
			}
			if id := originIn(cells, &col); id != "" {
				rows.Close()
				return id
			}
		}
		rows.Close()
	}
	return ""
}

// originCSV finds the origin column in a CSV, whatever its separator.
func originCSV(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	head, _ := io.ReadAll(io.LimitReader(fh, 1<<20))
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	i := bytes.Index(bytes.ToLower(head), []byte(originColumn))
	if i < 0 {
		return ""
	}
	line := head[bytes.LastIndexByte(head[:i], '\n')+1:]
	end := bytes.IndexByte(line, '\n')
	if end < 0 {
		end = len(line)
	}
	comma, most := ',', 0
	for _, c := range []rune{',', ';', '\t'} {
		if n := bytes.Count(line[:end], []byte(string(c))); n > most {
			comma, most = c, n
		}
	}
	r := csv.NewReader(bufio.NewReader(bytes.NewReader(line)))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = comma, true, -1
	col := -1
	for range originScan {
		rec, err := r.Read()
		if err != nil {
			return ""
		}
		if id := originIn(rec, &col); id != "" {
			return id
		}
	}
	return ""
}

// originIn looks at one row: the header row sets *col, a later row with a
// valid id under it gives it.
func originIn(cells []string, col *int) string {
	if *col < 0 {
		for i, c := range cells {
			if strings.EqualFold(strings.TrimSpace(c), originColumn) {
				*col = i
			}
		}
		return ""
	}
	if *col < len(cells) {
		if id := strings.TrimSpace(cells[*col]); validID(id) {
			return id
		}
	}
	return ""
}

// serveWithOrigin sends the errors CSV at path as name, with the origin
// column (id) added to each record, in the file's own separator.
func serveWithOrigin(w http.ResponseWriter, r *http.Request, path, name, id string) {
	data, err := os.ReadFile(path)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	comma := csvComma(path)
	bom := bytes.HasPrefix(data, []byte("\ufeff"))
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	in := csv.NewReader(bytes.NewReader(data))
	in.Comma, in.LazyQuotes, in.FieldsPerRecord = comma, true, -1
	var out bytes.Buffer
	if bom {
		out.WriteString("\ufeff")
	}
	cw := csv.NewWriter(&out)
	cw.Comma, cw.UseCRLF = comma, bytes.Contains(data, []byte("\r\n"))
	first := true
	for {
		rec, err := in.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// Not a CSV this can read: sent as it is.
			serveDownload(w, r, path, name)
			return
		}
		v := id
		if first {
			v, first = originColumn, false
		}
		_ = cw.Write(append(rec, v))
	}
	cw.Flush()
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Type", contentType(name))
	_, _ = w.Write(out.Bytes())
}

// csvComma is the separator of the CSV at path: the one its first line
// holds most of (';' when none).
func csvComma(path string) rune {
	fh, err := os.Open(path)
	if err != nil {
		return ';'
	}
	defer fh.Close()
	line, _ := bufio.NewReader(io.LimitReader(fh, 1<<20)).ReadString('\n')
	comma, most := ';', 0
	for _, c := range []rune{';', ',', '\t'} {
		if n := strings.Count(line, string(c)); n > most {
			comma, most = c, n
		}
	}
	return comma
}
