package pgjournal

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/nxbatch/nxbatch/journal"
)

// entryCols are the columns of an entry, in scanEntry's order.
const entryCols = `tenant, kind, business, body_hash, state, attempts, first_at, last_at, held,
	factura_id, numero, pv_numero, message, note, source, updated, units, evidence, facts`

func scanEntry(row pgx.Row) (journal.Entry, error) {
	var (
		e     journal.Entry
		state string
		held  *time.Time
	)
	err := row.Scan(&e.Key.Tenant, &e.Key.Kind, &e.Key.Business, &e.BodyHash, &state, &e.Attempts, &e.First, &e.Last, &held,
		&e.FacturaID, &e.Numero, &e.PVNumero, &e.Message, &e.Note, &e.Source, &e.Updated, &e.Units, &e.Evidence, &e.Facts)
	if err != nil {
		return journal.Entry{}, err
	}
	e.State = journal.State(state)
	if held != nil {
		e.Held = *held
	}
	if len(e.Units) == 0 {
		e.Units = nil
	}
	return e, nil
}

// upsertEntry writes every column of e.
const upsertEntry = `INSERT INTO nxbatch.entries (` + entryCols + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
	ON CONFLICT (tenant, kind, business) DO UPDATE SET
		body_hash = EXCLUDED.body_hash, state = EXCLUDED.state, attempts = EXCLUDED.attempts,
		first_at = EXCLUDED.first_at, last_at = EXCLUDED.last_at, held = EXCLUDED.held,
		factura_id = EXCLUDED.factura_id, numero = EXCLUDED.numero, pv_numero = EXCLUDED.pv_numero,
		message = EXCLUDED.message, note = EXCLUDED.note, source = EXCLUDED.source,
		updated = EXCLUDED.updated, units = EXCLUDED.units, evidence = EXCLUDED.evidence,
		facts = EXCLUDED.facts`

func entryArgs(e journal.Entry) []any {
	units := e.Units
	if units == nil {
		units = []string{}
	}
	return []any{e.Key.Tenant, e.Key.Kind, e.Key.Business, clean(e.BodyHash), string(e.State), e.Attempts,
		e.First, e.Last, nullTime(e.Held), e.FacturaID, e.Numero, e.PVNumero,
		clean(e.Message), clean(e.Note), clean(e.Source), e.Updated, units, clean(e.Evidence), clean(e.Facts)}
}

// upsertUnits makes every unit of a request belong to it.
const upsertUnits = `INSERT INTO nxbatch.units (tenant, kind, id, request, body_hash, body, source)
	SELECT $1, $2, u.id, $3, u.body_hash, u.body, u.source
	FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS u(id, body_hash, body, source)
	ON CONFLICT (tenant, kind, id) DO UPDATE SET
		request = EXCLUDED.request, body_hash = EXCLUDED.body_hash, body = EXCLUDED.body, source = EXCLUDED.source`

// unitArgs are upsertUnits' arguments for the units of request k; a unit
// listed twice keeps its last occurrence, as a second put would in bbolt.
func unitArgs(k journal.Key, us []journal.Unit) []any {
	last := map[string]int{}
	for i, u := range us {
		last[u.ID] = i
	}
	var ids, hashes, bodies, sources []string
	for i, u := range us {
		if last[u.ID] != i {
			continue
		}
		ids = append(ids, u.ID)
		hashes = append(hashes, clean(u.BodyHash))
		bodies = append(bodies, clean(u.Body))
		sources = append(sources, clean(u.Source))
	}
	return []any{k.Tenant, k.Kind, k.Business, ids, hashes, bodies, sources}
}

const upsertWindow = `INSERT INTO nxbatch.windows (tenant, name, next) VALUES ($1, $2, $3)
	ON CONFLICT (tenant, name) DO UPDATE SET next = EXCLUDED.next`

// reserveWindow takes a window whose next allowed time is at or before
// $3, in one statement: a concurrent one waits on the row (or on the key
// of the row being inserted) and then judges the row as the first left
// it, so only one of them gets a row back.
const reserveWindow = `INSERT INTO nxbatch.windows AS x (tenant, name, next) VALUES ($1, $2, $4)
	ON CONFLICT (tenant, name) DO UPDATE SET next = EXCLUDED.next WHERE x.next <= $3
	RETURNING next`

// lockID is the advisory lock of a key: concurrent Begins of one key (or
// of requests carrying units of one tenant and kind) queue on it, so that
// the second sees what the first committed. The hash is part of the
// schema's contract: every nxbatch on one schema version computes it alike.
func lockID(parts ...string) int64 {
	h := fnv.New64a()
	h.Write([]byte("nxbatch"))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return int64(h.Sum64())
}

// Begin records the intent to send k in one committed transaction before
// it returns, with the refusals of bbolt's Begin (see boltjournal.Journal.Begin)
// and one more: the run must hold k's tenant's lease, checked against the
// database's clock in the same transaction. Concurrent Begins of one key,
// or of requests carrying units of one tenant and kind, queue on advisory
// locks, so that the second sees what the first committed.
func (s *Store) Begin(ctx context.Context, k journal.Key, in journal.Intent) (journal.Entry, error) {
	if err := validKey(k); err != nil {
		return journal.Entry{}, err
	}
	if in.Window != nil && (in.Window.Tenant == "" || in.Window.Name == "") {
		return journal.Entry{}, errors.New("journal: a rate window needs a tenant and a name")
	}
	for _, u := range in.Units {
		if u.ID == "" {
			return journal.Entry{}, errors.New("journal: a unit needs an identity")
		}
	}
	if err := s.brokenErr(); err != nil {
		return journal.Entry{}, err
	}
	l, err := s.holding(k.Tenant)
	if err != nil {
		return journal.Entry{}, err
	}
	locks := []int64{lockID("key", k.Tenant, k.Kind, k.Business)}
	if len(in.Units) > 0 {
		locks = append(locks, lockID("units", k.Tenant, k.Kind))
	}
	slices.Sort(locks) // one order for every transaction: no deadlock
	ids := make([]string, len(in.Units))
	for i, u := range in.Units {
		ids[i] = u.ID
	}
	ua := unitArgs(k, in.Units)
	var wt, wn string
	var wnext time.Time
	if in.Window != nil {
		wt, wn, wnext = in.Window.Tenant, in.Window.Name, in.Window.Next
	}
	now := s.now()
	bodyHash, source, facts := clean(in.BodyHash), clean(in.Source), clean(in.Facts)

	// One statement, one round trip, one commit (synchronous_commit on):
	// nxbatch.begin_intent checks and writes as boltjournal.Journal.Begin does.
	// The queued outcomes it must see go first, in the same transaction.
	outs := s.outcomesFor(k, len(ids) > 0)
	if len(outs) > 0 {
		// The transaction carries outcomes other callers queued: they must
		// be recorded even if this caller stops meanwhile.
		ctx = context.WithoutCancel(ctx)
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	b := &pgx.Batch{}
	queueOutcomes(b, outs)
	b.Queue(`SELECT * FROM nxbatch.begin_intent($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
		k.Tenant, k.Kind, k.Business, l.holder, locks, bodyHash, source, facts, in.Hold.Microseconds(), now, s.retryU,
		ids, ua[3], ua[4], ua[5], ua[6], wt, wn, wnext)
	var (
		outcome, detail, state string
		waitUS                 int64
		first, held            *time.Time
		attempts               int
		note, evidence         string
		changed                = make([]int, len(outs))
	)
	err = func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if err := readOutcomes(br, changed); err != nil {
			return err
		}
		if err := br.QueryRow().Scan(&outcome, &detail, &state, &waitUS, &first, &attempts, &held, &note, &evidence); err != nil {
			return err
		}
		return br.Close() // the commit's answer
	}()
	if err != nil {
		err = s.fail(err)
	}
	s.settle(ctx, outs, changed, err)
	if err != nil {
		return journal.Entry{}, err
	}
	switch outcome {
	case "lease":
		l.lost.Store(true)
		return journal.Entry{}, s.fail(s.leaseLost(k.Tenant))
	case "state":
		return journal.Entry{}, &journal.NotSendableError{Key: k, State: journal.State(state)}
	case "unit":
		return journal.Entry{}, &journal.NotSendableError{Key: k, Unit: detail, State: journal.State(state)}
	case "soon":
		return journal.Entry{}, &journal.TooSoonError{Key: k, Hold: in.Hold, Wait: time.Duration(waitUS) * time.Microsecond}
	case "begun":
	default:
		return journal.Entry{}, s.fail(fmt.Errorf("begin_intent answered %q", outcome))
	}
	e := journal.Entry{Key: k, BodyHash: bodyHash, State: journal.Sending, Attempts: attempts, Last: now, Updated: now,
		Source: source, Note: note, Evidence: evidence, Facts: facts}
	if first != nil {
		e.First = *first
	}
	if held != nil {
		e.Held = *held
	}
	if len(ids) > 0 {
		e.Units = ids
	}
	return e, nil
}

