package webapp

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// TestUploadOverTheLimitAnswersThePage: a file over the limit, whether
// its size is announced or not (a chunked body), is read to its end and
// answered with the upload page and its sentence (413), never a reset
// connection (the browser's "This site can't be reached"); nothing of it
// is kept.
func TestUploadOverTheLimitAnswersThePage(t *testing.T) {
	b := newBed(t, bedOptions{limits: Limits{MaxBytes: 64 << 10}})
	big := bytes.Repeat([]byte("fecha,cliente,importe\n"), (8<<20)/22)
	tests := []struct {
		name    string
		chunked bool
	}{
		{"size announced", false},
		{"chunked", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			fw, _ := mw.CreateFormFile("file", "grande.csv")
			_, _ = fw.Write(big)
			_ = mw.Close()
			var rd io.Reader = &body
			if tc.chunked {
				rd = io.MultiReader(&body) // hides the length
			}
			req, _ := http.NewRequest(http.MethodPost, b.ts.URL+"/uploads", rd)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			if tc.chunked && req.ContentLength != 0 {
				t.Fatalf("the request announces %d bytes", req.ContentLength)
			}
			resp, err := b.client.Do(req)
			if err != nil {
				t.Fatalf("the connection failed instead of the page answering: %v", err)
			}
			page, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d, want 413", resp.StatusCode)
			}
			if !strings.Contains(string(page), "supera el máximo de 0 MB") || !strings.Contains(string(page), `id="upload"`) {
				t.Errorf("the answer is not the upload page with its sentence:\n%s", page)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(b.journal), "uploads"))
	if len(entries) != 0 {
		t.Errorf("refused uploads left %d folders behind", len(entries))
	}
}

// TestSignsOfWork: the upload form knows its limit (the page refuses a
// larger file before sending it) and has its busy sign; a fix form names
// the indicator htmx shows while the fix is checked.
func TestSignsOfWork(t *testing.T) {
	b := newBed(t, bedOptions{limits: Limits{MaxBytes: 3 << 20}})
	home := b.get("/").body
	for _, want := range []string{`data-max-bytes="3145728"`, `data-too-large="El archivo supera el máximo de 3 MB`, `id="upload-busy"`} {
		if !strings.Contains(home, want) {
			t.Errorf("the upload page lacks %s", want)
		}
	}
	page := b.uploadSample("errores.csv")
	imp := b.get(page).body
	for _, want := range []string{`hx-indicator="#fix-busy"`, `id="fix-busy" class="htmx-indicator busy"`, "Guardando y revisando"} {
		if !strings.Contains(imp, want) {
			t.Errorf("the import page lacks %s", want)
		}
	}
}

// forgetSends puts upload p as a server killed in the middle of its send
// leaves it when it starts again: the journal has every request sent, the
// upload no record of the send, no reports, no file sent in memory.
func (b *bed) forgetSends(p string) {
	b.t.Helper()
	id := strings.TrimPrefix(p, "/u/")
	u := b.srv.uploads.get(id)
	u.mu.Lock()
	u.meta.Sends, u.last, u.reports = nil, nil, nil
	err := u.saveMeta()
	u.mu.Unlock()
	if err != nil {
		b.t.Fatal(err)
	}
	for _, name := range listReports(u.reportDir()) {
		_ = os.Remove(filepath.Join(u.reportDir(), name))
	}
	b.srv.lastJobs.Delete(id)
}

