package webapp

import (
	"context"
	"crypto/sha256"
	"errors"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/profiles"
)

// TestPagesSpeakBothLanguages: every page answers, in Spanish by default
// and in English once the switch is used.
func TestPagesSpeakBothLanguages(t *testing.T) {
	b := newBed(t, bedOptions{})
	pages := []struct {
		path   string
		es, en string
	}{
		{"/", "Importar una planilla", "Import a spreadsheet"},
		{"/history", "Historial de importaciones", "Import history"},
		{"/catalogs", "Catálogos de la empresa", "Refresh from the API"},
	}
	for _, p := range pages {
		if a := b.get(p.path); a.status != http.StatusOK || !strings.Contains(a.body, p.es) {
			t.Errorf("GET %s: %d, want Spanish %q", p.path, a.status, p.es)
		}
	}
	a := b.post("/lang", url.Values{"lang": {"en"}, "back": {"/history"}})
	if a.status != http.StatusSeeOther || a.location != "/history" {
		t.Fatalf("switch: %d %q", a.status, a.location)
	}
	for _, p := range pages {
		if a := b.get(p.path); a.status != http.StatusOK || !strings.Contains(a.body, p.en) || !strings.Contains(a.body, `lang="en"`) {
			t.Errorf("GET %s in English: %d, want %q", p.path, a.status, p.en)
		}
	}
	// The switch never sends anyone elsewhere.
	if a := b.post("/lang", url.Values{"lang": {"es"}, "back": {"//evil.example/x"}}); a.location != "/" {
		t.Errorf("switch back to another site: location %q, want /", a.location)
	}
}

// TestStaticAndTemplates: the vendored script with its license, and a
// template per kind.
func TestStaticAndTemplates(t *testing.T) {
	b := newBed(t, bedOptions{})
	for _, p := range []string{"/static/htmx.min.js", "/static/htmx.LICENSE.txt", "/static/app.js", "/static/style.css"} {
		if a := b.get(p); a.status != http.StatusOK || len(a.body) < 100 {
			t.Errorf("GET %s: %d, %d bytes", p, a.status, len(a.body))
		}
	}
	for _, k := range []string{"venta", "facturar", "stock"} {
		a := b.get("/templates/" + k)
		if a.status != http.StatusOK || !strings.HasPrefix(a.body, "PK") {
			t.Errorf("template %s: %d, not a workbook", k, a.status)
		}
	}
	if a := b.get("/templates/otro"); a.status != http.StatusNotFound {
		t.Errorf("template of an unknown kind: %d", a.status)
	}
}

// cellRe finds an invalid cell's fix input and its message.
var cellRe = regexp.MustCompile(`(?s)<td class="bad" aria-invalid="true">.*?id="(fix-(\d+)-(\d+))" name="value" value="([^"]*)".*?<span id="fix-\d+-\d+-msg" class="issue">([^<]*)</span>`)

