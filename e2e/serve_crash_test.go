package e2e

import (
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestServeBrowserKillMidSend kills `nxbatch serve` with SIGKILL in the
// middle of a send followed in a browser tab, then starts it again on the
// same address: the open tab says the server went away (it does not
// freeze silently) and, once the server answers again, leads to the
// result; the result page, the history and the import say from the
// journal what was sent (per kind, rows "enviada" with their ids), not
// "Todavía no se envió." and "válida".
func TestServeBrowserKillMidSend(t *testing.T) {
	w := newWorkspace(t, "")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	args := []string{"--addr", addr, "--sandbox-latency", "150ms", "--workers", "2"}
	srv := w.serve(t, args...)
	input := writeSales(t, w.dir, 200, 920001)
	ctx := browser(t)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#file", chromedp.ByID),
		chromedp.SetUploadFiles("#file", []string{input}, chromedp.ByID),
		chromedp.Click("#upload-send", chromedp.ByID), chromedp.WaitVisible("#send", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	var page string
	if err := chromedp.Run(ctx, chromedp.Location(&page)); err != nil {
		t.Fatal(err)
	}
	if will := text(t, ctx, "#will-send"); !strings.Contains(will, "Se enviarán 200 ventas") {
		t.Errorf("the send button is described by %q", will)
	}
	if err := chromedp.Run(ctx, chromedp.Click("#send", chromedp.ByID), chromedp.WaitVisible("#confirm-send", chromedp.ByID),
		chromedp.Click("#confirm-send", chromedp.ByID), chromedp.WaitVisible("#progress", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	// Kill once a few sales reached the sandbox: the rest are in flight
	// or not sent.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if sum(sandboxState(t, srv.sandbox), postVenta) >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the send did not reach the sandbox")
		}
	}
	if err := syscall.Kill(srv.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.WaitVisible("#lost", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if lost := text(t, ctx, "#lost"); !strings.Contains(lost, "Se perdió la conexión con el servidor") {
		t.Errorf("the tab says %q when the server went away", lost)
	}
	var stopHidden bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("stop-form").hidden`, &stopHidden)); err != nil || !stopHidden {
		t.Errorf("the tab still offers to stop a send its server no longer runs (%v)", err)
	}
	docShot(t, ctx, "serve-lost.png")

	// Back on the same address: the tab leaves the progress page by itself
	// (to the result, through the login a new start asks for).
	srv2 := w.serve(t, args...)
	var at string
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err := chromedp.Run(ctx, chromedp.Location(&at)); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(at, "/send") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the tab stayed on the progress page after the server came back")
		}
	}
	if !strings.HasSuffix(at, "/result") {
		t.Errorf("the tab went to %s, want the result page", at)
	}
	result := strings.TrimSuffix(page, "/") + "/result"
	if err := chromedp.Run(ctx, chromedp.Navigate(srv2.login), chromedp.Navigate(result), chromedp.WaitVisible("#journal-line", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	line := text(t, ctx, "#journal-line")
	if !strings.Contains(line, "Según el diario:") || !strings.Contains(line, "ventas creadas") {
		t.Errorf("the result page says %q", line)
	}
	docShot(t, ctx, "serve-after-kill.png")
	get := func(path string) string {
		t.Helper()
		resp, err := srv2.client.Get(srv2.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return b.String()
	}
	if h := get("/history"); !strings.Contains(h, "Según el diario:") || strings.Contains(h, "Todavía no se envió.") {
		t.Errorf("the history does not say from the journal what was sent")
	}
	path := page[strings.Index(page, "/u/"):]
	imp := get(path)
	if !strings.Contains(imp, `<span class="badge tone-done">enviada</span>`) {
		t.Errorf("the import shows no row sent")
	}
	created := strings.Count(imp, `<span class="badge tone-done">enviada</span>`)
	t.Logf("after the kill the first page of the import shows %d rows sent; the journal says %q", created, line)
	// Every sale that reached the sandbox is created or, when its answer
	// was cut by the kill, without an answer: none is forgotten.
	m := regexp.MustCompile(`Según el diario: (\d+) ventas creadas(?:, (\d+) sin respuesta)?`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the journal line %q", line)
	}
	created, _ = strconv.Atoi(m[1])
	unknown, _ := strconv.Atoi(m[2])
	if created == 0 || created+unknown < 10 {
		t.Errorf("the journal line counts %d created and %d without an answer, but at least 10 reached the sandbox", created, unknown)
	}
}
