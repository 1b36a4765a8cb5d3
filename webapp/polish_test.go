package webapp

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// TestImportPageListsSendsNewestFirst: the import page lists an upload's
// sends newest first, as the history does.
func TestImportPageListsSendsNewestFirst(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	for range 2 {
		if a := b.send(page); a.status != http.StatusSeeOther {
			t.Fatalf("send: %d\n%s", a.status, a.body)
		}
		b.waitSent(page)
	}
	for _, p := range []string{page, "/history"} {
		body := b.get(p).body
		first, second := strings.Index(body, "0 solicitudes"), strings.Index(body, "4 solicitudes")
		if first < 0 || second < 0 || first > second {
			t.Errorf("%s: the second send (0 solicitudes) at %d is not listed before the first (4 solicitudes) at %d", p, first, second)
		}
	}
}

// TestProgressHeadingSaysTheSendEnded: once a send ended, its progress page
// no longer says "Enviando": it says the send finished (or was stopped, see
// TestStopSettlesInFlight), in its heading and its title.
func TestProgressHeadingSaysTheSendEnded(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	a := b.get(page + "/send")
	if strings.Contains(a.body, "Enviando") || !strings.Contains(a.body, `<h1 id="send-heading">Envío de ventas.csv terminado</h1>`) ||
		!strings.Contains(a.body, "<title>Envío de ventas.csv terminado") {
		t.Errorf("progress page after the end:\n%s", a.body)
	}
	if a := b.get(page + "/events"); !strings.Contains(a.body, `"heading":"Envío de ventas.csv terminado"`) {
		t.Errorf("the done event does not carry the heading:\n%s", a.body)
	}
}

// TestFixUpdatesThePlan: the answer to a fix in place carries the plan
// again, swapped out of band, so that the line at the top ("13 filas → 12
// ventas (N con errores)") agrees with the table without a reload.
func TestFixUpdatesThePlan(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("errores.csv")
	if a := b.get(page); !strings.Contains(a.body, "13 filas → 12 ventas (11 con errores)") {
		t.Fatalf("plan before the fix:\n%s", a.body)
	}
	a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"11"}, "value": {"1000"}})
	plan := regexp.MustCompile(`(?s)<section [^>]*id="plan" hx-swap-oob="true">(.*?)</section>`).FindStringSubmatch(a.body)
	if a.status != http.StatusOK || plan == nil {
		t.Fatalf("fix: %d, want the plan out of band:\n%s", a.status, a.body)
	}
	for _, want := range []string{"13 filas → 12 ventas (10 con errores)", "1 celda corregida"} {
		if !strings.Contains(plan[1], want) {
			t.Errorf("the plan sent with the fix lacks %q:\n%s", want, plan[1])
		}
	}
}

// fix posts a fix in place as htmx does.
func (b *bed) fix(page string, form url.Values) answer {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+page+"/cells", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	return b.do(req)
}

// TestPageHintsPointAtThePage: where the command line would send the user
// to a terminal (nxbatch catalog pull/show, --max-errors, "el informe"),
// the page points at its own controls; the command line keeps its words.
func TestPageHintsPointAtThePage(t *testing.T) {
	b := newBed(t, bedOptions{maxErrors: 2, workers: 1})
	// A catalog never fetched: the refresh button, not a command.
	a := b.get("/catalogs")
	if strings.Contains(a.body, "nxbatch catalog") || !strings.Contains(a.body, "Para descargarlo use «Actualizar desde la API», arriba") {
		t.Errorf("the catalogs page sends the user to a terminal:\n%s", a.body)
	}
	// A row error: the Catálogos page, not `nxbatch catalog show`.
	csv := "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n" +
		"90001,a@example.com,105,10,1,10,0,0,0,10,DEPOSITO_BANCO\n"
	page := b.upload("banco.csv", []byte(csv)).location
	a = b.get(page)
	if strings.Contains(a.body, "nxbatch catalog show") || !strings.Contains(a.body, "indique la cuenta bancaria (vea las cuentas en Catálogos y plantillas, arriba)") {
		t.Errorf("a row error sends the user to a terminal:\n%s", a.body)
	}
	// The rejection limit: the page's limit and its Informes, not
	// --max-errors and "el informe".
	stock := "depositoId,motivoId,tipo,fecha,detalle,depositoDosId,articulos.articuloId,articulos.colorId,articulos.talleId,articulos.cantidad\n"
	for i := range 4 {
		// A warehouse the ERP does not have: the API rejects it (an
		// unknown article is now held back before sending).
		stock += fmt.Sprintf("%d,1,INGRESO_STOCK,2026-11-20,Recuento %d,,105,,,1\n", 99990+i, i)
	}
	page = b.upload("rechazos.csv", []byte(stock)).location
	b.send(page)
	b.waitSent(page)
	for _, p := range []string{page + "/send", page + "/result", page, "/history"} {
		a := b.get(p)
		if strings.Contains(a.body, "--max-errors") || strings.Contains(a.body, "en el informe") {
			t.Errorf("%s speaks of --max-errors or \"el informe\":\n%s", p, a.body)
		}
	}
	if a := b.get(page + "/send"); !strings.Contains(a.body, "se detuvo el envío al llegar al límite de rechazos seguidos (2, el límite con que se inició esta página): revise el motivo en las filas rechazadas del resultado, o en los Informes") {
		t.Errorf("the stop for the rejection limit does not point at the page:\n%s", a.body)
	}
	if a := b.get(page + "/result"); !strings.Contains(a.body, "no enviado: el envío se detuvo al llegar al límite de rechazos seguidos (2); corrija el motivo de los rechazos y vuelva a enviar") {
		t.Errorf("the rows left by the rejection limit do not say it as the page does:\n%s", a.body)
	}
	// The command line's words are unchanged.
	if got := msg.New("run.maxerrors", 2).In(msg.ES); !strings.Contains(got, "--max-errors") {
		t.Errorf("the command line's message changed: %q", got)
	}
}

