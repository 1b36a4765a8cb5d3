package validation

import (
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Stock checks the body of POST /stock/movimiento (contract 3.5 and 4, API
// spec 2.3, 4.4).
func Stock(m *nxapi.StockMovimiento, cat *Catalog) []Issue {
	var c checker
	if m == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	c.requiredID("depositoId", request, m.DepositoID)
	if m.MotivoID <= 0 {
		c.add("motivoId", request, "val.id.apiRequired", "motivoId", nxapi.MsgMotivoReq)
	} else if motivos := cat.motivos(); motivos != nil {
		c.motivo(m.MotivoID, motivos)
	}
	c.tipoStock(m)
	if f := strings.TrimSpace(m.Fecha); f != "" && !ISODate(f) {
		c.add("fecha", request, "val.stock.fecha", m.Fecha)
	}
	if len(m.Articulos) == 0 {
		c.add("articulos", request, "val.stock.noArticulos")
	}
	for i, a := range m.Articulos {
		c.requiredID("articulos.articuloId", i, a.ArticuloID)
		c.cantidad("articulos.cantidad", i, a.Cantidad, "val.stock.cantidad.positive")
		if a.Precio != nil && *a.Precio < 0 {
			c.add("articulos.precio", i, "val.amount.negative", "articulos.precio", Amount(*a.Precio))
		}
		c.optionalID("articulos.colorId", i, a.ColorID)
		c.optionalID("articulos.talleId", i, a.TalleID)
	}
	return c.issues
}

// tipoStock checks tipo and the transfer destination that goes with it.
func (c *checker) tipoStock(m *nxapi.StockMovimiento) {
	if m.Tipo == 0 {
		c.add("tipo", request, "val.stock.tipo.required")
		return
	}
	if _, known := nxapi.TipoStockNames[m.Tipo]; !known {
		// Without a known tipo the destination fields cannot be judged.
		c.add("tipo", request, "val.stock.tipo.unknown", int(m.Tipo))
		return
	}
	if m.Tipo != nxapi.Transferencia {
		for _, f := range []struct {
			field string
			id    int64
		}{{"depositoDosId", m.DepositoDosID}, {"sucursalDosId", m.SucursalDosID}} {
			if f.id != 0 {
				c.add(f.field, request, "val.stock.destino.notTransfer", f.field, m.Tipo.String(), f.field)
			}
		}
		return
	}
	switch {
	case m.DepositoDosID == 0:
		c.add("depositoDosId", request, "val.stock.destino.required")
	case m.DepositoDosID < 0:
		c.add("depositoDosId", request, "val.id.positive", "depositoDosId", m.DepositoDosID)
	case m.DepositoDosID == m.DepositoID:
		c.add("depositoDosId", request, "val.stock.destino.same", m.DepositoDosID)
	}
	c.optionalID("sucursalDosId", request, m.SucursalDosID)
}

// motivo checks motivoId against the tenant's /motivos: it must exist and not
// be deleted. Deleted ones are not offered as alternatives.
func (c *checker) motivo(id int64, motivos []nxapi.Motivo) {
	var current []entry
	for _, m := range motivos {
		if m.MotivoID == id && m.Eliminado {
			c.add("motivoId", request, "val.motivo.deleted", id, m.Nombre)
			return
		}
		if !m.Eliminado {
			current = append(current, entry{m.MotivoID, m.Nombre})
		}
	}
	c.catalogID("motivoId", id, current)
}

// isoLayouts are the ISO 8601 forms a movement's fecha may take: a date, or
// a date and time with optional seconds (fractions are accepted after them)
// and optional zone.
var isoLayouts = []string{
	"2006-01-02",
	"2006-01-02T15:04",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05Z07:00",
}

// ISODate reports whether s is an ISO 8601 date or date-time as the API takes
// it (2024-03-31, 2024-03-31T14:05:00, 2024-03-31T14:05:00-03:00).
func ISODate(s string) bool {
	for _, layout := range isoLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
