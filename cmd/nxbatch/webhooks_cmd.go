package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/webhook"
)

// webhooksCmd administers the integration's articulos webhook.
type webhooksCmd struct {
	List   webhooksListCmd   `cmd:"" help:"List the integration's webhooks (header values are not shown)."`
	Set    webhooksSetCmd    `cmd:"" help:"Create the articulos webhook, or edit the existing one (the API allows one per topic)."`
	Delete webhooksDeleteCmd `cmd:"" help:"Delete a webhook by id. On this API deleting an id that does not exist is an error."`
}

// admin connects and builds the paced webhook administrator.
func (f *apiFlags) admin(e *env) (*webhook.Admin, *conn, error) {
	l := f.lang()
	cn, err := f.connect(e, journal.Options{})
	if err != nil {
		return nil, nil, err
	}
	lw, ww := webhook.Windows(f.Env)
	return &webhook.Admin{API: cn.client, Windows: cn.journal, Tenant: cn.Tenant(),
		ListWindow: cn.scaled(lw), WriteWindow: cn.scaled(ww), Scale: cn.scale,
		Waiting: func(d time.Duration) {
			say(e.stderr, msg.New("wh.waiting", msg.Duration(d)).In(l))
		}}, cn, nil
}

type webhooksListCmd struct {
	apiFlags
}

// Run prints the webhooks.
func (c *webhooksListCmd) Run(e *env) error {
	a, cn, err := c.admin(e)
	if err != nil {
		return err
	}
	defer cn.Close()
	list, err := a.List(e.ctx)
	if err != nil {
		return webhookErr(e, err, c.lang())
	}
	printWebhooks(e, list, c.lang())
	return nil
}

type webhooksSetCmd struct {
	apiFlags
	URL      string   `name:"url" help:"Absolute http(s) URL where the ERP posts the events (listen's address as the ERP reaches it)." required:""`
	Format   string   `help:"Event payload: flat (one record per variant) or grouped (one object per article)." enum:"flat,grouped" default:"flat"`
	Header   []string `help:"Header the ERP sends with every event, as NAME=VALUE (repeatable)." placeholder:"NAME=VALUE"`
	Secret   bool     `help:"Generate a new random shared secret, store it for listen (owner-only file in --store) and send it in the X-NXBATCH-SECRET header. Without it, a secret already in --store keeps being sent."`
	Store    string   `help:"listen's store directory: the durable event log, the stock snapshot and the shared secret (not a symbolic link). Default: listen/ in the state folder ($XDG_STATE_HOME/nxbatch, else ~/.local/state/nxbatch), shared by runs from any folder." type:"path"`
	Inactive bool     `help:"Store the webhook as inactive (the API still delivers events; only deleting stops them)."`
}

// Run checks the settings locally, then creates or edits the webhook.
func (c *webhooksSetCmd) Run(e *env) error {
	l := c.lang()
	if err := defaultStore(e, &c.Store); err != nil {
		return err
	}
	g := nxapi.WebhookGuardar{URL: c.URL, Topic: nxapi.TopicArticulos, Extra: ptr(nxapi.ExtraCurva)}
	if c.Format == "grouped" {
		g.Extra = ptr(nxapi.ExtraObjeto)
	}
	if c.Inactive {
		g.Activo = ptr(false)
	}
	var problems []msg.Message
	for _, h := range c.Header {
		k, v, ok := strings.Cut(h, "=")
		switch {
		case !ok:
			problems = append(problems, msg.New("wh.header.form", h))
		case strings.EqualFold(strings.TrimSpace(k), listener.SecretHeader):
			problems = append(problems, msg.New("wh.header.reserved", listener.SecretHeader))
		default:
			g.Headers = append(g.Headers, nxapi.WebhookHeader{Key: strings.TrimSpace(k), Value: v})
		}
	}
	var secret string
	switch {
	case c.Secret:
		// Where it will be stored is checked before the API has it: the
		// ERP must never send a secret listen cannot have.
		if err := listener.CheckSecretPath(c.Store); err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		s, err := listener.RandomSecret()
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		secret = s
	default:
		s, ok, err := listener.LoadSecret(c.Store)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		if ok {
			secret = string(s)
			say(e.stderr, msg.New("wh.secret.kept", c.Store).In(l))
		}
	}
	if secret != "" {
		g.Headers = append(g.Headers, nxapi.WebhookHeader{Key: listener.SecretHeader, Value: secret})
	}
	problems = append(problems, webhook.Check(g)...)
	if len(problems) > 0 {
		return checkErr(e, problems, l)
	}
	if secret != "" && webhook.SecretInClear(g.URL) {
		if !c.AllowInsecureHTTP {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("wh.insecure", g.URL, listener.SecretHeader)}}
		}
		say(e.stderr, msg.New("wh.insecure.allowed", g.URL, listener.SecretHeader).In(l))
	}
	a, cn, err := c.admin(e)
	if err != nil {
		return err
	}
	defer cn.Close()
	res, err := a.Set(e.ctx, g)
	if err != nil {
		return webhookErr(e, err, l)
	}
	if c.Secret {
		// Stored only once the API has it, so listen never expects a secret
		// the ERP does not send.
		if err := listener.SaveSecret(c.Store, secret); err != nil {
			return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("wh.secret.unsaved", msg.CauseOf(err)), Err: err}}
		}
		say(e.stdout, msg.New("wh.secret.created", c.Store+"/"+listener.SecretFile, secret).In(l))
	}
	key := map[webhook.Action]string{webhook.Created: "wh.created", webhook.Edited: "wh.edited", webhook.Unchanged: "wh.unchanged"}[res.Action]
	say(e.stdout, msg.New(key, res.Webhook.ID).In(l))
	printWebhooks(e, res.All, l)
	return nil
}

