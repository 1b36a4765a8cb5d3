package sandbox

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// DefaultToken is the X-NX-TOKEN the sandbox accepts when Options.Token is
// empty. A sandbox token is no secret.
const DefaultToken = "sandbox-token"

// DefaultMaxBody is the request body limit when Options.MaxBody is 0: room
// for a movement of several thousand articles, not for a memory attack.
const DefaultMaxBody = 8 << 20

// InspectPath is the inspection endpoint, outside the API's paths.
const InspectPath = "/_sandbox/state"

// Options tune a sandbox. The zero value serves the API as production would,
// without faults.
type Options struct {
	Token string // accepted X-NX-TOKEN; "" means DefaultToken
	// Env is the API environment whose windows apply, as sendrules.ParseEnv
	// reads it: "" or "production" (the default), or "test". It is a string
	// so that a command's --env value passes as is.
	Env       string
	TimeScale float64       // multiplies every window, the key hold and the webhook delivery timeout; 0 means 1
	Latency   time.Duration // added to every API request (real time, not scaled)
	// Fail500 is the fraction of creating POSTs (venta, facturar, stock
	// movement) that the API would process but that are answered 500 and
	// not processed. A request the API would refuse is never faulted: it
	// gets its refusal (see the package doc for the order).
	Fail500 float64
	// DropAfter is the fraction of creating POSTs that the API would
	// process that are processed in full and then answered by closing the
	// connection without a response.
	DropAfter float64
	// Hang is the fraction of creating POSTs that the API would process
	// that are left hanging until the client gives up (or the sandbox
	// closes). A hung request is NOT processed; a client cannot know that
	// and must record it as unknown.
	Hang float64
	// Seed makes the fault draws deterministic: a draw depends only on the
	// seed, the endpoint, the body and how many times that same body drew
	// before.
	Seed int64
	// ExportLag is how long after a voucher became a sale through the API
	// (/venta, or /facturar converting a presale) it starts to appear in the
	// paginated exports, as a real ERP's export may lag behind: a client's
	// "settle only after" rule can be tested against it. It is API time,
	// like the windows: multiplied by TimeScale and measured on Now. GET
	// /comprobante/{id} and State show the voucher at once.
	ExportLag time.Duration
	// FlujoDeposito overrides the data's config.flujoDeposito when non-zero
	// (3 = multi-warehouse informative mode).
	FlujoDeposito int
	Logger        *slog.Logger     // nil discards
	Now           func() time.Time // nil means time.Now; every window reads it
	MaxBody       int64            // request body limit in bytes; 0 means DefaultMaxBody
	// StateFile, when set, keeps the sandbox's state across restarts: New
	// loads it from this file if it exists (else starts from the data and
	// creates it), and every change is saved there, atomically and
	// owner-only, before its answer is written, so that "run it again:
	// nothing is sent" stays true of a sandbox that was restarted.
	// Servers over the same file (in several processes) are one sandbox:
	// each request first reads what another saved (a lock file beside it
	// serialises them). A file that cannot be used is a *StateFileError,
	// never replaced.
	StateFile string
}

// Server is the sandbox: an http.Handler serving the API plus the inspection
// endpoint. It is safe for concurrent use.
type Server struct {
	token   []byte
	scale   float64
	now     func() time.Time
	log     *slog.Logger
	maxBody int64
	fault   faults
	env     sendrules.Env // whose window lengths apply
	// exportLag is Options.ExportLag, unscaled.
	exportLag time.Duration

	// Immutable after New.
	cfg        DataConfig
	flujo      int
	sucursales map[int64]DataSucursal
	depositos  map[int64]DataDeposito
	intDeps    []DataDeposito // warehouses of the integration, data order
	principal  int64
	pvs        map[int64]DataPuntoVenta
	medios     nxapi.MediosPagoConfig
	cuentas    map[int64]bool
	tarjetas   map[int64]bool
	entidades  map[int64]DataEntidad
	empleados  map[int64]DataEmpleado
	colores    map[int64]DataNombre
	talles     map[int64]DataNombre
	habilitada int // number of enabled branches

	mu           sync.Mutex
	articulos    map[int64]*DataArticulo
	artOrder     []int64
	motivos      []nxapi.Motivo
	stock        map[stockKey]nxapi.Decimal
	comprobantes map[int64]*comprobante
	vouchers     []Voucher
	movements    []Movement
	webhooks     []nxapi.Webhook
	nextFactura  int64
	nextMov      int64
	nextWebhook  int64
	ordenSeen    map[int64]time.Time
	facturaSeen  map[int64]time.Time
	pedidoSeen   map[int64]time.Time // anti-duplicate holds of /Pedido, per numero
	// windows holds when each rate window ends: its end, not its start,
	// so that a window taken by a process with another time scale (a
	// saved state, Options.StateFile) lasts what it lasted there, as the
	// client's journal counts it.
	windows    map[string]time.Time
	requests   map[string]map[int]int
	bodySeen   map[uint64]int
	deliveries []Delivery
	// gen counts the changes of state, so that a save knows which
	// changes it holds (see persist).
	gen uint64

	// inst is InstanceID; st is the state file, nil without one.
	inst string
	st   *stateStore

	done      chan struct{}
	closeOnce sync.Once
	deliv     *deliverer
}