// finishSQL records an outcome on a sending entry and moves the window in
// the same statement (one transaction, one round trip); it answers how
// many entries it changed.
const finishSQL = `WITH upd AS (
		UPDATE nxbatch.entries SET state = $4, factura_id = $5, numero = $6, pv_numero = $7, message = $8, updated = $9,
			attempts = CASE WHEN $4 = 'unsent' THEN attempts - 1 ELSE attempts END,
			held = CASE WHEN $4 = 'unsent' THEN held ELSE $9 END
		WHERE tenant = $1 AND kind = $2 AND business = $3 AND state = 'sending'
		RETURNING 1),
	win AS (
		INSERT INTO nxbatch.windows (tenant, name, next)
		SELECT $10, $11, $12 WHERE $10 <> '' AND EXISTS (SELECT 1 FROM upd)
		ON CONFLICT (tenant, name) DO UPDATE SET next = EXCLUDED.next
		RETURNING 1)
	SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM win)`

// Finish records the outcome of k's request in one committed transaction.
// It needs no lease: an outcome is the truth about a request that left, and
// if another run declared this one gone meanwhile, the entry is Unknown and
// Finish fails with ErrWrongState instead.
func (s *Store) Finish(ctx context.Context, k journal.Key, out journal.Outcome) error {
	args, err := s.finishArgs(k, out, s.now())
	if err != nil {
		return err
	}
	if err := s.brokenErr(); err != nil {
		return err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	var changed, moved int
	if err := s.pool.QueryRow(ctx, finishSQL, args...).Scan(&changed, &moved); err != nil {
		return s.fail(err)
	}
	return s.finished(ctx, k, changed)
}

// finishArgs checks an outcome and returns finishSQL's arguments for it.
func (s *Store) finishArgs(k journal.Key, out journal.Outcome, now time.Time) ([]any, error) {
	switch out.State {
	case journal.OK, journal.Rejected, journal.Unknown, journal.Unsent:
	default:
		return nil, fmt.Errorf("journal: finish %s as %q: want ok, rejected, unknown or unsent", k, out.State)
	}
	var wt, wn string
	var next time.Time
	if out.Window != nil {
		if out.Window.Tenant == "" || out.Window.Name == "" {
			return nil, errors.New("journal: a rate window needs a tenant and a name")
		}
		wt, wn, next = out.Window.Tenant, out.Window.Name, out.Window.Next
	}
	return []any{k.Tenant, k.Kind, k.Business, string(out.State),
		out.FacturaID, out.Numero, out.PVNumero, clean(out.Message), now, wt, wn, next}, nil
}

// finished is Finish's answer once finishSQL changed changed entries: an
// outcome that changed none was for an entry that is absent or not
// sending (refusals, not storage failures).
func (s *Store) finished(ctx context.Context, k journal.Key, changed int) error {
	if changed == 1 {
		return nil
	}
	e, found, err := s.Get(ctx, k)
	switch {
	case err != nil:
		return s.fail(err)
	case !found:
		return fmt.Errorf("finish %s: %w", k, journal.ErrNotFound)
	}
	return fmt.Errorf("finish %s: it is %s, not sending: %w", k, e.State, journal.ErrWrongState)
}

// pendingOutcome is an outcome FinishAsync queued: the next Begin carries
// it, or the flusher after outcomeDelay.
type pendingOutcome struct {
	k    journal.Key
	args []any
	done chan error
}

// outcomeDelay is how long queued outcomes wait to be committed together,
// apart from the intents: every worker's outcomes of those 2 ms share one
// commit, none of it on a worker's path to its next request.
const outcomeDelay = 2 * time.Millisecond

// FinishAsync is Finish that does not wait: the outcome is queued and
// committed within outcomeDelay with the others queued meanwhile, in one
// transaction; a Begin that must see it (see outcomesFor) carries it in its
// own transaction first. The channel receives the result once it is
// durable; a storage failure is sticky, as for every write.
//
// Carrying every outcome in the next worker's intent, as bbolt's group
// commit shares one fsync between them, was measured slower here: the
// intent's transaction grew by an UPDATE and its WAL, on the worker's path
// (10,000 sales, 8 workers, 20 ms: 90.2–93.1% of the bound carried,
// 91.9–94.4% apart, back to back).
func (s *Store) FinishAsync(ctx context.Context, k journal.Key, out journal.Outcome) <-chan error {
	done := make(chan error, 1)
	args, err := s.finishArgs(k, out, s.now())
	if err == nil {
		err = s.brokenErr()
	}
	if err == nil {
		// Once queued, the outcome is committed with the others of its
		// batch, whatever becomes of ctx.
		err = ctx.Err()
	}
	if err != nil {
		done <- err
		return done
	}
	s.outMu.Lock()
	s.outs = append(s.outs, &pendingOutcome{k: k, args: args, done: done})
	if s.outTimer == nil {
		s.outTimer = time.AfterFunc(outcomeDelay, s.flushOutcomes)
	}
	s.outMu.Unlock()
	return done
}

// outcomesFor takes the queued outcomes a Begin of k must carry: all of
// them when one is k's own (the intent must find its entry no longer
// sending) or when the Begin carries units (their check reads the states
// of other entries); otherwise none, left to the timer. It first waits for
// the timer's commits under way that hold k's outcome (any, with units).
func (s *Store) outcomesFor(k journal.Key, units bool) []*pendingOutcome {
	s.outMu.Lock()
	var wait []chan struct{}
	for _, f := range s.flights {
		if units || slices.ContainsFunc(f.outs, func(o *pendingOutcome) bool { return o.k == k }) {
			wait = append(wait, f.done)
		}
	}
	var outs []*pendingOutcome
	if (units && len(s.outs) > 0) || slices.ContainsFunc(s.outs, func(o *pendingOutcome) bool { return o.k == k }) {
		outs = s.takeLocked()
	}
	s.outMu.Unlock()
	for _, done := range wait {
		<-done
	}
	return outs
}

// takeLocked takes every queued outcome; outMu is held.
func (s *Store) takeLocked() []*pendingOutcome {
	outs := s.outs
	s.outs = nil
	if s.outTimer != nil {
		s.outTimer.Stop()
		s.outTimer = nil
	}
	return outs
}

// flight is one commit of queued outcomes under way; done is closed once
// it ended.
type flight struct {
	outs []*pendingOutcome
	done chan struct{}
}

// flushOutcomes commits the queued outcomes in one transaction.
func (s *Store) flushOutcomes() {
	s.outMu.Lock()
	f := &flight{outs: s.takeLocked(), done: make(chan struct{})}
	if len(f.outs) == 0 {
		s.outMu.Unlock()
		return
	}
	s.flights = append(s.flights, f)
	s.outMu.Unlock()
	defer func() {
		s.outMu.Lock()
		s.flights = slices.DeleteFunc(s.flights, func(g *flight) bool { return g == f })
		s.outMu.Unlock()
		close(f.done)
	}()
	outs := f.outs
	if err := s.brokenErr(); err != nil {
		s.settle(context.Background(), outs, nil, err)
		return
	}
	// The batch holds the outcomes of several callers, each of which must
	// be recorded: it is bounded by opTimeout, not by any one caller.
	ctx, cancel := s.op(context.Background())
	defer cancel()
	b := &pgx.Batch{}
	queueOutcomes(b, outs)
	changed := make([]int, len(outs))
	err := func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if err := readOutcomes(br, changed); err != nil {
			return err
		}
		return br.Close()
	}()
	if err != nil {
		err = s.fail(err)
	}
	s.settle(ctx, outs, changed, err)
}

