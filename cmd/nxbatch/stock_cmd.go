package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
)

// stockCmd works with the stock snapshot listen keeps.
type stockCmd struct {
	Export stockExportCmd `cmd:"" help:"Write the stock snapshot (one row per article, variant and warehouse) to a CSV or XLSX file, to compare with a count."`
}

type stockExportCmd struct {
	File  string `arg:"" help:"Output file, .csv or .xlsx (written owner-only; a symbolic link there is refused)." type:"path"`
	Store string `help:"listen's store directory: the durable event log, the stock snapshot and the shared secret (not a symbolic link). Default: listen/ in the state folder ($XDG_STATE_HOME/nxbatch, else ~/.local/state/nxbatch), shared by runs from any folder." type:"path"`
	Since string `help:"Only rows changed since then: a duration back from now (24h, 90m) or a date (2026-11-20, 20/11/2026, RFC 3339)."`
	langFlag
}

// Run writes the snapshot; it works while listen runs.
func (c *stockExportCmd) Run(e *env) error {
	l := c.lang()
	if err := defaultStore(e, &c.Store); err != nil {
		return err
	}
	since, err := parseSince(c.Since, time.Now())
	if err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("lst.since.bad", c.Since)}}
	}
	st, err := listener.Load(c.Store, listener.Options{Lang: l, Log: e.log})
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	rows := st.Rows(since)
	if err := listener.Export(c.File, rows); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if len(st.Articulos) == 0 {
		say(e.stderr, msg.New("lst.empty", c.Store).In(l))
	}
	say(e.stdout, msg.Count("lst.exported", len(rows), c.File).In(l))
	// Events listen had to refuse are stock this file cannot show.
	ref, err := listener.LoadRefusals(c.Store)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	printRefusals(e, ref, l)
	return nil
}

// parseSince reads --since: empty (everything), a duration back from now,
// or a date or time (dd/mm/yyyy, never mm/dd).
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02", "02/01/2006 15:04", "02/01/2006", "2/1/2006"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot read %q as a duration or a date", s)
}
