package pipeline

import (
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
)

// PlanLine is what one sheet becomes: how many rows, how many requests of
// its kind, and how many of those are invalid.
type PlanLine struct {
	File, Sheet string
	Kind        schema.Kind
	Rows        int
	Requests    int
	Invalid     int
	// Count: an inventory count, whose movements are known only once the
	// ERP's stock is read (PrepareCounts).
	Count bool
}

// Plan lists, per sheet, the requests the file becomes: for a stock sheet,
// the movement requests its valid rows make, and Invalid counts rows.
func (f *File) Plan() []PlanLine {
	var out []PlanLine
	for _, sh := range f.Sheets {
		pl := PlanLine{File: f.Path, Sheet: sh.Info.Name, Kind: sh.Kind, Rows: sh.store.len(), Requests: len(sh.Requests)}
		if sh.Kind == schema.Stock {
			pl.Requests = sh.stockRequests(sh.maxArticulos)
		}
		if sh.Layout != nil && sh.Layout.Count {
			pl.Count = true
		}
		for _, r := range sh.Requests {
			if r.Status == StatusInvalid {
				pl.Invalid++
			}
		}
		out = append(out, pl)
	}
	return out
}

// Message renders the plan line: "ventas.csv: 12 filas → 4 ventas (1 con errores)".
func (p PlanLine) Message() msg.Message {
	where := p.File
	if p.Sheet != "" {
		where = sheetLabel(p.File, p.Sheet)
	}
	invalid := msg.Count("n.witherrors", p.Invalid)
	if p.Kind == schema.Stock {
		invalid = msg.Count("n.rowswitherrors", p.Invalid)
	}
	if p.Count {
		return msg.New("plan.line", where, msg.Count("n.rows", p.Rows), msg.New("plan.kind.count"), invalid)
	}
	return msg.New("plan.line", where, msg.Count("n.rows", p.Rows), msg.Count("plan.kind."+string(p.Kind), p.Requests), invalid)
}

// Pacing is what the API's limits allow, for the least-time estimate.
type Pacing struct {
	Rate        float64       // venta/facturar requests per second (0 = unlimited)
	StockWindow time.Duration // time between stock movements (3 s, scaled)
}

// LeastTime is the least time the API's limits allow for sending n
// requests of kind k.
func LeastTime(k schema.Kind, n int, p Pacing) time.Duration {
	if n <= 0 {
		return 0
	}
	if k == schema.Stock {
		return time.Duration(n-1) * p.StockWindow
	}
	if p.Rate <= 0 {
		return 0
	}
	return time.Duration(float64(n-1) / p.Rate * float64(time.Second))
}

// RunLeastTime is the least time the API's limits allow for sending every
// pending request of files: stock movements share one window whatever file
// they come from, and go out alongside the sales and invoicings.
func RunLeastTime(files []*File, p Pacing) time.Duration {
	counts := map[schema.Kind]int{}
	for _, f := range files {
		for _, sh := range f.Sheets {
			counts[sh.Kind] += len(sh.sends())
		}
	}
	return KindsLeastTime(counts, p)
}

// KindsLeastTime is the least time the API's limits allow for sending
// counts requests of each kind: stock movements in their window, sales and
// invoicings at the rate, the two alongside each other.
func KindsLeastTime(counts map[schema.Kind]int, p Pacing) time.Duration {
	return max(LeastTime(schema.Stock, counts[schema.Stock], p),
		LeastTime(schema.Venta, counts[schema.Venta]+counts[schema.Facturar], p))
}
