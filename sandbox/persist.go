package sandbox

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/nxapi"
)

// stateVersion is the version of the state file's format. A file of
// another version is refused, not guessed at: what a sandbox holds decides
// what nxbatch tells the user was sent. The snapshot encodes vouchers,
// webhooks and payment data with package nxapi's JSON types, so a change
// of their encoding must bump it.
const stateVersion = 1

// errStateClosed refuses a request after Close, which saved the state a
// last time: a late request is answered by dropping its connection, an
// outcome its client records as unknown.
var errStateClosed = errors.New("sandbox closed")

// StateFileError is a state file (Options.StateFile) that cannot be used:
// unreadable, damaged, of another version, or a symbolic link. The file is left as it was, so that the user decides
// whether to delete it; deleting it starts a new, empty sandbox with a new
// InstanceID.
type StateFileError struct {
	Path string
	Err  error
}

func (e *StateFileError) Error() string {
	return fmt.Sprintf("sandbox state file %s: %v", e.Path, e.Err)
}

// Unwrap returns the cause.
func (e *StateFileError) Unwrap() error { return e.Err }

// snapshot is the state file: exactly the sandbox's mutable state that a
// client's view depends on. Not saved, because they are diagnostics of
// one process and not what the API holds: the request counters
// (State.Requests) and the webhook delivery log (State.Deliveries); events
// still queued for delivery are lost with the process, as a receiver must
// expect of the real API.
type snapshot struct {
	Version int `json:"version"`
	// Instance names this sandbox (InstanceID): a new file is a new
	// sandbox, and so a new tenant for nxbatch's journal.
	Instance     string               `json:"instance"`
	Articulos    []DataArticulo       `json:"articulos"` // in the order of the data (artOrder)
	Stock        []StockLevel         `json:"stock"`
	Comprobantes []savedComprobante   `json:"comprobantes"` // by facturaId
	Vouchers     []Voucher            `json:"vouchers"`
	Movements    []Movement           `json:"movements"`
	Webhooks     []nxapi.Webhook      `json:"webhooks"`
	NextFactura  int64                `json:"nextFactura"`
	NextMov      int64                `json:"nextMovimiento"`
	NextWebhook  int64                `json:"nextWebhook"`
	OrdenSeen    map[int64]time.Time  `json:"ordenSeen"`   // anti-duplicate holds of /venta
	FacturaSeen  map[int64]time.Time  `json:"facturaSeen"` // anti-duplicate holds of /facturar
	PedidoSeen   map[int64]time.Time  `json:"pedidoSeen"`  // anti-duplicate holds of /Pedido, per numero
	Windows      map[string]time.Time `json:"windows"`     // rate windows, when each ends
	FaultDraws   map[uint64]int       `json:"faultDraws"`  // bodySeen: so a seeded run meets the same faults across a restart
}

// savedComprobante is a comprobante with its fields exported for JSON.
type savedComprobante struct {
	C         nxapi.Comprobante `json:"c"`
	Propio    bool              `json:"propio"`
	Pedido    bool              `json:"pedido,omitempty"`
	Pagos     int               `json:"pagos,omitempty"`
	EntidadID int64             `json:"entidadId,omitempty"`
	Usuario   *nxapi.Usuario    `json:"usuario,omitempty"`
	Detalle   string            `json:"detalle,omitempty"`
	Medio     *nxapi.MedioPago  `json:"medio,omitempty"`
	Fecha     time.Time         `json:"fecha"`
	Created   time.Time         `json:"created"`
}

// stateStore is the state file of a Server. Several Servers (in several
// processes: a run --sandbox while serve --sandbox is open) may serve the
// same file: each request is a transaction (begin) under the lock file's
// lock, which first reads what another wrote since, and saves what it
// changed before its answer is written. So they are one sandbox, as two
// clients of the real API see one tenant.
type stateStore struct {
	path string
	lock *os.File // path+".lock"

	mu     sync.Mutex // one transaction of this process at a time; taken before Server.mu
	seen   uint64     // the save (readSaves) the memory holds
	saved  uint64     // the change (Server.gen) the file holds
	closed bool
}

