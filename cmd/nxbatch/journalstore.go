package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
)

// openJournal opens the journal spec names (--journal, or NXBATCH_JOURNAL):
// a postgres:// URL is the PostgreSQL journal several machines share,
// anything else the bbolt file of this machine. wait is how long to wait
// for another process that holds a bbolt file; a PostgreSQL journal is
// shared, and its wait comes per tenant (lease). dir is where the state
// that stays on this machine lives (the catalog cache, tenants.json,
// profiles, the page's uploads): the file's folder, or for PostgreSQL the
// user's state folder. Its errors are the command's, with their exit code.
func openJournal(e *env, spec string, wait time.Duration, jo journal.Options, l msg.Lang) (j journal.Store, dir string, err error) {
	j, dir, err = openStore(e, spec, wait, jo)
	if err != nil {
		return nil, "", journalError(err, l)
	}
	return j, dir, nil
}

// openStore opens the journal spec names, with the journal's own errors
// (journal.ErrLocked when another process holds the file): the page
// decides on them itself.
func openStore(e *env, spec string, wait time.Duration, jo journal.Options) (journal.Store, string, error) {
	dir, err := stateDirOf(e, spec)
	if err != nil {
		return nil, "", err
	}
	if pgjournal.IsURL(spec) {
		s, err := pgjournal.Open(e.ctx, spec, pgjournal.Options{Options: jo})
		return s, dir, err
	}
	path, err := filePath(spec, e)
	if err != nil {
		return nil, "", err
	}
	jo.LockTimeout = wait
	jr, err := boltjournal.Open(path, jo)
	if err != nil {
		return nil, "", err
	}
	return jr, dir, nil
}

// stateDirOf is the folder of what stays on this machine for the journal
// spec: the journal file's folder, or the user's state folder when the
// journal is in PostgreSQL.
func stateDirOf(e *env, spec string) (string, error) {
	if pgjournal.IsURL(spec) {
		def, err := boltjournal.DefaultPath(e.getenv)
		if err != nil {
			return "", usage("cli.nohome")
		}
		return filepath.Dir(def), nil
	}
	path, err := filePath(spec, e)
	if err != nil {
		return "", err
	}
	return filepath.Dir(path), nil
}

// filePath makes a journal file name absolute, with ~ for the home folder
// (what kong's path type did when --journal could only be a file).
func filePath(spec string, e *env) (string, error) {
	if i := strings.Index(spec, "://"); i > 0 {
		// A URL that is not PostgreSQL's would become a file named after it.
		return "", usage("cli.journal.scheme", spec[:i]+"://")
	}
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

// defaultStore fills an empty --store with listen's store in the user's
// state folder, beside the default journal: listen run by a service and
// stock export run by hand find the same snapshot from any folder.
func defaultStore(e *env, store *string) error {
	if *store != "" {
		return nil
	}
	def, err := boltjournal.DefaultPath(e.getenv)
	if err != nil {
		return usage("cli.nohome")
	}
	*store = filepath.Join(filepath.Dir(def), "listen")
	return nil
}

// existingJournal refuses a journal file that is not there, for the
// commands that read or settle entries: opening it would create an empty
// journal and answer as if nothing had ever been sent.
func existingJournal(e *env, spec string) error {
	if pgjournal.IsURL(spec) {
		return nil
	}
	path, err := filePath(spec, e)
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return usage("jrn.notthere", path)
	}
	return nil
}
