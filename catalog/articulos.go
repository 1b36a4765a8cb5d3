package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// Articulos names the article catalog in pulls and messages. It is not
// one of Names: it is read from GetDataCurva in the masses window (10
// minutes), not from a parameter endpoint, and `catalog pull --articulos`
// asks for it.
const Articulos Name = "articulos"

// ArticulosFile is the article catalog in a folder of exported catalogs
// (`catalog export DIR/`, read by `--catalog DIR`): GetDataCurva's answer
// as the API gives it, one record per variant.
const ArticulosFile = "articulos.json"

// ArticulosFetcher reads the article catalog (*apiclient.Client, or the
// embedded sandbox in-process through Cache.Local).
type ArticulosFetcher interface {
	GetDataCurva(ctx context.Context, depositoID int64) ([]nxapi.ArticuloConCurva, error)
}

// articulosPath is the tenant's article catalog cache, beside its other
// catalogs.
func (c *Cache) articulosPath() string { return filepath.Join(c.Dir, c.Tenant+".articulos.tsv") }

// massesWindow is the masses window in this run's time (--time-scale):
// 10 minutes in both environments.
func (c *Cache) massesWindow() time.Duration {
	return sendrules.Scale(sendrules.Production.Limit(sendrules.Masses), c.Scale)
}

// ArticulosCopy is the cached article catalog as it is on disk, before
// what listen received is applied.
type ArticulosCopy struct {
	Fetched   time.Time // zero when there is no copy
	Articulos []nxapi.ArticuloConCurva
}

// LoadArticulos reads the cached article catalog; no copy (or one that
// cannot be read, which is only a cache) is a zero ArticulosCopy.
func (c *Cache) LoadArticulos() (ArticulosCopy, error) {
	b, err := os.ReadFile(c.articulosPath())
	if errors.Is(err, os.ErrNotExist) {
		return ArticulosCopy{}, nil
	}
	if err != nil {
		return ArticulosCopy{}, fmt.Errorf("read article catalog cache: %w", err)
	}
	// The records' strings are slices of the file's text: b is never
	// written again, so it becomes that text without a copy (a copy cost
	// a fifth of the load).
	fetched, recs, err := readArticulos(unsafe.String(unsafe.SliceData(b), len(b)))
	if err != nil {
		return ArticulosCopy{}, nil
	}
	return ArticulosCopy{Fetched: fetched, Articulos: recs}, nil
}

// saveArticulos replaces the cached article catalog atomically,
// owner-only (it holds the shop's prices).
func (c *Cache) saveArticulos(fetched time.Time, recs []nxapi.ArticuloConCurva) error {
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return fmt.Errorf("create catalog cache: %w", err)
	}
	return atomicfile.Write(c.articulosPath(), atomicfile.Private, func(w io.Writer) error {
		return writeArticulos(w, fetched, recs)
	})
}