// TestAfterACrashTheJournalSaysWhatWasSent: after a server stopped in the
// middle of a send (no record of the send, no reports), the history, the
// import and the result page say from the journal what was sent, row by
// row, instead of "Todavía no se envió." and "válida"; the result page
// stays.
func TestAfterACrashTheJournalSaysWhatWasSent(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	if a := b.get(page); !strings.Contains(a.body, "válida") || strings.Contains(a.body, `id="journal-line"`) {
		t.Fatalf("before any send the rows are not valid, or the journal already says something:\n%s", a.body)
	}
	if a := b.get(page + "/result"); a.status != http.StatusSeeOther || a.location != page {
		t.Errorf("the result of an upload never sent: %d %q, want the import", a.status, a.location)
	}
	if a := b.send(page); a.status != http.StatusSeeOther {
		t.Fatalf("send: %d\n%s", a.status, a.body)
	}
	b.waitSent(page)
	b.forgetSends(page)
	created := len(b.sb.Server.State().Vouchers)
	if created == 0 {
		t.Fatal("the send created nothing")
	}
	line := "Según el diario: " + strconv.Itoa(created) + " ventas creadas."
	tests := []struct {
		path    string
		want    []string
		notWant []string
	}{
		{"/history", []string{line}, []string{"Todavía no se envió."}},
		{page, []string{line, `<span class="badge tone-done">enviada</span>`, "factura "}, []string{`<span class="badge tone-ready">válida</span>`, `data-status="valid"`}},
		{page + "/result", []string{line, `id="no-record"`}, nil},
	}
	for _, tc := range tests {
		a := b.get(tc.path)
		if a.status != http.StatusOK {
			t.Errorf("%s: %d %s, want the page", tc.path, a.status, a.location)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(a.body, w) {
				t.Errorf("%s lacks %q", tc.path, w)
			}
		}
		for _, w := range tc.notWant {
			if strings.Contains(a.body, w) {
				t.Errorf("%s still says %q:\n%s", tc.path, w, a.body)
			}
		}
	}
}

