package inventario

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
	"github.com/nxbatch/nxbatch/nxapi"
)

// send journals every request of p the way submission does (the intent
// with its units, then the outcome outcome(i) of the i-th request; "" leaves
// it in flight, as a kill would) and records the equal rows. It returns
// the requests.
func send(t *testing.T, j *boltjournal.Journal, p *Plan, outcome func(i int) journal.State) []Request {
	t.Helper()
	reqs := p.Requests(500)
	for i, r := range reqs {
		k := journal.Key{Tenant: "t", Kind: Kind, Business: r.Key}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: r.BodyHash, Source: "conteo.csv", Units: r.Units}); err != nil {
			t.Fatalf("Begin %s: %v", k, err)
		}
		if st := outcome(i); st != "" {
			if err := j.Finish(context.Background(), k, journal.Outcome{State: st, FacturaID: int64(900 + i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := p.RecordEqual(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	return reqs
}

func ok(int) journal.State { return journal.OK }

func prepare(t *testing.T, j Journal, st *erpStock, counts []Count, o Options) *Plan {
	t.Helper()
	o.Tenant = "t"
	p, err := Prepare(context.Background(), j, st, counts, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRerunAfterSuccessSendsNothing: after every movement went ok, the
// ERP's stock moves (sales after the count) and the count runs again: no
// row is compared again, nothing is read or sent, and every row reports
// the difference first sent, equal rows included.
func TestRerunAfterSuccessSendsNothing(t *testing.T) {
	for _, zero := range []bool{false, true} {
		st, counts := base()
		j := openJournal(t)
		first := prepare(t, j, st, counts, Options{MissingAsZero: zero})
		send(t, j, first, ok)
		for v := range st.units {
			st.units[v] -= d("1") // every variant sold one since
		}
		st.units[Variant{1, 106, 0, 0}] = d("9") // and one came in
		reads := len(st.reads)
		again := prepare(t, j, st, counts, Options{MissingAsZero: zero})
		if len(again.Movements) != 0 || len(again.Requests(500)) != 0 {
			t.Errorf("zero=%v: the rerun sends %d movements", zero, len(again.Movements))
		}
		if len(st.reads) != reads || len(again.Reads) != 0 {
			t.Errorf("zero=%v: the rerun read the stock again (%v)", zero, st.reads)
		}
		for i, l := range again.Lines {
			f := first.Lines[i]
			if l.State != Done || l.Sent == nil || l.ERP != f.ERP || l.Diff != f.Diff || l.Tipo != f.Tipo || l.Qty != f.Qty || !l.ReadAt.Equal(f.ReadAt) {
				t.Errorf("zero=%v %s: rerun %+v, want done as first sent %+v", zero, l.ID, l, f)
			}
		}
	}
}

// TestChangedCountIsAConflict: a row sent, then counted again with another
// quantity under the same identity, is a conflict naming what was sent;
// the other rows are done.
func TestChangedCountIsAConflict(t *testing.T) {
	st, counts := base()
	j := openJournal(t)
	send(t, j, prepare(t, j, st, counts, Options{}), ok)
	counts[1].Counted = d("4") // r3 was 3: sent EGRESO_STOCK 5
	counts[2].Counted = d("6") // r4 was equal: nothing sent
	p := prepare(t, j, st, counts, Options{})
	if len(p.Movements) != 0 {
		t.Fatalf("a conflict was sent: %+v", p.Movements)
	}
	for _, l := range p.Lines {
		switch l.ID {
		case "r3":
			if l.State != Conflict || l.Sent.Contada != d("3") || l.Sent.Tipo != nxapi.EgresoStock || l.Sent.Moved() != d("-5") || l.Entry.FacturaID == 0 {
				t.Errorf("r3: %+v sent %+v, want a conflict naming EGRESO_STOCK 5 of a count of 3", l, l.Sent)
			}
		case "r4":
			if l.State != Conflict || l.Sent.Contada != d("4") || l.Sent.Linea != nil || l.Sent.Moved() != 0 {
				t.Errorf("r4: %+v sent %+v, want a conflict naming a count of 4 with nothing sent", l, l.Sent)
			}
		default:
			if l.State != Done {
				t.Errorf("%s: state %d, want done", l.ID, l.State)
			}
		}
	}
}

// TestUnknownIsNeverResent: a movement whose outcome is unknown keeps its
// rows from being compared or sent again, however the stock moved; with
// RetryUnknown the very line first sent goes again, never a recomputed
// one. A kill between the intent and the outcome is the same unknown.
func TestUnknownIsNeverResent(t *testing.T) {
	for _, kill := range []bool{false, true} {
		st, counts := base()
		path := filepath.Join(t.TempDir(), "journal.db")
		j, err := boltjournal.Open(path, journal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		first := prepare(t, j, st, counts, Options{})
		send(t, j, first, func(i int) journal.State {
			if i == 0 { // the ingreso movement (r2, r5)
				if kill {
					return ""
				}
				return journal.Unknown
			}
			return journal.OK
		})
		if kill {
			j.Close() // the process dies with the ingreso in flight
			if j, err = boltjournal.Open(path, journal.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		st.units[Variant{1, 100, 0, 0}] = d("12") // as if the ingreso was applied
		p := prepare(t, j, st, counts, Options{})
		for _, l := range p.Lines {
			wantState := Done
			if l.ID == "r2" || l.ID == "r5" {
				wantState = Unknown
			}
			if l.State != wantState {
				t.Errorf("kill=%v %s: state %d, want %d", kill, l.ID, l.State, wantState)
			}
		}
		if len(p.Movements) != 0 || len(p.Reads) != 0 {
			t.Errorf("kill=%v: an unknown was read or sent again: %+v", kill, p.Movements)
		}
		retry := prepare(t, j, st, counts, Options{RetryUnknown: true})
		reqs := retry.Requests(500)
		if len(reqs) != 1 || string(reqs[0].Body) != string(first.Requests(500)[0].Body) || len(retry.Reads) != 0 {
			t.Errorf("kill=%v: the retry sends %d requests, not the first line as sent", kill, len(reqs))
		}
		j.Close()
	}
}

// TestRejectedIsComparedAgain: a movement the API refused moved nothing:
// its rows are compared afresh against the stock read now.
func TestRejectedIsComparedAgain(t *testing.T) {
	st, counts := base()
	j := openJournal(t)
	send(t, j, prepare(t, j, st, counts, Options{}), func(i int) journal.State {
		if i == 1 { // the egreso movement (r3)
			return journal.Rejected
		}
		return journal.OK
	})
	st.units[Variant{1, 101, 5, 9}] = d("6") // two sold since
	p := prepare(t, j, st, counts, Options{})
	checkLines(t, p, map[string]want{
		"r2": {Done, "10", "2", nxapi.IngresoStock},
		"r3": {Send, "6", "-3", nxapi.EgresoStock},
		"r4": {Done, "4", "0", 0},
		"r5": {Done, "0", "2.5", nxapi.IngresoStock},
	})
	if len(p.Reads) != 1 {
		t.Errorf("reads %v, want one", p.Reads)
	}
	send(t, j, p, ok)
	if last := prepare(t, j, st, counts, Options{}); len(last.Movements) != 0 {
		t.Errorf("the third run sends %+v", last.Movements)
	}
}

// TestAddedRowsOnce: rows --faltantes-en-cero added and sent are not sent
// again when the variant has stock again (a purchase after the count).
func TestAddedRowsOnce(t *testing.T) {
	st, counts := base()
	j := openJournal(t)
	first := prepare(t, j, st, counts, Options{MissingAsZero: true})
	send(t, j, first, ok)
	// A row added to the file makes the warehouse compared again, and a
	// purchase gave 102, zeroed by the first run, stock again.
	counts = append(counts, count("r6", 1, 107, 0, 0, "1"))
	st.units[Variant{1, 102, 0, 0}] = d("1")
	p := prepare(t, j, st, counts, Options{MissingAsZero: true})
	for _, l := range p.Lines {
		want := Done
		if l.ID == "r6" {
			want = Send
		}
		if l.State != want {
			t.Errorf("%s (added %v): state %d, want %d", l.ID, l.Added, l.State, want)
		}
	}
	if n := len(p.Requests(500)); n != 1 {
		t.Errorf("%d requests, want r6's alone", n)
	}
}
