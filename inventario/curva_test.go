package inventario

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

// curvaAnswers answers GetDataCurva from fixed records, as the API would.
type curvaAnswers struct {
	recs  []nxapi.ArticuloConCurva
	asked []int64
	err   error
}

func (c *curvaAnswers) GetDataCurva(_ context.Context, dep int64) ([]nxapi.ArticuloConCurva, error) {
	c.asked = append(c.asked, dep)
	return c.recs, c.err
}

func TestSnapshotOf(t *testing.T) {
	recs := []nxapi.ArticuloConCurva{
		{ArticuloID: 100, TalleID: 1, ColorID: 2, Unidades: d("7"), StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: d("3")}, {DepositoID: 2, Unidades: d("4")}}},
		{ArticuloID: 105, Unidades: d("-1.5"), StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: d("-1.5")}}},
		{ArticuloID: 106, Unidades: d("9"), Eliminado: true, StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: d("9")}}},
	}
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	one := SnapshotOf(recs, 2, at)
	if len(one.Units) != 2 || one.Units[Variant{2, 100, 1, 2}] != d("7") || one.Units[Variant{2, 105, 0, 0}] != d("-1.5") || !one.At.Equal(at) {
		t.Errorf("one warehouse: %v", one.Units)
	}
	all := SnapshotOf(recs, 0, at)
	want := map[Variant]nxapi.Decimal{{1, 100, 1, 2}: d("3"), {2, 100, 1, 2}: d("4"), {1, 105, 0, 0}: d("-1.5")}
	if len(all.Units) != len(want) {
		t.Errorf("every warehouse: %v, want %v", all.Units, want)
	}
	for v, u := range want {
		if all.Units[v] != u {
			t.Errorf("every warehouse: %+v = %s, want %s", v, all.Units[v], u)
		}
	}
}

func TestCurvaReaderReadsTheFewest(t *testing.T) {
	for _, multi := range []bool{false, true} {
		f := &curvaAnswers{recs: []nxapi.ArticuloConCurva{{ArticuloID: 100, Unidades: d("5"),
			StockDepositos: []nxapi.StockDeposito{{DepositoID: 1, Unidades: d("2")}, {DepositoID: 3, Unidades: d("3")}}}}}
		r := CurvaReader{Fetch: f, MultiDeposito: multi, Now: func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) }}
		counts := []Count{count("a", 1, 100, 0, 0, "2"), count("b", 3, 100, 0, 0, "4")}
		p, err := Prepare(context.Background(), openJournal(t), r, counts, Options{Tenant: "t"})
		if err != nil {
			t.Fatal(err)
		}
		wantAsked := "[1 3]"
		wantB := d("5") // a one-warehouse read's unidades
		if multi {
			wantAsked, wantB = "[0]", d("3")
		}
		if got := fmt.Sprint(f.asked); got != wantAsked {
			t.Errorf("multi=%v: asked %s, want %s", multi, got, wantAsked)
		}
		if p.Lines[1].ERP != wantB {
			t.Errorf("multi=%v: warehouse 3's stock %s, want %s", multi, p.Lines[1].ERP, wantB)
		}
	}
	f := &curvaAnswers{err: errors.New("403 Debe esperar 600 segundos")}
	if _, err := (CurvaReader{Fetch: f}).ReadStock(context.Background(), 1); err == nil {
		t.Error("a refused read gave no error")
	}
}
