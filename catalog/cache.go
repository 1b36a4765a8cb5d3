package catalog

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
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
)

// ParamWindow is the API's window between requests to any parameter
// endpoint (/config, /medios-pago, /motivos, ...), shared by all of them.
var ParamWindow = sendrules.Production.Limit(sendrules.Params)

// WindowName is the name the parameter window is persisted under (the
// journal's string for sendrules.Params).
const WindowName = string(sendrules.Params)

// Fetcher reads catalogs from the API (*apiclient.Client).
type Fetcher interface {
	MediosPago(ctx context.Context) (*nxapi.MediosPagoConfig, error)
	Motivos(ctx context.Context) ([]nxapi.Motivo, error)
}

// Windows persists "next allowed" times across runs and machines (a
// journal.Store): the window store of sendrules.Paced.
type Windows = sendrules.WindowStore

// Snapshot is one tenant's cached catalogs with their fetch times.
type Snapshot struct {
	MediosPago        *nxapi.MediosPagoConfig `json:"mediosPago,omitempty"`
	MediosPagoFetched time.Time               `json:"mediosPagoFetched,omitzero"`
	Motivos           []nxapi.Motivo          `json:"motivos,omitempty"`
	MotivosFetched    time.Time               `json:"motivosFetched,omitzero"`

	// The other parameter endpoints, fetched by `catalog pull` and for
	// templates; validation does not need them.
	Config             *nxapi.Config          `json:"config,omitempty"`
	ConfigFetched      time.Time              `json:"configFetched,omitzero"`
	Depositos          []nxapi.Deposito       `json:"depositos,omitempty"`
	DepositosFetched   time.Time              `json:"depositosFetched,omitzero"`
	PuntosVenta        []apiclient.PuntoVenta `json:"puntosVenta,omitempty"`
	PuntosVentaFetched time.Time              `json:"puntosVentaFetched,omitzero"`
	Empleados          []apiclient.Empleado   `json:"empleados,omitempty"`
	EmpleadosFetched   time.Time              `json:"empleadosFetched,omitzero"`
}

// Cache keeps catalogs per tenant in Dir, fetching them only when older
// than TTL and only when the parameter window allows.
type Cache struct {
	Dir    string
	Tenant string
	// WindowKey is the key the parameter window is kept under in Windows
	// ("" means Tenant). The API counts the window per token, and before a
	// tenant is known only the credential is (GET /config is paced under
	// it): the command line sets the credential's hash, so that /config
	// and the catalogs share one window.
	WindowKey string
	TTL       time.Duration // a cached catalog younger than this is used as is
	Window    time.Duration // ParamWindow, scaled in tests
	// Scale multiplies the API's own "Debe esperar N" waits (--time-scale;
	// 0 means 1), as Window already is.
	Scale   float64
	Fetch   Fetcher
	Windows Windows
	// Local, when set, answers /medios-pago and /motivos in-process (the
	// embedded sandbox): they are read from it, taking no window.
	Local Fetcher
	// WaitMissing, when set, makes Get wait for the window for a catalog
	// it has no copy of, rather than leave that catalog's ids unchecked
	// (run waits; validate does not); it is called before waiting, to say
	// so.
	WaitMissing func(n Name, next time.Time)
	Now         func() time.Time
	// Events, when set, is `nxbatch listen`'s store: the article events
	// it received after the article catalog was fetched are applied over
	// it when Articulos loads it.
	Events string
}

// Need says which catalogs a run needs: venta and facturar need
// /medios-pago, stock needs /motivos.
type Need struct {
	MediosPago bool
	Motivos    bool
	// Articulos: the files name articles (sale lines, stock rows), by
	// code or by id, which the article catalog resolves and checks.
	Articulos bool
}

func (c *Cache) path() string { return filepath.Join(c.Dir, c.Tenant+".json") }

// windowKey is the key of the parameter window in Windows.
func (c *Cache) windowKey() string {
	if c.WindowKey != "" {
		return c.WindowKey
	}
	return c.Tenant
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// StoreConfig puts a /config answer fetched elsewhere (the one that told
// the tenant) into the cache, as fetched at t, so that it is not asked
// again within the cache's age.
func (c *Cache) StoreConfig(cfg *nxapi.Config, t time.Time) error {
	s, err := c.Load()
	if err != nil {
		return err
	}
	s.Config, s.ConfigFetched = cfg, t
	return c.save(s)
}

// Load returns the cached snapshot (empty when none).
func (c *Cache) Load() (Snapshot, error) {
	var s Snapshot
	b, err := os.ReadFile(c.path())
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read catalog cache: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		// A broken cache is only a cache: start over.
		return Snapshot{}, nil
	}
	return s, nil
}

func (c *Cache) save(s Snapshot) error {
	if err := atomicfile.MkdirAll(c.Dir, atomicfile.PrivateDir); err != nil {
		return fmt.Errorf("create catalog cache: %w", err)
	}
	// The cache holds the company's bank accounts (CBU, alias): owner only.
	// atomicfile.Write keeps an existing file's mode, so set it there first;
	// the folder may be shared or older than this rule.
	f, err := atomicfile.OpenFile(c.path(), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create catalog cache: %w", err)
	}
	err = errors.Join(f.Chmod(0o600), f.Close())
	if err != nil {
		return fmt.Errorf("create catalog cache: %w", err)
	}
	return atomicfile.Write(c.path(), atomicfile.Private, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	})
}

// Get returns the catalogs need asks for, through Pull: a cached copy
// younger than TTL as is, else fetched when the shared window allows, else
// the stale copy. Notes say what was fetched, kept or left unchecked, for
// the user. A 401 is returned as an error (apiclient.ErrUnauthorized):
// nothing else would be accepted with that token either.
func (c *Cache) Get(ctx context.Context, need Need) (*validation.Catalog, []msg.Message, error) {
	var names []Name
	if need.MediosPago {
		names = append(names, MediosPago)
	}
	if need.Motivos {
		names = append(names, Motivos)
	}
	if len(names) == 0 {
		return &validation.Catalog{}, nil, nil
	}
	s, pulled, err := c.Pull(ctx, PullOptions{Names: names, MaxAge: c.TTL, WaitMissing: c.WaitMissing != nil, OnWait: c.WaitMissing})
	if err != nil {
		return nil, nil, err
	}
	var notes []msg.Message
	now := c.now()
	for _, p := range pulled {
		switch {
		case p.Status == Failed && errors.Is(p.Err, apiclient.ErrUnauthorized):
			return nil, notes, p.Err
		case p.Status == Fresh:
		case p.Status != Fetched && p.Fetched.IsZero():
			notes = append(notes, msg.New("cat.unchecked", p.Message(now)))
		default:
			notes = append(notes, p.Message(now))
		}
	}
	cat := s.Catalog()
	if !need.MediosPago {
		cat.MediosPago = nil
	}
	if !need.Motivos {
		cat.Motivos = nil
	}
	return cat, notes, nil
}
