package inventario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// d is a decimal from its text, for tables.
func d(s string) nxapi.Decimal {
	v, err := nxapi.ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestDifference(t *testing.T) {
	tests := []struct {
		counted, erp string
		tipos        Tipos
		diff         string
		tipo         nxapi.TipoStock
		qty          string
	}{
		{"12", "10", TiposStock, "2", nxapi.IngresoStock, "2"},
		{"3", "10", TiposStock, "-7", nxapi.EgresoStock, "7"},
		{"10", "10", TiposStock, "0", 0, "0"},
		{"0", "4", TiposStock, "-4", nxapi.EgresoStock, "4"},
		{"0", "-3", TiposStock, "3", nxapi.IngresoStock, "3"}, // negative stock counted empty
		{"2.5", "1.25", TiposStock, "1.25", nxapi.IngresoStock, "1.25"},
		{"1.5", "1.5001", TiposStock, "-0.0001", nxapi.EgresoStock, "0.0001"},
		{"12", "10", TiposManual, "2", nxapi.IngresoManual, "2"},
		{"3", "10", TiposManual, "-7", nxapi.EgresoManual, "7"},
		{"7", "7", TiposManual, "0", 0, "0"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s-%d", tt.counted, tt.erp, tt.tipos), func(t *testing.T) {
			diff, tipo, qty := Difference(d(tt.counted), d(tt.erp), tt.tipos)
			if diff != d(tt.diff) || tipo != tt.tipo || qty != d(tt.qty) {
				t.Errorf("Difference = %s %s %s, want %s %s %s", diff, tipo, qty, tt.diff, tt.tipo, tt.qty)
			}
		})
	}
}

// erpStock is the ERP's stock as tests set it, answered the way the
// application's reader answers: per warehouse, or every warehouse at once.
type erpStock struct {
	units   map[Variant]nxapi.Decimal
	all     bool
	now     time.Time
	reads   []int64
	failOn  int64 // a warehouse whose read fails (0: none)
	readErr error
}

func (s *erpStock) AllAtOnce() bool { return s.all }

func (s *erpStock) ReadStock(_ context.Context, dep int64) (Snapshot, error) {
	if dep == 0 && !s.all {
		return Snapshot{}, errors.New("every warehouse at once asked of a single-warehouse reader")
	}
	if s.failOn != 0 && dep == s.failOn {
		return Snapshot{}, s.readErr
	}
	s.reads = append(s.reads, dep)
	s.now = s.now.Add(10 * time.Minute)
	out := Snapshot{At: s.now, Units: map[Variant]nxapi.Decimal{}}
	for v, u := range s.units {
		if dep == 0 || v.DepositoID == dep {
			out.Units[v] = u
		}
	}
	return out, nil
}

func openJournal(t testing.TB) *boltjournal.Journal {
	t.Helper()
	j, err := boltjournal.Open(filepath.Join(t.TempDir(), "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func count(id string, dep, art, talle, color int64, counted string) Count {
	return Count{ID: id, Source: "conteo.csv fila " + id, Variant: Variant{dep, art, talle, color}, MotivoID: 3,
		Fecha: "2026-11-30", Counted: d(counted)}
}

// base is a warehouse 1 with rows above, below and equal to its stock,
// varianted articles among them, and a warehouse 2 the count does not
// touch.
func base() (*erpStock, []Count) {
	st := &erpStock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), units: map[Variant]nxapi.Decimal{
		{1, 100, 0, 0}: d("10"), // counted 12: ingreso 2
		{1, 101, 5, 9}: d("8"),  // counted 3: egreso 5
		{1, 101, 6, 9}: d("4"),  // counted 4: equal
		{1, 102, 0, 0}: d("1"),  // not counted
		{1, 103, 0, 0}: d("-2"), // not counted, negative
		{1, 104, 0, 0}: d("0"),  // not counted, none
		{2, 100, 0, 0}: d("50"), // another warehouse
	}}
	return st, []Count{
		count("r2", 1, 100, 0, 0, "12"),
		count("r3", 1, 101, 5, 9, "3"),
		count("r4", 1, 101, 6, 9, "4"),
		count("r5", 1, 105, 0, 0, "2.5"), // unknown to the ERP's stock: from 0
	}
}

type want struct {
	state State
	erp   string
	diff  string
	tipo  nxapi.TipoStock
}

func checkLines(t *testing.T, p *Plan, ws map[string]want) {
	t.Helper()
	if len(p.Lines) != len(ws) {
		t.Errorf("%d lines, want %d", len(p.Lines), len(ws))
	}
	for _, l := range p.Lines {
		w, ok := ws[l.ID]
		if !ok {
			t.Errorf("unexpected line %s %+v", l.ID, l.Variant)
			continue
		}
		if l.State != w.state || l.ERP != d(w.erp) || l.Diff != d(w.diff) || l.Tipo != w.tipo {
			t.Errorf("%s: state %d erp %s diff %s tipo %s; want %d %s %s %s", l.ID, l.State, l.ERP, l.Diff, l.Tipo, w.state, w.erp, w.diff, w.tipo)
		}
		if (l.State == Send) != (l.Movement >= 0) {
			t.Errorf("%s: state %d in movement %d", l.ID, l.State, l.Movement)
		}
	}
}

