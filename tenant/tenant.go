// Package tenant tells which tenant a connection talks to, so that the
// journal never merges two tenants (rows reported sent that never were,
// and through read-backs, duplicates) and never splits one (everything
// sent again).
//
// A tenant is the API's origin (scheme, host and port; every name of this
// machine is one host), the environment, the integration's appId from GET
// /config, and a fingerprint of the tenant's stable structure: the
// integration's name and the ids of its warehouses and of its enabled
// branches (Fingerprint). The appId alone is not enough: it is only the
// integration's number, and nothing says two shops cannot both have 1.
//
// Each token is bound to one tenant in tenants.json beside the journal (by
// a hash that never reveals it). A bound token keeps its tenant even when
// the structure later changes (an administrator adds a warehouse): the
// stored fingerprint is updated and said once. A new token is:
//   - a rotation when origin, environment, appId and fingerprint match one
//     known tenant: the same tenant, said once;
//   - refused before anything is sent when they match a known tenant but
//     the fingerprint differs: it may be a rotation after a change of
//     structure or another shop behind the same address, and only the user
//     knows (--tenant NAME says which);
//   - a new tenant otherwise.
//
// GET /config shares the parameter endpoints' 60 s window, so only the
// first contact with a new token costs a request.
package tenant

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Identity is a tenant: the journal's key for it and what it was known by.
type Identity struct {
	// ID is the journal's tenant key (see DefaultID; --tenant names it).
	ID string `json:"id"`
	// Origin is the API's origin (apiclient.Origin); empty for the
	// embedded sandbox.
	Origin      string        `json:"origin,omitempty"`
	Env         sendrules.Env `json:"env"`
	AppID       int64         `json:"appId"`
	Nombre      string        `json:"nombre,omitempty"`
	Fingerprint string        `json:"fingerprint,omitempty"`
	// Structure is what the fingerprint was made of, to say what changed.
	Structure Structure `json:"structure"`
	// Sandbox marks the embedded sandbox, a tenant of its own.
	Sandbox  bool      `json:"sandbox,omitempty"`
	Resolved time.Time `json:"resolved"`
}

// Structure is the part of GET /config that names a tenant and changes
// only when an administrator changes the channel: the integration's name,
// its warehouses and its enabled branches.
type Structure struct {
	Nombre     string  `json:"nombre"`
	Depositos  []int64 `json:"depositos"`
	Sucursales []int64 `json:"sucursales"`
}

// StructureOf takes the structure out of a /config answer, ids sorted.
func StructureOf(cfg *nxapi.Config) Structure {
	s := Structure{Nombre: strings.TrimSpace(cfg.Nombre), Depositos: []int64{}, Sucursales: []int64{}}
	for _, d := range cfg.Depositos {
		s.Depositos = append(s.Depositos, d.DepositoID)
	}
	for _, b := range cfg.SucursalesExportacion {
		s.Sucursales = append(s.Sucursales, b.SucursalID)
	}
	slices.Sort(s.Depositos)
	s.Depositos = slices.Compact(s.Depositos)
	slices.Sort(s.Sucursales)
	s.Sucursales = slices.Compact(s.Sucursales)
	return s
}

// Fingerprint is the hex SHA-256 of the structure's canonical text, cut to
// 12 characters: short enough to read in a message, long enough that two
// shops do not share it by chance.
func (s Structure) Fingerprint() string {
	var b strings.Builder
	b.WriteString("nombre=" + strings.ToLower(s.Nombre) + "\ndepositos=")
	for i, d := range s.Depositos {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(d, 10))
	}
	b.WriteString("\nsucursales=")
	for i, d := range s.Sucursales {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(d, 10))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])[:12]
}

// Describe says the structure in a few words for a message: the name, the
// warehouses and the branches.
func (s Structure) Describe() msg.Message {
	ids := func(v []int64) string {
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = strconv.FormatInt(x, 10)
		}
		if len(parts) == 0 {
			return "-"
		}
		return strings.Join(parts, ", ")
	}
	return msg.New("tenant.describe", s.Nombre, ids(s.Depositos), ids(s.Sucursales))
}

// joined renders messages joined by "; " in the parent's language.
type joined []msg.Message

