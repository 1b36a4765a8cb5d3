package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/kong"

	"github.com/nxbatch/nxbatch/accounts"
	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/webapp"
)

// serveCmd serves the importer in the browser.
type serveCmd struct {
	Addr         string        `help:"Address to serve the page on. A non-loopback address needs --password-file." default:"127.0.0.1:8080"`
	PasswordFile string        `name:"password-file" help:"File holding the owner's password for the login form (user name owner; readable by its owner only; at least 12 characters). A non-loopback --addr needs it or users (serve user add)." type:"path"`
	AllowHost    []string      `name:"allow-host" help:"Host names (besides localhost and IP addresses) the page may be reached by; others are refused (DNS rebinding)."`
	ReportDir    []string      `name:"report-dir" help:"Report folders of other runs (a cron job's --report-dir) whose imports the history lists." type:"path"`
	Workers      int           `help:"Concurrent venta/facturar requests of a send." default:"4"`
	Rate         float64       `help:"Venta/facturar requests per second of a send (0: no limit beyond --workers)." default:"20"`
	MaxErrors    int           `help:"Stop a send after this many rejected requests in a row (0: never)." default:"50"`
	MaxArticulos int           `help:"Most articles in one stock movement request." default:"500"`
	CatalogTTL   time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
	MaxUpload    int64         `name:"max-upload" help:"Largest upload, in MB." default:"64"`
	MaxRows      int           `name:"max-rows" help:"Most data rows of an upload." default:"300000"`
	KeepUploads  time.Duration `name:"keep-uploads" help:"Remove an upload (its file, fixed version and reports) this long after it was last uploaded or sent." default:"720h"`
	ParseMemory  int64         `name:"parse-memory" help:"Memory budget, in MB, of the files the page reads at once (each read takes 192 MB of it; reads beyond it wait their turn)." default:"512"`
	Open         bool          `help:"Open the owner's address in the default browser (xdg-open, open or start). nxbatch started with no arguments (a double click) serves with --open."`
	connFlags
	sandboxFlags
	stateFlags
	langFlag

	User serveUserCmd `cmd:"" help:"Administer the users who may log in to the page (on a network address): add, remove, list."`
}

