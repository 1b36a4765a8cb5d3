package listener

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// storedFiles makes a real store with two events and a snapshot, and
// returns its files' contents: the fuzz targets' seeds.
func storedFiles(f *testing.F) (events, snapshot, refused []byte) {
	dir := filepath.Join(f.TempDir(), "store")
	s, err := Open(dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	for _, body := range []string{
		`[{"articuloId":100,"codigo":"REM-1","colorId":1,"talleId":2,"unidades":7}]`,
		`{"articuloId":100,"codigo":"REM-1","stockTotal":10,"curva":[{"colorId":1,"talleId":2,"unidades":7}]}`,
	} {
		if _, err := s.Append([]byte(body)); err != nil {
			f.Fatal(err)
		}
	}
	s.Refuse(Malformed, 2)
	if err := s.Sync(context.Background()); err != nil {
		f.Fatal(err)
	}
	if err := s.Close(); err != nil {
		f.Fatal(err)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	return read(LogFile), read(SnapshotFile), read(RefusedFile)
}

// writeStore writes a store folder holding the given files (nil: absent).
func writeStore(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if b == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzStoredLog feeds an arbitrary events.jsonl (a crash's cut line, a
// damaged disk, another version's) to what reads it back, without and
// with the snapshot a real store wrote beside it: a state or an error,
// never a panic (issue 23, hole 14).
func FuzzStoredLog(f *testing.F) {
	events, snapshot, _ := storedFiles(f)
	f.Add(events, false)
	f.Add(events, true)
	f.Add(events[:len(events)/2], true)
	f.Add(append(bytes.Repeat([]byte("x"), 10), events...), false)
	f.Add([]byte("{}\n{\"seq\":\"a\"}\n"), false)
	dir := filepath.Join(f.TempDir(), "store")
	f.Fuzz(func(t *testing.T, log []byte, withSnapshot bool) {
		files := map[string][]byte{LogFile: log}
		if withSnapshot {
			files[SnapshotFile] = snapshot
		}
		writeStore(t, dir, files)
		if st, err := Load(dir, Options{}); err == nil && st == nil {
			t.Fatal("Load: no state and no error")
		}
	})
}

// FuzzStoredSnapshot feeds an arbitrary snapshot.json beside a real event
// log: read, or rebuilt from the log, never a panic nor an error.
func FuzzStoredSnapshot(f *testing.F) {
	events, snapshot, _ := storedFiles(f)
	f.Add(snapshot)
	f.Add([]byte(`{"version":1,"offset":99999999,"state":null}`))
	f.Add([]byte(`{"version":1,"offset":-1,"state":{"articulos":{"1":null}}}`))
	f.Add([]byte(`{`))
	dir := filepath.Join(f.TempDir(), "store")
	f.Fuzz(func(t *testing.T, snap []byte) {
		writeStore(t, dir, map[string][]byte{LogFile: events, SnapshotFile: snap})
		st, err := Load(dir, Options{})
		if err != nil || st == nil {
			t.Fatalf("Load with a real log: %v", err)
		}
	})
}

// FuzzStoredRefusals feeds an arbitrary refused.json: counts or an error,
// never a panic; what is read writes back to what reads the same.
func FuzzStoredRefusals(f *testing.F) {
	_, _, refused := storedFiles(f)
	f.Add(refused)
	f.Add([]byte(`{"malformed":-1,"first":"x"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := readRefusals(bytes.NewReader(b))
		if err != nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			return // a time past year 9999 reads but does not write
		}
		again, err := readRefusals(bytes.NewReader(out))
		if err != nil || again.Unstored != r.Unstored || again.TooLarge != r.TooLarge || again.Malformed != r.Malformed ||
			!again.First.Equal(r.First) || !again.Last.Equal(r.Last) {
			t.Fatalf("refusals %+v read back as %+v, %v", r, again, err)
		}
	})
}
