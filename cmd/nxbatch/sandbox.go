package main

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/nxbatch/nxbatch/sandbox"
)

// faultFlags configure the sandbox's test-only misbehaviour.
type faultFlags struct {
	Latency   time.Duration `help:"Added latency on every API request (e.g. 20ms)."`
	Fail500   float64       `name:"fail-500" help:"Fraction of creating POSTs answered 500 before any processing (0..1)."`
	DropAfter float64       `name:"drop-after" help:"Fraction of creating POSTs processed and then answered by a dropped connection (0..1)."`
	Hang      float64       `help:"Fraction of creating POSTs left hanging until the client gives up (0..1)."`
	Seed      int64         `help:"Seed that makes fault draws deterministic." default:"1"`
}

type sandboxCmd struct {
	Addr          string  `help:"Loopback address to listen on." default:"127.0.0.1:8091"`
	Data          string  `help:"Data file to seed the sandbox from (default: the embedded demo data)." type:"existingfile"`
	Token         string  `help:"Token the sandbox accepts (a sandbox token is no secret)." default:"sandbox-token"`
	Env           string  `help:"Which API windows to apply to webhooks: production or test." enum:"production,test" default:"production"`
	TimeScale     float64 `help:"Multiply every API window by this factor (tests)." default:"1"`
	FlujoDeposito int     `help:"Override config.flujoDeposito (3 = multi-warehouse events)."`
	faultFlags
}

func (f faultFlags) apply(o *sandbox.Options) {
	o.Latency, o.Fail500, o.DropAfter, o.Hang, o.Seed = f.Latency, f.Fail500, f.DropAfter, f.Hang, f.Seed
}

// Run serves the sandbox until SIGINT or SIGTERM.
func (c *sandboxCmd) Run(e *env) error {
	data := sandbox.DemoData()
	if c.Data != "" {
		fh, err := os.Open(c.Data)
		if err != nil {
			return usageErr("sandbox data: %v", err)
		}
		data, err = sandbox.LoadData(fh)
		fh.Close()
		if err != nil {
			return usageErr("sandbox data %s: %v", c.Data, err)
		}
	}
	o := sandbox.Options{Token: c.Token, Env: c.Env, TimeScale: c.TimeScale,
		FlujoDeposito: c.FlujoDeposito, Logger: e.log.With(slog.String("component", "sandbox"))}
	c.faultFlags.apply(&o)
	srv, err := sandbox.Start(data, o, c.Addr)
	if err != nil {
		return usageErr("start sandbox: %v", err)
	}
	fmt.Fprintf(e.stdout, "sandbox serving %s\n", srv.URL)
	fmt.Fprintf(e.stdout, "  NX_BASE_URL=%s\n  token: %s (a sandbox token, not a secret)\n", srv.URL, c.Token)
	fmt.Fprintf(e.stdout, "  inspection: %s/_sandbox/state\n", srv.URL)
	<-e.ctx.Done()
	fmt.Fprintln(e.stdout, "sandbox stopping")
	return srv.Close()
}