type stockKey struct{ art, color, talle, dep int64 }

// New builds a sandbox over a copy of d's state and starts its webhook
// delivery worker; Close stops it.
func New(d *Data, opts Options) (*Server, error) {
	if d == nil {
		return nil, errors.New("sandbox: no data")
	}
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("sandbox data: %w", err)
	}
	s := &Server{
		token:   []byte(opts.Token),
		scale:   opts.TimeScale,
		now:     opts.Now,
		log:     opts.Logger,
		maxBody: opts.MaxBody,
		done:    make(chan struct{}),
	}
	if opts.Token == "" {
		s.token = []byte(DefaultToken)
	}
	if s.scale == 0 {
		s.scale = 1
	}
	if s.scale < 0 || math.IsNaN(s.scale) || math.IsInf(s.scale, 0) {
		return nil, fmt.Errorf("sandbox: time scale %v must be a positive number", opts.TimeScale)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBody
	}
	env, err := sendrules.ParseEnv(opts.Env)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s.env = env
	if opts.ExportLag < 0 {
		return nil, fmt.Errorf("sandbox: export lag %v must not be negative", opts.ExportLag)
	}
	s.exportLag = opts.ExportLag
	f, err := newFaults(opts)
	if err != nil {
		return nil, err
	}
	s.fault = f
	s.seed(d)
	if opts.FlujoDeposito != 0 {
		s.flujo = opts.FlujoDeposito
	}
	if opts.StateFile != "" {
		if err := s.openState(opts.StateFile); err != nil {
			return nil, err
		}
	} else {
		s.inst = newInstanceID()
	}
	s.deliv = newDeliverer(s)
	return s, nil
}

