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
