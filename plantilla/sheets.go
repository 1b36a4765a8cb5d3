package plantilla

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
)

// builder writes one template.
type builder struct {
	f    *excelize.File
	kind schema.Kind
	snap *catalog.Snapshot
	opts Options
	data string // the data sheet's name
}

// Header fills: required columns stand out, optional ones are plain grey.
const (
	RequiredFill = "F4B183"
	OptionalFill = "D9D9D9"
)

// Built-in number formats of excelize/Excel.
const (
	fmtGeneral = 0
	fmtInteger = 1  // 0
	fmtMoney   = 4  // #,##0.00
	fmtText    = 49 // @
)

// dateFormat is Argentine day-first order, never m/d.
const dateFormat = "dd/mm/yyyy"

func (b *builder) build() error {
	if err := b.f.SetSheetName("Sheet1", b.data); err != nil {
		return err
	}
	if _, err := b.f.NewSheet(InstructionsSheet); err != nil {
		return err
	}
	if _, err := b.f.NewSheet(ListsSheet); err != nil {
		return err
	}
	// Hidden while still empty: hiding a sheet reads it back, which for
	// a streamed list of 50,000 articles took seconds.
	if err := b.f.SetSheetVisible(ListsSheet, false); err != nil {
		return err
	}
	b.f.SetActiveSheet(0)
	ls := lists(b.kind, b.snap)
	if hasArticles(b.kind) {
		ls = append(ls, articleLists(b.kind, b.opts)...)
		if !b.opts.ArticulosFetched.IsZero() {
			if err := b.writeArticles(); err != nil {
				return err
			}
		}
	}
	refs, err := b.writeLists(ls)
	if err != nil {
		return err
	}
	if err := b.writeData(ls, refs); err != nil {
		return err
	}
	if err := b.writeInstructions(ls); err != nil {
		return err
	}
	return nil
}

// writeLists puts each list in two columns of the hidden sheet: the values
// (what the drop-down offers) and, beside them, what each value is. It
// returns each list's range for the data validation. The sheet is
// streamed, row by row: the article codes and barcodes are tens of
// thousands of entries, which cell by cell took seconds.
func (b *builder) writeLists(ls []list) (map[string]string, error) {
	refs := map[string]string{}
	bold, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, err
	}
	sw, err := b.f.NewStreamWriter(ListsSheet)
	if err != nil {
		return nil, err
	}
	rows := 1
	header := make([]any, 0, 2*len(ls))
	for i, l := range ls {
		if err := sw.SetColWidth(2*i+1, 2*i+1, 14); err != nil {
			return nil, err
		}
		if err := sw.SetColWidth(2*i+2, 2*i+2, 40); err != nil {
			return nil, err
		}
		header = append(header, excelize.Cell{StyleID: bold, Value: l.title}, excelize.Cell{StyleID: bold, Value: l.title + ": descripción"})
		rows = max(rows, len(l.values)+1)
		valCol, _ := excelize.ColumnNumberToName(2*i + 1)
		// An empty list still points at one (empty) cell: Excel then
		// refuses any value, which is right when, say, there are no bank
		// accounts, and the workbook stays valid.
		last := max(len(l.values)+1, 2)
		refs[l.column] = "'" + ListsSheet + "'!$" + valCol + "$2:$" + valCol + "$" + strconv.Itoa(last)
	}
	if err := sw.SetRow("A1", header); err != nil {
		return nil, err
	}
	cells := make([]any, 2*len(ls))
	for r := 2; r <= rows; r++ {
		for i, l := range ls {
			j := r - 2
			if j >= len(l.values) {
				cells[2*i], cells[2*i+1] = nil, nil
				continue
			}
			cells[2*i], cells[2*i+1] = l.values[j], l.labels[j]
			// Ids go in as numbers so that the drop-down's choice is a
			// number cell, as the data column's format expects.
			if n, err := strconv.ParseInt(l.values[j], 10, 64); err == nil && l.strict {
				cells[2*i] = n
			}
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		if err := sw.SetRow(cell, cells); err != nil {
			return nil, err
		}
	}
	return refs, sw.Flush()
}

