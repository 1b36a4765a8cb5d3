package writers

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/internal/atomicfile"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
)

// sampleRows is how many rows are held back to size the columns: the stream
// writer needs the widths before the first row.
const sampleRows = 200

// Column widths in characters. A column whose cells are wider than its
// limit wraps them (the row grows), so no text is ever cut.
const (
	minColWidth     = 6
	maxColWidth     = 50
	maxMessageWidth = 60
	// amountWidth fits "-99.999.999,99": an amount in a row past the
	// sample, which sized the column, still shows instead of "###".
	amountWidth = 14
)

// Printing: a sheet is printed landscape with its header row repeated on
// every page, as many pages wide as keep it at a readable scale.
const (
	// pageChars is about how many characters of column width fit across
	// a landscape A4 or Letter page at 100%, margins taken off (measured
	// with LibreOffice; Excel's narrower default font fits a few more).
	pageChars = 90
	// minPrintScale is the smallest scale (in %) a printed report shrinks
	// to: below it a page is too small to read, and the sheet is printed
	// over more pages across instead.
	minPrintScale = 55
)

// toneFill is the row colour of each tone: green done, light green
// valid, red needs fixing, orange needs checking, grey not sent yet.
var toneFill = map[Tone]string{
	ToneDone:    "C6EFCE",
	ToneReady:   "E2F0D9",
	ToneFix:     "FFC7CE",
	ToneCheck:   "FFD8A8",
	ToneWaiting: "D9D9D9",
}

// WriteXLSX writes the XLSX report to path, atomically: one result sheet per
// table, named as the input sheet ("Resultado"/"Results" for CSV input),
// with the header bold and frozen, an autofilter, rows coloured by status,
// and a summary sheet ("Resumen"/"Summary") built from s in lang.
//
// Input cells keep their type (Row.Kinds): numbers as numbers, dates as
// dates shown dd/mm/yyyy, booleans as booleans, text as typed (identifiers
// keep their leading zeros), neutralised like the CSV reports; result.row
// and the ids the API returned are written as numbers. A table longer than a sheet
// (1,048,576 rows, header included) continues on "<name> (2)", with the
// header repeated.
func WriteXLSX(path string, tables []Table, s Summary, lang msg.Lang) error {
	return writeXLSX(path, tables, s, lang, excelize.TotalRows)
}

// writeXLSX is WriteXLSX with the sheet's row limit as a parameter, so that
// tests can cross it with a handful of rows.
func writeXLSX(path string, tables []Table, s Summary, lang msg.Lang, maxRows int) error {
	tmp, _ := atomicfile.TempDir() // "" (the system's) only if it cannot be made
	f := excelize.NewFile(excelize.Options{TmpDir: tmp})
	defer f.Close() // removes the stream writer's temporary files; nothing to report

	st, err := newStyles(f)
	if err != nil {
		return fmt.Errorf("write %s: styles: %w", path, err)
	}
	b := &book{f: f, st: st, maxRows: maxRows, used: map[string]bool{}}
	// Name every table's first sheet before any rows are written, so that an
	// input sheet keeps its name even when an earlier, longer table's
	// continuation sheets would have taken it.
	first := make([]string, len(tables))
	for i, t := range tables {
		if n := len(t.Header) + len(t.resultColumns()); n > excelize.MaxColumns {
			return fmt.Errorf("write %s: sheet %q: %d columns, more than a sheet holds (%d)", path, t.Sheet, n, excelize.MaxColumns)
		}
		base := t.Sheet
		if base == "" {
			base = msg.New("rep.sheet.result").In(lang)
		}
		first[i] = b.uniqueName(base)
	}
	for i, t := range tables {
		if err := b.writeTable(t, first[i]); err != nil {
			return fmt.Errorf("write %s: sheet %q: %w", path, t.Sheet, err)
		}
	}
	if err := b.writeSummary(s, lang); err != nil {
		return fmt.Errorf("write %s: summary sheet: %w", path, err)
	}
	f.SetActiveSheet(0)
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := f.WriteTo(w)
		return err
	})
}

