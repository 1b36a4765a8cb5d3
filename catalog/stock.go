package catalog

import (
	"context"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// ErrStockWindow is a stock read the masses window did not allow before
// the context ended.
var ErrStockWindow = errors.New("the masses window did not open")

// StockCurva reads GetDataCurva now, for an inventory count: the stock of
// depositoID (0: the integration's, with stockDepositos in multi-warehouse
// mode). Unlike Articulos it never answers from the cache: a count is
// compared with the stock as it is when the count is sent. It takes the
// masses window like every other read of the catalog, waiting for it
// (onWait is told once when), and a read of every warehouse also refreshes
// the cached article catalog, which it is.
func (c *Cache) StockCurva(ctx context.Context, depositoID int64, onWait func(time.Time)) ([]nxapi.ArticuloConCurva, error) {
	f, local := c.articulosFetcher()
	if f == nil {
		return nil, errNoEndpoint
	}
	var got []nxapi.ArticuloConCurva
	p := Pulled{Name: Articulos}
	sl := slot{fetched: &p.Fetched, has: func() bool { return false }, local: local,
		window: sendrules.Masses, length: c.massesWindow(),
		fetch: func(ctx context.Context) error {
			recs, err := f.GetDataCurva(ctx, depositoID)
			if err == nil {
				got = recs
			}
			return err
		}}
	if err := c.fetchOne(ctx, sl, &p, true, onWait, sleepCtx); err != nil {
		return nil, err
	}
	switch p.Status {
	case Fetched:
	case Failed:
		return nil, p.Err
	default:
		return nil, ErrStockWindow
	}
	if depositoID == 0 && len(got) > 0 {
		_ = c.saveArticulos(p.Fetched, got) // only a cache
	}
	return got, nil
}