// queueOutcomes adds the outcomes' statements to a batch: a batch's
// statements run in one implicit transaction, committed once.
func queueOutcomes(b *pgx.Batch, outs []*pendingOutcome) {
	for _, o := range outs {
		b.Queue(finishSQL, o.args...)
	}
}

// readOutcomes reads the answers of queueOutcomes' statements.
func readOutcomes(br pgx.BatchResults, changed []int) error {
	for i := range changed {
		var moved int
		if err := br.QueryRow().Scan(&changed[i], &moved); err != nil {
			return err
		}
	}
	return nil
}

// settle answers each queued outcome once its transaction ended: err for
// all when it failed.
func (s *Store) settle(ctx context.Context, outs []*pendingOutcome, changed []int, err error) {
	for i, o := range outs {
		if err != nil {
			o.done <- err
			continue
		}
		o.done <- s.finished(ctx, o.k, changed[i])
	}
}

// Resolve records a verdict on an entry whose outcome is not known. An
// entry still Sending is resolved only when no other run holds its
// tenant's lease: that run may be waiting for its answer.
func (s *Store) Resolve(ctx context.Context, k journal.Key, v journal.Verdict) error {
	if v.As != journal.OK && v.As != journal.Failed {
		return fmt.Errorf("journal: resolve %s as %q: want ok or failed", k, v.As)
	}
	if err := s.brokenErr(); err != nil {
		return err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	refusal, err := s.inTx(ctx, func(tx pgx.Tx) (error, error) {
		var st string
		err := tx.QueryRow(ctx, `SELECT state FROM nxbatch.entries WHERE tenant = $1 AND kind = $2 AND business = $3 FOR UPDATE`,
			k.Tenant, k.Kind, k.Business).Scan(&st)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("resolve %s: %w", k, journal.ErrNotFound), nil
		case err != nil:
			return nil, err
		case st != string(journal.Unknown) && st != string(journal.Sending):
			return fmt.Errorf("resolve %s: it is %s, only unknown entries are resolved: %w", k, st, journal.ErrWrongState), nil
		}
		if st == string(journal.Sending) {
			if busy, err := s.heldElsewhere(ctx, tx, k.Tenant); err != nil || busy != nil {
				return busy, err
			}
		}
		ids := v.As == journal.OK && (v.FacturaID != 0 || v.Numero != 0 || v.PVNumero != 0)
		_, err = tx.Exec(ctx, `UPDATE nxbatch.entries SET state = $4, note = $5, evidence = $6, updated = $7,
				factura_id = CASE WHEN $8 THEN $9 ELSE factura_id END,
				numero = CASE WHEN $8 THEN $10 ELSE numero END,
				pv_numero = CASE WHEN $8 THEN $11 ELSE pv_numero END
			WHERE tenant = $1 AND kind = $2 AND business = $3`,
			k.Tenant, k.Kind, k.Business, string(v.As), clean(v.Note), clean(v.Evidence), s.now(),
			ids, v.FacturaID, v.Numero, v.PVNumero)
		return nil, err
	})
	if err != nil {
		return s.fail(err)
	}
	return refusal
}

