package reconcile

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
)

// pedidoBody is a valid one-line order of the demo data.
func pedidoBody(orden int64, paid bool) []byte {
	d := nxapi.DecimalFromInt(1500)
	zero := nxapi.Decimal(0)
	one := nxapi.DecimalFromInt(1)
	p := nxapi.Pedido{OrdenID: orden, Numero: orden, Usuario: &nxapi.Usuario{Email: fmt.Sprintf("c%d@example.com", orden)},
		Productos: []nxapi.Producto{{ArticuloID: 105, Precio: &d, Cantidad: &one}},
		Subtotal:  &d, Descuento: &zero, Recargo: &zero, Envio: &zero, Total: &d}
	if paid {
		p.Pagado, p.MedioPago = true, &nxapi.MedioPago{Tipo: nxapi.Efectivo}
	}
	b, _ := json.Marshal(p)
	return b
}

// order journals one order request (business key business) the way a run
// does: send says whether it reaches the sandbox, out how it ends.
func (w *world) order(kind, business string, send func() apiclient.Outcome, out journal.Outcome) apiclient.Outcome {
	return w.orderWith(kind, business, send, func(apiclient.Outcome) journal.Outcome { return out })
}

// orderWith is order with the outcome made from the answer.
func (w *world) orderWith(kind, business string, send func() apiclient.Outcome, out func(apiclient.Outcome) journal.Outcome) apiclient.Outcome {
	w.t.Helper()
	k := journal.Key{Tenant: tenant, Kind: kind, Business: business}
	if _, err := w.j.Begin(context.Background(), k, journal.Intent{BodyHash: "h", Hold: sendrules.HoldOf(kind)}); err != nil {
		w.t.Fatal(err)
	}
	var o apiclient.Outcome
	if send != nil {
		o = send()
	}
	if err := w.j.Finish(context.Background(), k, out(o)); err != nil {
		w.t.Fatal(err)
	}
	return o
}

// TestPedidos: an order whose answer was lost without its id stays unknown
// with what to check; one whose failed answer named its facturaId is tied
// by GET /comprobante; a paid update is ok when the order shows its total
// paid and failed when it shows nothing paid after the hold; a lost
// cancellation is left to a person.
func TestPedidos(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, sandbox.Options{})
		ctx := context.Background()
		create := func(orden int64) func() apiclient.Outcome {
			return func() apiclient.Outcome { return w.api.Pedido(ctx, pedidoBody(orden, false)) }
		}
		// 1: created, answer lost, id unknown.
		w.order(KindPedido, "1", create(1), journal.Outcome{State: journal.Unknown, Message: "se cortó"})
		// 2: created, the failing answer named the id.
		o2 := create(2)()
		w.order(KindPedido, "2", nil, journal.Outcome{State: journal.Unknown, FacturaID: int64(o2.Result.FacturaID)})
		// 3 and 4: created ok; 3's paid update processed, 4's never arrived.
		ok := func(o apiclient.Outcome) journal.Outcome {
			if o.Result == nil {
				return journal.Outcome{State: journal.Rejected}
			}
			return journal.Outcome{State: journal.OK, FacturaID: int64(o.Result.FacturaID)}
		}
		o3 := w.orderWith(KindPedido, "3", create(3), ok)
		o4 := w.orderWith(KindPedido, "4", create(4), ok)
		for _, o := range []apiclient.Outcome{o3, o4} {
			if o.Class != apiclient.OK {
				t.Fatalf("create: %+v", o)
			}
		}
		time.Sleep(sendrules.KeyHold)
		w.order(KindPedido, "3"+sendrules.PaidSuffix, func() apiclient.Outcome { return w.api.Pedido(ctx, pedidoBody(3, true)) },
			journal.Outcome{State: journal.Unknown})
		w.order(KindPedido, "4"+sendrules.PaidSuffix, nil, journal.Outcome{State: journal.Unknown})
		// A cancellation whose answer was lost.
		cancel, _ := json.Marshal(nxapi.Cancelar{FacturaID: int64(o4.Result.FacturaID)})
		w.order(KindCancelar, fmt.Sprint(o4.Result.FacturaID), func() apiclient.Outcome { return w.api.Cancelar(ctx, cancel) },
			journal.Outcome{State: journal.Unknown})
		time.Sleep(sendrules.KeyHold + time.Second)

		p, res := w.reconcile(t.Context(), Options{Kinds: []string{KindPedido, KindCancelar}}, true)
		if len(p.Pedidos) != 5 {
			t.Fatalf("plan: %d order entries, want 5", len(p.Pedidos))
		}
		tests := []struct {
			business string
			kind     string
			want     journal.State
			id       int64
		}{
			{"1", KindPedido, journal.Unknown, 0},
			{"2", KindPedido, journal.OK, int64(o2.Result.FacturaID)},
			{"3" + sendrules.PaidSuffix, KindPedido, journal.OK, int64(o3.Result.FacturaID)},
			{"4" + sendrules.PaidSuffix, KindPedido, journal.Failed, 0},
			{fmt.Sprint(o4.Result.FacturaID), KindCancelar, journal.Unknown, 0},
		}
		for _, tt := range tests {
			e := w.entry(tt.kind, tt.business)
			if e.State != tt.want || (tt.id != 0 && e.FacturaID != tt.id) {
				t.Errorf("%s/%s: %s facturaId %d, want %s %d", tt.kind, tt.business, e.State, e.FacturaID, tt.want, tt.id)
			}
		}
		left := map[string]string{}
		for _, u := range res.Undecided {
			left[u.Key.Business] = u.Why.Key
		}
		if left["1"] != "rec.pedido.noid" || left[fmt.Sprint(o4.Result.FacturaID)] != "rec.cancelar.check" {
			t.Errorf("undecided %v", left)
		}
	})
}
