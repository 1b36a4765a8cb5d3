package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// catalogCmd fetches, shows and exports the tenant's catalogs.
type catalogCmd struct {
	Pull   catalogPullCmd   `cmd:"" help:"Fetch catalogs into the per-tenant cache, one per 60 s parameter window (shared by all of them); --articulos fetches the article catalog (one read per 10-minute window)."`
	Show   catalogShowCmd   `cmd:"" help:"Print the cached catalogs, the article catalog included, as tables (fetching those missing or stale, when the windows allow)."`
	Export catalogExportCmd `cmd:"" help:"Write the catalogs, the article catalog included, to FILE.xlsx or FILE.csv, or to a folder as the API's JSON (for validate --catalog)."`
}

type catalogPullCmd struct {
	apiFlags
	Only       []string      `help:"Catalogs to fetch, comma separated: medios-pago, motivos, depositos, config, puntos-venta, empleados (default: all, in that order)."`
	WaitWindow bool          `name:"wait-window" help:"Wait out the shared 60 s window between catalogs instead of leaving the rest for a later pull."`
	MaxAge     time.Duration `name:"max-age" help:"Keep cached catalogs younger than this instead of fetching them again (0: fetch all)." default:"0s"`
	Articulos  bool          `help:"Fetch the article catalog (GetDataCurva: codes, sizes, colours, barcodes), which the API allows once per 10-minute window shared with the bulk exports. Alone it fetches only the article catalog; with --only, those catalogs too."`
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
	var pulled []catalog.Pulled
	if !c.Articulos || len(c.Only) > 0 {
		_, pulled, err = cache.Pull(e.ctx, catalog.PullOptions{Names: names, MaxAge: c.MaxAge, Wait: c.WaitWindow})
		if err != nil {
			return catalogsFailed(err)
		}
	}
	if c.Articulos && !refusedToken(pulled) {
		_, p, err := cache.PullArticulos(e.ctx, c.MaxAge, c.WaitWindow, func(next time.Time) {
			say(e.stderr, msg.New("cata.waiting", next.Format("15:04:05")).In(l))
		})
		if err != nil {
			return catalogsFailed(err)
		}
		pulled = append(pulled, p)
	}
	cn.observe(e.ctx)
	return reportPull(e, pulled, l)
}

// refusedToken reports whether the API refused the token in a pull: asking
// for anything else with it would fail the same way.
func refusedToken(pulled []catalog.Pulled) bool {
	for _, p := range pulled {
		if errors.Is(p.Err, apiclient.ErrUnauthorized) {
			return true
		}
	}
	return false
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
	params, arts := splitMissing(missing)
	if len(params) > 0 {
		say(e.stdout, msg.New("catc.pull.hint", strings.Join(params, ",")).In(l))
	}
	if arts {
		say(e.stdout, msg.New("cata.pull.hint").In(l))
	}
	if usable == 0 && len(pulled) > 0 {
		return &exitError{code: exitRowProblems, err: fmt.Errorf("%s", msg.New("catc.pull.failed").In(l))}
	}
	return nil
}

type catalogShowCmd struct {
	apiFlags
	Offline     bool          `help:"Only show the cache; never ask the API."`
	MaxAge      time.Duration `name:"max-age" help:"Fetch a catalog again when its cached copy is older than this (and the window allows)." default:"1h"`
	ListenStore string        `name:"listen-store" help:"listen's store, whose article events received after the article catalog was fetched are applied over it. Default: listen/ in the state folder." type:"path"`
}

// shown is what show and export lay out: the parameter catalogs and the
// article catalog (listen's events applied).
type shown struct {
	snap      *catalog.Snapshot
	articulos catalog.ArticulosCopy
}

// tables lays out every catalog, the article catalog last.
func (sh shown) tables(l msg.Lang) []catalog.Table {
	return append(catalog.Tables(sh.snap, l), catalog.ArticulosTable(sh.articulos, l))
}

