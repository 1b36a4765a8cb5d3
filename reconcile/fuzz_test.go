package reconcile

import (
	"encoding/json"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
)

// FuzzIntentFacts feeds any body a sale could have been sent with: the
// facts the journal keeps of it are empty or read back by JournalFacts as
// written (issue 23, hole 14).
func FuzzIntentFacts(f *testing.F) {
	for _, s := range []string{
		`{"ordenId":70001,"usuario":{"email":"a@x.com","dni":"30123456","cuit":null},"productos":[{"articuloId":105,"precio":1500,"cantidad":2}],"subtotal":3000,"total":3000,"medioPago":{"tipo":"EFECTIVO"}}`,
		`{"ordenId":"70001","total":"1.5e3","productos":null}`,
		`{"usuario":7}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		facts := IntentFacts(KindVenta, body)
		if IntentFacts(KindStock, body) != "" {
			t.Fatal("facts kept for a stock movement")
		}
		e := journal.Entry{Key: journal.Key{Tenant: "t", Kind: KindVenta, Business: "1"}, Facts: facts}
		got, ok := JournalFacts(e)
		if ok != (facts != "") {
			t.Fatalf("facts %q read back: %v", facts, ok)
		}
		if ok {
			again, err := json.Marshal(got)
			if err != nil || string(again) != facts {
				t.Fatalf("facts %s read back as %s (%v)", facts, again, err)
			}
		}
	})
}

// FuzzJournalFacts feeds any facts text a journal entry could hold (a
// journal written by another version, or damaged).
func FuzzJournalFacts(f *testing.F) {
	for _, s := range []string{`{"ordenId":70001,"total":300000,"email":"a@x.com"}`, `{"total":"x"}`, `null`, `{`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, facts string) {
		_, ok := JournalFacts(journal.Entry{Key: journal.Key{Tenant: "t", Kind: KindVenta, Business: "1"}, Facts: facts})
		if ok && facts == "" {
			t.Fatal("facts read from nothing")
		}
		if _, ok := JournalFacts(journal.Entry{Key: journal.Key{Tenant: "t", Kind: KindFacturar, Business: "1"}, Facts: facts}); ok {
			t.Fatal("facts read for a presale")
		}
	})
}
