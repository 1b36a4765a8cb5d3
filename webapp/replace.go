package webapp

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
)

// replaceForm is the find-and-replace of a column: every row of the sheet
// whose cell reads Find takes Value, in one fix, after a preview that says
// how many rows change.
type replaceForm struct {
	Sheet, Version int
	Columns        []kindOption
	Col            int
	Find, Value    string
	// Preview, when not "", says what a confirmation will change.
	Preview string
}

// replaceFormOf is the form for sheet q.Sheet of v.
func replaceFormOf(v *version, q query, l msg.Lang) replaceForm {
	rf := replaceForm{Sheet: q.Sheet, Version: v.n}
	if q.Sheet < 0 || q.Sheet >= len(v.file.Sheets) {
		return rf
	}
	for i, h := range v.file.Sheets[q.Sheet].Info.Header {
		rf.Columns = append(rf.Columns, kindOption{Value: strconv.Itoa(i), Text: h})
	}
	return rf
}

// replaceValues previews (confirm absent) or applies (confirm=1) a
// find-and-replace in one column, revalidated and logged as one fix.
func (s *Server) replaceValues(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	l := lang(r)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, msg.New("web.fix.bad"))
		return
	}
	q := parseQuery(r.PostForm)
	col, err1 := strconv.Atoi(r.PostForm.Get("col"))
	ver, err2 := strconv.Atoi(r.PostForm.Get("version"))
	find := strings.TrimRight(r.PostForm.Get("find"), "\r\n")
	value := strings.TrimRight(r.PostForm.Get("value"), "\r\n")
	if err1 != nil || err2 != nil || len(find) > maxFixValue || len(value) > maxFixValue {
		s.fail(w, r, http.StatusBadRequest, msg.New("web.fix.bad"))
		return
	}
	v := s.lockVersion(w, r, u, ver, func(v *version) bool {
		return q.Sheet >= 0 && q.Sheet < len(v.file.Sheets) && col >= 0 && col < len(v.file.Sheets[q.Sheet].Info.Header)
	})
	if v == nil {
		return
	}
	sh := v.file.Sheets[q.Sheet]
	header := sh.Info.Header[col]
	same := sameValueRows(sh, col, find)
	n := len(same)
	if n == 0 || find == value || r.PostForm.Get("confirm") != "1" {
		u.mu.Unlock()
		d := s.importData(r, u, v, q, "")
		rf := replaceFormOf(v, q, l)
		rf.Col, rf.Find, rf.Value = col, find, value
		status := http.StatusOK
		switch {
		case n == 0:
			d.Alert, status = msg.New("web.replace.none", find, header).In(l), http.StatusUnprocessableEntity
		case find == value:
			d.Alert, status = msg.New("web.replace.same").In(l), http.StatusUnprocessableEntity
		default:
			rf.Preview = msg.New("web.replace.preview", find, value, thousands(n, l), header).In(l)
		}
		for i := range rf.Columns {
			rf.Columns[i].Selected = i == col
		}
		d.Replace = rf
		s.render(w, r, status, "import", d)
		return
	}
	ed := edit{At: s.now(), Sheet: sh.Info.Name, Column: header, From: find, To: value, Rows: n}
	_, err := s.applyFix(r.Context(), u, v, q.Sheet, col, value, func(i int) bool { return same[i] }, ed)
	u.mu.Unlock()
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, msg.New("web.fix.failed", s.fileText(u, err, l)))
		return
	}
	s.redirectWith(w, r, "/u/"+u.meta.ID, notice{notes: []msg.Localizer{msg.New("web.bulk.done", find, value, thousands(n, l), header)}})
}
