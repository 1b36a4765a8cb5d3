package pipeline

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGroupByKeyAnyOrder checks the grouping of sales whatever the order of
// their ordenIds: ascending files take the path without a map, and a key
// below the last one switches to the map with every earlier row in it.
func TestGroupByKeyAnyOrder(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want [][]int32 // each request's rows, in order of first appearance
	}{
		{"ascending, together", []string{"1", "1", "2", "3", "3", "3"}, [][]int32{{0, 1}, {2}, {3, 4, 5}}},
		{"ascending, one line each", []string{"10", "20", "30"}, [][]int32{{0}, {1}, {2}}},
		{"back to an earlier key", []string{"1", "2", "3", "2", "1", "4"}, [][]int32{{0, 4}, {1, 3}, {2}, {5}}},
		{"descending", []string{"3", "2", "1", "3"}, [][]int32{{0, 3}, {1}, {2}}},
		{"zeros and spaces are one key", []string{"1", "2", " 0001", "02 "}, [][]int32{{0, 2}, {1, 3}}},
		{"blank and text keys", []string{"5", "", "abc", "5", "", "abc", "4"}, [][]int32{{0, 3}, {1}, {2, 5}, {4}, {6}}},
		{"fallback after text and blanks", []string{"x", "", "7", "9", "x", "7", "8"}, [][]int32{{0, 4}, {1}, {2, 5}, {3}, {6}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var sb strings.Builder
			sb.WriteString(ventaHeader)
			for _, k := range tc.keys {
				sb.WriteString(k + ",a@x.com,100,10,1,10,0,0,0,10,EFECTIVO" + "\n")
			}
			f := load(t, "v.csv", sb.String(), LoadOptions{})
			sh := f.Sheets[0]
			var got [][]int32
			for ri, r := range sh.Requests {
				got = append(got, r.Rows)
				for _, row := range r.Rows {
					if sh.reqOf[row] != int32(ri) {
						t.Errorf("reqOf[%d] = %d, want %d", row, sh.reqOf[row], ri)
					}
				}
				if k := strings.TrimSpace(tc.keys[r.Rows[0]]); k != "" {
					if n, err := strconv.Atoi(k); err == nil {
						k = strconv.Itoa(n)
					}
					if r.Key != k {
						t.Errorf("request %d key = %q, want %q", ri, r.Key, k)
					}
				}
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("requests' rows (-want +got):\n%s", d)
			}
		})
	}
}