// seed copies the data into the server's maps.
func (s *Server) seed(d *Data) {
	s.cfg = d.Config
	s.flujo = d.Config.FlujoDeposito
	s.sucursales = map[int64]DataSucursal{}
	for _, x := range d.Sucursales {
		s.sucursales[x.SucursalID] = x
		if x.Habilitada {
			s.habilitada++
		}
	}
	s.depositos = map[int64]DataDeposito{}
	for _, x := range d.Depositos {
		s.depositos[x.DepositoID] = x
		if x.Integracion {
			s.intDeps = append(s.intDeps, x)
		}
		if x.Principal {
			s.principal = x.DepositoID
		}
	}
	s.pvs = map[int64]DataPuntoVenta{}
	for _, x := range d.PuntosVenta {
		s.pvs[x.PuntoVentaID] = x
	}
	s.medios = d.MediosPago
	s.cuentas, s.tarjetas = map[int64]bool{}, map[int64]bool{}
	for _, c := range d.MediosPago.CuentasBancarias {
		s.cuentas[c.CuentaBancariaID] = true
	}
	for _, t := range d.MediosPago.Tarjetas {
		s.tarjetas[t.TarjetaID] = true
	}
	s.entidades = map[int64]DataEntidad{}
	for _, x := range d.Entidades {
		s.entidades[x.EntidadID] = x
	}
	s.empleados = map[int64]DataEmpleado{}
	for _, x := range d.Empleados {
		s.empleados[x.EmpleadoID] = x
	}
	s.colores, s.talles = map[int64]DataNombre{}, map[int64]DataNombre{}
	for _, x := range d.Colores {
		s.colores[x.ID] = x
	}
	for _, x := range d.Talles {
		s.talles[x.ID] = x
	}
	s.articulos = map[int64]*DataArticulo{}
	s.stock = map[stockKey]nxapi.Decimal{}
	for _, a := range d.Articulos {
		a := a
		a.Variantes = append([]DataVariante(nil), a.Variantes...)
		s.articulos[a.ArticuloID] = &a
		s.artOrder = append(s.artOrder, a.ArticuloID)
		for _, v := range variants(a) {
			for _, dep := range s.intDeps {
				s.stock[stockKey{a.ArticuloID, v.ColorID, v.TalleID, dep.DepositoID}] = d.StockInicial
			}
		}
	}
	for _, l := range d.Stock {
		s.stock[stockKey{l.ArticuloID, l.ColorID, l.TalleID, l.DepositoID}] = l.Unidades
	}
	s.motivos = append([]nxapi.Motivo(nil), d.Motivos...)
	s.comprobantes = map[int64]*comprobante{}
	s.nextFactura = 50001
	for _, c := range d.Comprobantes {
		cp := seededComprobante(c, s.pvs[c.PuntoVentaID])
		for i := range cp.c.Items {
			if a, ok := s.articulos[cp.c.Items[i].ArticuloID]; ok {
				cp.c.Items[i].Descripcion = a.Nombre
			}
		}
		s.comprobantes[c.FacturaID] = cp
		if c.FacturaID >= s.nextFactura {
			s.nextFactura = c.FacturaID + 1
		}
	}
	s.nextMov, s.nextWebhook = 1, 1
	s.ordenSeen, s.facturaSeen = map[int64]time.Time{}, map[int64]time.Time{}
	s.pedidoSeen = map[int64]time.Time{}
	s.windows = map[string]time.Time{}
	s.requests = map[string]map[int]int{}
	s.bodySeen = map[uint64]int{}
}

// Close stops webhook delivery, releases hanging requests (their
// connections are dropped) and, with Options.StateFile, saves the state a
// last time and releases the file: a request still in progress then has
// its connection dropped rather than its change answered unsaved. It does
// not stop an http.Server serving s.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { close(s.done) })
	s.deliv.wait()
	return s.closeState()
}

// handler serves a reading or administering endpoint, after auth, route and
// the rate window.
type handler func(s *Server, w http.ResponseWriter, c *call)

// preparer reads a creating POST's body: the refusals that need nothing but
// the body (the API's "datos invalidos" family), or the creation to check
// and apply (see Server.create).
type preparer func(s *Server, c *call) (creation, *refusal)

// call is what a handler needs from the request.
type call struct {
	r       *http.Request
	body    []byte
	bodyErr error // set when the body could not be read or was too large
	id      string
	// end ends the request's transaction (Server.begin) early.
	end func()
}

// decode unmarshals the body into v; a read failure or an oversized body is
// reported like malformed JSON, which is what it is to the API.
func (c *call) decode(v any) error {
	if c.bodyErr != nil {
		return c.bodyErr
	}
	return json.Unmarshal(c.body, v)
}

// endpoint is one method and path of the API. Exactly one of h and prepare
// is set.
type endpoint struct {
	method  string
	pattern string   // counter key path
	h       handler  // reading and administering endpoints
	prepare preparer // creating POSTs (venta, facturar, stock movement): subject to faults
}

// window is the endpoint's rate window, from the one table of the API's
// limits (package sendrules), so that the sandbox and the client can never
// disagree about which endpoints share a window.
func (ep *endpoint) window() sendrules.Window { return sendrules.WindowOf(ep.method, ep.pattern) }

