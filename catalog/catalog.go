// Package catalog loads and caches the tenant's catalogs — payment
// configuration (/medios-pago) and stock reasons (/motivos) — that local
// validation checks ids against. The API allows one parameter request per
// 60 s, so catalogs are cached per tenant with their fetch time.
package catalog

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nxbatch/nxbatch/articulos"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/nxapi"
	"github.com/nxbatch/nxbatch/validation"
)

// File names of the catalogs, as the API's answers saved to disk.
const (
	MediosPagoFile = "medios-pago.json"
	MotivosFile    = "motivos.json"
)

// LoadDir reads medios-pago.json and motivos.json from dir, in the API's own
// response shapes. A missing file leaves that catalog unchecked; a folder
// with neither is an error, since the user asked for catalog checks.
func LoadDir(dir string) (*validation.Catalog, error) {
	cat := &validation.Catalog{}
	found := 0
	var mp nxapi.MediosPagoConfig
	switch err := readJSON(filepath.Join(dir, MediosPagoFile), &mp); {
	case err == nil:
		cat.MediosPago = &mp
		found++
	case !errors.Is(err, fs.ErrNotExist):
		return nil, readError(filepath.Join(dir, MediosPagoFile), err)
	}
	var mot []nxapi.Motivo
	switch err := readJSON(filepath.Join(dir, MotivosFile), &mot); {
	case err == nil:
		cat.Motivos = mot
		found++
	case !errors.Is(err, fs.ErrNotExist):
		return nil, readError(filepath.Join(dir, MotivosFile), err)
	}
	// The article catalog is read by LoadArticulosDir; a folder with only
	// it is still a catalog folder.
	switch recs, _, err := LoadArticulosDir(dir); {
	case err == nil:
		cat.Articulos = articulos.Build(recs)
		found++
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if found == 0 {
		return nil, &msg.Error{Msg: msg.New("cat.dir.empty", dir, MediosPagoFile, MotivosFile)}
	}
	return cat, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	// The API's own shapes, read as its answers are: a field of a type
	// the vendor's types do not allow is named.
	if err := nxapi.Decode(b, v); err != nil {
		return &msg.Error{Msg: msg.New("cat.file.notjson", path, err.Error()), Err: err}
	}
	return nil
}

// readError is a catalog file that could not be read.
func readError(path string, err error) error {
	var me *msg.Error
	if errors.As(err, &me) {
		return err
	}
	return &msg.Error{Msg: msg.New("cat.file.read", path, msg.CauseOf(err)), Err: err}
}
