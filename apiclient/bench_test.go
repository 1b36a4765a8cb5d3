package apiclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func BenchmarkClassify(b *testing.B) {
	bodies := [][]byte{
		[]byte(`{"facturaId":900,"numero":7,"pVNumero":4,"errores":false,"datos":{},"cae":"123"}`),
		[]byte(`{"facturaId":null,"errores":true,"datos":{"error":"Los totales no coinciden"}}`),
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Classify(200, bodies[i%2], nil, true, false)
	}
}

// BenchmarkVentaParallel measures the client's own cost per creating request
// against a loopback server that answers at once.
func BenchmarkVentaParallel(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"facturaId":900,"numero":7,"pVNumero":4,"errores":false}`)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL, Token: NewToken("t")})
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(ventaBody)
	b.ReportAllocs()
	b.SetParallelism(2) // 2 x GOMAXPROCS goroutines, like --workers 4 on 2 cores
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if o := c.Venta(context.Background(), body); o.Class != OK {
				b.Errorf("outcome %v: %v", o.Class, o.Err)
				return
			}
		}
	})
}