var endpoints = []endpoint{
	{"POST", nxapi.PathVenta, nil, (*Server).prepareVenta},
	{"POST", nxapi.PathFacturar, nil, (*Server).prepareFacturar},
	{"POST", nxapi.PathStock, nil, (*Server).prepareMovimiento},
	{"POST", strings.ToLower(nxapi.PathPedido), nil, (*Server).preparePedido},
	{"POST", strings.ToLower(nxapi.PathPedidoCancelar), nil, (*Server).prepareCancelar},
	{"GET", nxapi.PathMediosPago, (*Server).mediosPago, nil},
	{"GET", nxapi.PathMotivos, (*Server).listMotivos, nil},
	{"GET", nxapi.PathConfig, (*Server).config, nil},
	{"GET", nxapi.PathDepositos, (*Server).configDepositos, nil},
	{"GET", nxapi.PathPuntosVenta, (*Server).puntosVenta, nil},
	{"GET", nxapi.PathEmpleados, (*Server).listEmpleados, nil},
	{"GET", nxapi.PathWebhooks, (*Server).listWebhooks, nil},
	{"POST", nxapi.PathWebhooks, (*Server).createWebhook, nil},
	{"POST", nxapi.PathWebhooks + "/{id}", (*Server).editWebhook, nil},
	{"DELETE", nxapi.PathWebhooks + "/{id}", (*Server).deleteWebhook, nil},
	{"GET", nxapi.PathComprobante + "{id}", (*Server).getComprobante, nil},
	{"GET", nxapi.PathVentaTotales, (*Server).exportVentaTotales, nil},
	{"GET", nxapi.PathVentaItems, (*Server).exportVentaItems, nil},
	{"GET", nxapi.PathCompraTotales, (*Server).exportCompras, nil},
	{"GET", nxapi.PathCompraItems, (*Server).exportCompras, nil},
	// The vendor writes the catalog's paths with capitals; route folds
	// every request path to lower case, as these patterns must be.
	{"GET", strings.ToLower(nxapi.PathGetData), (*Server).getData, nil},
	{"GET", strings.ToLower(nxapi.PathGetDataCurva), (*Server).getDataCurva, nil},
}

// route finds the endpoints of a path; id is the {id} segment, if any. The
// API treats paths without regard to case (public-facts.md, "Paths": the
// vendor's client writes /integraciones/Terceros/Pedido), so the lookup
// folds the path to lower case, as every pattern is written.
func route(path string) (matches []*endpoint, id string) {
	path = strings.ToLower(path)
	if !strings.HasPrefix(path, nxapi.Base+"/") {
		return nil, ""
	}
	pattern := path
	for _, prefix := range []string{nxapi.PathWebhooks + "/", nxapi.PathComprobante} {
		if rest, ok := strings.CutPrefix(path, prefix); ok && rest != "" && !strings.Contains(rest, "/") {
			pattern, id = prefix+"{id}", rest
		}
	}
	for i := range endpoints {
		if endpoints[i].pattern == pattern {
			matches = append(matches, &endpoints[i])
		}
	}
	return matches, id
}

// statusWriter remembers the status for the request counters.
type statusWriter struct {
	http.ResponseWriter
	status int
	// counted, when set, counts the request; abort calls it before it cuts
	// the connection, so the counters already show a request a client saw
	// go unanswered.
	counted func()
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ServeHTTP serves the API under /integraciones/terceros and the inspection
// endpoint InspectPath.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == InspectPath {
		s.inspect(w, r)
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	key := r.Method + " " + unknownPath
	done := false
	sw.counted = func() {
		if !done {
			done = true
			s.count(key, sw.status)
		}
	}
	defer sw.counted()

	if !s.pause(r.Context(), s.fault.latency) {
		abort(sw)
		return
	}
	// The token first, on every path: the API answers 401 before it looks
	// the path up, so a path it does not know is no 404 without a token.
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(nxapi.TokenHeader)), s.token) != 1 {
		writeError(sw, http.StatusUnauthorized, msgToken)
		return
	}
	matches, id := route(r.URL.Path)
	if len(matches) == 0 {
		writeError(sw, http.StatusNotFound, msgNoEncontrado)
		return
	}
	var ep *endpoint
	var allow []string
	for _, m := range matches {
		allow = append(allow, m.method)
		if m.method == r.Method {
			ep = m
		}
	}
	if ep == nil {
		key = r.Method + " " + matches[0].pattern
		sw.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(sw, http.StatusMethodNotAllowed, msgMetodo)
		return
	}
	key = ep.method + " " + ep.pattern
	c := &call{r: r, id: id}
	if r.Method == http.MethodPost && r.Body != nil { // nil only from a handler called directly, never from http.Server
		c.body, c.bodyErr = io.ReadAll(http.MaxBytesReader(sw, r.Body, s.maxBody))
	}
	// From here on the request sees and changes the state other Servers
	// over the same state file saved (after reading its body: a slow
	// client must not hold the others up).
	end, err := s.begin()
	if err != nil {
		s.log.Error("sandbox state not read; the request is dropped", "error", err)
		abort(sw)
		return
	}
	defer end()
	c.end = end
	if win := ep.window(); win != sendrules.NoWindow {
		wait, gen, ok := s.takeWindow(win)
		if !ok {
			writeError(sw, http.StatusForbidden, s.esperar(wait))
			return
		}
		if !s.saved(sw, gen) {
			return
		}
	}
	if ep.prepare != nil {
		s.create(sw, ep, c)
		return
	}
	ep.h(s, sw, c)
}

