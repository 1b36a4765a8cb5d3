package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/nxapi"
)

// stateHarness is a harness over a state file, on a clock that restarts
// share, as the wall clock is shared by a process and the one after it.
func stateHarness(t *testing.T, path string, clock *fakeClock) *harness {
	t.Helper()
	s, err := New(DemoData(), Options{StateFile: path, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &harness{t: t, s: s, clock: clock}
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)} }

// fileSnapshot reads the state file as the next process would.
func fileSnapshot(t *testing.T, path string) *snapshot {
	t.Helper()
	snap, err := readState(path)
	if err != nil {
		t.Fatalf("state file %s: %v", path, err)
	}
	return snap
}

// TestStateFileSurvivesRestart: what a sandbox answered is what the next
// sandbox over the same file holds, ids continue and the anti-duplicate
// holds and rate windows still apply.
func TestStateFileSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox", "production.json")
	clock := newClock()
	h := stateHarness(t, path, clock)
	inst := h.s.InstanceID()

	v := h.do("POST", nxapi.PathVenta, venta(7001))
	v.expect(t, http.StatusOK, facturaVentaOnWire)
	sale := int64(v.result(t).FacturaID)
	// Saved before the answer: the file already holds the voucher, with no
	// Close, as after a process killed right after answering.
	if snap := fileSnapshot(t, path); len(snap.Vouchers) != 1 || snap.Vouchers[0].FacturaID != sale {
		t.Fatalf("state file after the answer holds vouchers %+v, want facturaId %d", snap.Vouchers, sale)
	}
	h.do("POST", nxapi.PathFacturar, facturar(1001)).expect(t, http.StatusOK, facturaVentaOnWire)
	stockBefore := h.s.StockOf(105, 0, 0, 1)
	mov := h.do("POST", nxapi.PathStock, movimiento())
	mov.expect(t, http.StatusOK, `"tipo"`)
	if got := h.s.StockOf(105, 0, 0, 1); got != stockBefore+*dec("5") {
		t.Fatalf("stock after the movement %v, want %v + 5", got, stockBefore)
	}
	h.do("POST", nxapi.PathWebhooks, nxapi.WebhookGuardar{URL: "http://127.0.0.1:1/hook", Topic: nxapi.TopicArticulos}).
		expect(t, http.StatusOK, "127.0.0.1:1/hook")
	if err := h.s.DeactivateArticulo(102); err != nil {
		t.Fatal(err)
	}
	before := h.s.State()
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}

	clock.Advance(time.Second)
	r := stateHarness(t, path, clock)
	after := r.s.State()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"instance id", r.s.InstanceID(), inst},
		{"vouchers", after.Vouchers, before.Vouchers},
		{"movements", after.Movements, before.Movements},
		{"stock", after.Stock, before.Stock},
		{"webhooks", after.Webhooks, before.Webhooks},
	} {
		if !reflect.DeepEqual(normalize(t, c.got), normalize(t, c.want)) {
			t.Errorf("%s after the restart: %+v, want %+v", c.name, c.got, c.want)
		}
	}

	hook := nxapi.WebhookGuardar{URL: "http://127.0.0.1:1/y", Topic: nxapi.TopicArticulos}
	// In order, on the shared clock: advance is waited before the request.
	checks := []struct {
		name    string
		advance time.Duration
		method  string
		path    string
		body    any
		status  int
		text    string
	}{
		{"the sale is still there", 0, "GET", fmt.Sprintf("%s%d", nxapi.PathComprobante, sale), nil, 200, facturaVentaOnWire},
		{"a resend of the ordenId within 30 s is still refused", 0, "POST", nxapi.PathVenta, venta(7001), 400, nxapi.MsgEnProceso},
		{"a resend of the presale within 30 s is still refused", 0, "POST", nxapi.PathFacturar, facturar(1001), 400, nxapi.MsgEnProceso},
		{"the stock window is still running", 0, "POST", nxapi.PathStock, movimiento(), 403, "Debe esperar 2 segundos"},
		{"the webhook window is still running", 0, "POST", nxapi.PathWebhooks, hook, 403, "Debe esperar 29 segundos"},
		{"the deactivated article stays so", 0, "POST", nxapi.PathVenta, func() any {
			v := venta(7003)
			v.Productos[0].ArticuloID = 102
			return v
		}(), 404, "El articulo 102 no existe"},
		{"a new sale takes the next facturaId", 0, "POST", nxapi.PathVenta, venta(7002), 200, fmt.Sprintf(`"facturaId":%d`, sale+1)},
		{"the presale is no longer PENDIENTE", 10 * time.Second, "GET", nxapi.PathComprobante + "1001", nil, 200, facturaVentaOnWire},
		{"the webhook is still there", 20 * time.Second, "DELETE", nxapi.PathWebhooks + "/1", nil, 200, "[]"},
		{"a new webhook takes the next id", 30 * time.Second, "POST", nxapi.PathWebhooks, hook, 200, `"id":2`},
		{"the converted presale answers so once the hold is over", 0, "POST", nxapi.PathFacturar, facturar(1001), 200, "no esta PENDIENTE"},
	}
	for _, c := range checks {
		clock.Advance(c.advance)
		got := r.do(c.method, c.path, c.body)
		if got.status != c.status || !strings.Contains(got.body, c.text) {
			t.Errorf("%s: %s %s: %d %s, want %d with %q", c.name, c.method, c.path, got.status, got.body, c.status, c.text)
		}
	}
}

