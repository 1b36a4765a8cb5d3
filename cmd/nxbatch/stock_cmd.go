package main

import "errors"

// stockCmd is filled in by the work on issue 6.
type stockCmd struct{}

// Run reports that the command is not available yet.
func (c *stockCmd) Run(e *env) error {
	return &exitError{code: exitUsage, err: errors.New("this command is not available yet (issue 6)")}
}
