package readers

import (
	"strconv"

	"github.com/nxbatch/nxbatch/msg"
)

// The stated limits of an input file. Each ends in a sentence that names the
// file (and the sheet or row) and says what to do, never in an
// out-of-memory: a file or sheet past one is refused, a row past one is
// returned with its Problem. They are far above what an accountant's
// workbook holds; they exist so that a crafted file costs bounded memory and
// time.
const (
	// MaxFileBytes is the largest input file, CSV or XLSX, as stored on disk
	// (256 MiB). A 1,000,000-line venta CSV is about 70 MB.
	MaxFileBytes = 256 << 20
	// MaxUnzippedBytes is the most an XLSX workbook may declare once
	// uncompressed, all its parts together (1 GiB). Sheet XML is streamed,
	// so this bounds time, not memory.
	MaxUnzippedBytes = 1 << 30
	// MaxRows is the most rows a worksheet or a CSV file may have, and the
	// highest row number: Excel's own limit (1,048,576).
	MaxRows = 1 << 20
	// MaxColumns is the widest header, and the most cells one XLSX row may
	// hold: Excel's own limit, column XFD (16,384).
	MaxColumns = 1 << 14
	// ReportColumns is the room a header leaves for the result columns
	// nxbatch's reports add after it: a header may have at most
	// MaxColumns-ReportColumns columns, so that its report fits a sheet.
	ReportColumns = 16
	// DefaultMaxCellBytes caps one cell, one CSV record and the text of one
	// XLSX row when Options.MaxCellBytes is 0 (1 MiB; Excel itself stops at
	// 32,767 characters a cell).
	DefaultMaxCellBytes = 1 << 20
	// MaxSharedStrings is the most distinct texts (shared strings) a
	// workbook may hold (4,194,304).
	MaxSharedStrings = 1 << 22
	// MaxSharedStringBytes is the most bytes of text those shared strings
	// may add up to (128 MiB). They are the one part of a workbook held in
	// memory while it is read.
	MaxSharedStringBytes = 128 << 20
	// MaxSheetBytes is the most text the cells of one worksheet may add up
	// to (256 MiB, as much as the largest CSV file): a shared string is
	// stored once but counts every time a cell uses it, so that a few
	// kilobytes of references cannot become gigabytes of rows.
	MaxSheetBytes = 256 << 20
	// MaxSheets is the most worksheets a workbook may list (1,000).
	MaxSheets = 1000
	// MaxZipEntries is the most parts (files inside the zip) a workbook may
	// have (10,000), checked before the zip directory is loaded.
	MaxZipEntries = 10000
	// HeaderProbeRows is how many non-empty rows Options.IsHeader is asked
	// about before the first non-empty row is taken as the header.
	HeaderProbeRows = 50
)

// limits are the limits in force; tests lower them to build small bombs.
type limitSet struct {
	fileBytes, unzipped, sheetBytes int64
	rows, columns                   int
	headerColumns                   int // the widest header, leaving room for the result columns
	sharedStrings, sharedBytes      int
	sheets, zipFiles                int
	maxTag                          int // longest XML tag the scanner holds
}

var limits = limitSet{
	fileBytes:     MaxFileBytes,
	unzipped:      MaxUnzippedBytes,
	rows:          MaxRows,
	columns:       MaxColumns,
	headerColumns: MaxColumns - ReportColumns,
	sharedStrings: MaxSharedStrings,
	sharedBytes:   MaxSharedStringBytes,
	sheetBytes:    MaxSheetBytes,
	sheets:        MaxSheets,
	zipFiles:      MaxZipEntries,
	maxTag:        1 << 20,
}

// count renders an integer with the thousands separator of the message's
// language: 1.048.576 in Spanish, 1,048,576 in English.
type count int64

// In renders the count in language l.
func (c count) In(l msg.Lang) string {
	s := strconv.FormatInt(int64(c), 10)
	neg := ""
	if c < 0 {
		neg, s = "-", s[1:]
	}
	sep := "."
	if l == msg.EN {
		sep = ","
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, sep...)
		}
		out = append(out, s[i])
	}
	return neg + string(out)
}

// megabytes renders a byte count as whole MB for messages.
func megabytes(n int64) int64 { return (n + 1<<20 - 1) >> 20 }