// creation is a creating POST whose body was read, split in two so that the
// fault injector can come between them. Both run with s.mu held, in one
// critical section, so nothing can change between what check saw and what
// apply does.
type creation interface {
	// check returns the refusal the API would answer, or nil when it would
	// process the request. It changes nothing in the sandbox's state.
	check(now time.Time) *refusal
	// hold records what a refused request leaves behind: the anti-duplicate
	// key of a sale or an invoicing (none for a stock movement).
	hold(now time.Time)
	// apply processes the request (holding its key, creating the voucher or
	// the movement) and returns its 200 answer.
	apply(now time.Time) any
}

// create serves a creating POST in the order of the package doc: the body
// (prepare), the rules (check), then the fault draw, then processing and
// the answer. So a fault never hides a refusal: a request the API would
// refuse gets its refusal whatever the faults, a dropped answer only ever
// hides a request that was processed, and a 500 or a hang only ever hits a
// request the API would have processed (and, not processed, it leaves no
// trace but the rate window it took).
func (s *Server) create(w http.ResponseWriter, ep *endpoint, c *call) {
	op, ref := ep.prepare(s, c)
	if ref != nil {
		ref.write(w)
		return
	}
	fb := c.body
	if q := c.r.URL.RawQuery; q != "" {
		// A cancellation has no body: its query tells one from another.
		fb = append(append(append([]byte(nil), c.body...), '?'), q...)
	}
	h := s.faultHash(ep.pattern, fb)
	now := s.now()
	s.mu.Lock()
	if ref := op.check(now); ref != nil {
		if ref.duplicate {
			s.mu.Unlock()
			ref.write(w)
			return
		}
		op.hold(now)
		gen := s.changedLocked()
		s.mu.Unlock()
		if s.saved(w, gen) {
			ref.write(w)
		}
		return
	}
	fault := s.drawFaultLocked(h)
	var res any
	if fault == faultNone || fault == faultDrop {
		res = op.apply(now)
	}
	// Even a request faulted unprocessed changed the fault draws.
	gen := s.changedLocked()
	s.mu.Unlock()
	if !s.saved(w, gen) {
		return
	}
	switch fault {
	case fault500:
		writeError(w, http.StatusInternalServerError, msgInterno)
	case faultHang:
		// Not processed: wait for the client to give up, letting the
		// other requests through meanwhile.
		c.end()
		s.pause(c.r.Context(), -1)
		abort(w)
	case faultDrop:
		// Processed: the answer is lost with the connection.
		abort(w)
	default:
		writeJSON(w, http.StatusOK, res)
	}
}

// inspect answers GET InspectPath: the state, to the holder of the
// sandbox's token only (the same X-NX-TOKEN as the API, so a sandbox
// reachable by others does not hand out what clients sent it), with
// secrets redacted. It is not an API request: no latency, no counter.
func (s *Server) inspect(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(nxapi.TokenHeader)), s.token) != 1 {
		writeError(w, http.StatusUnauthorized, msgToken)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		writeError(w, http.StatusMethodNotAllowed, msgMetodo)
		return
	}
	end, err := s.begin()
	if err != nil {
		s.log.Error("sandbox state not read; the request is dropped", "error", err)
		abort(w)
		return
	}
	st := s.State()
	end()
	writeJSON(w, http.StatusOK, st.Redacted())
}

// unknownPath is the counter key of paths outside the API.
const unknownPath = "<unknown>"

