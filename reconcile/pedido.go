package reconcile

import (
	"context"
	"strconv"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// The kinds of orders, as the journal's keys spell them.
const (
	KindPedido   = "pedido"   // creation "N" and paid update "N/pagado"
	KindCancelar = "cancelar" // by facturaId
)

// The rules that settle an order from GET /comprobante/{facturaId}.
const (
	RulePedidoFound = "pedido.found" // the voucher the answer named carries the ordenId: ok
	RulePedidoPaid  = "pedido.paid"  // the order shows its total paid: the update is ok
	RulePedidoDue   = "pedido.due"   // nothing paid after the key hold: the update failed
)

// pedido settles an unknown order request. Orders are not in the sales
// exports, so an order whose answer was lost without its facturaId stays
// unknown with what to check. A creation whose failed answer still named
// a facturaId, and a paid update (the creation's facturaId is known), are
// read back from GET /comprobante/{facturaId}: the ordenId it carries ties
// it, and its totals say whether it was paid. A cancellation is left to a
// person: only estado would show it, and its codes are not public.
func (x *executor) pedido(ctx context.Context, e journal.Entry) {
	if ctx.Err() != nil {
		x.leave(e.Key, x.stopReason(), time.Time{})
		return
	}
	if e.Key.Kind == KindCancelar {
		x.leave(e.Key, msg.New("rec.cancelar.check", e.Key.Business), time.Time{})
		return
	}
	orden, paid := sendrules.OrderOf(e.Key.Business)
	id := e.FacturaID
	if paid {
		id = x.p.pedidoIDs[orden]
	}
	if id <= 0 {
		x.leave(e.Key, msg.New("rec.pedido.noid", orden), time.Time{})
		return
	}
	r, c, err := x.readComprobante(ctx, id)
	if err != nil && !r.NotFound && x.stopped(ctx, err) {
		x.leave(e.Key, x.stopReason(), time.Time{})
		return
	}
	hold := x.o.scaled(sendrules.KeyHold)
	last := lastAttempt(e)
	ev := Evidence{Decided: x.o.Now(), LastAttempt: last, KeyHold: hold.String(), Comprobante: &r}
	var got int64
	var tied bool
	if c != nil {
		got, tied = c.OrdenID.Int()
	}
	switch {
	case r.NotFound:
		x.leave(e.Key, msg.New("rec.facturar.notfound", id), time.Time{})
	case err != nil:
		x.leave(e.Key, readFailed(id, err), retryAfter(err, x.o.Now()))
	case !tied || strconv.FormatInt(got, 10) != orden:
		x.leave(e.Key, msg.New("rec.pedido.other", id, orden), time.Time{})
	case !paid:
		ev.Rule = RulePedidoFound
		x.decide(Decision{Key: e.Key, Evidence: ev,
			Verdict: journal.Verdict{As: journal.OK, FacturaID: id, Numero: c.Numero, PVNumero: c.PVNumero},
			Why:     msg.New("rec.pedido.ok", orden, id, clock(r.Read))})
	case c.Totales.Total > 0 && c.Totales.Pagado.Cents() >= c.Totales.Total.Cents():
		ev.Rule = RulePedidoPaid
		x.decide(Decision{Key: e.Key, Evidence: ev,
			Verdict: journal.Verdict{As: journal.OK, FacturaID: id, Numero: c.Numero, PVNumero: c.PVNumero},
			Why:     msg.New("rec.pago.ok", orden, id, clock(r.Read))})
	case c.Totales.Pagado == 0 && c.ComprobanteTipo != nxapi.ComprobanteVenta:
		if ready := last.Add(hold); r.Read.Before(ready) {
			x.leave(e.Key, msg.New("rec.recent", clock(ready)), ready)
			return
		}
		ev.Rule = RulePedidoDue
		x.decide(Decision{Key: e.Key, Evidence: ev, Verdict: journal.Verdict{As: journal.Failed},
			Why: msg.New("rec.pago.failed", orden, id, clock(r.Read))})
	default:
		x.leave(e.Key, msg.New("rec.pago.partial", orden, id), time.Time{})
	}
}
