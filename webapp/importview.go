package webapp

import (
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
)

// importPage's data: the plan, the counts and the first page of rows.
type importData struct {
	base
	ID, Name string
	Plan     []string
	Least    string
	Catalogs []string
	Warnings []string
	Counts   []count
	Sheets   []sheetTab
	Preview  previewData
	Profile  string
	// AutoProfile: Profile was applied by itself (same headers).
	AutoProfile bool
	Edits       int
	Sends       []string
	Sending     bool
	HasResult   bool
	Alert       string
	// Replace is the find-and-replace of a column of the sheet shown.
	Replace replaceForm
	// OOB marks the plan of a fix's answer: htmx swaps it in place of the
	// page's (hx-swap-oob).
	OOB bool
	// Journal says what the journal knows was sent of the file, whatever
	// the page's own record says (a server killed mid-send wrote none).
	Journal string
	// Will says what "Enviar" sends and what stays behind; Amount the
	// amount the sales sent invoice.
	Will   string
	Amount string
	// Of is the upload this one is the errors file of; Fixed its errors
	// files uploaded again.
	Of    *link
	Fixed []link
	// Count: the file is an inventory count, whose switch ZeroMissing
	// ("faltantes en cero") the page offers; Notes say what an option's
	// change did.
	Count, ZeroMissing bool
	Notes              []string
}

// sheetTab is one sheet of a workbook, for the preview's tabs.
type sheetTab struct {
	Index    int
	Name     string
	Selected bool
	URL      string
}

// previewData is one page of a table of rows: the preview before a send,
// or the result after it.
type previewData struct {
	Lang     msg.Lang
	ID       string
	Version  int
	Sheet    int
	Page     int
	Pages    int
	Only     bool
	Shown    int // rows in the filter
	Header   []string
	Rows     []rowData
	Result   bool // the result of a send: ids instead of fix inputs
	Prev     string
	Next     string
	All      string
	Errors   string
	Status   string // what the last fix did, for the live region
	Action   string // where a page link goes: rows or result
	Counts   []count
	Caption  string
	Attn     int
	Download string
}

// rowData is one row of a page.
type rowData struct {
	Index      int
	Row        int
	Status     string
	StatusText string
	Tone       string
	Message    string
	Request    string
	IDs        string
	Cells      []cellData
}

// cellData is one cell, with its problem when it has one.
type cellData struct {
	Text  string
	Issue string
	Col   int
	ID    string // of the cell's fix input, "" when it has none
	Label string
	Focus bool
	// Article is the name of the article a code or barcode cell names,
	// once the row resolved against the catalog: the user sees which
	// article the code is before sending.
	Article string
	// Same is how many rows of the sheet, this one included, hold the
	// same text in the column: above one, the fix offers to change them
	// all at once.
	Same     int
	SameText string
}

func (s *Server) importData(r *http.Request, u *upload, v *version, q query, alert string) *importData {
	l := lang(r)
	d := &importData{base: s.base(r, "web.import.title", u.meta.Name), ID: u.meta.ID, Name: u.meta.Name, Alert: alert}
	for _, pl := range v.file.Plan() {
		pl.File = u.meta.Name
		d.Plan = append(d.Plan, counted(pl.Message(), l).In(l))
	}
	d.Least = duration(v.least, l)
	now := s.now()
	for _, c := range v.catalogs {
		d.Catalogs = append(d.Catalogs, catalogLine(c, now, l))
	}
	for _, w := range v.file.Warnings {
		d.Warnings = append(d.Warnings, msg.ForPage(w).In(l))
	}
	so := s.sentOf(u)
	d.Journal = so.line(l)
	d.Of, d.Fixed = s.links(u)
	marks := so.rowMarks(v.file, l)
	d.Counts = counts(recount(v.rows, marks), l)
	will := planSend(v.file, marks)
	d.Will, d.Amount = will.sentence(l), will.amountText(l)
	if len(v.file.Sheets) > 1 {
		for i, sh := range v.file.Sheets {
			tq := query{Sheet: i, Page: 1}
			d.Sheets = append(d.Sheets, sheetTab{Index: i, Name: sh.Info.Name, Selected: i == q.Sheet, URL: "/u/" + u.meta.ID + "?" + tq.values().Encode()})
		}
	}
	d.Preview = s.previewData(l, u, v, q, "")
	d.Replace = replaceFormOf(v, q, l)
	u.mu.Lock()
	d.Profile, d.AutoProfile, d.Edits = u.meta.Profile, u.meta.AutoProfile, u.meta.Edits
	// Newest first, as the history lists them.
	for i := len(u.meta.Sends) - 1; i >= 0; i-- {
		d.Sends = append(d.Sends, sendLine(u.meta.Sends[i], now, l))
	}
	d.HasResult = len(u.reports) > 0
	d.Count, d.ZeroMissing = isCount(v.file), u.meta.ZeroMissing
	u.mu.Unlock()
	d.Sending = s.sendingFor(u.meta.ID) != nil
	return d
}

