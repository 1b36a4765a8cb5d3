package pgjournal_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nxbatch/nxbatch/internal/pgtest"
)

// srv is the package's PostgreSQL server: one for every test, each test
// with databases of its own.
var (
	srv      *pgtest.Server
	srvErr   error
	dbSerial atomic.Int64
	dbNames  sync.Map // *pgjournal.Store -> database name, for Cut
)

func TestMain(m *testing.M) {
	srv, srvErr = pgtest.Start()
	code := m.Run()
	if srv != nil {
		if err := srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop PostgreSQL:", err)
		}
	}
	os.Exit(code)
}

// newDB creates a database for t and returns its name and URL. Without a
// PostgreSQL to run the test fails, naming the package to install.
func newDB(t testing.TB) (string, string) {
	t.Helper()
	if srvErr != nil {
		t.Fatalf("PostgreSQL for the tests: %v", srvErr)
	}
	name := fmt.Sprintf("j%d", dbSerial.Add(1))
	url, err := srv.NewDatabase(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return name, url
}
