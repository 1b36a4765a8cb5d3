package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/profiles"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// inputFlags say how input files are read; shared by validate and run.
type inputFlags struct {
	Files        []string `arg:"" name:"file" help:"Input files (.csv, .txt, .xlsx)." type:"path"`
	Kind         string   `help:"Kind of every input file (venta, facturar, stock, pedido, cancelar); detected from the headers, or from a sheet or file named pedidos or cancelaciones, when not given." enum:",venta,facturar,stock,pedido,cancelar" default:""`
	Map          string   `help:"Mapping file (JSON or YAML) from your own column names to API field paths, e.g. {\"Nro Orden\": \"ordenId\"}; or the NAME of a mapping profile saved from nxbatch serve's column screen."`
	Delimiter    string   `help:"CSV delimiter: ',' ';' or 'tab'; detected when not given."`
	Encoding     string   `help:"CSV encoding: utf-8 or windows-1252; detected when not given." enum:",utf-8,windows-1252" default:""`
	Decimal      string   `help:"Decimal separator of text numbers: comma or dot; detected per file when not given." enum:",comma,dot" default:""`
	MaxArticulos int      `help:"Most articles in one stock movement request." default:"500"`
	HeaderRow    int      `name:"header-row" help:"Spreadsheet row of the header (default: the first row that names a kind's columns; title rows above it are skipped)."`
	ReportDir    string   `help:"Folder for the reports (default: beside each input file)." type:"path"`
	NoXLSX       bool     `name:"no-xlsx" help:"Write only the CSV reports (faster on very large files)."`
	langFlag
}

func (f *inputFlags) loadOptions(e *env, st stateFlags) (pipeline.LoadOptions, error) {
	cleanLeftovers(f.Files)
	o := pipeline.LoadOptions{MaxArticulos: f.MaxArticulos}
	if f.MaxArticulos < 1 {
		return o, usage("cli.maxarticulos")
	}
	if f.HeaderRow < 0 {
		return o, usage("cli.headerrow")
	}
	o.Reader.HeaderRow = f.HeaderRow
	if f.Kind != "" {
		k, err := schema.ParseKind(f.Kind)
		if err != nil {
			return o, usage("cli.kind.bad", f.Kind)
		}
		o.Kind = k
	}
	if f.Map != "" {
		m, err := mapping(e, f.Map, st)
		if err != nil {
			return o, err
		}
		o.Mapping = m
	}
	switch f.Delimiter {
	case "":
	case "tab", "TAB", `\t`, "\t":
		o.Reader.Delimiter = '\t'
	default:
		r, n := utf8.DecodeRuneInString(f.Delimiter)
		if n != len(f.Delimiter) || (r != ',' && r != ';' && r != '|') {
			return o, usage("cli.delimiter", f.Delimiter)
		}
		o.Reader.Delimiter = r
	}
	o.Reader.Encoding = f.Encoding
	sep, err := schema.ParseSep(f.Decimal)
	if err != nil {
		return o, usage("cli.decimal", f.Decimal)
	}
	o.Sep = sep
	return o, nil
}

// cleanLeftovers removes what a killed run left in the temporary folder
// beside each input (where its reports go), whatever becomes of this
// command's inputs: a refused file writes no report, so no write would
// otherwise clean the folder.
func cleanLeftovers(files []string) {
	seen := map[string]bool{}
	for _, path := range files {
		dir := filepath.Dir(path)
		if !seen[dir] {
			seen[dir] = true
			_ = atomicfile.Clean(dir) // best effort: a later write cleans again
		}
	}
}

// mapping reads --map: a mapping file when one is at that path, else the
// profile of that name saved by serve's column screen (in the profiles
// folder beside the journal).
func mapping(e *env, arg string, st stateFlags) (schema.Mapping, error) {
	path := arg
	if rest, ok := strings.CutPrefix(arg, "~/"); ok {
		path = filepath.Join(e.getenv("HOME"), rest)
	}
	fi, statErr := os.Stat(path)
	if errors.Is(statErr, os.ErrNotExist) && profiles.CheckName(arg) != nil {
		return nil, usage("cli.map.nofile", arg)
	}
	if statErr == nil && !fi.IsDir() || profiles.CheckName(arg) != nil {
		m, err := schema.LoadMapping(path)
		if err != nil {
			return nil, &exitError{code: exitUsage, err: err}
		}
		return m, nil
	}
	dir, err := st.stateDir(e)
	if err != nil {
		return nil, err
	}
	store := profiles.Store{Dir: profiles.DirIn(dir)}
	p, err := store.Load(arg)
	if errors.Is(err, profiles.ErrNotFound) {
		return nil, usage("cli.map.notfound", arg, store.Dir)
	}
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return p.Mapping(), nil
}

type validateCmd struct {
	inputFlags
	Catalog string `help:"Folder with medios-pago.json and motivos.json (the API's answers) to check ids against." type:"path"`
	Offline bool   `help:"Never use the network: catalogs only from --catalog (otherwise, with NX_BASE_URL set or --sandbox, they come from the API through the per-tenant cache)."`
	connFlags
	sandboxFlags
	stateFlags
	CatalogTTL time.Duration `name:"catalog-ttl" help:"Reuse cached catalogs younger than this." default:"1h"`
}