// styles holds the workbook's style ids, created once.
type styles struct {
	f                    *excelize.File
	header, resultHeader int
	row                  map[Tone]int
	bold, money, seconds int
	// cells holds the data cells' style ids plus one, by cellStyle.index;
	// 0 for a style not made yet. An array: it is read for every cell.
	cells [cellStyles]int
}

// numFmt is how a data cell's number is shown.
type numFmt uint8

const (
	fmtGeneral  numFmt = iota
	fmtDate            // dd/mm/yyyy
	fmtDateTime        // dd/mm/yyyy hh:mm:ss
	fmtAmount          // #,##0.00: 1.234,50 in a Spanish spreadsheet
)

// numFmtCodes are the formats' codes; the separators are the file's
// (',' thousands, '.' decimals) and the spreadsheet shows the user's.
var numFmtCodes = map[numFmt]string{
	fmtDate:     "dd/mm/yyyy",
	fmtDateTime: "dd/mm/yyyy hh:mm:ss",
	fmtAmount:   "#,##0.00",
}

// cellStyle is what a data cell's style says: its row's fill, how its
// number is shown, and whether its text wraps.
type cellStyle struct {
	tone Tone
	fmt  numFmt
	wrap bool
}

// cellStyles is how many cellStyles there are.
const cellStyles = int(ToneWaiting+1) * 4 * 2

// index is c's place in styles.cells.
func (c cellStyle) index() int {
	i := (int(c.tone)*4 + int(c.fmt)) * 2
	if c.wrap {
		i++
	}
	return i
}

// cell returns the style id of c, creating it the first time.
func (st *styles) cell(c cellStyle) (int, error) {
	if id := st.cells[c.index()]; id > 0 {
		return id - 1, nil
	}
	s := &excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: c.wrap}}
	if fill := toneFill[c.tone]; fill != "" {
		s.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{fill}}
	}
	if code, ok := numFmtCodes[c.fmt]; ok {
		s.CustomNumFmt = &code
	}
	id, err := st.f.NewStyle(s)
	if err != nil {
		return 0, err
	}
	st.cells[c.index()] = id + 1
	return id, nil
}

func newStyles(f *excelize.File) (*styles, error) {
	border := []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
	st := &styles{f: f, row: map[Tone]int{}}
	var err error
	add := func(s *excelize.Style) int {
		if err != nil {
			return 0
		}
		var id int
		id, err = f.NewStyle(s)
		return id
	}
	st.header = add(&excelize.Style{
		Font:   &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"F2F2F2"}},
		Border: border,
	})
	// The appended result.* columns get their own shade so the user sees
	// where the input ends.
	st.resultHeader = add(&excelize.Style{
		Font:   &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDEBF7"}},
		Border: border,
	})
	for tone := ToneNone; tone <= ToneWaiting; tone++ {
		if c := toneFill[tone]; c != "" {
			st.row[tone] = add(&excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{c}}})
		}
	}
	st.bold = add(&excelize.Style{Font: &excelize.Font{Bold: true}})
	st.money = add(&excelize.Style{NumFmt: 4})   // #,##0.00
	st.seconds = add(&excelize.Style{NumFmt: 2}) // 0.00
	return st, err
}

// book is a workbook being written.
type book struct {
	f       *excelize.File
	st      *styles
	maxRows int
	used    map[string]bool // sheet names taken, lower-cased (Excel ignores case)
	sheets  int
}

// addSheet creates the sheet name, which uniqueName gave. The first sheet
// reuses the new workbook's "Sheet1".
func (b *book) addSheet(name string) error {
	var err error
	if b.sheets == 0 {
		err = b.f.SetSheetName("Sheet1", name)
	} else {
		_, err = b.f.NewSheet(name)
	}
	if err != nil {
		return err
	}
	b.sheets++
	return nil
}

// uniqueName returns base made a valid sheet name that no other sheet of the
// book has: "Ventas", then "Ventas (2)", "Ventas (3)"...
func (b *book) uniqueName(base string) string { return b.uniqueNameFrom(base, 1) }

