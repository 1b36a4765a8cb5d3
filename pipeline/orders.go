package pipeline

import (
	"context"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/sendrules"
)

// prepareOrders checks an orders sheet against the journal. An order has
// two requests, each exactly once: its creation, journaled under its
// ordenId, and its paid update (the same ordenId again with pagado and
// medioPago), journaled under ordenId + sendrules.PaidSuffix. So a row of
// an order already created is:
//   - skipped, with the order's ids, when it is the body that created it
//     (without a payment, or paid from the start);
//   - the paid update when it now carries pagado and, without the payment,
//     is the body that created it: sent once, after the API's hold on the
//     numero that the creation took;
//   - a conflict when anything else changed.
//
// An order whose creation is unknown stays unknown, its update too.
func prepareOrders(ctx context.Context, f *File, sh *Sheet, j Journal, o SubmitOptions, seen map[journal.Key]string) error {
	kind := string(sh.Kind)
	var keys []journal.Key
	for _, r := range sh.Requests {
		if r.Status == StatusValid {
			keys = append(keys, journal.Key{Tenant: o.Tenant, Kind: kind, Business: r.Key},
				journal.Key{Tenant: o.Tenant, Kind: kind, Business: r.Key + sendrules.PaidSuffix})
		}
	}
	known, err := j.Lookup(ctx, keys)
	if err != nil {
		return err
	}
	sh.pending = sh.pending[:0]
	for _, r := range sh.Requests {
		if r.Status != StatusValid {
			continue
		}
		k := journal.Key{Tenant: o.Tenant, Kind: kind, Business: r.Key}
		if duplicateInRun(f, sh, r, k, seen) {
			continue
		}
		res := r.Result()
		e, found := known[k]
		if !found || e.State != journal.OK {
			if found && !orderSendable(r, k, e, res.BodyHash, o) {
				continue
			}
			r.Status = StatusPending
			sh.pending = append(sh.pending, &Send{Kind: sh.Kind, Key: r.Key, Units: []*Request{r}, Body: res.Body, BodyHash: res.BodyHash})
			continue
		}
		rec := r.Record()
		rec.FacturaID, rec.Numero, rec.PVNumero = e.FacturaID, e.Numero, e.PVNumero
		switch {
		case e.BodyHash == res.BodyHash:
			r.Conclude(StatusSkipped, msg.New("sub.skipped", when(e.Last)))
			continue
		case !r.paid || e.BodyHash != res.BaseHash:
			r.Conclude(StatusConflict, msg.New("sub.conflict", when(e.Last)))
			continue
		}
		// The paid update of an order created without its payment.
		r.update = true
		uk := journal.Key{Tenant: o.Tenant, Kind: kind, Business: r.Key + sendrules.PaidSuffix}
		if u, found := known[uk]; found {
			if u.State == journal.OK {
				if u.BodyHash == res.BodyHash {
					r.Conclude(StatusSkipped, msg.New("sub.skipped", when(u.Last)))
				} else {
					r.Conclude(StatusConflict, msg.New("sub.conflict", when(u.Last)))
				}
				continue
			}
			if !orderSendable(r, uk, u, res.BodyHash, o) {
				continue
			}
		}
		// The creation took the API's hold on the numero when it arrived;
		// the update goes after it, or the API answers "ya se esta
		// procesando".
		held := e.Held
		if held.IsZero() {
			held = e.Last
		}
		r.Status = StatusPending
		sh.pending = append(sh.pending, &Send{Kind: sh.Kind, Key: uk.Business, Units: []*Request{r}, Body: res.Body,
			BodyHash: res.BodyHash, NotBefore: held.Add(o.scale(sendrules.HoldOf(kind)))})
	}
	return nil
}

// orderSendable applies the journal's rules to an order request whose key
// k has entry e, not ok: unknown stays unknown (unless RetryUnknown), a
// rejection of the same body is not sent again (unless RetryRejected). It
// concludes r when it is not to be sent.
func orderSendable(r *Request, k journal.Key, e journal.Entry, hash string, o SubmitOptions) bool {
	switch e.State {
	case journal.Unknown, journal.Sending:
		if !o.RetryUnknown {
			r.Conclude(StatusUnknown, msg.New("sub.stillunknown", resolveHint(k)))
			return false
		}
	case journal.Rejected:
		if !o.RetryRejected && rejectedForContent(e) && e.BodyHash == hash {
			r.concludeRejectedBefore(e)
			return false
		}
	}
	return true
}

// waitHold waits until sd may leave: an order's paid update after the hold
// its creation took. It returns false when ctx ended first.
func (s *submitter) waitHold(ctx context.Context, sd *Send) bool {
	if sd.NotBefore.IsZero() {
		return true
	}
	if wait := sd.NotBefore.Sub(s.o.Now()); wait > 0 {
		return sendrules.Sleep(ctx, wait) == nil
	}
	return true
}

// okOutcome is what the row of an accepted request says: for orders and
// cancellations, the state the order is in now.
func okOutcome(jb job) msg.Message {
	u := jb.s.Units[0]
	switch {
	case u.cancel:
		return msg.New("sub.ok.anulado")
	case u.order && u.update:
		return msg.New("sub.ok.pagado")
	case u.order && u.paid:
		return msg.New("sub.ok.pedido", "PAGADO")
	case u.order:
		return msg.New("sub.ok.pedido", "PENDIENTE")
	}
	return msg.New("sub.ok")
}

// JournalKey is the business key under which the journal keeps the
// request: its Key, or for an order's paid update Key + "/pagado".
func (r *Request) JournalKey() string {
	if r.order && r.update {
		return r.Key + sendrules.PaidSuffix
	}
	return r.Key
}

// orderOf is the ordenId of an order's business key.
func orderOf(business string) string {
	o, _ := sendrules.OrderOf(business)
	return o
}

// OrderCounts counts what the API did to orders in this run.
type OrderCounts struct{ Created, Paid, Cancelled int }

// Orders counts the orders this run created, marked paid (by the update,
// or created paid) and cancelled.
func (f *File) Orders() OrderCounts {
	var c OrderCounts
	for _, sh := range f.Sheets {
		for _, r := range sh.Requests {
			if r.Status != StatusOK {
				continue
			}
			switch {
			case r.cancel:
				c.Cancelled++
			case r.order:
				if !r.update {
					c.Created++
				}
				if r.paid {
					c.Paid++
				}
			}
		}
	}
	return c
}
