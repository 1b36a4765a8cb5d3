package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/gocarina/gocsv"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/journal/pgjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/tenant"
)

type journalCmd struct {
	List    journalListCmd    `cmd:"" help:"List journaled requests (also while a run holds the journal)."`
	Resolve journalResolveCmd `cmd:"" help:"Settle a request whose outcome is unknown, after checking the ERP."`
	Accept  journalAcceptCmd  `cmd:"" help:"Go on with a journal file that was refused as behind or as another journal (a restored copy you trust). bbolt files only."`
	Copy    journalCopyCmd    `cmd:"" help:"Copy every entry, row and window of one journal into another (a file into PostgreSQL, or back), never overwriting an entry that differs."`
	Tenants journalTenantsCmd `cmd:"" help:"List the tenants this machine knows (API origin, environment, appId, structure, tokens bound) with their journal entries."`
}

type journalTenantsCmd struct {
	journalFlags
}

// Run lists tenants.json beside the journal, with each tenant's entries;
// keys the journal holds under no known tenant (a journal of an earlier
// version) are listed too.
func (c *journalTenantsCmd) Run(e *env) error {
	l := c.lang()
	path, err := c.path(e)
	if err != nil {
		return err
	}
	dir, err := stateDirOf(e, path)
	if err != nil {
		return err
	}
	known, err := (&tenant.Resolver{Dir: dir}).List(e.ctx)
	if err != nil {
		if ue := (*tenant.UsageError)(nil); errors.As(err, &ue) {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: ue.Msg, Err: err}}
		}
		return localized(err, l)
	}
	count := map[string]int{}
	if existingJournal(e, path) == nil {
		entries, err := listJournal(e, path, "")
		if err != nil {
			return localized(err, l)
		}
		for _, en := range entries {
			count[en.Key.Tenant]++
		}
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, msg.New("jrn.tenants.header").In(l))
	seen := map[string]bool{}
	for _, id := range known {
		seen[id.ID] = true
		api := id.Origin
		if id.Sandbox {
			api = msg.New("jrn.tenants.sandbox").In(l)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%d\n", inert(id.ID), inert(api), id.Env, id.AppID, inert(id.Structure.Describe().In(l)), count[id.ID])
	}
	var others []string
	for t := range count {
		if !seen[t] {
			others = append(others, t)
		}
	}
	slices.Sort(others)
	for _, t := range others {
		fmt.Fprintf(tw, "%s\t%s\t\t\t\t%d\n", inert(t), msg.New("jrn.tenants.unbound").In(l), count[t])
	}
	return tw.Flush()
}

// journalFlags say which journal a journal command works on.
type journalFlags struct {
	Journal string `help:"Journal: a file, or a postgres:// URL (or a host=... keyword string). Default: the user's state folder ($XDG_STATE_HOME/nxbatch/journal, else ~/.local/state/nxbatch/journal)." env:"NXBATCH_JOURNAL"`
	langFlag
}

func (f journalFlags) path(e *env) (string, error) {
	return stateFlags{Journal: f.Journal}.journalPath(e)
}

type journalListCmd struct {
	journalFlags
	Status string `help:"Only entries in this state: sending, ok, rejected, unknown, failed, unsent. unknown also lists sending entries: their outcome is not known either (in flight, or left by a run that was killed until the next run marks them unknown)." enum:",sending,ok,rejected,unknown,failed,unsent" default:""`
	Format string `help:"Output format: table (for people) or csv (for scripts)." enum:"table,csv" default:"table"`
	// Evidence shows what reconciliation read to settle an entry (the CSV
	// always has it).
	Evidence bool `help:"After the table, print the evidence reconciliation read to settle each entry (JSON)."`
}

// listingRow is one journal entry as journal list --format csv writes it.
type listingRow struct {
	Key       string `csv:"key"`
	State     string `csv:"state"`
	Attempts  int    `csv:"attempts"`
	First     string `csv:"first"`
	Last      string `csv:"last"`
	FacturaID int64  `csv:"facturaId"`
	Numero    int64  `csv:"numero"`
	PVNumero  int64  `csv:"pvNumero"`
	Rows      int    `csv:"rows"`
	Source    string `csv:"source"`
	Message   string `csv:"message"`
	Note      string `csv:"note"`
	Evidence  string `csv:"evidence"`
}