// TestImportFixSendResult walks the whole path: upload, plan, errors on
// their cells, a fix revalidated at once (the original untouched, the fixed
// version beside it), a send, the result with the sandbox's ids and its
// downloads, and a second send that sends nothing and says why.
func TestImportFixSendResult(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("errores.csv")
	a := b.get(page)
	for _, want := range []string{"13 filas → 12 ventas (11 con errores)", "Tiempo mínimo", "Ids verificados contra medios de pago", "Solo errores (12)"} {
		if !strings.Contains(a.body, want) {
			t.Errorf("import page lacks %q", want)
		}
	}
	cells := cellRe.FindAllStringSubmatch(a.body, -1)
	if len(cells) < 10 {
		t.Fatalf("found %d invalid cells, want them marked with their messages:\n%s", len(cells), a.body)
	}
	// Row 2 (index 0): the total does not add up; its message is on the
	// total cell.
	first := cells[0]
	if first[2] != "0" || first[4] != "1100" || !strings.Contains(first[5], "1.100,00") {
		t.Fatalf("first invalid cell = row %s col %s value %q message %q, want the total 1100 of the first row", first[2], first[3], first[4], first[5])
	}
	id := strings.TrimPrefix(page, "/u/")
	upDir := filepath.Join(filepath.Dir(b.journal), "uploads", id)
	orig, _ := os.ReadFile(filepath.Join(upDir, "original", "errores.csv"))
	sample, _ := os.ReadFile(filepath.Join("..", "samples", "errores.csv"))
	if sha256.Sum256(orig) != sha256.Sum256(sample) {
		t.Fatal("the kept original is not the upload")
	}

	// Fix the total: the row is valid at once.
	fix := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {first[3]}, "value": {"1000"}}
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+page+"/cells", strings.NewReader(fix.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	a = b.do(req)
	if a.status != http.StatusOK || !strings.Contains(a.body, "Fila 2 corregida: ahora está válida") || strings.Contains(a.body, "<html") {
		t.Fatalf("fix: %d, want the preview fragment saying row 2 is valid:\n%s", a.status, a.body)
	}
	if a := b.get(page); !strings.Contains(a.body, "1 celda corregida (se envía") {
		t.Errorf("the plan after one fix does not say \"1 celda corregida\":\n%s", a.body)
	}
	if a := b.post(page+"/cells", fix); a.status != http.StatusConflict {
		t.Errorf("a fix against an old version: %d, want 409", a.status)
	}
	orig2, _ := os.ReadFile(filepath.Join(upDir, "original", "errores.csv"))
	if sha256.Sum256(orig2) != sha256.Sum256(sample) {
		t.Error("the fix changed the original upload")
	}
	// The fixed version is written after the answer: whatever reads it
	// first brings it up to date.
	if err := b.srv.upToDate(context.Background(), b.srv.uploads.get(id)); err != nil {
		t.Fatal(err)
	}
	fixed, err := os.ReadFile(filepath.Join(upDir, "corregido", "errores.csv"))
	if err != nil || !strings.Contains(string(fixed), "80001;Total mal sumado;a@example.com;;105;1000;1;1000;0;0;0;1000;") {
		t.Fatalf("fixed version: %v\n%s", err, fixed)
	}

	// Only errors, paged on the server.
	a = b.get(page + "/rows?sheet=0&page=1&only=errores")
	if !strings.Contains(a.body, "Solo errores (11)") || strings.Contains(a.body, `data-row="2"`) {
		t.Errorf("errors filter still shows the fixed row 2, or miscounts")
	}
	if a := b.get(page + "/errors.xlsx"); a.status != http.StatusOK || !strings.HasPrefix(a.body, "PK") {
		t.Errorf("errors workbook: %d", a.status)
	}

	// Send: the two valid sales go, with the sandbox's ids.
	a = b.send(page)
	if a.status != http.StatusSeeOther || a.location != page+"/send" {
		t.Fatalf("send: %d %s\n%s", a.status, a.location, a.body)
	}
	b.waitSent(page)
	if a := b.get(page + "/send"); !strings.Contains(a.body, "2 enviadas y aceptadas") {
		t.Errorf("progress page after the end lacks the counts:\n%s", a.body)
	}
	a = b.get(page + "/result")
	if !regexp.MustCompile(`factura \d+, número 80001, punto de venta \d+`).MatchString(a.body) ||
		!regexp.MustCompile(`factura \d+, número 80011`).MatchString(a.body) {
		t.Errorf("result lacks the ids of 80001 and 80011:\n%s", a.body)
	}
	for _, f := range []string{"errores.result.xlsx", "errores.result.csv", "errores.errors.csv", "errores.summary.json"} {
		if !strings.Contains(a.body, "/files/"+f) {
			t.Errorf("result page does not offer %s", f)
			continue
		}
		if d := b.get(page + "/files/" + f); d.status != http.StatusOK || !strings.Contains(d.header.Get("Content-Disposition"), "attachment") {
			t.Errorf("download %s: %d", f, d.status)
		}
	}
	x, err := excelize.OpenFile(filepath.Join(upDir, "reports", "errores.result.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, _ := x.GetRows(x.GetSheetList()[0])
	ok := 0
	for _, r := range rows[1:] {
		if len(r) > 15 && r[15] == "enviada" { // the workbook says statuses in words
			ok++
		}
	}
	if ok != 2 {
		t.Errorf("result.xlsx has %d rows \"enviada\", want 2", ok)
	}

	// A second send sends nothing and says why.
	before := len(b.sb.Server.State().Vouchers)
	b.send(page)
	b.waitSent(page)
	a = b.get(page + "/result")
	if !strings.Contains(a.body, "No se envió nada") || !strings.Contains(a.body, "2 ya enviadas antes") {
		t.Errorf("second send does not say why it sent nothing:\n%s", a.body)
	}
	if after := len(b.sb.Server.State().Vouchers); after != before {
		t.Errorf("second send created %d vouchers", after-before)
	}
	if a := b.get("/history"); !strings.Contains(a.body, "errores.csv") || !strings.Contains(a.body, "errores.result.xlsx") {
		t.Errorf("history lacks the import and its downloads")
	}
}

// TestRefusals: what the page refuses, and how.
func TestRefusals(t *testing.T) {
	b := newBed(t, bedOptions{limits: Limits{MaxBytes: 64 << 10, MaxRows: 5}})
	sample, _ := os.ReadFile(filepath.Join("..", "samples", "errores.csv"))
	page := ""
	tests := []struct {
		name   string
		req    func() *http.Request
		status int
		want   string
	}{
		{"cross-origin POST", func() *http.Request {
			r := b.uploadRequest("errores.csv", sample)
			r.Header.Set("Sec-Fetch-Site", "cross-site")
			r.Header.Set("Origin", "https://evil.example")
			return r
		}, http.StatusForbidden, "vino de otro sitio"},
		{"cross-origin resolve without Sec-Fetch-Site", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, b.ts.URL+"/journal/resolve", strings.NewReader("key=a/venta/1&as=ok&note=x"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.Header.Set("Origin", "http://evil.example")
			return r
		}, http.StatusForbidden, "vino de otro sitio"},
		{"a DNS name that is not ours (rebinding)", func() *http.Request {
			r, _ := http.NewRequest(http.MethodGet, b.ts.URL+"/", nil)
			r.Host = "evil.example:8080"
			return r
		}, http.StatusMisdirectedRequest, "no es el de este servidor"},
		{"oversized upload", func() *http.Request {
			return b.uploadRequest("big.csv", append(sample, make([]byte, 70<<10)...))
		}, http.StatusRequestEntityTooLarge, "supera el máximo de 0 MB"},
		{"a binary renamed .xlsx", func() *http.Request {
			return b.uploadRequest("ventas.xlsx", []byte("\x7fELF\x02\x01\x01\x00binary, not a workbook"))
		}, http.StatusSeeOther, "no es un archivo .xlsx válido"},
		{"too many rows", func() *http.Request { return b.uploadRequest("errores.csv", sample) },
			http.StatusSeeOther, "más que las 5 que acepta"},
		{"an upload that does not exist", func() *http.Request {
			r, _ := http.NewRequest(http.MethodGet, b.ts.URL+"/u/0123456789abcdef0123456789abcdef", nil)
			return r
		}, http.StatusNotFound, "no existe"},
		{"a report name that climbs out", func() *http.Request {
			r, _ := http.NewRequest(http.MethodGet, b.ts.URL+"/history/0/..%2F..%2Fjournal", nil)
			return r
		}, http.StatusNotFound, ""},
		{"no file", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, b.ts.URL+"/uploads", strings.NewReader(""))
			return r
		}, http.StatusSeeOther, "No llegó ningún archivo"},
		{"resolve without a note", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, b.ts.URL+"/journal/resolve", strings.NewReader("key=a/venta/1&as=ok&note="))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}, http.StatusBadRequest, "Escriba qué verificó"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := b.do(tc.req())
			if a.status == http.StatusSeeOther {
				// A refused upload shows the upload page again, saying
				// why (POST-redirect-GET: a reload does not post again).
				if !strings.HasPrefix(a.location, "/?aviso=") {
					t.Fatalf("a refused upload goes to %q", a.location)
				}
				a.body = b.get(a.location).body
			}
			if a.status != tc.status || !strings.Contains(a.body, tc.want) {
				t.Errorf("%d, want %d with %q:\n%s", a.status, tc.status, tc.want, a.body)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(b.journal), "uploads"))
	if len(entries) != 0 {
		t.Errorf("refused uploads left %d folders behind", len(entries))
	}
	_ = page
}

