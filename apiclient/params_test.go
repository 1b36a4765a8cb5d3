package apiclient

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/nxapi"
)

func TestParamReads(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		wantPV  []PuntoVenta
		wantEmp []Empleado
		wantErr error
	}{
		{name: "lists", status: 200,
			body:   `[{"puntoVentaId":2,"numero":2,"nombre":"Caja Norte","sucursalId":2,"extra":true}]`,
			wantPV: []PuntoVenta{{PuntoVentaID: 2, Numero: 2, Nombre: "Caja Norte", SucursalID: 2}}},
		{name: "null is an empty list", status: 200, body: `null`, wantPV: []PuntoVenta{}},
		{name: "unauthorized", status: 401, body: ``, wantErr: ErrUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeAPI{t: t, routes: []route{{"GET", nxapi.PathPuntosVenta, tt.status, tt.body}}}
			_, c := newServer(t, NewToken("t"), 0, f.ServeHTTP)
			got, err := c.PuntosVenta(context.Background())
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantPV, got); diff != "" {
				t.Errorf("PuntosVenta (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEmpleados(t *testing.T) {
	f := &fakeAPI{t: t, routes: []route{
		{"GET", nxapi.PathEmpleados, 200, `[{"empleadoId":70,"nombre":"Ana Gómez","sucursalId":1}]`},
	}}
	_, c := newServer(t, NewToken("t"), 0, f.ServeHTTP)
	got, err := c.Empleados(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Empleado{{EmpleadoID: 70, Nombre: "Ana Gómez", SucursalID: 1}}, got); diff != "" {
		t.Errorf("Empleados (-want +got):\n%s", diff)
	}
	var we *WaitError
	f.routes[0] = route{"GET", nxapi.PathEmpleados, 403, `Debe esperar 42 segundos entre cada solicitud`}
	if _, err := c.Empleados(context.Background()); !errors.As(err, &we) || we.Wait.Seconds() != 42 {
		t.Errorf("403 window: err = %v, want a *WaitError of 42 s", err)
	}
}
