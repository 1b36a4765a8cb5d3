package sandbox

import (
	"fmt"
	"net/http"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Stock texts the spec does not give; the sandbox's own, except the branch
// scope ones, which are the API's (spec 7).
const (
	msgDepositoScope    = "El deposito %d pertenece a una sucursal no habilitada"
	msgDepositoNoConfig = "El deposito %d no esta configurado en esta integracion"
	msgDepositoNo       = "El deposito %d no existe"                                           // sandbox's own
	msgTransferDestino  = "La transferencia requiere un depositoDosId distinto del depositoId" // sandbox's own
	msgSucursalDos      = "El sucursalDosId %d no coincide con la sucursal del deposito %d"    // sandbox's own, after spec 7's exportar/stock text
	msgMotivoNo         = "El motivo %d no existe o fue eliminado"                             // sandbox's own
	msgFechaInvalida    = "La fecha %q no es valida"                                           // sandbox's own
	msgArticuloVariante = "El articulo %d no tiene la variante color %d / talle %d"            // sandbox's own
	msgCantidadPositiva = "La cantidad del articulo %d debe ser mayor a cero"                  // sandbox's own
)

// movimientoOp is a POST /stock/movimiento (API spec 4.4) on its way
// through create. The 3 s window has already been taken by ServeHTTP: like
// the API's rate limit it counts every request that reaches the endpoint,
// valid or not, faulted or not.
type movimientoOp struct {
	s *Server
	m *nxapi.StockMovimiento
}

func (s *Server) prepareMovimiento(c *call) (creation, *refusal) {
	var m nxapi.StockMovimiento
	if err := c.decode(&m); err != nil {
		return nil, refuse(http.StatusForbidden, nxapi.MsgStockIncorrecto)
	}
	if m.MotivoID <= 0 {
		return nil, refuse(http.StatusBadRequest, nxapi.MsgMotivoReq) // status: sandbox's own
	}
	if !stockBodyOK(&m) {
		return nil, refuse(http.StatusForbidden, nxapi.MsgStockIncorrecto)
	}
	return &movimientoOp{s: s, m: &m}, nil
}

// stockBodyOK is the shape the DTO demands: a known tipo, a warehouse, and
// articles with ids and quantities. Anything else the API cannot even
// deserialise, hence 403 "datos incorrectos" (spec 4.4.2).
func stockBodyOK(m *nxapi.StockMovimiento) bool {
	if _, ok := nxapi.TipoStockNames[m.Tipo]; !ok || m.DepositoID <= 0 || len(m.Articulos) == 0 {
		return false
	}
	for _, a := range m.Articulos {
		if a.ArticuloID <= 0 || a.Cantidad == nil {
			return false
		}
	}
	return true
}

// checkDeposito applies the branch scope of spec 7 to a warehouse.
func (s *Server) checkDeposito(id int64) *refusal {
	d, ok := s.depositos[id]
	switch {
	case !ok:
		return refuse(http.StatusNotFound, msgDepositoNo, id)
	case !s.sucursales[d.SucursalID].Habilitada:
		return refuse(http.StatusForbidden, msgDepositoScope, id)
	case !d.Integracion:
		return refuse(http.StatusForbidden, msgDepositoNoConfig, id)
	}
	return nil
}

// fechaLayouts are the ISO 8601 forms a movement's fecha may take.
var fechaLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

func validFecha(f string) bool {
	if f == "" {
		return true
	}
	for _, l := range fechaLayouts {
		if _, err := time.Parse(l, f); err == nil {
			return true
		}
	}
	return false
}

// check applies the branch scope and the business rules; a business
// refusal is a 200 NxResultado tipo 2.
func (o *movimientoOp) check(time.Time) *refusal {
	ref := o.s.checkMovimiento(o.m)
	if ref != nil {
		ref.nx = true
	}
	return ref
}

func (s *Server) checkMovimiento(m *nxapi.StockMovimiento) *refusal {
	if s.habilitada == 0 {
		// Stock movement is deny-by-default (change history 2026-08-06).
		return refuse(http.StatusForbidden, msgSinSucursal)
	}
	if ref := s.checkDeposito(m.DepositoID); ref != nil {
		return ref
	}
	if m.Tipo == nxapi.Transferencia {
		if m.DepositoDosID <= 0 || m.DepositoDosID == m.DepositoID {
			return refuse(http.StatusOK, msgTransferDestino)
		}
		if ref := s.checkDeposito(m.DepositoDosID); ref != nil {
			return ref
		}
		if suc := s.depositos[m.DepositoDosID].SucursalID; m.SucursalDosID != 0 && m.SucursalDosID != suc {
			return refuse(http.StatusOK, msgSucursalDos, m.SucursalDosID, m.DepositoDosID)
		}
	}
	if !s.motivoActivo(m.MotivoID) {
		return refuse(http.StatusOK, msgMotivoNo, m.MotivoID)
	}
	if !validFecha(m.Fecha) {
		return refuse(http.StatusOK, msgFechaInvalida, m.Fecha)
	}
	for _, a := range m.Articulos {
		art, ok := s.articulos[a.ArticuloID]
		if !ok || art.Eliminado {
			return refuse(http.StatusOK, msgArticuloNo, a.ArticuloID)
		}
		if !hasVariant(*art, a.ColorID, a.TalleID) {
			return refuse(http.StatusOK, msgArticuloVariante, a.ArticuloID, a.ColorID, a.TalleID)
		}
		if *a.Cantidad <= 0 {
			return refuse(http.StatusOK, msgCantidadPositiva, a.ArticuloID)
		}
	}
	return nil
}

// hold: a stock movement has no key; the API spaces movements by time only.
func (o *movimientoOp) hold(time.Time) {}

// apply moves the stock. Egresos may leave stock negative, as the ERP allows.
func (o *movimientoOp) apply(now time.Time) any {
	s, m := o.s, o.m
	var touched []int64
	seen := map[int64]bool{}
	for _, a := range m.Articulos {
		from := stockKey{a.ArticuloID, a.ColorID, a.TalleID, m.DepositoID}
		switch m.Tipo {
		case nxapi.IngresoManual, nxapi.IngresoStock:
			s.stock[from] += *a.Cantidad
		case nxapi.EgresoManual, nxapi.EgresoStock:
			s.stock[from] -= *a.Cantidad
		case nxapi.Transferencia:
			s.stock[from] -= *a.Cantidad
			to := from
			to.dep = m.DepositoDosID
			s.stock[to] += *a.Cantidad
		}
		if !seen[a.ArticuloID] {
			seen[a.ArticuloID] = true
			touched = append(touched, a.ArticuloID)
		}
	}
	id := s.nextMov
	s.nextMov++
	body := *m
	body.Articulos = append([]nxapi.StockArticulo(nil), m.Articulos...)
	s.movements = append(s.movements, Movement{ID: id, Arrived: now, Body: body})
	s.enqueueChanges(touched)
	return &nxapi.NxResultado{Tipo: nxapi.NxOK, ID: nxapi.ID(id)}
}

func (s *Server) motivoActivo(id int64) bool {
	for _, m := range s.motivos {
		if m.MotivoID == id {
			return !m.Eliminado
		}
	}
	return false
}

// SetStock sets the stock of one variant in one warehouse, as a change made
// in the ERP would, and sends the articulos event. With Options.StateFile
// the change is saved before SetStock returns.
func (s *Server) SetStock(articuloID, colorID, talleID, depositoID int64, unidades nxapi.Decimal) error {
	end, err := s.begin()
	if err != nil {
		return err
	}
	defer end()
	s.mu.Lock()
	gen, err := s.setStockLocked(articuloID, colorID, talleID, depositoID, unidades)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.persist(gen)
}

// setStockLocked is SetStock with s.mu held; it returns the change to save.
func (s *Server) setStockLocked(articuloID, colorID, talleID, depositoID int64, unidades nxapi.Decimal) (uint64, error) {
	a, ok := s.articulos[articuloID]
	if !ok {
		return 0, fmt.Errorf("sandbox: articulo %d does not exist", articuloID)
	}
	if !hasVariant(*a, colorID, talleID) {
		return 0, fmt.Errorf("sandbox: articulo %d has no variant color %d / talle %d", articuloID, colorID, talleID)
	}
	if _, ok := s.depositos[depositoID]; !ok {
		return 0, fmt.Errorf("sandbox: deposito %d does not exist", depositoID)
	}
	s.stock[stockKey{articuloID, colorID, talleID, depositoID}] = unidades
	s.enqueueChanges([]int64{articuloID})
	return s.changedLocked(), nil
}

// TriggerArticuloChange sends articulos events with the current state of the
// given articles, as a change of price or properties in the ERP would.
func (s *Server) TriggerArticuloChange(articuloIDs ...int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range articuloIDs {
		if _, ok := s.articulos[id]; !ok {
			return fmt.Errorf("sandbox: articulo %d does not exist", id)
		}
	}
	s.enqueueChanges(articuloIDs)
	return nil
}

// DeactivateArticulo takes an article out of the integration and sends the
// deactivation event {articuloId, eliminado: true} (API spec 6.4). With
// Options.StateFile the change is saved before it returns.
func (s *Server) DeactivateArticulo(articuloID int64) error {
	end, err := s.begin()
	if err != nil {
		return err
	}
	defer end()
	s.mu.Lock()
	a, ok := s.articulos[articuloID]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("sandbox: articulo %d does not exist", articuloID)
	}
	a.Eliminado = true
	s.enqueueChanges([]int64{articuloID})
	gen := s.changedLocked()
	s.mu.Unlock()
	return s.persist(gen)
}

// eliminado is the deactivation record of spec 6.4: only these two fields.
type eliminado struct {
	ArticuloID int64 `json:"articuloId"`
	Eliminado  bool  `json:"eliminado"`
}
