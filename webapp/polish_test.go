package webapp

import (
	"net/http"
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
