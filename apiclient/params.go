package apiclient

import (
	"context"
	"net/http"

	"github.com/nxbatch/nxbatch/nxapi"
)

// PuntoVenta is an item of GET /puntos-venta. The API spec does not show
// the shape; these are the fields nxbatch needs to offer puntoVentaId in a
// template, and unknown fields are ignored.
type PuntoVenta struct {
	PuntoVentaID int64      `json:"puntoVentaId"`
	Numero       int64      `json:"numero,omitempty"`
	Nombre       nxapi.Text `json:"nombre,omitempty"`
	SucursalID   int64      `json:"sucursalId,omitempty"`
}

// Empleado is an item of GET /empleados: the employee entity id (what
// empleadoId takes, not the user id). The shape is not in the API spec.
type Empleado struct {
	EmpleadoID int64      `json:"empleadoId"`
	Nombre     nxapi.Text `json:"nombre,omitempty"`
	SucursalID int64      `json:"sucursalId,omitempty"`
}

// PuntosVenta reads GET /puntos-venta, the points of sale of the branches
// the integration may use. It is a parameter endpoint: it shares the 60 s
// window of /medios-pago and /motivos.
func (c *Client) PuntosVenta(ctx context.Context) ([]PuntoVenta, error) {
	var v []PuntoVenta
	if err := c.call(ctx, http.MethodGet, nxapi.PathPuntosVenta, nil, &v); err != nil {
		return nil, err
	}
	return nonNil(v), nil
}

// Empleados reads GET /empleados, the active employees valid as empleadoId.
// It shares the parameter endpoints' 60 s window.
func (c *Client) Empleados(ctx context.Context) ([]Empleado, error) {
	var v []Empleado
	if err := c.call(ctx, http.MethodGet, nxapi.PathEmpleados, nil, &v); err != nil {
		return nil, err
	}
	return nonNil(v), nil
}
