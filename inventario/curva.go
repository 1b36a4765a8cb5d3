package inventario

import (
	"context"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// CurvaFetcher reads GetDataCurva, the article catalog one record per
// variant, of warehouse depositoID (0: without depositoId). The
// application passes *apiclient.Client's, paced by the masses window.
type CurvaFetcher interface {
	GetDataCurva(ctx context.Context, depositoID int64) ([]nxapi.ArticuloConCurva, error)
}

// CurvaReader is the StockReader over GetDataCurva: in multi-warehouse
// mode one read without depositoId answers every warehouse (each record's
// stockDepositos); otherwise each warehouse is read on its own (each
// record's unidades).
type CurvaReader struct {
	Fetch CurvaFetcher
	// MultiDeposito is the tenant's multi-warehouse mode: GET /config's
	// flujoDeposito is nxapi.FlujoMultiDeposito.
	MultiDeposito bool
	// Now is the clock that stamps each read when it is answered; nil is
	// time.Now.
	Now func() time.Time
}

// AllAtOnce reports whether one read answers every warehouse.
func (r CurvaReader) AllAtOnce() bool { return r.MultiDeposito }

// ReadStock reads the stock of warehouse depositoID (0: every warehouse).
func (r CurvaReader) ReadStock(ctx context.Context, depositoID int64) (Snapshot, error) {
	recs, err := r.Fetch.GetDataCurva(ctx, depositoID)
	if err != nil {
		return Snapshot{}, err
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return SnapshotOf(recs, depositoID, now()), nil
}

// SnapshotOf is the stock a GetDataCurva answer gives: for a read of one
// warehouse, each variant's unidades in it; for a read of every warehouse
// (depositoID 0), each variant's stockDepositos. A deleted article no
// longer takes part in the integration: it has no stock to count against,
// and --faltantes-en-cero never moves it.
func SnapshotOf(recs []nxapi.ArticuloConCurva, depositoID int64, at time.Time) Snapshot {
	s := Snapshot{At: at, Units: make(map[Variant]nxapi.Decimal, len(recs))}
	for _, r := range recs {
		if r.Eliminado {
			continue
		}
		if depositoID != 0 {
			s.Units[Variant{depositoID, r.ArticuloID, r.TalleID, r.ColorID}] += r.Unidades
			continue
		}
		for _, d := range r.StockDepositos {
			s.Units[Variant{d.DepositoID, r.ArticuloID, r.TalleID, r.ColorID}] += d.Unidades
		}
	}
	return s
}
