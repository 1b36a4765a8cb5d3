package main

import (
	"context"
	"errors"
	"github.com/nxbatch/nxbatch/apiclient"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// faultFlags configure the sandbox's test-only misbehaviour.
type faultFlags struct {
	Latency   time.Duration `help:"Added latency on every API request (e.g. 20ms)."`
	Fail500   float64       `name:"fail-500" help:"Fraction of creating POSTs the API would process that are answered 500 and not processed (0..1)."`
	DropAfter float64       `name:"drop-after" help:"Fraction of creating POSTs the API would process that are processed and then answered by a dropped connection (0..1)."`
	Hang      float64       `help:"Fraction of creating POSTs the API would process that are left hanging, not processed, until the client gives up (0..1)."`
	Seed      int64         `help:"Seed that makes fault draws deterministic." default:"1"`
	ExportLag time.Duration `name:"export-lag" help:"A sale appears in the paginated exports only this long after it was created (API time: multiplied by --time-scale)."`
}

type sandboxCmd struct {
	Addr          string  `help:"Loopback address to listen on (127.0.0.1, ::1 or localhost; anything else needs --allow-remote)." default:"127.0.0.1:8091"`
	AllowRemote   bool    `help:"Allow an --addr that is not loopback (the sandbox is then reachable by anyone who knows its well-known token)."`
	Data          string  `help:"Data file to seed the sandbox from (default: the embedded demo data)." type:"existingfile"`
	Token         string  `help:"Token the sandbox accepts, on the API and on its inspection endpoint (a sandbox token is no secret)." default:"sandbox-token"`
	Env           string  `help:"API environment whose windows apply (webhooks, exports, comprobante): production or test." enum:"production,test" default:"production"`
	TimeScale     float64 `help:"Multiply every API window by this factor (tests)." default:"1"`
	FlujoDeposito int     `help:"Override config.flujoDeposito (3 = multi-warehouse events)."`
	faultFlags
	langFlag
}

func (f faultFlags) apply(o *sandbox.Options) {
	o.Latency, o.Fail500, o.DropAfter, o.Hang, o.Seed = f.Latency, f.Fail500, f.DropAfter, f.Hang, f.Seed
	o.ExportLag = f.ExportLag
}

// loopbackAddr reports whether addr (HOST:PORT) listens on this machine
// only: a loopback IP or "localhost". An empty host listens on every
// interface, and any other name could resolve to one, so both are not.
func loopbackAddr(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	return apiclient.LoopbackHost(host), nil
}

// Run serves the sandbox until SIGINT or SIGTERM.
func (c *sandboxCmd) Run(e *env) error {
	l := c.lang()
	local, err := loopbackAddr(c.Addr)
	if err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("sbx.addr.bad", c.Addr), Err: err}}
	}
	if !local && !c.AllowRemote {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("sbx.loopback", c.Addr)}}
	}
	data := sandbox.DemoData()
	if c.Data != "" {
		if data, err = loadSandboxData(c.Data); err != nil {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("sbx.data.bad", c.Data, msg.CauseOf(unwrapAll(err))), Err: err}}
		}
	}
	o := sandbox.Options{Token: c.Token, Env: c.Env, TimeScale: c.TimeScale,
		FlujoDeposito: c.FlujoDeposito, Logger: e.log.With(slog.String("component", "sandbox"))}
	c.faultFlags.apply(&o)
	srv, err := sandbox.Start(data, o, c.Addr)
	if err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("sbx.start", c.Addr, msg.CauseOf(unwrapAll(err))), Err: err}}
	}
	if !local {
		say(e.stderr, msg.New("sbx.remote", srv.URL).In(l))
	}
	say(e.stdout, msg.New("sbx.serving", srv.URL).In(l))
	say(e.stdout, msg.New("sbx.baseurl", srv.URL).In(l))
	say(e.stdout, msg.New("sbx.token", c.Token).In(l))
	say(e.stdout, msg.New("sbx.inspect", srv.URL+sandbox.InspectPath).In(l))
	if c.ExportLag > 0 {
		say(e.stdout, msg.New("sbx.exportlag", msg.Duration(c.ExportLag)).In(l))
	}
	<-e.ctx.Done()
	say(e.stdout, msg.New("sbx.stopping").In(l))
	return srv.Close()
}

// loadSandboxData reads a sandbox data file.
func loadSandboxData(path string) (*sandbox.Data, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return sandbox.LoadData(fh)
}

// unwrapAll is the innermost cause of err: the system's or the library's
// own words, without the English sentences that wrap them on the way up.
func unwrapAll(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// sandboxCatalogs reads the embedded sandbox's catalogs in-process
// (catalog.Cache.Local): the sandbox knows them, so a --sandbox run spends
// no parameter window on them and never waits for one.
type sandboxCatalogs struct{ s *sandbox.Server }

// MediosPago is the sandbox's GET /medios-pago.
func (sc sandboxCatalogs) MediosPago(context.Context) (*nxapi.MediosPagoConfig, error) {
	m := sc.s.MediosPago()
	return &m, nil
}

// Motivos is the sandbox's GET /motivos.
func (sc sandboxCatalogs) Motivos(context.Context) ([]nxapi.Motivo, error) {
	return sc.s.Motivos(), nil
}
