package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/sandbox"
)

// TestServeAsksForTheConnection: serve started with no connection (no
// --base-url, no NX_BASE_URL, none saved) serves the connection page on
// its address; once the owner enters one that the API accepts, the same
// address serves the page proper, the owner is sent there logged in, and
// the connection stays saved for the next start and every command.
func TestServeAsksForTheConnection(t *testing.T) {
	sb, err := sandbox.Start(sandbox.DemoData(), sandbox.Options{}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	// Not t.TempDir: the page's background catalog fetch may still be
	// writing its cache as the test ends.
	dir, err := os.MkdirTemp("", "nxbatch-setup-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	e := &env{ctx: ctx, stdout: pw, stderr: io.Discard, getenv: func(k string) string {
		if k == "XDG_STATE_HOME" {
			return dir
		}
		return ""
	}, log: slog.New(slog.DiscardHandler)}
	done := make(chan error, 1)
	go func() { done <- run(e, []string{"serve", "--addr", "127.0.0.1:0"}); pw.Close() }()
	lines := bufio.NewScanner(pr)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("serve printed nothing more: %v", <-done)
		}
		return lines.Text()
	}
	line := next()
	setupURL := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?key=[0-9a-f]+`).FindString(line)
	if setupURL == "" || !strings.Contains(line, "no hay conexión con la API guardada") {
		t.Fatalf("serve without a connection printed %q", line)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(setupURL)
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner's setup address: %v %v", resp, err)
	}
	resp.Body.Close()
	root := setupURL[:strings.Index(setupURL, "/?")]
	go func() {
		// The page proper prints its address while the POST waits for it.
		for lines.Scan() {
			if strings.Contains(lines.Text(), "login?key=") {
				break
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	resp, err = c.PostForm(root+"/connection", url.Values{"base_url": {sb.URL}, "env": {"production"}, "token": {sandbox.DefaultToken}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	login := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(login, root+"/login?key=") {
		t.Fatalf("after the connection: %d %q, want the page proper's owner address", resp.StatusCode, login)
	}
	if resp, err = c.Get(login); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the owner's login: %v %v", resp, err)
	}
	resp.Body.Close()
	resp, err = c.Get(root + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `action="/uploads"`) || !strings.Contains(string(b), sb.URL) {
		t.Errorf("the page proper on the same address: %d\n%s", resp.StatusCode, b)
	}
	if strings.Contains(string(b), sandbox.DefaultToken) {
		t.Error("the page shows the token")
	}
	if s, _, err := connection.Load(filepath.Join(dir, "nxbatch")); err != nil || s.BaseURL != sb.URL {
		t.Errorf("the connection is not saved in the state folder: %+v %v", s, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
