package listener

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/nxbatch/nxbatch/nxapi"
)

func TestCheckEvent(t *testing.T) {
	deep := `[{"x":` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `}]`
	tests := []struct {
		name     string
		body     string
		maxItems int
		items    int
		err      error // nil, errNotJSON, errNotEvent, errNotObject; tooMany below
		tooMany  bool
	}{
		{"flat", `[{"articuloId":1,"unidades":2},{"articuloId":1,"talleId":3,"unidades":0}]`, 0, 2, nil, false},
		{"flat with warehouses", `[{"articuloId":1,"stockDepositos":[{"depositoId":1,"unidades":2},{"depositoId":2,"unidades":0}]}]`, 0, 3, nil, false},
		{"grouped", `{"articuloId":1,"stockTotal":3,"curva":[{"colorId":1,"unidades":1},{"colorId":2,"unidades":2,"stockDepositos":[{"depositoId":1,"unidades":2}]}]}`, 0, 4, nil, false},
		{"empty array", `[]`, 0, 0, nil, false},
		{"blanks around", " \n[ {\"articuloId\" : 1} ]\r\n", 0, 1, nil, false},
		{"unknown fields of any shape", `[{"articuloId":1,"tags":[1,[2,{"curva":[3]}]],"x":{"stockDepositos":[4]}}]`, 0, 1, nil, false},
		{"curve of the wrong type is the record's problem", `{"articuloId":1,"curva":5,"stockDepositos":{"a":1}}`, 0, 1, nil, false},
		{"null curve and warehouses", `{"articuloId":1,"curva":null,"stockDepositos":null}`, 0, 1, nil, false},
		{"junk elements", `[1,1,1]`, 0, 1, errNotObject, false},
		{"junk after a good element", `[{"articuloId":1},"x"]`, 0, 2, errNotObject, false},
		{"array element", `[[{"articuloId":1}]]`, 0, 1, errNotObject, false},
		{"junk curve entry", `{"articuloId":1,"curva":[{"colorId":1},2]}`, 0, 3, errNotObject, false},
		{"junk warehouse entry", `[{"articuloId":1,"stockDepositos":[null]}]`, 0, 2, errNotObject, false},
		{"curve found in any letter case", `{"articuloId":1,"CURVA":[7]}`, 0, 2, errNotObject, false},
		{"curve found behind escapes", `{"articuloId":1,"\u0063urva":[7]}`, 0, 2, errNotObject, false},
		{"number", `42`, 0, 0, errNotEvent, false},
		{"string", `"[{}]"`, 0, 0, errNotEvent, false},
		{"not JSON", `[{"articuloId":1,}]`, 0, 1, errNotJSON, false},
		{"truncated", `[{"articuloId":1}`, 0, 1, errNotJSON, false},
		{"two values", `[] []`, 0, 0, errNotJSON, false},
		{"bad escape", `[{"a\x":1}]`, 0, 1, errNotJSON, false},
		{"control character in a string", "[{\"a\n\":1}]", 0, 1, errNotJSON, false},
		{"leading zero", `[{"articuloId":01}]`, 0, 1, errNotJSON, false},
		{"deep but allowed", `[{"x":` + strings.Repeat("[", maxDepth-2) + strings.Repeat("]", maxDepth-2) + `}]`, 0, 1, nil, false},
		{"too deep", deep, 0, 1, errNotJSON, false},
		{"empty", ``, 0, 0, errNotJSON, false},
		{"at the cap", `[{},{},{}]`, 3, 3, nil, false},
		{"over the cap", `[{},{},{},{}]`, 3, 4, nil, true},
		{"warehouses count toward the cap", `[{"stockDepositos":[{},{},{}]}]`, 3, 4, nil, true},
		{"curve counts toward the cap", `{"curva":[{},{},{}]}`, 3, 4, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := checkEvent([]byte(tt.body), tt.maxItems)
			var tm *TooManyItemsError
			switch {
			case tt.tooMany:
				if !errors.As(err, &tm) || tm.Limit != tt.maxItems {
					t.Fatalf("err %v, want too many items (cap %d)", err, tt.maxItems)
				}
			case !errors.Is(err, tt.err) || (tt.err == nil && err != nil):
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if items != tt.items {
				t.Errorf("counted %d items, want %d", items, tt.items)
			}
			// The verdict on JSON is encoding/json's.
			if valid := json.Valid([]byte(tt.body)); (err == nil && !valid) || (errors.Is(err, errNotJSON) && valid) {
				t.Errorf("check %v but json.Valid %v", err, valid)
			}
		})
	}
}