// numFmt is the number format that suits a column.
func numFmt(c schema.Column) (int, string) {
	switch c.Type {
	case schema.Int:
		return fmtInteger, ""
	case schema.Number:
		if strings.HasSuffix(c.Path, "cantidad") {
			// Quantities may be 0,5 kg or 3 units: show what was typed.
			return fmtGeneral, ""
		}
		return fmtMoney, ""
	case schema.Date:
		return 0, dateFormat
	case schema.Text, schema.Digits:
		// Text keeps leading zeros and long digit strings (CUIT, DNI,
		// postal codes) exactly as typed.
		return fmtText, ""
	}
	return fmtGeneral, ""
}

// width is a column's width in characters.
func width(c schema.Column) float64 {
	w := float64(utf8.RuneCountInString(c.Path)) + 4
	switch c.Type {
	case schema.Text:
		w = max(w, 24)
	case schema.Date:
		w = max(w, 13)
	case schema.Digits:
		w = max(w, 15)
	}
	return max(w, 12)
}

func (b *builder) writeData(ls []list, refs map[string]string) error {
	cols := b.kind.Columns()
	req, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{RequiredFill}},
		Border: []excelize.Border{{Type: "bottom", Color: "000000", Style: 1}}})
	if err != nil {
		return err
	}
	opt, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{OptionalFill}},
		Border: []excelize.Border{{Type: "bottom", Color: "000000", Style: 1}}})
	if err != nil {
		return err
	}
	lastRow := strconv.Itoa(b.opts.Rows + 1)
	byColumn := map[string]list{}
	for _, l := range ls {
		byColumn[l.column] = l
	}
	for i, c := range cols {
		name, _ := excelize.ColumnNumberToName(i + 1)
		if err := b.f.SetCellStr(b.data, name+"1", c.Path); err != nil {
			return err
		}
		fmtID, custom := numFmt(c)
		st := &excelize.Style{NumFmt: fmtID}
		if custom != "" {
			st.CustomNumFmt = &custom
		}
		sid, err := b.f.NewStyle(st)
		if err != nil {
			return err
		}
		if err := b.f.SetColStyle(b.data, name, sid); err != nil {
			return err
		}
		if err := b.f.SetColWidth(b.data, name, name, width(c)); err != nil {
			return err
		}
		hs := opt
		if c.Required {
			hs = req
		}
		if err := b.f.SetCellStyle(b.data, name+"1", name+"1", hs); err != nil {
			return err
		}
		if err := b.f.AddComment(b.data, excelize.Comment{Author: "nxbatch", Cell: name + "1",
			Text: requiredWord(c) + ": " + describe(b.kind, c.Path)}); err != nil {
			return err
		}
		l, ok := byColumn[c.Path]
		if !ok || !l.known {
			continue
		}
		dv := excelize.NewDataValidation(true)
		dv.SetSqref(name + "2:" + name + lastRow)
		dv.SetSqrefDropList(refs[c.Path])
		dv.SetInput(clip(c.Path, maxPromptTitle), b.prompt(l))
		style := excelize.DataValidationErrorStyleWarning
		if l.strict {
			style = excelize.DataValidationErrorStyleStop
		}
		dv.SetError(style, clip(c.Path, maxPromptTitle), clip(b.errorText(l), maxPrompt))
		if err := b.f.AddDataValidation(b.data, dv); err != nil {
			return err
		}
	}
	return b.f.SetPanes(b.data, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}}})
}

func requiredWord(c schema.Column) string {
	if c.Required {
		return msg.New("tpl.required").In(lang)
	}
	return msg.New("tpl.optional").In(lang)
}

