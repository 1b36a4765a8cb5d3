package inventario

import (
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/validation"
)

// at renders a read's time for messages: the user's clock, to the second
// (two reads of one count are minutes apart).
func at(t time.Time) string { return t.Local().Format("02/01/2006 15:04:05") }

// q is a quantity as a message argument, written the reader's way.
func q(d nxapi.Decimal) validation.Quantity { return validation.Quantity(d) }

// Message says what became of the row, for the plan, the reports and the
// page: the counted quantity, the ERP's, the difference and the movement
// (Plan.Movements index + 1) it goes into, or why nothing is sent. resolve
// renders the command that settles an unknown request.
func (l *Line) Message(resolve func(journal.Key) string) msg.Message {
	var m msg.Message
	switch l.State {
	case Send:
		m = msg.New("cnt.row.send", q(l.Counted), q(l.ERP), at(l.ReadAt), l.Tipo.String(), q(l.Qty), l.Movement+1)
		if l.Sent != nil {
			m = msg.New("cnt.row.retry", q(l.Counted), l.Tipo.String(), q(l.Qty), at(l.ReadAt))
		}
	case Equal:
		m = msg.New("cnt.row.equal", q(l.Counted), at(l.ReadAt))
	case Done:
		m = msg.New("cnt.row.done.equal", at(l.Entry.Last), q(l.Counted), at(l.ReadAt))
		if l.Tipo != 0 {
			m = msg.New("cnt.row.done", at(l.Entry.Last), q(l.Counted), q(l.ERP), l.Tipo.String(), q(l.Qty), movement(l.Entry))
		}
	case Conflict:
		sent := msg.New("cnt.sent.nothing")
		if l.Sent != nil && l.Sent.Linea != nil {
			sent = msg.New("cnt.sent.line", l.Sent.Tipo.String(), q(l.Qty), movement(l.Entry))
		}
		var counted, erp nxapi.Decimal
		if l.Sent != nil {
			counted, erp = l.Sent.Contada, l.Sent.ERP
		}
		m = msg.New("cnt.row.conflict", at(l.Entry.Last), q(counted), q(erp), sent, q(l.Counted))
	default: // Unknown
		what := msg.New("cnt.sent.nothing")
		if l.Sent != nil && l.Sent.Linea != nil {
			what = msg.New("cnt.sent.unknown", l.Sent.Tipo.String(), q(l.Qty))
		}
		m = msg.New("cnt.row.unknown", what, resolve(l.Entry.Key))
	}
	if l.Added {
		return msg.New("cnt.row.added", q(l.ERP), l.DepositoID, m)
	}
	return m
}

// movement names the movement the API created for a journaled request, or
// its journal key when the answer carried no id.
func movement(e journal.Entry) msg.Message {
	if e.FacturaID != 0 {
		return msg.New("cnt.mov.id", e.FacturaID)
	}
	return msg.New("cnt.mov.key", e.Key.Business)
}

// Totals counts the plan's rows.
type Totals struct {
	Counted, Added                         int // rows of the file, rows added by --faltantes-en-cero
	Send, Ingresos, Egresos                int // rows sent, by direction
	Equal, Done, Conflict, Unknown, Moving int // Moving: movement requests
}

// Totals counts the plan's rows by what becomes of them; max is the most
// lines a request carries (--max-articulos).
func (p *Plan) Totals(max int) Totals {
	var t Totals
	for _, l := range p.Lines {
		if l.Added {
			t.Added++
		} else {
			t.Counted++
		}
		switch l.State {
		case Send:
			t.Send++
			switch l.Tipo {
			case nxapi.IngresoStock, nxapi.IngresoManual:
				t.Ingresos++
			default:
				t.Egresos++
			}
		case Equal:
			t.Equal++
		case Done:
			t.Done++
		case Conflict:
			t.Conflict++
		case Unknown:
			t.Unknown++
		}
	}
	t.Moving = len(p.Requests(max))
	return t
}

// Summary is the plan's head for the console, the reports and the page:
// the rows by what becomes of them, how many reads and the least time
// they take (window: the masses window between two reads), the time of
// each read, and that the differences are taken against the stock as it
// was read then. max is --max-articulos.
func (p *Plan) Summary(max int, window time.Duration) []msg.Message {
	t := p.Totals(max)
	out := []msg.Message{msg.New("cnt.plan.rows", t.Counted, t.Send, t.Ingresos, t.Egresos, t.Moving, t.Equal, t.Done, t.Conflict, t.Unknown)}
	if t.Added > 0 {
		out = append(out, msg.New("cnt.plan.added", t.Added))
	}
	if len(p.Reads) == 0 {
		return append(out, msg.New("cnt.plan.noreads"))
	}
	least := time.Duration(len(p.Reads)-1) * window
	out = append(out, msg.New("cnt.plan.reads", len(p.Reads), msg.Duration(least)))
	for _, r := range p.Reads {
		if r.DepositoID == 0 {
			out = append(out, msg.New("cnt.plan.read.all", at(r.At)))
		} else {
			out = append(out, msg.New("cnt.plan.read.dep", r.DepositoID, at(r.At)))
		}
	}
	return append(out, msg.New("cnt.plan.against"))
}

// ReadPlan says, before reading, how many reads a count of deps warehouses
// takes and the least time they take.
func ReadPlan(deps int, allAtOnce bool, window time.Duration) msg.Message {
	n := ReadsNeeded(deps, allAtOnce)
	return msg.New("cnt.plan.willread", n, msg.Duration(time.Duration(max(n-1, 0))*window), msg.Duration(window))
}
