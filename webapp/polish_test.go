package webapp

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestImportPageListsSendsNewestFirst: the import page lists an upload's
// sends newest first, as the history does.
func TestImportPageListsSendsNewestFirst(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	for range 2 {
		if a := b.post(page+"/send", nil); a.status != http.StatusSeeOther {
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
	b.post(page+"/send", nil)
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
