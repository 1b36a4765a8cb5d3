package main

import (
	"errors"
	"path/filepath"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// sandboxStateFile is where the embedded sandbox (--sandbox) keeps its
// state: beside the journal that remembers what was sent to it, so that
// "run it again: nothing is sent" stays true after a restart. One file per
// API environment, whose windows differ.
func sandboxStateFile(e *env, journalSpec string, env sendrules.Env) (string, error) {
	dir, err := stateDirOf(e, journalSpec)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "sandbox", string(env)+".json"), nil
}

// sandboxStartError is the command's error when the embedded sandbox
// cannot start: its state file unusable (the user decides whether to
// delete it), or anything else.
func sandboxStartError(err error) error {
	var se *sandbox.StateFileError
	if errors.As(err, &se) {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("sbx.state.bad", se.Path, msg.CauseOf(se.Err)), Err: err}}
	}
	return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.sandbox.start", err.Error()), Err: err}}
}
