package webapp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/sandbox"
)

// These tests drive a real Chromium, as the e2e browser tests do: a
// machine without it fails them, naming the package to install.

// chromium finds Debian's Chromium.
func chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/lib/chromium/chromium"} {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Fatal("the browser tests need Chromium: install Debian's package `chromium` (apt-get install -y chromium)")
	return ""
}

// browser starts a headless Chromium whose window is w×h CSS pixels, with a
// fresh profile and no background networking, logged in as the bed's
// owner.
func (b *bed) browser(w, h int) context.Context {
	t := b.t
	t.Helper()
	// The profile is not under t.TempDir: Chromium's helpers may still be
	// writing to it while the test's folders are removed.
	profile, err := os.MkdirTemp("", "nxbatch-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("headless", true),
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(w, h),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the browser and waits for it
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		_ = os.RemoveAll(profile)
	})
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate(b.ts.URL+"/login?key="+b.srv.OwnerKey()), chromedp.WaitVisible("main")); err != nil {
		t.Fatalf("start Chromium and log in: %v", err)
	}
	return ctx
}

// TestNarrowScreen: at 390 px wide (a phone) no page is wider than the
// window (only tables scroll, inside their own frame) and the language
// switch is on screen and works.
func TestNarrowScreen(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("errores.csv")
	cols := b.upload("propio.csv", []byte(foreign)).location
	ctx := b.browser(390, 844)
	for _, p := range []string{"/", page, page + "/confirm", cols, "/history", "/catalogs"} {
		var fits, switchOn bool
		var width, client int
		err := chromedp.Run(ctx,
			chromedp.Navigate(b.ts.URL+p), chromedp.WaitVisible("main"),
			chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
			chromedp.Evaluate(`document.documentElement.clientWidth`, &client),
			chromedp.Evaluate(`document.documentElement.scrollWidth <= document.documentElement.clientWidth`, &fits),
			chromedp.Evaluate(`(() => { const b = document.querySelector('form.lang button[lang]'); if (!b) return false;
				const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth; })()`, &switchOn),
		)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !fits {
			t.Errorf("%s at 390 px: the page is %d px wide in a %d px window", p, width, client)
		}
		if !switchOn {
			t.Errorf("%s at 390 px: the language switch is not on screen", p)
		}
	}
	// The switch works from a phone.
	var lang string
	if err := chromedp.Run(ctx, chromedp.Navigate(b.ts.URL+page), chromedp.WaitVisible("main"),
		chromedp.Click(`form.lang button[lang]`, chromedp.ByQuery), chromedp.WaitVisible(`html[lang="en"]`, chromedp.ByQuery),
		chromedp.AttributeValue("html", "lang", &lang, nil, chromedp.ByQuery)); err != nil || lang != "en" {
		t.Errorf("the language switch at 390 px: lang %q, %v", lang, err)
	}
}

// TestBulkFixInTheBrowser: in the page, ticking "also change the other
// rows" on one bad cell fixes every row with the same value at once, and
// the page says how many.
func TestBulkFixInTheBrowser(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.upload("mismo.csv", sameMistake()).location
	ctx := b.browser(1280, 900)
	var status, plan string
	err := chromedp.Run(ctx,
		chromedp.Navigate(b.ts.URL+page), chromedp.WaitVisible(`#fix-0-10`, chromedp.ByID),
		chromedp.SetValue(`#fix-0-10`, "EFECTIVO", chromedp.ByID),
		chromedp.Click(`tr[data-row="2"] input[name="all"]`, chromedp.ByQuery),
		chromedp.Click(`tr[data-row="2"] form.fix button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#fix-status[data-focus]`, chromedp.ByQuery),
		chromedp.Text(`#fix-status`, &status, chromedp.ByQuery),
		chromedp.Text(`#plan`, &plan, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Se cambió «EFECTIVOO» por «EFECTIVO» en 5 filas"; !strings.Contains(status, want) {
		t.Errorf("status %q, want %q", status, want)
	}
	if want := "6 filas → 6 ventas (1 con errores)"; !strings.Contains(plan, want) {
		t.Errorf("plan %q, want %q", plan, want)
	}
}

// TestConnectionPageInTheBrowser: the connection entered in the page, as
// the owner does it after a start with no connection: the address opened
// logs the browser in, the form is filled and saved, and the browser goes
// on to the page proper.
func TestConnectionPageInTheBrowser(t *testing.T) {
	b := newBed(t, bedOptions{})
	dir := t.TempDir()
	saved := make(chan connection.Saved, 1)
	// As serve does: once saved, the same address serves the page proper.
	var proper atomic.Bool
	st := &Setup{StateDir: dir, Saved: saved, Next: func(context.Context) (string, error) {
		proper.Store(true)
		return "/login?key=" + b.srv.OwnerKey(), nil
	}}
	setup, page := st.Handler(), b.srv.Handler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if proper.Load() {
			page.ServeHTTP(w, r)
			return
		}
		setup.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	owner, err := st.URL(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := b.browser(390, 844)
	var problem, heading string
	err = chromedp.Run(ctx,
		chromedp.Navigate(owner), chromedp.WaitVisible(`#token`, chromedp.ByID),
		chromedp.SendKeys(`#base-url`, b.sb.URL, chromedp.ByID),
		chromedp.SendKeys(`#token`, "otro-token", chromedp.ByID),
		chromedp.Click(`#conn-save`, chromedp.ByID),
		chromedp.WaitVisible(`#conn-problem`, chromedp.ByID),
		chromedp.Text(`#conn-problem`, &problem, chromedp.ByID),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(problem, "La API rechazó el token") {
		t.Errorf("a wrong token: %q", problem)
	}
	err = chromedp.Run(ctx,
		chromedp.SetValue(`#token`, sandbox.DefaultToken, chromedp.ByID),
		chromedp.Click(`#conn-save`, chromedp.ByID),
		chromedp.WaitVisible(`form[action="/uploads"]`, chromedp.ByQuery),
		chromedp.Text(`h1`, &heading, chromedp.ByQuery),
	)
	if err != nil {
		t.Fatalf("the right connection did not lead to the page proper: %v", err)
	}
	if heading == "" {
		t.Error("the page proper has no heading")
	}
	if got := <-saved; got.BaseURL != b.sb.URL {
		t.Errorf("saved %+v", got)
	}
	if _, tok, err := connection.Load(dir); err != nil || tok == "" {
		t.Errorf("not saved: %v", err)
	}
}
