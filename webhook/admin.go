package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Names the pacing windows are persisted under (the journal's strings for
// sendrules.WebhookList and sendrules.WebhookWrite).
const (
	ListWindowName  = string(sendrules.WebhookList)
	WriteWindowName = string(sendrules.WebhookWrite)
)

// Windows returns the unscaled list and write windows of env, "production"
// or "test", from the API's limits table (package sendrules).
func Windows(env string) (list, write time.Duration) {
	e, err := sendrules.ParseEnv(env)
	if err != nil {
		e = sendrules.Production
	}
	return e.Limit(sendrules.WebhookList), e.Limit(sendrules.WebhookWrite)
}

// API is what Admin needs from the API client (*apiclient.Client).
type API interface {
	Webhooks(ctx context.Context) ([]nxapi.Webhook, error)
	CreateWebhook(ctx context.Context, w nxapi.WebhookGuardar) ([]nxapi.Webhook, error)
	EditWebhook(ctx context.Context, id int64, w nxapi.WebhookGuardar) ([]nxapi.Webhook, error)
	DeleteWebhook(ctx context.Context, id int64) ([]nxapi.Webhook, error)
}

// WindowStore persists "next allowed" times across runs (a journal.Store):
// the window store of sendrules.Paced.
type WindowStore = sendrules.WindowStore

// Admin lists, sets and deletes the integration's webhook, one call per
// window: the list window before a GET, the write window (shared by create,
// edit and delete) before a write.
type Admin struct {
	API         API
	Windows     WindowStore
	Tenant      string
	ListWindow  time.Duration // already scaled by --time-scale
	WriteWindow time.Duration // already scaled by --time-scale
	// Scale multiplies the N of the API's "Debe esperar N segundos", which
	// is in API seconds (1 outside tests).
	Scale float64
	Now   func() time.Time                                 // nil: time.Now
	Sleep func(ctx context.Context, d time.Duration) error // nil: a timer honouring ctx
	// Waiting, when set, is told before Admin waits for a window, so the
	// command can say why it is quiet.
	Waiting func(d time.Duration)
}

// maxRefusals bounds how often one call is sent while the API refuses it
// for its window (so it is resent maxRefusals-1 times); the refusal means
// it was not processed, so resending is safe, but a server that always
// refuses must not keep us forever.
const maxRefusals = 3

// Action says what Set did.
type Action string

// Set actions.
const (
	Created   Action = "created"
	Edited    Action = "edited"
	Unchanged Action = "unchanged"
)

// Result is what Set did and the API's list afterwards.
type Result struct {
	Action  Action
	Webhook nxapi.Webhook   // the articulos webhook as it is now
	All     []nxapi.Webhook // the API's full list
}

// CheckError lists the field rules a webhook breaks; nothing was sent.
type CheckError struct {
	Problems []msg.Message
}

// Error lists the problems in English; commands render Problems in the
// user's language.
func (e *CheckError) Error() string {
	s := "the webhook breaks the API's rules:"
	for _, p := range e.Problems {
		s += " " + p.In(msg.EN) + ";"
	}
	return s
}

// ErrNoSuchWebhook reports a delete of an id the API does not have: on this
// API that is a 400, not an empty success (DELETE is not idempotent).
var ErrNoSuchWebhook = errors.New("no webhook with that id")

// List returns the integration's webhooks.
func (a *Admin) List(ctx context.Context) ([]nxapi.Webhook, error) {
	var out []nxapi.Webhook
	err := a.paced(ctx, sendrules.WebhookList, a.ListWindow, func() error {
		var err error
		out, err = a.API.Webhooks(ctx)
		return err
	})
	return out, err
}

// Set makes g the integration's articulos webhook: it edits the existing
// one (the API allows one per topic) or creates it, and writes nothing when
// the existing one already equals g. g is checked locally first; a
// *CheckError means nothing was sent.
func (a *Admin) Set(ctx context.Context, g nxapi.WebhookGuardar) (Result, error) {
	if g.Topic == "" {
		g.Topic = nxapi.TopicArticulos
	}
	if p := Check(g); len(p) > 0 {
		return Result{}, &CheckError{Problems: p}
	}
	list, err := a.List(ctx)
	if err != nil {
		return Result{}, err
	}
	i := slices.IndexFunc(list, func(w nxapi.Webhook) bool { return w.Topic == g.Topic })
	if i >= 0 && same(list[i], g) {
		return Result{Action: Unchanged, Webhook: list[i], All: list}, nil
	}
	res := Result{Action: Created}
	err = a.paced(ctx, sendrules.WebhookWrite, a.WriteWindow, func() error {
		var err error
		if i >= 0 {
			res.Action = Edited
			res.All, err = a.API.EditWebhook(ctx, list[i].ID, g)
		} else {
			res.All, err = a.API.CreateWebhook(ctx, g)
		}
		return err
	})
	if err != nil {
		return Result{}, err
	}
	if j := slices.IndexFunc(res.All, func(w nxapi.Webhook) bool { return w.Topic == g.Topic }); j >= 0 {
		res.Webhook = res.All[j]
	}
	return res, nil
}

// Delete deletes webhook id. An id the API does not have gives an error
// matching ErrNoSuchWebhook.
func (a *Admin) Delete(ctx context.Context, id int64) ([]nxapi.Webhook, error) {
	var out []nxapi.Webhook
	err := a.paced(ctx, sendrules.WebhookWrite, a.WriteWindow, func() error {
		var err error
		out, err = a.API.DeleteWebhook(ctx, id)
		return err
	})
	var ae *apiclient.APIError
	if errors.As(err, &ae) && (ae.Status == http.StatusBadRequest || ae.Status == http.StatusNotFound) {
		return nil, fmt.Errorf("delete webhook %d: %w (%w)", id, ErrNoSuchWebhook, err)
	}
	return out, err
}

// same reports whether w already is what g asks for, so Set can spare a
// write (and its 30 s window).
func same(w nxapi.Webhook, g nxapi.WebhookGuardar) bool {
	activo := g.Activo == nil || *g.Activo
	extra := func(p *string) string {
		if p == nil || *p == "" {
			return nxapi.ExtraCurva // null and curva are the same flat format
		}
		return *p
	}
	return w.URL == g.URL && w.Activo == activo && extra(w.Extra) == extra(g.Extra) &&
		slices.Equal(w.Headers, g.Headers)
}

// paced runs call once its window allows, reserving the window in the
// store before the call leaves so a crash cannot forget it, and resends
// after a window refusal (which the API did not process).
func (a *Admin) paced(ctx context.Context, window sendrules.Window, length time.Duration, call func() error) error {
	w := &sendrules.Paced{Store: a.Windows, Key: a.Tenant, Window: window, Length: length,
		// A refusal waits the API's wait, never less than the window.
		MinRefusalWait: length, Scale: a.Scale,
		MaxRefusals: maxRefusals - 1, // maxRefusals sends in all
		Now:         a.Now, Sleep: a.Sleep,
		Waiting: func(_ time.Time, d time.Duration) {
			if a.Waiting != nil {
				a.Waiting(d)
			}
		}}
	for {
		if _, err := w.Take(ctx, true); err != nil {
			var serr *sendrules.StoreError
			if errors.As(err, &serr) {
				return fmt.Errorf("record the %s window: %w", window, serr.Err)
			}
			return err
		}
		err := call()
		// The server started its window somewhere between sending and the
		// answer: counting from the answer never starts the next call early.
		retry, _, serr := w.Answered(ctx, err)
		if serr != nil && (err == nil || retry) {
			return fmt.Errorf("record the %s window: %w", window, errors.Unwrap(serr))
		}
		if !retry {
			return err
		}
	}
}
