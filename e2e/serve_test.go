package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// The browser tests drive Debian's Chromium (package chromium) through
// chromedp against the real binary's `serve --sandbox`. They never skip: a
// machine without Chromium fails them, naming the package to install
// (.ci/run installs it). NXBATCH_SCREENSHOTS=DIR also writes the pictures
// docs/serve.md shows.

// chromiumPath finds Debian's Chromium.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/lib/chromium/chromium"} {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	t.Fatal("the browser tests need Chromium: install Debian's package `chromium` (apt-get install -y chromium); .ci/run installs it when it is missing")
	return ""
}

// browser starts a headless Chromium with a fresh profile and no
// background networking (the machine's network is closed).
func browser(t *testing.T) context.Context {
	t.Helper()
	profile, err := os.MkdirTemp("", "nxbatch-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Flag("no-sandbox", true), // as root, Chromium's own sandbox cannot start
		chromedp.Flag("headless", true),
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	// Chromium's helper processes may still write into the profile for a
	// moment after the browser is stopped: t.TempDir's cleanup then failed
	// the test ("directory not empty"). The profile is removed here, after
	// the browser, retried a few times.
	removeProfile := func() {
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("the Chromium profile %s could not be removed", profile)
	}
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		if t.Failed() {
			saveShot(t, ctx, filepath.Join(t.ArtifactDir(), "failure.png"), true)
		}
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		removeProfile()
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// saveShot writes a screenshot of the window (of the whole page, when
// whole) to path, as PNG.
func saveShot(t *testing.T, ctx context.Context, path string, whole bool) {
	var png []byte
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	shot := chromedp.CaptureScreenshot(&png)
	if whole {
		shot = chromedp.FullScreenshot(&png, 100)
	}
	if err := chromedp.Run(sctx, shot); err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", path, err)
		return
	}
	t.Logf("screenshot: %s", path)
}

// docShot writes a picture for docs/serve.md when NXBATCH_SCREENSHOTS asks,
// and always one beside the test's artifacts.
func docShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	saveShot(t, ctx, filepath.Join(t.ArtifactDir(), name), true)
	if dir := os.Getenv("NXBATCH_SCREENSHOTS"); dir != "" {
		saveShot(t, ctx, filepath.Join(dir, name), false)
	}
}

// served is a `nxbatch serve --sandbox` process.
type served struct {
	url     string // the page
	login   string // the owner's address, with the key the command printed
	sandbox string // the embedded sandbox's API
	// client is logged in as the owner (with the key of the address the
	// command printed); it does not follow redirects.
	client *http.Client
	pid    int // the serve process
	// log keeps what the process printed after it started.
	log *lineLog
}

// lineLog is a process's output lines, safe for the goroutine that reads
// them.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

// waitLog waits until the process has printed a line holding each of
// want (its output arrives through a pipe, after the answers).
func (s served) waitLog(t *testing.T, want ...string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		missing := false
		for _, w := range want {
			missing = missing || !strings.Contains(s.logs(), w)
		}
		if !missing {
			return
		}
	}
	t.Errorf("serve's log lacks one of %q:\n%s", want, s.logs())
}

// logs is what the process printed after it started, so far.
func (s served) logs() string {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return strings.Join(s.log.lines, "\n")
}

// serve starts `nxbatch serve --sandbox` for w on a free port and waits for
// it to listen.
func (w *workspace) serve(t *testing.T, extra ...string) served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	args := append([]string{"serve", "--sandbox", "--addr", "127.0.0.1:0", "--journal", w.journal(),
		"--time-scale", strconv.FormatFloat(scale, 'g', -1, 64), "--report-dir", w.reportDir()}, extra...)
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "NX_TOKEN=", "NX_BASE_URL=", "XDG_STATE_HOME="+w.stateHome())
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 20 * time.Second
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start serve: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	lines := make(chan string, 64)
	for _, r := range []io.Reader{stdout, stderr} {
		go func() {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
	}
	urlRe := regexp.MustCompile(`http://127\.0\.0\.1:\d+/?(login\?key=[0-9a-f]+)?`)
	s := served{pid: cmd.Process.Pid, log: &lineLog{}}
	deadline := time.After(30 * time.Second)
	for s.url == "" || s.sandbox == "" {
		select {
		case l := <-lines:
			u := urlRe.FindString(l)
			switch {
			case u == "":
			case strings.Contains(l, "nxbatch serve"):
				s.login = u
				s.url = strings.TrimSuffix(u[:strings.Index(u+"/login", "/login")], "/")
			default:
				s.sandbox = strings.TrimSuffix(u, "/")
			}
		case <-deadline:
			t.Fatalf("serve did not start: %+v", s)
		}
	}
	if !strings.Contains(s.login, "key=") {
		t.Fatalf("serve printed no owner's address with its key: %q", s.login)
	}
	jar, _ := cookiejar.New(nil)
	s.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := s.client.Get(s.login)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner's address: %d", resp.StatusCode)
	}
	go func() {
		for l := range lines {
			s.log.add(l)
			if strings.Contains(l, sandbox.DefaultToken) {
				t.Errorf("serve logged the token: %s", l)
			}
		}
	}()
	return s
}

