// Package plantilla writes XLSX workbooks that accountants fill instead of
// looking ids up: one data sheet per kind with the contract's column names
// (required ones marked), a frozen header, widths and number formats that
// suit each column, drop-down lists (Excel data validation) filled from the
// tenant's catalogs, an "Instrucciones" sheet in Spanish for every column,
// and the lists themselves on a hidden sheet so they can hold any number of
// entries.
//
// The workbook is read back by nxbatch as it is: the data sheet's headers
// are the column paths, and the other two sheets have no kind column, so
// they are skipped (with a warning) when the filled template is validated.
package plantilla

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/schema"
)

// Sheet names of a template besides the data sheet (named after the kind);
// the pipeline knows them too, and skips them when a filled template comes
// back.
const (
	InstructionsSheet = schema.InstructionsSheet
	ListsSheet        = schema.ListsSheet
)

// DefaultRows is how many data rows get formats and drop-downs.
const DefaultRows = 1000

// Excel's limits on a data validation's texts.
const (
	maxPromptTitle = 32
	maxPrompt      = 250
)

// lang is the template's language: the instructions are for Argentine
// accountants.
const lang = msg.ES

// Options tune a template.
type Options struct {
	Rows  int           // data rows prepared; 0 means DefaultRows
	Notes []msg.Message // what happened to the catalogs (skipped, stale), shown in Instrucciones
	Now   time.Time     // dates the catalogs' age; zero means time.Now

	// Articulos is the tenant's article catalog (GetDataCurva's records,
	// one per variant) and ArticulosFetched when it was read; zero means
	// it is not known, and the template has no «Artículos» sheet. With it,
	// the sale and stock templates list every active variant on that sheet
	// and check their code and barcode columns against the catalog.
	Articulos        []nxapi.ArticuloConCurva
	ArticulosFetched time.Time
	// Say rewords every sentence first: msg.ForPage for a template
	// downloaded from the page, whose user has no terminal. Nil keeps the
	// command line's wording.
	Say func(msg.Message) msg.Message
}

// say is m as o's reader is told it.
func (o Options) say(m msg.Message) string {
	if o.Say != nil {
		m = o.Say(m)
	}
	return m.In(lang)
}

// Needs returns the catalogs whose lists a template of kind k offers, in
// the order they matter: the shared parameter window lets nxbatch fetch one
// a minute.
func Needs(k schema.Kind) []catalog.Name {
	switch k {
	case schema.Stock:
		return []catalog.Name{catalog.Motivos, catalog.Depositos}
	case schema.Facturar:
		return []catalog.Name{catalog.MediosPago, catalog.PuntosVenta}
	case schema.Pedido:
		// An order takes its point of sale from the configuration.
		return []catalog.Name{catalog.MediosPago, catalog.Empleados}
	case schema.Cancelar:
		return nil
	}
	// A sale's template lists points of sale and employees too.
	return []catalog.Name{catalog.MediosPago, catalog.PuntosVenta, catalog.Empleados}
}

// Write writes the template of kind k, with lists from s, to path
// atomically.
func Write(path string, k schema.Kind, s *catalog.Snapshot, o Options) error {
	f, err := Build(k, s, o)
	if err != nil {
		return err
	}
	defer f.Close()
	return atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		_, err := f.WriteTo(w)
		return err
	})
}

// list is one drop-down: the values a cell may take and, for ids, what each
// one is.
type list struct {
	column string   // column path it validates
	title  string   // header on the lists sheet
	values []string // what the cell holds
	labels []string // "10 — Banco Nación CC", shown next to the id
	strict bool     // an id: Excel stops a value off the list; enum names only warn (other spellings are valid)
	known  bool     // false: the catalog was never fetched, so no drop-down
	note   msg.Message
	// hint, when set, is the cell's prompt instead of the entries, and
	// the list's entries are not repeated in Instrucciones: the article
	// codes are tens of thousands. errText is then the error shown.
	hint    msg.Message
	errText msg.Message
}

