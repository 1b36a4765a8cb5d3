package webapp

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSendAsksToConfirm: "Enviar" opens a confirmation that says what
// leaves (the count, the amount in es-AR), what stays behind and why;
// nothing is sent without its token, nor with the token of a file that
// changed since; the token of the file as it stands sends.
func TestSendAsksToConfirm(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("errores.csv")
	id := strings.TrimPrefix(page, "/u/")
	if a := b.get(page); !strings.Contains(a.body, `action="`+page+`/confirm"`) || strings.Contains(a.body, `action="`+page+`/send"`) {
		t.Fatalf("the import's Enviar does not open the confirmation:\n%s", a.body)
	}
	c := b.get(page + "/confirm")
	for _, want := range []string{"¿Enviar errores.csv?", "Qué se envía", "<li>1 venta</li>", "Importe a facturar: $ 1.000,00",
		"Qué queda sin enviar, y por qué", "<li>12 filas con errores: no se envían hasta corregirlas (vuelva al archivo para hacerlo)</li>", `id="confirm-send"`, "Volver sin enviar"} {
		if !strings.Contains(c.body, want) {
			t.Errorf("the confirmation lacks %q", want)
		}
	}
	token := confirmToken.FindStringSubmatch(c.body)
	if c.status != http.StatusOK || token == nil {
		t.Fatalf("confirmation: %d\n%s", c.status, c.body)
	}
	// Fix the first row's total after confirming: the token is stale.
	if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"11"}, "value": {"1000"}}); a.status != http.StatusOK {
		t.Fatalf("fix: %d\n%s", a.status, a.body)
	}
	refused := []struct {
		name string
		form url.Values
		want string
	}{
		{"no token", nil, "el envío necesita su confirmación"},
		{"another token", url.Values{confirmParam: {strings.Repeat("0", 64)}}, "cambiaron desde que confirmó"},
		{"the token before the fix", url.Values{confirmParam: {token[1]}}, "cambiaron desde que confirmó"},
	}
	for _, tc := range refused {
		a := b.post(page+"/send", tc.form)
		if a.status != http.StatusConflict || !strings.Contains(a.body, tc.want) || !strings.Contains(a.body, "<li>2 ventas</li>") ||
			!strings.Contains(a.body, "Importe a facturar: $ 2.000,00") {
			t.Errorf("%s: %d, want 409, the confirmation of the fixed file and %q:\n%s", tc.name, a.status, tc.want, a.body)
		}
		if b.srv.jobOf(id) != nil || len(b.sb.Server.State().Vouchers) != 0 {
			t.Fatalf("%s: a send started", tc.name)
		}
	}
	// As htmx asks: refused too.
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+page+"/send", nil)
	req.Header.Set("HX-Request", "true")
	if a := b.do(req); a.status != http.StatusConflict || b.srv.jobOf(id) != nil {
		t.Errorf("an htmx send without confirmation: %d, want 409 and nothing sent", a.status)
	}
	if a := b.send(page); a.status != http.StatusSeeOther || a.location != page+"/send" {
		t.Fatalf("confirmed send: %d %q", a.status, a.location)
	}
	b.waitSent(page)
	if n := len(b.sb.Server.State().Vouchers); n != 2 {
		t.Errorf("the confirmed send created %d invoices, want 2", n)
	}
	// Everything valid went: the confirmation says nothing leaves.
	c = b.get(page + "/confirm")
	for _, want := range []string{"Nada: no queda ninguna fila para enviar.", "2 filas ya enviadas, que no se reenvían", "Confirmar (no se enviará nada)"} {
		if !strings.Contains(c.body, want) {
			t.Errorf("the confirmation after the send lacks %q:\n%s", want, c.body)
		}
	}
	b.post("/lang", url.Values{"lang": {"en"}, "back": {"/"}})
	if c := b.get(page + "/confirm"); !strings.Contains(c.body, "Send errores.csv?") || !strings.Contains(c.body, "What stays behind, and why") {
		t.Errorf("the English confirmation:\n%s", c.body)
	}
}
