package webapp

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// reopen is a new server on b's state folder, as after the process was
// killed and started again, in front of the same sandbox and journal, with
// the owner logged in. b's server is left as it is (not closed: a killed
// process closes nothing).
func (b *bed) reopen() *bed {
	b.t.Helper()
	srv, err := New(b.srv.cfg)
	if err != nil {
		b.t.Fatalf("new server on the same state: %v", err)
	}
	ts := httptest.NewServer(srv.Handler())
	b.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Close(ctx)
		ts.Close()
	})
	jar, _ := cookiejar.New(nil)
	nb := &bed{t: b.t, srv: srv, ts: ts, sb: b.sb, journal: b.journal, logs: b.logs,
		client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	nb.loginOwner()
	return nb
}

// dropWrites makes b's server drop its background writes of fixed
// versions, as a server killed before them would: only what reads the
// file (flush) writes it.
func (b *bed) dropWrites() { b.srv.writeHook = func(*upload) bool { return false } }

// lazyUpload uploads sameMistake as CSV or as a workbook and waits for its
// warm state, so that its fixes are answered from memory.
func lazyUpload(b *bed, ext string) (page string, u *upload) {
	b.t.Helper()
	name, data := "mismo.csv", sameMistake()
	if ext == ".xlsx" {
		name, data = "mismo.xlsx", csvToXLSX(b.t, string(sameMistake()))
	}
	a := b.upload(name, data)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/u/") {
		b.t.Fatalf("upload %s: %d %s\n%.400s", name, a.status, a.location, a.body)
	}
	b.srv.warming.Wait()
	return a.location, b.srv.uploads.get(strings.TrimPrefix(a.location, "/u/"))
}

// fixedColumn reads column col of every row of u's fixed version on disk.
func fixedColumn(t *testing.T, u *upload, col int) []string {
	t.Helper()
	var rows [][]string
	if strings.HasSuffix(u.fixed(), ".xlsx") {
		x, err := excelize.OpenFile(u.fixed())
		if err != nil {
			t.Fatalf("fixed workbook: %v", err)
		}
		defer x.Close()
		rows, err = x.GetRows(x.GetSheetList()[0])
		if err != nil {
			t.Fatal(err)
		}
	} else {
		b, err := os.ReadFile(u.fixed())
		if err != nil {
			t.Fatalf("fixed CSV: %v", err)
		}
		r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
		r.Comma, r.FieldsPerRecord = ';', -1
		if rows, err = r.ReadAll(); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, r := range rows[1:] {
		out = append(out, r[col])
	}
	return out
}

var planLine = regexp.MustCompile(`\d+ filas → \d+ ventas \(\d+ con errores\)`)

// TestFixKeptAcrossRestart: a fix is answered from memory, before its
// fixed version is written; a server killed before that write (here: the
// write dropped, the server left without Close) loses nothing: a new
// server on the same state folder shows every fix answered and writes the
// fixed version from edits.jsonl. For a CSV and a workbook, one cell,
// every row with the same value, and a find-and-replace, each followed by
// a second fix.
func TestFixKeptAcrossRestart(t *testing.T) {
	single := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}}
	bulk := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}, "all": {"1"}}
	replace := url.Values{"sheet": {"0"}, "version": {"0"}, "col": {"10"}, "find": {"EFECTIVOO"}, "value": {"EFECTIVO"}, "confirm": {"1"}}
	// The second fix: the last row's VIRTUALL.
	second := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"1"}, "row": {"5"}, "col": {"10"}, "value": {"TARJETA"}}
	for _, ext := range []string{".csv", ".xlsx"} {
		for _, tc := range []struct {
			name    string
			replace bool
			form    url.Values
			want    []string
		}{
			{"one cell", false, single, []string{"EFECTIVO", "EFECTIVOO", "EFECTIVOO", "EFECTIVOO", "EFECTIVOO", "TARJETA"}},
			{"every row with the value", false, bulk, []string{"EFECTIVO", "EFECTIVO", "EFECTIVO", "EFECTIVO", "EFECTIVO", "TARJETA"}},
			{"find and replace", true, replace, []string{"EFECTIVO", "EFECTIVO", "EFECTIVO", "EFECTIVO", "EFECTIVO", "TARJETA"}},
		} {
			t.Run(ext+"/"+tc.name, func(t *testing.T) {
				b := newBed(t, bedOptions{})
				b.dropWrites()
				page, u := lazyUpload(b, ext)
				if tc.replace {
					if a := b.post(page+"/replace", tc.form); a.status != http.StatusSeeOther {
						t.Fatalf("replace: %d\n%.400s", a.status, a.body)
					}
				} else if a := b.fix(page, tc.form); a.status != http.StatusOK {
					t.Fatalf("fix: %d\n%.400s", a.status, a.body)
				}
				if a := b.fix(page, second); a.status != http.StatusOK {
					t.Fatalf("second fix: %d\n%.400s", a.status, a.body)
				}
				u.mu.Lock()
				incremental, n := u.cur.incremental, u.cur.n
				u.mu.Unlock()
				if !incremental || n != 2 {
					t.Fatalf("the fixes were not answered from memory (incremental %v, version %d)", incremental, n)
				}
				if _, err := os.Stat(u.fixed()); err == nil {
					t.Fatal("the fixed version was written before the answer: the test proves nothing")
				}
				before := planLine.FindString(b.get(page).body)
				if before == "" {
					t.Fatal("no plan on the page before the restart")
				}

				nb := b.reopen()
				a := nb.get(page)
				if a.status != http.StatusOK {
					t.Fatalf("the page after the restart: %d\n%.400s", a.status, a.body)
				}
				if after := planLine.FindString(a.body); after != before {
					t.Errorf("after the restart the plan says %q, before it %q", after, before)
				}
				if !strings.Contains(a.body, "2 celdas corregidas") {
					t.Errorf("after the restart the page does not count the 2 fixes")
				}
				nu := nb.srv.uploads.get(u.meta.ID)
				if got := fixedColumn(t, nu, 10); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("fixed version written after the restart: medioPago.tipo %q, want %q", got, tc.want)
				}
				nu.mu.Lock()
				m := nu.meta
				nu.mu.Unlock()
				sum, err := fileSHA256(nu.fixed())
				if err != nil || m.Edits != 2 || m.Unwritten != 0 || m.WrittenSHA256 != sum {
					t.Errorf("meta after the replay: edits %d, unwritten %d, sum %q (file %q, %v)", m.Edits, m.Unwritten, m.WrittenSHA256, sum, err)
				}
				// And the fixes go on from there.
				third := url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"2"}, "row": {"5"}, "col": {"10"}, "value": {"EFECTIVO"}}
				if a := nb.fix(page, third); a.status != http.StatusOK {
					t.Fatalf("a fix after the restart: %d\n%.400s", a.status, a.body)
				}
			})
		}
	}
}

