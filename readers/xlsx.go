package readers

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// workbook is an opened XLSX file: its parts, its sheets in workbook order,
// and what every sheet shares (texts, which cell formats are dates, the
// date system). The file stays open until Close; each sheet is streamed
// from it on demand.
type workbook struct {
	path     string
	file     *os.File
	parts    map[string]*zip.File // by lower-cased part name (OPC names ignore case)
	sheets   []bookSheet
	date1904 bool
	sst      *sharedStrings
	dates    []bool // cell format index → shows a date
}

// bookSheet is one <sheet> of workbook.xml.
type bookSheet struct {
	name   string // as the workbook names it (possibly repeated)
	unique string // as Sheets returns it
	part   string // zip entry of its XML, "" when the workbook points nowhere
	hidden bool
}

// Relationship types are matched by their last segment, which transitional
// and strict OOXML share.
const (
	relOfficeDocument = "/officeDocument"
	relSharedStrings  = "/sharedStrings"
	relStyles         = "/styles"
)

// openXLSX opens a workbook and reads what all its sheets share, refusing
// what is not a workbook and what passes a limit.
func openXLSX(path string) (*workbook, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(path, err)
	}
	wb := &workbook{path: path, file: f}
	if err := wb.open(); err != nil {
		f.Close()
		return nil, err
	}
	return wb, nil
}

func (wb *workbook) open() error {
	path := wb.path
	st, err := wb.file.Stat()
	if err != nil {
		return ioError(path, err)
	}
	if st.IsDir() {
		return openError(path, syscall.EISDIR)
	}
	if st.Size() > limits.fileBytes {
		return fileTooLarge(path, st.Size())
	}
	magic := make([]byte, len(magicOLE))
	if n, _ := wb.file.ReadAt(magic, 0); bytes.Equal(magic[:n], magicOLE) {
		return fileError(path, "", ErrNotXLSX, msg.New("rd.xlsxprotected"))
	}
	// archive/zip loads the whole central directory: count its entries
	// first, so a directory of millions of entries is refused unread.
	entries, err := zipEntries(wb.file, st.Size())
	if err != nil {
		return notXLSX(path, err)
	}
	if entries > uint64(limits.zipFiles) {
		return fileError(path, "", ErrTooLarge, msg.New("rd.xlsxentries", count(entries), count(limits.zipFiles)))
	}
	zr, err := zip.NewReader(wb.file, st.Size())
	if err != nil {
		return notXLSX(path, err)
	}
	// archive/zip refuses an entry that expands past its declared size, so
	// the declared sum is a true bound.
	var total uint64
	wb.parts = make(map[string]*zip.File, len(zr.File))
	for _, e := range zr.File {
		total += e.UncompressedSize64
		if total > uint64(limits.unzipped) {
			return fileError(path, "", ErrTooLarge, msg.New("rd.xlsxtoolarge", megabytes(limits.unzipped)))
		}
		wb.parts[strings.ToLower(e.Name)] = e
	}

	book := "xl/workbook.xml"
	if rels, err := wb.rels("_rels/.rels", ""); err != nil {
		return err
	} else if r, ok := rels.byType(relOfficeDocument); ok {
		book = r.target
	}
	if wb.parts[strings.ToLower(book)] == nil {
		return notXLSX(path, newDamage("rd.why.nobook", "no workbook part %s", book))
	}
	rels, err := wb.rels(path2rels(book), path2dir(book))
	if err != nil {
		return err
	}
	if err := wb.readBook(book, rels); err != nil {
		return err
	}
	if len(wb.sheets) == 0 {
		// Excel cannot save a workbook without a sheet.
		return notXLSX(path, newDamage("rd.why.nosheets", "the workbook lists no sheet"))
	}
	if r, ok := rels.byType(relStyles); ok {
		if err := wb.readPart(r.target, func(rd io.Reader, _ *zip.File) error {
			var err error
			wb.dates, err = readDateStyles(rd)
			return err
		}); err != nil {
			return err
		}
	}
	if r, ok := rels.byType(relSharedStrings); ok {
		err := wb.readPart(r.target, func(rd io.Reader, e *zip.File) error {
			var err error
			wb.sst, err = readSharedStrings(rd, e.UncompressedSize64)
			return err
		})
		switch {
		case errors.Is(err, errSSTCount):
			return fileError(path, "", ErrTooLarge, msg.New("rd.sstcount", count(limits.sharedStrings)))
		case errors.Is(err, errSSTBytes):
			return fileError(path, "", ErrTooLarge, msg.New("rd.sstbytes", megabytes(int64(limits.sharedBytes))))
		case err != nil:
			return err
		}
	}
	return nil
}

