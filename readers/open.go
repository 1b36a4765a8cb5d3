package readers

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/xuri/excelize/v2"
)

// defaultMaxCellBytes is the cap on one cell (and one CSV record) when
// Options.MaxCellBytes is 0.
const defaultMaxCellBytes = 1 << 20

// File is an opened input file: one CSV table, or a workbook of worksheets.
type File struct {
	path string
	opts Options
	csv  *csvFile       // set for .csv and .txt
	xl   *excelize.File // set for .xlsx
}

// Open opens path as CSV (.csv, .txt) or XLSX (.xlsx), chosen by extension
// (any case). Other formats are refused with an *Error telling what to save
// the file as. For CSV, Open detects the encoding and refuses binary files;
// for XLSX, it refuses files that are not workbooks and zip bombs.
func Open(path string, opts Options) (*File, error) {
	if opts.MaxCellBytes <= 0 {
		opts.MaxCellBytes = defaultMaxCellBytes
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
		x, err := openXLSX(path)
		if err != nil {
			return nil, err
		}
		f.xl = x
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

// Sheets returns the tables of the file: []string{""} for CSV, the worksheet
// names in workbook order for XLSX.
func (f *File) Sheets() []string {
	if f.xl == nil {
		return []string{""}
	}
	return f.xl.GetSheetList()
}

// Hidden reports whether the workbook hides sheet name (a template's lists,
// for example). CSV has no hidden sheets.
func (f *File) Hidden(name string) bool {
	if f.xl == nil {
		return false
	}
	visible, err := f.xl.GetSheetVisible(name)
	return err == nil && !visible
}

// Sheet starts reading one table and reads up to and including its header
// row (the first non-empty row). A table without a non-empty row is an
// *Error wrapping ErrNoHeader (ErrEmptyFile for a blank CSV file). Each call
// starts a fresh reader, so a table can be read more than once.
func (f *File) Sheet(name string) (*SheetReader, error) {
	var (
		src      rowSource
		info     = SheetInfo{File: f.path, Name: name}
		emptyErr = ErrNoHeader
		err      error
	)
	if f.xl != nil {
		src, err = f.xlsxSheet(name, &info)
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
	s := &SheetReader{info: info, src: src, max: f.opts.MaxCellBytes}
	if err := s.readHeader(emptyErr); err != nil {
		src.close()
		return nil, err
	}
	return s, nil
}

// Close releases the workbook and its temporary files. CSV files hold
// nothing open between Sheet readers.
func (f *File) Close() error {
	if f.xl != nil {
		if err := f.xl.Close(); err != nil {
			return fileError(f.path, "", err, msg.New("rd.io", err.Error()))
		}
	}
	return nil
}

// rowSource yields the raw rows of one table with their spreadsheet row
// numbers; failures come back as *Error and end the table.
type rowSource interface {
	next() (row int, cells []string, err error)
	// columnName tells the source the physical header, so its errors can
	// name the column they are about.
	columnName(names []string)
	close() error
}

// SheetReader reads the records of one table below its header.
type SheetReader struct {
	info   SheetInfo
	src    rowSource
	max    int
	width  int   // physical header width (trailing blank titles trimmed)
	keep   []int // physical columns kept in Cells; nil when all are kept
	cells  []string
	failed error // sticky: the table ends at its first file-level error
}

// Info describes the table: header, header row, and how it was decoded.
func (s *SheetReader) Info() SheetInfo { return s.info }

// Close releases the table's reader.
func (s *SheetReader) Close() error { return s.src.close() }

// Next returns the next non-empty row, with its Cells aligned to the header
// and Problem set when the row itself is malformed. It returns io.EOF after
// the last row, or an *Error when the file cannot be read further (a bad
// quote, an oversized record, a damaged sheet); the same error is returned
// again by later calls.
func (s *SheetReader) Next() (Record, error) {
	if s.failed != nil {
		return Record{}, s.failed
	}
	for {
		row, raw, err := s.src.next()
		if err != nil {
			s.failed = err
			return Record{}, err
		}
		if s.blankRecord(raw) {
			continue
		}
		return s.shape(row, raw), nil
	}
}

// readHeader consumes rows up to the first non-empty one and makes it the
// header.
func (s *SheetReader) readHeader(emptyErr error) error {
	structured := false // a row with several cells: not a blank file
	for {
		row, raw, err := s.src.next()
		if err == io.EOF {
			if !structured {
				return fileError(s.info.File, s.info.Name, emptyErr, emptyMessage(emptyErr))
			}
			return fileError(s.info.File, s.info.Name, ErrNoHeader, msg.New("rd.noheader"))
		}
		if err != nil {
			return err
		}
		if len(raw) > 1 {
			structured = true
		}
		if blankRow(raw) {
			continue
		}
		s.setHeader(row, raw)
		return nil
	}
}

func emptyMessage(err error) msg.Message {
	if err == ErrEmptyFile {
		return msg.New("rd.empty")
	}
	return msg.New("rd.noheader")
}

// setHeader cleans the header cells and plans which columns Records keep.
func (s *SheetReader) setHeader(row int, raw []string) {
	names := make([]string, len(raw))
	for i, c := range raw {
		names[i] = strings.TrimSpace(strings.TrimPrefix(c, "\uFEFF"))
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
			continue
		}
		header = append(header, n)
		keep = append(keep, i)
	}
	if len(keep) != len(names) {
		s.keep = keep
	}
	s.info.Header = header
	s.info.HeaderRow = row
}

// isResultColumn reports whether a header belongs to an earlier nxbatch
// report, whose result.* columns are ignored so that the report can be fed
// back as it is.
func isResultColumn(name string) bool {
	const prefix = "result."
	return len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix)
}

// shape aligns a raw row to the header and checks its cells.
func (s *SheetReader) shape(row int, raw []string) Record {
	rec := Record{Row: row}
	for i := len(raw) - 1; i >= s.width; i-- {
		if !blank(raw[i]) {
			// The cells past the header have no column in any report: the
			// message quotes them so that nothing typed is lost.
			var extra []string
			for _, c := range raw[s.width : i+1] {
				if !blank(c) {
					extra = append(extra, "«"+c+"»")
				}
			}
			rec.Problem = s.rowError(row, "", nil, msg.New("rd.ragged", i+1, s.width, strings.Join(extra, ", ")))
			break
		}
	}
	switch {
	case s.keep == nil && len(raw) >= s.width:
		rec.Cells = raw[:s.width]
	case s.keep == nil:
		s.cells = append(s.cells[:0], raw...)
		for len(s.cells) < s.width {
			s.cells = append(s.cells, "")
		}
		rec.Cells = s.cells
	default:
		s.cells = s.cells[:0]
		for _, k := range s.keep {
			c := ""
			if k < len(raw) {
				c = raw[k]
			}
			s.cells = append(s.cells, c)
		}
		rec.Cells = s.cells
	}
	if rec.Problem == nil {
		for i, c := range raw {
			if len(c) > s.max {
				col := ""
				if i < s.width {
					col = s.columnTitle(i)
				}
				rec.Problem = s.rowError(row, col, ErrCellTooLarge, msg.New("rd.celltoolarge", len(c), s.max))
				break
			}
		}
	}
	return rec
}

// columnTitle names physical column i for messages: its header, or its
// position when the header cell is blank.
func (s *SheetReader) columnTitle(i int) string {
	for j, k := range s.keepOrAll() {
		if k == i {
			if h := s.info.Header[j]; h != "" {
				return h
			}
			break
		}
	}
	return columnLetter(i)
}

func (s *SheetReader) keepOrAll() []int {
	if s.keep != nil {
		return s.keep
	}
	all := make([]int, s.width)
	for i := range all {
		all[i] = i
	}
	return all
}

func (s *SheetReader) rowError(row int, column string, cause error, m msg.Message) *Error {
	return &Error{Pos: Position{File: s.info.File, Sheet: s.info.Name, Row: row}, Column: column, Msg: m, Err: cause}
}

// blankRecord reports whether a row below the header is empty once the
// result.* columns of an earlier report, ignored on input, are left out.
func (s *SheetReader) blankRecord(raw []string) bool {
	if s.keep == nil {
		return blankRow(raw)
	}
	for _, k := range s.keep {
		if k < len(raw) && !blank(raw[k]) {
			return false
		}
	}
	return len(raw) <= s.width || blankRow(raw[s.width:])
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
	name, err := excelize.ColumnNumberToName(i + 1)
	if err != nil {
		return ""
	}
	return name
}

func fileError(file, sheet string, cause error, m msg.Message) *Error {
	return &Error{Pos: Position{File: file, Sheet: sheet}, Msg: m, Err: cause}
}

// openError turns an os.Open failure into the sentence the user needs.
func openError(path string, err error) *Error {
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

func ioError(path string, err error) *Error {
	return fileError(path, "", err, msg.New("rd.io", causeText(err)))
}

// causeText is the system's reason without the path, which the position
// already shows.
func causeText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
