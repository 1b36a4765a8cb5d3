package main

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"sync/atomic"

	"github.com/nxbatch/nxbatch/connection"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/webapp"
)

// swapHandler serves with whichever handler was set last: the connection
// page, then the page proper, on one listener.
type swapHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swapHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

// setupPhase is serve's connection page, running until the page proper
// takes its listener over.
type setupPhase struct {
	ln      net.Listener
	hs      *http.Server
	served  chan error
	handler *swapHandler
	next    chan nextPage
}

// nextPage is the page proper's owner address, or why it did not start.
type nextPage struct {
	url string
	err error
}

// askConnection serves the connection page on serve's address and waits
// until the owner saved a connection there (nil, nil: serve was stopped
// meanwhile).
func (c *serveCmd) askConnection(e *env, dir string, l msg.Lang) (*setupPhase, error) {
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.listen.addr", c.Addr), Err: err}}
	}
	saved := make(chan connection.Saved, 1)
	p := &setupPhase{ln: ln, served: make(chan error, 1), handler: &swapHandler{}, next: make(chan nextPage, 1)}
	st := &webapp.Setup{StateDir: dir, Saved: saved, Log: e.log.With(slog.String("component", "serve")), Lang: l,
		Next: func(ctx context.Context) (string, error) {
			select {
			case n := <-p.next:
				p.next <- n // for a second tab
				return n.url, n.err
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}}
	p.handler.set(st.Handler())
	t := webapp.DefaultTimeouts
	p.hs = &http.Server{Handler: p.handler, ReadHeaderTimeout: t.Header, ReadTimeout: t.Read, WriteTimeout: t.Write,
		IdleTimeout: t.Idle, MaxHeaderBytes: 64 << 10, ErrorLog: slog.NewLogLogger(e.log.Handler(), slog.LevelWarn)}
	go func() { p.served <- p.hs.Serve(ln) }()
	u, err := st.URL("http://" + ln.Addr().String() + "/")
	if err != nil {
		p.close()
		return nil, err
	}
	say(e.stdout, msg.New("serve.setup", u).In(l))
	if c.Open {
		openBrowser(e, u, l)
	}
	select {
	case <-saved:
		return p, nil
	case <-e.ctx.Done():
		p.close()
		return nil, nil
	case err := <-p.served:
		return nil, &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("serve.failed", msg.CauseOf(err)), Err: err}}
	}
}

// started sends the owner on to the page proper.
func (p *setupPhase) started(url string) { p.next <- nextPage{url: url} }

// failed tells the connection page the page proper did not start.
func (p *setupPhase) failed(err error) { p.next <- nextPage{err: err} }

// close stops the connection page's server, unless the page proper took
// it over (serve then shuts it down itself).
func (p *setupPhase) close() {
	select {
	case n := <-p.next:
		p.next <- n
		if n.err == nil {
			return
		}
	default:
	}
	_ = p.hs.Close()
}

// openBrowser opens url in the default browser, without waiting for it;
// when it cannot, the address printed above is the way in.
func openBrowser(e *env, url string, l msg.Lang) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	case "darwin":
		cmd = exec.Command("open", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		say(e.stderr, msg.New("serve.noopen", msg.CauseOf(err)).In(l))
		return
	}
	go func() { _ = cmd.Wait() }()
}
