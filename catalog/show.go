package catalog

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// Table is one catalog laid out for people: the ids a spreadsheet needs
// next to the words the accountant knows them by. show prints it, export
// writes it, and templates list the same entries.
type Table struct {
	Name    Name
	Key     string        // short key of the table ("cuentas"), also the export's sheet
	Title   msg.Message   // e.g. "Cuentas bancarias (medioPago.cuentaBancariaId)"
	Header  []msg.Message // column titles
	Rows    [][]string
	Fetched time.Time   // zero when the catalog was never fetched
	Note    msg.Message // why the table is empty, when it is; Key "" otherwise
	// Stamps are the indexes of the columns that hold the API's own
	// timestamps, which a page may write as it writes dates.
	Stamps []int
}

// Known reports whether the table's catalog was ever fetched.
func (t Table) Known() bool { return !t.Fetched.IsZero() }

func col(key string) msg.Message { return msg.New("catc.col." + key) }

func id(n int64) string { return strconv.FormatInt(n, 10) }

func yesNo(b bool) msg.Message {
	if b {
		return msg.New("catc.yes")
	}
	return msg.New("catc.no")
}

// VentaTipos are the payment types POST /venta takes (API spec 4.1 item 4);
// POST /facturar takes every type.
var VentaTipos = []nxapi.TipoMedio{nxapi.Efectivo, nxapi.DepositoBanco, nxapi.Virtual}

// AllTipos are every payment type, in enum order.
var AllTipos = []nxapi.TipoMedio{nxapi.Efectivo, nxapi.TarjetaMedio, nxapi.CuentaCorriente, nxapi.DepositoBanco, nxapi.Virtual}

// ActiveMotivos returns the motivos a movement may use (not eliminado),
// by id.
func ActiveMotivos(ms []nxapi.Motivo) []nxapi.Motivo {
	var out []nxapi.Motivo
	for _, m := range ms {
		if !m.Eliminado {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b nxapi.Motivo) int { return cmp.Compare(a.MotivoID, b.MotivoID) })
	return out
}

// BankName returns the name of bank id in mp ("" when not listed).
func BankName(mp *nxapi.MediosPagoConfig, id int64) string {
	for _, b := range mp.Bancos {
		if b.BancoID == id {
			return b.Nombre
		}
	}
	return ""
}

