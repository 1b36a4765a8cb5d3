package e2e

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeKilledAfterAFix: `nxbatch serve` answers a fix once the edit is
// kept in edits.jsonl and writes the fixed version after; killed with
// SIGKILL right after answering two fixes, the server started again shows
// both and sends the fixed file.
func TestServeKilledAfterAFix(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	var data strings.Builder
	data.WriteString(salesHeader)
	for i, tipo := range []string{"EFECTIVOO", "EFECTIVOO", "EFECTIVOO", "VIRTUALL"} {
		fmt.Fprintf(&data, "%d,cliente%d@example.com,105,1500.00,1,1500.00,0,0,0,1500.00,%s\n", 940001+i, i, tipo)
	}
	var body strings.Builder
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "ventas.csv")
	_, _ = io.WriteString(fw, data.String())
	_ = mw.Close()
	resp, err := srv.client.Post(srv.url+"/uploads", mw.FormDataContentType(), strings.NewReader(body.String()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	page := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(page, "/u/") {
		t.Fatalf("upload: %d %s", resp.StatusCode, page)
	}
	post := func(s served, path string, form url.Values) *http.Response {
		t.Helper()
		resp, err := s.client.PostForm(s.url+path, form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	get := func(s served, path string) string {
		t.Helper()
		resp, err := s.client.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d\n%.400s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	// The three EFECTIVOO at once, then the VIRTUALL.
	fixes := []url.Values{
		{"sheet": {"0"}, "page": {"1"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}, "all": {"1"}},
		{"sheet": {"0"}, "page": {"1"}, "version": {"1"}, "row": {"3"}, "col": {"10"}, "value": {"EFECTIVO"}},
	}
	for i, f := range fixes {
		if r := post(srv, page+"/cells", f); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("fix %d: %d", i, r.StatusCode)
		}
	}
	if err := syscall.Kill(srv.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}

	srv2 := w.serve(t)
	if p := get(srv2, page); !strings.Contains(p, "2 celdas corregidas") {
		t.Errorf("after the restart the page does not show the 2 fixes:\n%s", p)
	}
	token := regexp.MustCompile(`name="confirmacion" value="([0-9a-f]+)"`).FindStringSubmatch(get(srv2, page+"/confirm"))
	if token == nil {
		t.Fatal("no confirmation after the restart")
	}
	if r := post(srv2, page+"/send", url.Values{"confirmacion": {token[1]}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("send: %d", r.StatusCode)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		p := get(srv2, page+"/send")
		if strings.Contains(p, "terminado</h1>") {
			if !strings.Contains(p, "4 enviadas y aceptadas") {
				t.Errorf("the send after the restart did not send the 4 fixed sales:\n%s", p)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the send did not end")
		}
	}
}
