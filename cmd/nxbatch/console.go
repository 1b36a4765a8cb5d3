package main

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"

	"github.com/nxbatch/nxbatch/msg"
)

// inert makes text from an input file or the API safe to print on a
// terminal or into a cron log: control characters (CR, LF, escape
// sequences, C1 controls) and the invisible characters that reorder text
// are written as escapes, so that a header or a sheet name cannot forge a
// line such as "todo bien".
func inert(s string) string { return msg.Inert(s) }

// kongPatterns translate the command line parser's own errors, which come
// in English, into the catalog's sentences; what they quote (a flag, a
// value) is kept as it came.
var kongPatterns = []struct {
	re   *regexp.Regexp
	key  string
	args func(m []string, l msg.Lang) []any // the message's arguments from the match; nil: the groups as they came
}{
	{regexp.MustCompile(`^unexpected argument (.+)$`), "cli.kong.unexpected", nil},
	{regexp.MustCompile(`^missing flags?: (.+)$`), "cli.kong.missingflags", nil},
	{regexp.MustCompile(`^expected "(.+)"$`), "cli.kong.expected", nil},
	{regexp.MustCompile(`^unknown flag (\S+).*$`), "cli.kong.unknownflag", nil},
	{regexp.MustCompile(`^(--\S+|<\S+>) must be one of (.+) but got (.+)$`), "cli.kong.enum", nil},
	{regexp.MustCompile(`^expected one of (.+)$`), "cli.kong.command", nil},
	// A flag given last, without its value.
	{regexp.MustCompile(`^(--\S+|<\S+>): expected .* but got "EOL" \(<EOL>\)$`), "cli.kong.novalue", nil},
	// A value of the wrong type: "expected int value but got "-3" (short
	// flag); perhaps try --rows="-3"?", "expected a float but got "x"
	// (string)", "expected duration but got "3x": time: unknown unit...".
	{regexp.MustCompile(`^(--\S+|<\S+>): expected (.+?) but got (".*?")(?:.*; perhaps try (\S+?)\?)?`), "cli.kong.type",
		func(m []string, l msg.Lang) []any {
			args := []any{m[1], msg.New(kongType(m[2])).In(l), m[3]}
			if m[4] != "" {
				return append(args, msg.New("cli.kong.type.try", m[4]).In(l))
			}
			return append(args, "")
		}},
	{regexp.MustCompile(`^(--\S+|<\S+>): (.+)$`), "cli.kong.badvalue", nil},
}

// kongType is the catalog key that names the kind of value kong expected,
// from its words for it ("int value", "a valid 64 bit int", "duration").
func kongType(s string) string {
	switch {
	case strings.Contains(s, "duration"):
		return "cli.kong.t.duration"
	case strings.Contains(s, "float"):
		return "cli.kong.t.number"
	case strings.Contains(s, "int") || strings.Contains(s, "counter"):
		return "cli.kong.t.int"
	case strings.Contains(s, "bool"):
		return "cli.kong.t.bool"
	case strings.Contains(s, "file") || strings.Contains(s, "path") || strings.Contains(s, "dir"):
		return "cli.kong.t.path"
	case strings.Contains(s, "<key>=<value>"):
		return "cli.kong.t.keyvalue"
	}
	return "cli.kong.t.value"
}

// kongText renders a parse error of kong in language l.
func kongText(s string, l msg.Lang) string {
	if l == msg.EN {
		return s
	}
	for _, p := range kongPatterns {
		if m := p.re.FindStringSubmatch(s); m != nil {
			if p.args != nil {
				return msg.New(p.key, p.args(m, l)...).In(l)
			}
			args := make([]any, len(m)-1)
			for i, a := range m[1:] {
				args[i] = a
			}
			return msg.New(p.key, args...).In(l)
		}
	}
	return msg.New("cli.kong.other", s).In(l)
}

// logHandler writes log lines for a cron log: the time, the level when it
// is not plain information, and the message (already in the run's
// language), with the attributes after it, every piece inert.
type logHandler struct {
	mu    *sync.Mutex
	w     io.Writer
	l     msg.Lang
	attrs []slog.Attr
}

func newLogHandler(w io.Writer, l msg.Lang) *logHandler {
	return &logHandler{mu: &sync.Mutex{}, w: w, l: l}
}

func (h *logHandler) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelInfo }

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Time.Format("2006-01-02 15:04:05"))
	switch {
	case r.Level >= slog.LevelError:
		b.WriteString(" " + msg.New("log.error").In(h.l))
	case r.Level >= slog.LevelWarn:
		b.WriteString(" " + msg.New("log.warn").In(h.l))
	}
	b.WriteString(" " + inert(r.Message))
	write := func(a slog.Attr) bool {
		b.WriteString(" " + inert(a.Key) + "=" + inert(a.Value.String()))
		return true
	}
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	b.WriteString("\n")
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

// WithGroup keeps the attributes flat: the logs have no groups.
func (h *logHandler) WithGroup(string) slog.Handler { return h }

// say prints one line of console text made inert: everything nxbatch says
// on a terminal is one catalog sentence per line, so no character quoted
// from a file or the API (a newline in a sheet name, an escape sequence in
// an API message) can start a line of its own or repaint the screen.
func say(w io.Writer, line string) {
	io.WriteString(w, inert(line)+"\n")
}
