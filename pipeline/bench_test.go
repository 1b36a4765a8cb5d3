package pipeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/articulos"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/validation"
)

// benchCSV is the venta CSV the validate benchmarks read: the file in
// NXBATCH_BENCH_CSV, or 50,000 generated lines (10,000 sales).
func benchCSV(b *testing.B) string {
	if path := os.Getenv("NXBATCH_BENCH_CSV"); path != "" {
		return path
	}
	path := filepath.Join(b.TempDir(), "v.csv")
	var sb strings.Builder
	sb.WriteString(ventaHeader)
	for i := range 50_000 {
		sale := i % 10_000
		fmt.Fprintf(&sb, "%d,c%d@x.com,%d,10.50,2,105,0,0,0,105,EFECTIVO\n", 1_000_000+sale, sale, 100+i/10_000)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkValidateCSV loads, validates and reports a venta CSV: the file in
// NXBATCH_BENCH_CSV (bench/validate.sh makes a 1M-line one), or 50,000
// generated lines. bench/validate.sh measures the whole binary.
func BenchmarkValidateCSV(b *testing.B) {
	path := benchCSV(b)
	dir := b.TempDir()
	b.ReportAllocs()
	user0, sys0 := userSys()
	for b.Loop() {
		f, err := Load(path, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		f.Validate(nil, false)
		if _, err := f.WriteReports(ReportOptions{Dir: dir, Lang: msg.ES, NoXLSX: true}); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time too: on a shared machine the wall time says as much about
	// the other jobs as about this code.
	user, sys := userSys()
	b.ReportMetric(float64((user-user0).Milliseconds())/float64(b.N), "user-ms/op")
	b.ReportMetric(float64((sys-sys0).Milliseconds())/float64(b.N), "sys-ms/op")
}

// shopCatalog is a 100,000-variant article catalog: 5,000 articles in 4
// sizes and 5 colours, each variant with its barcode, decoded from JSON as
// an API answer would be (every record's strings its own).
func shopCatalog() *validation.Catalog {
	sizes := []string{"S", "M", "L", "XL"}
	colours := []string{"Rojo", "Azul", "Verde", "Negro", "Marrón"}
	recs := make([]nxapi.ArticuloConCurva, 0, 100_000)
	for a := range 5_000 {
		for s, sz := range sizes {
			for c, col := range colours {
				recs = append(recs, nxapi.ArticuloConCurva{ArticuloID: int64(a + 1), Codigo: fmt.Sprintf("ART-%05d", a),
					Nombre: fmt.Sprintf("Artículo %d", a), TalleID: int64(s + 1), TalleNombre: sz, ColorID: int64(c + 1),
					ColorNombre: col, CodigoBarras: fmt.Sprintf("779%010d", len(recs))})
			}
		}
	}
	js, err := json.Marshal(recs)
	if err != nil {
		panic(err)
	}
	recs = nil
	if err := json.Unmarshal(js, &recs); err != nil {
		panic(err)
	}
	return &validation.Catalog{Articulos: articulos.Build(recs)}
}

// BenchmarkValidateArticles is what resolving articles adds to validate
// (load, validate, CSV reports) of a file of one-line sales: the same
// sales by ids without an article catalog (as before), by ids checked
// against a 100,000-variant catalog, and by code, size and colour names
// resolved against it. NXBATCH_BENCH_ROWS sets the rows (default
// 200,000); bench/RESULTS.md has the 1,000,000-row figures.
func BenchmarkValidateArticles(b *testing.B) {
	rows := 200_000
	if n, err := strconv.Atoi(os.Getenv("NXBATCH_BENCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	cat := shopCatalog()
	colours := []string{"rojo", "Azul", "VERDE", "negro", "marron"}
	dir := b.TempDir()
	write := func(name, header string, line func(i, a, s, c int) string) string {
		var sb strings.Builder
		sb.WriteString(header)
		for i := range rows {
			a, s, c := (i*7)%5_000, i%4, (i/4)%5
			sb.WriteString(line(i, a, s, c))
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		return path
	}
	const tail = ",10.50,2,21,0,0,0,21,EFECTIVO\n"
	byIDs := write("ids.csv", "ordenId,usuario.email,articuloId,talleId,colorId,precio,cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n",
		func(i, a, s, c int) string {
			return fmt.Sprintf("%d,c%d@x.com,%d,%d,%d", 1_000_000+i, i%1000, a+1, s+1, c+1) + tail
		})
	byCodes := write("codes.csv", "ordenId,usuario.email,Código,Talle,Color,precio,cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n",
		func(i, a, s, c int) string {
			return fmt.Sprintf("%d,c%d@x.com,ART-%05d,%s,%s", 1_000_000+i, i%1000, a, []string{"s", "M", "l", "XL"}[s], colours[c]) + tail
		})
	for _, bc := range []struct {
		name string
		path string
		cat  *validation.Catalog
	}{
		{"ids-no-catalog", byIDs, nil},
		{"ids-checked", byIDs, cat},
		{"codes-resolved", byCodes, cat},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rep := b.TempDir()
			// CPU time, not only wall time: on a shared machine the wall
			// time says more about the other jobs than about this code.
			cpu0 := cpuTime()
			for b.Loop() {
				f, err := Load(bc.path, LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				f.Validate(bc.cat, false)
				if rows, _ := f.Counts(); rows[StatusInvalid] > 0 {
					b.Fatalf("%d invalid rows: %s", rows[StatusInvalid], f.Sheets[0].RowMessage(0, msg.EN))
				}
				if _, err := f.WriteReports(ReportOptions{Dir: rep, Lang: msg.ES, NoXLSX: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWriteReportsCSV is the reports phase of BenchmarkValidateCSV
// alone: the file in NXBATCH_BENCH_CSV (or 50,000 generated lines) loaded
// and validated once, then its CSV reports (result, and errors when a row
// needs attention) and summary written per operation.
func BenchmarkWriteReportsCSV(b *testing.B) {
	path := benchCSV(b)
	f, err := Load(path, LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	f.Validate(nil, false)
	dir := b.TempDir()
	b.ReportAllocs()
	user0, sys0 := userSys()
	for b.Loop() {
		if _, err := f.WriteReports(ReportOptions{Dir: dir, Lang: msg.ES, NoXLSX: true}); err != nil {
			b.Fatal(err)
		}
	}
	user, sys := userSys()
	b.ReportMetric(float64((user-user0).Milliseconds())/float64(b.N), "user-ms/op")
	b.ReportMetric(float64((sys-sys0).Milliseconds())/float64(b.N), "sys-ms/op")
}

// userSys is the process's user and system CPU time so far: writing a
// report costs the kernel's work too (its pages, its writes).
func userSys() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
