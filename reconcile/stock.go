package reconcile

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/nxapi"
)

// StockReport is an unknown stock movement as the person who resolves it
// needs it: no read-back of the API proves a movement (GET /comprobante is
// for vouchers, the exports are of sales and purchases), so it is never
// decided here, only shown: the rows it carried, and what the local stock
// snapshot (listen's) knows of their articles.
type StockReport struct {
	Key         journal.Key
	LastAttempt time.Time
	Source      string
	Rows        []StockRow
}

// StockRow is one row of an unknown movement.
type StockRow struct {
	ID     string // the row's identity in the journal
	Source string // file and row
	// Articulo is the article line the row contributed; Unreadable when
	// the journal's copy could not be read.
	Articulo   nxapi.StockArticulo
	Unreadable bool
	// Snapshot is what listen's snapshot has of the article and variant,
	// per warehouse; nil without a snapshot or when it has none.
	Snapshot []listener.Row
}

// stock builds the reports of the unknown stock movements.
func (x *executor) stock(ctx context.Context) error {
	if len(x.p.Stock) == 0 {
		return nil
	}
	var byArticle map[int64][]listener.Row
	if x.o.Snapshot != nil {
		byArticle = map[int64][]listener.Row{}
		for _, r := range x.o.Snapshot.Rows(time.Time{}) {
			byArticle[r.ArticuloID] = append(byArticle[r.ArticuloID], r)
		}
	}
	for _, e := range x.p.Stock {
		rep := StockReport{Key: e.Key, LastAttempt: lastAttempt(e), Source: e.Source}
		units, _, err := x.j.Units(ctx, e.Key.Tenant, e.Key.Kind, e.Units)
		if err != nil {
			return fmt.Errorf("reconcile: the rows of %s: %w", e.Key, err)
		}
		for _, id := range e.Units {
			row := StockRow{ID: id}
			u, ok := units[id]
			if ok {
				row.Source = u.Source
			}
			if !ok || json.Unmarshal([]byte(u.Body), &row.Articulo) != nil || row.Articulo.ArticuloID == 0 {
				row.Unreadable = true
			}
			for _, r := range byArticle[row.Articulo.ArticuloID] {
				if !row.Unreadable && r.ColorID == row.Articulo.ColorID && r.TalleID == row.Articulo.TalleID {
					row.Snapshot = append(row.Snapshot, r)
				}
			}
			rep.Rows = append(rep.Rows, row)
		}
		x.res.Stock = append(x.res.Stock, rep)
	}
	return nil
}
