package tenant

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

// FuzzParseRegistry feeds an arbitrary tenants.json, of either format:
// refused with a Spanish sentence naming the file, or a registry whose
// tenants list and which saves and parses back the same.
func FuzzParseRegistry(f *testing.F) {
	for _, s := range []string{
		`{"version":2,"tenants":{"t1":{"id":"t1","origin":"https://api.example","env":"production","appId":7,"fingerprint":"f","structure":{"nombre":"X","depositos":[1,2]},"resolved":"2026-01-02T03:04:05Z"}},"bindings":{"c":{"tenant":"t1","bound":"2026-01-02T03:04:05Z"}}}`,
		`{"abc@production":{"id":"app7.production","appId":7,"env":"production"}}`,
		`{"version":3}`, `{"version":"2"}`, `{"version":2,"tenants":null,"bindings":[]}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		reg, err := parse(b, "tenants.json")
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(ue.Msg.In(msg.ES), "tenants.json") {
				t.Fatalf("error %v (%T) does not name the file", err, err)
			}
			return
		}
		if reg.Tenants == nil || reg.Bindings == nil {
			t.Fatal("a parsed registry without its maps")
		}
		list := reg.sortedTenants()
		if len(list) != len(reg.Tenants) {
			t.Fatalf("%d tenants listed of %d", len(list), len(reg.Tenants))
		}
		reg.Version = fileVersion
		saved, err := json.Marshal(reg)
		if err != nil {
			return // a time past year 9999 parses but does not save
		}
		again, err := parse(saved, "tenants.json")
		if err != nil || len(again.Tenants) != len(reg.Tenants) || len(again.Bindings) != len(reg.Bindings) || len(again.Legacy) != len(reg.Legacy) {
			t.Fatalf("saved registry parses back as %+v, %v", again, err)
		}
	})
}

// TestDamagedRegistryInTheRunsLanguage: a damaged tenants.json is said
// without the JSON decoder's English (issue 23, hole 13).
func TestDamagedRegistryInTheRunsLanguage(t *testing.T) {
	for _, b := range []string{`{`, `{"version":2,"tenants":[]}`, `{"a":1}`} {
		_, err := parse([]byte(b), "tenants.json")
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Fatalf("%s: %v, want a *UsageError", b, err)
		}
		if es := ue.Msg.In(msg.ES); strings.Contains(es, "json:") || strings.Contains(es, "unexpected") || strings.Contains(es, "cannot") {
			t.Errorf("%s: English in %q", b, es)
		}
	}
}