// uniqueNameFrom is uniqueName trying the suffix " (n)" first (none for 1).
func (b *book) uniqueNameFrom(base string, n int) string {
	base = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '_'
		}
		return r
	}, base)
	base = strings.Trim(base, "' ")
	if base == "" {
		base = "Hoja"
	}
	for ; ; n++ {
		suffix := ""
		if n > 1 {
			suffix = " (" + strconv.Itoa(n) + ")"
		}
		name := truncateUTF16(base, excelize.MaxSheetNameLength-len(suffix)) + suffix
		if key := strings.ToLower(name); !b.used[key] {
			b.used[key] = true
			return name
		}
	}
}

// truncateUTF16 cuts s to at most n UTF-16 units, the unit of Excel's limits.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		units += utf16.RuneLen(r)
		if units > n {
			return strings.TrimRight(s[:i], "' ")
		}
	}
	return s
}

// tableWriter streams one table onto one or more sheets.
type tableWriter struct {
	b        *book
	name     string // the first sheet's name; continuation sheets add " (2)", " (3)"...
	header   []string
	results  []string // the result columns, the last ones of header
	date1904 bool     // the input workbook's date system
	lang     msg.Lang
	amounts  map[int]bool // input columns holding amounts
	widths   []float64
	wrap     []bool // per column: its widest cells wrap
	wrapCols []int  // the columns that wrap
	sw       *excelize.StreamWriter
	sheet    string
	sheets   int // sheets opened so far
	next     int // next spreadsheet row on the current sheet
	cells    []excelize.Cell
	vals     []any
}

func (b *book) writeTable(t Table, name string) error {
	tw := &tableWriter{b: b, name: name, results: t.resultColumns(), date1904: t.Date1904, lang: t.Lang, amounts: map[int]bool{}}
	for _, c := range t.Amounts {
		tw.amounts[c] = true
	}
	tw.header = make([]string, 0, len(t.Header)+len(tw.results))
	tw.header = append(tw.header, t.Header...)
	tw.header = append(tw.header, tw.results...)
	tw.cells = make([]excelize.Cell, len(tw.header))
	tw.vals = make([]any, len(tw.header))
	for i := range tw.cells {
		tw.vals[i] = &tw.cells[i]
	}

	var sample []Row
	if t.Rows != nil {
		for r := range t.Rows {
			if tw.sw == nil && len(sample) < sampleRows {
				// The iterator may reuse the slices.
				r.Cells = append([]string(nil), r.Cells...)
				r.Kinds = append([]cell.Kind(nil), r.Kinds...)
				r.Result = append([]string(nil), r.Result...)
				sample = append(sample, r)
				continue
			}
			if tw.sw == nil {
				if err := tw.start(sample); err != nil {
					return err
				}
			}
			if err := tw.write(r); err != nil {
				return err
			}
		}
	}
	if tw.sw == nil {
		if err := tw.start(sample); err != nil {
			return err
		}
	}
	return tw.finishSheet()
}

// start sizes the columns from the header and the sample rows, opens the
// first sheet and writes the sample.
func (tw *tableWriter) start(sample []Row) error {
	tw.widths, tw.wrap = tw.columnWidths(sample)
	for i, w := range tw.wrap {
		if w {
			tw.wrapCols = append(tw.wrapCols, i)
		}
	}
	if err := tw.openSheet(); err != nil {
		return err
	}
	for _, r := range sample {
		if err := tw.write(r); err != nil {
			return err
		}
	}
	return nil
}