// Run serves the page until SIGINT or SIGTERM; a send in progress is then
// stopped as Ctrl-C stops a run (what is in flight settled and journaled).
func (c *serveCmd) Run(e *env, kctx *kong.Context) error {
	if strings.HasPrefix(kctx.Command(), "serve user") {
		return nil // kong runs the parent after `serve user ...`: that was all
	}
	l := c.lang()
	local, err := loopbackAddr(c.Addr)
	if err != nil {
		return usage("serve.addr.bad", c.Addr)
	}
	password := ""
	if c.PasswordFile != "" {
		if password, err = readPassword(c.PasswordFile); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
	}
	if c.TimeScale <= 0 {
		return usage("cli.timescale")
	}
	env, err := sendrules.ParseEnv(c.Env)
	if err != nil {
		return usage("cli.env", c.Env)
	}
	jspec, err := c.journalPath(e)
	if err != nil {
		return err
	}
	dir, err := stateDirOf(e, jspec)
	if err != nil {
		return err
	}
	users := accounts.In(dir)
	list, err := users.List()
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if !local && password == "" && len(list) == 0 {
		return usage("serve.password.needed", c.Addr)
	}
	// Started without a connection (none given, none saved): the page
	// asks for it first, on the address serve will keep.
	var setup *setupPhase
	if !c.Sandbox && c.BaseURL == "" {
		if _, _, err := connection.Load(dir); errors.Is(err, connection.ErrNone) {
			if !local {
				return usage("cli.baseurl.empty")
			}
			if setup, err = c.askConnection(e, dir, l); err != nil || setup == nil {
				return err
			}
			defer setup.close()
		}
	}
	be, closeAPI, err := c.backend(e, env, jspec, l)
	if err != nil {
		if setup != nil {
			setup.failed(err)
		}
		return err
	}
	defer closeAPI()
	srv, err := webapp.New(webapp.Config{Backend: be,
		Send: webapp.SendOptions{Workers: c.Workers, Rate: c.Rate, Timeout: c.Timeout,
			MaxErrors: c.MaxErrors, MaxArticulos: c.MaxArticulos, Wait: c.Wait},
		Limits: webapp.Limits{MaxBytes: c.MaxUpload << 20, MaxRows: c.MaxRows}, ParseMemory: c.ParseMemory << 20, KeepUploads: c.KeepUploads,
		ReportDirs: c.ReportDir, Addr: c.Addr, AllowHosts: c.AllowHost, Password: password, Accounts: users,
		CatalogTTL: c.CatalogTTL, Tool: "nxbatch " + version, Log: e.log.With(slog.String("component", "serve")), Lang: l})
	if err != nil {
		if setup != nil {
			setup.failed(err)
		}
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("serve.failed", msg.CauseOf(err)), Err: err}}
	}
	var ln net.Listener
	var hs *http.Server
	var served chan error
	if setup != nil {
		// The same address goes on: the connection page gives way to
		// the page proper.
		ln, hs, served = setup.ln, setup.hs, setup.served
		setup.handler.set(srv.Handler())
	} else {
		if ln, err = net.Listen("tcp", c.Addr); err != nil {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.listen.addr", c.Addr), Err: err}}
		}
		hs = srv.HTTPServer(slog.NewLogLogger(e.log.Handler(), slog.LevelWarn))
		served = make(chan error, 1)
		go func() { served <- hs.Serve(ln) }()
	}
	warm, stopWarm := context.WithCancel(e.ctx)
	defer stopWarm()
	go srv.Warm(warm)
	go srv.Maintain(warm) // uploads past --keep-uploads go
	if !local {
		say(e.stderr, msg.New("serve.remote", c.Addr).In(l))
	}
	// The owner's way in: the address with the key, printed and kept in
	// an owner-only file of the state folder; another account of the
	// machine reads neither.
	loginURL := srv.LoginURL("http://" + ln.Addr().String() + "/")
	urlFile := filepath.Join(dir, webapp.LoginURLFile)
	if err := atomicfile.Write(urlFile, atomicfile.Private, func(w io.Writer) error {
		_, err := io.WriteString(w, loginURL+"\n")
		return err
	}); err != nil {
		e.log.Warn("cannot keep the login address", "file", urlFile, "err", err.Error())
	}
	defer removeIfOurs(urlFile, loginURL)
	say(e.stdout, msg.New("serve.listening", loginURL).In(l))
	if setup != nil {
		setup.started(loginURL)
	} else if c.Open {
		openBrowser(e, loginURL, l)
	}
	select {
	case <-e.ctx.Done():
	case err := <-served:
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("serve.failed", msg.CauseOf(err)), Err: err}}
	}
	say(e.stderr, msg.New("serve.stopping").In(l))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv.Close(ctx)
	_ = hs.Shutdown(ctx)
	return nil
}

// removeIfOurs removes the login address file at exit, unless another
// serve of the same state folder wrote its own since.
func removeIfOurs(path, loginURL string) {
	if b, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(b)) == loginURL {
		_ = os.Remove(path)
	}
}

// backend connects the page to the API (or the embedded sandbox) through
// the same runner.Session as `nxbatch run` (openSession), without opening
// the journal: the page opens it only while it needs it. env is --env,
// checked.
func (c *serveCmd) backend(e *env, env sendrules.Env, jspec string, l msg.Lang) (webapp.Backend, func(), error) {
	cf := c.connFlags
	cf.Env = string(env)
	sess, stop, err := openSession(e, cf, c.sandboxFlags, stateFlags{Journal: jspec, Wait: c.Wait}, journal.Options{}, l)
	if err != nil {
		return webapp.Backend{}, nil, err
	}
	return webapp.Backend{JournalPath: jspec, Session: sess}, func() { _ = stop() }, nil
}

// readPassword reads the page's password from an owner-only file, checked
// as the token file is.
func readPassword(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", &msg.Error{Msg: msg.New("serve.password.read", path), Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", &msg.Error{Msg: msg.New("serve.password.read", path), Err: err}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return "", &msg.Error{Msg: msg.New("serve.password.perms", path, fmt.Sprintf("%04o", perm), path)}
	}
	b, err := io.ReadAll(io.LimitReader(f, 4<<10))
	if err != nil {
		return "", &msg.Error{Msg: msg.New("serve.password.read", path), Err: err}
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", &msg.Error{Msg: msg.New("serve.password.empty", path)}
	}
	if n := utf8.RuneCountInString(pw); n < accounts.MinPasswordLength {
		return "", &msg.Error{Msg: msg.New("serve.password.short", path, n, accounts.MinPasswordLength)}
	}
	return pw, nil
}