// newInstanceID is 16 hex digits from crypto/rand.
func newInstanceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

// InstanceID names this sandbox: made when its state file was created (so
// it survives restarts and changes when the file is deleted), or per
// Server without Options.StateFile. nxbatch names the embedded sandbox's
// tenant after it, so that a journal's entries never apply to a sandbox
// that does not hold them.
func (s *Server) InstanceID() string { return s.inst }

// openState restores the state from the file, or creates the file from
// the seeded state when there is none. s.mu need not be held: the Server
// is not shared yet.
func (s *Server) openState(path string) error {
	if err := atomicfile.MkdirAll(filepath.Dir(path), atomicfile.PrivateDir); err != nil {
		return &StateFileError{Path: path, Err: err}
	}
	lock, err := openLock(path + ".lock")
	if err != nil {
		return &StateFileError{Path: path, Err: err}
	}
	st := &stateStore{path: path, lock: lock}
	if err := s.loadState(st); err != nil {
		lock.Close()
		return &StateFileError{Path: path, Err: err}
	}
	s.st = st
	return nil
}

// loadState is openState under the lock.
func (s *Server) loadState(st *stateStore) error {
	if err := lockEx(st.lock); err != nil {
		return err
	}
	defer unlock(st.lock)
	n, err := readSaves(st.lock)
	if err != nil {
		return err
	}
	snap, err := readState(st.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.inst = newInstanceID()
		st.seen = n
		return st.saveLocked(s)
	case err != nil:
		return err
	}
	if err := s.restore(snap); err != nil {
		return err
	}
	st.seen = n
	return nil
}

// begin starts a transaction: the state file's lock taken and what
// another Server saved since read in. end ends it; it may be called more
// than once (a hanging request ends it early, so as not to hold the lock
// while it hangs). Without a state file it does nothing.
func (s *Server) begin() (end func(), err error) {
	st := s.st
	if st == nil {
		return func() {}, nil
	}
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return nil, errStateClosed
	}
	if err := lockEx(st.lock); err != nil {
		st.mu.Unlock()
		return nil, err
	}
	var once sync.Once
	end = func() {
		once.Do(func() {
			_ = unlock(st.lock) // closing the file at Close releases it anyway
			st.mu.Unlock()
		})
	}
	if err := s.refresh(); err != nil {
		end()
		return nil, err
	}
	return end, nil
}

// refresh reads in the state another Server saved since this one last
// read or wrote it; the transaction must be held.
func (s *Server) refresh() error {
	st := s.st
	n, err := readSaves(st.lock)
	if err != nil || n == st.seen {
		return err
	}
	snap, err := readState(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		// Deleted under a running sandbox: what it holds stands, and its
		// next change writes the file again.
		st.seen = n
		return nil
	}
	if err != nil {
		return err
	}
	if snap.Instance != s.inst {
		return fmt.Errorf("replaced by another sandbox's (instance %s, this one is %s)", snap.Instance, s.inst)
	}
	s.mu.Lock()
	err = s.restore(snap)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	st.seen = n
	return nil
}

// readState reads the state file, never through a symbolic link.
func readState(path string) (*snapshot, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, atomicfile.ErrSymlink
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	// O_NOFOLLOW too: a link put there after the Lstat is refused as well.
	f, err := os.OpenFile(path, os.O_RDONLY|atomicfile.NoFollow, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, atomicfile.ErrSymlink
		}
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return nil, fmt.Errorf("damaged: %w", err)
	}
	if snap.Version != stateVersion {
		return nil, fmt.Errorf("version %d, this nxbatch reads version %d", snap.Version, stateVersion)
	}
	return &snap, nil
}