func (tw *tableWriter) openSheet() error {
	name := tw.name
	if tw.sheets > 0 {
		name = tw.b.uniqueNameFrom(name, tw.sheets+1)
	}
	if err := tw.b.addSheet(name); err != nil {
		return err
	}
	tw.sheets++
	// Printed, a report fits the page's width in landscape: an accountant
	// reads the result columns beside the input's. Set before the stream
	// writer takes the sheet, which then keeps it.
	if err := tw.setPrinting(name); err != nil {
		return err
	}
	sw, err := tw.b.f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	// One call per run of equal widths, and none past sizedColumns (those
	// keep the default width): excelize keeps one entry per column set and
	// walks them on every call and for every cell written, so widths for a
	// 16,384-column header would make writing the sheet quadratic.
	widths := tw.widths[:min(len(tw.widths), sizedColumns)]
	for i := 0; i < len(widths); {
		j := i
		for j+1 < len(widths) && widths[j+1] == widths[i] {
			j++
		}
		if err := sw.SetColWidth(i+1, j+1, widths[i]); err != nil {
			return err
		}
		i = j + 1
	}
	if err := sw.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return err
	}
	inputCols := len(tw.header) - len(tw.results)
	for i, h := range tw.header {
		style := tw.b.st.header
		if i >= inputCols {
			style = tw.b.st.resultHeader
		}
		tw.cells[i] = excelize.Cell{StyleID: style, Value: cell.Neutralize(h)}
	}
	if err := sw.SetRow("A1", tw.vals); err != nil {
		return err
	}
	tw.sw, tw.sheet, tw.next = sw, name, 2
	return nil
}

// write adds one row, continuing on a new sheet when this one is full.
func (tw *tableWriter) write(r Row) error {
	if tw.next > tw.b.maxRows {
		if err := tw.finishSheet(); err != nil {
			return err
		}
		if err := tw.openSheet(); err != nil {
			return err
		}
	}
	inputCols := len(tw.header) - len(tw.results)
	for i := range inputCols {
		c, k := "", cell.Text
		if i < len(r.Cells) {
			c = r.Cells[i]
		}
		if i < len(r.Kinds) {
			k = r.Kinds[i]
		}
		var err error
		if tw.cells[i], err = tw.typedCell(i, c, k, r.Tone); err != nil {
			return err
		}
	}
	res := tw.cells[inputCols:]
	for j, name := range tw.results {
		v := ""
		if j < len(r.Result) {
			v = r.Result[j]
		}
		style, err := tw.b.st.cell(cellStyle{tone: r.Tone, wrap: tw.wrapped(inputCols + j)})
		if err != nil {
			return err
		}
		res[j] = excelize.Cell{StyleID: style, Value: textValue(v)}
		if numericResults[name] {
			res[j].Value = idValue(v)
		}
	}

	cell, err := excelize.CoordinatesToCellName(1, tw.next)
	if err != nil {
		return err
	}
	var opts []excelize.RowOpts
	if n := tw.lines(r); n > 1 {
		// Spreadsheets do not all grow a row to its wrapped text when they
		// open a file (LibreOffice keeps the default height): say it.
		opts = append(opts, excelize.RowOpts{Height: lineHeight * float64(n)})
	}
	if err := tw.sw.SetRow(cell, tw.vals, opts...); err != nil {
		return fmt.Errorf("source row %d: %w", r.SourceRow, err)
	}
	tw.next++
	return nil
}

// sizedColumns is how many columns get a width of their own; the rest keep
// the spreadsheet's default.
const sizedColumns = 256

// finishSheet adds the autofilter over the rows written and flushes.
func (tw *tableWriter) finishSheet() error {
	last := max(tw.next-1, 2) // a filter needs a row below the header
	ref, err := excelize.CoordinatesToCellName(len(tw.header), last)
	if err != nil {
		return err
	}
	// The filter's defined name quotes the sheet name without escaping an
	// apostrophe inside it; such a sheet goes without a filter rather than
	// make Excel call the file damaged.
	if !strings.Contains(tw.sheet, "'") {
		// Set on the same worksheet the stream writer holds, before Flush
		// writes it out after the rows.
		if err := tw.b.f.AutoFilter(tw.sheet, "A1:"+ref, nil); err != nil {
			return err
		}
	}
	return tw.sw.Flush()
}

