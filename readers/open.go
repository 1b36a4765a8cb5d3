package readers

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// File is an opened input file: one CSV table, or a workbook of worksheets.
type File struct {
	path string
	opts Options
	csv  *csvFile  // set for .csv and .txt
	book *workbook // set for .xlsx
}

// Open opens path as CSV (.csv, .txt) or XLSX (.xlsx), chosen by extension
// (any case). Other formats are refused with a *msg.Error telling what to save
// the file as. For CSV, Open detects the encoding and refuses binary files;
// for XLSX, it reads the workbook's sheet list, shared strings and cell
// formats, refusing files that are not workbooks and files past a limit.
func Open(path string, opts Options) (*File, error) {
	if opts.MaxCellBytes <= 0 {
		opts.MaxCellBytes = DefaultMaxCellBytes
	}
	f := &File{path: path, opts: opts}
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".csv", ".txt":
		c, err := openCSV(path, opts)
		if err != nil {
			return nil, err
		}
		f.csv = c
	case ".xlsx":
		wb, err := openXLSX(path)
		if err != nil {
			return nil, err
		}
		uniqueNames(wb.sheets)
		f.book = wb
	case ".xls":
		return nil, fileError(path, "", ErrUnsupportedFormat, msg.New("rd.xls"))
	case ".ods", ".xlsm", ".xlsb", ".numbers", ".xml":
		return nil, fileError(path, "", ErrUnsupportedFormat, msg.New("rd.saveas", ext))
	case "":
		return nil, fileError(path, "", ErrUnsupportedFormat, msg.New("rd.noext"))
	default:
		return nil, fileError(path, "", ErrUnsupportedFormat, msg.New("rd.unsupported", ext))
	}
	return f, nil
}

// Sheets returns the tables of the file: []string{""} for CSV; for XLSX
// every worksheet in workbook order, by a name unique within the file (a
// name the workbook repeats comes back as "Ventas (2)", "Ventas (3)"...,
// see uniqueNames). Sheet and Hidden take these names.
func (f *File) Sheets() []string {
	if f.book == nil {
		return []string{""}
	}
	names := make([]string, len(f.book.sheets))
	for i, s := range f.book.sheets {
		names[i] = s.unique
	}
	return names
}

// sheetIndex finds a sheet by the name Sheets gave it.
func (f *File) sheetIndex(name string) (int, bool) {
	for i, s := range f.book.sheets {
		if s.unique == name {
			return i, true
		}
	}
	return -1, false
}

// Hidden reports whether the workbook hides sheet name (a template's lists,
// for example). CSV has no hidden sheets.
func (f *File) Hidden(name string) bool {
	if f.book == nil {
		return false
	}
	i, ok := f.sheetIndex(name)
	return ok && f.book.sheets[i].hidden
}

// Sheet starts reading one table and reads up to and including its header
// row: Options.HeaderRow when given, else the first non-empty row that
// Options.IsHeader accepts among the first HeaderProbeRows non-empty rows,
// else the first non-empty row. A table without a non-empty row is an
// *msg.Error with code ErrNoHeader (ErrEmptyFile for a blank CSV file). Each call
// starts a fresh reader, so a table can be read more than once.
func (f *File) Sheet(name string) (*SheetReader, error) {
	var (
		src      rowSource
		info     = SheetInfo{File: f.path, Name: name}
		emptyErr = ErrNoHeader
		err      error
	)
	if f.book != nil {
		i, ok := f.sheetIndex(name)
		if !ok {
			return nil, fileError(f.path, "", ErrNoHeader, msg.New("rd.nosheet", name))
		}
		src, err = f.book.sheetRows(i, &info, f.opts.MaxCellBytes)
	} else {
		if name != "" {
			return nil, fileError(f.path, "", ErrNoHeader, msg.New("rd.nosheet", name))
		}
		src, err = f.csv.sheet(&info)
		emptyErr = ErrEmptyFile
	}
	if err != nil {
		return nil, err
	}
	s := &SheetReader{info: info, src: src, max: f.opts.MaxCellBytes, priorRow: -1, priorID: -1}
	if err := s.readHeader(f.opts, emptyErr); err != nil {
		src.close()
		return nil, err
	}
	return s, nil
}