// snapshotLocked copies the mutable state; s.mu must be held.
func (s *Server) snapshotLocked() *snapshot {
	snap := &snapshot{Version: stateVersion, Instance: s.inst,
		Vouchers: s.vouchers, Movements: s.movements, Webhooks: s.webhooks,
		NextFactura: s.nextFactura, NextMov: s.nextMov, NextWebhook: s.nextWebhook,
		OrdenSeen: s.ordenSeen, FacturaSeen: s.facturaSeen, PedidoSeen: s.pedidoSeen, Windows: s.windows, FaultDraws: s.bodySeen}
	for _, id := range s.artOrder {
		snap.Articulos = append(snap.Articulos, *s.articulos[id])
	}
	snap.Stock = make([]StockLevel, 0, len(s.stock))
	for k, u := range s.stock {
		snap.Stock = append(snap.Stock, StockLevel{k.art, k.color, k.talle, k.dep, u})
	}
	// Sorted, so that the same state is the same file.
	slices.SortFunc(snap.Stock, func(a, b StockLevel) int {
		return cmp.Or(cmp.Compare(a.ArticuloID, b.ArticuloID), cmp.Compare(a.ColorID, b.ColorID),
			cmp.Compare(a.TalleID, b.TalleID), cmp.Compare(a.DepositoID, b.DepositoID))
	})
	snap.Comprobantes = make([]savedComprobante, 0, len(s.comprobantes))
	for _, cp := range s.comprobantes {
		snap.Comprobantes = append(snap.Comprobantes, savedComprobante{C: cp.c, Propio: cp.propio, Pedido: cp.pedido, Pagos: cp.pagos,
			EntidadID: cp.entidadID, Usuario: cp.usuario, Detalle: cp.detalle, Medio: cp.medio,
			Fecha: cp.fecha, Created: cp.created})
	}
	slices.SortFunc(snap.Comprobantes, func(a, b savedComprobante) int { return cmp.Compare(a.C.FacturaID, b.C.FacturaID) })
	return snap
}

// restore replaces the seeded mutable state with a saved one, after
// checking what the handlers rely on.
func (s *Server) restore(snap *snapshot) error {
	if len(snap.Instance) != 16 {
		return fmt.Errorf("damaged: instance id %q", snap.Instance)
	}
	if _, err := hex.DecodeString(snap.Instance); err != nil {
		return fmt.Errorf("damaged: instance id %q", snap.Instance)
	}
	if snap.NextFactura <= 0 || snap.NextMov <= 0 || snap.NextWebhook <= 0 {
		return errors.New("damaged: id counters missing")
	}
	articulos := map[int64]*DataArticulo{}
	var order []int64
	for _, a := range snap.Articulos {
		if _, dup := articulos[a.ArticuloID]; dup || a.ArticuloID <= 0 {
			return fmt.Errorf("damaged: articulo %d", a.ArticuloID)
		}
		a := a
		articulos[a.ArticuloID] = &a
		order = append(order, a.ArticuloID)
	}
	comprobantes := map[int64]*comprobante{}
	for _, c := range snap.Comprobantes {
		if _, dup := comprobantes[c.C.FacturaID]; dup || c.C.FacturaID <= 0 || c.C.FacturaID >= snap.NextFactura {
			return fmt.Errorf("damaged: comprobante %d", c.C.FacturaID)
		}
		comprobantes[c.C.FacturaID] = &comprobante{c: c.C, propio: c.Propio, pedido: c.Pedido, pagos: c.Pagos, entidadID: c.EntidadID,
			usuario: c.Usuario, detalle: c.Detalle, medio: c.Medio, fecha: c.Fecha, created: c.Created}
	}
	for _, m := range snap.Movements {
		if m.ID >= snap.NextMov {
			return fmt.Errorf("damaged: movement %d", m.ID)
		}
	}
	for _, wh := range snap.Webhooks {
		if wh.ID >= snap.NextWebhook {
			return fmt.Errorf("damaged: webhook %d", wh.ID)
		}
	}
	s.inst = snap.Instance
	s.articulos, s.artOrder = articulos, order
	s.stock = make(map[stockKey]nxapi.Decimal, len(snap.Stock))
	for _, l := range snap.Stock {
		s.stock[stockKey{l.ArticuloID, l.ColorID, l.TalleID, l.DepositoID}] = l.Unidades
	}
	s.comprobantes = comprobantes
	s.vouchers, s.movements, s.webhooks = snap.Vouchers, snap.Movements, snap.Webhooks
	s.nextFactura, s.nextMov, s.nextWebhook = snap.NextFactura, snap.NextMov, snap.NextWebhook
	s.ordenSeen, s.facturaSeen = orEmpty(snap.OrdenSeen), orEmpty(snap.FacturaSeen)
	s.pedidoSeen = orEmpty(snap.PedidoSeen)
	s.windows, s.bodySeen = orEmpty(snap.Windows), orEmpty(snap.FaultDraws)
	return nil
}