// TestSendWhileCLIHoldsJournal: while another process (here, an open
// journal) holds the journal, a send is refused, clearly, and sends
// nothing; once it is free, the send goes.
func TestSendWhileCLIHoldsJournal(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	held, err := boltjournal.Open(b.journal, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := b.send(page)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, page+"?aviso=") {
		t.Fatalf("send while the journal is held: %d %s, want the import page again\n%s", a.status, a.location, a.body)
	}
	if a := b.get(a.location); !strings.Contains(a.body, "otro proceso de nxbatch") {
		t.Fatalf("send while the journal is held: the import page does not say why\n%s", a.body)
	}
	if n := len(b.sb.Server.State().Vouchers); n != 0 {
		t.Fatalf("%d vouchers created while the journal was held", n)
	}
	// The history still lists (the holder answers, or the page says why).
	if a := b.get("/history"); a.status != http.StatusOK {
		t.Errorf("history while held: %d", a.status)
	}
	held.Close()
	if a := b.send(page); a.status != http.StatusSeeOther {
		t.Fatalf("send once free: %d", a.status)
	}
	b.waitSent(page)
	if n := len(b.sb.Server.State().Vouchers); n != 4 {
		t.Errorf("%d vouchers, want the 4 sales", n)
	}
	// The page let go of the journal: a cron run can open it now.
	j, err := boltjournal.Open(b.journal, journal.Options{})
	if err != nil {
		t.Fatalf("journal still held after the send: %v", err)
	}
	j.Close()
}

