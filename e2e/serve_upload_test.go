package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestServeBrowserUploadOverTheLimit: an 80 MB file is refused by the page
// itself before it is sent, with the limit; and when the browser sends it
// anyway (the page's check taken away), the server reads it to its end and
// answers the upload page with the same sentence, which the browser shows
// (not its own "This site can't be reached").
func TestServeBrowserUploadOverTheLimit(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	big := filepath.Join(w.dir, "grande.csv")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 99) + "\n"
	chunk := strings.Repeat(line, 10_000) // 1 MB
	for range 80 {
		if _, err := f.WriteString(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#file", chromedp.ByID),
		chromedp.SetUploadFiles("#file", []string{big}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID), chromedp.WaitVisible("#upload-toolarge", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "#upload-toolarge"); !strings.Contains(got, "supera el máximo de 64 MB") {
		t.Errorf("the page refuses the file saying %q", got)
	}
	var busy bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`!document.getElementById("upload-busy").hidden`, &busy)); err != nil || busy {
		t.Errorf("the page shows itself busy with a file it refused (%v)", err)
	}
	// Without the page's check the file goes to the server, which answers
	// with its page.
	if err := chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("upload").dataset.maxBytes = "0"`, nil),
		chromedp.SetUploadFiles("#file", []string{big}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID),
		chromedp.WaitVisible("#upload-refused", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if got := text(t, ctx, "#upload-refused"); !strings.Contains(got, "supera el máximo de 64 MB") {
		t.Errorf("the server's answer says %q", got)
	}
	entries, err := os.ReadDir(filepath.Join(filepath.Dir(w.journal()), "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("the refused upload left %d folders", len(entries))
	}
}

// TestServeBrowserFixShowsItsWork: while a fix is checked, its sign of
// work ("Guardando y revisando la corrección…") shows, and it goes once
// the answer is in; the "Enviar" sentence follows the fix.
func TestServeBrowserFixShowsItsWork(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	sample, _ := filepath.Abs(filepath.Join("..", "samples", "errores.csv"))
	ctx := browser(t)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#file", chromedp.ByID),
		chromedp.SetUploadFiles("#file", []string{sample}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID), chromedp.WaitVisible("#fix-0-11", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	before := text(t, ctx, "#will-send")
	// What the indicator looks like at the moment the fix leaves.
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.body.addEventListener("htmx:beforeSend", function () {
		window.busyAtSend = getComputedStyle(document.getElementById("fix-busy")).display;
	}); true`, nil)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.SetValue("#fix-0-11", "1000", chromedp.ByID),
		// As Enter does: the form's submit event, which htmx takes.
		chromedp.Evaluate(`document.getElementById("fix-0-11").form.requestSubmit(); true`, nil),
		chromedp.WaitVisible(`#fix-status[data-focus]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	// htmx settles the swapped rows for a moment, carrying the old
	// indicator's classes over: wait for the settle to end before looking.
	if err := chromedp.Run(ctx, chromedp.WaitVisible(`#preview:not(.htmx-settling)`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var atSend, after string
	if err := chromedp.Run(ctx, chromedp.Evaluate(`String(window.busyAtSend)`, &atSend),
		chromedp.Evaluate(`getComputedStyle(document.getElementById("fix-busy")).display`, &after)); err != nil {
		t.Fatal(err)
	}
	if atSend != "block" || after != "none" {
		t.Errorf("the fix's sign of work: %q while it was checked, %q after; want block, then none", atSend, after)
	}
	if now := text(t, ctx, "#will-send"); now == before || !strings.Contains(now, "Se enviarán") {
		t.Errorf("the send sentence did not follow the fix: %q, then %q", before, now)
	}
}
