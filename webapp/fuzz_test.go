package webapp

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzFormQuery feeds any query string to the preview's form reader: a
// page of 1 or more, and a query that renders back to itself (issue 23,
// hole 14).
func FuzzFormQuery(f *testing.F) {
	for _, s := range []string{"sheet=1&page=3&only=errores", "page=-1&sheet=x", "page=99999999999999999999", "only=ERRORES&only=errores", "%zz", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, _ := url.ParseQuery(raw)
		q := parseQuery(v)
		if q.Page < 1 {
			t.Fatalf("page %d from %q", q.Page, raw)
		}
		if again := parseQuery(q.values()); again != q {
			t.Fatalf("query %+v renders back as %+v", q, again)
		}
	})
}

// FuzzFixForm feeds any fix form: refused, or numbers and a value within
// its length without the line end a textarea adds.
func FuzzFixForm(f *testing.F) {
	for _, s := range []string{"sheet=0&row=3&col=2&version=1&value=12%2C5%0D%0A", "row=a&col=1&version=1", "row=-1&col=-1&version=0&value=", "row=1&col=1&version=1&value=" + strings.Repeat("x", 10)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, _ := url.ParseQuery(raw)
		fx, ok := parseFix(v)
		if !ok {
			return
		}
		if len(fx.value) > maxFixValue || strings.HasSuffix(fx.value, "\n") || strings.HasSuffix(fx.value, "\r") {
			t.Fatalf("value %q accepted", fx.value)
		}
	})
}

// FuzzLocalPath feeds any "back" target of the language switch: always a
// path of this site, never another's ("//evil", "/\\evil"), stable.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/u/abc?sheet=1", "//evil.example", "/\\evil", "https://evil.example", "/a/../../b", "/\r\nSet-Cookie: x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got := localPath(p)
		if !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\\\r\n") {
			t.Fatalf("localPath(%q) = %q", p, got)
		}
		if localPath(got) != got {
			t.Fatalf("localPath(%q) = %q, not stable", p, got)
		}
	})
}

// FuzzEditLine: whatever a cell held and was fixed to, its line of
// edits.jsonl is one line that reads back as written.
func FuzzEditLine(f *testing.F) {
	f.Add("Ventas", 12, "total", "1.500,00", "1500\n\u2028x")
	f.Add("", -1, "", "\x00", "\"}\n{\"row\":1")
	f.Fuzz(func(t *testing.T, sheet string, row int, column, from, to string) {
		ed := edit{At: time.Unix(1e9, 0).UTC(), Sheet: sheet, Row: row, Column: column, From: from, To: to}
		b, err := json.Marshal(ed)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(string(b), "\n\r") {
			t.Fatalf("a line with a line break: %s", b)
		}
		var back edit
		if err := json.Unmarshal(b, &back); err != nil || !back.At.Equal(ed.At) || back.Row != ed.Row ||
			(utf8.ValidString(sheet) && back.Sheet != sheet) || (utf8.ValidString(to) && back.To != to) {
			t.Fatalf("edit %+v reads back as %+v, %v", ed, back, err)
		}
	})
}