// normalize makes values comparable across a JSON round trip: times
// lose their monotonic clock and location.
func normalize(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStateFileReload: articles and stock a Reload changed are what the
// next sandbox over the file holds; so is a SetStock.
func TestStateFileReload(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	clock := newClock()
	h := stateHarness(t, path, clock)
	d := DemoData()
	d.Articulos[0].Nombre = "Renombrado"
	if err := h.s.Reload(d); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetStock(105, 0, 0, 1, *dec("42")); err != nil {
		t.Fatal(err)
	}
	h.s.Close()
	r := stateHarness(t, path, clock)
	if got := r.s.StockOf(105, 0, 0, 1); got != *dec("42") {
		t.Errorf("stock set before the restart: %v, want 42", got)
	}
	id := d.Articulos[0].ArticuloID
	r.s.mu.Lock()
	name := r.s.articulos[id].Nombre
	r.s.mu.Unlock()
	if name != "Renombrado" {
		t.Errorf("articulo %d after the restart is named %q, want the reloaded name", id, name)
	}
}

// TestStateFileCreated: a new file is made owner-only in an owner-only
// folder, with a fresh instance id; without a file each Server has its own.
func TestStateFileCreated(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sandbox")
	path := filepath.Join(dir, "test.json")
	h := stateHarness(t, path, newClock())
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{path, 0o600}, {dir, 0o700 | os.ModeDir}} {
		fi, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != c.want {
			t.Errorf("%s: mode %v, want %v", c.path, fi.Mode(), c.want)
		}
	}
	hex16 := regexp.MustCompile(`^[0-9a-f]{16}$`)
	if !hex16.MatchString(h.s.InstanceID()) || fileSnapshot(t, path).Instance != h.s.InstanceID() {
		t.Errorf("instance id %q, file's %q: want the same 16 hex digits", h.s.InstanceID(), fileSnapshot(t, path).Instance)
	}
	a, b := newHarness(t, Options{}), newHarness(t, Options{})
	if !hex16.MatchString(a.s.InstanceID()) || a.s.InstanceID() == b.s.InstanceID() {
		t.Errorf("instance ids without a state file %q and %q: want two different ones", a.s.InstanceID(), b.s.InstanceID())
	}
	// A deleted file is a new sandbox: a new instance, the seed state.
	h.do("POST", nxapi.PathVenta, venta(7001)).expect(t, 200, facturaVentaOnWire)
	h.s.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	n := stateHarness(t, path, newClock())
	if n.s.InstanceID() == h.s.InstanceID() || len(n.s.State().Vouchers) != 0 {
		t.Errorf("after deleting the file: instance %q (was %q), %d vouchers; want a new empty sandbox",
			n.s.InstanceID(), h.s.InstanceID(), len(n.s.State().Vouchers))
	}
}

// TestStateFileUnusable: a file that cannot be used is an error naming
// it, and it is left exactly as it was.
func TestStateFileUnusable(t *testing.T) {
	valid := func() []byte {
		path := filepath.Join(t.TempDir(), "v.json")
		h := stateHarness(t, path, newClock())
		h.s.Close()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}()
	for _, c := range []struct {
		name    string
		content []byte
		cause   string
	}{
		{"not JSON", []byte("{\"version\":1,"), "damaged"},
		{"truncated", valid[:len(valid)/2], "damaged"},
		{"empty", nil, "damaged"},
		{"another version", bytes.Replace(valid, []byte(`"version":1`), []byte(`"version":2`), 1), "version 2"},
		{"no instance id", bytes.Replace(valid, []byte(`"instance":"`), []byte(`"instance":"x`), 1), "instance id"},
		{"a voucher past the counter", edit(t, valid, func(m map[string]any) { m["nextFactura"] = 2 }), "comprobante"},
		{"no counters", edit(t, valid, func(m map[string]any) { delete(m, "nextMovimiento") }), "counters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if bytes.Equal(c.content, valid) {
				t.Fatal("the case does not change the valid file")
			}
			path := filepath.Join(t.TempDir(), "s.json")
			if err := os.WriteFile(path, c.content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := New(DemoData(), Options{StateFile: path})
			var se *StateFileError
			if !errors.As(err, &se) || se.Path != path || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.cause) {
				t.Fatalf("New over a file %s: %v, want a *StateFileError naming %s and saying %q", c.name, err, path, c.cause)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, c.content) {
				t.Errorf("the unusable file was changed:\n%s", got)
			}
		})
	}
}

