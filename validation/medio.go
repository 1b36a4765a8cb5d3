package validation

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/nxapi"
)

// tipoList lists payment types for a message, in enum order.
func tipoList(tipos ...nxapi.TipoMedio) string {
	parts := make([]string, len(tipos))
	for i, t := range tipos {
		parts[i] = t.String() + " (" + strconv.Itoa(int(t)) + ")"
	}
	return strings.Join(parts, ", ")
}

var (
	ventaTipos = tipoList(nxapi.Efectivo, nxapi.DepositoBanco, nxapi.Virtual)
	allTipos   = tipoList(nxapi.Efectivo, nxapi.TarjetaMedio, nxapi.CuentaCorriente, nxapi.DepositoBanco, nxapi.Virtual)
)

// medioPago checks MedioPagoTerceros. venta restricts the types to those
// POST /venta supports (API spec 4.1 item 4); mp, when known, is the
// tenant's /medios-pago answer.
func (c *checker) medioPago(m *nxapi.MedioPago, venta bool, mp *nxapi.MediosPagoConfig) {
	if m == nil || m.Tipo == 0 {
		list := allTipos
		if venta {
			list = ventaTipos
		}
		c.add("medioPago.tipo", request, "val.medioPago.required", nxapi.MsgMedioPagoReq, list)
		return
	}
	c.optionalID("medioPago.cuentaBancariaId", request, m.CuentaBancariaID)
	c.optionalID("medioPago.tarjetaId", request, m.TarjetaID)
	if _, known := nxapi.TipoMedioNames[m.Tipo]; !known {
		list := allTipos
		if venta {
			list = ventaTipos
		}
		c.add("medioPago.tipo", request, "val.medioPago.unknown", int(m.Tipo), list)
		return
	}
	if venta && (m.Tipo == nxapi.TarjetaMedio || m.Tipo == nxapi.CuentaCorriente) {
		c.add("medioPago.tipo", request, "val.medioPago.venta", m.Tipo.String(), nxapi.MsgMedioNoCompatible)
		return
	}
	if mp != nil && !mp.Medios.Enabled(m.Tipo) {
		c.add("medioPago.tipo", request, "val.medioPago.disabled", m.Tipo.String())
	}
	switch m.Tipo {
	case nxapi.DepositoBanco:
		switch {
		case m.CuentaBancariaID == 0:
			c.add("medioPago.cuentaBancariaId", request, "val.medioPago.cuenta")
		case m.CuentaBancariaID > 0 && mp != nil:
			entries := make([]entry, len(mp.CuentasBancarias))
			for i, cb := range mp.CuentasBancarias {
				entries[i] = entry{cb.CuentaBancariaID, cb.Descripcion}
			}
			c.catalogID("medioPago.cuentaBancariaId", m.CuentaBancariaID, entries)
		}
	case nxapi.TarjetaMedio:
		switch {
		case m.TarjetaID == 0:
			c.add("medioPago.tarjetaId", request, "val.medioPago.tarjeta")
		case m.TarjetaID > 0 && mp != nil:
			entries := make([]entry, len(mp.Tarjetas))
			for i, t := range mp.Tarjetas {
				entries[i] = entry{t.TarjetaID, t.Nombre}
			}
			c.catalogID("medioPago.tarjetaId", m.TarjetaID, entries)
		}
	case nxapi.Virtual:
		if strings.TrimSpace(m.ExternalID) == "" {
			c.add("medioPago.externalId", request, "val.medioPago.external")
		}
	}
}

// entry is one id of a tenant catalog with the words a user knows it by.
type entry struct {
	id   int64
	desc string
}

// fewEntries is how many valid ids a message lists in full; with more it
// names the closest ones and points at `nxbatch catalog show`.
const (
	fewEntries     = 5
	closestEntries = 3
)

// catalogID reports id unless it is one of entries.
func (c *checker) catalogID(field string, id int64, entries []entry) {
	if slices.ContainsFunc(entries, func(e entry) bool { return e.id == id }) {
		return
	}
	switch {
	case len(entries) == 0:
		c.add(field, request, "val.catalog.none", field, id)
	case len(entries) <= fewEntries:
		c.add(field, request, "val.catalog.unknown", field, id, describe(entries))
	default:
		c.add(field, request, "val.catalog.unknownMany", field, id, describe(closest(entries, id, closestEntries)))
	}
}

// closest returns the n entries whose ids are nearest to id (a typo usually
// lands near the right one), ordered by id.
func closest(entries []entry, id int64, n int) []entry {
	byDistance := slices.Clone(entries)
	slices.SortStableFunc(byDistance, func(a, b entry) int {
		return cmp.Or(cmp.Compare(distance(a.id, id), distance(b.id, id)), cmp.Compare(a.id, b.id))
	})
	byDistance = byDistance[:min(n, len(byDistance))]
	slices.SortFunc(byDistance, func(a, b entry) int { return cmp.Compare(a.id, b.id) })
	return byDistance
}

// distance is |a-b| without int64 overflow.
func distance(a, b int64) uint64 {
	if a > b {
		return uint64(a) - uint64(b)
	}
	return uint64(b) - uint64(a)
}

// describe writes entries as "10 (Banco Nación CC), 11 (Galicia CA)", in id
// order.
func describe(entries []entry) string {
	sorted := slices.SortedFunc(slices.Values(entries), func(a, b entry) int { return cmp.Compare(a.id, b.id) })
	parts := make([]string, len(sorted))
	for i, e := range sorted {
		parts[i] = strconv.FormatInt(e.id, 10)
		if d := strings.TrimSpace(e.desc); d != "" {
			parts[i] += " (" + d + ")"
		}
	}
	return strings.Join(parts, ", ")
}