// writeListingCSV writes entries as CSV; text that a spreadsheet would run
// as a formula is neutralised, as in every report.
func writeListingCSV(w io.Writer, entries []journal.Entry) error {
	rows := make([]listingRow, 0, len(entries))
	for _, en := range entries {
		rows = append(rows, listingRow{
			Key: inert(en.Key.String()), State: string(en.State), Attempts: en.Attempts,
			First: en.First.UTC().Format(time.RFC3339), Last: en.Last.UTC().Format(time.RFC3339),
			FacturaID: en.FacturaID, Numero: en.Numero, PVNumero: en.PVNumero, Rows: len(en.Units),
			// Made safe for a spreadsheet (a formula) and for the terminal
			// it is printed on (a control character or escape sequence
			// from a note or the API).
			Source: inert(cell.Neutralize(en.Source)), Message: inert(cell.Neutralize(en.Message)),
			Note: inert(cell.Neutralize(en.Note)), Evidence: inert(cell.Neutralize(en.Evidence)),
		})
	}
	return gocsv.Marshal(&rows, w)
}

// Run prints the journal's entries. While a run holds the journal, the
// entries come from that run.
func (c *journalListCmd) Run(e *env) error {
	l := c.lang()
	path, err := c.path(e)
	if err != nil {
		return err
	}
	if err := existingJournal(e, path); err != nil {
		return err
	}
	entries, err := listJournal(e, path, journal.State(c.Status))
	if err != nil {
		return localized(err, l)
	}
	if c.Status == string(journal.Unknown) {
		// A sending entry is an outcome nobody knows yet either: in flight,
		// or left by a killed run until the tenant's next run marks it.
		sending, err := listJournal(e, path, journal.Sending)
		if err != nil {
			return localized(err, l)
		}
		entries = append(entries, sending...)
	}
	if c.Format == "csv" {
		return writeListingCSV(e.stdout, entries)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, msg.New("jrn.list.header").In(l))
	for _, en := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", inert(en.Key.String()), en.State, en.Attempts,
			en.Last.Local().Format("2006-01-02 15:04:05"), en.FacturaID, en.Numero, en.PVNumero,
			inert(msg.Source(en.Source, l)), inert(en.Message), inert(en.Note))
	}
	if err := tw.Flush(); err != nil || !c.Evidence {
		return err
	}
	for _, en := range entries {
		if en.Evidence != "" {
			fmt.Fprintf(e.stdout, "\n%s\n  %s\n", inert(en.Key.String()), inert(en.Evidence))
		}
	}
	return nil
}

// listJournal lists the journal at path: opening it, or asking the run that
// holds it. A PostgreSQL journal is read directly, whoever is running.
func listJournal(e *env, path string, filter journal.State) ([]journal.Entry, error) {
	if pgjournal.IsURL(path) {
		// With openJournal's exit codes: a database that cannot be reached
		// is 4, as for run and resolve.
		j, _, err := openJournal(e, path, 0, journal.Options{}, msg.ES)
		if err != nil {
			return nil, err
		}
		defer j.Close()
		return j.List(e.ctx, filter)
	}
	path, err := filePath(path, e)
	if err != nil {
		return nil, err
	}
	j, err := boltjournal.Open(path, journal.Options{})
	if errors.Is(err, journal.ErrLocked) {
		entries, lerr := boltjournal.ListRunning(e.ctx, path, filter)
		if lerr == nil {
			return entries, nil
		}
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	defer j.Close()
	return j.List(e.ctx, filter)
}

type journalResolveCmd struct {
	journalFlags
	Key  string `arg:"" help:"Entry key as journal list shows it (tenant/kind/business)."`
	As   string `help:"What the ERP shows: ok (it was recorded) or failed (it was not; it will be sent again)." enum:"ok,failed" required:""`
	Note string `help:"Why: what you checked in the ERP." required:""`
}

// Run records the operator's verdict on an unknown entry.
func (c *journalResolveCmd) Run(e *env) error {
	l := c.lang()
	k, err := journal.ParseKey(c.Key)
	if err != nil {
		return usage("cli.key.bad", c.Key)
	}
	path, err := c.path(e)
	if err != nil {
		return err
	}
	if err := existingJournal(e, path); err != nil {
		return err
	}
	j, _, err := openJournal(e, path, 0, journal.Options{}, l)
	if err != nil {
		return err
	}
	defer j.Close()
	if err := j.Resolve(e.ctx, k, journal.Verdict{As: journal.State(c.As), Note: c.Note}); err != nil {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("jrn.resolve.failed", c.Key, resolveProblem(err, l))}}
	}
	say(e.stdout, msg.New("jrn.resolved", c.Key, c.As).In(l))
	return nil
}