// junkBodies are 4 MB bodies of the shapes that cost the old listener
// hundreds of megabytes: every element became a record, all at once.
func junkBodies() map[string][]byte {
	out := map[string][]byte{}
	for name, parts := range map[string][3]string{
		"numbers":            {"[", "1", "]"},
		"empty objects":      {"[", "{}", "]"},
		"a curve of numbers": {`{"articuloId":1,"curva":[`, "1", "]}"},
	} {
		var b bytes.Buffer
		b.WriteString(parts[0])
		for b.Len() < 4<<20-64 {
			b.WriteString(parts[1] + ",")
		}
		b.WriteString(parts[1] + parts[2])
		out[name] = b.Bytes()
	}
	return out
}

// A junk body costs memory for one element, not for all of them. The
// handler refuses it at its first bad element (or at the item cap),
// allocating little beyond the body; folding it (as events stored by older
// versions may be) never holds more than a few times the body. The old
// listener stored [1,1,1,...] and took 520 MB to fold it.
func TestJunkBodyCostsLittle(t *testing.T) {
	for name, body := range junkBodies() {
		t.Run(name, func(t *testing.T) {
			s := openStore(t, t.TempDir())
			defer s.Close()
			h := &Handler{Store: s}
			var status int
			alloc := allocated(func() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body)))
				status = rec.Code
			})
			if status != http.StatusBadRequest && status != http.StatusRequestEntityTooLarge {
				t.Errorf("junk answered %d", status)
			}
			if limit := uint64(2*len(body) + 1<<20); alloc > limit {
				t.Errorf("refusing %d bytes of junk allocated %d bytes, want at most %d", len(body), alloc, limit)
			}

			st := NewState()
			peak := peakHeap(func() { st.Apply(Event{Seq: 1, At: t0, Hash: Hash(body), Body: body}, time.Hour) })
			if limit := uint64(8 * len(body)); peak > limit {
				t.Errorf("folding %d bytes of junk took the heap %d bytes higher, want at most %d", len(body), peak, limit)
			}
			t.Logf("handler allocated %d KB, fold peak %d KB", alloc>>10, peak>>10)
			if len(st.Rows(time.Time{})) != 0 {
				t.Error("junk made rows")
			}
		})
	}
}

