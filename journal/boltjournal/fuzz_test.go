package boltjournal

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
)

// FuzzParseKey: a key that parses renders back to the same text and
// validates; nothing panics.
func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"t1/venta/70001", "app1.test/stock/k#2", "a/b/c/d", "//", "a/b/", "a\x00/b/c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := journal.ParseKey(s)
		if err != nil {
			return
		}
		if k.String() != s || k.Validate() != nil {
			t.Fatalf("ParseKey(%q) = %+v", s, k)
		}
		back, err := keyFromBytes(keyBytes(k))
		if err != nil || back != k {
			t.Fatalf("stored form of %+v reads back as %+v, %v", k, back, err)
		}
	})
}

// FuzzDecodeEntry feeds arbitrary stored keys and records to the entry
// decoder: an error, or an entry of a known state that stores back to
// what decodes to itself.
func FuzzDecodeEntry(f *testing.F) {
	rec, _ := json.Marshal(record{BodyHash: "h", State: journal.OK, Attempts: 1, FacturaID: 7, Source: "ventas.csv rows 2-3",
		Units: []string{"u"}})
	f.Add([]byte("t\x00venta\x0070001"), rec)
	f.Add([]byte("t\x00venta"), []byte(`{"state":"ok"}`))
	f.Add([]byte("t\x00stock\x00k#1"), []byte(`{"state":"bogus"}`))
	f.Add([]byte("\x00\x00"), []byte(`{"state":"unknown","attempts":-1,"first":"x"}`))
	f.Add([]byte("a\x00b\x00c"), []byte(`null`))
	f.Fuzz(func(t *testing.T, k, v []byte) {
		e, err := decode(k, v)
		if err != nil {
			return
		}
		if !e.State.Valid() {
			t.Fatalf("decoded an entry of state %q", e.State)
		}
		again, err := json.Marshal(record{BodyHash: e.BodyHash, State: e.State, Attempts: e.Attempts, First: e.First, Last: e.Last, Held: e.Held,
			FacturaID: e.FacturaID, Numero: e.Numero, PVNumero: e.PVNumero, Message: e.Message, Note: e.Note, Source: e.Source,
			Updated: e.Updated, Units: e.Units, Evidence: e.Evidence, Facts: e.Facts})
		if err != nil {
			return // a time past year 9999 decodes but does not encode
		}
		e2, err := decode(keyBytes(e.Key), again)
		if err != nil || e2.Key != e.Key || e2.State != e.State || e2.FacturaID != e.FacturaID || e2.Source != e.Source {
			t.Fatalf("entry %+v stores back as %+v, %v", e, e2, err)
		}
	})
}

// FuzzParseHWM feeds arbitrary high-water records: refused, or an
// identity and a transaction id that the record's own line gives back.
func FuzzParseHWM(f *testing.F) {
	f.Add([]byte(fmt.Sprintf("%s %s %020d\n", hwmMagic, "abc123", 42)))
	f.Add([]byte(""))
	f.Add([]byte("   \n"))
	f.Add([]byte(hwmMagic + " id -1"))
	f.Add([]byte(hwmMagic + " id 99999999999999999999999"))
	f.Add([]byte("other id 1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		id, txid, ok := parseHWM(b)
		if !ok || (id == "" && txid == 0) {
			return
		}
		if txid < 0 || id == "" || strings.ContainsAny(id, " \t\n") {
			t.Fatalf("parseHWM(%q) = %q, %d", b, id, txid)
		}
		id2, txid2, ok := parseHWM([]byte(fmt.Sprintf("%s %s %020d\n", hwmMagic, id, txid)))
		if !ok || id2 != id || txid2 != txid {
			t.Fatalf("record %q %d reads back as %q %d (%v)", id, txid, id2, txid2, ok)
		}
	})
}
