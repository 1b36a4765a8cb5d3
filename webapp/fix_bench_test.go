package webapp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// bigSales is a sales file of n one-line sales, every tenth with its
// payment type misspelt.
func bigSales(n int) []byte {
	var sb strings.Builder
	sb.WriteString("ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n")
	for i := range n {
		tipo := "EFECTIVO"
		if i%10 == 0 {
			tipo = "EFECTIVOO"
		}
		fmt.Fprintf(&sb, "%d,a%d@example.com,105,10,1,10,0,0,0,10,%s\n", 100000+i, i, tipo)
	}
	return []byte(sb.String())
}

// BenchmarkFix100k is one fix in place on a 100,000-row file: the edit
// kept in edits.jsonl, the file revalidated and the page of rows answered,
// as the page's fix does (issue 22 asks ≤ 300 ms); the fixed CSV is
// written in the background once the fixes pause, not timed.
func BenchmarkFix100k(b *testing.B) { benchFix(b, 100_000, false, false) }

// BenchmarkFixAgain100k is a fix of a file the page fixed once already:
// from then on a fix revalidates only what it touched (the first fix of
// an upload reads the fixed version written from the original).
func BenchmarkFixAgain100k(b *testing.B) { benchFix(b, 100_000, false, true) }

// BenchmarkFirstFix100k is the first fix of a fresh upload of 100,000
// rows, once the page has read it as its own CSV in the background (the
// upload and that read are not timed).
func BenchmarkFirstFix100k(b *testing.B) {
	bd := newBed(b, bedOptions{limits: Limits{MaxBytes: 64 << 20, MaxRows: 300_000}})
	data := bigSales(100_000)
	for b.Loop() {
		b.StopTimer()
		page := bd.upload("grande.csv", data).location
		bd.srv.warming.Wait()
		form := url.Values{"sheet": {"0"}, "page": {"1"}, "only": {"errores"}, "version": {"0"}, "row": {"0"}, "col": {"10"}, "value": {"EFECTIVO"}}
		b.StartTimer()
		if a := bd.fix(page, form); a.status != http.StatusOK {
			b.Fatalf("first fix: %d\n%.400s", a.status, a.body)
		}
		b.StopTimer()
		bd.srv.uploads.remove(bd.srv.uploads.get(strings.TrimPrefix(page, "/u/")))
		b.StartTimer()
	}
}

// BenchmarkFixXLSX100k is a fix of a workbook of 100,000 rows (the same
// sales, numbers as numbers), after a first one: the fix is answered once
// its edit is in edits.jsonl and its state validated from the last; the
// fixed workbook is written in the background once the fixes pause (here,
// after the last one), which is not timed: BenchmarkFixXLSX100kWritten
// times it.
func BenchmarkFixXLSX100k(b *testing.B) { benchFixXLSX(b, false) }

// BenchmarkFixXLSX100kWritten is BenchmarkFixXLSX100k with the fixed
// workbook written after each fix (flush): what a send right after a fix
// waits for before it reads the file.
func BenchmarkFixXLSX100kWritten(b *testing.B) { benchFixXLSX(b, true) }

func benchFixXLSX(b *testing.B, written bool) {
	bd := newBed(b, bedOptions{limits: Limits{MaxBytes: 64 << 20, MaxRows: 300_000}})
	page := bd.upload("grande.xlsx", csvToXLSX(b, string(bigSales(100_000)))).location
	u := bd.srv.uploads.get(strings.TrimPrefix(page, "/u/"))
	bd.srv.warming.Wait()
	for i := 0; b.Loop(); i++ {
		value := "EFECTIVO"
		if i%2 == 1 {
			value = "EFECTIVOO"
		}
		form := url.Values{"sheet": {"0"}, "page": {"1"}, "only": {"errores"}, "version": {strconv.Itoa(i)}, "row": {"0"}, "col": {"10"}, "value": {value}}
		if a := bd.fix(page, form); a.status != http.StatusOK {
			b.Fatalf("fix %d: %d\n%.400s", i, a.status, a.body)
		}
		if written {
			if err := bd.srv.upToDate(context.Background(), u); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkBulkFix100k is one bulk fix on the same file: 10,000 rows with
// the same mistake changed by one replacement.
func BenchmarkBulkFix100k(b *testing.B) { benchFix(b, 100_000, true, false) }

func benchFix(b *testing.B, n int, all, again bool) {
	bd := newBed(b, bedOptions{limits: Limits{MaxBytes: 64 << 20, MaxRows: 300_000}})
	page := bd.upload("grande.csv", bigSales(n)).location
	if a := bd.get(page); a.status != http.StatusOK {
		b.Fatalf("import page: %d", a.status)
	}
	ver := 0
	if again {
		form := url.Values{"sheet": {"0"}, "page": {"1"}, "only": {"errores"}, "version": {"0"}, "row": {"1"}, "col": {"10"}, "value": {"EFECTIVOO"}}
		if a := bd.fix(page, form); a.status != http.StatusOK {
			b.Fatalf("first fix: %d\n%.400s", a.status, a.body)
		}
		ver = 1
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Alternate the value, so every fix changes the file.
		value := "EFECTIVO"
		if i%2 == 1 {
			value = "EFECTIVOO"
		}
		form := url.Values{"sheet": {"0"}, "page": {"1"}, "only": {"errores"}, "version": {strconv.Itoa(ver)}, "row": {"0"}, "col": {"10"}, "value": {value}}
		if all {
			form.Set("all", "1")
		}
		if a := bd.fix(page, form); a.status != http.StatusOK {
			b.Fatalf("fix %d: %d\n%.400s", i, a.status, a.body)
		}
		ver++
	}
}
