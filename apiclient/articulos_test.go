package apiclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/nxapi"
)

func TestCatalogReads(t *testing.T) {
	var gotQuery []string
	grouped := `[{"articuloId":100,"codigo":"A100","curva":[{"colorId":1,"talleId":2,"codigoBarras":"779"},{"colorId":2,"talleId":2}]}]`
	flat := `{"data":[{"articuloId":100,"codigo":"A100","colorId":1,"talleId":2,"codigoBarras":"779"},{"articuloId":7,"eliminado":true}]}`
	_, c := newServer(t, NewToken("t"), 0, func(w http.ResponseWriter, r *http.Request) {
		gotQuery = append(gotQuery, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
		switch r.URL.Path {
		case nxapi.PathGetData:
			w.Write([]byte(grouped))
		case nxapi.PathGetDataCurva:
			w.Write([]byte(flat))
		}
	})
	ctx := context.Background()
	arts, err := c.GetData(ctx, 0)
	if err != nil || len(arts) != 1 || len(arts[0].Curva) != 2 || arts[0].Curva[0].CodigoBarras != "779" {
		t.Fatalf("GetData = %+v, %v", arts, err)
	}
	recs, err := c.GetDataCurva(ctx, 3)
	if err != nil || len(recs) != 2 || !recs[1].Eliminado {
		t.Fatalf("GetDataCurva = %+v, %v", recs, err)
	}
	want := []string{"GET " + nxapi.PathGetData + "?", "GET " + nxapi.PathGetDataCurva + "?depositoId=3"}
	if strings.Join(gotQuery, "|") != strings.Join(want, "|") {
		t.Errorf("requests = %q, want %q", gotQuery, want)
	}
}

func TestCatalogReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		check  func(error) bool
	}{
		{"empty catalog", 200, `[]`, func(err error) bool { return errors.Is(err, nxapi.ErrEmptyCatalog) }},
		{"not json", 200, `<html>`, func(err error) bool { var ce *nxapi.CatalogError; return errors.As(err, &ce) }},
		{"wrong type", 200, `[{"articuloId":1,"codigo":[1]}]`, func(err error) bool {
			var we *WireTypeError
			return errors.As(err, &we) && we.Wire.Field == "codigo"
		}},
		{"window", 403, `{"error":"Debe esperar 412 segundos entre cada solicitud"}`, func(err error) bool {
			var we *WaitError
			return errors.As(err, &we) && we.Wait == 412*time.Second
		}},
		{"warehouse", 403, `{"error":"El deposito 9 no esta configurado en esta integracion"}`, func(err error) bool {
			var ae *APIError
			return errors.As(err, &ae) && strings.Contains(ae.Message, "deposito 9")
		}},
		{"token", 401, ``, func(err error) bool { return errors.Is(err, ErrUnauthorized) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, c := newServer(t, NewToken("t"), 0, answer(tc.status, tc.body))
			_, err := c.GetDataCurva(context.Background(), 0)
			if err == nil || !tc.check(err) {
				t.Fatalf("error = %v (%T)", err, err)
			}
			if !strings.Contains(err.Error(), "GetDataCurva") {
				t.Errorf("error %q does not name the endpoint", err)
			}
		})
	}
}

// TestCatalogAnswerLargerThanMaxBody: a catalog may be far larger than
// any other answer (MaxBody), up to MaxCatalogBody.
func TestCatalogAnswerLargerThanMaxBody(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	n := 0
	for b.Len() < MaxBody+1024 {
		if n > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"articuloId":1,"codigo":"A1","descripcion":"` + strings.Repeat("x", 200) + `"}`)
		n++
	}
	b.WriteString("]")
	_, c := newServer(t, NewToken("t"), 0, answer(200, b.String()))
	recs, err := c.GetDataCurva(context.Background(), 0)
	if err != nil || len(recs) != n {
		t.Fatalf("got %d records, %v; want %d", len(recs), err, n)
	}
}