// count adds one request to the counters; status 0 means no answer (the
// connection was dropped or the client gave up).
func (s *Server) count(key string, status int) {
	s.mu.Lock()
	m := s.requests[key]
	if m == nil {
		m = map[int]int{}
		s.requests[key] = m
	}
	m[status]++
	s.mu.Unlock()
}

// osTail is the end of a pause that the operating system sleeps rather
// than a Go timer. In a process that mostly waits, Go's timers fire up to a
// millisecond late (the poller sleeps in whole milliseconds): a 20 ms
// latency lasted 20.6 ms on average, an API slower than the one the
// benchmarks state. The tail is short, so giving up is still noticed
// within it.
const osTail = 2 * time.Millisecond

// pause waits d (forever when d < 0) unless the client gives up or the
// sandbox closes first; it reports whether the whole wait elapsed.
func (s *Server) pause(ctx context.Context, d time.Duration) bool {
	if d == 0 {
		return true
	}
	var timer <-chan time.Time
	end := time.Now().Add(d)
	if d > 0 {
		t := time.NewTimer(max(d-osTail, 0))
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-timer:
		sleepOS(time.Until(end))
		// A deadline already past is a client that gave up, even before
		// the runtime's timer has cancelled its context (late on a busy
		// machine).
		if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
			return false
		}
		return ctx.Err() == nil
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

// abort drops the connection without an answer, which is what a client sees
// when the server dies mid-request.
func abort(w http.ResponseWriter) {
	if sw, ok := w.(*statusWriter); ok && sw.counted != nil {
		sw.counted()
	}
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// scaled multiplies an API duration by the time scale.
func (s *Server) scaled(d time.Duration) time.Duration { return sendrules.Scale(d, s.scale) }

// takeWindow lets a request through a rate window, starting a new window
// (gen is the change to save before answering), or returns how long (real
// time) the caller must still wait. A refused request does not restart the
// window. There is one integration, so "per token" is per sandbox.
func (s *Server) takeWindow(k sendrules.Window) (wait time.Duration, gen uint64, ok bool) {
	now := s.now()
	length := s.scaled(s.env.Limit(k))
	s.mu.Lock()
	defer s.mu.Unlock()
	if end, ok := s.windows[string(k)]; ok {
		if left := end.Sub(now); left > 0 {
			return left, 0, false
		}
	}
	s.windows[string(k)] = now.Add(length)
	return 0, s.changedLocked(), true
}

// esperar renders the window refusal. N is in API seconds, the unit a client
// started with the same time scale multiplies by its own factor: the real
// time left divided by the scale, rounded up, at least 1.
func (s *Server) esperar(left time.Duration) string {
	n := int(math.Ceil(left.Seconds()/s.scale - 1e-9))
	if n < 1 {
		n = 1
	}
	return fmt.Sprintf(nxapi.MsgEsperarFmt, n)
}

// errorBody is the JSON shape of every non-2xx answer. The spec shows only the
// webhook 400's `mensajes`; the `error` field is the sandbox's own. The API's
// text is always kept verbatim so clients can match it on the raw body.
type errorBody struct {
	Error    string   `json:"error"`
	Mensajes []string `json:"mensajes"`
}

// Texts the API spec does not give; the sandbox's own.
const (
	msgToken        = "Token invalido o vencido"              // sandbox's own
	msgNoEncontrado = "Recurso no encontrado"                 // sandbox's own
	msgMetodo       = "Metodo no permitido"                   // sandbox's own
	msgInterno      = "Error interno del servidor"            // sandbox's own
	msgWebhookDatos = "Los datos del webhook son invalidos"   // sandbox's own
	msgWebhookTopic = "Ya existe un webhook para el topic %s" // sandbox's own
	msgWebhookNoHay = "No existe el webhook %s"               // sandbox's own
	msgComprobante  = "El comprobante %d no existe"           // sandbox's own
	msgSinSucursal  = "La integracion no tiene sucursales habilitadas"
)

func writeError(w http.ResponseWriter, status int, text string, detail ...string) {
	if len(detail) == 0 {
		detail = []string{text}
	}
	writeJSON(w, status, errorBody{Error: text, Mensajes: detail})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only the sandbox's own types are encoded; this is a bug, not input.
		status, b = http.StatusInternalServerError, []byte(`{"error":"`+msgInterno+`"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