// TestStopSettlesInFlight: the stop button stops like Ctrl-C: what is in
// flight ends ok, the rest is pending, and the reports say so.
func TestStopSettlesInFlight(t *testing.T) {
	b := newBed(t, bedOptions{latency: 150 * time.Millisecond, workers: 1})
	var csv strings.Builder
	csv.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for i := range 30 {
		csv.WriteString(strings.Join([]string{strconv.Itoa(90001 + i), "a@example.com", "105", "10", "1", "10", "0", "0", "0", "10", "EFECTIVO"}, ",") + "\n")
	}
	a := b.upload("muchas.csv", []byte(csv.String()))
	page := a.location
	b.send(page)
	time.Sleep(500 * time.Millisecond)
	// While the page sends, a CLI run (a cron job) is kept out by the
	// journal's lock: the two never submit at the same time.
	if j, err := boltjournal.Open(b.journal, journal.Options{}); !errors.Is(err, journal.ErrLocked) {
		if j != nil {
			j.Close()
		}
		t.Fatalf("a run during the page's send opened the journal: %v", err)
	}
	if a := b.post(page+"/stop", nil); a.status != http.StatusSeeOther {
		t.Fatalf("stop: %d", a.status)
	}
	b.waitSent(page)
	job := b.srv.jobOf(strings.TrimPrefix(page, "/u/"))
	job.mu.Lock()
	ok, pending := job.rows[pipeline.StatusOK], job.rows[pipeline.StatusPending]
	job.mu.Unlock()
	if ok == 0 || pending == 0 || ok+pending != 30 {
		t.Fatalf("after stop: %d ok, %d pending; want some of each, 30 in all", ok, pending)
	}
	if n := len(b.sb.Server.State().Vouchers); n != ok {
		t.Errorf("sandbox holds %d vouchers, the page says %d ok", n, ok)
	}
	if a := b.get(page + "/result"); !strings.Contains(a.body, "pendiente") {
		t.Errorf("result does not show the pending rows")
	}
	if a := b.get(page + "/send"); strings.Contains(a.body, "Enviando") || !strings.Contains(a.body, "Envío de muchas.csv detenido") {
		t.Errorf("the progress page after a stop does not say the send was stopped:\n%s", a.body)
	}
}

