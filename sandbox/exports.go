package sandbox

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sendrules"
)

// The paginated exports (public facts, "Reading back what was created"):
// what a client reads to reconcile a sale whose outcome it does not know.
// The shared 30 s (test 3 s) window has been taken by ServeHTTP before any
// of this runs. The decisions where neither source speaks are in the
// package doc.

// DefaultExportPageSize is the pageSize of an export request without one;
// the sandbox's own choice.
const DefaultExportPageSize = 100

// Export texts the sources do not give; the sandbox's own.
const (
	msgSucursalIDBad   = "El sucursalId %q no es valido"                               // sandbox's own
	msgPeriodoReq      = "Debe indicar el periodo: desde y hasta, fecha, o anio y mes" // sandbox's own
	msgPeriodoUno      = "Indique un solo periodo: desde y hasta, fecha, o anio y mes" // sandbox's own
	msgDesdeHasta      = "Debe indicar desde y hasta"                                  // sandbox's own
	msgAnioMes         = "Debe indicar anio y mes"                                     // sandbox's own
	msgFechaExport     = "La fecha %q no es valida: use dd/MM/yyyy o yyyy-MM-dd"       // sandbox's own
	msgHastaAntes      = "La fecha hasta es anterior a desde"                          // sandbox's own
	msgRangoMax        = "El rango de fechas no puede superar los %d dias"             // sandbox's own
	msgAnioBad         = "El anio %q no es valido: use cuatro digitos"                 // sandbox's own
	msgMesBad          = "El mes %q no es valido: use dos digitos, de 01 a 12"         // sandbox's own
	msgPageBad         = "El page %q no es valido: las paginas empiezan en 1"          // sandbox's own
	msgPageSizeBad     = "El pageSize %q no es valido: debe ser de 1 a %d"             // sandbox's own
	msgIncluirMedios   = "El incluirMediosPago %q no es valido: use true o false"      // sandbox's own
	msgSucursalNo      = "La sucursal %d no esta habilitada"                           // spec 7
	msgSucursalReq     = "Debe indicar sucursalId"                                     // spec 7
	msgSucursalesLista = ". Sucursales habilitadas: %s"                                // sandbox's own wording of "lists available branches"
)

// Voucher letters as the export's tipoDocumento carries them: an integer
// (public-facts.md, "Wire types": A=1, B=2, C=3, E=4, R=5, X=6, M=7). Which
// letter a voucher gets is the sandbox's own rule (it keeps no tax
// settings): A for a customer sent as RESPONSABLE_INSCRIPTO, else B; a
// credit note has the letter of a sale.
const (
	tipoDocA nxapi.Code = "1"
	tipoDocB nxapi.Code = "2"
)

// condicionRI is CondicionIva RESPONSABLE_INSCRIPTO (public-facts.md).
const condicionRI = 2

// exportQuery is a checked export request.
type exportQuery struct {
	sucursal   int64
	from, to   time.Time // the period, [from, to) in UTC
	page, size int
	medios     bool // incluirMediosPago
}

// parseExportQuery applies the branch scope and checks the parameters.
func (s *Server) parseExportQuery(q url.Values) (exportQuery, *refusal) {
	var eq exportQuery
	suc, ref := s.exportSucursal(q.Get("sucursalId"))
	if ref != nil {
		return eq, ref
	}
	eq.sucursal = suc
	if eq.from, eq.to, ref = parsePeriod(q); ref != nil {
		return eq, ref
	}
	eq.page, eq.size = 1, DefaultExportPageSize
	if p := q.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 {
			return eq, refuse(http.StatusBadRequest, msgPageBad, p)
		}
		eq.page = n
	}
	if p := q.Get("pageSize"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > sendrules.ExportMaxPageSize {
			return eq, refuse(http.StatusBadRequest, msgPageSizeBad, p, sendrules.ExportMaxPageSize)
		}
		eq.size = n
	}
	if p := q.Get("incluirMediosPago"); p != "" {
		b, err := strconv.ParseBool(p)
		if err != nil {
			return eq, refuse(http.StatusBadRequest, msgIncluirMedios, p)
		}
		eq.medios = b
	}
	return eq, nil
}

