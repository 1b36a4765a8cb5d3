package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/apiclient"
	"github.com/nxbatch/nxbatch/inventario"
	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// sandboxCurva answers GetDataCurva in-process, as the sandbox's own
// handler does (what run --sandbox reads, without the masses window).
type sandboxCurva struct {
	sb    *sandbox.Running
	reads []int64
}

func (c *sandboxCurva) GetDataCurva(_ context.Context, dep int64) ([]nxapi.ArticuloConCurva, error) {
	c.reads = append(c.reads, dep)
	return c.sb.Server.ArticulosCurva(dep)
}

// othersOf is the sandbox's stock outside warehouse dep.
func othersOf(sb *sandbox.Running, dep int64) string {
	var b strings.Builder
	for _, l := range sb.Server.State().Stock {
		if l.DepositoID != dep {
			fmt.Fprintf(&b, "%+v\n", l)
		}
	}
	return b.String()
}

// TestCountAgainstTheSandbox: a count of warehouse 3 with rows above, below
// and equal to its stock, varianted articles among them, sent through the
// real client to the sandbox: its stock then equals the counted
// quantities exactly and other warehouses are untouched; after a sale, a
// rerun sends nothing; --faltantes-en-cero then leaves every unlisted
// variant of the warehouse at 0.
func TestCountAgainstTheSandbox(t *testing.T) {
	for _, multi := range []bool{false, true} {
		t.Run(fmt.Sprintf("multiDeposito=%v", multi), func(t *testing.T) { countAgainstTheSandbox(t, multi) })
	}
}

func countAgainstTheSandbox(t *testing.T, multi bool) {
	opts := sandbox.Options{TimeScale: 0.001}
	if multi {
		opts.FlujoDeposito = nxapi.FlujoMultiDeposito
	}
	sb, err := sandbox.Start(sandbox.DemoData(), opts, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	client, err := apiclient.New(apiclient.Options{BaseURL: sb.URL, Token: apiclient.NewToken(sandbox.DefaultToken), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	type level struct {
		art, color, talle int64
		erp, counted      string
	}
	levels := []level{
		{100, 1, 1, "10", "12"},  // above
		{100, 2, 3, "8", "3"},    // below
		{101, 1, 2, "4", "4"},    // equal
		{105, 0, 0, "7", "7.5"},  // no variants, decimals
		{106, 0, 0, "-2", "0"},   // negative stock counted empty
		{102, 1, 1, "5", ""},     // not counted
		{103, 2, 2, "0", ""},     // not counted, none
		{107, 0, 0, "3.25", ""},  // not counted
		{104, 1, 3, "1", "1000"}, // above, much
	}
	csv := "depositoId,motivoId,fecha,articulos.articuloId,articulos.colorId,articulos.talleId,Stock contado\n"
	for _, l := range levels {
		if err := sb.Server.SetStock(l.art, l.color, l.talle, 3, *dec(l.erp)); err != nil {
			t.Fatal(err)
		}
		if l.counted != "" {
			csv += fmt.Sprintf("3,1,2026-11-30,%d,%d,%d,%s\n", l.art, l.color, l.talle, l.counted)
		}
	}
	others := othersOf(sb, 3)
	j, err := boltjournal.Open(t.TempDir()+"/journal", journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	o := SubmitOptions{Tenant: "sandbox", Workers: 1, TimeScale: 0.001}
	curva := &sandboxCurva{sb: sb}
	reader := inventario.CurvaReader{Fetch: curva, MultiDeposito: multi}
	send := func(c CountOptions) *File {
		t.Helper()
		f := load(t, "conteo.csv", csv, LoadOptions{MaxArticulos: 500})
		c.Stock = reader
		if err := PrepareCounts(context.Background(), []*File{f}, j, o, c); err != nil {
			t.Fatal(err)
		}
		if _, err := Prepare(context.Background(), []*File{f}, j, o); err != nil {
			t.Fatal(err)
		}
		if res := Submit(context.Background(), []*File{f}, client, j, o); res.Err != nil || res.Reason() != "" {
			t.Fatalf("submit: %+v", res)
		}
		return f
	}
	f := send(CountOptions{})
	if rows := statusCount(f); rows[StatusOK] != 5 || rows[StatusSkipped] != 1 {
		t.Errorf("rows %v, want 5 ok and 1 equal", rows)
	}
	for _, l := range levels {
		want := dec(l.counted)
		if l.counted == "" {
			want = dec(l.erp)
		}
		if got := sb.Server.StockOf(l.art, l.color, l.talle, 3); got != *want {
			t.Errorf("article %d/%d/%d: the sandbox holds %s, want %s", l.art, l.color, l.talle, got, want)
		}
	}
	if got := othersOf(sb, 3); got != others {
		t.Errorf("other warehouses changed:\n%s\nwas\n%s", got, others)
	}
	movements := len(sb.Server.State().Movements)
	wantRead := "[3]"
	if multi {
		wantRead = "[0]"
	}
	if movements != 2 || fmt.Sprint(curva.reads) != wantRead {
		t.Errorf("%d movements from reads %v, want 2 (ingresos, egresos) from %s", movements, curva.reads, wantRead)
	}

	// A sale after the count; the same count again sends nothing.
	if err := sb.Server.SetStock(100, 1, 1, 3, *dec("11")); err != nil {
		t.Fatal(err)
	}
	f = send(CountOptions{})
	if n := len(sb.Server.State().Movements); n != movements || statusCount(f)[StatusSkipped] != 6 {
		t.Errorf("the rerun sent %d movements; rows %v", n-movements, statusCount(f))
	}

	// Counted again on another day with --faltantes-en-cero: every
	// unlisted variant of warehouse 3 is left at 0, the others untouched.
	csv = strings.ReplaceAll(csv, "2026-11-30", "2026-12-01")
	fz := send(CountOptions{MissingAsZero: true})
	if len(fz.Sheets[0].CountAdded()) < 10 {
		t.Errorf("%d rows added, want the warehouse's unlisted variants", len(fz.Sheets[0].CountAdded()))
	}
	for _, r := range fz.Sheets[0].CountAdded() {
		if r.Status != StatusOK {
			t.Errorf("added row %s: %s %s", r.Key, r.Status, r.Result().Outcome.In(msg.ES))
		}
	}
	deleted := map[int64]bool{}
	for _, a := range sandbox.DemoData().Articulos {
		if a.Eliminado {
			deleted[a.ArticuloID] = true
		}
	}
	for _, l := range sb.Server.State().Stock {
		if l.DepositoID != 3 {
			continue
		}
		listed := false
		for _, c := range levels {
			if c.counted != "" && c.art == l.ArticuloID && c.color == l.ColorID && c.talle == l.TalleID {
				listed = true
				if l.Unidades != *dec(c.counted) {
					t.Errorf("counted %d/%d/%d at %s, want %s", l.ArticuloID, l.ColorID, l.TalleID, l.Unidades, c.counted)
				}
			}
		}
		if !listed && l.Unidades != 0 && !deleted[l.ArticuloID] {
			t.Errorf("unlisted %d/%d/%d left at %s, want 0", l.ArticuloID, l.ColorID, l.TalleID, l.Unidades)
		}
	}
	if got := othersOf(sb, 3); got != others {
		t.Errorf("--faltantes-en-cero changed other warehouses")
	}
}

// dec is a decimal from its text, for tables; "" is 0.
func dec(s string) *nxapi.Decimal {
	var d nxapi.Decimal
	if s != "" {
		var err error
		if d, err = nxapi.ParseDecimal(s); err != nil {
			panic(err)
		}
	}
	return &d
}
