package boltjournal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/journal"
)

// sockPath is the listing socket beside a journal.
func sockPath(path string) string { return path + ".sock" }

// maxSockPath is the longest Unix socket path the kernel takes (108 bytes
// on Linux, 104 on the BSDs), with the terminating NUL.
const maxSockPath = 103

// ServeListing answers listings of the journal on a Unix socket beside it
// (NAME.sock, owner-only) while this process holds the journal, so that
// `nxbatch journal list` works during a run: bbolt's lock keeps every other
// process out of the file itself. stop closes the socket and removes it.
func (j *Journal) ServeListing() (stop func(), err error) {
	p := sockPath(j.path)
	if len(p) > maxSockPath {
		return func() {}, fmt.Errorf("journal: listing socket path %s is too long", p)
	}
	// We hold the journal's lock: a socket left here belongs to a run that
	// died, never to a live one.
	_ = os.Remove(p)
	ln, err := net.Listen("unix", p)
	if err != nil {
		return func() {}, fmt.Errorf("journal: listing socket: %w", err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		ln.Close()
		return func() {}, fmt.Errorf("journal: listing socket: %w", err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/entries" {
			http.NotFound(w, r)
			return
		}
		entries, err := j.List(r.Context(), journal.State(r.URL.Query().Get("state")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(entries)
	})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
		_ = os.Remove(p)
	}, nil
}

// ErrNoListing means no running process answers listings of the journal.
var ErrNoListing = errors.New("journal: no running nxbatch answers listings of this journal")

// ListRunning asks the process that holds the journal at path for its
// entries in state filter ("" for all).
func ListRunning(ctx context.Context, path string, filter journal.State) ([]journal.Entry, error) {
	p := sockPath(path)
	if _, err := os.Stat(p); err != nil {
		return nil, ErrNoListing
	}
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", p)
		},
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://journal/entries?state="+url.QueryEscape(string(filter)), nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, errors.Join(ErrNoListing, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("journal: listing from the running process: HTTP %d", resp.StatusCode)
	}
	var out []journal.Entry
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("journal: listing from the running process: %w", err)
	}
	return out, nil
}

// DefaultPath is where the journal lives when --journal is not given: the
// user's state directory ($XDG_STATE_HOME/nxbatch/journal, else
// ~/.local/state/nxbatch/journal), so that runs started from any folder
// share one journal.
func DefaultPath(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "nxbatch", "journal"), nil
	}
	home := getenv("HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("journal: no home folder to keep the journal in (set XDG_STATE_HOME or --journal): %w", err)
		}
		home = h
	}
	return filepath.Join(home, ".local", "state", "nxbatch", "journal"), nil
}