// exportSucursal is the branch scope of the exports (spec 7; deny-by-default
// since 2026-08-06): sucursalId must be an enabled branch, and may be left
// out only when exactly one is enabled.
func (s *Server) exportSucursal(raw string) (int64, *refusal) {
	if s.habilitada == 0 {
		return 0, refuse(http.StatusForbidden, msgSinSucursal)
	}
	if raw == "" {
		if s.habilitada > 1 {
			return 0, refuse(http.StatusForbidden, msgSucursalReq+msgSucursalesLista, s.enabledList())
		}
		for _, id := range s.sortedSucursales() {
			if s.sucursales[id].Habilitada {
				return id, nil
			}
		}
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, refuse(http.StatusBadRequest, msgSucursalIDBad, raw)
	}
	if !s.sucursales[id].Habilitada {
		return 0, refuse(http.StatusForbidden, msgSucursalNo+msgSucursalesLista, id, s.enabledList())
	}
	return id, nil
}

// enabledList names the enabled branches, as the API's scope messages list
// them.
func (s *Server) enabledList() string {
	var parts []string
	for _, id := range s.sortedSucursales() {
		if suc := s.sucursales[id]; suc.Habilitada {
			parts = append(parts, fmt.Sprintf("%d (%s)", id, suc.Nombre))
		}
	}
	return strings.Join(parts, ", ")
}

// exportDateLayouts are the forms a period's date may take.
var exportDateLayouts = []string{"02/01/2006", "2006-01-02"}

func parseExportDate(raw string) (time.Time, *refusal) {
	for _, l := range exportDateLayouts {
		if t, err := time.Parse(l, raw); err == nil {
			return t, nil
		}
	}
	return time.Time{}, refuse(http.StatusBadRequest, msgFechaExport, raw)
}

// parsePeriod reads the one period of an export request as [from, to).
func parsePeriod(q url.Values) (from, to time.Time, ref *refusal) {
	has := func(k string) bool { return q.Get(k) != "" }
	forms := 0
	for _, on := range []bool{has("desde") || has("hasta"), has("fecha"), has("anio") || has("mes")} {
		if on {
			forms++
		}
	}
	switch {
	case forms == 0:
		return from, to, refuse(http.StatusBadRequest, msgPeriodoReq)
	case forms > 1:
		return from, to, refuse(http.StatusBadRequest, msgPeriodoUno)
	case has("fecha"):
		if from, ref = parseExportDate(q.Get("fecha")); ref != nil {
			return from, to, ref
		}
		return from, from.AddDate(0, 0, 1), nil
	case has("anio") || has("mes"):
		anio, mes := q.Get("anio"), q.Get("mes")
		if anio == "" || mes == "" {
			return from, to, refuse(http.StatusBadRequest, msgAnioMes)
		}
		y, err := strconv.Atoi(anio)
		if err != nil || len(anio) != 4 || y < 1 {
			return from, to, refuse(http.StatusBadRequest, msgAnioBad, anio)
		}
		m, err := strconv.Atoi(mes)
		if err != nil || len(mes) != 2 || m < 1 || m > 12 {
			return from, to, refuse(http.StatusBadRequest, msgMesBad, mes)
		}
		from = time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(0, 1, 0), nil
	}
	desde, hasta := q.Get("desde"), q.Get("hasta")
	if desde == "" || hasta == "" {
		return from, to, refuse(http.StatusBadRequest, msgDesdeHasta)
	}
	if from, ref = parseExportDate(desde); ref != nil {
		return from, to, ref
	}
	last, ref := parseExportDate(hasta)
	if ref != nil {
		return from, to, ref
	}
	if last.Before(from) {
		return from, to, refuse(http.StatusBadRequest, msgHastaAntes)
	}
	to = last.AddDate(0, 0, 1)
	if to.After(from.AddDate(0, 0, sendrules.ExportMaxDays)) {
		return from, to, refuse(http.StatusBadRequest, msgRangoMax, sendrules.ExportMaxDays)
	}
	return from, to, nil
}

