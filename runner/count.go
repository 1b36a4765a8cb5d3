package runner

import (
	"context"
	"errors"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/sendrules"
)

// CountOptions say how an inventory count's differences become movements.
type CountOptions struct {
	// Tipos picks INGRESO/EGRESO_STOCK (the default) or the manual types
	// (--tipos manual).
	Tipos inventario.Tipos
	// MissingAsZero counts as 0 every variant with stock in a counted
	// warehouse that the file does not list (--faltantes-en-cero).
	MissingAsZero bool
}

// StockReader is how an inventory count reads the ERP's stock: GetDataCurva
// in the masses window (the embedded sandbox in-process), one read of every
// warehouse in multi-warehouse mode, else one a warehouse; onWait is told
// when a read waits for the window.
func (s *Session) StockReader(j journal.Windows, onWait func(time.Time)) inventario.StockReader {
	cache := s.Catalogs(j, 0)
	return inventario.CurvaReader{Fetch: stockFetch{cache: cache, onWait: onWait}, MultiDeposito: s.multiDeposito(cache)}
}

// MassesWindow is the masses window in this Session's time: the least time
// between two reads of the stock.
func (s *Session) MassesWindow() time.Duration {
	return s.Scaled(sendrules.Production.Limit(sendrules.Masses))
}

// multiDeposito says whether the tenant is in multi-warehouse mode, where
// one read answers every warehouse's stock.
func (s *Session) multiDeposito(cache *catalog.Cache) bool {
	if sb := s.cfg.Sandbox; sb != nil {
		return sb.Server.Config().FlujoDeposito == nxapi.FlujoMultiDeposito
	}
	snap, err := cache.Load()
	return err == nil && snap.Config != nil && snap.Config.FlujoDeposito == nxapi.FlujoMultiDeposito
}

// stockFetch reads the stock through the catalog cache's masses window.
type stockFetch struct {
	cache  *catalog.Cache
	onWait func(time.Time)
}

func (f stockFetch) GetDataCurva(ctx context.Context, depositoID int64) ([]nxapi.ArticuloConCurva, error) {
	return f.cache.StockCurva(ctx, depositoID, f.onWait)
}

// prepareCounts works out the count sheets of files against the stock read
// now: the plan says how many reads before reading and each sheet's
// summary after. A read that fails leaves the counts unsent (pending) and
// is said; the rest of the run goes on.
func (s *Session) prepareCounts(ctx context.Context, j journal.SendPath, files []*pipeline.File, so pipeline.SubmitOptions,
	o CountOptions, p Progress, preview bool) {
	window := s.MassesWindow()
	reader := s.StockReader(j, func(next time.Time) {
		p.Note(msg.New("cnt.read.wait", msg.Duration(time.Until(next)), next.Format("15:04:05")))
	})
	p.Note(inventario.ReadPlan(pipeline.CountWarehouses(files), reader.AllAtOnce(), window))
	err := pipeline.PrepareCounts(ctx, files, j, so, pipeline.CountOptions{Stock: reader, Tipos: o.Tipos, MissingAsZero: o.MissingAsZero})
	if err != nil {
		var me *msg.Error
		if errors.As(err, &me) {
			p.Note(me.Msg)
		} else {
			p.Note(msg.New("cnt.read.failed", msg.CauseOf(err)))
		}
	}
	for _, f := range files {
		for _, sh := range f.Sheets {
			for _, m := range sh.CountSummary(window) {
				p.Note(m)
			}
			if preview {
				previewCount(sh, p)
			}
		}
	}
}

// previewRows is how many of a count's rows a preview says one by one
// before pointing at the report, which has them all.
const previewRows = 50

// previewCount says, row by row, what a count would send: the counted
// quantity, the ERP's, the difference and its movement.
func previewCount(sh *pipeline.Sheet, p Progress) {
	plan := sh.CountPlan()
	if plan == nil {
		return
	}
	for i := range plan.Lines {
		if i == previewRows {
			p.Note(msg.Count("cnt.preview.more", len(plan.Lines)-previewRows))
			return
		}
		l := &plan.Lines[i]
		p.Note(msg.New("cnt.preview.row", previewWhere(l), l.Message(func(k journal.Key) string { return k.Business })))
	}
}

// previewWhere names a count line: its row, or the variant an added row is.
func previewWhere(l *inventario.Line) msg.Message {
	if l.Row > 0 {
		return msg.New("cnt.preview.at.row", l.Row)
	}
	return msg.New("cnt.preview.at.variant", l.DepositoID, l.ArticuloID, l.TalleID, l.ColorID)
}
