package webapp

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// guard is how long a test waits for what must happen; never asserted.
const guard = 30 * time.Second

// TestTimeoutsCloseSlowAndIdleConnections: a connection that sends
// nothing, one kept alive after its request, and an upload that sends a
// byte and then nothing are all closed by the server (before, only the
// first was, after 10 s; the others stayed open for ever).
func TestTimeoutsCloseSlowAndIdleConnections(t *testing.T) {
	b := newBed(t, bedOptions{timeouts: Timeouts{Header: 300 * time.Millisecond, Read: 500 * time.Millisecond, Write: 500 * time.Millisecond, Idle: 300 * time.Millisecond}})
	hs := b.srv.HTTPServer(nil)
	if hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.ReadHeaderTimeout <= 0 {
		t.Fatalf("timeouts not set: %+v", hs)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	cookie := ""
	for _, c := range b.client.Jar.Cookies(mustURL(t, b.ts.URL)) {
		cookie = c.Name + "=" + c.Value
	}
	cases := []struct {
		name string
		send string
	}{
		{"idle before any request", ""},
		{"kept alive after a request", "GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n"},
		{"an upload that stops sending", "POST /uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + cookie +
			"\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\nv"},
		{"headers that never end", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, tc.send); err != nil {
				t.Fatal(err)
			}
			_ = c.SetReadDeadline(time.Now().Add(guard))
			got, err := io.ReadAll(bufio.NewReader(c))
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the server kept the connection open (%d bytes read)", len(got))
			}
			if tc.name == "kept alive after a request" && !strings.HasPrefix(string(got), "HTTP/1.1 200") {
				t.Errorf("the request itself was not answered: %.100q", got)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(filepath.Dir(b.journal), "uploads"))
	for _, e := range entries {
		if e.IsDir() && validID(e.Name()) {
			t.Errorf("the cut upload is kept: %s", e.Name())
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestProgressStreamsCapped: past MaxStreams live-progress streams a new
// one is refused with 503 and a sentence; a stream whose client does not
// read ends at the write timeout and gives its place back.
func TestProgressStreamsCapped(t *testing.T) {
	b := newBed(t, bedOptions{maxStreams: 2, timeouts: Timeouts{Write: 300 * time.Millisecond}})
	started, ended := make(chan struct{}, 4), make(chan struct{}, 4)
	stream := b.srv.capStreams(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := []byte("data: " + strings.Repeat("x", 64<<10) + "\n\n")
		started <- struct{}{}
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	})
	// ended is told once the cap has given the stream's place back.
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stream(w, r)
		if w.Header().Get("Retry-After") == "" {
			ended <- struct{}{}
		}
	}))
	ts.Config.WriteTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	// Two clients that never read.
	for range 2 {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = io.WriteString(c, "GET /u/x/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	}
	for range 2 {
		select {
		case <-started:
		case <-time.After(guard):
			t.Fatal("a stream did not start")
		}
	}
	resp, err := http.Get(ts.URL + "/u/x/events")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "se actualiza sola") {
		t.Fatalf("a third stream: %d %q, want 503 with the sentence", resp.StatusCode, body)
	}
	// Unread, both end at the write timeout and give their places back.
	for range 2 {
		select {
		case <-ended:
		case <-time.After(guard):
			t.Fatal("an unread stream was never ended")
		}
	}
	if n := b.srv.streams.Load(); n != 0 {
		t.Errorf("%d streams still counted after they ended", n)
	}
}

// TestUploadsExpire: an upload goes KeepUploads after it was last
// uploaded or sent, its folder with it; a newer one stays, and a folder
// a killed server left behind goes by its age.
func TestUploadsExpire(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)}
	b := newBed(t, bedOptions{now: clock.now})
	old := b.uploadSample("ventas.csv")
	sent := b.uploadSample("facturar.csv")
	clock.advance(20 * 24 * time.Hour)
	b.send(sent) // sent on day 20: kept 30 days from then
	b.waitSent(sent)
	recent := b.uploadSample("stock.csv")
	dir := filepath.Join(filepath.Dir(b.journal), "uploads")
	orphan := filepath.Join(dir, strings.Repeat("ab", 16))
	if err := os.MkdirAll(filepath.Join(orphan, "original"), 0o700); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(orphan, clock.now().Add(-40*24*time.Hour), clock.now().Add(-40*24*time.Hour))

	clock.advance(11 * 24 * time.Hour) // day 31
	if n := b.srv.ExpireUploads(); n != 2 {
		t.Errorf("day 31: %d expired, want the first upload and the orphan folder", n)
	}
	want := map[string]int{old: http.StatusNotFound, sent: http.StatusOK, recent: http.StatusOK}
	for page, status := range want {
		if a := b.get(page); a.status != status {
			t.Errorf("day 31: GET %s: %d, want %d", page, a.status, status)
		}
		_, err := os.Stat(filepath.Join(dir, strings.TrimPrefix(page, "/u/")))
		if gone := errors.Is(err, os.ErrNotExist); gone != (status == http.StatusNotFound) {
			t.Errorf("day 31: folder of %s gone=%v", page, gone)
		}
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the orphan folder is kept")
	}
	clock.advance(20 * 24 * time.Hour) // day 51: the sent one is 31 days past its send
	if n := b.srv.ExpireUploads(); n != 2 {
		t.Errorf("day 51: %d expired, want 2", n)
	}
	if a := b.get("/"); strings.Contains(a.body, "stock.csv") || strings.Contains(a.body, "facturar.csv") {
		t.Errorf("expired uploads still listed")
	}
}
