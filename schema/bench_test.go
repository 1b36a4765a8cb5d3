package schema

import (
	"fmt"
	"testing"
)

// BenchmarkLoadMapping loads mappings of 4,096 to 16,384 keys (the most
// a mapping may have) in each format; ns/key stays flat when loading is
// linear (yaml.v3 filling a map took 11 s for 50,000 keys, 175 s for
// 200,000):
//
//	go test -bench LoadMapping -run '^$' ./schema
func BenchmarkLoadMapping(b *testing.B) {
	for _, ext := range []string{"json", "yaml"} {
		for _, keys := range []int{MaxMappingEntries / 4, MaxMappingEntries / 2, MaxMappingEntries} {
			b.Run(fmt.Sprintf("%s-%d", ext, keys), func(b *testing.B) {
				path := mappingFile(b, ext, keys)
				for b.Loop() {
					if m, err := LoadMapping(path); err != nil || len(m) != keys {
						b.Fatalf("%d keys, %v", len(m), err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/key")
			})
		}
	}
}

// BenchmarkHeaderMatching detects the kind of, and matches, headers of
// 75,000 to 300,000 unknown columns; ns/column stays flat when matching is
// linear:
//
//	go test -bench HeaderMatching -run '^$' ./schema
func BenchmarkHeaderMatching(b *testing.B) {
	m := Mapping{"nroorden": "ordenId"}
	for _, cols := range []int{75_000, 150_000, 300_000} {
		b.Run(fmt.Sprint(cols), func(b *testing.B) {
			header := wideHeader(cols)
			for b.Loop() {
				if k, ok := DetectKind(header, m); !ok || k != Venta {
					b.Fatalf("kind %v %v", k, ok)
				}
				Match(Venta, header, m)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*cols), "ns/column")
		})
	}
}
