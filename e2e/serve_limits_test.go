package e2e

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// peakMemory is a process's peak resident memory (VmHWM), in bytes.
func peakMemory(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestServeBombsShareOneMemoryBudget: sixteen uploads at once of a 208 KB
// workbook whose shared strings expand past 128 MB (each read costs what
// the readers' limit allows before it refuses it) take their turns within
// the page's memory budget: every one is answered with the readers'
// refusal, or the page's "try again", and the server's peak memory,
// measured from the process, stays under 1 GB (2.1 GB before the budget).
func TestServeBombsShareOneMemoryBudget(t *testing.T) {
	w := newWorkspace(t, "")
	srv := w.serve(t)
	bomb := sharedStringsBomb(t)
	if len(bomb) < 150<<10 || len(bomb) > 260<<10 {
		t.Fatalf("the bomb is %d bytes", len(bomb))
	}
	var wg sync.WaitGroup
	answers := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			fw, _ := mw.CreateFormFile("file", "bomba.xlsx")
			_, _ = fw.Write(bomb)
			_ = mw.Close()
			resp, err := srv.client.Post(srv.url+"/uploads", mw.FormDataContentType(), &body)
			if err != nil {
				answers <- err.Error()
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusSeeOther {
				answers <- resp.Status
				return
			}
			page, err := srv.client.Get(srv.url + resp.Header.Get("Location"))
			if err != nil {
				answers <- err.Error()
				return
			}
			b, _ := io.ReadAll(page.Body)
			page.Body.Close()
			answers <- string(b)
		})
	}
	wg.Wait()
	close(answers)
	for a := range answers {
		if !strings.Contains(a, "más de 128 MB") && !strings.Contains(a, "vuelva a intentar en un momento") {
			t.Errorf("an upload of the bomb was not refused with a sentence:\n%.400s", a)
		}
	}
	peak := peakMemory(t, srv.pid)
	t.Logf("16 bombs at once: server peak %d MB", peak>>20)
	if peak > 1<<30 {
		t.Errorf("server peak %d MB, want under 1 GB", peak>>20)
	}
}