// previewData builds one page of the upload's rows before a send.
// Rows the journal knows were sent read their outcome, not "válida".
func (s *Server) previewData(l msg.Lang, u *upload, v *version, q query, status string) previewData {
	d := s.tableDataWith(l, u.meta.ID, v.file, v.attention, v.n, q, status, false, &v.same)
	if so := s.sentOf(u); !so.empty() {
		marks := so.rowMarks(v.file, l)
		marked(&d, marks[d.Sheet], l)
		rows, _ := v.file.Counts()
		d.Counts = counts(recount(rows, marks), l)
	}
	return d
}

// tableData builds one page of f's rows: all of them, or only those that
// need attention (attn lists them per sheet).
func (s *Server) tableData(l msg.Lang, id string, f *pipeline.File, attn [][]int32, ver int, q query, status string, result bool) previewData {
	return s.tableDataWith(l, id, f, attn, ver, q, status, result, nil)
}

// sameCounts keeps, per sheet and column of one version, how many rows
// hold each value: counted once, not at every page of rows shown.
type sameCounts struct {
	mu sync.Mutex
	m  map[[2]int]map[string]int
}

// of returns the counts of column col of sheet si of f, counting them
// the first time.
func (c *sameCounts) of(f *pipeline.File, si, col int) map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.m[[2]int{si, col}]; ok {
		return m
	}
	m := map[string]int{}
	sh := f.Sheets[si]
	for i := range sh.Rows() {
		m[sh.Cell(i, col)]++
	}
	if c.m == nil {
		c.m = map[[2]int]map[string]int{}
	}
	c.m[[2]int{si, col}] = m
	return m
}

// carry gives out, the counts of the version after a fix that set cell
// col of the rows change names in sheet si (of sh, the sheet before it)
// to value, what c already counted: that column's counts worked out from
// c's, if it has them; every other column's are c's own (a version's
// counts never change once counted).
func (c *sameCounts) carry(out *sameCounts, si, col int, sh *pipeline.Sheet, change func(int) bool, value string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out.m = map[[2]int]map[string]int{}
	for k, m := range c.m {
		if k != [2]int{si, col} {
			out.m[k] = m
		}
	}
	if m, ok := c.m[[2]int{si, col}]; ok {
		m = maps.Clone(m)
		for i := range sh.Rows() {
			if !change(i) {
				continue
			}
			was := sh.Cell(i, col)
			if m[was]--; m[was] == 0 {
				delete(m, was)
			}
			m[value]++
		}
		out.m[[2]int{si, col}] = m
	}
}

