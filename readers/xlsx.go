package readers

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/xuri/excelize/v2"
)

// Zip-bomb limits. excelize's default lets a workbook expand to 16 GB; a real
// import workbook is far below these. Sheets larger than xmlLimit are
// streamed from a temporary file instead of memory. Variables so tests can
// lower them.
var (
	unzipLimit int64 = 1 << 30
	xmlLimit   int64 = 256 << 20
)

// rawValues asks excelize for stored values, not display strings: numbers
// with '.' as decimal separator, dates as serial numbers, long ids intact.
var rawValues = excelize.Options{RawCellValue: true}

// openXLSX opens a workbook, refusing what is not one and what would expand
// past unzipLimit. The zip directory is checked first so that each refusal
// gets its own sentence (excelize reports them as bare errors).
func openXLSX(path string) (*excelize.File, error) {
	if err := checkZip(path); err != nil {
		return nil, err
	}
	x, err := excelize.OpenFile(path, excelize.Options{UnzipSizeLimit: unzipLimit, UnzipXMLSizeLimit: xmlLimit})
	if err != nil {
		if x != nil {
			x.Close()
		}
		return nil, fileError(path, "", errors.Join(ErrNotXLSX, err), msg.New("rd.notxlsx"))
	}
	return x, nil
}

// checkZip reads the zip directory: not a zip, an encrypted (OLE) workbook,
// or a declared uncompressed size over unzipLimit are refused. archive/zip
// refuses entries that expand past their declared size, so the declared sum
// is a true bound.
func checkZip(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return openError(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return ioError(path, err)
	}
	if st.IsDir() {
		return openError(path, syscall.EISDIR)
	}
	magic := make([]byte, len(magicOLE))
	if n, _ := io.ReadFull(f, magic); bytes.Equal(magic[:n], magicOLE) {
		return fileError(path, "", ErrNotXLSX, msg.New("rd.xlsxprotected"))
	}
	zr, err := zip.NewReader(f, st.Size())
	if err != nil {
		return fileError(path, "", errors.Join(ErrNotXLSX, err), msg.New("rd.notxlsx"))
	}
	var total uint64
	for _, e := range zr.File {
		total += e.UncompressedSize64
		if total > uint64(unzipLimit) {
			return fileError(path, "", ErrTooLarge, msg.New("rd.xlsxtoolarge", unzipLimit>>20))
		}
	}
	return nil
}

// xlsxSheet starts streaming one worksheet.
func (f *File) xlsxSheet(name string, info *SheetInfo) (rowSource, error) {
	rows, err := f.xl.Rows(name)
	if err != nil {
		var missing excelize.ErrSheetNotExist
		if errors.As(err, &missing) {
			return nil, fileError(f.path, "", err, msg.New("rd.nosheet", name))
		}
		return nil, fileError(f.path, name, err, msg.New("rd.sheetdamaged", err.Error()))
	}
	info.RawNumbers = true
	if props, err := f.xl.GetWorkbookProps(); err == nil && props.Date1904 != nil {
		info.Date1904 = *props.Date1904
	}
	return &xlsxRows{path: f.path, sheet: name, rows: rows}, nil
}

// xlsxRows streams the rows of one worksheet.
type xlsxRows struct {
	path  string
	sheet string
	rows  *excelize.Rows
	row   int // spreadsheet row of the last row read
}

// next returns the next row. excelize's Next stops at every row number,
// including rows absent from the XML (returned with no cells), so counting
// calls gives the real row number.
func (x *xlsxRows) next() (int, []string, error) {
	if !x.rows.Next() {
		if err := x.rows.Error(); err != nil {
			return 0, nil, x.damaged(x.row+1, err)
		}
		return 0, nil, io.EOF
	}
	x.row++
	cells, err := x.rows.Columns(rawValues)
	if err != nil {
		return 0, nil, x.damaged(x.row, err)
	}
	return x.row, cells, nil
}

func (x *xlsxRows) damaged(row int, err error) *Error {
	return &Error{Pos: Position{File: x.path, Sheet: x.sheet, Row: row}, Msg: msg.New("rd.sheetdamaged", err.Error()), Err: errors.Join(ErrNotXLSX, err)}
}

func (x *xlsxRows) columnName([]string) {}

func (x *xlsxRows) close() error { return x.rows.Close() }
