package readers

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCSV feeds arbitrary bytes to the CSV reader: it must never panic, and
// every failure must be an *Error that says where it is; a failure inside a
// record names its row.
func FuzzCSV(f *testing.F) {
	seeds := []string{
		"",
		"\n\n",
		"a;b\n1;2\n",
		"a,b\r\n1,2\r\n",
		"a\tb\n1\t2\t3\n",
		"\xEF\xBB\xBFa;b\n1;\xC3\xA9\n",
		"\xFF\xFEa\x00;\x00b\x00\n\x001\x00;\x002\x00",
		"\xFE\xFF\x00a\x00;\x00b",
		"\xFF\xFE\x00",
		"a;b\n1;Jos\xe9\n",
		"a;b\n\"x\ny\";2\n3;\"z",
		"a;b\n1;2\"3\n",
		"a;b\n\"1\"x;2\n",
		"\"\n",
		"result.status;a\nok;1\n",
		";;;\n;;\n",
		"a;b\n1;2;3;4\n",
		"a\x00b\n",
		"PK\x03\x04\x00",
		"a;\"b\r\n\r\n\"\r\n1;2",
		"\r\r\r",
		"\"\"\"\n\"",
		"sep=,\na,b\n1,2\"",
		"a;b\r1;\"2\r3\"\r",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := Open(path, Options{MaxCellBytes: 256})
		if err != nil {
			mustBeFileError(t, err, path)
			return
		}
		defer file.Close()
		s, err := file.Sheet("")
		if err != nil {
			mustBeFileError(t, err, path)
			return
		}
		defer s.Close()
		info := s.Info()
		if info.HeaderRow < 1 {
			t.Fatalf("header row %d", info.HeaderRow)
		}
		last := info.HeaderRow
		for {
			rec, err := s.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var re *Error
				if !errors.As(err, &re) {
					t.Fatalf("error %v is %T, want *Error", err, err)
				}
				if re.Pos.File != path || (re.Pos.Row == 0 && re.Msg.Key != "rd.io") {
					t.Fatalf("error without a row: %+v", re)
				}
				return
			}
			if rec.Row <= last {
				t.Fatalf("row %d after row %d", rec.Row, last)
			}
			last = rec.Row
			if len(rec.Cells) != len(info.Header) {
				t.Fatalf("%d cells for %d header columns", len(rec.Cells), len(info.Header))
			}
			if rec.Problem != nil && (rec.Problem.Pos.Row != rec.Row || rec.Problem.Pos.File != path) {
				t.Fatalf("problem at %+v for row %d", rec.Problem.Pos, rec.Row)
			}
		}
	})
}

func mustBeFileError(t *testing.T, err error, path string) {
	t.Helper()
	var re *Error
	if !errors.As(err, &re) {
		t.Fatalf("error %v is %T, want *Error", err, err)
	}
	if re.Pos.File != path {
		t.Fatalf("error names %q, want %q", re.Pos.File, path)
	}
}