func (j joined) In(l msg.Lang) string {
	parts := make([]string, len(j))
	for i, m := range j {
		parts[i] = m.In(l)
	}
	return strings.Join(parts, "; ")
}

// DefaultID is the journal key a new tenant gets: "app<appId>.<env>@<host>"
// (the origin without its scheme), readable in journal list and unique per
// origin, environment and appId.
func DefaultID(origin string, env sendrules.Env, appID int64) string {
	host := origin
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	return fmt.Sprintf("app%d.%s@%s", appID, env, host)
}

// LegacyID is the key nxbatch used for every tenant before this package
// knew origins and fingerprints: "app<appId>.<env>".
func LegacyID(env sendrules.Env, appID int64) string {
	return fmt.Sprintf("app%d.%s", appID, env)
}

// SandboxID is the embedded sandbox's tenant: named after its state
// file's instance, so a new sandbox (its state file lost) is a new tenant
// and the journal never says sent what it does not hold.
func SandboxID(instance string, env sendrules.Env) string {
	return "sandbox-" + instance + "." + string(env)
}

// validName is what --tenant may be: letters, digits and . _ - @ : [ ],
// never a slash (the journal's key separator).
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@:\[\]-]{0,99}$`)

// ValidName reports whether name can name a tenant.
func ValidName(name string) bool { return validName.MatchString(name) }

// UsageError is a refusal the user settles by hand: a --tenant name that
// cannot be one, a tenants.json that cannot be read. Nothing was sent.
type UsageError struct {
	Msg msg.Message
	Err error
}

func (e *UsageError) Error() string { return e.Msg.In(msg.EN) }

// Unwrap returns the cause.
func (e *UsageError) Unwrap() error { return e.Err }

// ErrNoAppID means GET /config did not say which integration it is.
var ErrNoAppID = errors.New("tenant: GET /config gave no appId")

// ConfigReader reads GET /config (*apiclient.Client).
type ConfigReader interface {
	Config(ctx context.Context) (*nxapi.Config, error)
}

// Windows persists the parameter window (a journal.Store): the window
// store of sendrules.Paced, which reserves it for a read atomically
// between the machines that share the journal, so that two of them
// starting together do not both read /config inside one window.
type Windows = sendrules.WindowStore

// Conn is the connection whose tenant is asked for.
type Conn struct {
	// Origin is the API's origin (apiclient.Origin).
	Origin string
	// Binding names the token at this API (apiclient.BindingHash).
	Binding string
	// Credential is apiclient.CredentialHash: the key of tenants.json
	// before bindings, and of the parameter window before the tenant is
	// known.
	Credential string
	// Name is --tenant: the tenant this token belongs to, said by the
	// user. Empty: decided by the rules of this package.
	Name string
}

// Resolver finds a connection's tenant: from its binding when this token
// was seen before, else by asking the API once.
type Resolver struct {
	// Dir holds tenants.json (the state folder, beside the journal).
	Dir string
	Env sendrules.Env
	// Read asks the API; Windows paces it with the shared parameter
	// window. Scale multiplies the window and the API's waits
	// (--time-scale; 0 means 1).
	Read    ConfigReader
	Windows Windows
	Scale   float64
	// Wait waits for the parameter window (and for the API's own "Debe
	// esperar") instead of failing with a *WindowError.
	Wait bool
	Now  func() time.Time
	// Registry keeps the tenants and the tokens bound to them: nil is
	// tenants.json in Dir (a journal file is one machine's); a journal
	// that machines share (PostgreSQL) keeps them itself, so that two
	// machines never name two shops one tenant nor one shop two.
	Registry Registry
	// Entries tells whether the journal holds entries under a key of the
	// previous format; nil: it holds none.
	Entries Entries
}

// Registry stores the registry document by compare-and-swap
// (*pgjournal.Store).
type Registry interface {
	Document(ctx context.Context, name string) ([]byte, error)
	SwapDocument(ctx context.Context, name string, old, doc []byte) (bool, error)
}

// Entries tells whether the journal holds entries of a tenant
// (journal.Store).
type Entries interface {
	HasTenant(ctx context.Context, tenant string) (bool, error)
}

// docName is the registry's name in a shared journal.
const docName = "tenants"

// Resolved is what Resolve found.
type Resolved struct {
	Identity Identity
	// Config is the /config answer when Resolve had to ask (for the
	// catalog cache); nil otherwise.
	Config *nxapi.Config
	// Notes are said once on the console: a new tenant, a rotation, a
	// changed structure, a journal carried over.
	Notes []msg.Message
}

// WindowError means the parameter window does not allow asking the API
// yet; Next is when it will.
type WindowError struct{ Next time.Time }

func (e *WindowError) Error() string {
	return "tenant: the API's parameter window allows GET /config at " + e.Next.Format("15:04:05")
}

// AmbiguousError refuses a new token that matches known tenants in
// origin, environment and appId but not in structure: a rotation after a
// change, or another shop behind the same address. Nothing is sent.
type AmbiguousError struct {
	Candidate Identity   // what the API says now
	Known     []Identity // the tenants it could be
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("tenant: a new token at %s (appId %d, %s) matches %d known tenant(s) with another structure", e.Candidate.Origin, e.Candidate.AppID, e.Candidate.Env, len(e.Known))
}

// Message says it in the user's words, with both ways out.
func (e *AmbiguousError) Message() msg.Message {
	known := make(joined, len(e.Known))
	for i, k := range e.Known {
		known[i] = msg.New("tenant.known", k.ID, k.Structure.Describe())
	}
	return msg.New("tenant.ambiguous", e.Candidate.Origin, e.Candidate.AppID, e.Candidate.Structure.Describe(),
		known, e.Known[0].ID, DefaultID(e.Candidate.Origin, e.Candidate.Env, e.Candidate.AppID)+"-2")
}

// NameError refuses --tenant NAME when NAME is a tenant of another API,
// environment or integration, or when the token is bound to another one.
type NameError struct {
	Name  string
	Known Identity // the tenant NAME is, or the one the token is bound to
	Bound bool     // the token is bound to Known, which is not NAME
	Asked Identity // what the API says now (zero when not asked)
}

func (e *NameError) Error() string {
	if e.Bound {
		return fmt.Sprintf("tenant: this token belongs to tenant %s, not %s", e.Known.ID, e.Name)
	}
	return fmt.Sprintf("tenant: %s is the tenant of %s appId %d (%s), not of %s appId %d", e.Name, e.Known.Origin, e.Known.AppID, e.Known.Env, e.Asked.Origin, e.Asked.AppID)
}

// Message says it in the user's words.
func (e *NameError) Message() msg.Message {
	if e.Bound {
		return msg.New("tenant.bound", e.Known.ID, e.Name)
	}
	return msg.New("tenant.othername", e.Name, e.Known.Origin, e.Known.AppID, string(e.Known.Env), e.Asked.Origin, e.Asked.AppID, string(e.Asked.Env))
}

// LegacyError refuses to carry over a journal written before tenants had
// origins when it cannot be told whose its entries are: more than one
// integration (or the embedded sandbox) wrote under the same old key.
type LegacyError struct {
	Legacy    string   // the old key, "app1.production"
	Nombres   []string // the integrations seen under it
	Candidate Identity
}

func (e *LegacyError) Error() string {
	return fmt.Sprintf("tenant: the journal's entries under %s cannot be told apart (%s)", e.Legacy, strings.Join(e.Nombres, ", "))
}

// Message says it in the user's words, with both ways out.
func (e *LegacyError) Message() msg.Message {
	if len(e.Nombres) == 0 {
		return msg.New("tenant.legacy.unrecorded", e.Legacy, e.Candidate.Origin, e.Candidate.Structure.Describe(),
			DefaultID(e.Candidate.Origin, e.Candidate.Env, e.Candidate.AppID))
	}
	return msg.New("tenant.legacy", e.Legacy, strings.Join(e.Nombres, ", "), e.Candidate.Origin, e.Candidate.Structure.Describe(),
		DefaultID(e.Candidate.Origin, e.Candidate.Env, e.Candidate.AppID))
}

func (r *Resolver) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// window is the parameter window, scaled.
func (r *Resolver) window() time.Duration {
	return sendrules.Scale(r.Env.Limit(sendrules.Params), r.Scale)
}

// Resolve returns the tenant of connection c: its bound tenant, or after
// asking GET /config, a rotation, a new tenant, or a refusal
// (*AmbiguousError, *NameError, *LegacyError) before anything is sent.
func (r *Resolver) Resolve(ctx context.Context, c Conn) (Resolved, error) {
	if c.Name != "" && !ValidName(c.Name) {
		return Resolved{}, &UsageError{Msg: msg.New("tenant.badname", c.Name)}
	}
	key := c.Binding + "@" + string(r.Env)
	var cfg *nxapi.Config
	for attempt := 0; ; attempt++ {
		f, raw, err := r.load(ctx)
		if err != nil {
			return Resolved{}, err
		}
		if b, ok := f.Bindings[key]; ok {
			if id, ok := f.Tenants[b.Tenant]; ok {
				if c.Name != "" && c.Name != id.ID {
					return Resolved{}, &NameError{Name: c.Name, Known: id, Bound: true}
				}
				return Resolved{Identity: id}, nil
			}
		}
		if cfg == nil {
			bound := func() (bool, error) {
				f, _, err := r.load(ctx)
				if err != nil {
					return false, err
				}
				_, ok := f.Bindings[key]
				return ok, nil
			}
			if cfg, err = r.fetch(ctx, c.Credential, bound); errors.Is(err, errBound) {
				continue
			} else if err != nil {
				return Resolved{}, err
			}
			if cfg == nil || cfg.AppID <= 0 {
				return Resolved{}, ErrNoAppID
			}
		}
		now := r.now()
		st := StructureOf(cfg)
		cand := Identity{Origin: c.Origin, Env: r.Env, AppID: cfg.AppID, Nombre: cfg.Nombre,
			Fingerprint: st.Fingerprint(), Structure: st, Resolved: now}
		id, notes, err := r.decide(ctx, f, c, cand)
		if err != nil {
			return Resolved{}, err
		}
		f.Tenants[id.ID] = id
		f.Bindings[key] = Binding{Tenant: id.ID, Bound: now}
		saved, err := r.save(ctx, f, raw)
		if err != nil {
			return Resolved{}, err
		}
		if !saved {
			// Another machine changed the registry meanwhile: decide
			// again over what it wrote, with the same answer.
			if attempt == 10 {
				return Resolved{}, errors.New("tenant: the registry keeps changing under this machine")
			}
			continue
		}
		// The request counts in the tenant's window too: the catalogs that
		// follow must wait for it.
		if err := r.Windows.SetNextAllowed(ctx, id.ID, string(sendrules.Params), now.Add(r.window())); err != nil {
			return Resolved{}, err
		}
		return Resolved{Identity: id, Config: cfg, Notes: notes}, nil
	}
}

// decide applies the rules to a token not bound yet.
func (r *Resolver) decide(ctx context.Context, f *file, c Conn, cand Identity) (Identity, []msg.Message, error) {
	if c.Name != "" {
		if known, ok := f.Tenants[c.Name]; ok {
			if known.Sandbox || known.Origin != cand.Origin || known.Env != cand.Env || known.AppID != cand.AppID {
				return Identity{}, nil, &NameError{Name: c.Name, Known: known, Asked: cand}
			}
			return r.rebind(known, cand, msg.New("tenant.rotated.named", known.ID))
		}
		cand.ID = c.Name
		notes := []msg.Message{msg.New("tenant.new", cand.ID, cand.Origin, cand.AppID, cand.Structure.Describe())}
		if legacy := LegacyID(cand.Env, cand.AppID); c.Name == legacy {
			notes = []msg.Message{msg.New("tenant.legacy.claimed", legacy)}
		}
		return cand, notes, nil
	}
	var same, match []Identity
	for _, k := range f.sortedTenants() {
		if k.Sandbox || k.Origin != cand.Origin || k.Env != cand.Env || k.AppID != cand.AppID {
			continue
		}
		same = append(same, k)
		if k.Fingerprint == cand.Fingerprint {
			match = append(match, k)
		}
	}
	switch {
	case len(match) == 1:
		return r.rebind(match[0], cand, msg.New("tenant.rotated", match[0].ID))
	case len(same) > 0:
		return Identity{}, nil, &AmbiguousError{Candidate: cand, Known: same}
	}
	// A new tenant; first, a journal of the previous format may hold its
	// entries under the old key.
	legacy := LegacyID(cand.Env, cand.AppID)
	if _, claimed := f.Tenants[legacy]; !claimed {
		held := false
		if r.Entries != nil {
			var err error
			if held, err = r.Entries.HasTenant(ctx, legacy); err != nil {
				return Identity{}, nil, err
			}
		}
		carry, err := f.legacyClaim(legacy, c.Credential+"@"+string(cand.Env), cand, held)
		if err != nil {
			return Identity{}, nil, err
		}
		if carry {
			cand.ID = legacy
			return cand, []msg.Message{msg.New("tenant.legacy.carried", legacy, cand.Origin)}, nil
		}
	}
	cand.ID = DefaultID(cand.Origin, cand.Env, cand.AppID)
	if _, taken := f.Tenants[cand.ID]; taken {
		// Only a tenant named by hand with another structure can hold the
		// default name of this one: never merge into it.
		return Identity{}, nil, &AmbiguousError{Candidate: cand, Known: []Identity{f.Tenants[cand.ID]}}
	}
	return cand, []msg.Message{msg.New("tenant.new", cand.ID, cand.Origin, cand.AppID, cand.Structure.Describe())}, nil
}

// rebind binds a new token to a known tenant, updating its structure when
// it changed.
func (r *Resolver) rebind(known, cand Identity, said msg.Message) (Identity, []msg.Message, error) {
	notes := []msg.Message{said}
	if known.Fingerprint != cand.Fingerprint {
		notes = append(notes, msg.New("tenant.structure", known.ID, known.Structure.Describe(), cand.Structure.Describe()))
		known.Fingerprint, known.Structure = cand.Fingerprint, cand.Structure
	}
	known.Nombre, known.Resolved = cand.Nombre, cand.Resolved
	return known, notes, nil
}

// Observe compares a /config answer read later for a bound tenant (a
// catalog pull) with what the tenant was known by: a changed structure
// keeps the tenant (the token is bound to it) and is stored and said once.
// It returns the note to say, or nothing.
func (r *Resolver) Observe(ctx context.Context, tenantID string, cfg *nxapi.Config) ([]msg.Message, error) {
	if cfg == nil {
		return nil, nil
	}
	f, raw, err := r.load(ctx)
	if err != nil {
		return nil, err
	}
	id, ok := f.Tenants[tenantID]
	if !ok || id.Sandbox || cfg.AppID != id.AppID {
		return nil, nil
	}
	st := StructureOf(cfg)
	if st.Fingerprint() == id.Fingerprint {
		return nil, nil
	}
	note := msg.New("tenant.structure", id.ID, id.Structure.Describe(), st.Describe())
	id.Fingerprint, id.Structure, id.Nombre = st.Fingerprint(), st, cfg.Nombre
	f.Tenants[id.ID] = id
	if saved, err := r.save(ctx, f, raw); err != nil || !saved {
		return nil, err // another machine stored it first, and said it
	}
	return []msg.Message{note}, nil
}

// Record keeps a tenant known without a token (the embedded sandbox), so
// that journal tenants lists it.
func (r *Resolver) Record(ctx context.Context, id Identity) error {
	f, raw, err := r.load(ctx)
	if err != nil {
		return err
	}
	if old, ok := f.Tenants[id.ID]; ok && old.Fingerprint == id.Fingerprint {
		return nil
	}
	f.Tenants[id.ID] = id
	_, err = r.save(ctx, f, raw)
	return err
}

// List returns the known tenants, sorted by ID.
func (r *Resolver) List(ctx context.Context) ([]Identity, error) {
	f, _, err := r.load(ctx)
	if err != nil {
		return nil, err
	}
	return f.sortedTenants(), nil
}

// errBound means the token was bound while fetch waited.
var errBound = errors.New("tenant: bound meanwhile")

// maxRefusals is how many times a patient fetch waits out the API's own
// "Debe esperar" before giving up: machines that share no journal cannot
// coordinate, and each refusal says how long to wait, but a server that
// keeps refusing is not waited on forever.
const maxRefusals = 3

// fetch asks GET /config within the parameter window, counted under the
// credential until the tenant is known. The window is reserved before the
// request, so that of several machines on one journal only one reads it
// per window; the others wait for the next (when Wait).
func (r *Resolver) fetch(ctx context.Context, credential string, bound func() (bool, error)) (*nxapi.Config, error) {
	w := &sendrules.Paced{Store: r.Windows, Key: credential, Window: sendrules.Params,
		Length: r.window(), Scale: r.Scale, Now: r.Now,
		// Another machine on this journal read it meanwhile: its binding
		// may answer without a request.
		Woke: func() error {
			if ok, err := bound(); err != nil || ok {
				return cmp.Or(err, errBound)
			}
			return nil
		}}
	if r.Wait {
		// Another machine, on a journal of its own, read inside this
		// window: the request was refused, not processed. Wait as the
		// API says (the next Take does) and ask again.
		w.MaxRefusals = maxRefusals
	}
	for {
		next, err := w.Take(ctx, r.Wait)
		var closed *sendrules.ClosedError
		var serr *sendrules.StoreError
		switch {
		case errors.As(err, &serr):
			return nil, serr.Err
		case errors.As(err, &closed):
			return nil, &WindowError{Next: next}
		case err != nil:
			return nil, err
		}
		cfg, err := r.Read.Config(ctx)
		// The window counts from the answer; the API's own wait wins.
		retry, next, aerr := w.Answered(ctx, err)
		if aerr != nil {
			return nil, errors.Unwrap(aerr)
		}
		if retry {
			continue
		}
		if sendrules.Refused(err) {
			return nil, &WindowError{Next: next}
		}
		return cfg, err
	}
}

// Binding is a token bound to a tenant.
type Binding struct {
	Tenant string    `json:"tenant"`
	Bound  time.Time `json:"bound"`
}

// fileVersion is tenants.json's format: 2 has tenants and bindings; a file
// without a version is the previous format (credential@env -> identity).
const fileVersion = 2

// file is tenants.json.
type file struct {
	Version  int                 `json:"version"`
	Tenants  map[string]Identity `json:"tenants"`
	Bindings map[string]Binding  `json:"bindings"`
	// Legacy is the previous format's content, kept as it was: the
	// evidence of which integrations wrote under an old key.
	Legacy map[string]legacyIdentity `json:"legacy,omitempty"`
}

// legacyIdentity is an identity of the previous format.
type legacyIdentity struct {
	ID     string        `json:"id"`
	AppID  int64         `json:"appId"`
	Nombre string        `json:"nombre,omitempty"`
	Env    sendrules.Env `json:"env"`
}

func (f *file) sortedTenants() []Identity {
	out := make([]Identity, 0, len(f.Tenants))
	for _, id := range f.Tenants {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, b Identity) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// sandboxNombre and sandboxAppID are the demo data's, which the embedded
// sandbox of the previous format journaled under app1.<env> without a
// binding: an old key of that appId may hold its entries too.
const (
	sandboxNombre = "Demo Integración"
	sandboxAppID  = 1
)

// legacyClaim decides whether a new tenant takes over the old key's
// entries (held says the journal has some): only when the previous format
// bound this very credential to it and saw one integration under it, with
// this tenant's name. An old key with no entries and no record is nobody's.
// Anything else is a *LegacyError: only the user can say whose they are.
func (f *file) legacyClaim(legacy, credKey string, cand Identity, held bool) (bool, error) {
	nombres := map[string]bool{}
	mine := false
	for k, old := range f.Legacy {
		if old.ID != legacy {
			continue
		}
		nombres[strings.TrimSpace(old.Nombre)] = true
		if k == credKey {
			mine = true
		}
	}
	if len(nombres) == 0 {
		if held {
			// Entries under the old key and no record of whose: a state
			// folder lost, or another machine's, or the old embedded
			// sandbox's. Only the user can say.
			return false, &LegacyError{Legacy: legacy, Candidate: cand}
		}
		return false, nil
	}
	list := make([]string, 0, len(nombres))
	for n := range nombres {
		list = append(list, "«"+n+"»")
	}
	slices.Sort(list)
	ok := mine && len(nombres) == 1 && nombres[strings.TrimSpace(cand.Nombre)]
	// The old embedded sandbox wrote under app1 with no binding: a real
	// integration with appId 1 cannot be told apart from it.
	if ok && cand.AppID == sandboxAppID && !strings.EqualFold(strings.TrimSpace(cand.Nombre), sandboxNombre) {
		list = append(list, "«"+sandboxNombre+"» (--sandbox)")
		ok = false
	}
	if ok {
		return true, nil
	}
	return false, &LegacyError{Legacy: legacy, Nombres: list, Candidate: cand}
}

func (r *Resolver) path() string { return filepath.Join(r.Dir, "tenants.json") }

// registry is where the registry lives: Registry, else tenants.json.
func (r *Resolver) registry() Registry {
	if r.Registry != nil {
		return r.Registry
	}
	return fileRegistry{path: r.path()}
}

// load reads the registry in either format, with its bytes for the swap.
// A shared registry not started yet starts from this machine's
// tenants.json (bindings made before the journal was shared, or the
// previous format's evidence). A damaged registry is an error: the
// bindings are what keeps two tenants apart, so they are never silently
// dropped.
func (r *Resolver) load(ctx context.Context) (*file, []byte, error) {
	raw, err := r.registry().Document(ctx, docName)
	if err != nil {
		return nil, nil, err
	}
	src, where := raw, r.path()
	if r.Registry != nil {
		where = "tenants (" + docName + ")"
		if raw == nil {
			if src, err = (fileRegistry{path: r.path()}).Document(ctx, docName); err != nil {
				return nil, nil, err
			}
			where = r.path()
		}
	}
	f, err := parse(src, where)
	return f, raw, err
}

// parse reads a registry document of either format; nil is an empty one.
func parse(b []byte, where string) (*file, error) {
	f := &file{Version: fileVersion, Tenants: map[string]Identity{}, Bindings: map[string]Binding{}}
	if b == nil {
		return f, nil
	}
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, &UsageError{Msg: msg.New("tenant.damaged", where), Err: err}
	}
	if probe.Version == 0 {
		var legacy map[string]legacyIdentity
		if err := json.Unmarshal(b, &legacy); err != nil {
			return nil, &UsageError{Msg: msg.New("tenant.damaged", where), Err: err}
		}
		f.Legacy = legacy
		return f, nil
	}
	if probe.Version != fileVersion {
		return nil, &UsageError{Msg: msg.New("tenant.version", where, probe.Version)}
	}
	if err := json.Unmarshal(b, f); err != nil {
		return nil, &UsageError{Msg: msg.New("tenant.damaged", where), Err: err}
	}
	if f.Tenants == nil {
		f.Tenants = map[string]Identity{}
	}
	if f.Bindings == nil {
		f.Bindings = map[string]Binding{}
	}
	return f, nil
}

// save swaps the registry for f if it is still raw; false: another
// machine changed it first.
func (r *Resolver) save(ctx context.Context, f *file, raw []byte) (bool, error) {
	f.Version = fileVersion
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return false, fmt.Errorf("tenant: %w", err)
	}
	return r.registry().SwapDocument(ctx, docName, raw, append(b, '\n'))
}

// fileRegistry is tenants.json: one machine's, written atomically and
// owner-only. The journal file's lock keeps two runs from writing it at
// once; the swap still checks.
type fileRegistry struct{ path string }

// Document reads the file; nil when there is none.
// A symbolic link in its place is refused (atomicfile.ErrSymlink, naming
// it): the file is rewritten where it is read, and never through a link.
func (g fileRegistry) Document(context.Context, string) ([]byte, error) {
	f, err := atomicfile.OpenFile(g.path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, atomicfile.ErrSymlink) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("tenant: read %s: %w", g.path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("tenant: read %s: %w", g.path, err)
	}
	return b, nil
}

// SwapDocument writes doc if the file still holds old.
func (g fileRegistry) SwapDocument(ctx context.Context, _ string, old, doc []byte) (bool, error) {
	cur, err := g.Document(ctx, "")
	if err != nil {
		return false, err
	}
	if !bytes.Equal(cur, old) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(g.path), 0o700); err != nil {
		return false, fmt.Errorf("tenant: %w", err)
	}
	err = atomicfile.Write(g.path, atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(doc)
		return err
	})
	return err == nil, err
}