type webhooksDeleteCmd struct {
	apiFlags
	ID int64 `arg:"" help:"Id of the webhook to delete (see webhooks list)."`
}

// Run deletes one webhook.
func (c *webhooksDeleteCmd) Run(e *env) error {
	l := c.lang()
	a, cn, err := c.admin(e)
	if err != nil {
		return err
	}
	defer cn.Close()
	list, err := a.Delete(e.ctx, c.ID)
	if errors.Is(err, webhook.ErrNoSuchWebhook) {
		return &exitError{code: exitUsage, err: &msg.Error{Msg: msg.New("wh.delete.missing", c.ID)}}
	}
	if err != nil {
		return webhookErr(e, err, l)
	}
	say(e.stdout, msg.New("wh.deleted", c.ID).In(l))
	printWebhooks(e, list, l)
	return nil
}

func ptr[T any](v T) *T { return &v }

// printWebhooks shows the list; header values may be secrets, so only the
// names are shown.
func printWebhooks(e *env, list []nxapi.Webhook, l msg.Lang) {
	if len(list) == 0 {
		say(e.stdout, msg.New("wh.none").In(l))
		return
	}
	say(e.stdout, msg.New("wh.list.header").In(l))
	for _, w := range list {
		format := "flat"
		if w.Extra != nil && *w.Extra == nxapi.ExtraObjeto {
			format = "grouped"
		}
		var keys []string
		for _, h := range w.Headers {
			keys = append(keys, h.Key)
		}
		fmt.Fprintf(e.stdout, "%d\t%s\t%s\t%t\t%s\t%s\n", w.ID, inert(w.Topic), format, w.Activo, inert(w.URL), inert(strings.Join(keys, ",")))
	}
}

// checkErr prints local rule violations; nothing was sent.
func checkErr(e *env, problems []msg.Message, l msg.Lang) error {
	say(e.stderr, msg.New("wh.rejected").In(l))
	for _, p := range problems {
		say(e.stderr, "  - "+p.In(l))
	}
	return &exitError{code: exitUsage}
}

// webhookErr maps an administration error to its exit code, quoting the
// API's own messages verbatim.
func webhookErr(e *env, err error, l msg.Lang) error {
	var ce *webhook.CheckError
	if errors.As(err, &ce) {
		return checkErr(e, ce.Problems, l)
	}
	var ae *apiclient.APIError
	if errors.As(err, &ae) && ae.Status == http.StatusBadRequest {
		for _, m := range ae.Mensajes {
			say(e.stderr, "  - "+m)
		}
		return &exitError{code: exitRowProblems, err: err}
	}
	if errors.Is(err, apiclient.ErrUnauthorized) || e.ctx.Err() != nil {
		return &exitError{code: exitAborted, err: err}
	}
	return &exitError{code: exitUsage, err: err}
}
