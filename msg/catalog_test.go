package msg

import (
	"regexp"
	"testing"
)

var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

func TestEveryKeyHasBothLanguagesWithSameVerbs(t *testing.T) {
	if len(Keys()) == 0 {
		t.Fatal("catalog is empty")
	}
	for _, k := range Keys() {
		tx, _ := Lookup(k)
		if tx.ES == "" || tx.EN == "" {
			t.Errorf("%s: missing a language: %+v", k, tx)
			continue
		}
		es, en := verb.FindAllString(tx.ES, -1), verb.FindAllString(tx.EN, -1)
		if len(es) != len(en) {
			t.Errorf("%s: ES has verbs %v, EN has %v", k, es, en)
			continue
		}
		for i := range es {
			if es[i] != en[i] {
				t.Errorf("%s: verb %d differs: ES %s, EN %s", k, i, es[i], en[i])
			}
		}
	}
}

func TestInRendersLanguageAndUnknownKey(t *testing.T) {
	register(map[string]Text{"test.hello": {ES: "hola %s", EN: "hello %s"}})
	defer delete(catalog, "test.hello")
	if got := New("test.hello", "Ana").In(ES); got != "hola Ana" {
		t.Errorf("ES = %q", got)
	}
	if got := New("test.hello", "Ana").In(EN); got != "hello Ana" {
		t.Errorf("EN = %q", got)
	}
	if got := New("no.such", 3).In(ES); got != "no.such: 3" {
		t.Errorf("unknown = %q", got)
	}
}

func TestSourceInTheRunsLanguage(t *testing.T) {
	tests := []struct {
		src  string
		l    Lang
		want string
	}{
		{"ventas.csv rows 2-5, 9", ES, "ventas.csv filas 2-5, 9"},
		{"ventas.csv rows 2-5, 9", EN, "ventas.csv rows 2-5, 9"},
		{"libro.xlsx [Stock] row 7", ES, "libro.xlsx [Stock] fila 7"},
		{"sin filas", ES, "sin filas"},
	}
	for _, tc := range tests {
		if got := Source(tc.src, tc.l); got != tc.want {
			t.Errorf("Source(%q, %s) = %q, want %q", tc.src, tc.l, got, tc.want)
		}
	}
}
