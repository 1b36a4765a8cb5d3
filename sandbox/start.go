package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Running is a sandbox listening on a TCP address.
type Running struct {
	URL    string // http://127.0.0.1:PORT, the base URL clients use
	Server *Server
	srv    *http.Server
	served chan error

	closing sync.Once
	closed  error
}

// Start builds a sandbox and serves it on addr ("127.0.0.1:0" picks a free
// port) until Close.
func Start(d *Data, opts Options, addr string) (*Running, error) {
	s, err := New(d, opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	r := &Running{
		URL:    "http://" + ln.Addr().String(),
		Server: s,
		srv:    &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second},
		served: make(chan error, 1),
	}
	go func() { r.served <- r.srv.Serve(ln) }()
	return r, nil
}

// Close stops event delivery, drops hanging requests and shuts the listener
// down gracefully, waiting up to 5 s for requests in progress. Later calls
// return the first one's result.
func (r *Running) Close() error {
	r.closing.Do(func() {
		r.Server.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := r.srv.Shutdown(ctx)
		if serr := <-r.served; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		r.closed = err
	})
	return r.closed
}