// Close releases the file. CSV files hold nothing open between Sheet
// readers.
func (f *File) Close() error {
	if f.book != nil {
		if err := f.book.close(); err != nil {
			return fileError(f.path, "", err, msg.New("rd.io", causeText(err)))
		}
	}
	return nil
}

// rowSource yields the raw rows of one table with their spreadsheet row
// numbers; failures come back as *msg.Error and end the table.
type rowSource interface {
	// next returns the next row, with at most limit cells: the non-empty
	// cells past it are only counted and quoted (rawRow.over), so that a
	// cell in column XFD costs one cell, not 16,384. The row and its slices
	// are valid until the next call.
	next(limit int) (*rawRow, error)
	// columnName tells the source the physical header, so its errors can
	// name the column they are about.
	columnName(names []string)
	close() error
}

// rawRow is one row as a source yields it, before it is fitted to the
// header.
type rawRow struct {
	num   int
	cells []string
	kinds []cell.Kind // nil: every cell is text
	over  overflow    // non-empty cells at or past the limit
	big   bigCell     // the first cell cut at the cell cap (XLSX)
	long  bool        // the row's text passed the cap and cells were dropped (XLSX)
}

// overflow describes a row's non-empty cells past the header.
type overflow struct {
	count  int
	last   int      // 0-based column of the last one
	quoted []string // the first maxQuoted, shortened for a message
}

// bigCell is a cell longer than the cap; size 0 means none.
type bigCell struct{ col, size int }

// fitRow cuts a row to width cells, moving the non-empty ones past it into
// r.over ahead of those already there (they come first in the row).
func fitRow(r *rawRow, width int) {
	if len(r.cells) <= width {
		return
	}
	var quoted []string
	n, last := 0, -1
	for i := width; i < len(r.cells); i++ {
		if c := r.cells[i]; !blank(c) {
			n++
			last = i
			if len(quoted) < maxQuoted {
				quoted = append(quoted, quoteCut(c))
			}
		}
	}
	if n > 0 {
		if r.over.count == 0 {
			r.over.last = last
		}
		r.over.count += n
		r.over.quoted = append(quoted, r.over.quoted...)[:min(len(quoted)+len(r.over.quoted), maxQuoted)]
	}
	r.cells = r.cells[:width]
	if len(r.kinds) > width {
		r.kinds = r.kinds[:width]
		// Kinds is nil unless a kept cell is typed.
		if !slices.ContainsFunc(r.kinds, cell.Kind.Typed) {
			r.kinds = nil
		}
	}
}

// clone copies a row out of the source's reused buffers.
func (r *rawRow) clone() rawRow {
	c := *r
	c.cells = append([]string(nil), r.cells...)
	if r.kinds != nil {
		c.kinds = append([]cell.Kind(nil), r.kinds...)
	}
	c.over.quoted = append([]string(nil), r.over.quoted...)
	return c
}

// empty reports whether a row has nothing typed in it.
func (r *rawRow) empty() bool {
	return r.over.count == 0 && r.big.size == 0 && !r.long && blankRow(r.cells)
}

// SheetReader reads the records of one table below its header.
type SheetReader struct {
	info  SheetInfo
	src   rowSource
	max   int
	width int   // physical header width (trailing blank titles trimmed)
	keep  []int // physical columns kept in Cells; nil when all are kept
	// priorRow and priorID are the physical columns of result.row and
	// result.rowId, or -1.
	priorRow, priorID int
	queue             []rawRow // rows read while looking for the header, not yet returned
	cells             []string
	kinds             []cell.Kind
	failed            error // sticky: the table ends at its first file-level error
}

// Info describes the table: header, header row, and how it was decoded.
func (s *SheetReader) Info() SheetInfo { return s.info }

