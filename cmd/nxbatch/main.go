// Command nxbatch validates and submits spreadsheets of sales, presales to
// invoice and stock movements to the ERP's third-party integration API,
// exactly once, and writes a report for every row.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "v0.1.0-dev"

// Exit codes (nxbatch.md section 7).
const (
	exitOK          = 0
	exitRowProblems = 1 // some rows invalid, rejected (in this run) or conflict
	exitUsage       = 2 // usage or configuration error
	exitUnknown     = 3 // some outcomes unknown
	exitAborted     = 4 // 401, interrupted, journal locked
)

// exitError carries an exit code out of a command; its error (if any) is
// rendered once, in the run's language, by main.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usage is a usage or configuration error with a catalog message.
func usage(key string, args ...any) error {
	return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New(key, args...)}}
}

// exitCode maps an error to the process exit code: the one place that does.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitUsage
}

// localizer is an error that renders itself in a language: msg.Error.
type localizer interface{ In(msg.Lang) string }

// messager is an error that carries a catalog message (the journal's
// refusals).
type messager interface{ Message() msg.Message }

// render turns an error into the sentence the user reads, in language l:
// the first error of the chain that speaks the user's language, else the
// cause as it came, inside a sentence of the catalog. It is the one place
// where errors become text.
func render(err error, l msg.Lang) string {
	if err == nil {
		return ""
	}
	var pe *kong.ParseError
	if errors.As(err, &pe) {
		return msg.New("cli.parse", kongText(pe.Error(), l)).In(l)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if _, isExit := e.(*exitError); isExit {
			continue
		}
		if lz, ok := e.(localizer); ok {
			return lz.In(l)
		}
		if m, ok := e.(messager); ok {
			return m.Message().In(l)
		}
	}
	var lz localizer
	if errors.As(err, &lz) {
		return lz.In(l)
	}
	return msg.New("cli.failed", err.Error()).In(l)
}

// env is what commands get from main: streams, signals, a logger. Tests
// build their own.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader // nil: os.Stdin
	log    *slog.Logger
	getenv func(string) string
}

// cli is the command line.
type cli struct {
	Version kong.VersionFlag `help:"Print the version and exit."`

	Validate validateCmd `cmd:"" help:"Read, group and validate files locally and write the reports; sends nothing."`
	Run      runCmd      `cmd:"" help:"Validate, then submit every valid request to the API, journaled and rate-limited, and write the reports."`
	Sandbox  sandboxCmd  `cmd:"" help:"Serve the API sandbox (a faithful local implementation of the API) on a loopback address."`
	Journal  journalCmd  `cmd:"" help:"Inspect the journal of sent requests and settle those whose outcome is unknown."`
	Catalog  catalogCmd  `cmd:"" help:"Fetch, show and export the tenant's catalogs (payment methods, bank accounts, cards, stock reasons)."`
	Template templateCmd `cmd:"" help:"Write an XLSX template for a kind, with drop-down lists filled from the catalogs."`
	Webhooks webhooksCmd `cmd:"" help:"Administer the integration's articulos webhook."`
	Listen   listenCmd   `cmd:"" help:"Receive articulos events, store them durably and keep a local stock snapshot."`
	Stock    stockCmd    `cmd:"" help:"Work with the local stock snapshot kept by listen."`

	// Reconcile settles unknown outcomes from what the API shows (issue 10).
	Reconcile reconcileCmd `cmd:"" help:"Settle requests whose outcome is unknown from what the API shows (GET /comprobante, the sales export); writes each decision with its evidence."`

	// Serve is the importer in the browser (issue 11).
	Serve serveCmd `cmd:"" help:"Serve the importer as a local web page: upload, map columns, fix errors on their cells, send (same journal as run), history."`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l := langOf(os.Args[1:])
	go func() {
		// The first signal asks for a clean stop (requests in flight are
		// settled and journaled); restoring the default lets a second one
		// end the process at once. What was in flight is then unknown.
		<-ctx.Done()
		stop()
		say(os.Stderr, "nxbatch: "+msg.New("cli.stopping").In(l))
	}()
	e := &env{ctx: ctx, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		log: slog.New(newLogHandler(os.Stderr, l))}
	atomicfile.CleanTemp()
	args := os.Args[1:]
	if len(args) == 0 {
		// Started with no arguments, as a double click on the program
		// starts it: the page, in the default browser.
		args = []string{"serve", "--open"}
	}
	err := run(e, args)
	atomicfile.RemoveTemp()
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) || ee.err != nil {
			say(os.Stderr, "nxbatch: "+render(err, l))
		}
	}
	os.Exit(exitCode(err))
}

// langOf finds --lang among the arguments before they are parsed, so that
// even a parse error is told in the run's language.
func langOf(args []string) msg.Lang {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--lang=")
		if !ok && a == "--lang" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok {
			if l, err := msg.ParseLang(v); err == nil {
				return l
			}
		}
	}
	return msg.ES
}

// run parses args and runs the chosen command.
func run(e *env, args []string) error {
	var c cli
	exited := -1
	parser, err := kong.New(&c,
		kong.Name("nxbatch"),
		kong.Description("Batch importer for the ERP's third-party integration API: validates spreadsheets of sales (venta), presales to invoice (facturar) and stock movements, submits them exactly once, and writes a report for every row."),
		kong.UsageOnError(),
		kong.Vars{"version": "nxbatch " + version},
		kong.Writers(e.stdout, e.stderr),
		kong.Exit(func(code int) { exited = code }),
		kong.Bind(e),
	)
	if err != nil {
		return err
	}
	kctx, err := parser.Parse(args)
	if exited >= 0 {
		// --help or --version printed and asked to exit.
		if exited == 0 {
			return nil
		}
		return &exitError{code: exitUsage}
	}
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	return kctx.Run(e)
}
