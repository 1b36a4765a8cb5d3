package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/validation"
)

// Name names one parameter endpoint as `catalog pull --only` spells it.
type Name string

// The parameter endpoints nxbatch caches. They share one 60 s window.
const (
	MediosPago  Name = "medios-pago"
	Motivos     Name = "motivos"
	Config      Name = "config"
	Depositos   Name = "depositos"
	PuntosVenta Name = "puntos-venta"
	Empleados   Name = "empleados"
)

// Names lists every catalog in the order a full pull fetches them: the two
// that validation checks ids against come first, so that a pull cut short
// by the shared window still gets what matters most.
var Names = []Name{MediosPago, Motivos, Depositos, Config, PuntosVenta, Empleados}

// ParseNames reads a --only list ("medios-pago,motivos"); nil or empty
// means every catalog.
func ParseNames(items []string) ([]Name, error) {
	var out []Name
	for _, it := range items {
		for _, s := range strings.Split(it, ",") {
			s = strings.ToLower(strings.TrimSpace(s))
			if s == "" {
				continue
			}
			n := Name(strings.TrimPrefix(s, "config/"))
			if !known(n) {
				return nil, fmt.Errorf("unknown catalog %q: use %s", s, joinNames(Names))
			}
			if !contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if len(out) == 0 {
		return Names, nil
	}
	return out, nil
}

func known(n Name) bool { return contains(Names, n) }

func contains(ns []Name, n Name) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

func joinNames(ns []Name) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = string(n)
	}
	return strings.Join(parts, ", ")
}

// ParamFetcher reads the parameter endpoints beyond the two validation
// needs (*apiclient.Client). A Cache whose Fetch lacks them reports those
// catalogs as not available.
type ParamFetcher interface {
	Config(ctx context.Context) (*nxapi.Config, error)
	Depositos(ctx context.Context) ([]nxapi.Deposito, error)
	PuntosVenta(ctx context.Context) ([]apiclient.PuntoVenta, error)
	Empleados(ctx context.Context) ([]apiclient.Empleado, error)
}

// PullOptions say which catalogs to fetch and how patient to be.
type PullOptions struct {
	Names  []Name        // nil: every catalog
	MaxAge time.Duration // a cached catalog younger than this is kept as is; 0 fetches anyway
	// Wait waits out the shared parameter window between catalogs instead
	// of skipping those it does not allow yet.
	Wait bool
	// WaitMissing waits as Wait does, only for catalogs with no cached
	// copy.
	WaitMissing bool
	// OnWait, when set, is called before waiting for the window to read
	// catalog n, with when the window allows it.
	OnWait func(n Name, next time.Time)
	// Sleep waits d or until ctx ends; nil uses a timer (tests inject a
	// fake clock's).
	Sleep func(ctx context.Context, d time.Duration) error
}

// PullStatus is what happened to one catalog in a pull.
type PullStatus int

// Pull outcomes.
const (
	Fetched PullStatus = iota // fetched from the API now
	Fresh                     // the cached copy is younger than MaxAge
	Waiting                   // the shared window does not allow it yet
	Failed                    // the API could not be asked (401, 403 window, network)
)

// Pulled is the outcome of one catalog of a pull.
type Pulled struct {
	Name    Name
	Status  PullStatus
	Fetched time.Time // when the copy now in the cache was fetched; zero when there is none
	Next    time.Time // Waiting, or Failed on the server's 403 window: when the window allows it
	Err     error     // Failed: why
	Local   bool      // Fetched from the embedded sandbox in-process
}

// Message says what happened to the catalog, for the user; now dates the
// cached copy's age.
func (p Pulled) Message(now time.Time) msg.Message {
	var why msg.Message
	switch p.Status {
	case Fetched:
		if p.Local {
			return msg.New("catc.pull.local", string(p.Name))
		}
		return msg.New("catc.pull.fetched", string(p.Name))
	case Fresh:
		return msg.New("catc.pull.fresh", string(p.Name), age(now, p.Fetched))
	case Waiting:
		key := "catc.pull.window"
		if p.Name == Articulos {
			key = "catc.pull.masses"
		}
		why = msg.New(key, p.Next.Format("15:04:05"), seconds(p.Next.Sub(now)))
	default:
		why = failure(p)
	}
	if p.Fetched.IsZero() {
		return msg.New("catc.pull.none", string(p.Name), why)
	}
	return msg.New("catc.pull.cached", string(p.Name), why, age(now, p.Fetched))
}