// Close releases the table's reader.
func (s *SheetReader) Close() error { return s.src.close() }

// Next returns the next non-empty row, with its Cells aligned to the header
// and Problem set when the row itself is malformed. It returns io.EOF after
// the last row, or a *msg.Error when the file cannot be read further (a bad
// quote, an oversized record, a damaged sheet, a limit passed); the same
// error is returned again by later calls.
func (s *SheetReader) Next() (Record, error) {
	if s.failed != nil {
		return Record{}, s.failed
	}
	for {
		var r *rawRow
		if len(s.queue) > 0 {
			r = &s.queue[0]
			s.queue = s.queue[1:]
			fitRow(r, s.width)
		} else {
			var err error
			if r, err = s.src.next(s.width); err != nil {
				s.failed = err
				return Record{}, err
			}
		}
		if s.blankRecord(r) {
			continue
		}
		return s.shape(r), nil
	}
}

// readHeader consumes rows up to the header row and makes it the header.
func (s *SheetReader) readHeader(o Options, emptyErr error) error {
	structured := false // a row with several cells: not a blank file
	forced := o.HeaderRow
	probe := forced <= 0 && o.IsHeader != nil
	var seen []rawRow // the non-empty rows so far, while probing
	titles := 0
	for {
		r, err := s.src.next(limits.columns)
		if err == io.EOF {
			switch {
			case forced > 0:
				return s.headerRowError(forced)
			case len(seen) > 0:
				return s.setHeader(&seen[0], seen[1:], 0)
			case !structured:
				return fileError(s.info.File, s.info.Name, emptyErr, emptyMessage(emptyErr))
			}
			return fileError(s.info.File, s.info.Name, ErrNoHeader, msg.New("rd.noheader"))
		}
		if err != nil {
			return err
		}
		if len(r.cells) > 1 {
			structured = true
		}
		empty := r.empty()
		switch {
		case forced > 0 && r.num < forced:
			if !empty {
				titles++
			}
			continue
		case forced > 0:
			if r.num > forced || empty {
				return s.headerRowError(forced)
			}
			return s.setHeader(r, nil, titles)
		case empty:
			continue
		case !probe:
			return s.setHeader(r, nil, 0)
		}
		row := r.clone()
		if o.IsHeader(headerNames(row.cells)) {
			return s.setHeader(&row, nil, len(seen))
		}
		seen = append(seen, row)
		if len(seen) == HeaderProbeRows {
			return s.setHeader(&seen[0], seen[1:], 0)
		}
	}
}

func emptyMessage(err error) msg.Message {
	if err == ErrEmptyFile {
		return msg.New("rd.empty")
	}
	return msg.New("rd.noheader")
}

func (s *SheetReader) headerRowError(n int) *msg.Error {
	return errAt(msg.Position{File: s.info.File, Sheet: s.info.Name, Row: n}, ErrNoHeader, msg.New("rd.headerrow", n))
}

// cleanHeader is a header cell as the header keeps it.
func cleanHeader(c string) string { return strings.TrimSpace(strings.TrimPrefix(c, "\uFEFF")) }

// headerNames is what Options.IsHeader is shown of a row: its cells as a
// header would keep them.
func headerNames(cells []string) []string {
	names := make([]string, 0, len(cells))
	for _, c := range cells {
		if n := cleanHeader(c); !isResultColumn(n) {
			names = append(names, n)
		}
	}
	for len(names) > 0 && names[len(names)-1] == "" {
		names = names[:len(names)-1]
	}
	return names
}

