package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/gocarina/gocsv"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/writers"
)

type journalCmd struct {
	List    journalListCmd    `cmd:"" help:"List journaled requests."`
	Resolve journalResolveCmd `cmd:"" help:"Settle a request whose outcome is unknown, after checking the ERP."`
}

type journalFlags struct {
	Journal string `help:"Journal file." default:".nxbatch/journal" type:"path"`
}

type journalListCmd struct {
	journalFlags
	Status string `help:"Only entries in this state: sending, ok, rejected, unknown, failed." enum:",sending,ok,rejected,unknown,failed" default:""`
	Format string `help:"Output format: table (for people) or csv (for scripts)." enum:"table,csv" default:"table"`
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
	Source    string `csv:"source"`
	Message   string `csv:"message"`
	Note      string `csv:"note"`
}

// writeCSV writes entries as CSV; text that a spreadsheet would run as a
// formula is neutralised, as in every report.
func writeListingCSV(w io.Writer, entries []journal.Entry) error {
	rows := make([]listingRow, 0, len(entries))
	for _, en := range entries {
		rows = append(rows, listingRow{
			Key: en.Key.String(), State: string(en.State), Attempts: en.Attempts,
			First: en.First.UTC().Format(time.RFC3339), Last: en.Last.UTC().Format(time.RFC3339),
			FacturaID: en.FacturaID, Numero: en.Numero, PVNumero: en.PVNumero,
			Source: writers.Neutralize(en.Source), Message: writers.Neutralize(en.Message), Note: writers.Neutralize(en.Note),
		})
	}
	return gocsv.Marshal(&rows, w)
}

// Run prints the journal's entries as a table.
func (c *journalListCmd) Run(e *env) error {
	j, err := journal.Open(c.Journal, journal.Options{})
	if err != nil {
		return &exitError{code: exitAborted, err: err}
	}
	defer j.Close()
	entries, err := j.List(journal.State(c.Status))
	if err != nil {
		return usageErr("list journal: %v", err)
	}
	if c.Format == "csv" {
		return writeListingCSV(e.stdout, entries)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tSTATE\tATTEMPTS\tLAST\tFACTURAID\tNUMERO\tPVNUMERO\tSOURCE\tMESSAGE\tNOTE")
	for _, en := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", en.Key, en.State, en.Attempts,
			en.Last.Local().Format("2006-01-02 15:04:05"), en.FacturaID, en.Numero, en.PVNumero, en.Source, en.Message, en.Note)
	}
	return tw.Flush()
}

type journalResolveCmd struct {
	journalFlags
	Key  string `arg:"" help:"Entry key as journal list shows it (tenant/kind/business)."`
	As   string `help:"What the ERP shows: ok (it was recorded) or failed (it was not; it will be sent again)." enum:"ok,failed" required:""`
	Note string `help:"Why: what you checked in the ERP." required:""`
}

// Run records the operator's verdict on an unknown entry.
func (c *journalResolveCmd) Run(e *env) error {
	k, err := journal.ParseKey(c.Key)
	if err != nil {
		return usageErr("%v", err)
	}
	j, err := journal.Open(c.Journal, journal.Options{})
	if err != nil {
		return &exitError{code: exitAborted, err: err}
	}
	defer j.Close()
	if err := j.Resolve(k, journal.State(c.As), c.Note); err != nil {
		return usageErr("resolve %s: %v", c.Key, err)
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", c.Key, c.As)
	return nil
}
