package sandbox

import (
	"net/http"
	"slices"

	"github.com/nxbatch/nxbatch/nxapi"
)

// mediosPago is GET /medios-pago (API spec 4.3).
func (s *Server) mediosPago(w http.ResponseWriter, _ *call) {
	writeJSON(w, http.StatusOK, s.MediosPago())
}

// MediosPago returns what GET /medios-pago answers, for an in-process
// client (run --sandbox) that need not spend the parameter window on it.
func (s *Server) MediosPago() nxapi.MediosPagoConfig {
	m := s.medios
	// A copy of the lists: an in-process caller keeps what it got.
	m.Tarjetas, m.TarjetasReglas = slices.Clone(m.Tarjetas), slices.Clone(m.TarjetasReglas)
	m.CuentasBancarias, m.Bancos = slices.Clone(m.CuentasBancarias), slices.Clone(m.Bancos)
	// The DTO's lists are arrays on the wire, never null.
	if m.Tarjetas == nil {
		m.Tarjetas = []nxapi.Tarjeta{}
	}
	if m.TarjetasReglas == nil {
		m.TarjetasReglas = []nxapi.TarjetaRegla{}
	}
	if m.CuentasBancarias == nil {
		m.CuentasBancarias = []nxapi.CuentaBancaria{}
	}
	if m.Bancos == nil {
		m.Bancos = []nxapi.Banco{}
	}
	return m
}

// listMotivos is GET /motivos (API spec 4.5).
func (s *Server) listMotivos(w http.ResponseWriter, _ *call) {
	writeJSON(w, http.StatusOK, s.Motivos())
}

// Motivos returns what GET /motivos answers, eliminated ones included with
// their flag as the API lists them, for an in-process client (run
// --sandbox) that need not spend the parameter window on it.
func (s *Server) Motivos() []nxapi.Motivo {
	s.mu.Lock()
	m := slices.Clone(s.motivos)
	s.mu.Unlock()
	if m == nil {
		m = []nxapi.Motivo{}
	}
	return m
}

// integrationDepositos lists the integration's warehouses as /config does.
func (s *Server) integrationDepositos() []nxapi.Deposito {
	out := []nxapi.Deposito{}
	for _, d := range s.intDeps {
		out = append(out, nxapi.Deposito{DepositoID: d.DepositoID, Nombre: d.Nombre, SucursalID: d.SucursalID,
			SucursalNombre: s.sucursales[d.SucursalID].Nombre, Default: d.Principal})
	}
	return out
}

// config is GET /config (API spec 4.7, public-facts.md).
func (s *Server) config(w http.ResponseWriter, _ *call) {
	writeJSON(w, http.StatusOK, s.Config())
}

// Config returns what GET /config answers, for an in-process client (run
// --sandbox) that need not spend the parameter window to learn which
// integration it talks to.
func (s *Server) Config() nxapi.Config {
	c := nxapi.Config{AppID: s.cfg.AppID, Nombre: s.cfg.Nombre, MultiDeposito: s.cfg.MultiDeposito,
		FlujoDeposito: s.flujo, Depositos: s.integrationDepositos(), SucursalesExportacion: []nxapi.Sucursal{},
		PuntoVentaID: s.cfg.PuntoVentaID, ListaPrecioID: s.cfg.ListaPrecioID}
	for _, id := range s.sortedSucursales() {
		if suc := s.sucursales[id]; suc.Habilitada {
			c.SucursalesExportacion = append(c.SucursalesExportacion, nxapi.Sucursal{SucursalID: id, Nombre: suc.Nombre})
		}
	}
	return c
}

func (s *Server) sortedSucursales() []int64 {
	ids := make([]int64, 0, len(s.sucursales))
	for id := range s.sucursales {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// configDepositos is GET /config/depositos: the warehouses valid for GetData.
func (s *Server) configDepositos(w http.ResponseWriter, _ *call) {
	writeJSON(w, http.StatusOK, s.integrationDepositos())
}

// PuntoVenta is an item of GET /puntos-venta; the spec does not show the
// shape, so this one is the sandbox's own.
type PuntoVenta struct {
	PuntoVentaID int64  `json:"puntoVentaId"`
	Numero       int64  `json:"numero"`
	Nombre       string `json:"nombre"`
	SucursalID   int64  `json:"sucursalId"`
}

// puntosVenta is GET /puntos-venta: points of sale of enabled branches.
func (s *Server) puntosVenta(w http.ResponseWriter, _ *call) {
	out := []PuntoVenta{}
	for _, p := range s.pvs {
		if s.sucursales[p.SucursalID].Habilitada {
			out = append(out, PuntoVenta(p))
		}
	}
	slices.SortFunc(out, func(a, b PuntoVenta) int { return int(a.PuntoVentaID - b.PuntoVentaID) })
	writeJSON(w, http.StatusOK, out)
}

// Empleado is an item of GET /empleados; the shape is the sandbox's own.
type Empleado struct {
	EmpleadoID int64  `json:"empleadoId"`
	Nombre     string `json:"nombre"`
	SucursalID int64  `json:"sucursalId"`
}

// listEmpleados is GET /empleados: active employees of enabled branches, the
// valid values of empleadoId.
func (s *Server) listEmpleados(w http.ResponseWriter, _ *call) {
	out := []Empleado{}
	for _, e := range s.empleados {
		if e.Activo && s.sucursales[e.SucursalID].Habilitada {
			out = append(out, Empleado{e.EmpleadoID, e.Nombre, e.SucursalID})
		}
	}
	slices.SortFunc(out, func(a, b Empleado) int { return int(a.EmpleadoID - b.EmpleadoID) })
	writeJSON(w, http.StatusOK, out)
}