// waitReconciled waits for the history's reconciliation to end.
func (b *bed) waitReconciled() {
	b.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		b.srv.smu.Lock()
		rj := b.srv.reconciling
		b.srv.smu.Unlock()
		if rj != nil {
			rj.mu.Lock()
			running := rj.running
			rj.mu.Unlock()
			if !running {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.t.Fatal("the reconciliation did not end")
}

// TestReconcileFromTheHistory: the API created every sale but its answers
// were lost (the connection closed), so their outcomes are unknown; the
// history offers "Conciliar con el ERP", which reads them back as
// `nxbatch reconcile` does and settles them with their evidence: the rows
// then read "enviada", and nothing is left to settle by hand.
func TestReconcileFromTheHistory(t *testing.T) {
	// The server's clock: an hour later once the send is over, when the
	// API is done with every request the send made.
	var later atomic.Bool
	now := func() time.Time {
		if later.Load() {
			return time.Now().Add(time.Hour)
		}
		return time.Now()
	}
	b := newBed(t, bedOptions{dropAfter: 1, now: now})
	page := b.uploadSample("ventas.csv")
	if a := b.send(page); a.status != http.StatusSeeOther {
		t.Fatalf("send: %d\n%s", a.status, a.body)
	}
	b.waitSent(page)
	created := len(b.sb.Server.State().Vouchers)
	if created == 0 {
		t.Fatal("the sandbox created nothing")
	}
	h := b.get("/history").body
	for _, want := range []string{`id="reconcile"`, "Conciliar con el ERP", "sin respuesta"} {
		if !strings.Contains(h, want) {
			t.Fatalf("before reconciling the history lacks %q:\n%s", want, h)
		}
	}
	if a := b.get(page); !strings.Contains(a.body, `<span class="badge tone-check">resultado desconocido</span>`) {
		t.Errorf("before reconciling the rows do not read their unknown outcome")
	}
	later.Store(true)
	if a := b.post("/journal/reconcile", nil); a.status != http.StatusSeeOther || a.location != "/history#conciliar" {
		t.Fatalf("reconcile: %d %q\n%s", a.status, a.location, a.body)
	}
	b.waitReconciled()
	h = b.get("/history").body
	for _, want := range []string{`id="reconcile-plan"`, `id="reconcile-summary"`, "se registraron en el ERP: " + strconv.Itoa(created), "creada en el ERP",
		"Según el diario: " + strconv.Itoa(created) + " ventas creadas."} {
		if !strings.Contains(h, want) {
			t.Errorf("after reconciling the history lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, `id="reconcile"`) || strings.Contains(h, `name="as" value="ok"`) {
		t.Errorf("after reconciling every outcome the history still offers to settle something")
	}
	if a := b.get(page); strings.Contains(a.body, `<span class="badge tone-check">resultado desconocido</span>`) || !strings.Contains(a.body, `<span class="badge tone-done">enviada</span>`) {
		t.Errorf("after reconciling the rows do not read enviada")
	}
	j, err := boltjournal.Open(b.journal, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	entries, _ := j.List(context.Background(), "")
	for _, e := range entries {
		if e.State != journal.OK || e.Evidence == "" {
			t.Errorf("%s: %s, evidence %q; want ok with the reads' evidence", e.Key, e.State, e.Evidence)
		}
	}
}

// TestSendSaysWhatLeavesAndWhatStays: before the click, the page says how
// many sales leave, the amount they invoice (in Argentine format, whatever
// the file wrote) and which rows stay behind and why; after the send, the
// same place says nothing is left and why, and a fix updates it in place.
func TestSendSaysWhatLeavesAndWhatStays(t *testing.T) {
	b := newBed(t, bedOptions{})
	data, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 70003 pays with a medio that does not exist: its row stays behind.
	data = bytes.Replace(data, []byte("12600,VIRTUAL"), []byte("12600,TRUEQUE"), 1)
	a := b.upload("ventas.csv", data)
	if a.status != http.StatusSeeOther {
		t.Fatalf("upload: %d\n%s", a.status, a.body)
	}
	page := a.location
	body := b.get(page).body
	for _, want := range []string{
		"Se enviarán 3 ventas; quedan sin enviar 1 fila con errores (corríjala abajo).",
		"Importe a facturar: $ 10.100,47", // 5500.00 + 2699.97 + 1900.50
		`aria-describedby="will-send"`,
		// The suggestion lists only what a sale takes.
		"«TRUEQUE» no es un medio de pago que acepte una venta: use EFECTIVO, DEPOSITO_BANCO o VIRTUAL",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("before the send the page lacks %q", want)
		}
	}
	if strings.Contains(body, "TARJETA") {
		t.Errorf("the page suggests TARJETA for a sale, which POST /venta refuses")
	}
	if a := b.send(page); a.status != http.StatusSeeOther {
		t.Fatalf("send: %d\n%s", a.status, a.body)
	}
	b.waitSent(page)
	body = b.get(page).body
	if want := "No queda nada para enviar: 1 fila con errores (corríjala abajo), 5 filas ya enviadas, que no se reenvían."; !strings.Contains(body, want) {
		t.Errorf("after the send the page lacks %q", want)
	}
	if strings.Contains(body, "Importe a facturar") {
		t.Errorf("after the send the page still offers an amount to invoice")
	}
}

// TestMoney: amounts as Argentina writes them, whatever the source.
func TestMoney(t *testing.T) {
	tests := []struct {
		in   string
		l    msg.Lang
		want string
	}{
		{"1000.5", msg.ES, "$ 1.000,50"},
		{"1234567.891", msg.ES, "$ 1.234.567,89"},
		{"0.05", msg.ES, "$ 0,05"},
		{"-12", msg.ES, "$ -12,00"},
		{"1000.5", msg.EN, "$ 1,000.50"},
	}
	for _, tc := range tests {
		d, err := nxapi.ParseDecimal(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := money(d, tc.l); got != tc.want {
			t.Errorf("money(%s, %s) = %q, want %q", tc.in, tc.l, got, tc.want)
		}
	}
}

// TestAmountsInArgentineFormat: the table shows amounts as Argentina
// writes them whatever the file wrote (a CSV's 5300.50, a workbook's raw
// 899.99), quantities without decimals, and a cell with an error as typed
// (its fix field holds what the file has).
func TestAmountsInArgentineFormat(t *testing.T) {
	b := newBed(t, bedOptions{})
	for _, sample := range []string{"ventas.csv", "demo.xlsx"} {
		page := b.uploadSample(sample)
		body := b.get(page).body
		switch sample {
		case "ventas.csv":
			for _, want := range []string{"<td>5.300,50</td>", "<td>12.000,00</td>", "<td>1.500,00</td>", "<td>899,99</td>"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the table lacks %s", sample, want)
				}
			}
			for _, bad := range []string{"<td>5300.50</td>", "<td>12000</td>", "<td>2,00</td>"} {
				if strings.Contains(body, bad) {
					t.Errorf("%s: the table shows %s", sample, bad)
				}
			}
		case "demo.xlsx":
			if regexp.MustCompile(`<td>\d+\.\d{1,2}</td>`).MatchString(body) {
				t.Errorf("%s: an amount is shown with a decimal point: %s", sample, regexp.MustCompile(`<td>\d+\.\d{1,2}</td>`).FindString(body))
			}
		}
	}
	tests := []struct {
		in   string
		dec  int
		l    msg.Lang
		want string
	}{
		{"1000.5", 2, msg.ES, "1.000,50"},
		{"2", 0, msg.ES, "2"},
		{"1234567.125", 2, msg.ES, "1.234.567,125"},
		{"-0.5", 2, msg.EN, "-0.50"},
	}
	for _, tc := range tests {
		d, _ := nxapi.ParseDecimal(tc.in)
		if got := number(d, tc.dec, tc.l); got != tc.want {
			t.Errorf("number(%s, %d, %s) = %q, want %q", tc.in, tc.dec, tc.l, got, tc.want)
		}
	}
}

// TestErrorsFileLinkedToItsOriginal: the errors file a send wrote, fixed
// and uploaded again, is linked to the upload it came from (each names the
// other, in the import and the history); once sent, the original says the
// row was fixed and sent, and nothing is left to send of it.
func TestErrorsFileLinkedToItsOriginal(t *testing.T) {
	b := newBed(t, bedOptions{})
	data, err := os.ReadFile(filepath.Join("..", "samples", "ventas.csv"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("12600,VIRTUAL"), []byte("12600,TRUEQUE"), 1)
	a := b.upload("ventas.csv", data)
	original := a.location
	if a := b.send(original); a.status != http.StatusSeeOther {
		t.Fatalf("send: %d\n%s", a.status, a.body)
	}
	b.waitSent(original)
	id := strings.TrimPrefix(original, "/u/")
	u := b.srv.uploads.get(id)
	name := ""
	for _, r := range listReports(u.reportDir()) {
		if strings.HasSuffix(r, ".errors.csv") {
			name = r
		}
	}
	if name == "" {
		t.Fatalf("the send wrote no errors.csv: %v", listReports(u.reportDir()))
	}
	errs := b.get(original + "/files/" + name)
	if errs.status != http.StatusOK || !strings.Contains(errs.body, "TRUEQUE") {
		t.Fatalf("the errors file: %d\n%s", errs.status, errs.body)
	}
	fixed := strings.Replace(errs.body, "TRUEQUE", "VIRTUAL", 1)
	a = b.upload(name, []byte(fixed))
	if a.status != http.StatusSeeOther {
		t.Fatalf("upload of the errors file: %d\n%s", a.status, a.body)
	}
	copyPage := a.location
	if body := b.get(copyPage).body; !strings.Contains(body, `id="errors-of"`) || !strings.Contains(body, `href="`+original+`">ventas.csv</a>`) {
		t.Fatalf("the errors file's import does not name its original")
	}
	if a := b.send(copyPage); a.status != http.StatusSeeOther {
		t.Fatalf("send of the errors file: %d\n%s", a.status, a.body)
	}
	b.waitSent(copyPage)
	body := b.get(original).body
	for _, want := range []string{
		`id="fixed-in"`, `href="` + copyPage + `">` + name + `</a>`,
		"Según el diario: 4 ventas creadas.",
		"Corregida en su archivo de errores y enviada",
		"No queda nada para enviar: 6 filas ya enviadas, que no se reenvían.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the original's import lacks %q", want)
		}
	}
	if h := b.get("/history").body; !strings.Contains(h, "Sus errores se corrigieron en") || !strings.Contains(h, "Archivo de errores corregido de") {
		t.Errorf("the history does not link the two")
	}
}