// readBook reads workbook.xml: the sheets in order and the date system.
func (wb *workbook) readBook(part string, rels relMap) error {
	return wb.readPart(part, func(r io.Reader, _ *zip.File) error {
		sc := newXMLScanner(r, limits.maxTag)
		for {
			tok, err := sc.next()
			if err != nil {
				return err
			}
			if tok == tokEOF {
				break
			}
			if tok != tokStart {
				continue
			}
			switch string(sc.local) {
			case "workbookPr":
				if v, ok := sc.attr("date1904"); ok {
					wb.date1904 = string(v) == "1" || string(v) == "true"
				}
			case "sheet":
				if len(wb.sheets) >= limits.sheets {
					return errTooManySheets
				}
				var s bookSheet
				if raw, ok := sc.attr("name"); ok {
					v, err := sc.value(raw)
					if err != nil {
						return err
					}
					s.name = string(v)
				}
				if v, ok := sc.attr("state"); ok {
					s.hidden = string(v) == "hidden" || string(v) == "veryHidden"
				}
				if id, ok := sc.relID(); ok {
					// A chart sheet has no <sheetData>: it reads as empty.
					if rel, ok := rels[string(id)]; ok {
						s.part = rel.target
					}
				}
				wb.sheets = append(wb.sheets, s)
			}
		}
		return nil
	})
}

var errTooManySheets = errors.New("too many sheets")

// relation is one <Relationship> of a .rels part.
type relation struct {
	typ    string
	target string // resolved part name
}

type relMap map[string]relation // by Id

// byType returns the first relationship whose type ends in suffix.
func (m relMap) byType(suffix string) (relation, bool) {
	var best relation
	found := false
	for _, r := range m {
		// Map order is random: keep the smallest target for a stable pick.
		if strings.HasSuffix(r.typ, suffix) && (!found || r.target < best.target) {
			best, found = r, true
		}
	}
	return best, found
}

// rels reads a relationships part (absent: none), resolving targets
// against dir.
func (wb *workbook) rels(part, dir string) (relMap, error) {
	m := relMap{}
	if wb.parts[strings.ToLower(part)] == nil {
		return m, nil
	}
	err := wb.readPart(part, func(r io.Reader, _ *zip.File) error {
		sc := newXMLScanner(r, limits.maxTag)
		for {
			tok, err := sc.next()
			if err != nil {
				return err
			}
			if tok == tokEOF {
				return nil
			}
			if tok != tokStart || string(sc.local) != "Relationship" || len(m) >= limits.zipFiles {
				continue
			}
			if mode, ok := sc.attr("TargetMode"); ok && string(mode) == "External" {
				continue
			}
			id, _ := sc.attr("Id")
			typ, _ := sc.attr("Type")
			raw, _ := sc.attr("Target")
			target, err := sc.value(raw)
			if err != nil {
				return err
			}
			m[string(id)] = relation{typ: string(typ), target: wb.resolve(dir, string(target))}
		}
	})
	return m, err
}

// resolve turns a relationship target into a part name: relative to dir,
// or from the root when it starts with '/'; percent-escapes are undone when
// only the unescaped name exists.
func (wb *workbook) resolve(dir, target string) string {
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(target)[1:]
	} else {
		p = strings.TrimPrefix(path.Clean("/"+dir+"/"+target), "/")
	}
	if wb.parts[strings.ToLower(p)] == nil {
		if u, err := url.PathUnescape(p); err == nil && wb.parts[strings.ToLower(u)] != nil {
			return u
		}
	}
	return p
}

func path2dir(part string) string { return path.Dir(part) }