// TestEventsStream: the progress page's events end with "done".
func TestEventsStream(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("facturar.csv")
	b.send(page)
	a := b.get(page + "/events")
	if !strings.Contains(a.header.Get("Content-Type"), "text/event-stream") || !strings.Contains(a.body, "event: done") {
		t.Fatalf("events: %q\n%s", a.header.Get("Content-Type"), a.body)
	}
}

// foreign is a sales file whose headers are the accountant's own.
const foreign = "Nro Orden,Cliente,Correo,Articulo,Precio Unit,Cant,Subtotal,Desc,Recargo,Envio,Total Venta,Forma de Pago\n" +
	"81001,Ana,ana@example.com,105,1000,1,1000,0,0,0,1000,EFECTIVO\n"

// TestColumnsScreenSavesProfile: a file whose headers match no kind goes
// to the column screen, which proposes what it can; the chosen fields are
// saved as a profile, the file is validated with it, and the profile is
// offered again for the same headers.
func TestColumnsScreenSavesProfile(t *testing.T) {
	b := newBed(t, bedOptions{})
	a := b.upload("propio.csv", []byte(foreign))
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("upload of foreign headers: %d %s", a.status, a.location)
	}
	cols := a.location
	a = b.get(cols)
	// The CLI's matching proposes the leaves it knows (subtotal, envio...).
	for _, want := range []string{`<option value="subtotal" selected>`, `<option value="envio" selected>`, `<label for="col-0">Nro Orden</label>`} {
		if !strings.Contains(a.body, want) {
			t.Errorf("column screen lacks %s", want)
		}
	}
	form := url.Values{"kind": {"venta"}, "name": {"Mi sistema"},
		"c0": {"ordenId"}, "c1": {"usuario.nombre"}, "c2": {"usuario.email"}, "c3": {"productos.articuloId"},
		"c4": {"productos.precio"}, "c5": {"productos.cantidad"}, "c6": {"subtotal"}, "c7": {"descuento"},
		"c8": {"recargo"}, "c9": {"envio"}, "c10": {"total"}}
	if a := b.post(cols, form); a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "medioPago.tipo") {
		t.Fatalf("a mapping without a required field: %d, want it named:\n%s", a.status, a.body)
	} else if p := regexp.MustCompile(`(?s)id="columns-problems">(.*?)</div>`).FindStringSubmatch(a.body); p == nil ||
		strings.Contains(p[1], "--map") || !strings.Contains(p[1], "elija en la tabla") {
		t.Errorf("the column screen's problem does not say what to do on the screen: %q", p)
	}
	form.Set("c11", "medioPago.tipo")
	form.Set("c10", "subtotal")
	if a := b.post(cols, form); a.status != http.StatusUnprocessableEntity || !strings.Contains(a.body, "dos columnas") {
		t.Errorf("a field chosen twice: %d", a.status)
	}
	form.Set("c10", "total")
	a = b.post(cols, form)
	if a.status != http.StatusSeeOther || strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("save: %d %s\n%s", a.status, a.location, a.body)
	}
	if a := b.get(a.location); !strings.Contains(a.body, "1 fila → 1 venta (0 con errores)") || !strings.Contains(a.body, "Mi sistema") ||
		!strings.Contains(a.body, "Página 1 de 1 (1 fila)") {
		t.Errorf("import page after mapping:\n%s", a.body)
	}
	store := profiles.Store{Dir: profiles.DirIn(filepath.Dir(b.journal))}
	p, err := store.Load("Mi sistema")
	if err != nil || p.Columns["Nro Orden"] != "ordenId" {
		t.Fatalf("profile: %+v %v", p, err)
	}
	// The same headers again: the profile is applied by itself, the page
	// says so, and the column screen (the way back) still offers it.
	a = b.upload("propio2.csv", []byte(foreign))
	if a.status != http.StatusSeeOther || strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("the same headers again went to %d %s, want the import page", a.status, a.location)
	}
	page := b.get(a.location)
	if !strings.Contains(page.body, `id="auto-profile"`) || !strings.Contains(page.body, "Se aplicó automáticamente el perfil de columnas «Mi sistema»") ||
		!strings.Contains(page.body, "1 fila → 1 venta (0 con errores)") {
		t.Errorf("the import page does not say the profile was applied:\n%s", page.body)
	}
	if a := b.get(a.location + "/columns"); !strings.Contains(a.body, "Usar el perfil «Mi sistema»") {
		t.Errorf("the profile is not offered for the same headers")
	}
}