// loadForShow returns the cached catalogs, first fetching those that are
// missing or stale when their window allows (never waiting).
func loadForShow(e *env, f apiFlags, offline bool, maxAge time.Duration, store string) (shown, error) {
	l := f.lang()
	cn, err := f.connect(e, journal.Options{})
	if err != nil {
		return shown{}, err
	}
	defer cn.Close()
	cache := cn.catalogs(maxAge)
	if err := defaultStore(e, &store); err != nil {
		return shown{}, err
	}
	cache.Events = store
	if offline {
		say(e.stderr, msg.New("catc.offline").In(l))
		s, err := cache.Load()
		if err != nil {
			return shown{}, catalogsFailed(err)
		}
		arts, err := cache.LoadArticulos()
		if err != nil {
			return shown{}, catalogsFailed(err)
		}
		return shown{&s, arts}, nil
	}
	s, pulled, err := cache.Pull(e.ctx, catalog.PullOptions{Names: []catalog.Name{catalog.MediosPago, catalog.Motivos}, MaxAge: maxAge})
	if err != nil {
		return shown{}, catalogsFailed(err)
	}
	now := time.Now()
	for _, p := range pulled {
		if p.Status != catalog.Fresh {
			say(e.stderr, p.Message(now).In(l))
		}
	}
	if refusedToken(pulled) {
		return shown{&s, catalog.ArticulosCopy{}}, nil
	}
	recs, fetched, err := cache.Articulos(e.ctx, catalog.ArticulosOptions{MaxAge: maxAge,
		Note: func(m msg.Message) { say(e.stderr, m.In(l)) }})
	var none *catalog.NoArticulosError
	switch {
	case errors.As(err, &none):
		say(e.stderr, none.Message().In(l))
	case err != nil:
		say(e.stderr, msg.New("cmd.nocatalog", msg.CauseText(err, l)).In(l))
	}
	return shown{&s, catalog.ArticulosCopy{Fetched: fetched, Articulos: recs}}, nil
}

// Run prints the catalogs.
func (c *catalogShowCmd) Run(e *env) error {
	sh, err := loadForShow(e, c.apiFlags, c.Offline, c.MaxAge, c.ListenStore)
	if err != nil {
		return err
	}
	l := c.lang()
	return catalog.Show(e.stdout, sh.tables(l), time.Now(), l)
}

type catalogExportCmd struct {
	apiFlags
	Offline     bool          `help:"Only export the cache; never ask the API."`
	MaxAge      time.Duration `name:"max-age" help:"Fetch a catalog again when its cached copy is older than this (and the window allows)." default:"1h"`
	ListenStore string        `name:"listen-store" help:"listen's store, whose article events received after the article catalog was fetched are applied over it. Default: listen/ in the state folder." type:"path"`
	File        string        `arg:"" help:"FILE.xlsx, FILE.csv, or a folder (ending in /) for medios-pago.json, motivos.json and articulos.json."`
}

// Run writes the catalogs to the file.
func (c *catalogExportCmd) Run(e *env) error {
	if !catalog.Exportable(c.File) {
		// Said before anything is fetched: the API's window is spent on
		// nothing otherwise.
		return usage("catc.export.ext", c.File)
	}
	sh, err := loadForShow(e, c.apiFlags, c.Offline, c.MaxAge, c.ListenStore)
	if err != nil {
		return err
	}
	l := c.lang()
	if err := exportCatalogs(c.File, sh, l); err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.export.failed", c.File, msg.CauseText(err, l)), Err: err}}
	}
	say(e.stderr, msg.New("catc.export.done", c.File).In(l))
	return nil
}

// exportCatalogs writes the catalogs to path: a workbook or CSV with every
// table, or a folder with the API's answers, articulos.json included.
func exportCatalogs(path string, sh shown, l msg.Lang) error {
	if !catalog.Exportable(path) || !catalog.IsFolder(path) {
		return catalog.Export(path, sh.snap, sh.tables(l), l)
	}
	hasParams := sh.snap.MediosPago != nil || sh.snap.Motivos != nil
	if hasParams || sh.articulos.Fetched.IsZero() {
		if err := catalog.ExportDir(path, sh.snap); err != nil {
			return err
		}
	}
	if sh.articulos.Fetched.IsZero() {
		return nil
	}
	return catalog.ExportArticulosDir(path, sh.articulos)
}

// splitMissing separates the parameter catalogs a pull missed from the
// article catalog, which --articulos fetches.
func splitMissing(missing []string) (params []string, articulos bool) {
	for _, m := range missing {
		if m == string(catalog.Articulos) {
			articulos = true
			continue
		}
		params = append(params, m)
	}
	return params, articulos
}

// GetDataCurva is the embedded sandbox's GET GetDataCurva, in-process: a
// --sandbox run spends no masses window on its article catalog.
func (sc sandboxCatalogs) GetDataCurva(_ context.Context, depositoID int64) ([]nxapi.ArticuloConCurva, error) {
	return sc.s.ArticulosCurva(depositoID)
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