// prompt is the note Excel shows on a cell of a list column: the entries
// with what they are, as many as fit.
func (b *builder) prompt(l list) string {
	if l.hint.Key != "" && l.note.Key == "" {
		return clip(b.opts.say(l.hint), maxPrompt)
	}
	if l.note.Key != "" {
		return clip(b.opts.say(l.note), maxPrompt)
	}
	more := msg.New("tpl.prompt.more").In(lang)
	var s strings.Builder
	for i, lb := range l.labels {
		line := lb
		if i > 0 {
			line = "\n" + lb
		}
		if utf8.RuneCountInString(s.String()+line)+utf8.RuneCountInString(more)+1 > maxPrompt {
			s.WriteString("\n" + more)
			break
		}
		s.WriteString(line)
	}
	return s.String()
}

func (b *builder) errorText(l list) string {
	if l.note.Key != "" {
		return b.opts.say(l.note)
	}
	if l.errText.Key != "" {
		return b.opts.say(l.errText)
	}
	if l.strict {
		return b.opts.say(msg.New("tpl.error.id"))
	}
	return b.opts.say(msg.New("tpl.error.enum"))
}

// clip cuts s to n characters, as Excel refuses longer validation texts.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// describe returns the Spanish explanation of a column: the kind's own
// (tpl.col.stock.detalle) when it differs, else the shared one.
func describe(k schema.Kind, path string) string {
	if _, ok := msg.Lookup("tpl.col." + string(k) + "." + path); ok {
		return msg.New("tpl.col." + string(k) + "." + path).In(lang)
	}
	return msg.New("tpl.col." + path).In(lang)
}

// typeWord says in Spanish what a column takes.
func typeWord(t schema.Type) string {
	key := map[schema.Type]string{
		schema.Int: "tpl.type.int", schema.Number: "tpl.type.number", schema.Bool: "tpl.type.bool",
		schema.Date: "tpl.type.date", schema.MedioTipo: "tpl.type.medio", schema.StockTipo: "tpl.type.stocktipo",
		schema.Condicion: "tpl.type.condicion", schema.Digits: "tpl.type.digits",
	}[t]
	if key == "" {
		key = "tpl.type.text"
	}
	return msg.New(key).In(lang)
}