// TestSendRightAfterFix: a send right after a fix, whose fixed version was
// not written yet, sends the fixed values, and the file it names (the
// SHA-256 in its summary, as the journal keeps it) is the fixed version as
// written.
func TestSendRightAfterFix(t *testing.T) {
	for _, ext := range []string{".csv", ".xlsx"} {
		t.Run(ext, func(t *testing.T) {
			b := newBed(t, bedOptions{})
			b.dropWrites()
			page, u := lazyUpload(b, ext)
			// Every row fixed: 6 valid sales.
			if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}, "all": {"1"}}); a.status != http.StatusOK {
				t.Fatalf("fix: %d\n%.400s", a.status, a.body)
			}
			if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"1"}, "row": {"5"}, "col": {"10"}, "value": {"EFECTIVO"}}); a.status != http.StatusOK {
				t.Fatalf("second fix: %d\n%.400s", a.status, a.body)
			}
			if _, err := os.Stat(u.fixed()); err == nil {
				t.Fatal("the fixed version was written before the send: the test proves nothing")
			}
			if a := b.send(page); a.status != http.StatusSeeOther {
				t.Fatalf("send: %d\n%.400s", a.status, a.body)
			}
			b.waitSent(page)
			if a := b.get(page + "/send"); !strings.Contains(a.body, "6 enviadas y aceptadas") {
				t.Errorf("the send did not send the 6 fixed sales:\n%s", a.body)
			}
			sum, err := fileSHA256(u.fixed())
			if err != nil {
				t.Fatalf("no fixed version after the send: %v", err)
			}
			js, err := os.ReadFile(filepath.Join(u.reportDir(), "mismo.summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				File   string `json:"file"`
				SHA256 string `json:"sha256"`
			}
			if err := json.Unmarshal(js, &s); err != nil {
				t.Fatal(err)
			}
			if s.SHA256 != sum || filepath.Base(filepath.Dir(s.File)) != "corregido" {
				t.Errorf("the send read %s (sha256 %s), the fixed version written is %s", s.File, s.SHA256, sum)
			}
		})
	}
}

// TestConfirmationAfterLazyFix: a confirmation given before a fix whose
// file is not written yet is refused, and nothing is sent.
func TestConfirmationAfterLazyFix(t *testing.T) {
	b := newBed(t, bedOptions{})
	b.dropWrites()
	page, _ := lazyUpload(b, ".csv")
	c := b.get(page + "/confirm")
	m := confirmToken.FindStringSubmatch(c.body)
	if m == nil {
		t.Fatalf("confirmation: %d\n%.400s", c.status, c.body)
	}
	if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}}); a.status != http.StatusOK {
		t.Fatalf("fix: %d", a.status)
	}
	if a := b.post(page+"/send", url.Values{confirmParam: {m[1]}}); a.status != http.StatusConflict {
		t.Errorf("a send confirmed before the fix: %d, want 409", a.status)
	}
	if job := b.srv.jobOf(strings.TrimPrefix(page, "/u/")); job != nil {
		t.Error("a send started on a confirmation older than the fix")
	}
}