// typedCell is input column col's cell as the report writes it: a stored
// number as a number (an amount shown #,##0.00), a date as a date shown
// dd/mm/yyyy, a boolean as a boolean, text as text (neutralised), each on
// the row's fill.
func (tw *tableWriter) typedCell(col int, c string, k cell.Kind, tone Tone) (excelize.Cell, error) {
	cs := cellStyle{tone: tone, wrap: tw.wrapped(col)}
	var v any
	switch k {
	case cell.Number:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			v, cs.wrap = f, false
			if tw.amounts[col] {
				cs.fmt = fmtAmount
			}
		}
	case cell.Date:
		if d, ok := dateOf(c, tw.date1904); ok {
			v, cs.fmt, cs.wrap = d, fmtDate, false
			if d.Hour() != 0 || d.Minute() != 0 || d.Second() != 0 {
				cs.fmt = fmtDateTime
			}
		}
	case cell.Bool:
		v, cs.wrap = c == "1", false
	}
	if v == nil {
		v = textValue(c)
	}
	style, err := tw.b.st.cell(cs)
	return excelize.Cell{StyleID: style, Value: v}, err
}

// lineHeight is the height in points of one line of the default font.
const lineHeight = 15

// maxRowLines caps a row's height (Excel's limit is 409 points).
const maxRowLines = 27

// lines is how many lines row r takes: the most any of its wrapping
// cells needs.
func (tw *tableWriter) lines(r Row) int {
	n := 1
	inputCols := len(tw.header) - len(tw.results)
	for _, i := range tw.wrapCols {
		var c string
		switch {
		case i < inputCols && i < len(r.Cells):
			if i < len(r.Kinds) && r.Kinds[i] != cell.Text {
				continue
			}
			c = r.Cells[i]
		case i >= inputCols && i-inputCols < len(r.Result):
			c = r.Result[i-inputCols]
		}
		n = max(n, wrappedLines(c, tw.widths[i]))
	}
	return min(n, maxRowLines)
}

// wrappedLines is how many lines text takes wrapped by words in a column
// width characters wide, its margins taken off. Spreadsheets whose default
// font is wider than Excel's fit fewer characters, but break between words
// less wastefully than this count does.
func wrappedLines(text string, width float64) int {
	room := int(width - 1)
	if room < 1 {
		room = 1
	}
	n := 0
	for para := range strings.SplitSeq(text, "\n") {
		n++
		used := 0
		for _, word := range strings.Fields(para) {
			w := utf8.RuneCountInString(word)
			switch {
			case used == 0:
				used = w
			case used+1+w <= room:
				used += 1 + w
			default:
				n++
				used = w
			}
			for used > room { // a word longer than the line breaks anywhere
				n++
				used -= room
			}
		}
	}
	return max(n, 1)
}

// wrapped reports whether column col wraps its text.
func (tw *tableWriter) wrapped(col int) bool { return col < len(tw.wrap) && tw.wrap[col] }

// textValue is a text cell's value: neutralised, or nil for an empty cell
// so that it carries only the row's fill.
func textValue(s string) any {
	if s == "" {
		return nil
	}
	return cell.Neutralize(s)
}

// idValue writes an id the API returned as a number when Excel can hold it
// exactly (no leading zero, at most 15 digits), else as text.
func idValue(s string) any {
	if s == "" {
		return nil
	}
	if len(s) <= 15 && (s == "0" || s[0] != '0') {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 && s[0] != '+' {
			return n
		}
	}
	return cell.Neutralize(s)
}