// path2rels is the relationships part of part: xl/workbook.xml →
// xl/_rels/workbook.xml.rels.
func path2rels(part string) string {
	return path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
}

// readPart streams one part to read; any failure is a damaged workbook
// naming the part, except the limit errors read returns, passed through.
func (wb *workbook) readPart(part string, read func(io.Reader, *zip.File) error) error {
	e := wb.parts[strings.ToLower(part)]
	if e == nil {
		return nil
	}
	rc, err := e.Open()
	if err != nil {
		return wb.partDamaged(part, err)
	}
	defer rc.Close()
	err = read(rc, e)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errSSTCount), errors.Is(err, errSSTBytes):
		return err
	case errors.Is(err, errTooManySheets):
		return fileError(wb.path, "", ErrTooLarge, msg.New("rd.xlsxsheets", count(limits.sheets)))
	}
	return wb.partDamaged(part, err)
}

func (wb *workbook) partDamaged(part string, err error) *msg.Error {
	return &msg.Error{Pos: msg.Position{File: wb.path}, Code: ErrNotXLSX, Msg: msg.New("rd.xlsxpart", part, why(err)), Err: err}
}

func notXLSX(path string, err error) *msg.Error {
	return &msg.Error{Pos: msg.Position{File: path}, Code: ErrNotXLSX, Msg: msg.New("rd.notxlsx"), Err: err}
}

func (wb *workbook) close() error { return wb.file.Close() }

// zipEntries reads the entry count from the zip's end of central directory
// record (zip64 when the 16-bit count overflows).
func zipEntries(f io.ReaderAt, size int64) (uint64, error) {
	const eocdLen, maxComment = 22, 1<<16 - 1
	tail := min(size, eocdLen+maxComment)
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return 0, err
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < eocdLen {
		return 0, zip.ErrFormat
	}
	n := uint64(binary.LittleEndian.Uint16(buf[i+10:]))
	if n != 0xFFFF {
		return n, nil
	}
	// zip64: a locator just before the record points at the zip64 record.
	loc := int64(i) + (size - tail) - 20
	var l [20]byte
	if loc < 0 {
		return 0, zip.ErrFormat
	}
	if _, err := f.ReadAt(l[:], loc); err != nil || !bytes.Equal(l[:4], []byte("PK\x06\x07")) {
		return 0, zip.ErrFormat
	}
	var rec [56]byte
	off := binary.LittleEndian.Uint64(l[8:])
	if off > uint64(size) {
		return 0, zip.ErrFormat
	}
	if _, err := f.ReadAt(rec[:], int64(off)); err != nil || !bytes.Equal(rec[:4], []byte("PK\x06\x06")) {
		return 0, zip.ErrFormat
	}
	return binary.LittleEndian.Uint64(rec[32:]), nil
}

// uniqueNames gives every sheet the name Sheets returns: its own, or, for a
// name the workbook already used (compared ignoring case, as Excel does,
// and as report file names need), the name followed by " (2)", " (3)"...,
// the first not taken. A sheet without a name is called by its position
// ("#3").
func uniqueNames(sheets []bookSheet) {
	taken := map[string]bool{}
	first := make([]bool, len(sheets))
	for i := range sheets {
		if sheets[i].name == "" {
			sheets[i].name = "#" + strconv.Itoa(i+1)
		}
		k := strings.ToLower(sheets[i].name)
		if !taken[k] {
			taken[k], first[i] = true, true
		}
	}
	for i := range sheets {
		s := &sheets[i]
		s.unique = s.name
		if first[i] {
			continue
		}
		for n := 2; ; n++ {
			c := fmt.Sprintf("%s (%d)", s.name, n)
			if !taken[strings.ToLower(c)] {
				s.unique, taken[strings.ToLower(c)] = c, true
				break
			}
		}
	}
}

