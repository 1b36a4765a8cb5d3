package main

import "errors"

// webhooksCmd is filled in by the work on issue 6.
type webhooksCmd struct{}

// Run reports that the command is not available yet.
func (c *webhooksCmd) Run(e *env) error {
	return &exitError{code: exitUsage, err: errors.New("this command is not available yet (issue 6)")}
}