// failure says why a catalog could not be fetched in the user's words: a
// refused token and the server's own window say what to do, quoting the
// API's text as it came; anything else is told as it happened.
func failure(p Pulled) msg.Message {
	var we *apiclient.WaitError
	var ce *nxapi.CatalogError
	var wte *apiclient.WireTypeError
	switch {
	case errors.Is(p.Err, apiclient.ErrUnauthorized):
		return msg.New("catc.pull.unauthorized")
	case errors.Is(p.Err, nxapi.ErrEmptyCatalog):
		return msg.New("cata.empty")
	case errors.As(p.Err, &ce) || errors.As(p.Err, &wte):
		return msg.New("cata.unreadable", p.Err.Error())
	case errors.As(p.Err, &we) && we.Message != "" && !p.Next.IsZero():
		return msg.New("catc.pull.apiwait", seconds(we.Wait), we.Message, p.Next.Format("15:04:05"))
	}
	return msg.New("cat.fetchfailed", p.Err.Error())
}

// age says how old a copy is, to the minute (to the second when younger
// than a minute, which is what tests and a second pull see).
func age(now, t time.Time) msg.Duration {
	d := now.Sub(t)
	if d < time.Minute {
		return msg.Duration(d.Round(time.Second))
	}
	return msg.Duration(d.Round(time.Minute))
}

func seconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

// slot is one catalog's place in a Snapshot.
type slot struct {
	fetched *time.Time
	has     func() bool
	fetch   func(ctx context.Context) error
	local   bool // read in-process (Cache.Local): no window to take
	// window and length are the rate window the fetch takes; "" means
	// the parameter window (sendrules.Params, Cache.Window).
	window sendrules.Window
	length time.Duration
}

func (c *Cache) slot(s *Snapshot, n Name) (slot, bool) {
	pf, _ := c.Fetch.(ParamFetcher)
	f, local := c.Fetch, false
	if c.Local != nil {
		f, local = c.Local, true
	}
	switch n {
	case MediosPago:
		return slot{&s.MediosPagoFetched, func() bool { return s.MediosPago != nil }, func(ctx context.Context) error {
			v, err := f.MediosPago(ctx)
			if err == nil {
				s.MediosPago = v
			}
			return err
		}, local, "", 0}, true
	case Motivos:
		return slot{&s.MotivosFetched, func() bool { return s.Motivos != nil }, func(ctx context.Context) error {
			v, err := f.Motivos(ctx)
			if err == nil {
				s.Motivos = v
			}
			return err
		}, local, "", 0}, true
	}
	if pf == nil {
		return slot{}, false
	}
	switch n {
	case Config:
		return slot{&s.ConfigFetched, func() bool { return s.Config != nil }, func(ctx context.Context) error {
			v, err := pf.Config(ctx)
			if err == nil {
				s.Config = v
			}
			return err
		}, false, "", 0}, true
	case Depositos:
		return slot{&s.DepositosFetched, func() bool { return s.Depositos != nil }, func(ctx context.Context) error {
			v, err := pf.Depositos(ctx)
			if err == nil {
				s.Depositos = v
			}
			return err
		}, false, "", 0}, true
	case PuntosVenta:
		return slot{&s.PuntosVentaFetched, func() bool { return s.PuntosVenta != nil }, func(ctx context.Context) error {
			v, err := pf.PuntosVenta(ctx)
			if err == nil {
				s.PuntosVenta = v
			}
			return err
		}, false, "", 0}, true
	case Empleados:
		return slot{&s.EmpleadosFetched, func() bool { return s.Empleados != nil }, func(ctx context.Context) error {
			v, err := pf.Empleados(ctx)
			if err == nil {
				s.Empleados = v
			}
			return err
		}, false, "", 0}, true
	}
	return slot{}, false
}

// errNoEndpoint reports a catalog the fetcher cannot read.
var errNoEndpoint = errors.New("this connection cannot read it")

// Pull fetches the catalogs o names into the cache, one per parameter
// window: each fetch moves the shared window (persisted in the journal, so
// the next run knows it too). A catalog the window does not allow yet is
// Waiting unless o.Wait; one the API refuses keeps its cached copy. After
// a 401 or a network failure the rest are not tried: they would fail the
// same way and each try would cost a window. It returns the snapshot now
// in the cache and one Pulled per catalog, in o.Names order.
func (c *Cache) Pull(ctx context.Context, o PullOptions) (Snapshot, []Pulled, error) {
	names := o.Names
	if len(names) == 0 {
		names = Names
	}
	sleep := o.Sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	s, err := c.Load()
	if err != nil {
		return s, nil, err
	}
	var out []Pulled
	var stop error // set after a failure that every later fetch would repeat
	for _, n := range names {
		sl, ok := c.slot(&s, n)
		if !ok {
			out = append(out, Pulled{Name: n, Status: Failed, Err: errNoEndpoint})
			continue
		}
		p := Pulled{Name: n, Fetched: *sl.fetched}
		if !sl.has() {
			p.Fetched = time.Time{}
		}
		switch {
		case sl.has() && o.MaxAge > 0 && c.now().Sub(*sl.fetched) < o.MaxAge:
			p.Status = Fresh
		case stop != nil:
			p.Status, p.Err = Failed, stop
		default:
			var onWait func(time.Time)
			if o.OnWait != nil {
				onWait = func(next time.Time) { o.OnWait(n, next) }
			}
			wait := o.Wait || (o.WaitMissing && !sl.has())
			if err := c.fetchOne(ctx, sl, &p, wait, onWait, sleep); err != nil {
				return s, out, err
			}
			if p.Status == Fetched {
				// Save as we go: a pull interrupted later keeps what it got.
				if err := c.save(s); err != nil {
					return s, out, err
				}
			}
			var we *apiclient.WaitError
			if p.Status == Failed && !errors.As(p.Err, &we) {
				stop = p.Err
			}
		}
		out = append(out, p)
	}
	return s, out, nil
}