// TestColumnsInTheUsersWords: the column screen names every field in
// Spanish with its API path small, suggests fields for common Argentine
// headers, and asks about a header that could be two fields instead of
// matching it silently.
func TestColumnsInTheUsersWords(t *testing.T) {
	b := newBed(t, bedOptions{})
	a := b.upload("propio.csv", []byte("Nro Pedido,Importe,Forma de pago,Cuenta,Código,Cantidad,Precio\n1,10,EFECTIVO,3,105,1,10\n"))
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("upload: %d %s", a.status, a.location)
	}
	page := b.get(a.location).body
	selected := func(col int) string {
		m := regexp.MustCompile(`(?s)<select id="col-` + strconv.Itoa(col) + `".*?</select>`).FindString(page)
		if s := regexp.MustCompile(`<option value="([^"]*)" selected>`).FindStringSubmatch(m); s != nil {
			return s[1]
		}
		return "?"
	}
	for col, want := range map[int]string{0: "ordenId", 1: "total", 2: "medioPago.tipo", 3: "", 4: "productos.codigo"} {
		if got := selected(col); got != want {
			t.Errorf("column %d: %q selected, want %q", col, got, want)
		}
	}
	for _, want := range []string{
		`<option value="medioPago.tipo" selected>Forma de pago (obligatorio) · medioPago.tipo</option>`,
		`<small class="path"><code>medioPago.tipo</code> · sugerido por el nombre de la columna</small>`,
		`id="col-3-q"`, "¿«Cuenta» es «Cliente del ERP (id)» (entidadId) o «Cuenta bancaria» (medioPago.cuentaBancariaId)?",
		`id="header-row"`,
	} {
		if !strings.Contains(page, html.EscapeString(want)) && !strings.Contains(page, want) {
			t.Errorf("column screen lacks %s", want)
		}
	}
	if strings.Contains(page, `<option value="medioPago.tipo" selected>medioPago.tipo</option>`) {
		t.Error("a field is labelled with its API path only")
	}
}