// setHeader makes r the header, queues rows read past it, and plans which
// columns Records keep.
func (s *SheetReader) setHeader(r *rawRow, queue []rawRow, titles int) error {
	if r.over.count > 0 {
		return errAt(msg.Position{File: s.info.File, Sheet: s.info.Name, Row: r.num}, ErrTooLarge, msg.New("rd.columns", count(limits.columns)))
	}
	names := make([]string, len(r.cells))
	for i, c := range r.cells {
		names[i] = cleanHeader(c)
	}
	// Spreadsheets often export a header padded with empty cells; they are
	// not columns, so data under them counts as extra cells.
	for len(names) > 0 && names[len(names)-1] == "" {
		names = names[:len(names)-1]
	}
	s.width = len(names)
	s.src.columnName(names)
	header := make([]string, 0, len(names))
	keep := make([]int, 0, len(names))
	for i, n := range names {
		if isResultColumn(n) {
			// An earlier report's columns: dropped, but for the two that
			// say which original row a fed-back row is.
			switch {
			case strings.EqualFold(n, "result.row") && s.priorRow < 0:
				s.priorRow = i
			case strings.EqualFold(n, "result.rowId") && s.priorID < 0:
				s.priorID = i
			}
			continue
		}
		header = append(header, n)
		keep = append(keep, i)
	}
	if len(header) > limits.headerColumns {
		// The header itself fits a sheet, but not with the result columns
		// every report adds after it.
		return errAt(msg.Position{File: s.info.File, Sheet: s.info.Name, Row: r.num}, ErrTooLarge,
			msg.New("rd.columns.report", count(len(header)), count(limits.headerColumns)))
	}
	if len(keep) != len(names) {
		s.keep = keep
	}
	s.queue = queue
	s.info.Header = header
	s.info.HeaderRow = r.num
	s.info.TitleRows = titles
	return nil
}

// isResultColumn reports whether a header belongs to an earlier nxbatch
// report, whose result.* columns are ignored so that the report can be fed
// back as it is.
func isResultColumn(name string) bool {
	const prefix = "result."
	return len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix)
}

// shape aligns a raw row to the header and states its problems.
func (s *SheetReader) shape(r *rawRow) Record {
	rec := Record{Row: r.num}
	// A source sets kinds only when some cell is typed.
	switch {
	case s.keep == nil && len(r.cells) == s.width:
		rec.Cells, rec.Kinds = r.cells, r.kinds
	case s.keep == nil:
		s.cells = append(s.cells[:0], r.cells...)
		for len(s.cells) < s.width {
			s.cells = append(s.cells, "")
		}
		rec.Cells = s.cells
		if r.kinds != nil {
			s.kinds = append(s.kinds[:0], r.kinds...)
			for len(s.kinds) < s.width {
				s.kinds = append(s.kinds, cell.Empty)
			}
			rec.Kinds = s.kinds
		}
	default:
		s.cells = s.cells[:0]
		for _, k := range s.keep {
			c := ""
			if k < len(r.cells) {
				c = r.cells[k]
			}
			s.cells = append(s.cells, c)
		}
		rec.Cells = s.cells
		if r.kinds != nil {
			typed := false
			s.kinds = s.kinds[:0]
			for _, k := range s.keep {
				kind := cell.Empty
				if k < len(r.kinds) {
					kind = r.kinds[k]
				}
				s.kinds = append(s.kinds, kind)
				typed = typed || kind.Typed()
			}
			if typed {
				rec.Kinds = s.kinds
			}
		}
	}
	rec.Prior = s.prior(r)
	switch {
	case r.over.count > 0:
		// The cells past the header have no column in any report: the
		// message quotes them (the first few) so that nothing typed is
		// silently lost.
		quoted := make([]string, len(r.over.quoted))
		for i, q := range r.over.quoted {
			quoted[i] = "«" + q + "»"
		}
		var list any = strings.Join(quoted, ", ")
		if more := r.over.count - len(quoted); more > 0 {
			list = msg.New("rd.ragged.more", list, more)
		}
		rec.Problem = s.rowError(r.num, "", nil, msg.New("rd.ragged", r.over.last+1, s.width, list))
	case r.big.size > 0:
		rec.Problem = s.rowError(r.num, s.columnTitle(r.big.col), ErrCellTooLarge, msg.New("rd.celltoolarge", r.big.size, s.max))
	case r.long:
		rec.Problem = s.rowError(r.num, "", ErrCellTooLarge, msg.New("rd.xlsxrowtoolarge", s.max))
	}
	return rec
}

