package catalog

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// FuzzCacheLoad feeds an arbitrary catalog cache file (a tenant's
// <tenant>.json in the state folder): Load never fails on its contents (a
// broken cache is only a cache) and what it returns can be used whole: the
// validation catalog, the warehouses, the tables catalog show prints.
func FuzzCacheLoad(f *testing.F) {
	for _, s := range []string{
		`{"mediosPago":{"tarjetas":[{"id":1,"nombre":"Visa","cuotas":[{"cuotas":3,"recargo":"10.5"}]}],"cuentasBancarias":[{"id":10,"banco":"Nación"}]},"mediosPagoFetched":"2026-01-02T03:04:05Z","motivos":[{"id":1,"nombre":"Ajuste","activo":true}]}`,
		`{"config":{"appId":"7","depositos":[{"id":1,"nombre":"Central"}],"sucursales":null},"configFetched":"2026-01-02T03:04:05Z","depositos":[{"id":"x"}]}`,
		`{"motivos":[null,{}],"puntosVenta":[{}],"empleados":[{"id":-1}]}`,
		`{"mediosPagoFetched":"0001-01-01T00:00:00Z"}`,
		`[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	c := &Cache{Dir: dir, Tenant: "t1"}
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, "t1.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := c.Load()
		if err != nil {
			t.Fatalf("Load of a readable file: %v", err)
		}
		_ = s.Catalog()
		_, _ = s.Warehouses()
		for _, l := range []msg.Lang{msg.ES, msg.EN} {
			if err := Show(io.Discard, Tables(&s, l), time.Unix(1e9, 0), l); err != nil {
				t.Fatalf("Show: %v", err)
			}
		}
	})
}