// inTx runs fn in a transaction and commits it unless fn refuses (its
// first result) or fails (its second).
func (s *Store) inTx(ctx context.Context, fn func(pgx.Tx) (refusal, err error)) (error, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	refusal, err := fn(tx)
	if err != nil || refusal != nil {
		return refusal, err
	}
	return nil, tx.Commit(ctx)
}

// Get returns the entry for k, if any.
func (s *Store) Get(ctx context.Context, k journal.Key) (journal.Entry, bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	e, err := scanEntry(s.pool.QueryRow(ctx, `SELECT `+entryCols+` FROM nxbatch.entries WHERE tenant = $1 AND kind = $2 AND business = $3`,
		k.Tenant, k.Kind, k.Business))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return journal.Entry{}, false, nil
	case err != nil:
		return journal.Entry{}, false, fmt.Errorf("journal: read %s: %w", k, err)
	}
	return e, true, nil
}

// Lookup returns the entries of keys that have one, in one read.
func (s *Store) Lookup(ctx context.Context, keys []journal.Key) (map[journal.Key]journal.Entry, error) {
	out := make(map[journal.Key]journal.Entry)
	if len(keys) == 0 {
		return out, nil
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	if err := s.lookup(ctx, s.pool, keys, out); err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", s.display, err)
	}
	return out, nil
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func (s *Store) lookup(ctx context.Context, q querier, keys []journal.Key, out map[journal.Key]journal.Entry) error {
	ts, ks, bs := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		ts[i], ks[i], bs[i] = k.Tenant, k.Kind, k.Business
	}
	rows, err := q.Query(ctx, `SELECT `+prefixed("e.", entryCols)+` FROM nxbatch.entries e
		JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(t, ki, b) ON e.tenant = k.t AND e.kind = k.ki AND e.business = k.b`,
		ts, ks, bs)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return err
		}
		out[e.Key] = e
	}
	return rows.Err()
}