// prior reads the result.row and result.rowId cells of a fed-back report.
func (s *SheetReader) prior(r *rawRow) Prior {
	var p Prior
	if i := s.priorRow; i >= 0 && i < len(r.cells) {
		t := strings.TrimSpace(r.cells[i])
		if n, err := strconv.Atoi(t); err == nil && n > 0 {
			p.Row = n
		} else if f, err := strconv.ParseFloat(t, 64); err == nil && f >= 1 && f <= MaxRows && f == float64(int(f)) {
			p.Row = int(f) // a number cell stored as "12.0" by some writers
		}
	}
	if i := s.priorID; i >= 0 && i < len(r.cells) {
		// A copy: the caller keeps it past the row, and a cell of a CSV
		// row is a slice of a text block shared by many rows.
		p.RowID = strings.Clone(strings.TrimSpace(r.cells[i]))
	}
	return p
}

// columnTitle names physical column i for messages: its header, or its
// letter when the header cell is blank or dropped.
func (s *SheetReader) columnTitle(i int) string {
	j := i
	if s.keep != nil {
		j = -1
		for n, k := range s.keep {
			if k == i {
				j = n
				break
			}
		}
	}
	if j >= 0 && j < len(s.info.Header) && s.info.Header[j] != "" {
		return s.info.Header[j]
	}
	return columnLetter(i)
}

func (s *SheetReader) rowError(row int, column string, err error, m msg.Message) *msg.Error {
	return errAt(msg.Position{File: s.info.File, Sheet: s.info.Name, Row: row, Column: column}, err, m)
}

// blankRecord reports whether a row below the header is empty once the
// result.* columns of an earlier report, ignored on input, are left out.
func (s *SheetReader) blankRecord(r *rawRow) bool {
	if s.keep == nil || r.over.count > 0 || r.big.size > 0 || r.long {
		return r.empty()
	}
	for _, k := range s.keep {
		if k < len(r.cells) && !blank(r.cells[k]) {
			return false
		}
	}
	return true
}

// blankRow reports whether every cell is empty or blanks only.
func blankRow(cells []string) bool {
	for _, c := range cells {
		if !blank(c) {
			return false
		}
	}
	return true
}

func blank(c string) bool {
	return len(c) == 0 || strings.TrimSpace(c) == ""
}

// columnLetter is the spreadsheet name of the 0-based column i ("A", "AB").
func columnLetter(i int) string {
	if i < 0 {
		return ""
	}
	var b [8]byte
	n := len(b)
	for i++; i > 0; i = (i - 1) / 26 {
		n--
		b[n] = byte('A' + (i-1)%26)
	}
	return string(b[n:])
}

func fileError(file, sheet string, err error, m msg.Message) *msg.Error {
	return errAt(msg.Position{File: file, Sheet: sheet}, err, m)
}

// fileTooLarge refuses a file past limits.fileBytes.
func fileTooLarge(path string, size int64) *msg.Error {
	return fileError(path, "", ErrTooLarge, msg.New("rd.filetoolarge", megabytes(size), megabytes(limits.fileBytes)))
}

// openError turns an os.Open failure into the sentence the user needs.
func openError(path string, err error) *msg.Error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileError(path, "", err, msg.New("rd.notfound"))
	case errors.Is(err, fs.ErrPermission):
		return fileError(path, "", err, msg.New("rd.denied"))
	case errors.Is(err, syscall.EISDIR):
		return fileError(path, "", err, msg.New("rd.isdir"))
	}
	return ioError(path, err)
}

func ioError(path string, err error) *msg.Error {
	return fileError(path, "", err, msg.New("rd.io", causeText(err)))
}

// causeText is the system's reason without the path, which the position
// already shows, as a message argument in the sentence's language: a known
// failure in the user's words ("no existe", "no hay espacio"), anything
// else quoted as the technical detail it is.
func causeText(err error) msg.Localizer {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return msg.CauseOf(err)
}