// sheetRows starts streaming sheet i.
func (wb *workbook) sheetRows(i int, info *SheetInfo, maxCell int) (rowSource, error) {
	s := wb.sheets[i]
	info.RawNumbers = true
	info.Date1904 = wb.date1904
	x := &xlsxRows{wb: wb, path: wb.path, sheet: s.unique, maxCell: maxCell}
	e := wb.parts[strings.ToLower(s.part)]
	if e == nil {
		// A sheet the workbook lists without its part: damaged, not a
		// sheet without rows (Excel always writes the part, even empty).
		if s.part == "" {
			return nil, x.damaged(0, newDamage("rd.why.norel", "no relationship to the sheet's part"))
		}
		return nil, x.damaged(0, newDamage("rd.why.nopart", "no part %s", s.part))
	}
	rc, err := e.Open()
	if err != nil {
		return nil, x.damaged(0, err)
	}
	x.rc = rc
	x.sc = newXMLScanner(rc, limits.maxTag)
	return x, nil
}

// xlsxRows streams the rows of one worksheet's <sheetData>.
type xlsxRows struct {
	wb      *workbook
	path    string
	sheet   string
	rc      io.ReadCloser
	sc      *xmlScanner
	maxCell int

	inData  bool
	done    bool
	lastRow int   // number of the last row read
	rows    int   // <row> elements read
	text    int64 // cell text yielded so far, against limits.sheetBytes

	row    rawRow
	kinds  []cell.Kind // backs row.kinds, which is nil for a row without typed cells
	pend   []pendingCell
	rowBuf []byte // this row's texts that do not come from the shared strings
}

// pendingCell is a cell read from the XML, placed once the row ends.
type pendingCell struct {
	col        int
	kind       cell.Kind
	shared     string // the text, when it is a shared string
	start, end int    // the text in rowBuf otherwise
	inBuf      bool
}

// cellType is a cell's t attribute.
type cellType uint8

const (
	ctNumber      cellType = iota // "n" or absent
	ctShared                      // "s"
	ctBool                        // "b"
	ctError                       // "e"
	ctFormulaText                 // "str"
	ctInline                      // "inlineStr"
	ctDate                        // "d"
	ctOther
)

func parseCellType(b []byte) cellType {
	switch string(b) {
	case "", "n":
		return ctNumber
	case "s":
		return ctShared
	case "b":
		return ctBool
	case "e":
		return ctError
	case "str":
		return ctFormulaText
	case "inlineStr":
		return ctInline
	case "d":
		return ctDate
	}
	return ctOther
}

// maxQuoted is how many cells past the header a row's Problem quotes.
const maxQuoted = 3

func (x *xlsxRows) next(limit int) (*rawRow, error) {
	if x.done {
		return nil, io.EOF
	}
	for {
		tok, err := x.sc.next()
		if err != nil {
			return nil, x.damaged(x.nextRow(), err)
		}
		switch {
		case tok == tokEOF:
			x.done = true
			return nil, io.EOF
		case tok == tokEnd:
			if x.inData && string(x.sc.local) == "sheetData" {
				x.done = true
				return nil, io.EOF
			}
		case !x.inData:
			if string(x.sc.local) == "sheetData" {
				if x.sc.selfClosing {
					x.done = true
					return nil, io.EOF
				}
				x.inData = true
			}
		case string(x.sc.local) == "row":
			return x.readRow(limit)
		default:
			if err := x.sc.skip(); err != nil {
				return nil, x.damaged(x.nextRow(), err)
			}
		}
	}
}

// nextRow is the row a failure between rows is reported at: the one after
// the last read, or none before <sheetData>.
func (x *xlsxRows) nextRow() int {
	if !x.inData {
		return 0
	}
	return x.lastRow + 1
}