func (b *builder) writeInstructions(ls []list) error {
	sh := InstructionsSheet
	title, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}})
	if err != nil {
		return err
	}
	bold, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	wrap, err := b.f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	if err != nil {
		return err
	}
	row := 1
	cell := func(col string) string { return col + strconv.Itoa(row) }
	put := func(values ...string) error {
		lines := 1
		for i, v := range values {
			c, _ := excelize.ColumnNumberToName(i + 1)
			if err := b.f.SetCellStr(sh, cell(c), v); err != nil {
				return err
			}
			if wrapped[c] {
				lines = max(lines, wrappedLines(v, instructionWidths[c]))
			}
		}
		// Spreadsheets do not all size a row to its wrapped text (LibreOffice
		// 7.4 cuts it): the row is given the height its longest cell needs.
		if lines > 1 {
			if err := b.f.SetRowHeight(sh, row, float64(lines)*lineHeight); err != nil {
				return err
			}
		}
		row++
		return nil
	}
	styled := func(st int, last string, values ...string) error {
		if err := b.f.SetCellStyle(sh, cell("A"), cell(last), st); err != nil {
			return err
		}
		return put(values...)
	}

	if err := styled(title, "A", msg.New("tpl.title", string(b.kind), b.kind.Endpoint()).In(lang)); err != nil {
		return err
	}
	for _, m := range []msg.Message{msg.New("tpl.intro.rows", b.data), msg.New("tpl.intro.required"),
		msg.New("tpl.intro.lists"), msg.New("tpl.intro.run")} {
		if err := put(b.opts.say(m)); err != nil {
			return err
		}
	}
	if hasArticles(b.kind) && !b.opts.ArticulosFetched.IsZero() {
		if err := put(b.opts.say(msg.New("tpla.intro"))); err != nil {
			return err
		}
	}
	if intro, ok := msg.Lookup("tpl.intro." + string(b.kind)); ok {
		if err := put(intro.ES); err != nil {
			return err
		}
	}
	row++

	if err := styled(bold, "E", msg.New("tpl.h.column").In(lang), msg.New("tpl.h.required").In(lang),
		msg.New("tpl.h.type").In(lang), msg.New("tpl.h.what").In(lang), msg.New("tpl.h.list").In(lang)); err != nil {
		return err
	}
	hasList := map[string]list{}
	for _, l := range ls {
		hasList[l.column] = l
	}
	for _, c := range b.kind.Columns() {
		listWord := ""
		if l, ok := hasList[c.Path]; ok {
			listWord = msg.Count("tpl.list.yes", len(l.values)).In(lang)
			if l.note.Key != "" {
				listWord = b.opts.say(l.note)
			}
		}
		if err := b.f.SetCellStyle(sh, cell("D"), cell("E"), wrap); err != nil {
			return err
		}
		if err := put(c.Path, requiredWord(c), typeWord(c.Type), describe(b.kind, c.Path), listWord); err != nil {
			return err
		}
	}
	row++

	if err := styled(title, "A", msg.New("tpl.lists.title").In(lang)); err != nil {
		return err
	}
	for _, l := range ls {
		if err := styled(bold, "A", l.title+" ("+l.column+")"); err != nil {
			return err
		}
		if l.note.Key != "" {
			if err := put("", b.opts.say(l.note)); err != nil {
				return err
			}
		}
		if l.hint.Key != "" {
			if l.note.Key == "" {
				if err := put("", b.opts.say(l.hint)); err != nil {
					return err
				}
			}
			continue
		}
		for i, v := range l.values {
			if err := put(v, l.labels[i]); err != nil {
				return err
			}
		}
	}
	row++

	if err := styled(title, "A", msg.New("tpl.catalogs.title").In(lang)); err != nil {
		return err
	}
	for _, t := range catalog.Tables(b.snap, lang) {
		if !relevant(b.kind, t.Name) {
			continue
		}
		state := b.opts.say(msg.New("tpl.catalog.never"))
		if t.Known() {
			state = msg.New("tpl.catalog.age", t.Fetched.Local().Format("02/01/2006 15:04")).In(lang)
		}
		if err := put(t.Title.In(lang), state); err != nil {
			return err
		}
	}
	if hasArticles(b.kind) {
		state := b.opts.say(msg.New("tpla.unknown"))
		if !b.opts.ArticulosFetched.IsZero() {
			state = msg.New("tpl.catalog.age", b.opts.ArticulosFetched.Local().Format("02/01/2006 15:04")).In(lang)
		}
		if err := put(msg.New("tpla.catalog").In(lang), state); err != nil {
			return err
		}
	}
	for _, n := range b.opts.Notes {
		if err := put(n.In(lang)); err != nil {
			return err
		}
	}
	for col, w := range instructionWidths {
		if err := b.f.SetColWidth(sh, col, col, w); err != nil {
			return err
		}
	}
	return nil
}

// instructionWidths are the widths of the Instrucciones sheet's columns, in
// characters; wrapped are the columns whose text wraps (the description
// and the list), and lineHeight the height of one line of text, in points.
var (
	instructionWidths = map[string]float64{"A": 30, "B": 45, "C": 22, "D": 70, "E": 40}
	wrapped           = map[string]bool{"D": true, "E": true}
)

const lineHeight = 15

// wrappedLines is how many lines text takes in a wrapped column width
// characters wide: words are not split, so a line holds a little less.
func wrappedLines(text string, width float64) int {
	per := max(int(width)-2, 1)
	lines := 0
	for _, para := range strings.Split(text, "\n") {
		n := utf8.RuneCountInString(para)
		lines += max(1, (n+per-1)/per)
	}
	return lines
}

// relevant reports whether catalog n feeds a list of kind k.
func relevant(k schema.Kind, n catalog.Name) bool {
	for _, need := range Needs(k) {
		if need == n {
			return true
		}
	}
	return false
}