// TestCatalogHeadersInEnglish: the catalogs page in English names the
// payment types' columns in English, not "valid for venta".
func TestCatalogHeadersInEnglish(t *testing.T) {
	b := newBed(t, bedOptions{})
	b.post("/lang", url.Values{"lang": {"en"}, "back": {"/"}})
	b.uploadSample("ventas.csv") // fetches the payment types
	a := b.get("/catalogs")
	if strings.Contains(a.body, "for venta") || strings.Contains(a.body, "for facturar") ||
		!strings.Contains(a.body, `<th scope="col">usable in sales</th><th scope="col">usable to invoice presales</th>`) {
		t.Errorf("English catalog headers:\n%s", a.body)
	}
	b.post("/lang", url.Values{"lang": {"es"}, "back": {"/"}})
	if a := b.get("/catalogs"); !strings.Contains(a.body, `<th scope="col">sirve para ventas</th><th scope="col">sirve para facturar preventas</th>`) {
		t.Errorf("Spanish catalog headers:\n%s", a.body)
	}
}

// TestCatalogRefreshSpeaksThePagesWords: what a refresh says names the
// catalogs as the page does (not depositos, puntos-venta), gives ages in
// words (not 3m0s), and the motivos' timestamps read dd/mm/yyyy hh:mm.
func TestCatalogRefreshSpeaksThePagesWords(t *testing.T) {
	b := newBed(t, bedOptions{})
	b.uploadSample("ventas.csv") // fetches the payment methods
	time.Sleep(time.Second)      // the scaled parameter window (0.6 s) passes
	b.srv.now = func() time.Time { return time.Now().Add(3 * time.Minute) }
	a := b.post("/catalogs/refresh", nil)
	if a.status == http.StatusSeeOther {
		a = b.get(a.location)
	}
	notes := regexp.MustCompile(`(?s)<ul class="notice" role="status">(.*?)</ul>`).FindStringSubmatch(a.body)
	if notes == nil {
		t.Fatalf("the refresh says nothing:\n%s", a.body)
	}
	for _, want := range []string{"Motivos de stock: actualizado desde la API.", "Depósitos: no se descargó y no hay copia guardada: la API permite una consulta de catálogos por minuto; se podrá pedir a las ",
		"Puntos de venta: no se descargó", "Medios de pago: queda la copia descargada hace 3 minutos; no se volvió a descargar: la API permite"} {
		if !strings.Contains(notes[1], want) {
			t.Errorf("the refresh's notes lack %q:\n%s", want, notes[1])
		}
	}
	if bad := regexp.MustCompile(`\b(medios-pago|motivos|depositos|config|puntos-venta|empleados)\b|\d+m\d+s|\d+(\.\d+)?s\b`).FindString(notes[1]); bad != "" {
		t.Errorf("the refresh's notes say %q, program output:\n%s", bad, notes[1])
	}
	if strings.Contains(a.body, "2026-01-05T09:00:00") || !strings.Contains(a.body, "<td>05/01/2026 09:00</td>") {
		t.Errorf("the motivos' timestamps are not written as dates:\n%s", a.body)
	}
}

