package main

import "errors"

// templateCmd is filled in by the work on issue 5.
type templateCmd struct{}

// Run reports that the command is not available yet.
func (c *templateCmd) Run(e *env) error {
	return &exitError{code: exitUsage, err: errors.New("this command is not available yet (issue 5)")}
}