func TestPrepareComparesEveryRow(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprintf("allAtOnce=%v", all), func(t *testing.T) {
			st, counts := base()
			st.all = all
			j := openJournal(t)
			p, err := Prepare(context.Background(), j, st, counts, Options{Tenant: "t"})
			if err != nil {
				t.Fatal(err)
			}
			checkLines(t, p, map[string]want{
				"r2": {Send, "10", "2", nxapi.IngresoStock},
				"r3": {Send, "8", "-5", nxapi.EgresoStock},
				"r4": {Equal, "4", "0", 0},
				"r5": {Send, "0", "2.5", nxapi.IngresoStock},
			})
			wantRead := int64(1)
			if all {
				wantRead = 0
			}
			if len(st.reads) != 1 || st.reads[0] != wantRead || len(p.Reads) != 1 || p.Reads[0].DepositoID != wantRead {
				t.Errorf("reads %v (plan %v), want one of %d", st.reads, p.Reads, wantRead)
			}
			for _, l := range p.Lines {
				if l.Read != 0 || !l.ReadAt.Equal(p.Reads[0].At) {
					t.Errorf("%s compared against read %d at %v", l.ID, l.Read, l.ReadAt)
				}
			}
			// Ingresos and egresos are two movements, in file order.
			if len(p.Movements) != 2 || p.Movements[0].Head.Tipo != nxapi.IngresoStock || p.Movements[1].Head.Tipo != nxapi.EgresoStock {
				t.Fatalf("movements %+v", p.Movements)
			}
			reqs := p.Requests(500)
			var body nxapi.StockMovimiento
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.DepositoID != 1 || body.MotivoID != 3 || body.Fecha != "2026-11-30" || len(body.Articulos) != 2 ||
				*body.Articulos[0].Cantidad != d("2") || *body.Articulos[1].Cantidad != d("2.5") || body.Articulos[1].ArticuloID != 105 {
				t.Errorf("ingreso body %s", reqs[0].Body)
			}
			if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Tipo != nxapi.EgresoStock || len(body.Articulos) != 1 || *body.Articulos[0].Cantidad != d("5") ||
				body.Articulos[0].TalleID != 5 || body.Articulos[0].ColorID != 9 {
				t.Errorf("egreso body %s", reqs[1].Body)
			}
		})
	}
}

