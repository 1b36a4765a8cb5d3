package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// catalogCmd fetches, shows and exports the tenant's catalogs.
type catalogCmd struct {
	Pull   catalogPullCmd   `cmd:"" help:"Fetch catalogs into the per-tenant cache, one per 60 s parameter window (shared by all of them)."`
	Show   catalogShowCmd   `cmd:"" help:"Print the cached catalogs as tables (fetching those never fetched, when the window allows)."`
	Export catalogExportCmd `cmd:"" help:"Write the catalogs to FILE.xlsx or FILE.csv, or to a folder as the API's JSON (for validate --catalog)."`
}

type catalogPullCmd struct {
	apiFlags
	Only       []string      `help:"Catalogs to fetch, comma separated: medios-pago, motivos, depositos, config, puntos-venta, empleados (default: all, in that order)."`
	WaitWindow bool          `name:"wait-window" help:"Wait out the shared 60 s window between catalogs instead of leaving the rest for a later pull."`
	MaxAge     time.Duration `name:"max-age" help:"Keep cached catalogs younger than this instead of fetching them again (0: fetch all)." default:"0s"`
}

// Run fetches the catalogs and says, per catalog, what happened.
func (c *catalogPullCmd) Run(e *env) error {
	names, err := catalog.ParseNames(c.Only)
	if err != nil {
		return usage("cli.only.bad", strings.Join(c.Only, ","), catalogNames())
	}
	l := c.lang()
	cn, err := c.apiFlags.connect(e, journal.Options{})
	if err != nil {
		return err
	}
	defer cn.Close()
	cache := cn.catalogs(0)
	_, pulled, err := cache.Pull(e.ctx, catalog.PullOptions{Names: names, MaxAge: c.MaxAge, Wait: c.WaitWindow})
	if err != nil {
		return catalogsFailed(err)
	}
	cn.observe()
	return reportPull(e, pulled, l)
}

// reportPull prints one line per catalog and the command that fetches what
// is missing; it fails (exit 1) only when nothing could be fetched and
// nothing is cached, and aborts (exit 4) when the API refused the token,
// cached copies or not: pulling again with that token cannot help.
func reportPull(e *env, pulled []catalog.Pulled, l msg.Lang) error {
	now := time.Now()
	var missing []string
	usable := 0
	refused := false
	for _, p := range pulled {
		say(e.stdout, p.Message(now).In(l))
		refused = refused || errors.Is(p.Err, apiclient.ErrUnauthorized)
		if p.Status == catalog.Fetched || p.Status == catalog.Fresh || !p.Fetched.IsZero() {
			usable++
		}
		if p.Status == catalog.Waiting || p.Status == catalog.Failed {
			missing = append(missing, string(p.Name))
		}
	}
	if refused {
		return &exitError{code: exitAborted, err: &msg.Error{Msg: msg.New("catc.pull.unauthorized")}}
	}
	if len(missing) > 0 {
		say(e.stdout, msg.New("catc.pull.hint", strings.Join(missing, ",")).In(l))
	}
	if usable == 0 && len(pulled) > 0 {
		return &exitError{code: exitRowProblems, err: fmt.Errorf("%s", msg.New("catc.pull.failed").In(l))}
	}
	return nil
}

type catalogShowCmd struct {
	apiFlags
	Offline bool          `help:"Only show the cache; never ask the API."`
	MaxAge  time.Duration `name:"max-age" help:"Fetch a catalog again when its cached copy is older than this (and the window allows)." default:"1h"`
}

// loadForShow returns the cached snapshot, first fetching the catalogs
// that are missing or stale when the window allows (never waiting).
func loadForShow(e *env, f apiFlags, offline bool, maxAge time.Duration) (*catalog.Snapshot, error) {
	l := f.lang()
	cn, err := f.connect(e, journal.Options{})
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	cache := cn.catalogs(maxAge)
	if offline {
		say(e.stderr, msg.New("catc.offline").In(l))
		s, err := cache.Load()
		if err != nil {
			return nil, catalogsFailed(err)
		}
		return &s, nil
	}
	s, pulled, err := cache.Pull(e.ctx, catalog.PullOptions{Names: []catalog.Name{catalog.MediosPago, catalog.Motivos}, MaxAge: maxAge})
	if err != nil {
		return nil, catalogsFailed(err)
	}
	now := time.Now()
	for _, p := range pulled {
		if p.Status != catalog.Fresh {
			say(e.stderr, p.Message(now).In(l))
		}
	}
	return &s, nil
}

// Run prints the catalogs.
func (c *catalogShowCmd) Run(e *env) error {
	s, err := loadForShow(e, c.apiFlags, c.Offline, c.MaxAge)
	if err != nil {
		return err
	}
	l := c.lang()
	return catalog.Show(e.stdout, catalog.Tables(s, l), time.Now(), l)
}

type catalogExportCmd struct {
	apiFlags
	Offline bool          `help:"Only export the cache; never ask the API."`
	MaxAge  time.Duration `name:"max-age" help:"Fetch a catalog again when its cached copy is older than this (and the window allows)." default:"1h"`
	File    string        `arg:"" help:"FILE.xlsx, FILE.csv, or a folder (ending in /) for medios-pago.json and motivos.json."`
}

// Run writes the catalogs to the file.
func (c *catalogExportCmd) Run(e *env) error {
	if !catalog.Exportable(c.File) {
		// Said before anything is fetched: the API's window is spent on
		// nothing otherwise.
		return usage("catc.export.ext", c.File)
	}
	s, err := loadForShow(e, c.apiFlags, c.Offline, c.MaxAge)
	if err != nil {
		return err
	}
	l := c.lang()
	if err := catalog.Export(c.File, s, catalog.Tables(s, l), l); err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.export.failed", c.File, msg.CauseText(err, l)), Err: err}}
	}
	say(e.stderr, msg.New("catc.export.done", c.File).In(l))
	return nil
}

// catalogNames lists the catalogs `--only` takes.
func catalogNames() string {
	names := make([]string, len(catalog.Names))
	for i, n := range catalog.Names {
		names[i] = string(n)
	}
	return strings.Join(names, ", ")
}

// catalogsFailed is a failure of the catalog cache itself (its file, the
// journal's windows), not of the API.
func catalogsFailed(err error) error {
	return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.catalogs.failed", msg.CauseText(err, msg.ES)), Err: err}}
}