// exported reports whether a voucher type appears in the sales exports.
func exported(tipo int) bool {
	return tipo == nxapi.ComprobanteVenta || tipo == nxapi.ComprobanteNotaCredito
}

// exportedLocked lists the vouchers an export of q shows at now, oldest
// first; s.mu must be held. A voucher the API created less than ExportLag
// ago is not there yet.
func (s *Server) exportedLocked(q exportQuery, now time.Time) []*comprobante {
	lag := s.scaled(s.exportLag)
	var out []*comprobante
	for _, cp := range s.comprobantes {
		switch {
		case !exported(cp.c.ComprobanteTipo), cp.c.SucursalID != q.sucursal,
			cp.fecha.Before(q.from), !cp.fecha.Before(q.to),
			!cp.created.IsZero() && now.Before(cp.created.Add(lag)):
			continue
		}
		out = append(out, cp)
	}
	slices.SortFunc(out, func(a, b *comprobante) int {
		return cmp.Or(a.fecha.Compare(b.fecha), cmp.Compare(a.c.FacturaID, b.c.FacturaID))
	})
	return out
}

// page cuts one page of rows out of all of them.
func page[T any](all []T, q exportQuery) nxapi.ExportPage[T] {
	p := nxapi.ExportPage[T]{Items: []T{}, TotalRegistros: len(all), PaginaActual: q.page, PageSize: q.size,
		TotalPaginas: (len(all) + q.size - 1) / q.size}
	if start := (q.page - 1) * q.size; start < len(all) {
		p.Items = all[start:min(start+q.size, len(all))]
	}
	return p
}

// exportVentaTotales is GET /exportar/ventatotales/paginado.
func (s *Server) exportVentaTotales(w http.ResponseWriter, c *call) {
	q, ref := s.parseExportQuery(c.r.URL.Query())
	if ref != nil {
		ref.write(w)
		return
	}
	now := s.now()
	s.mu.Lock()
	var rows []nxapi.VentaTotal
	for _, cp := range s.exportedLocked(q, now) {
		rows = append(rows, s.ventaTotal(cp, q.medios))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page(rows, q))
}

// ventaTotal is a voucher as ventatotales shows it; s.mu must be held.
func (s *Server) ventaTotal(cp *comprobante, medios bool) nxapi.VentaTotal {
	c := cp.c
	v := nxapi.VentaTotal{FacturaID: nxapi.ID(c.FacturaID), ComprobanteTipo: c.ComprobanteTipo,
		TipoDocumento: tipoDocB, Fecha: nxapi.Text(cp.fecha.Format(fechaLayout)),
		FechaText: nxapi.Text(cp.fecha.Format(time.DateOnly)), HoraText: nxapi.Text(cp.fecha.Format(time.TimeOnly)),
		NumeroFull: nxapi.Text(fmt.Sprintf("%04d-%08d", c.PVNumero, c.Numero)), SucursalID: c.SucursalID,
		Sucursal: nxapi.Text(s.sucursales[c.SucursalID].Nombre), Detalle: nxapi.Text(cp.detalle),
		SubTotal: c.Totales.SubTotal, Total: c.Totales.Total, Descuento: c.Totales.Descuento, Recargo: c.Totales.Recargo}
	if u := cp.usuario; u != nil && u.Condicion != nil && *u.Condicion == condicionRI {
		v.TipoDocumento = tipoDocA
	}
	if cp.propio {
		app := s.cfg.AppID
		v.AppID = &app
	}
	if e, ok := s.entidades[cp.entidadID]; ok && cp.entidadID != 0 {
		v.Cliente = nxapi.Text(e.Nombre)
	}
	if u := cp.usuario; u != nil {
		if v.Cliente == "" {
			v.Cliente = nxapi.Text(u.Nombre)
		}
		v.Email, v.DNI = nxapi.Text(u.Email), nxapi.Text(u.DNI)
	}
	if e, ok := s.empleados[c.EmpleadoID]; ok {
		v.Vendedor = nxapi.Text(e.Nombre)
	}
	for _, it := range c.Items {
		v.Cantidad += it.Cantidad
	}
	formas := s.formasPago(cp)
	var texts []string
	for _, f := range formas {
		texts = append(texts, string(f.TipoText))
	}
	v.FormasPagoText = nxapi.Text(strings.Join(texts, ", "))
	if medios {
		v.FormasPago = formas
	}
	return v
}

