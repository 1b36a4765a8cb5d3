package msg

import (
	"regexp"
	"strings"
	"testing"
)

// TestSpanishCatalogGrammar catches the slips users saw in the Spanish
// catalog: a feminine article on a masculine noun, an imperative with a
// pronoun and no accent, a plural after "1", a name repeated in
// parentheses, and the voseo of a few messages among a catalog that
// addresses the user as "usted".
func TestSpanishCatalogGrammar(t *testing.T) {
	slips := []struct {
		name string
		re   *regexp.Regexp
	}{
		{"feminine article on a masculine noun", regexp.MustCompile(`(?i)\bla (movimiento|artículo|depósito|motivo|pedido)\b`)},
		{"masculine article on a feminine noun", regexp.MustCompile(`(?i)\bel (venta|preventa|fila|columna|solicitud)\b`)},
		{"imperative with a pronoun and no accent", regexp.MustCompile(`\b(facture|revise|corrija|cargue|complete|guarde|abra|envie|ejecute|cambie|borre|quite)(la|lo|las|los)\b`)},
		{"voseo", regexp.MustCompile(`\b(definí|indicá|usá|revisá|sacalos|guardá|volvé|ejecutá|dejá|probá|fijate|poné|elegí|escribí)\b`)},
		{"a plural after one", regexp.MustCompile(`\b1 (filas|ventas|movimientos|solicitudes|preventas)\b`)},
		// The rest of the catalog writes "solo" without an accent, as the
		// RAE does since 2010.
		{"solo with an accent", regexp.MustCompile(`\bsólo\b`)},
		// Words of the code, not of an accountant: a tenant is the
		// integration, the cache is the copies kept, a request in flight
		// is one being sent, the API holding a key is the API still
		// processing a request.
		{"jargon", regexp.MustCompile(`(?i)\b(inquilino|caché|en vuelo|retiene la clave|libere las claves)\b`)},
		{"an infinitive where the catalog speaks to usted", regexp.MustCompile(`\((ver|revisar|conciliar) |: conciliar\b`)},
	}
	twice := regexp.MustCompile(`\(([\w.]+)\) \(([\w.]+)\)`)
	// A count followed by a plural noun reads "1 eventos" when the count
	// is one: such a text needs a ".one" variant (and msg.Count), or the
	// count after the noun ("eventos: 1").
	counted := regexp.MustCompile(`%(?:\[\d+\])?d (eventos|filas|celdas|columnas|decisiones|desconocidos|solicitudes|rechazos|dígitos|valores|entradas|ventanas|rechazadas|decididos|archivos)\b`)
	neverOne := map[string]bool{
		"rep.name.samename": true, // two files or more share a name
		"web.toomanyrows":   true, // more rows than the page's maximum
		"rd.ragged":         true, // more cells than the header's columns
	}
	for _, k := range Keys() {
		es := catalog[k].ES
		for _, m := range twice.FindAllStringSubmatch(es, -1) {
			if m[1] == m[2] {
				t.Errorf("%s: a name repeated in parentheses: %q", k, m[0])
			}
		}
		for _, s := range slips {
			if m := s.re.FindString(es); m != "" {
				t.Errorf("%s: %s: %q in %q", k, s.name, m, es)
			}
		}
		if _, one := catalog[k+".one"]; !one && !strings.HasSuffix(k, ".one") && !neverOne[k] {
			if m := counted.FindString(es); m != "" {
				t.Errorf("%s: a count before a plural with no singular: %q in %q", k, m, es)
			}
		}
	}
}

// TestCountsAgree: every counted noun has a singular, and Count uses it.
func TestCountsAgree(t *testing.T) {
	tests := []struct {
		key  string
		n    int
		want string
	}{
		{"n.rows", 1, "1 fila"},
		{"n.rows", 2, "2 filas"},
		{"plan.kind.stock", 1, "1 movimiento de stock"},
		{"plan.kind.venta", 1, "1 venta"},
		{"n.requests", 1, "1 solicitud"},
		{"st.count.valid", 1, "1 válida"},
		{"st.count.valid", 0, "0 válidas"},
		{"lst.exported", 1, "1 fila de stock escrita en s.csv"},
		{"tpl.list.yes", 1, "sí (1 valor)"},
	}
	for _, tc := range tests {
		var args []any
		if strings.Contains(tc.want, "s.csv") {
			args = append(args, "s.csv")
		}
		if got := Count(tc.key, tc.n, args...).In(ES); got != tc.want {
			t.Errorf("Count(%s, %d) = %q, want %q", tc.key, tc.n, got, tc.want)
		}
	}
	for _, k := range Keys() {
		if strings.HasSuffix(k, ".one") {
			plural := strings.TrimSuffix(k, ".one")
			if _, ok := catalog[plural]; !ok {
				t.Errorf("%s has no plural %s", k, plural)
			}
			if catalog[k].ES == catalog[plural].ES {
				t.Errorf("%s is the same as its plural", k)
			}
		}
	}
}
