package sandbox

import (
	"fmt"
	"maps"
	"slices"

	"github.com/nxbatch/nxbatch/nxapi"
)

// Reload applies the articles and stock of a new version of the data file,
// as changes made in the ERP: every article whose fields or stock changed
// gets an articulos event, and an article that disappeared or became
// eliminado gets the deactivation event. The rest of the data (branches,
// catalogs, vouchers) stays as it was loaded: it is the channel's
// configuration, not something that changes under a running integration.
// With Options.StateFile the new articles and stock are saved before
// Reload returns; an error then means they are in effect but maybe not
// on disk.
func (s *Server) Reload(d *Data) error {
	if err := d.validate(); err != nil {
		return fmt.Errorf("sandbox data: %w", err)
	}
	end, err := s.begin()
	if err != nil {
		return err
	}
	defer end()
	s.mu.Lock()
	gen := s.reloadLocked(d)
	s.mu.Unlock()
	return s.persist(gen)
}

// reloadLocked is Reload with s.mu held; it returns the change to save.
func (s *Server) reloadLocked(d *Data) uint64 {
	stock := map[stockKey]nxapi.Decimal{}
	for _, a := range d.Articulos {
		for _, v := range variants(a) {
			for _, dep := range s.intDeps {
				stock[stockKey{a.ArticuloID, v.ColorID, v.TalleID, dep.DepositoID}] = d.StockInicial
			}
		}
	}
	for _, l := range d.Stock {
		stock[stockKey{l.ArticuloID, l.ColorID, l.TalleID, l.DepositoID}] = l.Unidades
	}
	changed := map[int64]bool{}
	for k, u := range stock {
		if old, ok := s.stock[k]; !ok || old != u {
			changed[k.art] = true
		}
	}
	for k := range s.stock {
		if _, ok := stock[k]; !ok {
			changed[k.art] = true
		}
	}
	present := map[int64]bool{}
	for _, a := range d.Articulos {
		a := a
		a.Variantes = slices.Clone(a.Variantes)
		present[a.ArticuloID] = true
		old, ok := s.articulos[a.ArticuloID]
		if !ok {
			s.artOrder = append(s.artOrder, a.ArticuloID)
		}
		if !ok || !sameArticulo(*old, a) {
			changed[a.ArticuloID] = true
		}
		s.articulos[a.ArticuloID] = &a
	}
	for id, a := range s.articulos {
		if !present[id] && !a.Eliminado {
			a.Eliminado = true
			changed[id] = true
		}
	}
	s.stock = stock
	ids := slices.Sorted(maps.Keys(changed))
	s.enqueueChanges(ids)
	return s.changedLocked()
}

func sameArticulo(a, b DataArticulo) bool {
	return a.Codigo == b.Codigo && a.Nombre == b.Nombre && a.Descripcion == b.Descripcion &&
		a.Precio1 == b.Precio1 && a.Eliminado == b.Eliminado && slices.Equal(a.Variantes, b.Variantes)
}