// formasPago lists how a voucher was paid: its one payment method, for
// the whole total.
func (s *Server) formasPago(cp *comprobante) []nxapi.FormaPago {
	out := []nxapi.FormaPago{}
	m := cp.medio
	if m == nil {
		return out
	}
	f := nxapi.FormaPago{FacturaID: nxapi.ID(cp.c.FacturaID), Tipo: m.Tipo, TipoText: nxapi.Text(m.Tipo.String()),
		Importe: cp.c.Totales.Total}
	switch m.Tipo {
	case nxapi.TarjetaMedio:
		for _, t := range s.medios.Tarjetas {
			if t.TarjetaID == m.TarjetaID {
				f.Detalle = nxapi.Text(t.Nombre)
			}
		}
	case nxapi.DepositoBanco:
		for _, cb := range s.medios.CuentasBancarias {
			if cb.CuentaBancariaID == m.CuentaBancariaID {
				f.Detalle = nxapi.Text(cb.Descripcion)
			}
		}
	case nxapi.Virtual:
		f.Detalle = nxapi.Text(m.ExternalID)
	}
	return append(out, f)
}

// VentaItem is a row of GET /exportar/ventaitems/paginado: one line of a
// voucher. Neither source lists this export's fields; this shape is the
// sandbox's own, after ventatotales and the voucher's items.
type VentaItem struct {
	FacturaID       int64         `json:"facturaId"`
	ComprobanteTipo int           `json:"comprobanteTipo"`
	Fecha           string        `json:"fecha"`
	NumeroFull      string        `json:"numeroFull"`
	SucursalID      int64         `json:"sucursalId"`
	AppID           *int64        `json:"appId"`
	ArticuloID      int64         `json:"articuloId"`
	Descripcion     string        `json:"descripcion"`
	ColorID         int64         `json:"colorId"`
	TalleID         int64         `json:"talleId"`
	Cantidad        nxapi.Decimal `json:"cantidad"`
	Precio          nxapi.Decimal `json:"precio"`
	Subtotal        nxapi.Decimal `json:"subtotal"`
}

// exportVentaItems is GET /exportar/ventaitems/paginado.
func (s *Server) exportVentaItems(w http.ResponseWriter, c *call) {
	q, ref := s.parseExportQuery(c.r.URL.Query())
	if ref != nil {
		ref.write(w)
		return
	}
	now := s.now()
	s.mu.Lock()
	var rows []VentaItem
	for _, cp := range s.exportedLocked(q, now) {
		v := s.ventaTotal(cp, false)
		for _, it := range cp.c.Items {
			rows = append(rows, VentaItem{FacturaID: cp.c.FacturaID, ComprobanteTipo: cp.c.ComprobanteTipo,
				Fecha: string(v.Fecha), NumeroFull: string(v.NumeroFull), SucursalID: cp.c.SucursalID, AppID: v.AppID,
				ArticuloID: it.ArticuloID, Descripcion: it.Descripcion, ColorID: it.ColorID, TalleID: it.TalleID,
				Cantidad: it.Cantidad, Precio: it.Precio, Subtotal: it.Subtotal})
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, page(rows, q))
}

// exportCompras is GET /exportar/compratotales/paginado and
// compraitems/paginado: the same checks, and an empty page, because the
// sandbox holds no purchases.
func (s *Server) exportCompras(w http.ResponseWriter, c *call) {
	q, ref := s.parseExportQuery(c.r.URL.Query())
	if ref != nil {
		ref.write(w)
		return
	}
	writeJSON(w, http.StatusOK, page([]struct{}{}, q))
}
