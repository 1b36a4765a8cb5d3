package main

import "errors"

// listenCmd is filled in by the work on issue 6.
type listenCmd struct{}

// Run reports that the command is not available yet.
func (c *listenCmd) Run(e *env) error {
	return &exitError{code: exitUsage, err: errors.New("this command is not available yet (issue 6)")}
}