// TestResolveUnknown: an unknown outcome is listed with what is known and
// resolved from the page, as journal resolve does.
func TestResolveUnknown(t *testing.T) {
	b := newBed(t, bedOptions{})
	j, err := boltjournal.Open(b.journal, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := journal.Key{Tenant: "t1", Kind: "venta", Business: "70001"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Source: "ventas.csv rows 2-3"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.Unknown, Message: "sin respuesta (timeout)"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	a := b.get("/history")
	for _, want := range []string{"70001", "ventas.csv filas 2-3", "sin respuesta (timeout)", `value="t1/venta/70001"`, "Qué muestra el ERP"} {
		if !strings.Contains(a.body, want) {
			t.Errorf("history lacks %q", want)
		}
	}
	a = b.post("/journal/resolve", url.Values{"key": {"t1/venta/70001"}, "as": {"ok"}, "note": {"visto en el ERP, factura 123"}})
	if a.status != http.StatusSeeOther {
		t.Fatalf("resolve: %d\n%s", a.status, a.body)
	}
	if a := b.get(a.location); !strings.Contains(a.body, "Resuelta t1/venta/70001 como ok") || strings.Contains(a.body, `value="t1/venta/70001"`) {
		t.Errorf("after resolve the page does not say so, or still offers it")
	}
	j, _ = boltjournal.Open(b.journal, journal.Options{})
	e, _, _ := j.Get(context.Background(), k)
	j.Close()
	if e.State != journal.OK || e.Note != "visto en el ERP, factura 123" {
		t.Errorf("journal entry after resolve: %s %q", e.State, e.Note)
	}
	if a := b.post("/journal/resolve", url.Values{"key": {"t1/venta/70001"}, "as": {"failed"}, "note": {"x"}}); a.status != http.StatusConflict {
		t.Errorf("resolving a settled entry: %d, want 409", a.status)
	}
}

// TestPasswordAndTokenNeverShown: with a password file every request asks
// for a login, and the owner gets in with it on the login form; the API
// token appears in no page, download or log line.
func TestPasswordAndTokenNeverShown(t *testing.T) {
	const canary = "CANARY-token-7f3a9"
	b := newBed(t, bedOptions{token: canary, password: "s3creta-y-larga", anonymous: true})
	if a := b.get("/"); a.status != http.StatusUnauthorized || a.header.Get("WWW-Authenticate") == "" || !strings.Contains(a.body, `id="login"`) {
		t.Fatalf("no password: %d\n%s", a.status, a.body)
	}
	if a := b.post("/login", url.Values{"user": {"owner"}, "password": {"s3creta-y-larga"}}); a.status != http.StatusSeeOther {
		t.Fatalf("login with the password file's password: %d\n%s", a.status, a.body)
	}
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	var seen strings.Builder
	for _, p := range []string{"/", page, page + "/result", page + "/send", "/history", "/catalogs", page + "/files/ventas.summary.json", page + "/files/ventas.result.csv"} {
		a := b.get(p)
		if a.status != http.StatusOK {
			t.Errorf("GET %s: %d", p, a.status)
		}
		seen.WriteString(a.body)
	}
	seen.WriteString(b.logs.String())
	if strings.Contains(seen.String(), canary) {
		t.Fatal("the token appears in a page, a download or the log")
	}
	if !strings.Contains(seen.String(), "enviadas y aceptadas") {
		t.Fatal("the send did not happen: the check proves nothing")
	}
	_ = filepath.WalkDir(filepath.Dir(b.journal), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), canary) {
				t.Errorf("the token is written in %s", p)
			}
		}
		return nil
	})
}

// TestUploadsOwnerOnly: the uploads folder and what is kept in it are the
// owner's alone.
func TestUploadsOwnerOnly(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	dir := filepath.Join(filepath.Dir(b.journal), "uploads")
	for _, p := range []string{dir, filepath.Join(dir, strings.TrimPrefix(page, "/u/")), filepath.Join(dir, strings.TrimPrefix(page, "/u/"), "original", "ventas.csv")} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: others can read it", p, st.Mode().Perm())
		}
	}
}

// TestTemplatesUseCatalogKeys: every sentence of the pages is a catalog
// key, with both languages.
func TestTemplatesUseCatalogKeys(t *testing.T) {
	re := regexp.MustCompile(`t \$?\.?Lang "([a-z][a-zA-Z0-9_.]+)"`)
	files, _ := fs.Glob(templateFS, "templates/*.html")
	n := 0
	for _, f := range files {
		b, _ := templateFS.ReadFile(f)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			n++
			if tx, ok := msg.Lookup(m[1]); !ok || tx.ES == "" || tx.EN == "" {
				t.Errorf("%s uses %q, not in the catalog with both languages", f, m[1])
			}
		}
	}
	if n < 50 {
		t.Fatalf("found only %d keys: the scan is broken", n)
	}
	for _, st := range []string{"ok", "skipped", "valid", "invalid", "rejected", "conflict", "unknown", "pending"} {
		if _, ok := msg.Lookup("web.st." + st); !ok {
			t.Errorf("status %s has no name on the page", st)
		}
	}
}

