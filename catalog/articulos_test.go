package catalog

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/listener"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
	"github.com/nxbatch/nxbatch/sendrules"
	"github.com/nxbatch/nxbatch/sendrules/sendrulestest"
)

// sandboxCache is a Cache over a real sandbox on loopback, both on one
// fake clock.
type sandboxCache struct {
	c   *Cache
	clk *clock
	w   *sendrulestest.Windows
	s   *sandbox.Server
}

func newSandboxCache(t *testing.T, opts sandbox.Options) *sandboxCache {
	t.Helper()
	clk := &clock{now: t0}
	opts.Now = clk.Now
	s, err := sandbox.New(sandbox.DemoData(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	cl, err := apiclient.New(apiclient.Options{BaseURL: srv.URL, Token: apiclient.NewToken(sandbox.DefaultToken)})
	if err != nil {
		t.Fatal(err)
	}
	w := &sendrulestest.Windows{}
	c := &Cache{Dir: t.TempDir(), Tenant: "tenant", TTL: time.Hour, Window: ParamWindow, Fetch: cl, Windows: w, Now: clk.Now}
	return &sandboxCache{c, clk, w, s}
}

// reads is how many GetDataCurva requests reached the sandbox.
func (sc *sandboxCache) reads() int {
	n := 0
	for _, c := range sc.s.State().Requests["GET "+strings.ToLower(nxapi.PathGetDataCurva)] {
		n += c
	}
	return n
}

// get calls Articulos and collects its notes' keys.
func (sc *sandboxCache) get(t *testing.T, o ArticulosOptions) ([]nxapi.ArticuloConCurva, time.Time, []string, error) {
	t.Helper()
	var notes []string
	o.Note = func(m msg.Message) { notes = append(notes, m.Key) }
	o.Sleep = sc.clk.Sleep
	recs, fetched, err := sc.c.Articulos(context.Background(), o)
	return recs, fetched, notes, err
}

func TestArticulosCachedWithItsAge(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{})
	recs, fetched, notes, err := sc.get(t, ArticulosOptions{})
	if err != nil || len(recs) != 50 || !fetched.Equal(t0) || !slices.Equal(notes, []string{"catc.pull.fetched"}) {
		t.Fatalf("first read: %d records, fetched %v, notes %v, %v", len(recs), fetched, notes, err)
	}
	if next := sc.w.Next(sc.c.windowKey(), string(sendrules.Masses)); next.Sub(t0) != 10*time.Minute {
		t.Errorf("masses window persisted until %v, want 10 minutes after the read", next)
	}
	// Younger than the TTL: from the cache, no request, no note.
	sc.clk.now = t0.Add(59 * time.Minute)
	again, fetched2, notes, err := sc.get(t, ArticulosOptions{})
	if err != nil || !cmp.Equal(again, recs) || !fetched2.Equal(t0) || len(notes) != 0 || sc.reads() != 1 {
		t.Fatalf("cached read: fetched %v, notes %v, %d requests, %v", fetched2, notes, sc.reads(), err)
	}
	// Stock moved in the ERP; the copy is older than the TTL: read again.
	if err := sc.s.SetStock(105, 0, 0, 1, nxapi.DecimalFromInt(3)); err != nil {
		t.Fatal(err)
	}
	sc.clk.now = t0.Add(2 * time.Hour)
	recs, fetched, _, err = sc.get(t, ArticulosOptions{})
	if err != nil || !fetched.Equal(sc.clk.now) || sc.reads() != 2 {
		t.Fatalf("stale copy not read again: fetched %v, %d requests, %v", fetched, sc.reads(), err)
	}
	if r := recs[slices.IndexFunc(recs, func(r nxapi.ArticuloConCurva) bool { return r.ArticuloID == 105 })]; r.Unidades != nxapi.DecimalFromInt(33) {
		t.Errorf("article 105 after the new read: %s units, want 33", r.Unidades)
	}
	// Stale, but the window is taken (by another run): the stale copy,
	// said so, and no request.
	sc.clk.now = sc.clk.now.Add(2 * time.Hour)
	sc.w.Set(sc.c.windowKey(), string(sendrules.Masses), sc.clk.now.Add(5*time.Minute))
	_, fetched3, notes, err := sc.get(t, ArticulosOptions{})
	if err != nil || !fetched3.Equal(fetched) || !slices.Equal(notes, []string{"catc.pull.cached"}) || sc.reads() != 2 {
		t.Fatalf("closed window: fetched %v, notes %v, %d requests, %v", fetched3, notes, sc.reads(), err)
	}
	// The file on disk is owner-only and its name says whose it is.
	st, err := os.Stat(filepath.Join(sc.c.Dir, "tenant.articulos.tsv"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("cache file: %v %v", st, err)
	}
}

func TestArticulosWithoutACopy(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{})
	sc.w.Set(sc.c.windowKey(), string(sendrules.Masses), t0.Add(4*time.Minute))
	_, _, _, err := sc.get(t, ArticulosOptions{})
	var none *NoArticulosError
	if !errors.As(err, &none) || none.Pulled.Status != Waiting || !strings.Contains(none.Message().In(msg.ES), "catalog pull --articulos") {
		t.Fatalf("no copy, window closed: %v", err)
	}
	// Told to wait, it waits for the window and reads.
	var told time.Time
	recs, fetched, _, err := sc.get(t, ArticulosOptions{Wait: true, OnWait: func(next time.Time) { told = next }})
	if err != nil || len(recs) == 0 || !told.Equal(t0.Add(4*time.Minute)) || !fetched.Equal(told) {
		t.Fatalf("waiting read: %d records, told %v, fetched %v, %v", len(recs), told, fetched, err)
	}
}

// TestArticulosTheAPIsWindowAndTimeScale: a run whose journal did not
// know the window (another machine read) is refused by the API, and
// waits as it says, scaled by --time-scale.
func TestArticulosTheAPIsWindowAndTimeScale(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{TimeScale: 0.01})
	sc.c.Scale = 0.01 // the masses window is 6 s on both sides
	if _, _, _, err := sc.get(t, ArticulosOptions{}); err != nil {
		t.Fatal(err)
	}
	// This run's journal does not know the read (another machine made
	// it); the sandbox's window still has 5 s to go.
	sc.w.Set(sc.c.windowKey(), string(sendrules.Masses), time.Time{})
	sc.clk.now = t0.Add(time.Second)
	sc.c.Now = sc.clk.Now
	_, p, err := pullWithSleep(sc)
	if err != nil || p.Status != Fetched {
		t.Fatal(p, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if sc.reads() != 3 || !sc.clk.now.Equal(t0.Add(6*time.Second)) {
		t.Errorf("%d requests, now %v: want the refused one and its retry after the API's 500 s, scaled to 5 s", sc.reads(), sc.clk.now.Sub(t0))
	}
}

func TestArticulosFailures(t *testing.T) {
	var lastText string // the last note, in Spanish
	for _, tc := range []struct {
		name   string
		status int
		body   string
		check  func(t *testing.T, recs []nxapi.ArticuloConCurva, notes []string, err error)
	}{
		{"token refused", 401, ``, func(t *testing.T, _ []nxapi.ArticuloConCurva, _ []string, err error) {
			if !errors.Is(err, apiclient.ErrUnauthorized) {
				t.Errorf("err = %v, want the 401", err)
			}
		}},
		{"empty answer keeps the copy", 200, `[]`, func(t *testing.T, recs []nxapi.ArticuloConCurva, notes []string, err error) {
			if err != nil || len(recs) != 1 || !slices.Equal(notes, []string{"catc.pull.cached"}) || !strings.Contains(notes[0]+lastText, "vacío") {
				t.Errorf("recs %v, notes %v %q, err %v", recs, notes, lastText, err)
			}
		}},
		{"unreadable answer keeps the copy", 200, `<html>`, func(t *testing.T, recs []nxapi.ArticuloConCurva, notes []string, err error) {
			if err != nil || len(recs) != 1 || !slices.Equal(notes, []string{"catc.pull.cached"}) || !strings.Contains(lastText, "no es un catálogo de artículos") {
				t.Errorf("recs %v, notes %v %q, err %v", recs, notes, lastText, err)
			}
		}},
		{"wrong field type keeps the copy", 200, `[{"articuloId":1,"codigo":{}}]`, func(t *testing.T, recs []nxapi.ArticuloConCurva, notes []string, err error) {
			if err != nil || len(recs) != 1 || !strings.Contains(lastText, "codigo") {
				t.Errorf("recs %v, notes %v %q, err %v", recs, notes, lastText, err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(answerWith(tc.status, tc.body))
			t.Cleanup(srv.Close)
			cl, err := apiclient.New(apiclient.Options{BaseURL: srv.URL, Token: apiclient.NewToken("t")})
			if err != nil {
				t.Fatal(err)
			}
			c, clk, _ := newCache(t, &fakeAPI{})
			c.Fetch = cl
			if err := c.saveArticulos(t0.Add(-3*time.Hour), []nxapi.ArticuloConCurva{{ArticuloID: 1, Codigo: "X"}}); err != nil {
				t.Fatal(err)
			}
			var notes []string
			recs, _, err := c.Articulos(context.Background(), ArticulosOptions{Sleep: clk.Sleep, Note: func(m msg.Message) {
				notes = append(notes, m.Key)
				lastText = m.In(msg.ES)
			}})
			tc.check(t, recs, notes, err)
		})
	}
}

// TestArticulosEventsFromListen: what listen stored after the catalog was
// fetched is applied over it, in order; what it stored before is not.
func TestArticulosEventsFromListen(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{})
	store := t.TempDir()
	sc.c.Events = store
	// The catalog was read before the events (the fake clock is in 2026-09).
	if _, _, _, err := sc.get(t, ArticulosOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := listener.Open(store, listener.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`[{"articuloId":100,"eliminado":true}]`,
		`{"articuloId":105,"codigo":"A105","nombre":"Medias nuevas","curva":[{"colorId":0,"talleId":0,"codigoBarras":"123","unidades":7}]}`,
		// A stock event of one variant, without barcodes or codes, as
		// the events' records are: the other variants and the fields it
		// leaves out stay as the catalog has them.
		`[{"articuloId":102,"codigo":"A102","nombre":"Buzo canguro","colorId":1,"talleId":2,"colorNombre":"Negro","talleNombre":"M","unidades":3}]`,
		`[{"articuloId":999,"codigo":"N999","nombre":"Nuevo","unidades":1}]`,
		`[{"articuloId":999,"codigo":"N999","nombre":"Nuevo","unidades":2}]`,
		`{"articuloId":120,"eliminado":true}`,
	} {
		if _, err := st.Append([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	recs, fetched, notes, err := sc.get(t, ArticulosOptions{})
	if err != nil || !fetched.Equal(t0) || !slices.Contains(notes, "cata.events") {
		t.Fatalf("fetched %v, notes %v, %v", fetched, notes, err)
	}
	by := map[int64][]nxapi.ArticuloConCurva{}
	for _, r := range recs {
		by[r.ArticuloID] = append(by[r.ArticuloID], r)
	}
	if n := len(by[100]); n != 6 || slices.ContainsFunc(by[100], func(r nxapi.ArticuloConCurva) bool { return !r.Eliminado || r.Codigo != "A100" }) {
		t.Errorf("article 100 after its deactivation: %+v", by[100])
	}
	if r := by[105]; len(r) != 1 || r[0].Nombre != "Medias nuevas" || r[0].CodigoBarras != "123" || r[0].Eliminado {
		t.Errorf("article 105 after its change: %+v", r)
	}
	if r := by[999]; len(r) != 1 || r[0].Unidades != nxapi.DecimalFromInt(2) || recs[len(recs)-1].ArticuloID != 999 {
		t.Errorf("new article 999: %+v", r)
	}
	if r := by[120]; len(r) != 1 || !r[0].Eliminado {
		t.Errorf("article 120: %+v", r)
	}
	if r := by[102]; len(r) != 6 || r[1].Unidades != nxapi.DecimalFromInt(3) || r[1].CodigoBarras != "7791231020020" ||
		r[1].TalleCodigo != "MD" || r[0].Unidades != nxapi.DecimalFromInt(40) || r[0].CodigoBarras != "7791231020013" {
		t.Errorf("article 102 after a stock event of one variant: %+v", r[:2])
	}
	if len(recs) != 51 {
		t.Errorf("%d records, want 51", len(recs))
	}
	// A catalog read after the events: none applies.
	sc.clk.now = time.Now().Add(time.Hour)
	_, _, notes, err = sc.get(t, ArticulosOptions{})
	if err != nil || slices.Contains(notes, "cata.events") {
		t.Errorf("events older than the read applied: %v %v", notes, err)
	}
}

func TestArticulosFileRoundTrip(t *testing.T) {
	p := nxapi.NewDecimal(1500, 2500)
	recs := []nxapi.ArticuloConCurva{
		{ArticuloID: 1, Codigo: "00123", Descripcion: "tab\there\nnew line\\back", Nombre: "Remera \"Ñandú\"", TalleColor: 3,
			Precio1: &p, ColorID: 2, TalleID: 3, ColorNombre: "Rojo", ColorCodigo: "RJ", ColorHex: "#FF0000", TalleNombre: "M",
			TalleCodigo: "MD", CodigoBarras: "7790001", Unidades: nxapi.NewDecimal(-2, 5000),
			StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: nxapi.DecimalFromInt(4)}, {DepositoID: 2, Unidades: 0}}},
		{ArticuloID: 2, Eliminado: true, StockDepositos: []nxapi.StockDeposito{}},
		{ArticuloID: 3, Codigo: "\r"},
	}
	var b bytes.Buffer
	if err := writeArticulos(&b, t0, recs); err != nil {
		t.Fatal(err)
	}
	fetched, got, err := readArticulos(b.String())
	if err != nil || !fetched.Equal(t0) {
		t.Fatal(fetched, err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("round trip (-wrote +read):\n%s", d)
	}
	for _, broken := range []string{"", "x", b.String()[:b.Len()-5], b.String() + "extra\n",
		strings.Replace(b.String(), "\t1\t", "\tx\t", 1), strings.Replace(b.String(), articulosMagic, "nxbatch-articulos 0", 1)} {
		if _, _, err := readArticulos(broken); !errors.Is(err, errArticulosFile) {
			t.Errorf("broken file %.60q: %v", broken, err)
		}
	}
}

// FuzzReadArticulos: a cache file of any content is read or refused with
// errArticulosFile, never a panic; what reads, writes back the same.
func FuzzReadArticulos(f *testing.F) {
	var b bytes.Buffer
	p := nxapi.DecimalFromInt(5)
	_ = writeArticulos(&b, t0, []nxapi.ArticuloConCurva{{ArticuloID: 1, Codigo: "a\tb", Precio2: &p,
		StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: 3}}}})
	f.Add(b.String())
	f.Add(articulosMagic + "\t2026-01-01T00:00:00Z\t0\n")
	f.Fuzz(func(t *testing.T, s string) {
		fetched, recs, err := readArticulos(s)
		if err != nil {
			if !errors.Is(err, errArticulosFile) {
				t.Fatal(err)
			}
			return
		}
		var out bytes.Buffer
		if err := writeArticulos(&out, fetched, recs); err != nil {
			t.Fatal(err)
		}
		_, again, err := readArticulos(out.String())
		if err != nil || !cmp.Equal(recs, again) {
			t.Fatalf("rewritten file reads differently: %v", err)
		}
	})
}

func TestArticulosExportAndOffline(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{})
	recs, _, _, err := sc.get(t, ArticulosOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := sc.c.LoadArticulos()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cat")
	if err := ExportArticulosDir(dir, cp); err != nil {
		t.Fatal(err)
	}
	got, fetched, err := LoadArticulosDir(dir)
	if err != nil || !cmp.Equal(got, recs) || !fetched.Equal(t0) {
		t.Fatalf("offline copy: %d records, fetched %v, %v", len(got), fetched, err)
	}
	// A folder holding only the article catalog is a catalog folder.
	if _, err := LoadDir(dir); err != nil {
		t.Errorf("LoadDir of a folder with only articulos.json: %v", err)
	}
	if _, _, err := LoadArticulosDir(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, ArticulosFile), []byte("[{"), 0o600)
	var me *msg.Error
	if _, _, err := LoadArticulosDir(dir); !errors.As(err, &me) || !strings.Contains(me.Msg.In(msg.ES), ArticulosFile) {
		t.Errorf("broken file: %v", err)
	}
	if err := ExportArticulosDir(dir, ArticulosCopy{}); err == nil {
		t.Error("exported a catalog never fetched")
	}
}

func TestArticulosTable(t *testing.T) {
	sc := newSandboxCache(t, sandbox.Options{})
	if _, _, _, err := sc.get(t, ArticulosOptions{}); err != nil {
		t.Fatal(err)
	}
	cp, _ := sc.c.LoadArticulos()
	tb := ArticulosTable(cp, msg.ES)
	if len(tb.Rows) != 50 || tb.Note.Key != "" || !tb.Known() {
		t.Fatalf("table: %d rows, note %q", len(tb.Rows), tb.Note.Key)
	}
	want := []string{"100", "A100", "Remera básica", "M (MD, 2)", "Negro (NG, 1)", "7791231000022", "40", "sí"}
	if !slices.ContainsFunc(tb.Rows, func(r []string) bool { return slices.Equal(r, want) }) {
		t.Errorf("no row %q in %q", want, tb.Rows[:3])
	}
	if last := tb.Rows[len(tb.Rows)-1]; last[0] != "122" || last[4] != "" {
		t.Errorf("size-only article's row %q", last)
	}
	if i := slices.IndexFunc(tb.Rows, func(r []string) bool { return r[0] == "120" }); i < 0 || tb.Rows[i][7] != "no" {
		t.Errorf("deactivated article not shown as such")
	}
	if none := ArticulosTable(ArticulosCopy{}, msg.ES); none.Note.Key != "cata.notfetched" || len(none.Rows) != 0 {
		t.Errorf("never fetched: %+v", none)
	}
	var out bytes.Buffer
	if err := Show(&out, []Table{tb}, t0.Add(90*time.Minute), msg.ES); err != nil || !strings.Contains(out.String(), "7791231000022") {
		t.Errorf("show: %v\n%s", err, out.String())
	}
}

// pullWithSleep is PullArticulos (wait, whatever the copy's age) on the
// fake clock.
func pullWithSleep(sc *sandboxCache) (ArticulosCopy, Pulled, error) {
	return sc.c.pullArticulos(context.Background(), -1, true, false, nil, sc.clk.Sleep)
}

// answerWith answers every request with status and body.
func answerWith(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// BenchmarkLoadArticulos loads a cached catalog of 100,000 variants (the
// budget, in bench/RESULTS.md: 200 ms on the 2-core machine).
func BenchmarkLoadArticulos(b *testing.B) {
	recs := make([]nxapi.ArticuloConCurva, 100_000)
	for i := range recs {
		p := nxapi.DecimalFromInt(int64(1000 + i%500))
		recs[i] = nxapi.ArticuloConCurva{ArticuloID: int64(100000 + i/10), Codigo: "SKU-" + strconv.Itoa(100000+i/10),
			Descripcion: "Artículo de prueba número " + strconv.Itoa(i/10), Nombre: "Artículo " + strconv.Itoa(i/10),
			TalleColor: 3, Precio1: &p, ColorID: int64(1 + i%2), TalleID: int64(1 + i%5), ColorNombre: "Color",
			ColorCodigo: "C1", ColorHex: "#00FF00", TalleNombre: "T" + strconv.Itoa(i%5), TalleCodigo: strconv.Itoa(i % 5),
			CodigoBarras: "779" + strconv.Itoa(1000000000+i), Unidades: nxapi.DecimalFromInt(int64(i % 40)),
			StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: 4}, {DepositoID: 2, Unidades: 3}}}
	}
	c := &Cache{Dir: b.TempDir(), Tenant: "bench"}
	if err := c.saveArticulos(t0, recs); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(c.articulosPath())
	b.ReportAllocs()
	for b.Loop() {
		cp, err := c.LoadArticulos()
		if err != nil || len(cp.Articulos) != len(recs) {
			b.Fatal(err, len(cp.Articulos))
		}
	}
	b.ReportMetric(float64(st.Size())/1e6, "file-MB")
}

// FuzzEventRecords: any body listen stored is read as an article event or
// left out, never a panic, and what is read merges over a catalog keeping
// every variant the catalog had.
func FuzzEventRecords(f *testing.F) {
	for _, s := range []string{`[{"articuloId":100,"eliminado":true}]`, `{"articuloId":105,"curva":[{"colorId":1,"talleId":2,"unidades":7}]}`,
		`[{"articuloId":1,"colorId":1,"talleId":1,"unidades":"2.5"}]`, `{"articuloId":1,"eliminado":true}`, `[]`, `{}`, `null`, `[1]`} {
		f.Add([]byte(s))
	}
	old := []nxapi.ArticuloConCurva{{ArticuloID: 1, Codigo: "A", ColorID: 1, TalleID: 1, CodigoBarras: "779"}, {ArticuloID: 1, Codigo: "A", ColorID: 2, TalleID: 1}}
	f.Fuzz(func(t *testing.T, body []byte) {
		recs, ok := eventRecords(body)
		if !ok || len(recs) == 0 {
			return
		}
		got := mergeArticle(old, recs)
		if len(got) < len(old) {
			t.Fatalf("merge lost variants: %+v", got)
		}
		for _, r := range got[:len(old)] {
			if r.ColorID == 1 && r.TalleID == 1 && r.CodigoBarras == "" {
				t.Fatalf("merge lost the barcode: %+v", got)
			}
		}
	})
}
