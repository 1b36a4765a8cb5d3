package sandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/nxapi"
)

// The article catalog (public-facts.md, "The article catalog"): GetData
// answers the grouped Articulo[], GetDataCurva one ArticuloConCurva per
// variant. Both take an optional depositoId, and both are in the masses
// window (sendrules.Masses), which ServeHTTP takes before they run.

// msgDepositoIDInvalido answers a depositoId that is not a number.
const msgDepositoIDInvalido = "El depositoId %q no es valido" // sandbox's own

// getData is GET GetData: the integration's articles, grouped, each with
// its curve of sizes and colours. A deactivated article is not listed: the
// answer is the warehouse's complete picture, and an article missing from
// it takes no part in the integration.
func (s *Server) getData(w http.ResponseWriter, c *call) {
	dep, ref := s.catalogDeposito(c.r.URL.Query())
	if ref != nil {
		ref.write(w)
		return
	}
	s.mu.Lock()
	out := make([]nxapi.Articulo, 0, len(s.artOrder))
	for _, id := range s.artOrder {
		if a := s.articulos[id]; !a.Eliminado {
			out = append(out, s.grouped(a, dep))
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// getDataCurva is GET GetDataCurva: one record per variant; a deactivated
// article is one record marked eliminado.
func (s *Server) getDataCurva(w http.ResponseWriter, c *call) {
	dep, ref := s.catalogDeposito(c.r.URL.Query())
	if ref != nil {
		ref.write(w)
		return
	}
	writeJSON(w, http.StatusOK, s.articulosCurva(dep))
}

// ArticulosCurva returns what GET GetDataCurva answers for depositoID (0:
// the integration's stock), for an in-process client (run --sandbox) that
// need not spend the masses window on it. A warehouse the integration may
// not read is an error with the API's text.
func (s *Server) ArticulosCurva(depositoID int64) ([]nxapi.ArticuloConCurva, error) {
	if depositoID != 0 {
		s.mu.Lock()
		ref := s.checkDeposito(depositoID)
		s.mu.Unlock()
		if ref != nil {
			return nil, fmt.Errorf("HTTP %d: %s", ref.status, ref.text)
		}
	}
	return s.articulosCurva(depositoID), nil
}

func (s *Server) articulosCurva(dep int64) []nxapi.ArticuloConCurva {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]nxapi.ArticuloConCurva, 0, len(s.artOrder))
	for _, id := range s.artOrder {
		a := s.articulos[id]
		if a.Eliminado {
			out = append(out, nxapi.ArticuloConCurva{ArticuloID: a.ArticuloID, Codigo: a.Codigo,
				Descripcion: a.Descripcion, Nombre: a.Nombre, Eliminado: true})
			continue
		}
		out = append(out, s.flat(a, dep)...)
	}
	return out
}

// catalogDeposito reads the optional depositoId of a catalog read (the
// parameter's name without regard to case, as the API's paths) and checks
// it is a warehouse of the integration (spec 7: "El deposito N no esta
// configurado en esta integracion").
func (s *Server) catalogDeposito(q url.Values) (int64, *refusal) {
	raw := ""
	for k, v := range q {
		if strings.EqualFold(k, "depositoId") && len(v) > 0 {
			raw = v[0]
		}
	}
	if strings.TrimSpace(raw) == "" {
		return 0, nil
	}
	dep, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || dep <= 0 {
		return 0, refuse(http.StatusBadRequest, msgDepositoIDInvalido, raw)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ref := s.checkDeposito(dep); ref != nil {
		return 0, ref
	}
	return dep, nil
}

// units is a variant's unidades: with dep, that warehouse's own; else the
// main warehouse's in multi-warehouse mode (spec 6.3), the integration's
// total otherwise. It also returns the per-warehouse list (nil outside
// multi-warehouse mode) and the integration's total. s.mu must be held.
func (s *Server) units(art int64, v DataVariante, dep int64) (unidades nxapi.Decimal, deps []nxapi.StockDeposito, total nxapi.Decimal) {
	multi := s.flujo == nxapi.FlujoMultiDeposito
	if multi {
		deps = make([]nxapi.StockDeposito, 0, len(s.intDeps))
	}
	for _, d := range s.intDeps {
		u := s.stock[stockKey{art, v.ColorID, v.TalleID, d.DepositoID}]
		total += u
		if multi {
			deps = append(deps, nxapi.StockDeposito{DepositoID: d.DepositoID, Unidades: u})
		}
	}
	switch {
	case dep != 0:
		unidades = s.stock[stockKey{art, v.ColorID, v.TalleID, dep}]
	case multi:
		unidades = s.stock[stockKey{art, v.ColorID, v.TalleID, s.principal}]
	default:
		unidades = total
	}
	return unidades, deps, total
}

// barcode is a variant's barcode: its own, or the article's for one
// without variants.
func barcode(a *DataArticulo, v DataVariante) string {
	if len(a.Variantes) == 0 {
		return a.CodigoBarras
	}
	return v.CodigoBarras
}

// flat is an article's records, one per variant, as GetDataCurva and the
// "curva" events carry them. s.mu must be held.
func (s *Server) flat(a *DataArticulo, dep int64) []nxapi.ArticuloConCurva {
	out := []nxapi.ArticuloConCurva{}
	tc := a.talleColor()
	for _, v := range variants(*a) {
		p := a.Precio1
		u, deps, _ := s.units(a.ArticuloID, v, dep)
		col, tal := s.colores[v.ColorID], s.talles[v.TalleID]
		out = append(out, nxapi.ArticuloConCurva{ArticuloID: a.ArticuloID, Codigo: a.Codigo,
			Descripcion: a.Descripcion, Nombre: a.Nombre, TalleColor: tc, Precio1: &p, ColorID: v.ColorID, TalleID: v.TalleID,
			ColorNombre: col.Nombre, ColorCodigo: col.Codigo, ColorHex: col.Hex, TalleNombre: tal.Nombre, TalleCodigo: tal.Codigo,
			CodigoBarras: barcode(a, v), Unidades: u, StockDepositos: deps})
	}
	return out
}

// grouped is an article as GetData and the "objeto" events carry it: an
// article without variants has a curve of one entry, colorId and talleId
// 0, as the events always had. s.mu must be held.
func (s *Server) grouped(a *DataArticulo, dep int64) nxapi.Articulo {
	p := a.Precio1
	g := nxapi.Articulo{ArticuloID: a.ArticuloID, Codigo: a.Codigo, Descripcion: a.Descripcion, Nombre: a.Nombre,
		TalleColor: a.talleColor(), Precio1: &p, Curva: []nxapi.Curva{}}
	for _, v := range variants(*a) {
		u, deps, total := s.units(a.ArticuloID, v, dep)
		if dep != 0 {
			total = u
		}
		g.StockTotal += total
		col, tal := s.colores[v.ColorID], s.talles[v.TalleID]
		g.Curva = append(g.Curva, nxapi.Curva{ArticuloID: a.ArticuloID, ColorID: v.ColorID, TalleID: v.TalleID,
			ColorNombre: col.Nombre, ColorCodigo: col.Codigo, ColorHex: col.Hex, TalleNombre: tal.Nombre, TalleCodigo: tal.Codigo,
			CodigoBarras: barcode(a, v), Unidades: u, StockDepositos: deps})
	}
	return g
}

// flatEvent is the ArticuloConCurva[] payload of one article's event.
func (s *Server) flatEvent(a *DataArticulo) []nxapi.ArticuloConCurva { return s.flat(a, 0) }

// groupedEvent is the Articulo payload of one article's event.
func (s *Server) groupedEvent(a *DataArticulo) nxapi.Articulo { return s.grouped(a, 0) }

// saleDeposito is the warehouse a sale made at point of sale pv takes its
// units from: the main warehouse of the integration when it is in pv's
// branch, else the integration's first warehouse of that branch, else the
// main one. s.mu must be held.
func (s *Server) saleDeposito(pv DataPuntoVenta) int64 {
	if s.depositos[s.principal].SucursalID == pv.SucursalID {
		return s.principal
	}
	for _, d := range s.intDeps {
		if d.SucursalID == pv.SucursalID {
			return d.DepositoID
		}
	}
	return s.principal
}

// sell takes a sale's units out of the warehouse its point of sale draws
// from, as the ERP does, and returns the articles whose stock moved (for
// their events). A line naming a variant the article does not have moves
// nothing. s.mu must be held.
func (s *Server) sell(pv DataPuntoVenta, items []nxapi.ComprobanteItem) []int64 {
	dep := s.saleDeposito(pv)
	var touched []int64
	seen := map[int64]bool{}
	for _, it := range items {
		a, ok := s.articulos[it.ArticuloID]
		if !ok || !hasVariant(*a, it.ColorID, it.TalleID) {
			continue
		}
		s.stock[stockKey{it.ArticuloID, it.ColorID, it.TalleID, dep}] -= it.Cantidad
		if !seen[it.ArticuloID] {
			seen[it.ArticuloID] = true
			touched = append(touched, it.ArticuloID)
		}
	}
	return touched
}