// lists returns the drop-downs of kind k from s.
func lists(k schema.Kind, s *catalog.Snapshot) []list {
	var out []list
	cols := map[string]bool{}
	for _, c := range k.Columns() {
		cols[c.Path] = true
	}
	add := func(l list) {
		if cols[l.column] {
			out = append(out, l)
		}
	}
	mp := s.MediosPago

	tipos := catalog.AllTipos
	if k == schema.Venta {
		tipos = catalog.VentaTipos
	}
	tl := list{column: "medioPago.tipo", title: "Medios de pago", known: true}
	for _, t := range tipos {
		if mp == nil || mp.Medios.Enabled(t) {
			tl.values = append(tl.values, t.String())
			tl.labels = append(tl.labels, t.String()+" ("+strconv.Itoa(int(t))+")")
		}
	}
	switch {
	case mp == nil:
		tl.note = msg.New("tpl.list.tipos.unknown")
	case len(tl.values) == 0:
		tl.note = msg.New("tpl.list.tipos.none")
	}
	add(tl)

	cl := list{column: "medioPago.cuentaBancariaId", title: "Cuentas bancarias", strict: true, known: mp != nil}
	tj := list{column: "medioPago.tarjetaId", title: "Tarjetas", strict: true, known: mp != nil}
	if mp != nil {
		for _, c := range sorted(mp.CuentasBancarias, func(c nxapi.CuentaBancaria) int64 { return c.CuentaBancariaID }) {
			label := c.Descripcion
			if b := catalog.BankName(mp, c.BancoID); b != "" {
				label += " · " + b
			}
			if c.Alias != "" {
				label += " · alias " + c.Alias
			}
			if c.CBU != "" {
				label += " · CBU " + c.CBU
			}
			cl.add(c.CuentaBancariaID, label)
		}
		for _, t := range sorted(mp.Tarjetas, func(t nxapi.Tarjeta) int64 { return t.TarjetaID }) {
			tj.add(t.TarjetaID, t.Nombre)
		}
	}
	cl.explain("cuentas")
	tj.explain("tarjetas")
	add(cl)
	add(tj)

	el := list{column: "electronica", title: "Electrónica", known: true, values: []string{"SI", "NO"},
		labels: []string{"SI: factura electrónica", "NO: comprobante no electrónico"}}
	add(el)

	cond := list{column: "usuario.condicion", title: "Condición frente al IVA", known: true}
	for code := range len(nxapi.CondicionNames) {
		cond.values = append(cond.values, nxapi.CondicionNames[code])
		cond.labels = append(cond.labels, nxapi.CondicionNames[code]+" ("+strconv.Itoa(code)+")")
	}
	add(cond)

	st := list{column: "tipo", title: "Tipos de movimiento", known: true}
	for _, t := range []nxapi.TipoStock{nxapi.IngresoManual, nxapi.EgresoManual, nxapi.IngresoStock, nxapi.EgresoStock, nxapi.Transferencia} {
		st.values = append(st.values, t.String())
		st.labels = append(st.labels, t.String()+" ("+strconv.Itoa(int(t))+")")
	}
	add(st)

	mo := list{column: "motivoId", title: "Motivos", strict: true, known: s.Motivos != nil}
	for _, m := range catalog.ActiveMotivos(s.Motivos) {
		mo.add(m.MotivoID, m.Nombre)
	}
	mo.explain("motivos")
	add(mo)

	deps, known := s.Warehouses()
	for _, dc := range []struct{ column, title string }{{"depositoId", "Depósitos"}, {"depositoDosId", "Depósitos de destino"}} {
		column := dc.column
		dl := list{column: column, title: dc.title, strict: true, known: known}
		for _, d := range sorted(deps, func(d nxapi.Deposito) int64 { return d.DepositoID }) {
			label := d.Nombre
			if d.SucursalNombre != "" {
				label += " · " + d.SucursalNombre
			}
			dl.add(d.DepositoID, label)
		}
		dl.explain("depositos")
		add(dl)
	}

	pv := list{column: "puntoVentaId", title: "Puntos de venta", strict: true, known: s.PuntosVenta != nil}
	for _, p := range s.PuntosVenta {
		pv.add(p.PuntoVentaID, string(p.Nombre)+" (número "+strconv.FormatInt(p.Numero, 10)+")")
	}
	pv.explain("puntosventa")
	add(pv)

	em := list{column: "empleadoId", title: "Empleados", strict: true, known: s.Empleados != nil}
	for _, e := range s.Empleados {
		em.add(e.EmpleadoID, string(e.Nombre))
	}
	em.explain("empleados")
	add(em)
	return out
}

func (l *list) add(id int64, desc string) {
	v := strconv.FormatInt(id, 10)
	l.values = append(l.values, v)
	l.labels = append(l.labels, v+" — "+strings.TrimSpace(desc))
}

// explain sets the note of a catalog list that is unknown or empty.
func (l *list) explain(key string) {
	switch {
	case !l.known:
		l.note = msg.New("tpl.list.unknown", l.column)
	case len(l.values) == 0:
		l.note = msg.New("catc.empty." + key)
	}
}

func sorted[T any](items []T, key func(T) int64) []T {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b T) int {
		switch ka, kb := key(a), key(b); {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return out
}

// Build returns the template of kind k as a workbook, for Write or for
// tests that inspect it cell by cell.
func Build(k schema.Kind, s *catalog.Snapshot, o Options) (*excelize.File, error) {
	if len(k.Columns()) == 0 {
		return nil, fmt.Errorf("template: unknown kind %q", k)
	}
	if s == nil {
		s = &catalog.Snapshot{}
	}
	if o.Rows <= 0 {
		o.Rows = DefaultRows
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	b := &builder{f: excelize.NewFile(), kind: k, snap: s, opts: o, data: string(k)}
	if err := b.build(); err != nil {
		b.f.Close()
		return nil, fmt.Errorf("template %s: %w", k, err)
	}
	return b.f, nil
}
