package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sendrules"
)

// listenCmd receives articulos events into the store.
type listenCmd struct {
	Addr         string        `help:"Address to listen on (the webhook URL must reach it; put TLS in front for the Internet)." default:"127.0.0.1:8092"`
	Store        string        `help:"listen's store directory: the durable event log, the stock snapshot and the shared secret (not a symbolic link). Default: listen/ in the state folder ($XDG_STATE_HOME/nxbatch, else ~/.local/state/nxbatch), shared by runs from any folder." type:"path"`
	MaxBody      int64         `help:"Largest event body accepted, in bytes." default:"4194304"`
	MaxItems     int           `help:"Most items (variants and per-warehouse entries) accepted in one event." default:"500000"`
	ReplayWindow time.Duration `help:"A body identical to the last event about its articles, received at most this long before, is a replay and changes nothing." default:"1h"`
	ProbeEvery   time.Duration `help:"While the disk refuses writes, how often to try one without waiting for an event." default:"5s"`
	langFlag
}

// Run serves until SIGINT or SIGTERM, then applies every stored event and
// saves the snapshot.
func (c *listenCmd) Run(e *env) error {
	l := c.lang()
	if err := defaultStore(e, &c.Store); err != nil {
		return err
	}
	secret, hasSecret, err := listener.LoadSecret(c.Store)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	lg := e.log.With(slog.String("component", "listen"))
	st, err := listener.Open(c.Store, listener.Options{ReplayWindow: c.ReplayWindow, MaxItems: c.MaxItems, ProbeEvery: c.ProbeEvery, Lang: l, Log: lg})
	if errors.Is(err, listener.ErrLocked) {
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("lst.locked", c.Store)}}
	}
	if err != nil {
		var me *msg.Error
		if !errors.As(err, &me) {
			err = &msg.Error{Msg: msg.New("lst.open", c.Store, msg.CauseOf(err)), Err: err}
		}
		return &exitError{code: exitUsage, err: err}
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		st.Close()
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.listen.addr", c.Addr), Err: err}}
	}
	h := &listener.Handler{Store: st, MaxBody: c.MaxBody, Lang: l, Log: lg}
	if hasSecret {
		h.Secret, h.SecretDir = secret, c.Store
	}
	// The sender gives up after 10 s (API spec 6.1): nothing here may take
	// longer than that.
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: sendrules.ReceiverDeadline,
		WriteTimeout: sendrules.ReceiverDeadline, IdleTimeout: time.Minute}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String()
	say(e.stdout, msg.New("lst.listening", url, c.Store).In(l))
	if hasSecret {
		say(e.stdout, msg.New("lst.secret", listener.SecretHeader).In(l))
	} else {
		say(e.stderr, msg.New("lst.nosecret").In(l))
	}
	var serveErr error
	select {
	case <-e.ctx.Done():
	case serveErr = <-served:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	unavailable := st.Unavailable()
	closeErr := st.Close()
	stats := st.Stats()
	say(e.stdout, msg.New("lst.stopped", stats.Events, stats.Replays).In(l))
	if unavailable != nil {
		say(e.stderr, msg.New("lst.unavailable", unavailable).In(l))
	}
	printRefusals(e, st.Refusals(), l)
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return &exitError{code: exitAborted, err: serveErr}
	}
	if closeErr != nil {
		return &exitError{code: exitAborted, err: closeErr}
	}
	return nil
}

// printRefusals tells the operator, on stderr, that events were refused
// and a full stock resync is due; nothing when none was.
func printRefusals(e *env, r listener.Refusals, l msg.Lang) {
	if r.Total() == 0 {
		return
	}
	say(e.stderr, msg.New("lst.refused.status", r.Total(), r.Unstored, r.TooLarge, r.Malformed,
		r.Last.Local().Format(time.DateTime)).In(l))
}