// prefixed qualifies every column of cols with p.
func prefixed(p, cols string) string {
	var out []byte
	field := true
	for i := 0; i < len(cols); i++ {
		c := cols[i]
		if field && c != ' ' && c != '\n' && c != '\t' {
			out = append(out, p...)
			field = false
		}
		if c == ',' {
			field = true
		}
		out = append(out, c)
	}
	return string(out)
}

// Units returns the units of kind for tenant among ids that the journal
// knows, with the entry of the last request that carried each, from one
// snapshot.
func (s *Store) Units(ctx context.Context, tenant, kind string, ids []string) (map[string]journal.UnitRecord, map[journal.Key]journal.Entry, error) {
	units := make(map[string]journal.UnitRecord)
	reqs := make(map[journal.Key]journal.Entry)
	if len(ids) == 0 {
		return units, reqs, nil
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, request, body_hash, body, source FROM nxbatch.units
			WHERE tenant = $1 AND kind = $2 AND id = ANY($3)`, tenant, kind, ids)
		if err != nil {
			return err
		}
		var keys []journal.Key
		seen := map[journal.Key]bool{}
		for rows.Next() {
			u := journal.UnitRecord{Request: journal.Key{Tenant: tenant, Kind: kind}}
			if err := rows.Scan(&u.ID, &u.Request.Business, &u.BodyHash, &u.Body, &u.Source); err != nil {
				rows.Close()
				return err
			}
			units[u.ID] = u
			if !seen[u.Request] {
				seen[u.Request] = true
				keys = append(keys, u.Request)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(keys) == 0 {
			return nil
		}
		return s.lookup(ctx, tx, keys, reqs)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("journal: read %s: %w", s.display, err)
	}
	return units, reqs, nil
}

// List returns the entries in state filter ("" for all), sorted by key
// (tenant, kind, business) byte by byte, as bbolt keeps them.
func (s *Store) List(ctx context.Context, filter journal.State) ([]journal.Entry, error) {
	if filter != "" && !slices.Contains(journal.States, filter) {
		return nil, fmt.Errorf("journal: unknown state %q: want sending, ok, rejected, unknown, failed or unsent", filter)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*opTimeout)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+entryCols+` FROM nxbatch.entries
		WHERE $1 = '' OR state = $1 ORDER BY tenant COLLATE "C", kind COLLATE "C", business COLLATE "C"`, string(filter))
	if err != nil {
		return nil, fmt.Errorf("journal: list %s: %w", s.display, err)
	}
	defer rows.Close()
	var out []journal.Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("journal: list %s: %w", s.display, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal: list %s: %w", s.display, err)
	}
	return out, nil
}

// NextAllowed returns the persisted "next allowed time" of a rate window
// for a tenant, or the zero time if none was set.
func (s *Store) NextAllowed(ctx context.Context, tenant, window string) (time.Time, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var t time.Time
	err := s.pool.QueryRow(ctx, `SELECT next FROM nxbatch.windows WHERE tenant = $1 AND name = $2`, tenant, window).Scan(&t)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("journal: read window %s of %s: %w", window, tenant, err)
	}
	return t, nil
}

// SetNextAllowed persists the "next allowed time" of a rate window. It needs
// no lease: the parameter window is moved while a tenant is being learned,
// before its lease can be asked for; the window is every machine's.
func (s *Store) SetNextAllowed(ctx context.Context, tenant, window string, t time.Time) error {
	if tenant == "" || window == "" {
		return errors.New("journal: a rate window needs a tenant and a name")
	}
	if err := s.brokenErr(); err != nil {
		return err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	if _, err := s.pool.Exec(ctx, upsertWindow, tenant, window, t); err != nil {
		return s.fail(err)
	}
	return nil
}

// HasTenant reports whether the journal holds any entry of tenant.
func (s *Store) HasTenant(ctx context.Context, tenant string) (bool, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var ok bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM nxbatch.entries WHERE tenant = $1)`, tenant).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("journal: entries of %s: %w", tenant, err)
	}
	return ok, nil
}

