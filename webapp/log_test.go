package webapp

import (
	"io"
	"log/slog"
	"strings"
	"testing"
)

// newTestLogger logs as text into w, for tests that search the logs.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestLogInTheRunsLanguage: serve's log lines are in the run's language,
// Spanish by default (issue 23, hole 13): an upload, a refused upload and
// a send leave Spanish lines, none of the English they used to be.
func TestLogInTheRunsLanguage(t *testing.T) {
	b := newBed(t, bedOptions{})
	page := b.uploadSample("ventas.csv")
	b.upload("notas.pdf", []byte("%PDF-1.4"))
	b.send(page)
	b.waitSent(page)
	logs := b.logs.String()
	for _, want := range []string{`msg="archivo recibido"`, `msg="envío iniciado"`, `msg="envío terminado"`, `msg="archivo rechazado"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
	for _, english := range []string{`msg=upload`, `msg="send started"`, `msg="send finished"`, `msg="upload refused"`, " ready", "not fetched"} {
		if strings.Contains(logs, english) {
			t.Errorf("the log has English %q:\n%s", english, logs)
		}
	}
}