// apiCatalogs fetches (or reuses from the per-tenant cache) the catalogs the
// files need, when a connection is configured. Any problem only means the
// catalog checks are skipped, which the notes say. The API it asked, with
// its tenant once known, is named in the reports.
func (c *validateCmd) apiCatalogs(e *env, files []*pipeline.File, l msg.Lang) (*validation.Catalog, *writers.API) {
	if c.Offline || (c.BaseURL == "" && !c.Sandbox) {
		return nil, nil
	}
	cn, err := connect(e, c.connFlags, c.sandboxFlags, c.stateFlags, journal.Options{}, l)
	if err != nil {
		say(e.stderr, msg.New("cmd.nocatalog", err.Error()).In(l))
		return nil, nil
	}
	defer cn.Close()
	if err := cn.resolve(e.ctx, false); err != nil {
		say(e.stderr, msg.New("cmd.nocatalog", cn.resolveError(err).Error()).In(l))
		return nil, cn.api()
	}
	// A catalog never fetched is skipped, not waited for: validation
	// only checks what it can.
	cat, notes, err := cn.LoadCatalogs(e.ctx, cn.journal, runner.Need(files), c.CatalogTTL, nil)
	for _, n := range notes {
		say(e.stderr, n.In(l))
	}
	if err != nil {
		say(e.stderr, msg.New("cmd.nocatalog", err.Error()).In(l))
		return nil, cn.api()
	}
	return cat, cn.api()
}

// Run validates every file and writes its reports.
func (c *validateCmd) Run(e *env) error {
	started := time.Now()
	lo, err := c.loadOptions(e, c.stateFlags)
	if err != nil {
		return err
	}
	var cat *validation.Catalog
	if c.Catalog != "" {
		cat, err = catalog.LoadDir(c.Catalog)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
	}
	l := c.lang()
	code := exitOK
	var files []*pipeline.File
	for _, path := range c.Files {
		f, err := pipeline.Load(path, lo)
		if err != nil {
			reportLoadError(e, path, err, l)
			code = max(code, exitUsage)
			continue
		}
		files = append(files, f)
	}
	var api *writers.API
	if cat == nil {
		cat, api = c.apiCatalogs(e, files, l)
	}
	if cat == nil && c.BaseURL == "" && !c.Sandbox && len(files) > 0 {
		// Nothing to check ids against: say so, rather than let "valid"
		// suggest the ids exist.
		say(e.stderr, msg.New("cmd.nocatalogsource").In(l))
	}
	names := reportNames(e, files, c.ReportDir, l)
	for _, f := range files {
		f.Validate(cat, false)
		printPlan(e, f, l)
		paths, err := f.WriteReports(pipeline.ReportOptions{Dir: c.ReportDir, Lang: l, Command: "validate",
			Tool: "nxbatch " + version, Started: started, NoXLSX: c.NoXLSX, Name: names[f.Path], API: api})
		if err != nil {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("cli.reports.failed", f.Path, msg.CauseText(err, l)), Err: err}}
		}
		rows, _ := f.Counts()
		printFileSummary(e, f.Path, rows, paths, l)
		if rows[pipeline.StatusInvalid] > 0 {
			code = max(code, exitRowProblems)
		}
	}
	if code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// reportLoadError prints a file-level problem in the user's language.
func reportLoadError(e *env, path string, err error, l msg.Lang) {
	var me *msg.Error
	switch {
	case errors.As(err, &me) && me.Pos.File != "":
		say(e.stderr, me.In(l))
	default:
		say(e.stderr, path+": "+msg.CauseText(err, l))
	}
}

// reportNames chooses the run's report names and says which are not the
// input's own, and why.
func reportNames(e *env, files []*pipeline.File, dir string, l msg.Lang) map[string]pipeline.ReportName {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	names := pipeline.ReportNames(paths, dir)
	for _, p := range paths {
		if rn := names[p]; rn.Because.Key != "" {
			say(e.stderr, msg.New("cli.warning", msg.New("rep.name.notice", inert(p), inert(filepath.Base(rn.Base)), rn.Because)).In(l))
		}
	}
	return names
}

func printPlan(e *env, f *pipeline.File, l msg.Lang) {
	for _, w := range f.Warnings {
		say(e.stderr, msg.New("cli.warning", w).In(l))
	}
	for _, p := range f.Plan() {
		say(e.stdout, p.Message().In(l))
	}
}

func printFileSummary(e *env, path string, rows map[pipeline.Status]int, p pipeline.ReportPaths, l msg.Lang) {
	var parts []string
	total := 0
	for _, st := range pipeline.AllStatuses {
		if n := rows[st]; n > 0 {
			parts = append(parts, msg.Count("st.count."+st.String(), n).In(l))
			total += n
		}
	}
	say(e.stdout, msg.New("cli.filesummary", inert(filepath.Base(path)), msg.Count("n.rows", total), strings.Join(parts, ", ")).In(l))
	attention := 0
	for st, n := range rows {
		if pipeline.NeedsAttention(st) {
			attention += n
		}
	}
	if attention == 0 {
		return
	}
	for _, pth := range p.Errors {
		say(e.stdout, msg.New("cli.reports", inert(pth)).In(l))
	}
}