// readRow reads the <row> whose start tag was just read.
func (x *xlsxRows) readRow(limit int) (*rawRow, error) {
	sc := x.sc
	num := x.lastRow + 1
	if raw, ok := sc.attr("r"); ok {
		n, ok := parseDigits(raw)
		if !ok || n < 1 {
			return nil, x.damaged(num, newDamage("rd.why.rownumber", "row number %q", string(raw)))
		}
		if n > limits.rows {
			return nil, x.limitError(0, msg.New("rd.xlsxrownumber", count(n), count(limits.rows)))
		}
		num = n
	}
	x.rows++
	if x.rows > limits.rows {
		return nil, x.limitError(0, msg.New("rd.xlsxrows", count(limits.rows)))
	}
	x.lastRow = num
	r := &x.row
	*r = rawRow{num: num, cells: r.cells[:0], over: overflow{quoted: r.over.quoted[:0]}}
	x.pend = x.pend[:0]
	x.rowBuf = x.rowBuf[:0]
	rowText := 0 // bytes of the row's kept text, against maxCell
	if !sc.selfClosing {
		col, cells := -1, 0
		for {
			tok, err := sc.next()
			if err != nil {
				return nil, x.damaged(num, err)
			}
			if tok == tokEOF {
				return nil, x.damaged(num, errXMLTruncated)
			}
			if tok == tokEnd {
				if string(sc.local) == "row" {
					break
				}
				continue
			}
			if string(sc.local) != "c" {
				if err := sc.skip(); err != nil {
					return nil, x.damaged(num, err)
				}
				continue
			}
			if cells++; cells > limits.columns {
				return nil, x.limitError(num, msg.New("rd.xlsxrowcells", count(limits.columns)))
			}
			if ref, ok := sc.attr("r"); ok {
				c, ok := parseColumn(ref)
				if !ok {
					return nil, x.damaged(num, newDamage("rd.why.cellref", "cell reference %q", string(ref)))
				}
				col = c
			} else {
				col++
			}
			if col >= limits.columns {
				return nil, x.damaged(num, newDamage("rd.why.pastcolumn", "a cell past column %s", columnLetter(limits.columns-1)))
			}
			if err := x.readCell(col, limit, &rowText); err != nil {
				return nil, err
			}
		}
	}
	x.place()
	return r, nil
}

// readCell reads one <c> (start tag just read) in column col.
func (x *xlsxRows) readCell(col, limit int, rowText *int) error {
	sc, r := x.sc, &x.row
	var typ cellType
	if t, ok := sc.attr("t"); ok {
		typ = parseCellType(t)
	}
	dateStyle := false
	if s, ok := sc.attr("s"); ok {
		if i, ok := parseDigits(s); ok && i < len(x.wb.dates) {
			dateStyle = x.wb.dates[i]
		}
	}
	if sc.selfClosing {
		return nil // a blank cell, formatted
	}
	start := len(x.rowBuf)
	vStart, vEnd, vLen := -1, -1, 0 // <v> in rowBuf
	isStart, isEnd, isLen := -1, -1, 0
	for {
		tok, err := sc.next()
		if err != nil {
			return x.damaged(r.num, err)
		}
		if tok == tokEOF {
			return x.damaged(r.num, errXMLTruncated)
		}
		if tok == tokEnd {
			break // </c>
		}
		switch string(sc.local) {
		case "v":
			vStart = len(x.rowBuf)
			if x.rowBuf, vLen, err = sc.readText(x.rowBuf, x.maxCell); err != nil {
				return x.damaged(r.num, err)
			}
			vEnd = len(x.rowBuf)
		case "is":
			isStart = len(x.rowBuf)
			if isLen, err = x.readInline(); err != nil {
				return x.damaged(r.num, err)
			}
			isEnd = len(x.rowBuf)
		default: // <f> (its text is the formula, not the value), extensions
			if err := sc.skip(); err != nil {
				return x.damaged(r.num, err)
			}
		}
	}

	p := pendingCell{col: col, kind: cell.Text, inBuf: true}
	size := 0 // the text's full length
	switch {
	case typ == ctShared:
		if vStart < 0 || vEnd == vStart {
			p.kind, p.inBuf = cell.Empty, false
			break
		}
		i, ok := parseDigits(bytes.TrimSpace(x.rowBuf[vStart:vEnd]))
		if !ok || i >= x.wb.sst.len() {
			return x.damaged(r.num, newDamage("rd.why.nosharedstring", "shared string %q does not exist", string(x.rowBuf[vStart:vEnd])))
		}
		x.rowBuf = x.rowBuf[:start]
		p.shared, p.inBuf = x.wb.sst.at(i), false
		size = len(p.shared)
		if size > x.maxCell {
			p.shared = cutUTF8(p.shared, x.maxCell)
		}
	case typ == ctInline && isStart >= 0:
		p.start, p.end, size = isStart, isEnd, isLen
	default:
		if vStart < 0 {
			p.kind, p.inBuf = cell.Empty, false
			break
		}
		p.start, p.end, size = vStart, vEnd, vLen
		x.typeValue(&p, typ, dateStyle)
	}
	if p.inBuf {
		// Keep only the value: a cell with both <v> and <is> left both.
		n := copy(x.rowBuf[start:], x.rowBuf[p.start:p.end])
		x.rowBuf = x.rowBuf[:start+n]
		p.start, p.end = start, start+n
		if size > x.maxCell {
			// The text was cut at the cap, maybe inside a character.
			p.end = start + completeUTF8(x.rowBuf[start:p.end])
		}
	} else {
		x.rowBuf = x.rowBuf[:start]
	}
	if p.kind != cell.Empty && x.cellLen(&p) == 0 {
		p.kind = cell.Empty
	}

	if col >= limit {
		// Past the header: never kept, only quoted in the row's Problem.
		if s := x.cellText(&p); !blank(s) {
			r.over.count++
			r.over.last = max(r.over.last, col)
			if len(r.over.quoted) < maxQuoted {
				r.over.quoted = append(r.over.quoted, quoteCut(s))
			}
		}
		x.rowBuf = x.rowBuf[:start]
		return nil
	}
	if size > x.maxCell && r.big.size == 0 {
		r.big = bigCell{col: col, size: size}
	}
	n := x.cellLen(&p)
	if *rowText+n > x.maxCell {
		// The row's text passed the cap: the cell is dropped (the row
		// says so) rather than held.
		r.long = true
		x.rowBuf = x.rowBuf[:start]
		p = pendingCell{col: col, kind: cell.Empty}
		n = 0
	}
	*rowText += n
	x.text += int64(n)
	if x.text > limits.sheetBytes {
		return x.limitError(0, msg.New("rd.xlsxsheettext", megabytes(limits.sheetBytes)))
	}
	x.pend = append(x.pend, p)
	return nil
}

