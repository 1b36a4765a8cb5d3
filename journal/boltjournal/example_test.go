package boltjournal_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/journal"
	"github.com/nxbatch/nxbatch/journal/boltjournal"
)

// The pipeline's use of the journal for one request: Begin before sending,
// Finish with the outcome; a later run is refused the same key.
func Example() {
	dir, _ := os.MkdirTemp("", "nxbatch-journal")
	defer os.RemoveAll(dir)

	j, err := boltjournal.Open(filepath.Join(dir, ".nxbatch", "journal"), journal.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()

	k := journal.Key{Tenant: "0f3a9c", Kind: "venta", Business: "ORD-0042"}
	if _, err := j.Begin(context.Background(), k, journal.Intent{BodyHash: "sha256:9b2e…", Source: "ventas.csv row 2", Hold: 30 * time.Second}); err != nil {
		fmt.Println(err)
		return
	}
	// ... send the request, classify the answer ...
	if err := j.Finish(context.Background(), k, journal.Outcome{State: journal.OK, FacturaID: 91234, Numero: 1507, PVNumero: 3, Message: ""}); err != nil {
		fmt.Println(err)
		return
	}

	e, _, _ := j.Get(context.Background(), k)
	fmt.Println(e.Key, e.State, e.FacturaID, e.Numero, e.PVNumero)
	_, err = j.Begin(context.Background(), k, journal.Intent{BodyHash: "sha256:9b2e…", Source: "ventas.csv row 2", Hold: 30 * time.Second})
	fmt.Println(errors.Is(err, journal.ErrNotSendable))
	// Output:
	// 0f3a9c/venta/ORD-0042 ok 91234 1507 3
	// true
}
