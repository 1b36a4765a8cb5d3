package webapp

import (
	"os"
	"strings"
	"testing"
)

// TestSendOfAFileGoneFromDisk: the page's send goes through runner.Send;
// when the upload's file cannot be read any more, nothing is sent, the
// journal is given back and the progress page says why.
func TestSendOfAFileGoneFromDisk(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	id := strings.TrimPrefix(page, "/u/")
	u := b.srv.uploads.get(id)
	u.mu.Lock()
	path := u.current()
	u.mu.Unlock()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	b.send(page)
	b.waitSent(page)
	job := b.srv.jobOf(id)
	job.mu.Lock()
	failed, end := job.failed.Key, job.end
	job.mu.Unlock()
	if failed != "web.send.noread" || end != "failed" {
		t.Errorf("send of a file gone: %q (%s), want web.send.noread", failed, end)
	}
	if n := len(b.sb.Server.State().Vouchers); n != 0 {
		t.Errorf("%d vouchers created from a file that could not be read", n)
	}
	// The journal was given back: another send can take it.
	j, release, err := b.srv.gate.acquire(0)
	if err != nil {
		t.Fatalf("journal after the failed send: %v", err)
	}
	_ = j
	release()
}