// maxRefusals is how many times a patient pull waits out the API's own
// "Debe esperar" for one catalog before reporting it: machines that share
// no journal cannot coordinate, and each refusal says how long to wait,
// but a server that keeps refusing is not waited on forever.
const maxRefusals = 3

// fetchOne fetches one catalog when the shared window allows (waiting for
// it when wait, after telling onWait) and records the outcome in p. The
// window is reserved before the request, atomically in the journal, so
// that of several machines on one journal only one reads per window. The
// error is only the journal's: the API's failures are p's.
func (c *Cache) fetchOne(ctx context.Context, sl slot, p *Pulled, wait bool, onWait func(time.Time), sleep func(context.Context, time.Duration) error) error {
	if sl.local {
		now := c.now()
		if err := sl.fetch(ctx); err != nil {
			p.Status, p.Err = Failed, err
			return nil
		}
		*sl.fetched = now
		p.Status, p.Fetched, p.Local = Fetched, now, true
		return nil
	}
	told := false
	window, length := sl.window, sl.length
	if window == "" {
		window, length = sendrules.Params, c.Window
	}
	w := &sendrules.Paced{Store: c.Windows, Key: c.windowKey(), Window: window,
		Length: length, Scale: c.Scale, Now: c.Now, Sleep: sleep,
		Waiting: func(next time.Time, _ time.Duration) {
			if onWait != nil && !told {
				onWait(next)
				told = true
			}
		}}
	if wait {
		// The server counts its window from when it got an earlier
		// request (a machine on a journal of its own): a patient pull
		// waits as it says (the next Take does) and tries again.
		w.MaxRefusals = maxRefusals
	}
	for {
		next, err := w.Take(ctx, wait)
		var closed *sendrules.ClosedError
		var serr *sendrules.StoreError
		switch {
		case errors.As(err, &serr):
			return serr.Err
		case errors.As(err, &closed):
			p.Status, p.Next = Waiting, next
			return nil
		case err != nil:
			p.Status, p.Err = Failed, err
			return nil
		}
		now := c.now()
		err = sl.fetch(ctx)
		// The server's window starts when it handled the request, somewhere
		// before the answer came back: count ours from the answer; the
		// server's own count wins over ours, in this run's time.
		retry, next, aerr := w.Answered(ctx, err)
		if aerr != nil {
			return errors.Unwrap(aerr)
		}
		if retry {
			continue
		}
		if err != nil {
			p.Status, p.Err = Failed, err
			if sendrules.Refused(err) {
				p.Next = next
			}
			return nil
		}
		*sl.fetched = now
		p.Status, p.Fetched = Fetched, now
		return nil
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Catalog returns the catalogs validation checks ids against; a catalog
// never fetched stays nil, so its checks are skipped.
func (s *Snapshot) Catalog() *validation.Catalog {
	deps, _ := s.Warehouses()
	return &validation.Catalog{MediosPago: s.MediosPago, Motivos: s.Motivos, Depositos: deps}
}

// Warehouses returns the integration's warehouses: /config/depositos when
// fetched, else the list inside /config; ok is false when neither is known.
// When /config lists the enabled branches, a warehouse of any other branch
// is left out: the API refuses a movement there (403).
func (s *Snapshot) Warehouses() ([]nxapi.Deposito, bool) {
	deps := s.Depositos
	if deps == nil && s.Config != nil {
		deps = s.Config.Depositos
	}
	if deps == nil {
		return nil, false
	}
	if s.Config == nil || s.Config.SucursalesExportacion == nil {
		return deps, true
	}
	enabled := []nxapi.Deposito{}
	for _, d := range deps {
		if slices.ContainsFunc(s.Config.SucursalesExportacion, func(b nxapi.Sucursal) bool { return b.SucursalID == d.SucursalID }) {
			enabled = append(enabled, d)
		}
	}
	return enabled, true
}