// Tables lays out every catalog of s in a stable order. A catalog never
// fetched gives a table with no rows and a note saying how to fetch it;
// one fetched but empty, a note saying so.
func Tables(s *Snapshot, l msg.Lang) []Table {
	var ts []Table
	add := func(t Table, empty string) {
		switch {
		case !t.Known():
			t.Note = msg.New("catc.notfetched", string(t.Name))
		case len(t.Rows) == 0:
			t.Note = msg.New(empty)
		}
		ts = append(ts, t)
	}
	mp := s.MediosPago
	if mp == nil {
		mp = &nxapi.MediosPagoConfig{}
	}
	fetched := s.MediosPagoFetched
	if s.MediosPago == nil {
		fetched = time.Time{}
	}

	tipos := Table{Name: MediosPago, Key: "medios", Title: msg.New("catc.t.medios"), Fetched: fetched,
		Header: []msg.Message{col("tipo"), col("codigo"), col("venta"), col("facturar")}}
	for _, t := range AllTipos {
		if s.MediosPago != nil && mp.Medios.Enabled(t) {
			tipos.Rows = append(tipos.Rows, []string{t.String(), strconv.Itoa(int(t)),
				yesNo(slices.Contains(VentaTipos, t)).In(l), yesNo(true).In(l)})
		}
	}
	add(tipos, "catc.empty.medios")

	cuentas := Table{Name: MediosPago, Key: "cuentas", Title: msg.New("catc.t.cuentas"), Fetched: fetched,
		Header: []msg.Message{col("id"), col("descripcion"), col("banco"), col("alias"), col("cbu"), col("numero")}}
	for _, c := range sortedBy(mp.CuentasBancarias, func(c nxapi.CuentaBancaria) int64 { return c.CuentaBancariaID }) {
		cuentas.Rows = append(cuentas.Rows, []string{id(c.CuentaBancariaID), c.Descripcion, BankName(mp, c.BancoID), c.Alias, c.CBU, c.Numero})
	}
	add(cuentas, "catc.empty.cuentas")

	tarjetas := Table{Name: MediosPago, Key: "tarjetas", Title: msg.New("catc.t.tarjetas"), Fetched: fetched,
		Header: []msg.Message{col("id"), col("nombre"), col("tipo"), col("cuotas")}}
	for _, t := range sortedBy(mp.Tarjetas, func(t nxapi.Tarjeta) int64 { return t.TarjetaID }) {
		tarjetas.Rows = append(tarjetas.Rows, []string{id(t.TarjetaID), t.Nombre, string(t.Tipo), cuotas(mp, t.TarjetaID)})
	}
	add(tarjetas, "catc.empty.tarjetas")

	motivosFetched := s.MotivosFetched
	if s.Motivos == nil {
		motivosFetched = time.Time{}
	}
	motivos := Table{Name: Motivos, Key: "motivos", Title: msg.New("catc.t.motivos"), Fetched: motivosFetched,
		Header: []msg.Message{col("id"), col("nombre"), col("modificado")}, Stamps: []int{2}}
	for _, m := range ActiveMotivos(s.Motivos) {
		motivos.Rows = append(motivos.Rows, []string{id(m.MotivoID), m.Nombre, m.Modificado})
	}
	add(motivos, "catc.empty.motivos")

	deps, ok := s.Warehouses()
	depFetched := s.DepositosFetched
	if s.Depositos == nil {
		depFetched = s.ConfigFetched
	}
	if !ok {
		depFetched = time.Time{}
	}
	depositos := Table{Name: Depositos, Key: "depositos", Title: msg.New("catc.t.depositos"), Fetched: depFetched,
		Header: []msg.Message{col("id"), col("nombre"), col("sucursal"), col("principal")}}
	for _, d := range sortedBy(deps, func(d nxapi.Deposito) int64 { return d.DepositoID }) {
		suc := d.SucursalNombre
		if suc == "" {
			suc = id(d.SucursalID)
		}
		depositos.Rows = append(depositos.Rows, []string{id(d.DepositoID), d.Nombre, suc, yesNo(d.Default).In(l)})
	}
	add(depositos, "catc.empty.depositos")

	pvFetched := s.PuntosVentaFetched
	if s.PuntosVenta == nil {
		pvFetched = time.Time{}
	}
	pvs := Table{Name: PuntosVenta, Key: "puntos-venta", Title: msg.New("catc.t.puntosventa"), Fetched: pvFetched,
		Header: []msg.Message{col("id"), col("numero"), col("nombre"), col("sucursal")}}
	for _, p := range s.PuntosVenta {
		pvs.Rows = append(pvs.Rows, []string{id(p.PuntoVentaID), id(p.Numero), string(p.Nombre), id(p.SucursalID)})
	}
	add(pvs, "catc.empty.puntosventa")

	empFetched := s.EmpleadosFetched
	if s.Empleados == nil {
		empFetched = time.Time{}
	}
	emps := Table{Name: Empleados, Key: "empleados", Title: msg.New("catc.t.empleados"), Fetched: empFetched,
		Header: []msg.Message{col("id"), col("nombre"), col("sucursal")}}
	for _, e := range s.Empleados {
		emps.Rows = append(emps.Rows, []string{id(e.EmpleadoID), string(e.Nombre), id(e.SucursalID)})
	}
	add(emps, "catc.empty.empleados")
	return ts
}

// cuotas lists the active instalment plans of a card ("1, 3, 6").
func cuotas(mp *nxapi.MediosPagoConfig, tarjeta int64) string {
	var n []int
	for _, r := range mp.TarjetasReglas {
		if r.TarjetaID == tarjeta && r.Activo && !slices.Contains(n, r.Cuotas) {
			n = append(n, r.Cuotas)
		}
	}
	slices.Sort(n)
	parts := make([]string, len(n))
	for i, c := range n {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ", ")
}

func sortedBy[T any](items []T, key func(T) int64) []T {
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
	return out
}

// Show prints tables as aligned text, each under its title with the age of
// its copy.
func Show(w io.Writer, tables []Table, now time.Time, l msg.Lang) error {
	for i, t := range tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := t.Title.In(l)
		if t.Known() {
			title += " — " + msg.New("catc.age", age(now, t.Fetched)).In(l)
		}
		fmt.Fprintln(w, title)
		if t.Note.Key != "" {
			fmt.Fprintln(w, "  "+t.Note.In(l))
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := make([]string, len(t.Header))
		for j, h := range t.Header {
			head[j] = h.In(l)
		}
		fmt.Fprintln(tw, "  "+strings.Join(head, "\t"))
		for _, r := range t.Rows {
			// The cells are the API's names: a control character in one
			// would shift the columns or repaint the terminal.
			cells := make([]string, len(r))
			for j, c := range r {
				cells[j] = msg.Inert(c)
			}
			fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("print catalog %s: %w", t.Key, err)
		}
	}
	return nil
}