// ArticulosOptions say how patient Articulos may be and where its notes
// go.
type ArticulosOptions struct {
	// MaxAge overrides Cache.TTL: a copy younger than this is used as is
	// (0: Cache.TTL; negative: always fetch when the window allows).
	MaxAge time.Duration
	// Wait waits for the masses window (up to 10 minutes) when there is
	// no copy at all, rather than going without a catalog; OnWait is told
	// first. A stale copy never waits: it is used, and the note says so.
	Wait   bool
	OnWait func(next time.Time)
	// Note, when set, receives what the user should hear: the catalog was
	// fetched, a stale copy was kept and why, events from listen were
	// applied.
	Note func(msg.Message)
	// Sleep waits d or until ctx ends; nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// NoArticulosError is Articulos without any article catalog: none cached
// and none could be fetched now. Pulled says why (the masses window, a
// failure); rows naming articles cannot be checked in this run.
type NoArticulosError struct{ Pulled Pulled }

func (e *NoArticulosError) Error() string {
	return e.Pulled.Message(time.Now()).In(msg.EN)
}

// Message says it in the user's words.
func (e *NoArticulosError) Message() msg.Message {
	return msg.New("cata.none", e.Pulled.Message(time.Now()))
}

// Unwrap returns why the catalog could not be fetched, when it failed.
func (e *NoArticulosError) Unwrap() error { return e.Pulled.Err }

// Articulos returns the tenant's article catalog, one record per variant
// (GetDataCurva's records: articuloId, codigo, nombre, size and colour ids,
// names and codes, barcode, units, eliminado), and when it was fetched
// from the API. It is the one call the application layer makes before
// resolving articles by code.
//
//   - A cached copy younger than the TTL (o.MaxAge, else Cache.TTL) is
//     used without asking the API.
//   - Otherwise the catalog is fetched from GetDataCurva when the API's
//     masses window allows (10 minutes, shared with GetData and the
//     non-paginated exports, persisted in Windows under the credential
//     like the other windows, scaled by --time-scale), and cached.
//     The embedded sandbox (Local) answers in-process, taking no window.
//   - When it cannot be fetched now (the window, the API's refusal, the
//     network, an unreadable or empty answer) a stale copy is used and
//     o.Note says how old and why. With no copy at all, o.Wait waits for
//     the window; otherwise the error is a *NoArticulosError (rows cannot
//     be checked; the caller says which).
//   - A 401 is always an error (apiclient.ErrUnauthorized): nothing else
//     would be accepted with that token either.
//   - The article events `nxbatch listen` stored (Events, its store) that
//     arrived after the copy was fetched are applied over it, in order: a
//     changed article's variants take the event's values (the fields an
//     event does not carry, such as barcodes, are kept), a deactivated
//     article's records are marked eliminado. So an article
//     deactivated since the last read is refused without a new read. The
//     fetch time returned stays the copy's: the age of the last full
//     picture.
//
// The records are the caller's own; deactivated articles are included,
// marked eliminado, so that a row naming one can be told so.
//
// A command builds the cache as the others do and names listen's store:
//
//	cache := cn.catalogs(ttl)       // --catalog-ttl
//	cache.Events = listenStore      // listen's store (defaultStore), optional
//	recs, fetched, err := cache.Articulos(ctx, catalog.ArticulosOptions{
//		Wait: waitMissing,           // run waits for the window; validate does not
//		Note: func(m msg.Message) { say(stderr, m.In(l)) },
//	})
//	var none *catalog.NoArticulosError
//	if errors.As(err, &none) { /* say none.Message(); rows by code cannot be checked */ }
//
// Offline (--catalog DIR), LoadArticulosDir reads the same records from
// the folder `catalog export DIR/` wrote.
func (c *Cache) Articulos(ctx context.Context, o ArticulosOptions) ([]nxapi.ArticuloConCurva, time.Time, error) {
	note := func(m msg.Message) {
		if o.Note != nil {
			o.Note(m)
		}
	}
	maxAge := o.MaxAge
	if maxAge == 0 {
		maxAge = c.TTL
	}
	cp, p, err := c.pullArticulos(ctx, maxAge, false, o.Wait, o.OnWait, o.Sleep)
	if err != nil {
		return nil, time.Time{}, err
	}
	now := c.now()
	switch {
	case p.Status == Failed && errors.Is(p.Err, apiclient.ErrUnauthorized):
		return nil, time.Time{}, p.Err
	case cp.Fetched.IsZero():
		return nil, time.Time{}, &NoArticulosError{Pulled: p}
	case p.Status != Fresh:
		note(p.Message(now))
	}
	recs := cp.Articulos
	if c.Events != "" {
		applied, err := applyEvents(c.Events, cp.Fetched, recs)
		if err != nil {
			// The copy stands as fetched; the events are only newer news.
			note(msg.New("cata.events.failed", msg.CauseOf(err)))
		} else if applied.events > 0 {
			recs = applied.recs
			note(msg.New("cata.events", applied.events, applied.articles))
		}
	}
	return recs, cp.Fetched, nil
}

// PullArticulos fetches the article catalog into the cache (`catalog pull
// --articulos`): when the cached copy is older than maxAge (0: always) and
// the masses window allows, waiting for it when wait. The copy now cached
// and what happened are returned; the error is only the cache's or the
// journal's.
func (c *Cache) PullArticulos(ctx context.Context, maxAge time.Duration, wait bool, onWait func(time.Time)) (ArticulosCopy, Pulled, error) {
	if maxAge == 0 {
		maxAge = -1
	}
	return c.pullArticulos(ctx, maxAge, wait, false, onWait, nil)
}

// pullArticulos fetches the catalog unless the copy is younger than
// maxAge (< 0: whatever its age), waiting for the masses window when wait,
// or when waitMissing and there is no copy.
func (c *Cache) pullArticulos(ctx context.Context, maxAge time.Duration, wait, waitMissing bool, onWait func(time.Time),
	sleep func(context.Context, time.Duration) error) (ArticulosCopy, Pulled, error) {
	cp, err := c.LoadArticulos()
	if err != nil {
		return cp, Pulled{}, err
	}
	p := Pulled{Name: Articulos, Fetched: cp.Fetched}
	if !cp.Fetched.IsZero() && maxAge > 0 && c.now().Sub(cp.Fetched) < maxAge {
		p.Status = Fresh
		return cp, p, nil
	}
	if sleep == nil {
		sleep = sleepCtx
	}
	f, local := c.articulosFetcher()
	if f == nil {
		p.Status, p.Err = Failed, errNoEndpoint
		return cp, p, nil
	}
	var got []nxapi.ArticuloConCurva
	sl := slot{fetched: &p.Fetched, has: func() bool { return !cp.Fetched.IsZero() }, local: local,
		window: sendrules.Masses, length: c.massesWindow(),
		fetch: func(ctx context.Context) error {
			recs, err := f.GetDataCurva(ctx, 0)
			if err != nil {
				return err
			}
			if len(recs) == 0 {
				// A complete picture with no article is far likelier the
				// ERP's fault than the truth: the older copy stays.
				return nxapi.ErrEmptyCatalog
			}
			got = recs
			return nil
		}}
	if err := c.fetchOne(ctx, sl, &p, wait || (waitMissing && cp.Fetched.IsZero()), onWait, sleep); err != nil {
		return cp, p, err
	}
	if p.Status != Fetched {
		p.Fetched = cp.Fetched
		return cp, p, nil
	}
	if err := c.saveArticulos(p.Fetched, got); err != nil {
		return cp, p, err
	}
	return ArticulosCopy{Fetched: p.Fetched, Articulos: got}, p, nil
}

// articulosFetcher is what reads the article catalog: the embedded
// sandbox in-process when there is one, else the API's client; nil when
// neither can.
func (c *Cache) articulosFetcher() (ArticulosFetcher, bool) {
	if f, ok := c.Local.(ArticulosFetcher); ok && c.Local != nil {
		return f, true
	}
	if f, ok := c.Fetch.(ArticulosFetcher); ok && c.Fetch != nil {
		return f, false
	}
	return nil, false
}

// applied is the catalog with listen's events applied.
type applied struct {
	recs             []nxapi.ArticuloConCurva
	events, articles int
}

// applyEvents applies the article events stored in the listen store dir
// after fetched over recs, in the order they arrived. recs is not changed:
// the result shares its untouched records.
func applyEvents(dir string, fetched time.Time, recs []nxapi.ArticuloConCurva) (applied, error) {
	var out applied
	// now is each changed article's records as the latest event left
	// them; order keeps new articles in the order they appeared.
	now := map[int64][]nxapi.ArticuloConCurva{}
	var order []int64
	var index map[int64][]int // lazily: positions of each article in recs
	current := func(id int64) []nxapi.ArticuloConCurva {
		if r, ok := now[id]; ok {
			return r
		}
		if index == nil {
			index = map[int64][]int{}
			for i := range recs {
				index[recs[i].ArticuloID] = append(index[recs[i].ArticuloID], i)
			}
		}
		var r []nxapi.ArticuloConCurva
		for _, i := range index[id] {
			r = append(r, recs[i])
		}
		return r
	}
	set := func(id int64, r []nxapi.ArticuloConCurva) {
		if _, ok := now[id]; !ok {
			order = append(order, id)
		}
		now[id] = r
	}
	err := listener.EventsSince(dir, fetched, func(ev listener.Event) {
		evRecs, ok := eventRecords(ev.Body)
		if !ok {
			return
		}
		out.events++
		// An event names each article with all its variants: group them.
		byArt := map[int64][]nxapi.ArticuloConCurva{}
		var arts []int64
		for _, r := range evRecs {
			if r.ArticuloID <= 0 {
				continue
			}
			if _, seen := byArt[r.ArticuloID]; !seen {
				arts = append(arts, r.ArticuloID)
			}
			byArt[r.ArticuloID] = append(byArt[r.ArticuloID], r)
		}
		for _, id := range arts {
			rs := byArt[id]
			if rs[0].Eliminado {
				// {articuloId, eliminado: true}: the article as it was,
				// out of the integration.
				old := current(id)
				if len(old) == 0 {
					old = []nxapi.ArticuloConCurva{{ArticuloID: id}}
				}
				dead := make([]nxapi.ArticuloConCurva, len(old))
				for i, r := range old {
					r.Eliminado = true
					dead[i] = r
				}
				set(id, dead)
				continue
			}
			set(id, mergeArticle(current(id), rs))
		}
	})
	if err != nil || out.events == 0 {
		return out, err
	}
	out.articles = len(order)
	out.recs = make([]nxapi.ArticuloConCurva, 0, len(recs)+len(order))
	done := map[int64]bool{}
	for _, r := range recs {
		rs, changed := now[r.ArticuloID]
		switch {
		case !changed:
			out.recs = append(out.recs, r)
		case !done[r.ArticuloID]:
			done[r.ArticuloID] = true
			out.recs = append(out.recs, rs...)
		}
	}
	for _, id := range order {
		if !done[id] {
			out.recs = append(out.recs, now[id]...)
		}
	}
	return out, nil
}

// mergeArticle applies one event's records of an article over its
// records: the events' records carry fewer fields than GetDataCurva's
// (public-facts.md lists no barcode nor size and colour codes for them),
// and may name only the variants that changed. So each event record
// updates the variant of the same colour and size field by field, a field
// the event leaves empty keeping the catalog's value; a variant the
// catalog did not have is added; the variants the event does not name
// stay, and the article's own fields (code, name, prices) the event gives
// apply to all of them. A change event means the article takes part in
// the integration: none of its records stays eliminado.
func mergeArticle(old, ev []nxapi.ArticuloConCurva) []nxapi.ArticuloConCurva {
	out := make([]nxapi.ArticuloConCurva, len(old), len(old)+len(ev))
	copy(out, old)
	for _, r := range ev {
		i := slices.IndexFunc(out, func(o nxapi.ArticuloConCurva) bool { return o.ColorID == r.ColorID && o.TalleID == r.TalleID })
		if i < 0 {
			out = append(out, r)
			continue
		}
		out[i] = mergeRecord(out[i], r)
	}
	last := ev[len(ev)-1]
	for i := range out {
		o := &out[i]
		o.Eliminado = false
		o.Codigo = or(last.Codigo, o.Codigo)
		o.Nombre = or(last.Nombre, o.Nombre)
		o.Descripcion = or(last.Descripcion, o.Descripcion)
		o.DescripcionWeb = or(last.DescripcionWeb, o.DescripcionWeb)
		if last.TalleColor != 0 {
			o.TalleColor = last.TalleColor
		}
		o.Precio1, o.Precio2, o.Precio3 = orPrice(last.Precio1, o.Precio1), orPrice(last.Precio2, o.Precio2), orPrice(last.Precio3, o.Precio3)
		o.Precio4, o.Precio5 = orPrice(last.Precio4, o.Precio4), orPrice(last.Precio5, o.Precio5)
	}
	return out
}

// mergeRecord is a variant's record with an event's record over it: what
// the event gives wins, what it leaves empty stays.
func mergeRecord(o, r nxapi.ArticuloConCurva) nxapi.ArticuloConCurva {
	o.ColorNombre, o.ColorCodigo, o.ColorHex = or(r.ColorNombre, o.ColorNombre), or(r.ColorCodigo, o.ColorCodigo), or(r.ColorHex, o.ColorHex)
	o.TalleNombre, o.TalleCodigo = or(r.TalleNombre, o.TalleNombre), or(r.TalleCodigo, o.TalleCodigo)
	o.CodigoBarras = or(r.CodigoBarras, o.CodigoBarras)
	o.Unidades = r.Unidades
	if r.StockDepositos != nil {
		o.StockDepositos = r.StockDepositos
	}
	return o
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func orPrice(a, b *nxapi.Decimal) *nxapi.Decimal {
	if a != nil {
		return a
	}
	return b
}

// eventRecords reads an article event's body in either format: flat
// ([]ArticuloConCurva, deactivations as {articuloId, eliminado}) or
// grouped (one Articulo). false: not an article event nxbatch can read.
func eventRecords(body []byte) ([]nxapi.ArticuloConCurva, bool) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return nil, false
	}
	if b[0] == '[' {
		recs, err := nxapi.DecodeGetDataCurva(b)
		return recs, err == nil
	}
	var a nxapi.Articulo
	if nxapi.Decode(b, &a) != nil || a.ArticuloID <= 0 {
		return nil, false
	}
	return nxapi.Flatten([]nxapi.Articulo{a}), true
}

