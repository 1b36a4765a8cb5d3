package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/nxbatch/nxbatch/accounts"
	"github.com/nxbatch/nxbatch/msg"
)

// serveUserCmd administers who may log in to the page on a network
// address: the users file of the state folder (the journal's folder, as
// `serve` uses it).
type serveUserCmd struct {
	Add    serveUserAddCmd    `cmd:"" help:"Add a user who may log in to the page, or change their password (asked twice on a terminal, else the first line of standard input; at least 12 characters)."`
	Remove serveUserRemoveCmd `cmd:"" help:"Remove a user; their open sessions end at their next request."`
	List   serveUserListCmd   `cmd:"" help:"List the users who may log in to the page."`
}

// serveUserAddCmd adds a user or changes their password.
type serveUserAddCmd struct {
	Name string `arg:"" help:"The user's name (letters, digits, . _ @ -)."`
}

// serveUserRemoveCmd removes a user.
type serveUserRemoveCmd struct {
	Name string `arg:"" help:"The user's name."`
}

// serveUserListCmd lists the users.
type serveUserListCmd struct{}

// usersOf is the users file of serve's state folder.
func usersOf(e *env, s *serveCmd) (*accounts.Store, error) {
	dir, err := s.stateDir(e)
	if err != nil {
		return nil, err
	}
	return accounts.In(dir), nil
}

// Run asks for the password and keeps its hash.
func (c *serveUserAddCmd) Run(e *env, s *serveCmd) error {
	l := s.lang()
	if err := accounts.CheckName(c.Name); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	store, err := usersOf(e, s)
	if err != nil {
		return err
	}
	pw, err := readNewPassword(e, c.Name, l)
	if err != nil {
		return err
	}
	if err := store.Set(c.Name, pw, time.Now()); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	say(e.stdout, msg.New("acct.added", c.Name, store.Path).In(l))
	return nil
}

// readNewPassword reads a new password: twice, without echo, on a
// terminal; else the first line of standard input.
func readNewPassword(e *env, name string, l msg.Lang) (string, error) {
	in := e.stdin
	if in == nil {
		in = os.Stdin
	}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(e.stderr, msg.New("acct.prompt", name, accounts.MinPasswordLength).In(l))
		a, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		if err != nil {
			return "", usage("acct.password.none")
		}
		if err := accounts.CheckPassword(string(a)); err != nil {
			return "", &exitError{code: exitUsage, err: err}
		}
		fmt.Fprint(e.stderr, msg.New("acct.prompt.again").In(l))
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(e.stderr)
		if err != nil || string(a) != string(b) {
			return "", usage("acct.password.again")
		}
		return string(a), nil
	}
	line, err := bufio.NewReader(io.LimitReader(in, 4<<10)).ReadString('\n')
	if err != nil && line == "" {
		return "", usage("acct.password.none")
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// Run removes the user.
func (c *serveUserRemoveCmd) Run(e *env, s *serveCmd) error {
	store, err := usersOf(e, s)
	if err != nil {
		return err
	}
	if err := store.Remove(c.Name); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	say(e.stdout, msg.New("acct.removed", c.Name).In(s.lang()))
	return nil
}

// Run lists the users: name and when added.
func (c *serveUserListCmd) Run(e *env, s *serveCmd) error {
	store, err := usersOf(e, s)
	if err != nil {
		return err
	}
	users, err := store.List()
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if len(users) == 0 {
		say(e.stderr, msg.New("acct.none").In(s.lang()))
		return nil
	}
	for _, u := range users {
		fmt.Fprintf(e.stdout, "%s\t%s\n", inert(u.Name), u.Added.UTC().Format(time.RFC3339))
	}
	return nil
}
