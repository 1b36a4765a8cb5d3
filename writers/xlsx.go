package writers

import (
	"fmt"
	"io"
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

// Column widths in characters.
const (
	minColWidth     = 6
	maxColWidth     = 50
	maxMessageWidth = 90
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
	header, resultHeader int
	row                  map[Tone]int
	date, dateTime       map[Tone]int // dd/mm/yyyy (and hh:mm:ss) on each fill
	bold, money, seconds int
}

func newStyles(f *excelize.File) (*styles, error) {
	border := []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
	st := &styles{row: map[Tone]int{}, date: map[Tone]int{}, dateTime: map[Tone]int{}}
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
	dateFmt, dateTimeFmt := "dd/mm/yyyy", "dd/mm/yyyy hh:mm:ss"
	for tone := ToneNone; tone <= ToneWaiting; tone++ {
		var fill excelize.Fill
		if c := toneFill[tone]; c != "" {
			fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{c}}
			st.row[tone] = add(&excelize.Style{Fill: fill})
		}
		st.date[tone] = add(&excelize.Style{Fill: fill, CustomNumFmt: &dateFmt})
		st.dateTime[tone] = add(&excelize.Style{Fill: fill, CustomNumFmt: &dateTimeFmt})
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
	widths   []float64
	sw       *excelize.StreamWriter
	sheet    string
	sheets   int // sheets opened so far
	next     int // next spreadsheet row on the current sheet
	cells    []excelize.Cell
	vals     []any
}

func (b *book) writeTable(t Table, name string) error {
	tw := &tableWriter{b: b, name: name, results: t.resultColumns(), date1904: t.Date1904}
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
	tw.widths = columnWidths(tw.header, len(tw.header)-len(tw.results), sample)
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
	landscape, fit, one, zero := "landscape", true, 1, 0
	if err := tw.b.f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &one, FitToHeight: &zero}); err != nil {
		return err
	}
	if err := tw.b.f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
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
	style := tw.b.st.row[r.Tone] // 0, no fill, for ToneNone
	inputCols := len(tw.header) - len(tw.results)
	for i := range inputCols {
		c, k := "", cell.Text
		if i < len(r.Cells) {
			c = r.Cells[i]
		}
		if i < len(r.Kinds) {
			k = r.Kinds[i]
		}
		tw.cells[i] = tw.typedCell(c, k, r.Tone, style)
	}
	res := tw.cells[inputCols:]
	for j, name := range tw.results {
		v := ""
		if j < len(r.Result) {
			v = r.Result[j]
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
	if err := tw.sw.SetRow(cell, tw.vals); err != nil {
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

// typedCell is an input cell as the report writes it: a stored number as a
// number, a date as a date shown dd/mm/yyyy, a boolean as a boolean, text as
// text (neutralised), each on the row's fill.
func (tw *tableWriter) typedCell(c string, k cell.Kind, tone Tone, style int) excelize.Cell {
	switch k {
	case cell.Number:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			return excelize.Cell{StyleID: style, Value: f}
		}
	case cell.Date:
		if d, ok := dateOf(c, tw.date1904); ok {
			st := tw.b.st.date[tone]
			if d.Hour() != 0 || d.Minute() != 0 || d.Second() != 0 {
				st = tw.b.st.dateTime[tone]
			}
			return excelize.Cell{StyleID: st, Value: d}
		}
	case cell.Bool:
		return excelize.Cell{StyleID: style, Value: c == "1"}
	}
	return excelize.Cell{StyleID: style, Value: textValue(c)}
}

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

// columnWidths sizes each column to its widest cell among the header and
// the sample, within limits; the message column may be wider.
func columnWidths(header []string, inputCols int, sample []Row) []float64 {
	w := make([]int, len(header))
	for i, h := range header {
		w[i] = utf8.RuneCountInString(h)
	}
	for _, r := range sample {
		for i := 0; i < inputCols && i < len(r.Cells); i++ {
			w[i] = max(w[i], utf8.RuneCountInString(r.Cells[i]))
		}
		res := resultCells(nil, r, len(header)-inputCols)
		for j, c := range res {
			w[inputCols+j] = max(w[inputCols+j], utf8.RuneCountInString(c))
		}
	}
	out := make([]float64, len(w))
	for i, n := range w {
		limit := maxColWidth
		if i >= inputCols && header[i] == messageColumn {
			limit = maxMessageWidth
		}
		out[i] = float64(min(max(n+2, minColWidth), limit))
	}
	return out
}