// TestErrorsWorkbookAfterLazyFix: the errors workbook downloaded right
// after a fix names the fixed version written, by its SHA-256.
func TestErrorsWorkbookAfterLazyFix(t *testing.T) {
	b := newBed(t, bedOptions{})
	b.dropWrites()
	page, u := lazyUpload(b, ".xlsx")
	if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}}); a.status != http.StatusOK {
		t.Fatalf("fix: %d", a.status)
	}
	a := b.get(page + "/errors.xlsx")
	if a.status != http.StatusOK {
		t.Fatalf("errors workbook: %d", a.status)
	}
	sum, err := fileSHA256(u.fixed())
	if err != nil {
		t.Fatalf("no fixed version after the errors workbook: %v", err)
	}
	if got := fixedColumn(t, u, 10); got[0] != "EFECTIVO" {
		t.Errorf("the fixed version lacks the fix: %q", got)
	}
	x, err := excelize.OpenReader(strings.NewReader(a.body))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	found := false
	for _, sh := range x.GetSheetList() {
		rows, _ := x.GetRows(sh)
		for _, r := range rows {
			for _, c := range r {
				found = found || c == sum
			}
		}
	}
	if !found {
		t.Errorf("the errors workbook does not name the fixed version written (%s)", sum)
	}
}

// TestReplayOverAFileWrittenAfterItsMeta: a server killed after a
// background write but before it saved meta.json leaves a fixed version
// that holds more edits than meta.json says. The next server does not
// apply them twice: one pending edit is taken as held; several (each kept
// every row in place) set again to the same cells.
func TestReplayOverAFileWrittenAfterItsMeta(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fixes int
	}{
		{"one edit", 1},
		{"two edits", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBed(t, bedOptions{})
			b.dropWrites()
			page, u := lazyUpload(b, ".csv")
			forms := []url.Values{
				{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}},
				{"sheet": {"0"}, "page": {"1"}, "version": {"1"}, "row": {"1"}, "col": {"10"}, "value": {"TARJETA"}},
			}
			for _, f := range forms[:tc.fixes] {
				if a := b.fix(page, f); a.status != http.StatusOK {
					t.Fatalf("fix: %d\n%.400s", a.status, a.body)
				}
			}
			// The write the killed server made, without its meta.json.
			u.mu.Lock()
			u.wmu.Lock()
			sum, err := u.writeVersion(u.cur)
			u.wmu.Unlock()
			u.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			want := fixedColumn(t, u, 10)

			nb := b.reopen()
			if a := nb.get(page); a.status != http.StatusOK {
				t.Fatalf("the page after the restart: %d", a.status)
			}
			nu := nb.srv.uploads.get(u.meta.ID)
			if got := fixedColumn(t, nu, 10); !reflect.DeepEqual(got, want) {
				t.Errorf("after the replay medioPago.tipo reads %q, want %q", got, want)
			}
			if got, _ := fileSHA256(nu.fixed()); got != sum {
				t.Errorf("the fixed version changed in the replay: %s, was %s", got, sum)
			}
			nu.mu.Lock()
			unwritten := nu.meta.Unwritten
			nu.mu.Unlock()
			if unwritten != 0 {
				t.Errorf("meta after the restart: %d edits unwritten", unwritten)
			}
		})
	}
}

// TestReplayKeepsARowBlankedOnce: a fix that blanks a row (the rows after
// it move up) is written before it is answered; a server killed after that
// write but before its meta.json said so does not blank the next row too
// when the next server replays it.
func TestReplayKeepsARowBlankedOnce(t *testing.T) {
	b := newBed(t, bedOptions{})
	a := b.upload("cancelaciones.csv", []byte("facturaId\n1001\n1002\n1003\n"))
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/u/") {
		t.Fatalf("upload: %d\n%.400s", a.status, a.body)
	}
	page := a.location
	b.srv.warming.Wait()
	u := b.srv.uploads.get(strings.TrimPrefix(page, "/u/"))
	if a := b.fix(page, url.Values{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"0"}, "value": {""}}); a.status != http.StatusOK {
		t.Fatalf("fix: %d\n%.400s", a.status, a.body)
	}
	want := fixedColumn(t, u, 0)
	if !reflect.DeepEqual(want, []string{"", "1002", "1003"}) {
		t.Fatalf("the fixed version reads %q, want the first row blanked (a reader skips it)", want)
	}
	// meta.json as the killed server left it: the edit kept, the file
	// not said to hold it.
	u.mu.Lock()
	m := u.meta
	u.mu.Unlock()
	m.Unwritten, m.WrittenSHA256 = 1, ""
	js, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(u.dir, "meta.json"), js, 0o600); err != nil {
		t.Fatal(err)
	}

	nb := b.reopen()
	if a := nb.get(page); a.status != http.StatusOK {
		t.Fatalf("the page after the restart: %d", a.status)
	}
	if got := fixedColumn(t, nb.srv.uploads.get(u.meta.ID), 0); !reflect.DeepEqual(got, want) {
		t.Errorf("after the replay the fixed version reads %q, want %q", got, want)
	}
}
