package writers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteSummaryJSONRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ventas.summary.json")
	if err := WriteSummaryJSON(path, testSummary); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got Summary
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := testSummary
	want.Statuses = nil // the sheet's table, not part of summary.json
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, want := range []string{
		"\n  \"file\": \"ventas.xlsx\",", // indented
		`"totalInvoiced": "1234.56"`,     // exact decimal text
		`"rows": {`,
		`"invalid": 1`,
		`"pvNumero": 3`,
		`"requestsSent": 2`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("summary.json lacks %s:\n%s", want, data)
		}
	}
}

func TestWriteSummaryJSONEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	s := Summary{Created: []Created{{Request: "stock #1 (1/1)"}}}
	if err := WriteSummaryJSON(path, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"kinds", "rows", "requests", "created"} {
		if m[k] == nil {
			t.Errorf("%s is null; cron jobs expect an empty list or object", k)
		}
	}
	if rows := m["created"].([]any)[0].(map[string]any)["rows"]; rows == nil {
		t.Errorf("created[0].rows is null")
	}
	if _, ok := m["warnings"]; ok {
		t.Errorf("warnings written although there are none")
	}
	if s.Created[0].Rows != nil {
		t.Errorf("the caller's summary was modified")
	}
}
