package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

// BenchmarkValidateCSV loads, validates and reports a venta CSV: the file in
// NXBATCH_BENCH_CSV (bench/validate.sh makes a 1M-line one), or 50,000
// generated lines. bench/validate.sh measures the whole binary.
func BenchmarkValidateCSV(b *testing.B) {
	path := os.Getenv("NXBATCH_BENCH_CSV")
	if path == "" {
		path = filepath.Join(b.TempDir(), "v.csv")
		var sb strings.Builder
		sb.WriteString(ventaHeader)
		for i := range 50_000 {
			sale := i % 10_000
			fmt.Fprintf(&sb, "%d,c%d@x.com,%d,10.50,2,105,0,0,0,105,EFECTIVO\n", 1_000_000+sale, sale, 100+i/10_000)
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	dir := b.TempDir()
	b.ReportAllocs()
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
}
