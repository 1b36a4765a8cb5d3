package writers

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
)

// failingWriter refuses every write, as a full disk does.
type failingWriter struct{}

var errDiskFull = errors.New("no space left on device")

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// TestCSVWriteFailureStopsTheRows: once the report cannot be written, the
// writer stops taking rows (each costs a read of the row store and its
// formatting on every core) instead of formatting the whole report for
// nothing, and says why.
func TestCSVWriteFailureStopsTheRows(t *testing.T) {
	// Twice as many rows as the jobs the writer keeps in flight hold.
	n := (4*runtime.GOMAXPROCS(0) + 4) * csvJobRows * 2
	var pulled atomic.Int64
	tab := Table{Header: []string{"a", "b"}, Rows: func(yield func(Row) bool) {
		for range n {
			pulled.Add(1)
			if !yield(Row{Cells: []string{"1", "x"}, Result: []string{"ok"}}) {
				return
			}
		}
	}}
	if err := writeCSV(failingWriter{}, tab); !errors.Is(err, errDiskFull) {
		t.Fatalf("writeCSV = %v, want the write's failure", err)
	}
	if got := pulled.Load(); got > int64(n/2) {
		t.Errorf("%d of %d rows taken after the first write failed, want the writing to stop", got, n)
	}
}
