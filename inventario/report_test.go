package inventario

import (
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
)

func resolveHint(k journal.Key) string { return "nxbatch journal resolve " + k.String() }

// rendered is every message of the plan in both languages, checked for
// formatting slips.
func rendered(t *testing.T, p *Plan) map[string]string {
	t.Helper()
	out := map[string]string{}
	for i := range p.Lines {
		l := &p.Lines[i]
		for _, lang := range []msg.Lang{msg.ES, msg.EN} {
			s := l.Message(resolveHint).In(lang)
			if strings.Contains(s, "%!") || strings.Contains(s, "cnt.") {
				t.Errorf("%s (%s): malformed %q", l.ID, lang, s)
			}
			if lang == msg.ES {
				out[l.ID] = s
			}
		}
	}
	return out
}

func TestLineMessagesSayWhatBecomesOfEachRow(t *testing.T) {
	st, counts := base()
	j := openJournal(t)
	p := prepare(t, j, st, counts, Options{MissingAsZero: true})
	got := rendered(t, p)
	a102 := AddedID(counts[0], Variant{1, 102, 0, 0})
	for id, parts := range map[string][]string{
		"r2": {"contado 12", "el ERP tenía 10", "INGRESO_STOCK de 2", "movimiento 1"},
		"r3": {"contado 3", "el ERP tenía 8", "EGRESO_STOCK de 5", "movimiento 2"},
		"r4": {"contado 4, igual al stock", "no se envía nada"},
		"r5": {"contado 2,5", "el ERP tenía 0", "INGRESO_STOCK de 2,5"},
		a102: {"agregada por --faltantes-en-cero", "el ERP tenía 1 en el depósito 1", "EGRESO_STOCK de 1"},
	} {
		for _, part := range parts {
			if !strings.Contains(got[id], part) {
				t.Errorf("%s: %q lacks %q", id, got[id], part)
			}
		}
	}
	send(t, j, p, func(i int) journal.State {
		if i == 1 {
			return journal.Unknown // the egreso movement
		}
		return journal.OK
	})
	counts[0].Counted = d("11")
	got = rendered(t, prepare(t, j, st, counts, Options{MissingAsZero: true}))
	for id, parts := range map[string][]string{
		"r2": {"ya se aplicó", "con 12 contados", "el ERP tenía 10", "se envió INGRESO_STOCK de 2 (movimiento 900)", "Ahora dice 11"},
		"r3": {"no se sabe", "EGRESO_STOCK de 5", "nxbatch journal resolve t/stock/m"},
		"r4": {"ya aplicado", "no hubo nada que enviar"},
		"r5": {"ya aplicado", "se envió INGRESO_STOCK de 2,5 (movimiento 900)"},
	} {
		for _, part := range parts {
			if !strings.Contains(got[id], part) {
				t.Errorf("rerun %s: %q lacks %q", id, got[id], part)
			}
		}
	}
}

func TestSummaryNamesTheReads(t *testing.T) {
	st, counts := base()
	counts = append(counts, count("r9", 2, 100, 0, 0, "50"))
	p := prepare(t, openJournal(t), st, counts, Options{})
	var lines []string
	for _, m := range p.Summary(500, 10*time.Minute) {
		lines = append(lines, m.In(msg.ES))
	}
	all := strings.Join(lines, "\n")
	for _, part := range []string{"Filas contadas: 5", "Con diferencia: 3 (ingresos: 2, egresos: 1), en solicitudes de movimiento: 2",
		"Iguales al stock del ERP: 2", "Lecturas: 2, que llevaron al menos 10 minutos", "depósito 1, leído el 01/12/2026",
		"depósito 2, leído el 01/12/2026", "contra el stock del ERP leído en ese momento"} {
		if !strings.Contains(all, part) {
			t.Errorf("summary lacks %q:\n%s", part, all)
		}
	}
	if s := ReadPlan(1, true, 10*time.Minute).In(msg.ES); !strings.Contains(s, "Lecturas: 1, que llevan al menos 0") {
		t.Errorf("ReadPlan = %q", s)
	}
	if s := ReadPlan(3, false, 10*time.Minute).In(msg.EN); !strings.Contains(s, "Reads: 3, taking at least 20 minutes") {
		t.Errorf("ReadPlan = %q", s)
	}
}
