package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
)

// TestCountMissingAsZero: --faltantes-en-cero sends the unlisted variants
// of the counted warehouse to 0, as rows of their own that the journal
// keeps with the option as their source; other warehouses are untouched;
// a rerun sends nothing.
func TestCountMissingAsZero(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	st := erpOf()
	st.units[inventario.Variant{DepositoID: 2, ArticuloID: 100}] = nxapi.DecimalFromInt(5) // another warehouse
	content := "depositoId,motivoId,articuloId,Conteo\n1,3,100,12\n"
	o := fastOptions()
	work := func() *File {
		f := load(t, "conteo.csv", content, LoadOptions{MaxArticulos: 500})
		if err := PrepareCounts(context.Background(), []*File{f}, j, o, CountOptions{Stock: st, MissingAsZero: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
			t.Fatal(err)
		}
		if res := Submit(context.Background(), []*File{f}, send, j, o); res.Err != nil {
			t.Fatal(res.Err)
		}
		return f
	}
	f := work()
	added := f.Sheets[0].CountAdded()
	// 101/5/9 (8), 101/6/9 (4) and 102 (7) of warehouse 1 are not listed.
	if len(added) != 3 || send.count("stock") != 2 {
		t.Fatalf("%d added rows, %d movements; want 3 and 2 (the ingreso of row 2, the egresos)", len(added), send.count("stock"))
	}
	for _, r := range added {
		if r.Status != StatusOK {
			t.Errorf("added row %s: %s", r.Key, r.Status)
		}
	}
	if b := send.bodies["stock"][1]; !strings.Contains(b, `"tipo":7`) || strings.Count(b, "articuloId") != 3 || strings.Contains(b, `"depositoId":2`) {
		t.Errorf("egreso body %s", b)
	}
	units, _, err := j.Units(context.Background(), o.Tenant, "stock", []string{added[0].Key})
	if err != nil || !strings.Contains(units[added[0].Key].Source, "--faltantes-en-cero") {
		t.Errorf("added unit journaled as %+v (%v)", units[added[0].Key], err)
	}
	var lines []string
	for _, m := range f.Sheets[0].CountSummary(10 * time.Minute) {
		lines = append(lines, m.In(msg.ES))
	}
	if p := f.Sheets[0].CountPlan(); p == nil || len(p.Lines) != 4 || !strings.Contains(strings.Join(lines, "\n"), "(--faltantes-en-cero): 3") {
		t.Errorf("plan summary:\n%s", strings.Join(lines, "\n"))
	}
	// Every unlisted variant is now at 0 in the ERP: a rerun sends nothing.
	for _, v := range []inventario.Variant{{DepositoID: 1, ArticuloID: 101, TalleID: 5, ColorID: 9},
		{DepositoID: 1, ArticuloID: 101, TalleID: 6, ColorID: 9}, {DepositoID: 1, ArticuloID: 102}} {
		st.units[v] = 0
	}
	st.units[inventario.Variant{DepositoID: 1, ArticuloID: 100}] = nxapi.DecimalFromInt(12)
	work()
	if send.count("stock") != 2 {
		t.Errorf("the rerun sent %d movements", send.count("stock")-2)
	}
}

// TestCountTwiceInOneRun: two count files of one run counting the same
// variant would move it twice against one read: the later is a conflict
// naming the first, and only the first is sent.
func TestCountTwiceInOneRun(t *testing.T) {
	j := openJournal(t)
	send := &fakeSender{answer: okAnswers}
	a := load(t, "a.csv", "depositoId,motivoId,articuloId,Conteo\n1,3,100,12\n", LoadOptions{})
	b := load(t, "b.csv", "depositoId,motivoId,detalle,articuloId,Conteo\n1,3,otra,100,11\n1,3,otra,102,7\n", LoadOptions{})
	files := []*File{a, b}
	if n := CountWarehouses(files); n != 1 {
		t.Errorf("CountWarehouses = %d, want 1", n)
	}
	o := fastOptions()
	if err := PrepareCounts(context.Background(), files, j, o, CountOptions{Stock: erpOf()}); err != nil {
		t.Fatal(err)
	}
	if _, err := Prepare(context.Background(), files, j, o); err != nil {
		t.Fatal(err)
	}
	Submit(context.Background(), files, send, j, o)
	if send.count("stock") != 1 || !strings.Contains(send.bodies["stock"][0], `"cantidad":2`) {
		t.Fatalf("sent %v, want a.csv's ingreso alone", send.bodies["stock"])
	}
	v := b.Sheets[0].RowView(0, msg.ES)
	if v.Status != StatusConflict || !strings.Contains(v.Message, "a.csv") {
		t.Errorf("b.csv row 2: %s %q", v.Status, v.Message)
	}
	if v := b.Sheets[0].RowView(1, msg.ES); v.Status != StatusSkipped {
		t.Errorf("b.csv row 3 (equal): %s %q", v.Status, v.Message)
	}
}

// TestMissingAsZeroSparesRowsWithErrors: a mistyped count is never taken
// for a missing article: a row with an error keeps its variant from being
// zeroed, and a row whose article is unknown keeps every variant from it.
func TestMissingAsZeroSparesRowsWithErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		added   int
		blocked string
	}{
		{"negative count of 102", "depositoId,motivoId,articuloId,Conteo\n1,3,100,12\n1,3,102,-7\n", 2, ""},
		{"unreadable article", "depositoId,motivoId,articuloId,Conteo\n1,3,100,12\n1,3,ciento dos,7\n", 0, "hay filas con errores (3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openJournal(t)
			f := load(t, "conteo.csv", tt.content, LoadOptions{})
			if err := PrepareCounts(context.Background(), []*File{f}, j, fastOptions(), CountOptions{Stock: erpOf(), MissingAsZero: true}); err != nil {
				t.Fatal(err)
			}
			sh := f.Sheets[0]
			for _, l := range sh.CountPlan().Lines {
				if l.Added && l.ArticuloID == 102 {
					t.Errorf("102, listed in a row with an error, was added (%s)", l.ID)
				}
			}
			if len(sh.CountAdded()) != tt.added {
				t.Errorf("%d added, want %d", len(sh.CountAdded()), tt.added)
			}
			var all []string
			for _, m := range sh.CountSummary(10 * time.Minute) {
				all = append(all, m.In(msg.ES))
			}
			if got := strings.Join(all, "\n"); tt.blocked != "" && !strings.Contains(got, tt.blocked) {
				t.Errorf("summary lacks %q:\n%s", tt.blocked, got)
			}
		})
	}
}
