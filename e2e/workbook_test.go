package e2e

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// pdfText is the text of a PDF's pages from first to last (0: to the
// end), as poppler's pdftotext lays it out.
func pdfText(t *testing.T, pdf string, first, last int) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext is not installed: install the Debian package poppler-utils (.ci/run does it)")
	}
	args := []string{"-layout", "-f", strconv.Itoa(first)}
	if last > 0 {
		args = append(args, "-l", strconv.Itoa(last))
	}
	out, err := exec.Command(bin, append(args, pdf, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext %s: %v", pdf, err)
	}
	return string(out)
}

// pdfPages returns a PDF's page count and its first page's size in points.
func pdfPages(t *testing.T, pdf string) (pages int, width, height float64) {
	t.Helper()
	bin, err := exec.LookPath("pdfinfo")
	if err != nil {
		t.Fatal("pdfinfo is not installed: install the Debian package poppler-utils (.ci/run does it)")
	}
	out, err := exec.Command(bin, pdf).Output()
	if err != nil {
		t.Fatalf("pdfinfo %s: %v", pdf, err)
	}
	if m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindStringSubmatch(string(out)); m != nil {
		pages, _ = strconv.Atoi(m[1])
	}
	if m := regexp.MustCompile(`(?m)^Page size:\s+([\d.]+) x ([\d.]+)`).FindStringSubmatch(string(out)); m != nil {
		width, _ = strconv.ParseFloat(m[1], 64)
		height, _ = strconv.ParseFloat(m[2], 64)
	}
	return pages, width, height
}

// TestResultWorkbookPrintsReadably has LibreOffice print a result
// workbook of 150 sales to PDF and reads what it printed: no cell shows
// "###" (a date in a narrow carried column, an amount), a message longer
// than 90 characters is there to its last word (wrapped, not cut), amounts
// are formatted with two decimals and thousands separators, statuses are
// words of the run's language (the CSV report keeps the codes), and the
// pages are landscape with the header row repeated on every page.
func TestResultWorkbookPrintsReadably(t *testing.T) {
	libreOffice(t)
	w := newWorkspace(t, "")
	src := filepath.Join(w.dir, "ventas.xlsx")
	x := excelize.NewFile()
	sheet := "Ventas"
	x.SetSheetName("Sheet1", sheet)
	header := []any{"ordenId", "fec", "usuario.email", "productos.articuloId", "productos.precio", "productos.cantidad",
		"subtotal", "descuento", "recargo", "envio", "total", "medioPago.tipo", "nota"}
	x.SetSheetRow(sheet, "A1", &header)
	dateStyle, _ := x.NewStyle(&excelize.Style{NumFmt: 14})
	const n = 150
	for i := range n {
		total := 1234567.5
		if i == 7 {
			total = 1 // a wrong total: the row's message is long
		}
		row := []any{893001 + i, time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), "cliente@example.com", 105, 1234567.5, 1,
			1234567.5, 0, 0, 0, total, "EFECTIVO", "x"}
		c, _ := excelize.CoordinatesToCellName(1, i+2)
		x.SetSheetRow(sheet, c, &row)
		d, _ := excelize.CoordinatesToCellName(2, i+2)
		x.SetCellStyle(sheet, d, d, dateStyle)
	}
	if err := x.SaveAs(src); err != nil {
		t.Fatal(err)
	}
	x.Close()

	res := w.nx(t, "run", "--sandbox", "--time-scale", "0.01", "--rate", "0", "--workers", "8",
		"--journal", w.journal(), "--report-dir", w.reportDir(), src)
	if res.code != 1 {
		t.Fatalf("run: exit %d, want 1 (one sale with a wrong total)\n%s", res.code, res)
	}
	base := filepath.Join(w.reportDir(), "ventas")

	// The long message, from the CSV report (which keeps the codes).
	data, err := os.ReadFile(base + ".result.csv")
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(string(data), "\ufeff")))
	r.Comma = ';'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	bad := recs[8]
	message := bad[col["result.message"]]
	if bad[col["result.status"]] != "invalid" || len([]rune(message)) <= 90 {
		t.Fatalf("row 9 of the CSV report: %q %q, want the code invalid and a message longer than 90 characters", bad[col["result.status"]], message)
	}
	if recs[1][col["result.status"]] != "ok" {
		t.Errorf("CSV report status %q, want the code ok", recs[1][col["result.status"]])
	}

	// The row grows to its wrapped message: LibreOffice does not grow it
	// by itself when it opens the file.
	out, err := excelize.OpenFile(base + ".result.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := out.GetRowHeight(out.GetSheetList()[0], 9); h < 3*15 {
		t.Errorf("row 9, with a %d-character message, is %v points high: its text overflows", len([]rune(message)), h)
	}
	out.Close()

	pdf := convert(t, base+".result.xlsx", "pdf", "", t.TempDir())
	text := pdfText(t, pdf, 1, 0)
	if strings.Contains(text, "###") {
		t.Errorf("LibreOffice prints ### in the result workbook:\n%s", firstLines(text, 40))
	}
	if !strings.Contains(text, "20/11/2026") {
		t.Errorf("the carried date is not printed as 20/11/2026:\n%s", firstLines(text, 20))
	}
	if !strings.Contains(text, "1,234,567.50") && !strings.Contains(text, "1.234.567,50") {
		t.Errorf("amounts are not printed with separators and two decimals:\n%s", firstLines(text, 20))
	}
	for _, word := range []string{"enviada", "con errores"} {
		if !strings.Contains(text, word) {
			t.Errorf("the workbook does not say %q (statuses in Spanish):\n%s", word, firstLines(text, 20))
		}
	}
	// The message's last words are printed: wrapped, not cut.
	words := strings.Fields(message)
	tail := words[len(words)-1]
	if len(words) > 1 {
		tail = words[len(words)-2]
	}
	if !strings.Contains(text, tail) {
		t.Errorf("the message's end %q is not printed (cut?): message %q\n%s", tail, message, firstLines(text, 40))
	}

	pages, width, height := pdfPages(t, pdf)
	if width <= height {
		t.Errorf("pages are %vx%v points, want landscape", width, height)
	}
	if pages < 3 { // two of results (at least) and the summary
		t.Fatalf("%d pages for %d rows: squeezed onto one page?", pages, n)
	}
	if p2 := pdfText(t, pdf, 2, 2); !strings.Contains(p2, "ordenId") || !strings.Contains(p2, "result.status") {
		t.Errorf("page 2 does not repeat the header row:\n%s", firstLines(p2, 5))
	}
}

// firstLines is the first n lines of s, for a failure message.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