// TestPostsRedirectSoReloadsDoNotRepost: a refresh of the catalogs, a
// refused upload and a refused send answer with a redirect to a page that
// says what happened (POST-redirect-GET): reloading it shows the same
// words and posts nothing again.
func TestPostsRedirectSoReloadsDoNotRepost(t *testing.T) {
	b := newBed(t, bedOptions{})
	a := b.post("/catalogs/refresh", nil)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/catalogs?aviso=") {
		t.Fatalf("refresh: %d %q, want a redirect to the catalogs page", a.status, a.location)
	}
	first := b.get(a.location)
	if first.status != http.StatusOK || !strings.Contains(first.body, "Medios de pago: actualizado desde la API.") {
		t.Fatalf("the catalogs page after a refresh does not say what it did:\n%s", first.body)
	}
	if again := b.get(a.location); !strings.Contains(again.body, "Medios de pago: actualizado desde la API.") {
		t.Errorf("a reload of the catalogs page lost what the refresh did")
	}
	if plain := b.get("/catalogs"); strings.Contains(plain.body, `class="notice"`) {
		t.Errorf("the catalogs page without a notice shows one")
	}

	a = b.upload("ventas.xlsx", []byte("not a workbook"))
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/?aviso=") {
		t.Fatalf("a refused upload: %d %q, want a redirect to the upload page", a.status, a.location)
	}
	if h := b.get(a.location); h.status != http.StatusOK || !strings.Contains(h.body, `id="upload-refused"`) ||
		!strings.Contains(h.body, "no es un archivo .xlsx válido") || !strings.Contains(h.body, `id="file"`) {
		t.Errorf("the upload page after a refused upload:\n%s", h.body)
	}
	if a := b.get("/?aviso=nada"); strings.Contains(a.body, `id="upload-refused"`) {
		t.Errorf("an unknown notice shows something")
	}
}

// TestCountsHaveThousandsSeparators: every count the page shows is written
// with the language's thousands separator (1.200 filas, 1,200 rows), as the
// upload limit already was (300.000 filas); ids and row numbers are not.
func TestCountsHaveThousandsSeparators(t *testing.T) {
	b := newBed(t, bedOptions{})
	var csv strings.Builder
	csv.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for i := range 1200 {
		total := "10"
		if i == 0 {
			total = "11" // one error, so that a row number shows
		}
		csv.WriteString(fmt.Sprintf("%d,a@example.com,105,10,1,10,0,0,0,%s,EFECTIVO\n", 100001+i, total))
	}
	page := b.upload("muchas.csv", []byte(csv.String())).location
	a := b.get(page)
	for _, want := range []string{"1.200 filas → 1.200 ventas (1 con errores)", "1.199 válidas", "Página 1 de 24 (1.200 filas)", "<span>Página 1 de 24</span>", `data-row="2"`, "<td>100001</td>"} {
		if !strings.Contains(a.body, want) {
			t.Errorf("import page lacks %q", want)
		}
	}
	b.send(page)
	b.waitSent(page)
	if a := b.get(page + "/send"); !strings.Contains(a.body, "Solicitudes: 1.199 de 1.199") || !strings.Contains(a.body, "1.199 enviadas y aceptadas") {
		t.Errorf("progress page without separators:\n%s", a.body)
	}
	if a := b.get(page); !strings.Contains(a.body, "1.199 solicitudes; 1.199 enviadas y aceptadas, 1 con errores.") {
		t.Errorf("the send's line without separators:\n%s", a.body)
	}
	b.post("/lang", url.Values{"lang": {"en"}, "back": {"/"}})
	if a := b.get(page); !strings.Contains(a.body, "1,200 rows → 1,200 sales (1 with errors)") || !strings.Contains(a.body, "1,199 requests") {
		t.Errorf("English import page without separators:\n%s", a.body)
	}
	b.post("/lang", url.Values{"lang": {"es"}, "back": {"/"}})
	small := newBed(t, bedOptions{limits: Limits{MaxRows: 1000}})
	a = small.upload("muchas.csv", []byte(csv.String()))
	if a := small.get(a.location); !strings.Contains(a.body, "El archivo tiene 1.200 filas, más que las 1.000 que acepta la página") {
		t.Errorf("the row limit's refusal without separators:\n%s", a.body)
	}
}

// TestSendStopsOnACatalogRefusedWith401: the token refused while reading
// the catalogs stops the send before anything leaves, as run does, and
// the page says why; the rows stay to send.
func TestSendStopsOnACatalogRefusedWith401(t *testing.T) {
	b := newBed(t, bedOptions{refused: true})
	page := b.uploadSample("ventas.csv")
	b.send(page)
	b.waitSent(page)
	st := b.sb.Server.State()
	// The sandbox checks the token before it routes: a refused request is
	// counted under "<unknown>".
	if got := st.Requests["POST <unknown>"]; len(got) > 0 {
		t.Errorf("POSTs were sent with a refused token (%v); want nothing sent", got)
	}
	if got := st.Requests["GET <unknown>"][http.StatusUnauthorized]; got < 2 {
		t.Fatalf("%d GETs refused (%v): the send did not read its catalog, the test proves nothing", got, st.Requests)
	}
	if a := b.get(page + "/send"); !strings.Contains(a.body, "rechazó el token") {
		t.Errorf("the progress page does not say the token was refused:\n%s", a.body)
	}
}
