// Package tenant tells which tenant a connection talks to, by what the API
// says it is: the integration's appId from GET /config, with the API
// environment. The journal keys every request by it, so that the same
// server addressed as http://127.0.0.1:P or http://localhost:P/, or the same
// integration after its token was rotated, keeps its journal entries: a
// key sent under one spelling is never sent again under another.
//
// GET /config shares the parameter endpoints' 60 s window, so the answer is
// kept per credential (base URL and token, hashed) in a small owner-only
// file beside the journal: only the first contact with new credentials
// costs a request.
package tenant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/writers"
)

// Identity is a tenant as the API describes it.
type Identity struct {
	// ID is the journal's tenant key: "app<appId>.<env>".
	ID       string        `json:"id"`
	AppID    int64         `json:"appId"`
	Nombre   string        `json:"nombre,omitempty"`
	Env      sendrules.Env `json:"env"`
	Resolved time.Time     `json:"resolved"`
}

// IdentityOf builds the identity of the integration a /config answer
// describes, in environment env. A /config without an appId cannot tell
// tenants apart: that is an error, never a guess.
func IdentityOf(cfg *nxapi.Config, env sendrules.Env, now time.Time) (Identity, error) {
	if cfg == nil || cfg.AppID <= 0 {
		return Identity{}, ErrNoAppID
	}
	return Identity{ID: fmt.Sprintf("app%d.%s", cfg.AppID, env), AppID: cfg.AppID, Nombre: cfg.Nombre, Env: env, Resolved: now}, nil
}

// ErrNoAppID means GET /config did not say which integration it is.
var ErrNoAppID = errors.New("tenant: GET /config gave no appId")

// ConfigReader reads GET /config (*apiclient.Client).
type ConfigReader interface {
	Config(ctx context.Context) (*nxapi.Config, error)
}

// Windows persists the parameter window (*journal.Journal).
type Windows interface {
	NextAllowed(tenant, window string) (time.Time, error)
	SetNextAllowed(tenant, window string, t time.Time) error
}

// Resolver finds a connection's tenant: from its file when these
// credentials were resolved before, else by asking the API once.
type Resolver struct {
	// Dir holds tenants.json (the state folder, beside the journal).
	Dir string
	Env sendrules.Env
	// Read asks the API; Windows paces it with the shared parameter
	// window. Scale multiplies the window and the API's waits
	// (--time-scale; 0 means 1).
	Read    ConfigReader
	Windows Windows
	Scale   float64
	// Wait waits for the parameter window (and for the API's own "Debe
	// esperar") instead of failing with a *WindowError.
	Wait bool
	Now  func() time.Time
}

// WindowError means the parameter window does not allow asking the API
// yet; Next is when it will.
type WindowError struct{ Next time.Time }

func (e *WindowError) Error() string {
	return "tenant: the API's parameter window allows GET /config at " + e.Next.Format("15:04:05")
}

func (r *Resolver) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Resolver) path() string { return filepath.Join(r.Dir, "tenants.json") }

// window is the parameter window, scaled.
func (r *Resolver) window() time.Duration {
	return sendrules.Scale(r.Env.Limit(sendrules.Params), r.Scale)
}

// Resolve returns the tenant of credential (apiclient.CredentialHash). When
// it had to ask, the /config answer comes back too, for the catalog cache;
// nil otherwise.
func (r *Resolver) Resolve(ctx context.Context, credential string) (Identity, *nxapi.Config, error) {
	known, err := r.load()
	if err != nil {
		return Identity{}, nil, err
	}
	key := credential + "@" + string(r.Env)
	if id, ok := known[key]; ok {
		return id, nil, nil
	}
	cfg, err := r.fetch(ctx, credential)
	if err != nil {
		return Identity{}, nil, err
	}
	id, err := IdentityOf(cfg, r.Env, r.now())
	if err != nil {
		return Identity{}, nil, err
	}
	// The request counts in the tenant's window too: the catalogs that
	// follow must wait for it.
	if err := r.Windows.SetNextAllowed(id.ID, string(sendrules.Params), r.now().Add(r.window())); err != nil {
		return Identity{}, nil, err
	}
	known[key] = id
	if err := r.save(known); err != nil {
		return Identity{}, nil, err
	}
	return id, cfg, nil
}

// fetch asks GET /config within the parameter window, counted under the
// credential until the tenant is known.
func (r *Resolver) fetch(ctx context.Context, credential string) (*nxapi.Config, error) {
	window := string(sendrules.Params)
	for attempt := 0; ; attempt++ {
		next, err := r.Windows.NextAllowed(credential, window)
		if err != nil {
			return nil, err
		}
		if d := next.Sub(r.now()); d > 0 {
			if !r.Wait {
				return nil, &WindowError{Next: next}
			}
			if err := sendrules.Sleep(ctx, d); err != nil {
				return nil, err
			}
		}
		cfg, err := r.Read.Config(ctx)
		// The window counts from the answer; the API's own wait wins.
		var we *apiclient.WaitError
		next = r.now().Add(r.window())
		if errors.As(err, &we) {
			next = r.now().Add(sendrules.Scale(we.Wait, r.Scale))
		}
		if serr := r.Windows.SetNextAllowed(credential, window, next); serr != nil {
			return nil, serr
		}
		if errors.As(err, &we) && r.Wait && attempt == 0 {
			continue
		}
		if errors.As(err, &we) {
			return nil, &WindowError{Next: next}
		}
		return cfg, err
	}
}

func (r *Resolver) load() (map[string]Identity, error) {
	known := map[string]Identity{}
	b, err := os.ReadFile(r.path())
	if errors.Is(err, os.ErrNotExist) {
		return known, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tenant: read %s: %w", r.path(), err)
	}
	if err := json.Unmarshal(b, &known); err != nil {
		// A damaged cache only costs one /config: start over.
		return map[string]Identity{}, nil
	}
	return known, nil
}

func (r *Resolver) save(known map[string]Identity) error {
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return fmt.Errorf("tenant: %w", err)
	}
	return writers.WriteFileAtomic(r.path(), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(known)
	})
}