// tableDataWith is tableData with the version's value counts (nil: counted
// for this page alone).
func (s *Server) tableDataWith(l msg.Lang, id string, f *pipeline.File, attn [][]int32, ver int, q query, status string, result bool, same *sameCounts) previewData {
	if q.Sheet < 0 || q.Sheet >= len(f.Sheets) {
		q.Sheet = 0
	}
	sh := f.Sheets[q.Sheet]
	action := "/u/" + id + "/rows"
	if result {
		action = "/u/" + id + "/result"
	}
	d := previewData{Lang: l, ID: id, Version: ver, Sheet: q.Sheet, Only: q.Only, Header: sh.Info.Header,
		Result: result, Status: status, Action: action, Attn: len(attn[q.Sheet])}
	d.Shown = sh.Rows()
	if q.Only {
		d.Shown = len(attn[q.Sheet])
	}
	d.Pages = max(1, (d.Shown+pageSize-1)/pageSize)
	d.Page = min(q.Page, d.Pages)
	numCols := numberColumns(sh)
	lo, hi := (d.Page-1)*pageSize, min(d.Page*pageSize, d.Shown)
	focusSet := false
	var kinds []cell.Kind
	artCols := articleColumns(sh)
	// Per column with a cell to fix on this page, how many rows hold each
	// value: one pass over the sheet per such column and version.
	if same == nil {
		same = &sameCounts{}
	}
	countOf := func(col int, text string) int { return same.of(f, q.Sheet, col)[text] }
	for k := lo; k < hi; k++ {
		i := k
		if q.Only {
			i = int(attn[q.Sheet][k])
		}
		rv := sh.RowViewFor(i, l, msg.ForPage)
		rd := rowData{Index: i, Row: rv.SourceRow, Status: rv.Status.String(), StatusText: statusText(rv.Status, l),
			Tone: toneClass(rv.Status), Message: rv.Message, Request: rv.Request}
		if result && rv.FacturaID != 0 {
			rd.IDs = idsText(rv, l)
		}
		issues := map[int]string{}
		for _, is := range rv.Issues {
			if is.Column >= 0 {
				if issues[is.Column] != "" {
					issues[is.Column] += "; "
				}
				issues[is.Column] += is.Text
			}
		}
		kinds = sh.CellKinds(i, kinds)
		var article string
		if len(artCols) > 0 {
			if a, ok := sh.ArticleOf(i); ok {
				article = a.Nombre
			}
		}
		for c, text := range rv.Cells {
			cd := cellData{Text: shownCell(text, kinds[c], sh.Info.Date1904, l), Issue: issues[c], Col: c}
			if artCols[c] && strings.TrimSpace(text) != "" {
				cd.Article = article
			}
			if dec, ok := numCols[c]; ok && cd.Issue == "" {
				if n, ok := shownNumber(text, kinds[c], sh, dec, l); ok {
					cd.Text = n
				}
			}
			if cd.Issue != "" && !result {
				cd.ID = "fix-" + strconv.Itoa(i) + "-" + strconv.Itoa(c)
				cd.Label = msg.New("web.fix.label", rv.SourceRow, sh.Info.Header[c]).In(l)
				if n := countOf(c, text); n > 1 {
					cd.Same = n
					cd.SameText = msg.New("web.bulk.offer", thousands(n-1, l), text).In(l)
				}
				if status != "" && !focusSet {
					cd.Focus, focusSet = true, true
				}
			}
			rd.Cells = append(rd.Cells, cd)
		}
		d.Rows = append(d.Rows, rd)
	}
	link := func(qq query) string { return action + "?" + qq.values().Encode() }
	if d.Page > 1 {
		d.Prev = link(query{Sheet: q.Sheet, Page: d.Page - 1, Only: q.Only})
	}
	if d.Page < d.Pages {
		d.Next = link(query{Sheet: q.Sheet, Page: d.Page + 1, Only: q.Only})
	}
	d.All = link(query{Sheet: q.Sheet, Page: 1})
	d.Errors = link(query{Sheet: q.Sheet, Page: 1, Only: true})
	rows, _ := f.Counts()
	d.Counts = counts(rows, l)
	caption := "web.table.caption"
	if d.Shown == 1 {
		caption += ".one"
	}
	d.Caption = counted(msg.New(caption, d.Page, d.Pages, thousands(d.Shown, l)), l).In(l)
	return d
}

// articleColumns are the columns of sh that name an article by the shop's
// keys (productos.codigo, articulos.codigoBarras...), beside which the
// preview shows the article's name.
func articleColumns(sh *pipeline.Sheet) map[int]bool {
	out := map[int]bool{}
	for _, p := range []string{"productos", "articulos"} {
		for _, key := range []string{"codigo", "codigoBarras"} {
			if c := sh.Layout.Col(p + "." + key); c >= 0 {
				out[c] = true
			}
		}
	}
	return out
}

// idsText says what the API created for a row.
func idsText(rv pipeline.RowView, l msg.Lang) string {
	if rv.Numero == 0 && rv.PVNumero == 0 {
		return msg.New("web.ids.mov", rv.FacturaID).In(l)
	}
	return msg.New("web.ids", rv.FacturaID, rv.Numero, rv.PVNumero).In(l)
}

// shownCell is a cell as the page shows it: a workbook's date as
// dd/mm/yyyy (not its serial number), a boolean as the reports write it,
// anything else as read.
func shownCell(c string, k cell.Kind, date1904 bool, l msg.Lang) string {
	switch k {
	case cell.Date:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			if d, ok := cell.DateOf(f, date1904); ok {
				if d.Hour() == 0 && d.Minute() == 0 && d.Second() == 0 {
					return d.Format("02/01/2006")
				}
				return d.Format("02/01/2006 15:04:05")
			}
		}
	case cell.Bool:
		if c == "1" {
			return msg.New("rep.bool.true").In(l)
		}
		return msg.New("rep.bool.false").In(l)
	}
	return c
}
