package validation

import (
	"strings"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Count checks the rows of one inventory count movement (nxbatch.md 3.6):
// m carries the movement fields and the articles with their ids, and
// contadas[i] is the counted quantity of m.Articulos[i] (nil when the cell
// is empty). There is no tipo nor quantity to move yet: they come from the
// difference with the ERP's stock once it is read. Issues are positioned
// like Stock's, the counted quantity under CantidadContada.
func Count(m *nxapi.StockMovimiento, contadas []*nxapi.Decimal, cat *Catalog) []Issue {
	var c checker
	if m == nil {
		c.add("", request, "val.request.nil")
		return c.issues
	}
	c.requiredID("depositoId", request, m.DepositoID)
	if m.DepositoID > 0 {
		if deps := cat.depositos(); deps != nil {
			c.deposito(m.DepositoID, deps)
		}
	}
	if m.MotivoID <= 0 {
		c.add("motivoId", request, "val.id.apiRequired", "motivoId", nxapi.MsgMotivoReq)
	} else if motivos := cat.motivos(); motivos != nil {
		c.motivo(m.MotivoID, motivos)
	}
	if f := strings.TrimSpace(m.Fecha); f != "" && !ISODate(f) {
		c.add("fecha", request, "val.stock.fecha", m.Fecha)
	}
	if len(m.Articulos) == 0 {
		c.add("articulos", request, "val.stock.noArticulos")
	}
	for i, a := range m.Articulos {
		c.requiredID("articulos.articuloId", i, a.ArticuloID)
		var counted *nxapi.Decimal
		if i < len(contadas) {
			counted = contadas[i]
		}
		switch {
		case counted == nil:
			c.add(countedField, i, "val.count.required", countedField)
		case *counted < 0:
			c.add(countedField, i, "val.count.negative", countedField, Quantity(*counted))
		}
		c.optionalID("articulos.colorId", i, a.ColorID)
		c.optionalID("articulos.talleId", i, a.TalleID)
	}
	return c.issues
}

// countedField is the counted quantity's column (schema.CantidadContada;
// validation does not import schema).
const countedField = "articulos.cantidadContada"

// deposito checks a count's warehouse against the integration's warehouses
// (GET /config): a count of a warehouse the integration does not reach
// cannot be compared nor moved.
func (c *checker) deposito(id int64, deps []nxapi.Deposito) {
	entries := make([]entry, len(deps))
	for i, d := range deps {
		entries[i] = entry{d.DepositoID, d.Nombre}
	}
	for _, e := range entries {
		if e.id == id {
			return
		}
	}
	c.add("depositoId", request, "val.count.deposito", id, describe(entries))
}

func (c *Catalog) depositos() []nxapi.Deposito {
	if c == nil {
		return nil
	}
	return c.Depositos
}
