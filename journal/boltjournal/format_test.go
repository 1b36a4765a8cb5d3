package boltjournal

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/msg"
	bolt "go.etcd.io/bbolt"
)

// seeded writes a journal with a few committed requests and returns its
// path, closed.
func seeded(t *testing.T) string {
	t.Helper()
	j, path := mustOpen(t, journal.Options{})
	for _, b := range []string{"1", "2", "3"} {
		k := journal.Key{Tenant: "t", Kind: "venta", Business: b}
		if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
			t.Fatal(err)
		}
		if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 10}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

const pageSize = 4096

// metaTxid reads the transaction id of meta page i of a bbolt file.
func metaTxid(t *testing.T, data []byte, i int) uint64 {
	t.Helper()
	// page header (16) + magic, version, pageSize, flags (16) + root (16) +
	// freelist (8) + pgid (8) -> txid
	return binary.LittleEndian.Uint64(data[i*pageSize+64:])
}

// TestOpenRefusesUntrustworthyFiles: a journal that is empty, damaged,
// behind what was committed, of another format, or gone while its record
// remains is refused with its message, never used as new and never a
// panic.
func TestOpenRefusesUntrustworthyFiles(t *testing.T) {
	tests := []struct {
		name    string
		spoil   func(t *testing.T, path string)
		wantKey string
	}{
		{"empty file", func(t *testing.T, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "jrn.empty"},
		{"journal removed, record left", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "jrn.missing"},
		{"restored older copy", func(t *testing.T, path string) {
			old, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			j, err := Open(path, journal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := journal.Key{Tenant: "t", Kind: "venta", Business: "4"}
			if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "h"}); err != nil {
				t.Fatal(err)
			}
			if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 11}); err != nil {
				t.Fatal(err)
			}
			j.Close()
			if err := os.WriteFile(path, old, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "jrn.behind"},
		{"newest meta page zeroed", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			newest := 0
			if metaTxid(t, data, 1) > metaTxid(t, data, 0) {
				newest = 1
			}
			clear(data[newest*pageSize : (newest+1)*pageSize])
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "jrn.behind"},
		{"damaged data page", func(t *testing.T, path string) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Every page after the two meta pages gets garbage.
			for i := 2 * pageSize; i < len(data); i++ {
				data[i] = byte(i*7 + 13)
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "jrn.damaged"},
		{"truncated file", func(t *testing.T, path string) {
			if err := os.Truncate(path, 3*pageSize); err != nil {
				t.Fatal(err)
			}
		}, "jrn.damaged"},
		{"not a journal", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("ordenId;total\n", 1000)), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "jrn.damaged"},
		{"older format", func(t *testing.T, path string) {
			os.Remove(path)
			os.Remove(hwmPath(path))
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket(entriesBucket)
				return err
			})
			db.Close()
		}, "jrn.oldformat"},
		{"newer format", func(t *testing.T, path string) {
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error { return tx.Bucket(metaBucket).Put(metaFormat, []byte("9")) })
			db.Close()
			os.Remove(hwmPath(path))
		}, "jrn.newerformat"},
		{"another journal in its place", func(t *testing.T, path string) {
			other := filepath.Join(t.TempDir(), "journal")
			j, err := Open(other, journal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			data, _ := os.ReadFile(other)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "jrn.otherjournal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := seeded(t)
			tc.spoil(t, path)
			before, _ := os.ReadFile(path)
			j, err := Open(path, journal.Options{})
			if err == nil {
				j.Close()
				t.Fatal("Open succeeded, want a refusal")
			}
			var me *msg.Error
			if !errors.As(err, &me) || me.Msg.Key != tc.wantKey || !errors.Is(err, ErrUnusable) {
				t.Fatalf("Open = %v, want %s (ErrUnusable)", err, tc.wantKey)
			}
			if text := me.Msg.In(msg.ES); !strings.Contains(text, path) {
				t.Errorf("message %q does not name the file", text)
			}
			after, _ := os.ReadFile(path)
			if string(before) != string(after) {
				t.Error("a refused journal was changed")
			}
		})
	}
}

// TestAcceptTakesARestoredCopy: once the user accepts a copy that is
// behind, it opens, and keeps what it holds.
func TestAcceptTakesARestoredCopy(t *testing.T) {
	path := seeded(t)
	old, _ := os.ReadFile(path)
	j, err := Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := journal.Key{Tenant: "t", Kind: "venta", Business: "4"}
	j.Begin(context.Background(), k, journal.Intent{BodyHash: "h"})
	j.Close()
	os.WriteFile(path, old, 0o600)
	if _, err := Open(path, journal.Options{}); !errors.Is(err, ErrUnusable) {
		t.Fatalf("Open of the restored copy = %v, want refused", err)
	}
	if err := Accept(path); err != nil {
		t.Fatalf("Accept: %v", err)
	}
	j, err = Open(path, journal.Options{})
	if err != nil {
		t.Fatalf("Open after Accept: %v", err)
	}
	defer j.Close()
	if e := mustGet(t, j, journal.Key{Tenant: "t", Kind: "venta", Business: "3"}); e.State != journal.OK {
		t.Errorf("entry of the restored copy = %+v, want ok", e)
	}
}

// TestAnEmptyFileNeverCommittedIsNew: a journal file that is empty and
// never recorded anything (another nxbatch creating it at this moment, or a
// creation cut short) is started, not refused: nothing can be lost.
func TestAnEmptyFileNeverCommittedIsNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path, journal.Options{})
	if err != nil {
		t.Fatalf("Open of an empty journal never committed = %v, want a new journal", err)
	}
	defer j.Close()
	if _, err := j.Begin(context.Background(), journal.Key{Tenant: "t", Kind: "venta", Business: "1"}, journal.Intent{BodyHash: "h"}); err != nil {
		t.Fatal(err)
	}
}