// readInline reads an inline string <is> (start tag just read) into rowBuf:
// its <t> and the <t> of its rich text runs, phonetic runs left out.
func (x *xlsxRows) readInline() (int, error) {
	sc := x.sc
	start, total := len(x.rowBuf), 0
	if sc.selfClosing {
		return 0, nil
	}
	for depth := 1; depth > 0; {
		tok, err := sc.next()
		if err != nil {
			return 0, err
		}
		switch {
		case tok == tokEOF:
			return 0, errXMLTruncated
		case tok == tokEnd:
			depth--
		case string(sc.local) == "t":
			room := max(x.maxCell-(len(x.rowBuf)-start), 0)
			var n int
			if x.rowBuf, n, err = sc.readText(x.rowBuf, room); err != nil {
				return 0, err
			}
			total += n
		case string(sc.local) == "r" && depth == 1:
			if !sc.selfClosing {
				depth++
			}
		default:
			if err := sc.skip(); err != nil {
				return 0, err
			}
		}
	}
	n := decodeOOXMLEscapes(x.rowBuf[start:])
	total -= len(x.rowBuf) - start - n
	x.rowBuf = x.rowBuf[:start+n]
	return total, nil
}

// typeValue decides the kind of a <v> value by the cell's type and format,
// rewriting it in rowBuf where the kind's contract says so.
func (x *xlsxRows) typeValue(p *pendingCell, typ cellType, dateStyle bool) {
	v := x.rowBuf[p.start:p.end]
	switch typ {
	case ctNumber:
		if validNumber(v) {
			p.kind = cell.Number
			if dateStyle {
				p.kind = cell.Date
			}
		}
	case ctBool:
		switch string(v) {
		case "1", "true", "TRUE":
			p.kind, v[0], p.end = cell.Bool, '1', p.start+1
		case "0", "false", "FALSE":
			p.kind, v[0], p.end = cell.Bool, '0', p.start+1
		}
	case ctDate:
		if serial, ok := isoSerial(string(v), x.wb.date1904); ok {
			x.rowBuf = strconv.AppendFloat(x.rowBuf[:p.start], serial, 'f', -1, 64)
			p.kind, p.end = cell.Date, len(x.rowBuf)
		}
	}
}