// columnWidths sizes each column to its widest cell as the spreadsheet
// shows it (a date as dd/mm/yyyy, an amount with its separators, a status
// as its word), among the header and the sample, within limits; a column
// whose cells are wider than its limit wraps them.
func (tw *tableWriter) columnWidths(sample []Row) ([]float64, []bool) {
	header := tw.header
	inputCols := len(header) - len(tw.results)
	w := make([]int, len(header))
	for i, h := range header {
		// The autofilter's button takes about two characters of the
		// header cell.
		w[i] = textWidth(h) + 2
		if i < inputCols && tw.amounts[i] {
			w[i] = max(w[i], amountWidth)
		}
	}
	for _, r := range sample {
		for i := 0; i < inputCols && i < len(r.Cells); i++ {
			k := cell.Text
			if i < len(r.Kinds) {
				k = r.Kinds[i]
			}
			w[i] = max(w[i], tw.shownWidth(r.Cells[i], k, tw.amounts[i]))
		}
		res := resultCells(nil, r, len(tw.results))
		for j, c := range res {
			w[inputCols+j] = max(w[inputCols+j], textWidth(c))
		}
	}
	out := make([]float64, len(w))
	wrap := make([]bool, len(w))
	for i, n := range w {
		limit := maxColWidth
		if i >= inputCols && header[i] == messageColumn {
			limit = maxMessageWidth
		}
		out[i] = float64(min(max(n+2, minColWidth), limit))
		wrap[i] = n+2 > limit
	}
	return out, wrap
}

// shownWidth is how many characters cell c of kind k takes as the
// spreadsheet shows it. Digits and separators are counted a little wider
// than they are: a spreadsheet whose default font is wider than Excel's
// (LibreOffice without Calibri's metrics) would otherwise show "###".
func (tw *tableWriter) shownWidth(c string, k cell.Kind, amount bool) int {
	digits := func(n int) int { return n + (n+3)/4 }
	switch k {
	case cell.Number:
		f, err := strconv.ParseFloat(c, 64)
		if err != nil {
			break
		}
		if amount {
			return digits(len(formatAmount(f)))
		}
		return digits(len(c))
	case cell.Date:
		if d, ok := dateOf(c, tw.date1904); ok {
			if d.Hour() != 0 || d.Minute() != 0 || d.Second() != 0 {
				return digits(len("00/00/0000 00:00:00"))
			}
			return digits(len("00/00/0000"))
		}
	case cell.Bool:
		return textWidth(msg.New("rep.bool.true").In(tw.lang)) + 1
	}
	return textWidth(c)
}

// formatAmount is f as #,##0.00 shows it, for its width.
func formatAmount(f float64) string {
	s := strconv.FormatFloat(math.Abs(f), 'f', 2, 64)
	intPart, frac := s[:len(s)-3], s[len(s)-3:]
	var b strings.Builder
	if f < 0 {
		b.WriteByte('-')
	}
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(d)
	}
	return b.String() + frac
}

// textWidth is the width of text in characters: its longest line.
func textWidth(s string) int {
	n := 0
	for line := range strings.SplitSeq(s, "\n") {
		n = max(n, utf8.RuneCountInString(line))
	}
	return n
}

// setPrinting sets how sheet name prints: landscape, its header row
// repeated at the top of every page and its first column (the order, the
// presale) at the left, and scaled to fit as many pages across as keep it
// at minPrintScale or more (one when it fits at 100%), its rows running on
// over as many pages down as they need; the pages of one band of rows come
// one after the other, so that a row's result follows its input. Set
// before the stream writer takes the sheet, which then keeps it.
func (tw *tableWriter) setPrinting(name string) error {
	total := 0.0
	for i := range tw.header {
		if i < len(tw.widths) && i < sizedColumns {
			total += tw.widths[i]
		} else {
			total += 9 // the spreadsheet's default width
		}
	}
	// At scale s a page holds pageChars*100/s characters across.
	wide := max(1, int(math.Ceil(total*minPrintScale/100/pageChars)))
	landscape, order, fit, tall := "landscape", "overThenDown", true, 0
	if err := tw.b.f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &wide, FitToHeight: &tall, PageOrder: &order}); err != nil {
		return err
	}
	if err := tw.b.f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	quoted := "'" + strings.ReplaceAll(name, "'", "''") + "'"
	return tw.b.f.SetDefinedName(&excelize.DefinedName{
		Name:     "_xlnm.Print_Titles",
		RefersTo: quoted + "!$A:$A," + quoted + "!$1:$1",
		Scope:    name,
	})
}
