package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
)

// openJournal opens the journal spec names (--journal, or NXBATCH_JOURNAL):
// a postgres:// URL is the PostgreSQL journal several machines share,
// anything else the bbolt file of this machine. wait is how long to wait
// for another process that holds a bbolt file; a PostgreSQL journal is
// shared, and its wait comes per tenant (lease). dir is where the state
// that stays on this machine lives (the catalog cache, tenants.json): the
// file's folder, or for PostgreSQL the user's state folder.
func openJournal(e *env, spec string, wait time.Duration, jo journal.Options, l msg.Lang) (j journal.Store, dir string, err error) {
	if pgjournal.IsURL(spec) {
		def, err := journal.DefaultPath(e.getenv)
		if err != nil {
			return nil, "", usage("cli.nohome")
		}
		s, err := pgjournal.Open(e.ctx, spec, pgjournal.Options{Options: jo})
		if err != nil {
			var me *msg.Error
			if errors.As(err, &me) && me.Msg.Key == "pgj.connect" {
				// The shared journal cannot be reached: like an unreachable
				// API, the run is aborted, not misconfigured.
				return nil, "", &exitError{code: exitAborted, err: me}
			}
			return nil, "", localized(err, l)
		}
		return s, filepath.Dir(def), nil
	}
	path, err := filePath(spec, e)
	if err != nil {
		return nil, "", err
	}
	jo.LockTimeout = wait
	jr, err := journal.Open(path, jo)
	if err != nil {
		if errors.Is(err, journal.ErrLocked) {
			return nil, "", &exitError{code: exitAborted, err: localized(err, l)}
		}
		return nil, "", localized(err, l)
	}
	return jr, filepath.Dir(path), nil
}

// filePath makes a journal file name absolute, with ~ for the home folder
// (what kong's path type did when --journal could only be a file).
func filePath(spec string, e *env) (string, error) {
	if spec == "~" || strings.HasPrefix(spec, "~/") {
		home := e.getenv("HOME")
		if home == "" {
			return "", usage("cli.nohome")
		}
		spec = filepath.Join(home, strings.TrimPrefix(spec, "~"))
	}
	p, err := filepath.Abs(spec)
	if err != nil {
		return "", usage("cli.journal.path", spec, msg.CauseOf(err))
	}
	return p, nil
}

// lease takes the lease of the connection's tenant in the journal, waiting
// up to --wait for another run of the same tenant (on this machine or any
// other) to end. A bbolt file's lock already covers every tenant. The
// lease is let go before the journal closes.
func (c *conn) lease(ctx context.Context) error {
	release, err := c.journal.Acquire(ctx, c.tenant, c.wait)
	if err != nil {
		var me *msg.Error
		if errors.As(err, &me) && errors.Is(err, journal.ErrLocked) {
			return &exitError{code: exitAborted, err: &inWords{text: me.Msg.In(c.lang), cause: err}}
		}
		if errors.Is(err, context.Canceled) {
			return &exitError{code: exitAborted, err: errors.New(msg.New("run.interrupted").In(c.lang))}
		}
		return &exitError{code: exitAborted, err: err}
	}
	c.closers = append(c.closers, release)
	return nil
}

// inWords is an error shown in the user's words that still matches its
// cause (journal.ErrLocked) for the callers that decide on it.
type inWords struct {
	text  string
	cause error
}

func (e *inWords) Error() string { return e.text }
func (e *inWords) Unwrap() error { return e.cause }