// ArticulosTable lays out the article catalog for people, one row per
// variant in the catalog's order: what `catalog show` prints and `catalog
// export` writes beside the other catalogs. A copy never fetched gives a
// table with no rows and a note saying how to fetch it.
func ArticulosTable(cp ArticulosCopy, l msg.Lang) Table {
	t := Table{Name: Articulos, Key: "articulos", Title: msg.New("catc.t.articulos"), Fetched: cp.Fetched,
		Header: []msg.Message{col("id"), col("codigo.art"), col("nombre"), col("talle"), col("color"), col("barras"),
			col("unidades"), col("activo")}}
	switch {
	case cp.Fetched.IsZero():
		t.Note = msg.New("cata.notfetched")
		return t
	case len(cp.Articulos) == 0:
		t.Note = msg.New("catc.empty.articulos")
		return t
	}
	t.Rows = make([][]string, 0, len(cp.Articulos))
	for _, r := range cp.Articulos {
		t.Rows = append(t.Rows, []string{id(r.ArticuloID), r.Codigo, r.Nombre, variantName(r.TalleID, r.TalleNombre, r.TalleCodigo),
			variantName(r.ColorID, r.ColorNombre, r.ColorCodigo), r.CodigoBarras, r.Unidades.String(), yesNo(!r.Eliminado).In(l)})
	}
	return t
}