// FuzzFold holds the listener's check and fold to what they promise for any
// body: no panic; the check agrees with encoding/json on what JSON is and
// counts at least what the fold decodes; the hand decoder makes of every
// record what encoding/json made of it; and the fold leaves a consistent
// snapshot (one entry per variant and per warehouse, its index right, rows
// in order), is idempotent, and survives the snapshot's JSON round trip.
func FuzzFold(f *testing.F) {
	for _, s := range []string{
		`[{"articuloId":100,"codigo":"REM-1","colorId":1,"talleId":2,"unidades":7},{"articuloId":100,"colorId":1,"talleId":1,"unidades":3}]`,
		`{"articuloId":100,"codigo":"REM-1","stockTotal":10,"curva":[{"colorId":1,"talleId":2,"unidades":7},{"colorId":1,"talleId":2,"unidades":3}]}`,
		`[{"articuloId":110,"unidades":5,"stockDepositos":[{"depositoId":3,"unidades":0},{"depositoId":1,"unidades":5},{"depositoId":3,"unidades":4.5}]}]`,
		`{"articuloId":200,"eliminado":true}`,
		`[1,{"articuloId":"7","unidades":"2.5"},{"articuloId":-1},{"articuloId":3,"unidades":"x"}]`,
		`{"articuloId":1,"Curva":[{"stockDepositos":[{"depositoId":2}]}],"\u0063urva":[]}`,
		`[{"articuloId":1,"curva":null,"stockTotal":null}]`,
		`nonsense`, `[`, `{"a":[[[[]]]]}`,
		// What encoding/json does with repeated keys, nulls, letter case,
		// escapes and numbers that do not fit, which the decoder mirrors.
		`[{"articuloId":1,"stockDepositos":[{"depositoId":1,"unidades":5}],"stockDepositos":[{"unidades":3},null]}]`,
		`{"articuloId":2,"curva":[{"colorId":1,"stockDepositos":[{"depositoId":4}]}],"curva":[null,{"talleId":2}]}`,
		"[{\"articuloId\":3,\"stoc\u212aDepositos\":[{\"depositoId\":2}]},{\"articuloId\":3,\"stockDepositos\":[{\"depositoId\":1.5}]}]",
		`[{"articuloId":"4","codigo":"\u00e9\ud800x","unidades":"1.25"},{"articuloId":4,"codigo":"a\"b"}]`,
		`[{"articuloId":5,"eliminado":null,"codigo":null,"stockTotal":null,"curva":[]},{"articuloId":5,"eliminado":"true"}]`,
		`[{"articuloId":6,"unidades":5,"unidades":null},{"articuloId":7,"colorId":3,"colorId":null},{"articuloId":null}]`,
		`[{"ARTICULOID":8,"Unidades":2},{"articuloId":9,"stockDepositos":[{"depositoId":-0},{"depositoId":9223372036854775808}]}]`,
		`[{"articuloId":10,"curva":{"colorId":1}},{"articuloId":11,"stockTotal":"x"},{"articuloId":12.5},{"articuloId":[1]}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		items, err := checkEvent(body, 0)
		valid := json.Valid(body)
		if (err == nil && !valid) || (errors.Is(err, errNotJSON) && valid) || (!valid && err == nil) {
			t.Fatalf("check says %v, json.Valid %v", err, valid)
		}
		var got []*record
		decoded, derr := decodeEvent(body, func(r *record) {
			if r != nil {
				kept := *r // r is reused for the next record
				r = &kept
			}
			got = append(got, r)
		})
		if err == nil && (derr != nil || decoded > items) {
			t.Fatalf("checked %d items, fold decoded %d (%v)", items, decoded, derr)
		}
		if valid {
			// The hand decoder makes of every record what json.Unmarshal
			// made of it into the listener's former record struct.
			if derr != nil {
				t.Fatalf("decoding valid JSON: %v", derr)
			}
			if diff := gocmp.Diff(referenceDecode(body), recognized(got), gocmp.AllowUnexported(record{}, curva{}), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("records differ from encoding/json's (-json +decoder):\n%s", diff)
			}
		}

		st := NewState()
		ev := Event{Seq: 1, At: t0, Hash: Hash(body), Body: body}
		st.Apply(ev, time.Hour)
		checkConsistent(t, st)
		rows := st.Rows(time.Time{})

		// The same content again (another hash: not a replay) changes no
		// stock, only when it was reported.
		again := ev
		again.Seq, again.At, again.Hash = 2, t0.Add(time.Minute), "other"
		st.Apply(again, time.Hour)
		checkConsistent(t, st)
		ignoreTime := cmpopts.IgnoreFields(Row{}, "Actualizado")
		if diff := gocmp.Diff(rows, st.Rows(time.Time{}), ignoreTime); diff != "" {
			t.Fatalf("applying the same event twice changed the stock (-first +second):\n%s", diff)
		}

		// A snapshot written and read back folds the next event the same.
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		back := NewState()
		if err := json.Unmarshal(b, back); err != nil {
			t.Fatal(err)
		}
		third := Event{Seq: 3, At: t0.Add(2 * time.Minute), Hash: "third", Body: body}
		st.Apply(third, time.Hour)
		back.Apply(third, time.Hour)
		checkConsistent(t, back)
		if diff := gocmp.Diff(st.Rows(time.Time{}), back.Rows(time.Time{})); diff != "" {
			t.Fatalf("the snapshot's round trip changed the fold (-live +reloaded):\n%s", diff)
		}
	})
}

// refRecord is the record struct the listener decoded with encoding/json
// before it decoded by hand: the reference for what a record means.
type refRecord struct {
	ArticuloID     *nxapi.ID             `json:"articuloId"`
	Codigo         string                `json:"codigo"`
	ColorID        nxapi.ID              `json:"colorId"`
	TalleID        nxapi.ID              `json:"talleId"`
	Unidades       nxapi.Decimal         `json:"unidades"`
	Eliminado      bool                  `json:"eliminado"`
	StockDepositos []nxapi.StockDeposito `json:"stockDepositos"`
	StockTotal     *nxapi.Decimal        `json:"stockTotal"`
	Curva          *[]struct {
		ColorID        nxapi.ID              `json:"colorId"`
		TalleID        nxapi.ID              `json:"talleId"`
		Unidades       nxapi.Decimal         `json:"unidades"`
		StockDepositos []nxapi.StockDeposito `json:"stockDepositos"`
	} `json:"curva"`
}

// referenceDecode is the former decodeRecords with encoding/json, its
// records converted, and those without an article id left out as nil.
func referenceDecode(body []byte) []*record {
	body = bytes.TrimSpace(body)
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return []*record{nil}
		}
	} else {
		raws = []json.RawMessage{body}
	}
	var out []*record
	for _, raw := range raws {
		var rr refRecord
		if json.Unmarshal(raw, &rr) != nil || rr.ArticuloID == nil {
			out = append(out, nil)
			continue
		}
		r := &record{ArticuloID: rr.ArticuloID, Codigo: rr.Codigo, ColorID: rr.ColorID, TalleID: rr.TalleID,
			Unidades: rr.Unidades, Eliminado: rr.Eliminado, StockDepositos: rr.StockDepositos, StockTotal: rr.StockTotal}
		if rr.Curva != nil {
			r.Curva.present = true
			for _, c := range *rr.Curva {
				r.Curva.items = append(r.Curva.items, curvaItem(c))
			}
		}
		out = append(out, r)
	}
	return out
}

// recognized leaves out, as nil, the records without an article id.
func recognized(rs []*record) []*record {
	out := make([]*record, len(rs))
	for i, r := range rs {
		if r != nil && r.ArticuloID != nil {
			out[i] = r
		}
	}
	return out
}

// checkConsistent fails t unless every article has one variant per color
// and size, reachable through its index, one entry per warehouse in order,
// and the rows are strictly ordered.
func checkConsistent(t *testing.T, st *State) {
	t.Helper()
	for id, a := range st.Articulos {
		if id <= 0 {
			t.Fatalf("article id %d", id)
		}
		seen := map[varKey]bool{}
		for _, v := range a.Variantes {
			k := varKey{v.ColorID, v.TalleID}
			if seen[k] {
				t.Fatalf("article %d has variant %v twice", id, k)
			}
			seen[k] = true
			if a.index != nil && a.index[k] != v {
				t.Fatalf("article %d: the index does not lead to variant %v", id, k)
			}
			byID := func(x, y nxapi.StockDeposito) int { return cmp.Compare(x.DepositoID, y.DepositoID) }
			sameID := func(x, y nxapi.StockDeposito) bool { return x.DepositoID == y.DepositoID }
			if !slices.IsSortedFunc(v.Depositos, byID) || len(slices.CompactFunc(slices.Clone(v.Depositos), sameID)) != len(v.Depositos) {
				t.Fatalf("article %d variant %v: warehouses %v not one each in order", id, k, v.Depositos)
			}
		}
		if a.index != nil && len(a.index) != len(a.Variantes) {
			t.Fatalf("article %d: index of %d for %d variants", id, len(a.index), len(a.Variantes))
		}
	}
	rows := st.Rows(time.Time{})
	order := func(x, y Row) int {
		return cmp.Or(cmp.Compare(x.ArticuloID, y.ArticuloID), cmp.Compare(x.ColorID, y.ColorID),
			cmp.Compare(x.TalleID, y.TalleID), cmp.Compare(x.DepositoID, y.DepositoID))
	}
	for i := 1; i < len(rows); i++ {
		if order(rows[i-1], rows[i]) >= 0 {
			t.Fatalf("rows out of order or repeated: %+v then %+v", rows[i-1], rows[i])
		}
	}
}

// peakHeap returns how much higher than before fn the heap's objects went
// while fn ran, sampled every 200 µs.
func peakHeap(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	return max(peak.Load(), base) - base
}

// allocated returns the bytes fn allocated.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
