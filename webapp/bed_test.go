package webapp

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// scale shrinks the API's windows in these tests: the 3 s stock window is
// 30 ms, the 30 s key hold 300 ms.
const scale = 0.01

// bed is one test's server: the app in front of an embedded sandbox, with
// a journal in a temporary folder.
type bed struct {
	t       testing.TB
	srv     *Server
	ts      *httptest.Server
	sb      *sandbox.Running
	journal string
	client  *http.Client
	logs    *syncBuffer
}

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// bedOptions change a bed from the defaults.
type bedOptions struct {
	token string // the sandbox's token; "" is its default
	// refused makes the page's client send another token than the
	// sandbox's: every request is a 401.
	refused  bool
	latency  time.Duration
	limits   Limits
	password string
	workers  int
	// maxErrors stops a send after this many rejections in a row.
	maxErrors int
	// journalURL, when set, is a PostgreSQL journal the page uses instead
	// of a file.
	journalURL string
	// accounts are the users who may log in; now is the server's clock.
	accounts Accounts
	now      func() time.Time
	// timeouts, maxStreams and keepUploads are the server's.
	timeouts    Timeouts
	maxStreams  int
	keepUploads time.Duration
	// anonymous leaves the client logged out (the bed logs the owner in
	// otherwise).
	anonymous bool
	// dropAfter is the sandbox's: the fraction of creating POSTs
	// processed and then answered by closing the connection.
	dropAfter float64
}

func newBed(t testing.TB, o bedOptions) *bed {
	t.Helper()
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{TimeScale: scale, Token: o.token, Latency: o.latency, DropAfter: o.dropAfter, Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	token := o.token
	if token == "" {
		token = sandbox.DefaultToken
	}
	if o.refused {
		token = "otro-token"
	}
	dir := t.TempDir()
	jpath := filepath.Join(dir, "state", "journal")
	env := sendrules.Production
	// The page's Session talks to the sandbox as the embedded one (a
	// tenant of its own) but reads its catalogs over HTTP, as from an API.
	sess, err := runner.Connect(runner.Config{Sandbox: sb, Token: apiclient.NewToken(token), Timeout: 10 * time.Second,
		Env: env, TimeScale: scale, StateDir: filepath.Dir(jpath),
		OpenJournal: func(wait time.Duration) (journal.Store, error) {
			if o.journalURL != "" {
				return pgjournal.Open(context.Background(), o.journalURL, pgjournal.Options{})
			}
			return boltjournal.Open(jpath, journal.Options{LockTimeout: wait})
		}})
	if err != nil {
		t.Fatal(err)
	}
	be := Backend{JournalPath: jpath, Session: sess}
	logs := &syncBuffer{}
	workers := o.workers
	if workers == 0 {
		workers = 4
	}
	srv, err := New(Config{Backend: be, Limits: o.limits, Password: o.password, Accounts: o.accounts, Now: o.now, Addr: "127.0.0.1:0",
		Timeouts: o.timeouts, MaxStreams: o.maxStreams, KeepUploads: o.keepUploads,
		Send: SendOptions{Workers: workers, Rate: 0, Timeout: 5 * time.Second, MaxErrors: o.maxErrors},
		Tool: "nxbatch test", Log: newTestLogger(logs)})
	if err != nil {
		t.Fatalf("new server: %v", err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Close(ctx)
		ts.Close()
	})
	jar, _ := cookiejar.New(nil)
	b := &bed{t: t, srv: srv, ts: ts, sb: sb, journal: jpath, logs: logs,
		client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if !o.anonymous {
		b.loginOwner()
	}
	return b
}

// loginOwner opens the owner's address, as the owner's browser does: the
// client keeps the session cookie.
func (b *bed) loginOwner() {
	b.t.Helper()
	if a := b.get("/login?key=" + b.srv.OwnerKey()); a.status != http.StatusSeeOther || a.location != "/" {
		b.t.Fatalf("owner login: %d %q\n%s", a.status, a.location, a.body)
	}
}

// answer is one response, read whole.
type answer struct {
	status   int
	body     string
	location string
	header   http.Header
}

// do sends req and reads the answer; redirects are not followed.
func (b *bed) do(req *http.Request) answer {
	b.t.Helper()
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, body: string(body), location: resp.Header.Get("Location"), header: resp.Header}
}

func (b *bed) get(path string) answer {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.ts.URL+path, nil)
	return b.do(req)
}

func (b *bed) post(path string, form url.Values) answer {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// uploadRequest builds the multipart upload of data as name.
func (b *bed) uploadRequest(name string, data []byte) *http.Request {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.ts.URL+"/uploads", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return req
}

// upload sends a file and returns the answer (a redirect to its page).
func (b *bed) upload(name string, data []byte) answer {
	b.t.Helper()
	return b.do(b.uploadRequest(name, data))
}

// uploadSample uploads a file of samples/ and returns its page's path.
func (b *bed) uploadSample(name string) string {
	b.t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "samples", name))
	if err != nil {
		b.t.Fatal(err)
	}
	a := b.upload(name, data)
	if a.status != http.StatusSeeOther || !strings.HasPrefix(a.location, "/u/") {
		b.t.Fatalf("upload %s: %d %s\n%s", name, a.status, a.location, a.body)
	}
	return a.location
}

// waitSent waits for the send of upload page p to end.
func (b *bed) waitSent(p string) {
	b.t.Helper()
	id := strings.TrimPrefix(p, "/u/")
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if job := b.srv.jobOf(id); job != nil {
			job.mu.Lock()
			done := job.state == "done"
			job.mu.Unlock()
			if done && b.srv.sendingFor(id) == nil {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.t.Fatalf("send of %s did not end", p)
}

// confirmToken matches the confirmation's token in its page.
var confirmToken = regexp.MustCompile(`name="confirmacion" value="([0-9a-f]+)"`)

// send opens the confirmation of upload page p and confirms it, as the
// user's two clicks do; it returns the send's answer.
func (b *bed) send(p string) answer {
	b.t.Helper()
	c := b.get(p + "/confirm")
	m := confirmToken.FindStringSubmatch(c.body)
	if c.status != http.StatusOK || m == nil {
		b.t.Fatalf("confirmation of %s: %d\n%s", p, c.status, c.body)
	}
	return b.post(p+"/send", url.Values{confirmParam: {m[1]}})
}
