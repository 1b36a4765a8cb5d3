package main

import "errors"

// catalogCmd is filled in by the work on issue 5.
type catalogCmd struct{}

// Run reports that the command is not available yet.
func (c *catalogCmd) Run(e *env) error {
	return &exitError{code: exitUsage, err: errors.New("this command is not available yet (issue 5)")}
}
