package webapp

import (
	"io"
	"log/slog"
)

// newTestLogger logs as text into w, for tests that search the logs.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