func (x *xlsxRows) cellLen(p *pendingCell) int {
	if p.inBuf {
		return p.end - p.start
	}
	return len(p.shared)
}

func (x *xlsxRows) cellText(p *pendingCell) string {
	if p.inBuf {
		return string(x.rowBuf[p.start:p.end])
	}
	return p.shared
}

// place lays the row's cells out by column: one string for all the texts
// read from the XML (one allocation a row), shared strings as they are.
func (x *xlsxRows) place() {
	r := &x.row
	width := 0
	for _, p := range x.pend {
		width = max(width, p.col+1)
	}
	var buf string
	if len(x.rowBuf) > 0 {
		buf = string(x.rowBuf)
	}
	typed := false
	x.kinds = x.kinds[:0]
	for range width {
		r.cells = append(r.cells, "")
		x.kinds = append(x.kinds, cell.Empty)
	}
	for _, p := range x.pend {
		s := p.shared
		if p.inBuf {
			s = buf[p.start:p.end]
		}
		r.cells[p.col], x.kinds[p.col] = s, p.kind
		typed = typed || p.kind.Typed()
	}
	r.kinds = nil
	if typed {
		r.kinds = x.kinds
	}
}

func (x *xlsxRows) damaged(row int, err error) *msg.Error {
	return &msg.Error{Pos: msg.Position{File: x.path, Sheet: x.sheet, Row: row}, Code: ErrNotXLSX, Msg: msg.New("rd.sheetdamaged", why(err)), Err: err}
}

func (x *xlsxRows) limitError(row int, m msg.Message) *msg.Error {
	return errAt(msg.Position{File: x.path, Sheet: x.sheet, Row: row}, ErrTooLarge, m)
}

func (x *xlsxRows) columnName([]string) {}

func (x *xlsxRows) close() error {
	if x.rc == nil {
		return nil
	}
	return x.rc.Close()
}

// parseDigits reads a non-negative decimal integer, refusing values past
// any limit here rather than overflowing.
func parseDigits(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseColumn returns the 0-based column of a cell reference ("B12" → 1);
// the row digits are not needed, the <row> says where the cell is.
func parseColumn(ref []byte) (int, bool) {
	col, i := 0, 0
	for ; i < len(ref) && i < 4; i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a') + 1
	}
	if i == 0 || (i < len(ref) && (ref[i] < '0' || ref[i] > '9')) {
		return 0, false
	}
	return col - 1, true
}

// validNumber reports whether v is a number as a spreadsheet stores it:
// sign, digits, an optional fraction and exponent.
func validNumber(v []byte) bool {
	i := 0
	if i < len(v) && (v[i] == '-' || v[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
		digits++
	}
	if i < len(v) && v[i] == '.' {
		for i++; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '-' || v[i] == '+') {
			i++
		}
		exp := 0
		for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(v)
}

// isoLayouts are the ISO 8601 forms of a t="d" cell.
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02",
	"15:04:05.999999999",
}

// isoSerial turns a t="d" cell's ISO 8601 text into a date serial.
func isoSerial(s string, date1904 bool) (float64, bool) {
	s = strings.TrimSpace(s)
	for _, l := range isoLayouts {
		t, err := time.Parse(l, s)
		if err != nil {
			continue
		}
		if l == "15:04:05.999999999" {
			// A time alone: a fraction of a day.
			return float64(t.Hour()*3600+t.Minute()*60+t.Second())/86400 + float64(t.Nanosecond())/86400e9, true
		}
		return cell.SerialOf(t, date1904)
	}
	return 0, false
}

// cutUTF8 returns the longest prefix of s of at most n bytes that does not
// split a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// completeUTF8 returns the length of b without a character cut at its end.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// quoteCut shortens a cell for quoting in a message.
func quoteCut(s string) string {
	const most = 60
	if len(s) <= most {
		return s
	}
	return cutUTF8(s, most) + "…"
}