// resolveProblem says why an entry could not be resolved.
func resolveProblem(err error, l msg.Lang) string {
	switch {
	case errors.Is(err, journal.ErrNotFound):
		return msg.New("jrn.resolve.notfound").In(l)
	case errors.Is(err, journal.ErrWrongState):
		return msg.New("jrn.resolve.notunknown").In(l)
	case errors.Is(err, journal.ErrLocked):
		return localized(err, l).Error()
	}
	return err.Error()
}

type journalAcceptCmd struct {
	journalFlags
}

// Run makes the high-water record agree with the journal as it is now.
func (c *journalAcceptCmd) Run(e *env) error {
	l := c.lang()
	path, err := c.path(e)
	if err != nil {
		return err
	}
	if pgjournal.IsURL(path) {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("pgj.noaccept")}}
	}
	if path, err = filePath(path, e); err != nil {
		return err
	}
	if err := boltjournal.Accept(path); err != nil {
		return localized(err, l)
	}
	say(e.stdout, msg.New("jrn.accepted", path).In(l))
	return nil
}

type journalCopyCmd struct {
	From string `help:"Journal to copy from: a file, or a postgres:// URL or host=... keyword string." required:""`
	To   string `help:"Journal to copy into: a file, or a postgres:// URL or host=... keyword string (created when new)." required:""`
	langFlag
}

// Run copies every entry, unit and window of --from into --to. What --to
// lacks is written; what it holds alike is left; what it holds different is
// listed and left as it is (exit 1): a journal is never overwritten with
// another's idea of what was sent. Running it again changes nothing.
func (c *journalCopyCmd) Run(e *env) error {
	l := c.lang()
	if !pgjournal.IsURL(c.From) {
		// Opening a file that is not there would make an empty journal.
		p, err := filePath(c.From, e)
		if err != nil {
			return err
		}
		if _, err := os.Stat(p); err != nil {
			return usage("jrn.copy.nofrom", p, msg.CauseOf(err))
		}
	}
	from, err := c.open(e, c.From, l)
	if err != nil {
		return err
	}
	defer from.Close()
	to, err := c.open(e, c.To, l)
	if err != nil {
		return err
	}
	defer to.Close()
	if from.Path() == to.Path() {
		return usage("jrn.copy.self", from.Path())
	}
	res, err := journal.Copy(e.ctx, to, from)
	if err != nil {
		if errors.Is(err, journal.ErrLocked) {
			return &exitError{code: exitAborted, err: localized(err, l)}
		}
		return &exitError{code: exitAborted, err: err}
	}
	for _, cf := range res.Conflicts {
		if cf.Unit != "" {
			say(e.stderr, msg.New("jrn.copy.unitdiffers", cf.Unit, cf.Key.String(), cf.Field).In(l))
		} else {
			say(e.stderr, msg.New("jrn.copy.differs", cf.Key.String(), cf.Field).In(l))
		}
	}
	say(e.stdout, msg.New("jrn.copied", res.Entries, res.Units, res.Windows, from.Path(), res.Written, to.Path(), res.Same, len(res.Conflicts)).In(l))
	if len(res.Conflicts) > 0 {
		return &exitError{code: exitRowProblems}
	}
	return nil
}

// open opens one side of a copy: the default state folder plays no part, a
// journal must be named.
func (c *journalCopyCmd) open(e *env, spec string, l msg.Lang) (journal.Store, error) {
	j, _, err := openJournal(e, spec, 0, journal.Options{}, l)
	return j, err
}
