package main

import (
	"errors"
	"path/filepath"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/plantilla"
	"github.com/nxbatch/nxbatch/schema"
)

// sandboxTemplateScale is the time scale of the sandbox `template
// --sandbox` starts: that sandbox is nxbatch's own test tenant, and the
// windows it takes end by this scale even for the next run over its saved
// state, so shrinking its windows (and ours with it) lets one run fetch every
// catalog a template needs instead of waiting a minute between them.
const sandboxTemplateScale = 0.001

// templateCmd writes an XLSX template for a kind.
type templateCmd struct {
	apiFlags
	Kind       string        `arg:"" help:"Kind of template: venta, facturar, stock, pedido or cancelar." enum:"venta,facturar,stock,pedido,cancelar"`
	Output     string        `short:"o" help:"Workbook to write (default: KIND.xlsx)." type:"path"`
	Rows       int           `help:"Rows prepared with formats and drop-downs." default:"1000"`
	Offline    bool          `help:"Use only the cached catalogs; never ask the API."`
	WaitWindow bool          `name:"wait-window" help:"Wait out the shared 60 s parameter window when the template needs more than one catalog (up to a minute per catalog)."`
	MaxAge     time.Duration `name:"max-age" help:"Reuse cached catalogs younger than this." default:"1h"`
}

// Run fetches the catalogs the kind's lists need (cache first) and writes
// the workbook; a catalog that cannot be had leaves its column without a
// list and says so in the Instrucciones sheet.
func (c *templateCmd) Run(e *env) error {
	k, err := schema.ParseKind(c.Kind)
	if err != nil {
		return usage("cli.kind.bad", c.Kind)
	}
	if !strings.EqualFold(filepath.Ext(c.Output), ".xlsx") && c.Output != "" {
		return usage("cli.template.xlsx")
	}
	out := c.Output
	if out == "" {
		out = string(k) + ".xlsx"
	}
	l := c.lang()
	cf := c.connFlags
	wait := c.WaitWindow
	if c.Sandbox && cf.TimeScale == 1 {
		cf.TimeScale, wait = sandboxTemplateScale, true
	}
	cn, err := connect(e, cf, c.sandboxFlags, c.stateFlags, journal.Options{}, l)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := cn.resolve(e.ctx, wait); err != nil {
		return cn.resolveError(err)
	}
	cache := cn.catalogs(c.MaxAge)
	var snap catalog.Snapshot
	var notes []msg.Message
	if c.Offline {
		snap, err = cache.Load()
		if err != nil {
			return catalogsFailed(err)
		}
	} else {
		var pulled []catalog.Pulled
		snap, pulled, err = cache.Pull(e.ctx, catalog.PullOptions{Names: plantilla.Needs(k), MaxAge: c.MaxAge, Wait: wait})
		if err != nil {
			return catalogsFailed(err)
		}
		now := time.Now()
		for _, p := range pulled {
			if p.Status == catalog.Waiting || p.Status == catalog.Failed {
				notes = append(notes, p.Message(now))
			}
		}
	}
	o := plantilla.Options{Rows: c.Rows}
	if plantilla.NeedsArticulos(k) {
		cache.Events = cn.ArticleEvents()
		o.Articulos, o.ArticulosFetched, notes = c.articulos(e, cache, notes)
	}
	o.Notes = notes
	for _, n := range notes {
		say(e.stderr, n.In(l))
	}
	if err := plantilla.Write(out, k, &snap, o); err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.template.failed", out, msg.CauseText(err, l)), Err: err}}
	}
	say(e.stdout, msg.New("tpl.done", string(k), out).In(l))
	return nil
}

// articulos is the article catalog for the template's «Artículos» sheet:
// the cached copy, or (not --offline) a fresh one when it is older than
// --max-age and the masses window allows, never waiting for that window.
// Without one the template is still written, without the sheet, and the
// note says why.
func (c *templateCmd) articulos(e *env, cache *catalog.Cache, notes []msg.Message) ([]nxapi.ArticuloConCurva, time.Time, []msg.Message) {
	if c.Offline {
		cp, err := cache.LoadArticulos()
		if err != nil || cp.Fetched.IsZero() {
			return nil, time.Time{}, notes
		}
		return cp.Articulos, cp.Fetched, notes
	}
	recs, fetched, err := cache.Articulos(e.ctx, catalog.ArticulosOptions{MaxAge: c.MaxAge,
		Note: func(m msg.Message) { notes = append(notes, m) }})
	var none *catalog.NoArticulosError
	switch {
	case errors.As(err, &none):
		return nil, time.Time{}, append(notes, none.Message())
	case err != nil:
		return nil, time.Time{}, append(notes, msg.New("tpla.fetchfailed", msg.CauseOf(err)))
	}
	return recs, fetched, notes
}
