package msg

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// literalKey finds catalog keys written as literals: msg.New("key", ...)
// (New("key" inside this package).
var literalKey = regexp.MustCompile(`\b(?:msg\.)?(?:New|Count)\("([a-z][a-zA-Z0-9_]*\.[a-zA-Z0-9_.]+)"`)

// TestEveryLiteralKeyIsInTheCatalog scans the repository's Go files so that
// a message key typed in code but never registered fails here, not in a
// report an accountant reads.
func TestEveryLiteralKeyIsInTheCatalog(t *testing.T) {
	root := ".."
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range literalKey.FindAllStringSubmatch(string(b), -1) {
			if strings.HasSuffix(m[1], ".") {
				continue // a prefix completed at run time ("plan.kind." + kind)
			}
			found++
			if _, ok := Lookup(m[1]); !ok {
				t.Errorf("%s uses message key %q, which is not in the catalog", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 20 {
		t.Fatalf("found only %d literal keys: the scan is broken", found)
	}
}