// TestFixKeepsTypedCells: a fix in a workbook keeps its other cells as they
// were typed. The demo's Stock sheet has a date cell; with a wrong tipo
// fixed in the page, the row is valid (the date is still a date, not its
// serial number as text) and the preview shows the date as a date.
func TestFixKeepsTypedCells(t *testing.T) {
	b := newBed(t, bedOptions{})
	x, err := excelize.OpenFile(filepath.Join("..", "samples", "demo.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if err := x.SetCellValue("Stock", "C2", "ENTRADA"); err != nil {
		t.Fatal(err)
	}
	buf, err := x.WriteToBuffer()
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	a := b.upload("demo-mal.xlsx", buf.Bytes())
	if a.status != http.StatusSeeOther {
		t.Fatalf("upload: %d\n%s", a.status, a.body)
	}
	page := a.location
	a = b.get(page + "?sheet=2&page=1")
	if !strings.Contains(a.body, "<td>22/11/2026</td>") || strings.Contains(a.body, "46348") {
		t.Errorf("the Stock sheet's date cell is not shown as a date:\n%s", a.body)
	}
	if a := b.get(page + "?sheet=1&page=1"); !strings.Contains(a.body, "<td>VERDADERO</td>") || strings.Contains(a.body, "<td>1</td>\n                <td>TARJETA") {
		t.Errorf("the Facturar sheet's boolean cell is not shown as the reports write it:\n%s", a.body)
	}
	cells := cellRe.FindAllStringSubmatch(a.body, -1)
	if len(cells) != 1 || cells[0][4] != "ENTRADA" {
		t.Fatalf("want one invalid cell, tipo ENTRADA: %v", cells)
	}
	fix := url.Values{"sheet": {"2"}, "page": {"1"}, "version": {"0"}, "row": {cells[0][2]}, "col": {cells[0][3]}, "value": {"INGRESO_STOCK"}}
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+page+"/cells", strings.NewReader(fix.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	a = b.do(req)
	if a.status != http.StatusOK || !strings.Contains(a.body, "Fila 2 corregida: ahora está válida") {
		t.Fatalf("fix of tipo: %d, want row 2 valid:\n%s", a.status, a.body)
	}
	if a := b.get(page); !strings.Contains(a.body, "2 filas → 1 movimiento de stock (0 filas con errores)") ||
		!strings.Contains(a.body, "3 filas → 2 ventas (0 con errores)") || !strings.Contains(a.body, "2 preventas a facturar (0 con errores)") {
		t.Errorf("after the fix, the workbook's other cells changed meaning:\n%s", a.body)
	}
}

// TestColumnsScreenSkipsTitleLine: the column screen shows the header
// below a title line, as the import reads it, and the file validates with
// the columns chosen there.
func TestColumnsScreenSkipsTitleLine(t *testing.T) {
	b := newBed(t, bedOptions{})
	a := b.upload("titulo.csv", []byte("Ventas de noviembre - sucursal centro\n"+foreign))
	if a.status != http.StatusSeeOther || !strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("upload of foreign headers under a title: %d %s", a.status, a.location)
	}
	cols := a.location
	if a := b.get(cols); !strings.Contains(a.body, `<label for="col-0">Nro Orden</label>`) || strings.Contains(a.body, "sucursal centro</label>") {
		t.Fatalf("column screen does not show the header under the title:\n%s", a.body)
	}
	form := url.Values{"kind": {"venta"}, "name": {"Con titulo"},
		"c0": {"ordenId"}, "c1": {"usuario.nombre"}, "c2": {"usuario.email"}, "c3": {"productos.articuloId"},
		"c4": {"productos.precio"}, "c5": {"productos.cantidad"}, "c6": {"subtotal"}, "c7": {"descuento"},
		"c8": {"recargo"}, "c9": {"envio"}, "c10": {"total"}, "c11": {"medioPago.tipo"}}
	a = b.post(cols, form)
	if a.status != http.StatusSeeOther || strings.HasSuffix(a.location, "/columns") {
		t.Fatalf("save: %d %s\n%s", a.status, a.location, a.body)
	}
	if a := b.get(a.location); !strings.Contains(a.body, "1 fila → 1 venta (0 con errores)") {
		t.Errorf("import page after mapping:\n%s", a.body)
	}
}
