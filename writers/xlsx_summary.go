package writers

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// summaryTimeLayout shows the run's times as an Argentine accountant reads
// them, in the zone the pipeline recorded them in.
const summaryTimeLayout = "02/01/2006 15:04:05 -07:00"

// writeSummary adds the summary sheet. It is small, so it uses excelize's
// ordinary cell API rather than a stream writer.
func (b *book) writeSummary(s Summary, lang msg.Lang) error {
	t := func(key string) string { return msg.New(key).In(lang) }
	name := b.uniqueName(t("rep.sheet.summary"))
	if err := b.addSheet(name); err != nil {
		return err
	}
	f := b.f
	row := 1
	var firstErr error
	set := func(col int, v any, style int) {
		if firstErr != nil {
			return
		}
		cell, err := excelize.CoordinatesToCellName(col, row)
		if err == nil {
			err = f.SetCellValue(name, cell, v)
		}
		if err == nil && style != 0 {
			err = f.SetCellStyle(name, cell, cell, style)
		}
		firstErr = err
	}
	pair := func(key string, v any, style int) {
		set(1, t(key), b.st.bold)
		set(2, v, style)
		row++
	}

	set(1, t("rep.sum.title"), b.st.bold)
	row += 2
	pair("rep.sum.file", cell.Neutralize(s.File), 0)
	pair("rep.sum.sha256", s.SHA256, 0)
	pair("rep.sum.tool", cell.Neutralize(s.Tool), 0)
	pair("rep.sum.command", cell.Neutralize(s.Command), 0)
	if s.API != nil {
		api := cell.Neutralize(s.API.BaseURL)
		if s.API.Sandbox {
			api = t("rep.sum.sandbox")
		}
		pair("rep.sum.api", api, 0)
		pair("rep.sum.tenant", cell.Neutralize(s.API.Tenant), 0)
	}
	pair("rep.sum.kinds", cell.Neutralize(strings.Join(s.Kinds, ", ")), 0)
	pair("rep.sum.started", formatTime(s.Started), 0)
	pair("rep.sum.finished", formatTime(s.Finished), 0)
	pair("rep.sum.seconds", s.Seconds, b.st.seconds)
	pair("rep.sum.planned", s.RequestsPlanned, 0)
	pair("rep.sum.sent", s.RequestsSent, 0)
	if s.TotalInvoiced != "" {
		pair("rep.sum.invoiced", amountValue(s.TotalInvoiced), b.st.money)
	}
	for _, tipo := range sortedKeys(s.UnitsMoved) {
		set(1, t("rep.sum.moved")+" "+tipo, b.st.bold)
		set(2, amountValue(s.UnitsMoved[tipo]), b.st.money)
		row++
	}
	if o := s.Orders; o != nil {
		pair("rep.sum.orders.created", o.Created, 0)
		pair("rep.sum.orders.paid", o.Paid, 0)
		pair("rep.sum.orders.cancelled", o.Cancelled, 0)
	}
	pair("rep.sum.created", len(s.Created), 0)
	if s.RejectedBefore > 0 {
		pair("rep.sum.rejectedbefore", s.RejectedBefore, 0)
	}
	if s.RunReports != "" {
		pair("rep.sum.runreports", cell.Neutralize(s.RunReports+".*"), 0)
	}
	row++

	for col, key := range []string{"rep.sum.status", "rep.sum.rows", "rep.sum.requests", "rep.sum.meaning"} {
		set(col+1, t(key), b.st.header)
	}
	row++
	var rows, reqs int
	for _, st := range s.Statuses {
		word := st.Word
		if word == "" {
			word = st.Code
		}
		set(1, word, b.st.row[st.Tone])
		set(2, st.Rows, 0)
		set(3, st.Requests, 0)
		set(4, st.Meaning, 0)
		rows += st.Rows
		reqs += st.Requests
		row++
	}
	set(1, t("rep.sum.total"), b.st.bold)
	set(2, rows, b.st.bold)
	set(3, reqs, b.st.bold)
	row += 2

	if len(s.Warnings) > 0 {
		set(1, t("rep.sum.warnings"), b.st.bold)
		row++
		for _, w := range s.Warnings {
			set(1, cell.Neutralize(w), 0)
			row++
		}
		row++
	}
	set(1, t("rep.sum.formulas"), 0)
	if firstErr != nil {
		return firstErr
	}
	for col, width := range []float64{34, 24, 14, 90} {
		c, _ := excelize.ColumnNumberToName(col + 1) // 1..4 always have a name
		if err := f.SetColWidth(name, c, c, width); err != nil {
			return err
		}
	}
	// Printed on one page across, landscape, like the result sheets.
	landscape, fit, one, tall := "landscape", true, 1, 0
	if err := f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &one, FitToHeight: &tall}); err != nil {
		return err
	}
	return f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit})
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(summaryTimeLayout)
}

// amountValue writes the exact decimal total as a number, which Excel shows
// in the user's locale; text that is not a plain decimal stays text.
func amountValue(s string) any {
	if s == "" {
		return 0
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "eEinxIN") {
		return v
	}
	return cell.Neutralize(s)
}