// Document returns the document stored under name, nil when none.
func (s *Store) Document(ctx context.Context, name string) ([]byte, error) {
	ctx, cancel := s.op(ctx)
	defer cancel()
	var b []byte
	err := s.pool.QueryRow(ctx, `SELECT body FROM nxbatch.documents WHERE name = $1`, name).Scan(&b)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("journal: read document %s: %w", name, err)
	}
	return b, nil
}

// SwapDocument stores doc under name if the stored document is still old
// (nil: none yet), and reports whether it did: another machine's change in
// between is never overwritten, the caller reads again and decides again.
func (s *Store) SwapDocument(ctx context.Context, name string, old, doc []byte) (bool, error) {
	if err := s.brokenErr(); err != nil {
		return false, err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	var tag pgconn.CommandTag
	var err error
	if old == nil {
		tag, err = s.pool.Exec(ctx, `INSERT INTO nxbatch.documents (name, body, changed) VALUES ($1, $2, now()) ON CONFLICT (name) DO NOTHING`, name, doc)
	} else {
		tag, err = s.pool.Exec(ctx, `UPDATE nxbatch.documents SET body = $2, changed = now() WHERE name = $1 AND body = $3`, name, doc, old)
	}
	if err != nil {
		return false, s.fail(err)
	}
	return tag.RowsAffected() == 1, nil
}

// Reserve takes a rate window if its next allowed time is at or before now
// (see journal.Store.Reserve), atomically between machines. Like
// SetNextAllowed it needs no lease.
func (s *Store) Reserve(ctx context.Context, tenant, window string, now time.Time, d time.Duration) (bool, time.Time, error) {
	if tenant == "" || window == "" {
		return false, time.Time{}, errors.New("journal: a rate window needs a tenant and a name")
	}
	if err := s.brokenErr(); err != nil {
		return false, time.Time{}, err
	}
	ctx, cancel := s.op(ctx)
	defer cancel()
	var next time.Time
	err := s.pool.QueryRow(ctx, reserveWindow, tenant, window, now, now.Add(d)).Scan(&next)
	if err == nil {
		return true, next, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return false, time.Time{}, s.fail(err)
	}
	// Refused: say until when. A statement of its own sees the row that
	// refused it, committed by another machine after this one began.
	if err := s.pool.QueryRow(ctx, `SELECT next FROM nxbatch.windows WHERE tenant = $1 AND name = $2`, tenant, window).Scan(&next); err != nil {
		return false, time.Time{}, s.fail(err)
	}
	return false, next, nil
}
