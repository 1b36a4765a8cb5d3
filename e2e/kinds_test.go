package e2e

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/sandbox"
)

// sample is the absolute path of a file of the repo's sample folder (runs
// work in a temp dir).
func sample(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSamplesEveryKind runs each sample file against a fresh sandbox: every
// row must end ok with the ids the sandbox holds, and a rerun must skip
// every row without one more request reaching a creating endpoint.
func TestSamplesEveryKind(t *testing.T) {
	tests := []struct {
		file     string
		endpoint string
		check    func(t *testing.T, st sandbox.State, r row)
	}{
		{"ventas.csv", postVenta, func(t *testing.T, st sandbox.State, r row) {
			vs := vouchersByOrden(st)[id(t, r["ordenId"])]
			if len(vs) != 1 {
				t.Fatalf("ordenId %s has %d vouchers, want 1", r["ordenId"], len(vs))
			}
			sameIDs(t, r, vs[0])
		}},
		{"facturar.csv", postFacturar, func(t *testing.T, st sandbox.State, r row) {
			presale := id(t, r["facturaId"])
			i := slices.IndexFunc(st.Vouchers, func(v sandbox.Voucher) bool { return v.PresaleID == presale })
			if i < 0 {
				t.Fatalf("presale %d has no voucher", presale)
			}
			sameIDs(t, r, st.Vouchers[i])
		}},
		{"stock.csv", postStock, func(t *testing.T, st sandbox.State, r row) {
			// A movement's id is reported in its own column.
			mov := id(t, r["result.movimientoId"])
			i := slices.IndexFunc(st.Movements, func(m sandbox.Movement) bool { return m.ID == mov })
			if i < 0 {
				t.Fatalf("row %s: movement %d not in the sandbox", r["result.row"], mov)
			}
			m := st.Movements[i].Body
			art := id(t, r["articulos.articuloId"])
			if m.DepositoID != id(t, r["depositoId"]) ||
				!slices.ContainsFunc(m.Articulos, func(a nxapi.StockArticulo) bool { return a.ArticuloID == art }) {
				t.Errorf("row %s (deposito %s, articulo %d) reported as movement %d, which is %+v",
					r["result.row"], r["depositoId"], art, mov, m)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			sb := startSandbox(t, sandbox.Options{})
			w := newWorkspace(t, sb.URL)
			input := sample(t, tc.file)
			if res := w.nx(t, w.runArgs(input)...); res.code != 0 {
				t.Fatalf("first run: %s", res)
			}
			st := sb.Server.State()
			rows := w.readReport(t, input)
			if len(rows) == 0 {
				t.Fatal("no rows in the report")
			}
			for _, r := range rows {
				if r["result.status"] != "ok" {
					t.Errorf("row %s: status %q (%s), want ok", r["result.row"], r["result.status"], r["result.message"])
					continue
				}
				tc.check(t, st, r)
			}
			noDuplicates(t, st)
			sent := sum(st, tc.endpoint)
			if s := w.readSummary(t, input); s.RequestsSent != sent || len(s.Created) != s.Requests["ok"] {
				t.Errorf("summary: requestsSent %d (sandbox got %d), created %d ids for %d ok requests",
					s.RequestsSent, sent, len(s.Created), s.Requests["ok"])
			}

			res := w.nx(t, w.runArgs(input)...)
			if res.code != 0 {
				t.Fatalf("rerun: %s", res)
			}
			again := w.readReport(t, input)
			if s := w.readSummary(t, input); s.RequestsSent != 0 || s.Rows["skipped"] != len(rows) {
				t.Errorf("rerun summary: requestsSent %d, skipped rows %d of %d", s.RequestsSent, s.Rows["skipped"], len(rows))
			}
			for i, r := range again {
				if r["result.status"] != "skipped" {
					t.Errorf("rerun row %s: status %q, want skipped", r["result.row"], r["result.status"])
				}
				for _, col := range []string{"result.facturaId", "result.numero", "result.pvNumero"} {
					if r[col] != rows[i][col] {
						t.Errorf("rerun row %s: %s %q, first run said %q", r["result.row"], col, r[col], rows[i][col])
					}
				}
			}
			for _, ep := range []string{postVenta, postFacturar, postStock} {
				before := 0
				if ep == tc.endpoint {
					before = sent
				}
				if n := sum(sb.Server.State(), ep); n != before {
					t.Errorf("%s: %d requests after the rerun, %d before", ep, n, before)
				}
			}
		})
	}
}

// sameIDs checks a report row's ids against the voucher the sandbox holds.
func sameIDs(t *testing.T, r row, v sandbox.Voucher) {
	t.Helper()
	got := [3]int64{id(t, r["result.facturaId"]), id(t, r["result.numero"]), id(t, r["result.pvNumero"])}
	want := [3]int64{v.FacturaID, v.Numero, v.PVNumero}
	if got != want {
		t.Errorf("row %s: report ids (facturaId, numero, pvNumero) %v, sandbox holds %v", r["result.row"], got, want)
	}
}