// sandboxState reads the embedded sandbox's inspection endpoint.
func sandboxState(t *testing.T, base string) sandbox.State {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+sandbox.InspectPath, nil)
	req.Header.Set(nxapi.TokenHeader, sandbox.DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st sandbox.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// unlabelled lists the visible controls of the page without an accessible
// name: an input, select or textarea needs a label (or aria-label), a
// button its text or aria-label.
const unlabelled = `(() => {
  const bad = [];
  document.querySelectorAll('input:not([type=hidden]), select, textarea, button').forEach(el => {
    let name = el.getAttribute('aria-label') || '';
    if (el.labels && el.labels.length) name += Array.from(el.labels).map(l => l.textContent).join(' ');
    if (el.tagName === 'BUTTON') name += el.textContent;
    if (!name.trim()) bad.push(el.outerHTML.slice(0, 120));
  });
  return bad;
})()`

// checkLabels fails the test for every control of the page without a name.
func checkLabels(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	var bad []string
	if err := chromedp.Run(ctx, chromedp.Evaluate(unlabelled, &bad)); err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s: a control without a label: %s", where, b)
	}
}

// tabTo presses Tab until the focused element matches the JS condition,
// at most n times: the control is reachable with the keyboard alone.
func tabTo(t *testing.T, ctx context.Context, cond string, n int) {
	t.Helper()
	for range n {
		var ok bool
		if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const el = document.activeElement; return !!el && (`+cond+`); })()`, &ok)); err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		if err := chromedp.Run(ctx, chromedp.KeyEvent("\t")); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("Tab never reached the element where %s", cond)
}

// text reads the text of the element sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var s string
	if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// TestServeBrowserWalkthrough is a newcomer's first import, in a real
// browser against the embedded sandbox: upload samples/errores.csv, see an
// invalid cell marked with its message, fix it in the page with the
// keyboard, send, watch the progress reach the end, download a
// result.xlsx whose sent rows are ok with the sandbox's ids, and send
// again: nothing is sent, and the page says why.
func TestServeBrowserWalkthrough(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	ctx := browser(t)

	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#file", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	checkLabels(t, ctx, "upload page")
	docShot(t, ctx, "serve-upload.png")
	// Keyboard alone: Tab reaches the file picker, then the button.
	tabTo(t, ctx, `el.id === "file"`, 15)
	sample, _ := filepath.Abs(filepath.Join("..", "samples", "errores.csv"))
	if err := chromedp.Run(ctx, chromedp.SetUploadFiles("#file", []string{sample}, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	tabTo(t, ctx, `el.id === "upload-send"`, 3)
	if err := chromedp.Run(ctx, chromedp.KeyEvent("\r"), chromedp.WaitVisible("td.bad", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}

	// The invalid total is marked on its cell with its message.
	if msg := text(t, ctx, "#fix-0-11-msg"); !strings.Contains(msg, "1.100,00") || !strings.Contains(msg, "total") {
		t.Fatalf("the total's cell says %q, want the sum that does not close", msg)
	}
	var invalid string
	if err := chromedp.Run(ctx, chromedp.AttributeValue("#fix-0-11", "aria-describedby", &invalid, nil, chromedp.ByID)); err != nil || invalid != "fix-0-11-msg" {
		t.Fatalf("the fix input is not described by its message: %q %v", invalid, err)
	}
	checkLabels(t, ctx, "preview with fix controls")
	// The wide table scrolls inside its box; the page itself does not grow
	// sideways (nothing in the table escapes the box).
	var widths []int
	if err := chromedp.Run(ctx, chromedp.Evaluate(`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`, &widths)); err != nil {
		t.Fatal(err)
	}
	if widths[0] > widths[1] {
		t.Errorf("the preview page is %d px wide in a %d px window: something in the table overflows the page", widths[0], widths[1])
	}
	docShot(t, ctx, "serve-preview.png")
	if err := chromedp.Run(ctx, chromedp.ScrollIntoView("#fix-0-11", chromedp.ByID),
		chromedp.Evaluate(`document.getElementById("fix-0-11").scrollIntoView({block: "center", inline: "center"})`, nil)); err != nil {
		t.Fatal(err)
	}
	docShot(t, ctx, "serve-cell.png")
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.scrollTo(0, 0); document.querySelector(".scroll").scrollLeft = 0`, nil)); err != nil {
		t.Fatal(err)
	}

	// Fix it with the keyboard: Tab to the cell, replace 1100 by 1000, Enter.
	tabTo(t, ctx, `el.id === "fix-0-11"`, 200)
	if err := chromedp.Run(ctx,
		chromedp.KeyEvent(string(rune(0xE010))), // End (kb.End)
		chromedp.KeyEvent("\b\b\b\b"), chromedp.KeyEvent("1000"), chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(`#fix-status[data-focus]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if s := text(t, ctx, "#fix-status"); !strings.Contains(s, "Fila 2 corregida: ahora está válida") {
		t.Fatalf("after the fix the page says %q", s)
	}
	// The plan at the top follows the fix without a reload.
	if plan := text(t, ctx, "#plan"); !strings.Contains(plan, "13 filas → 12 ventas (10 con errores)") || !strings.Contains(plan, "1 celda corregida") {
		t.Errorf("after the fix the plan says %q", plan)
	}
	var focused string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`document.activeElement.id`, &focused))
	if focused != "fix-status" {
		t.Errorf("after the fix the focus is on %q, want the status that says what happened", focused)
	}
	docShot(t, ctx, "serve-fixed.png")

	// Send: the confirmation says what leaves, the amount and what stays
	// behind; confirm, and watch the progress reach the end.
	if err := chromedp.Run(ctx, chromedp.Click("#send", chromedp.ByID), chromedp.WaitVisible("#confirm-send", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if c := text(t, ctx, "main"); !strings.Contains(c, "¿Enviar errores.csv?") || !strings.Contains(c, "2 ventas") ||
		!strings.Contains(c, "Importe a facturar: $ 2.000,00") || !strings.Contains(c, "11 filas con errores: no se envían hasta corregirlas") {
		t.Errorf("the confirmation says %q", c)
	}
	docShot(t, ctx, "serve-confirm.png")
	if err := chromedp.Run(ctx, chromedp.Click("#confirm-send", chromedp.ByID), chromedp.WaitVisible("#bar", chromedp.ByID),
		chromedp.WaitVisible("#result-link a", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var percent string
	_ = chromedp.Run(ctx, chromedp.Evaluate(`String(document.getElementById("bar").value)`, &percent))
	if percent != "100" || !strings.Contains(text(t, ctx, "#done-count"), "2 de 2") {
		t.Errorf("progress at the end: %s%%, %q", percent, text(t, ctx, "#done-count"))
	}
	if c := text(t, ctx, "#live-counts"); !strings.Contains(c, "2 enviadas y aceptadas") {
		t.Errorf("live counts at the end: %q", c)
	}
	// The heading followed the send to its end.
	var title string
	_ = chromedp.Run(ctx, chromedp.Title(&title))
	if h := text(t, ctx, "#send-heading"); h != "Envío de errores.csv terminado" || !strings.HasPrefix(title, h) {
		t.Errorf("at the end the heading says %q and the title %q, want the send finished", h, title)
	}
	docShot(t, ctx, "serve-progress.png")
	if err := chromedp.Run(ctx, chromedp.Click("#result-link a", chromedp.ByQuery), chromedp.WaitVisible("table.rows", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	docShot(t, ctx, "serve-result.png")
	var href string
	if err := chromedp.Run(ctx, chromedp.AttributeValue(`a[href$=".result.xlsx"]`, "href", &href, nil, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.client.Get(srv.url + href)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("download %s: %v", href, err)
	}
	xlsx := filepath.Join(t.TempDir(), "result.xlsx")
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	_ = os.WriteFile(xlsx, data, 0o600)
	checkResultXLSX(t, xlsx, sandboxState(t, srv.sandbox))

	// Send again: nothing goes, and the page says why.
	before := len(sandboxState(t, srv.sandbox).Vouchers)
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+strings.TrimSuffix(strings.TrimSuffix(href, "/files/errores.result.xlsx"), "/")),
		chromedp.Click("#send", chromedp.ByID), chromedp.WaitVisible("#confirm-send", chromedp.ByID),
		chromedp.Click("#confirm-send", chromedp.ByID), chromedp.WaitVisible("#result-link a", chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if s := text(t, ctx, "#said"); !strings.Contains(s, "No se envió nada") || !strings.Contains(s, "2 ya enviadas antes") {
		t.Errorf("second send says %q", s)
	}
	if after := len(sandboxState(t, srv.sandbox).Vouchers); after != before {
		t.Errorf("the second send created %d vouchers", after-before)
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+"/history"), chromedp.WaitVisible("#imports-h", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	docShot(t, ctx, "serve-history.png")
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+"/catalogs"), chromedp.WaitVisible("#refresh", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	checkLabels(t, ctx, "catalogs")
}

// checkResultXLSX: the rows sent are ok, with the ids the sandbox
// created; the others carry their errors.
func checkResultXLSX(t *testing.T, path string, st sandbox.State) {
	t.Helper()
	x, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows(x.GetSheetList()[0])
	if err != nil || len(rows) < 2 {
		t.Fatalf("result.xlsx: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	byOrden := vouchersByOrden(st)
	ok := 0
	for _, r := range rows[1:] {
		cell := func(h string) string {
			if i, found := col[h]; found && i < len(r) {
				return r[i]
			}
			return ""
		}
		if cell("result.status") != "enviada" { // the workbook says statuses in words
			if cell("result.message") == "" {
				t.Errorf("row %s is %s without a message", cell("result.row"), cell("result.status"))
			}
			continue
		}
		ok++
		orden, _ := strconv.ParseInt(cell("ordenId"), 10, 64)
		vs := byOrden[orden]
		if len(vs) != 1 || strconv.FormatInt(vs[0].FacturaID, 10) != cell("result.facturaId") || strconv.FormatInt(vs[0].Numero, 10) != cell("result.numero") {
			t.Errorf("ordenId %d: result.xlsx says factura %s numero %s, the sandbox holds %+v", orden, cell("result.facturaId"), cell("result.numero"), vs)
		}
	}
	if ok != 2 {
		t.Errorf("result.xlsx has %d ok rows, want the 2 valid sales (80001 fixed, 80011)", ok)
	}
}

// TestServeBrowserMapsColumnsForCLI: a file with the accountant's own
// headers goes through the column screen, which proposes what the CLI's
// matching finds; the choices are saved as a profile, and the command line
// runs the same file with `--map NAME`.
func TestServeBrowserMapsColumnsForCLI(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	ctx := browser(t)
	file := writeFile(t, w.dir, "sistema.csv",
		"Nro Orden;Cliente;Correo;Articulo;Precio Unit;Cant;Subtotal;Descuento;Recargo;Envio;Total Venta;Forma de Pago\n"+
			"81001;Ana;ana@example.com;105;1000;1;1000;0;0;0;1000;EFECTIVO\n"+
			"81002;Beto;beto@example.com;105;500;2;1000;0;0;0;1000;EFECTIVO\n")
	// Dropped on the upload box, as a file dragged from the desktop: the
	// drop fills the file input and sends the form.
	content, _ := os.ReadFile(file)
	drop := `(() => {
	  const dt = new DataTransfer();
	  dt.items.add(new File([` + strconv.Quote(string(content)) + `], "sistema.csv", {type: "text/csv"}));
	  const zone = document.getElementById("drop");
	  zone.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
	  zone.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	  return true;
	})()`
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.login), chromedp.WaitVisible("#drop", chromedp.ByID),
		chromedp.Evaluate(drop, nil), chromedp.WaitVisible("#columns-form", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	// The CLI's matching already proposes what it knows.
	var proposed string
	_ = chromedp.Run(ctx, chromedp.Value("#col-6", &proposed, chromedp.ByID))
	if proposed != "subtotal" {
		t.Errorf("column Subtotal proposed as %q", proposed)
	}
	checkLabels(t, ctx, "column screen")
	choices := map[string]string{"#col-0": "ordenId", "#col-1": "usuario.nombre", "#col-2": "usuario.email", "#col-3": "productos.articuloId",
		"#col-4": "productos.precio", "#col-5": "productos.cantidad", "#col-10": "total", "#col-11": "medioPago.tipo"}
	var acts []chromedp.Action
	for sel, v := range choices {
		acts = append(acts, chromedp.SetValue(sel, v, chromedp.ByQuery))
	}
	acts = append(acts, chromedp.SendKeys("#profile-name", "Sistema viejo", chromedp.ByID))
	if err := chromedp.Run(ctx, acts...); err != nil {
		t.Fatal(err)
	}
	docShot(t, ctx, "serve-columns.png")
	if err := chromedp.Run(ctx, chromedp.Click("#columns-save", chromedp.ByID), chromedp.WaitVisible("#plan-h", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if plan := text(t, ctx, ".plan"); !strings.Contains(plan, "2 filas → 2 ventas (0 con errores)") || !strings.Contains(plan, "Sistema viejo") {
		t.Fatalf("plan after mapping: %q", plan)
	}

	// The command line reads the same profile by name.
	r := w.nx(t, "run", "--sandbox", "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64), "--journal", w.journal(),
		"--report-dir", w.reportDir(), "--no-xlsx", "--map", "Sistema viejo", file)
	if r.code != 0 || !strings.Contains(r.stdout, "2 enviadas y aceptadas") {
		t.Fatalf("run --map with the saved profile:\n%s", r)
	}
	// And a name that is neither a file nor a profile says where it looked.
	r = w.nx(t, "validate", "--journal", w.journal(), "--map", "No existe", file)
	if r.code != 2 || !strings.Contains(r.stderr, "ni un perfil guardado") {
		t.Errorf("--map with an unknown name:\n%s", r)
	}
	// The cron run shows in the page's history, with its reports.
	if err := chromedp.Run(ctx, chromedp.Navigate(srv.url+"/history"), chromedp.WaitVisible("#runs-h", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if h := text(t, ctx, "main"); !strings.Contains(h, "sistema.csv") || !strings.Contains(h, "sistema.result.csv") {
		t.Errorf("history does not list the command line's run:\n%s", h)
	}
}

// TestServeAfterRunWithTheSamples is what the README and docs/serve.md tell
// a newcomer: after the first command (`run --sandbox` with the samples),
// the page, on the same journal, shows those samples as already sent and
// sends nothing of them; samples/errores.csv, which that command does not
// send, is sent from the page.
func TestServeAfterRunWithTheSamples(t *testing.T) {
	w := newWorkspace(t, "")
	var samples []string
	for _, n := range []string{"ventas.csv", "facturar.csv", "stock.csv", "demo.xlsx"} {
		p, _ := filepath.Abs(filepath.Join("..", "samples", n))
		samples = append(samples, p)
	}
	r := w.nx(t, append([]string{"run", "--sandbox", "--time-scale", strconv.FormatFloat(scale, 'g', -1, 64), "--journal", w.journal(),
		"--report-dir", w.reportDir(), "--no-xlsx"}, samples...)...)
	if r.code != 0 {
		t.Fatalf("run with the samples:\n%s", r)
	}
	srv := w.serve(t)
	client := srv.client
	send := func(name string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("..", "samples", name))
		if err != nil {
			t.Fatal(err)
		}
		var body strings.Builder
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
		_ = mw.Close()
		resp, err := client.Post(srv.url+"/uploads", mw.FormDataContentType(), strings.NewReader(body.String()))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		page := resp.Header.Get("Location")
		if resp, err = client.Get(srv.url + page + "/confirm"); err != nil {
			t.Fatal(err)
		}
		confirm, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		token := regexp.MustCompile(`name="confirmacion" value="([0-9a-f]+)"`).FindSubmatch(confirm)
		if token == nil {
			t.Fatalf("no confirmation for %s:\n%s", name, confirm)
		}
		if resp, err = client.Post(srv.url+page+"/send", "application/x-www-form-urlencoded", strings.NewReader("confirmacion="+string(token[1]))); err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		for range 300 {
			resp, err := client.Get(srv.url + page + "/send")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), "terminado</h1>") {
				return string(b)
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("the send of %s did not end", name)
		return ""
	}
	if p := send("ventas.csv"); !strings.Contains(p, "No se envió nada") || !strings.Contains(p, "6 ya enviadas antes") {
		t.Errorf("ventas.csv after the first command:\n%s", p)
	}
	if p := send("errores.csv"); !strings.Contains(p, "1 enviada y aceptada") {
		t.Errorf("errores.csv after the first command is not sent:\n%s", p)
	}
}