// variantName shows a size or colour by its name, its code and its id
// ("M (MD, 2)"), the three ways a file may name it; "" when the article
// has none.
func variantName(vid int64, nombre, codigo string) string {
	if vid == 0 && nombre == "" && codigo == "" {
		return ""
	}
	s := nombre
	if codigo != "" && codigo != nombre {
		s += " (" + codigo + ", " + id(vid) + ")"
	} else {
		s += " (" + id(vid) + ")"
	}
	return s
}

// ExportArticulosDir writes the cached article catalog to dir as
// articulos.json, GetDataCurva's answer as the API gives it, which
// LoadArticulosDir (`--catalog DIR`) reads back.
func ExportArticulosDir(dir string, cp ArticulosCopy) error {
	if cp.Fetched.IsZero() {
		return &msg.Error{Msg: msg.New("catc.export.nothing")}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(dir, ArticulosFile)
	recs := cp.Articulos
	if recs == nil {
		recs = []nxapi.ArticuloConCurva{}
	}
	if err := atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		return json.NewEncoder(w).Encode(recs)
	}); err != nil {
		return err
	}
	// The file's time is the catalog's age for whoever reads it offline.
	return os.Chtimes(path, cp.Fetched, cp.Fetched)
}

// LoadArticulosDir reads dir's articulos.json (`--catalog DIR`, offline):
// GetDataCurva's answer, as `catalog export DIR/` writes it or as saved
// from the API, in either of its shapes. The time returned is the file's
// modification time, which the export sets to when the catalog was
// fetched. A missing file is an error matching fs.ErrNotExist; one that
// cannot be read is a *msg.Error naming it.
func LoadArticulosDir(dir string) ([]nxapi.ArticuloConCurva, time.Time, error) {
	path := filepath.Join(dir, ArticulosFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, time.Time{}, err
		}
		return nil, time.Time{}, readError(path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, time.Time{}, readError(path, err)
	}
	recs, err := nxapi.DecodeGetDataCurva(b)
	if err != nil {
		return nil, time.Time{}, &msg.Error{Msg: msg.New("cat.file.notjson", path, err.Error()), Err: err}
	}
	return recs, st.ModTime(), nil
}