func TestReadsTakeTheFewest(t *testing.T) {
	tests := []struct {
		all   bool
		deps  []int64
		reads []int64
	}{
		{false, []int64{3, 1, 3}, []int64{1, 3}},
		{true, []int64{3, 1, 3}, []int64{0}},
		{false, []int64{2}, []int64{2}},
	}
	for _, tt := range tests {
		st := &erpStock{all: tt.all, units: map[Variant]nxapi.Decimal{}}
		var counts []Count
		for i, dep := range tt.deps {
			counts = append(counts, count(fmt.Sprint("r", i), dep, int64(100+i), 0, 0, "1"))
		}
		p, err := Prepare(context.Background(), openJournal(t), st, counts, Options{Tenant: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(st.reads) != fmt.Sprint(tt.reads) || len(p.Reads) != len(tt.reads) {
			t.Errorf("all=%v deps %v: reads %v, want %v", tt.all, tt.deps, st.reads, tt.reads)
		}
		if got := ReadsNeeded(len(tt.reads), tt.all); tt.all && got != 1 || !tt.all && got != len(tt.reads) {
			t.Errorf("ReadsNeeded = %d", got)
		}
	}
}

func TestMissingAsZero(t *testing.T) {
	st, counts := base()
	p, err := Prepare(context.Background(), openJournal(t), st, counts, Options{Tenant: "t", MissingAsZero: true})
	if err != nil {
		t.Fatal(err)
	}
	like := counts[0]
	a102, a103 := AddedID(like, Variant{1, 102, 0, 0}), AddedID(like, Variant{1, 103, 0, 0})
	checkLines(t, p, map[string]want{
		"r2": {Send, "10", "2", nxapi.IngresoStock},
		"r3": {Send, "8", "-5", nxapi.EgresoStock},
		"r4": {Equal, "4", "0", 0},
		"r5": {Send, "0", "2.5", nxapi.IngresoStock},
		a102: {Send, "1", "-1", nxapi.EgresoStock},
		a103: {Send, "-2", "2", nxapi.IngresoStock},
	})
	for _, l := range p.Lines[4:] {
		if !l.Added || l.MotivoID != like.MotivoID || l.Fecha != like.Fecha || l.Counted != 0 {
			t.Errorf("added row %+v", l.Count)
		}
	}
	// The same count again adds the same rows under the same identities.
	st2, _ := base()
	p2, err := Prepare(context.Background(), openJournal(t), st2, counts, Options{Tenant: "t", MissingAsZero: true})
	if err != nil {
		t.Fatal(err)
	}
	if p2.Lines[4].ID != a102 || p2.Lines[5].ID != a103 {
		t.Errorf("added identities changed: %s %s", p2.Lines[4].ID, p2.Lines[5].ID)
	}
}

func TestReadFailureSendsNothing(t *testing.T) {
	st, counts := base()
	st.failOn, st.readErr = 1, errors.New("403 Debe esperar 600 segundos")
	p, err := Prepare(context.Background(), openJournal(t), st, counts, Options{Tenant: "t"})
	if err == nil || p != nil {
		t.Fatalf("Prepare = %v, %v; want the read's error", p, err)
	}
}

func TestRequestsChunk(t *testing.T) {
	st := &erpStock{units: map[Variant]nxapi.Decimal{}}
	var counts []Count
	for i := range 5 {
		counts = append(counts, count(fmt.Sprint("r", i), 1, int64(100+i), 0, 0, "1"))
	}
	p, err := Prepare(context.Background(), openJournal(t), st, counts, Options{Tenant: "t"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := p.Requests(2)
	if len(reqs) != 3 || len(reqs[0].Units) != 2 || len(reqs[2].Units) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	again := p.Requests(2)
	seen := map[string]bool{}
	for i, r := range reqs {
		if r.Key != again[i].Key || seen[r.Key] {
			t.Errorf("request %d key %s unstable or repeated", i, r.Key)
		}
		seen[r.Key] = true
		for k, u := range r.Units {
			if u.BodyHash != p.Lines[r.Lines[k]].Hash() || u.ID != p.Lines[r.Lines[k]].ID {
				t.Errorf("unit %+v is not its row's count", u)
			}
		}
	}
}

func TestHashIsOverTheCount(t *testing.T) {
	c := count("r2", 1, 100, 0, 0, "12")
	same := c
	same.ID, same.Row, same.Source = "other", 9, "elsewhere"
	if c.Hash() != same.Hash() {
		t.Error("the hash depends on where the row is")
	}
	for name, change := range map[string]func(*Count){
		"counted":  func(c *Count) { c.Counted = d("12.5") },
		"deposito": func(c *Count) { c.DepositoID = 2 },
		"articulo": func(c *Count) { c.ArticuloID = 7 },
		"talle":    func(c *Count) { c.TalleID = 7 },
		"color":    func(c *Count) { c.ColorID = 7 },
		"motivo":   func(c *Count) { c.MotivoID = 7 },
		"fecha":    func(c *Count) { c.Fecha = "2026-12-01" },
		"detalle":  func(c *Count) { c.Detalle = "segundo conteo" },
	} {
		x := c
		change(&x)
		if x.Hash() == c.Hash() {
			t.Errorf("changing %s keeps the hash", name)
		}
	}
}

func TestRepeated(t *testing.T) {
	counts := []Count{
		count("a", 1, 100, 0, 0, "1"),
		count("b", 1, 101, 5, 9, "1"),
		count("c", 2, 100, 0, 0, "1"), // another warehouse: not repeated
		count("d", 1, 101, 5, 9, "2"), // b again
		count("e", 1, 101, 6, 9, "2"), // another size
		count("f", 1, 101, 5, 9, "0"), // b a third time
	}
	got := Repeated(counts)
	if len(got) != 2 || got[3] != 1 || got[5] != 1 {
		t.Errorf("Repeated = %v, want rows 3 and 5 naming 1", got)
	}
	if s := RepeatedMessage(counts[3].Variant, 7).In(msg.ES); !strings.Contains(s, "artículo 101 (talle 5, color 9) del depósito 1 ya se contó en la fila 7") {
		t.Errorf("message %q", s)
	}
}

// TestMissingAsZeroSparesListedRows: a variant the file lists in a row
// with an error is not zeroed as missing.
func TestMissingAsZeroSparesListedRows(t *testing.T) {
	st, counts := base()
	p := prepare(t, openJournal(t), st, counts, Options{MissingAsZero: true, Listed: []Variant{{1, 102, 0, 0}}})
	for _, l := range p.Lines {
		if l.ArticuloID == 102 {
			t.Errorf("listed variant 102 added: %+v", l.Count)
		}
	}
	if len(p.Lines) != 5 {
		t.Errorf("%d lines, want the 4 counted and 103 added", len(p.Lines))
	}
}