// orEmpty is m, or an empty map for a null one, so that the handlers can
// write into it.
func orEmpty[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}

// changedLocked records that the state changed and returns the generation
// a save must reach for the change to be on disk; s.mu must be held.
func (s *Server) changedLocked() uint64 {
	s.gen++
	return s.gen
}

// persist saves the change gen, if the file does not hold it yet; the
// transaction (begin) must be held, and it must be called before the
// change's answer is written: a killed process must never have answered a
// creation it did not save. Each save writes the whole state: the
// embedded sandbox is for trying things out, not for volumes where that
// would matter.
func (s *Server) persist(gen uint64) error {
	st := s.st
	if st == nil || gen <= st.saved {
		return nil
	}
	return st.saveLocked(s)
}

// saveLocked writes the current state under the next save number; the
// transaction (or, in New, the lock) must be held, s.mu not.
func (st *stateStore) saveLocked(s *Server) error {
	s.mu.Lock()
	b, err := json.Marshal(s.snapshotLocked())
	cur := s.gen
	s.mu.Unlock()
	if err != nil {
		return err
	}
	n := st.seen + 1
	if err := writeSaves(st.lock, n); err != nil {
		return err
	}
	// From here on the file may hold this state or the one before; both
	// are read in (n differs) by the next transaction of any Server, this
	// one included.
	st.seen = n
	err = atomicfile.Write(st.path, atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
	if err != nil {
		// Read the file back in at the next transaction: the memory holds
		// a change that was not saved, and so not answered.
		st.seen = 0
		return err
	}
	st.saved = cur
	return nil
}

// saved persists the change gen before its answer is written. When it
// cannot, the change is in memory but maybe not on disk: the answer is
// dropped with the connection, so the client records the outcome as
// unknown rather than as done or not done, and false is returned.
func (s *Server) saved(w http.ResponseWriter, gen uint64) bool {
	if err := s.persist(gen); err != nil {
		s.log.Error("sandbox state not saved; the answer is dropped", "file", s.st.path, "error", err)
		abort(w)
		return false
	}
	return true
}

// closeState saves the state a last time, if a change is not on disk (a
// save that failed), and releases the file; transactions after it fail.
func (s *Server) closeState() error {
	st := s.st
	if st == nil {
		return nil
	}
	end, err := s.begin()
	if err != nil {
		if errors.Is(err, errStateClosed) {
			return nil
		}
		st.mu.Lock()
		st.closed = true
		st.mu.Unlock()
		return errors.Join(err, st.lock.Close())
	}
	s.mu.Lock()
	dirty := s.gen > st.saved
	s.mu.Unlock()
	if dirty {
		err = st.saveLocked(s)
	}
	st.closed = true
	end()
	return errors.Join(err, st.lock.Close())
}
