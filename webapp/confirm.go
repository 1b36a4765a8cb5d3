package webapp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strconv"

	"github.com/nxbatch/nxbatch/msg"
)

// A send asks first: "Enviar" opens a confirmation that says what leaves
// (how many requests, the amount they invoice, in es-AR), what stays
// behind and why, and what the send's settings do (the report folder,
// "faltantes en cero"); only its button sends. The server refuses a send
// without the confirmation's token, and a token of a file that changed
// since (a fix, another mapping, another setting) is refused too: what
// was confirmed is what is sent.

// confirmParam is the send form's field that carries the token.
const confirmParam = "confirmacion"

// confirmToken is the token of a send of u as it stands: an HMAC, with the
// server's secret, of the upload and of everything that changes what its
// send does. u.mu is held.
func (s *Server) confirmToken(u *upload) string {
	h := hmac.New(sha256.New, []byte("confirm\x00"+s.cfg.OwnerKey))
	put := func(x string) {
		h.Write([]byte(strconv.Itoa(len(x))))
		h.Write([]byte{0})
		h.Write([]byte(x))
	}
	put(u.meta.ID)
	put(strconv.Itoa(u.meta.Edits))
	put(strconv.Itoa(u.meta.HeaderRow))
	put(u.meta.Profile)
	heads := make([]string, 0, len(u.meta.Columns))
	for k := range u.meta.Columns {
		heads = append(heads, k)
	}
	sort.Strings(heads)
	for _, k := range heads {
		put(k)
		put(u.meta.Columns[k])
	}
	for _, x := range s.sendSettings(u) {
		put(x)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// confirmed tells whether r carries the token of a send of u as it
// stands now; given tells whether it carried one at all.
func (s *Server) confirmed(r *http.Request, u *upload) (ok, given bool) {
	got := r.PostFormValue(confirmParam)
	if got == "" {
		return false, false
	}
	u.mu.Lock()
	want := s.confirmToken(u)
	u.mu.Unlock()
	return hmac.Equal([]byte(got), []byte(want)), true
}

// confirmData is the confirmation page.
type confirmData struct {
	base
	ID, Name string
	// Leaves lists what leaves, Behind what stays and why; Amount is the
	// amount the sales invoice ("" when none has one).
	Leaves, Behind []string
	Amount         string
	// Nothing: nothing would leave (the send would only say so).
	Nothing bool
	// Notes say what the send's settings do.
	Notes []string
	Token string
	Alert string
}

// confirmPage shows what a send would do and asks to confirm it.
func (s *Server) confirmPage(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	s.renderConfirm(w, r, u, http.StatusOK, "")
}

// renderConfirm renders the confirmation of a send of u with status, and
// alert when a send was refused for want of it.
func (s *Server) renderConfirm(w http.ResponseWriter, r *http.Request, u *upload, status int, alert string) {
	v := s.view(w, r, u)
	if v == nil {
		return
	}
	l := lang(r)
	so := s.sentOf(u)
	will := planSend(v.file, so.rowMarks(v.file, l))
	d := &confirmData{base: s.base(r, "web.confirm.title", u.meta.Name), ID: u.meta.ID, Name: u.meta.Name,
		Amount: will.amountText(l), Nothing: will.leaves() == 0, Alert: alert}
	what, behind := will.parts(true)
	for _, m := range what {
		d.Leaves = append(d.Leaves, joinMessages{m}.In(l))
	}
	for _, m := range behind {
		d.Behind = append(d.Behind, joinMessages{m}.In(l))
	}
	d.Notes = s.sendNotes(u, v, l)
	u.mu.Lock()
	d.Token = s.confirmToken(u)
	u.mu.Unlock()
	s.render(w, r, status, "confirm", d)
}

// refuseUnconfirmed answers a send without its confirmation: nothing is
// sent; the confirmation is shown (a 409), saying why.
func (s *Server) refuseUnconfirmed(w http.ResponseWriter, r *http.Request, u *upload, given bool) {
	why := msg.New("web.confirm.needed")
	if given {
		why = msg.New("web.confirm.changed")
	}
	s.log.Info(s.logText("web.log.send.unconfirmed"), "id", u.meta.ID)
	if r.Header.Get("HX-Request") == "true" {
		s.fail(w, r, http.StatusConflict, why)
		return
	}
	s.renderConfirm(w, r, u, http.StatusConflict, why.In(lang(r)))
}

// sendSettings are the settings that change what a send of u does, as
// text for its confirmation's token. u.mu is held.
func (s *Server) sendSettings(u *upload) []string {
	zero := "0"
	if u.meta.ZeroMissing {
		zero = "1"
	}
	return []string{"reportDir", s.settings().ReportDir, "zeroMissing", zero}
}

// sendNotes say what the send's settings will do, for its confirmation.
func (s *Server) sendNotes(u *upload, v *version, l msg.Lang) []string {
	var out []string
	if isCount(v.file) {
		u.mu.Lock()
		zero := u.meta.ZeroMissing
		u.mu.Unlock()
		out = append(out, countNote(zero, l))
	}
	if d := s.settings().ReportDir; d != "" {
		out = append(out, msg.New("web.confirm.reportdir", d).In(l))
	}
	return out
}
