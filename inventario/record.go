package inventario

import (
	"context"
	"fmt"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

// Recorder is what settling equal rows needs of the journal
// (*boltjournal.Journal).
type Recorder interface {
	Begin(ctx context.Context, k journal.Key, in journal.Intent) (journal.Entry, error)
	Finish(ctx context.Context, k journal.Key, out journal.Outcome) error
}

// equalChunk is the most rows one record of equal rows carries.
const equalChunk = 1000

// RecordEqual journals the rows whose count equals the ERP's stock as
// settled with nothing sent: a record per equalChunk rows, under a key
// that no request has ("c" and a hash of its rows), ok at once. Without
// it a rerun would compare those rows again, and a sale made since would
// turn a count already applied into a movement. A crash between the two
// writes leaves the record unknown, which keeps its rows from being
// compared again until it is settled, as for any stock request.
func (p *Plan) RecordEqual(ctx context.Context, j Recorder) error {
	var idx []int
	for i, l := range p.Lines {
		if l.State == Equal {
			idx = append(idx, i)
		}
	}
	for start := 0; start < len(idx); start += equalChunk {
		part := idx[start:min(start+equalChunk, len(idx))]
		units := make([]journal.Unit, len(part))
		ids := make([]string, len(part))
		for k, i := range part {
			units[k] = p.Lines[i].unit()
			ids[k] = p.Lines[i].ID
		}
		key := journal.Key{Tenant: p.opts.Tenant, Kind: Kind, Business: "c" + requestKey(ids)[1:]}
		if _, err := j.Begin(ctx, key, journal.Intent{BodyHash: key.Business, Source: units[0].Source, Units: units}); err != nil {
			return fmt.Errorf("inventario: record the rows equal to the stock (%s): %w", key, err)
		}
		out := journal.Outcome{State: journal.OK, Message: msg.New("cnt.jrn.equal").In(msg.ES)}
		if err := j.Finish(ctx, key, out); err != nil {
			return fmt.Errorf("inventario: record the rows equal to the stock (%s): %w", key, err)
		}
	}
	return nil
}