// edit changes a state file's JSON.
func edit(t *testing.T, b []byte, change func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStateFileSymlinkRefused: a link at the path is neither followed nor
// replaced.
func TestStateFileSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.json")
	stateHarness(t, target, newClock()).s.Close()
	want, _ := os.ReadFile(target)
	for _, link := range []string{filepath.Join(dir, "s.json"), filepath.Join(dir, "dangling.json")} {
		to := target
		if strings.Contains(link, "dangling") {
			to = filepath.Join(dir, "none.json")
		}
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		_, err := New(DemoData(), Options{StateFile: link})
		if !errors.Is(err, atomicfile.ErrSymlink) || !strings.Contains(err.Error(), link) {
			t.Errorf("New over a symbolic link %s: %v, want the link refused", link, err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link %s was replaced or removed", link)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "none.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a dangling link was followed: its target was created")
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, want) {
		t.Errorf("the link's target was changed")
	}
}

// TestStateFileShared: two sandboxes over one file (a run --sandbox while
// serve --sandbox is open) are one sandbox: each sees what the other
// created, ids are not reused, holds apply to both.
func TestStateFileShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	clock := newClock()
	a := stateHarness(t, path, clock)
	b := stateHarness(t, path, clock)
	if a.s.InstanceID() != b.s.InstanceID() {
		t.Fatalf("instances %q and %q over one file", a.s.InstanceID(), b.s.InstanceID())
	}
	first := a.do("POST", nxapi.PathVenta, venta(7001))
	first.expect(t, 200, facturaVentaOnWire)
	id := int64(first.result(t).FacturaID)
	b.do("GET", fmt.Sprintf("%s%d", nxapi.PathComprobante, id), nil).expect(t, 200, facturaVentaOnWire)
	b.do("POST", nxapi.PathVenta, venta(7001)).expect(t, 400, nxapi.MsgEnProceso)
	b.do("POST", nxapi.PathVenta, venta(7002)).expect(t, 200, fmt.Sprintf(`"facturaId":%d`, id+1))
	a.do("POST", nxapi.PathVenta, venta(7003)).expect(t, 200, fmt.Sprintf(`"facturaId":%d`, id+2))
	b.s.Close()
	clock.Advance(10 * time.Second) // the GET window b took
	a.do("GET", fmt.Sprintf("%s%d", nxapi.PathComprobante, id+1), nil).expect(t, 200, facturaVentaOnWire)
	if n := len(a.s.State().Vouchers); n != 3 {
		t.Errorf("%d vouchers, want the 3 both made", n)
	}
}

// TestStateFileSaveFailureDropsAnswer: a change that cannot be saved is
// not answered (the client records an unknown outcome), and a request
// after Close is not answered either.
func TestStateFileSaveFailureDropsAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	s, err := New(DemoData(), Options{StateFile: path})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	post := func(orden int64) (int, error) {
		b, _ := json.Marshal(venta(orden))
		req, _ := http.NewRequest("POST", srv.URL+nxapi.PathVenta, bytes.NewReader(b))
		req.Header.Set(nxapi.TokenHeader, DefaultToken)
		resp, err := srv.Client().Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := post(7001); err != nil || code != 200 {
		t.Fatalf("a sale while the file can be saved: %d %v, want 200", code, err)
	}
	// Something that is not a file where the state goes: saves fail.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if code, err := post(7002); err == nil {
		t.Errorf("a sale that could not be saved was answered %d", code)
	}
	if err := s.Close(); err == nil {
		t.Errorf("Close saved over a folder without an error")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if code, err := post(7003); err == nil {
		t.Errorf("a sale after Close was answered %d", code)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a request after Close wrote the state file")
	}
}

// TestStateFileWindowsKeepTheirScale: a window taken by a sandbox with a
// shorter time scale (template --sandbox) ends when it ended there, not
// when the next sandbox's scale would end it: the client's journal counts
// it so.
func TestStateFileWindowsKeepTheirScale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	clock := newClock()
	fast, err := New(DemoData(), Options{StateFile: path, Now: clock.Now, TimeScale: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, s: fast, clock: clock}
	h.do("GET", nxapi.PathMotivos, nil).expect(t, 200, "motivoId")
	fast.Close()
	clock.Advance(time.Second)
	r := stateHarness(t, path, clock)
	r.do("GET", nxapi.PathMotivos, nil).expect(t, 200, "motivoId")
	r.do("GET", nxapi.PathMotivos, nil).expect(t, 403, "Debe esperar")
}

// facturaVentaOnWire is how an answer says FACTURA_VENTA: its integer code
// (public-facts.md, "Wire types").
var facturaVentaOnWire = fmt.Sprintf(`"estado":%d`, estadoCodes[estadoFacturaVenta])
