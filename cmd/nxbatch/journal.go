package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/nxbatch/nxbatch/journal"
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
