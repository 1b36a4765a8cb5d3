package msg_test

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
)

// TestPositionedErrorsAreMsgErrors drives readers, schema and pipeline into
// their positioned problems: each is a *msg.Error (errors.As) at the
// expected Position, carries its code for errors.Is, and renders its
// position the one way msg.Position.Message does, in both languages.
func TestPositionedErrorsAreMsgErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	venta := "ordenId,usuario.email,productos.articuloId,productos.precio,productos.cantidad,subtotal,descuento,recargo,envio,total,medioPago.tipo\n"
	missing := filepath.Join(dir, "nada.csv")
	empty := write("vacio.csv", "")
	notBook := write("libro.xlsx", "esto no es un libro")
	quote := write("comillas.csv", "a,b,total\n1,2,3\n4,5,x\"y\n")
	ragged := write("largo.csv", "a,b\n1,2\n3,4,5\n")
	noKind := write("otro.csv", "a,b\n1,2\n")
	noCol := write("ventas.csv", "ordenId,total\n1,2\n")
	noRows := write("solo.csv", venta)

	// firstRecord reads path's first sheet to its first record with a
	// Problem, or to its first error.
	firstRecord := func(path string) error {
		f, err := readers.Open(path, readers.Options{})
		if err != nil {
			return err
		}
		defer f.Close()
		sr, err := f.Sheet(f.Sheets()[0])
		if err != nil {
			return err
		}
		defer sr.Close()
		for {
			rec, err := sr.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if rec.Problem != nil {
				return rec.Problem
			}
		}
	}
	load := func(path string) error {
		_, err := pipeline.Load(path, pipeline.LoadOptions{})
		return err
	}
	_, herrs := schema.Match(schema.Venta, []string{"ordenId", "total"}, nil)
	var headerErr error
	if len(herrs) > 0 {
		headerErr = herrs[0]
	}
	_, cellErr := schema.ParseNumber("doce", schema.SepComma, false)
	var dupErr error
	_, dups := schema.Match(schema.Venta, []string{"ordenId", "total", "Total "}, nil)
	for _, d := range dups {
		if errors.Is(d, schema.ErrDuplicateColumn) {
			dupErr = d
		}
	}

	tests := []struct {
		name  string
		err   error
		pos   msg.Position
		codes []error // each must match with errors.Is
	}{
		{"reader: file not found", firstRecord(missing), msg.Position{File: missing}, []error{fs.ErrNotExist}},
		{"reader: empty file", firstRecord(empty), msg.Position{File: empty}, []error{readers.ErrEmptyFile}},
		{"reader: not a workbook", firstRecord(notBook), msg.Position{File: notBook}, []error{readers.ErrNotXLSX}},
		{"reader: bare quote at its cell", firstRecord(quote), msg.Position{File: quote, Row: 3, Column: "total"}, []error{csv.ErrBareQuote}},
		{"reader: row longer than the header", firstRecord(ragged), msg.Position{File: ragged, Row: 3}, nil},
		{"schema: missing column", headerErr, msg.Position{}, []error{schema.ErrMissingColumn}},
		{"schema: duplicate column at its column and field", dupErr, msg.Position{Column: "Total ", Field: "total"}, []error{schema.ErrDuplicateColumn}},
		{"schema: a cell that is no number", cellErr, msg.Position{}, []error{schema.ErrCell}},
		{"pipeline: no kind", load(noKind), msg.Position{File: noKind}, []error{pipeline.ErrNoKind}},
		{"pipeline: header missing a column", load(noCol), msg.Position{File: noCol}, []error{pipeline.ErrHeader, schema.ErrMissingColumn}},
		{"pipeline: no rows", load(noRows), msg.Position{File: noRows}, []error{pipeline.ErrNoRows}},
		{"pipeline: a reader's problem as the reader said it", load(empty), msg.Position{File: empty}, []error{readers.ErrEmptyFile}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var me *msg.Error
			if !errors.As(tt.err, &me) {
				t.Fatalf("error %v (%T), want a *msg.Error", tt.err, tt.err)
			}
			if me.Pos != tt.pos {
				t.Errorf("position %+v, want %+v", me.Pos, tt.pos)
			}
			for _, c := range tt.codes {
				if !errors.Is(tt.err, c) {
					t.Errorf("errors.Is(%v, %v) = false", tt.err, c)
				}
			}
			for _, l := range []msg.Lang{msg.ES, msg.EN} {
				want := me.Msg.In(l)
				if w := me.Pos.Message(); w.Key != "" {
					want = w.In(l) + ": " + want
				}
				if got := me.In(l); got != want {
					t.Errorf("In(%s) = %q, want %q", l, got, want)
				}
			}
			if me.Error() != me.In(msg.ES) {
				t.Errorf("Error() = %q, want the Spanish rendering %q", me.Error(), me.In(msg.ES))
			}
		})
	}
}

// TestPositionRendering is the one format of a position, the same for
// every error that has one, and on the page by the file's base name.
func TestPositionRendering(t *testing.T) {
	m := msg.New("hdr.duplicate", "Total", "total", "total")
	path := filepath.Join("srv", "uploads", "abc", "ventas.xlsx")
	tests := []struct {
		pos    msg.Position
		es, en string // the position's part, before ": "
	}{
		{msg.Position{File: path}, path, path},
		{msg.Position{File: path, Sheet: "Ventas"}, path + ", hoja Ventas", path + ", sheet Ventas"},
		{msg.Position{File: path, Row: 12}, path + ", fila 12", path + ", row 12"},
		{msg.Position{File: path, Sheet: "Ventas", Row: 12}, path + ", hoja Ventas, fila 12", path + ", sheet Ventas, row 12"},
		{msg.Position{File: path, Sheet: "Ventas", Row: 12, Column: "total", Field: "total"}, path + ", hoja Ventas, fila 12, columna total", path + ", sheet Ventas, row 12, column total"},
		{msg.Position{File: path, Row: 3, Column: "precio"}, path + ", fila 3, columna precio", path + ", row 3, column precio"},
	}
	for _, tt := range tests {
		e := &msg.Error{Pos: tt.pos, Msg: m, Err: fs.ErrNotExist}
		// A positioned error's message says its cause: the cause is not
		// appended.
		if got, want := e.In(msg.ES), tt.es+": "+m.In(msg.ES); got != want {
			t.Errorf("%+v: In(es) = %q, want %q", tt.pos, got, want)
		}
		if got, want := e.In(msg.EN), tt.en+": "+m.In(msg.EN); got != want {
			t.Errorf("%+v: In(en) = %q, want %q", tt.pos, got, want)
		}
		base := e.Base()
		if base.Pos.File != "ventas.xlsx" || e.Pos.File != path {
			t.Errorf("Base() file %q (original now %q), want ventas.xlsx and the original kept", base.Pos.File, e.Pos.File)
		}
		if got, want := base.In(msg.ES), e.In(msg.ES)[len(path)-len("ventas.xlsx"):]; got != want {
			t.Errorf("%+v: page text %q, want %q", tt.pos, got, want)
		}
	}
	// A positioned cause of an error without a position, on the page.
	inner := &msg.Error{Pos: msg.Position{File: path, Row: 2}, Msg: m}
	outer := &msg.Error{Msg: msg.New("web.readfailed", "x"), Err: fmt.Errorf("load: %w", inner)}
	if got, want := outer.Base().In(msg.ES), (&msg.Error{Msg: outer.Msg, Err: inner.Base()}).In(msg.ES); got != want || strings.Contains(got, filepath.Dir(path)) {
		t.Errorf("page text %q, want %q without the folders", got, want)
	}
	if got := outer.In(msg.ES); !strings.Contains(got, path) {
		t.Errorf("command line text %q does not name %s", got, path)
	}
	// A file named in a message's sentence, on the page, by its base name.
	w := msg.New("load.unknowncols", msg.FileArg{File: path, Sheet: "Ventas"}, "«x»")
	if got, want := msg.ForPage(w).In(msg.ES), msg.New("load.unknowncols", "ventas.xlsx [Ventas]", "«x»").In(msg.ES); got != want {
		t.Errorf("page warning %q, want %q", got, want)
	}
	if got, want := w.In(msg.ES), msg.New("load.unknowncols", path+" [Ventas]", "«x»").In(msg.ES); got != want {
		t.Errorf("command line warning %q, want %q", got, want)
	}
}

// TestDecisionsUseCodesNotKeys renames the messages of coded errors: every
// errors.Is decision still holds, and a message key without its code
// decides nothing.
func TestDecisionsUseCodesNotKeys(t *testing.T) {
	codes := []error{pipeline.ErrNoKind, pipeline.ErrHeader, pipeline.ErrNoRows, schema.ErrMissingColumn, schema.ErrDuplicateColumn, schema.ErrCell, readers.ErrNoHeader, readers.ErrTooLarge}
	for _, c := range codes {
		renamed := &msg.Error{Pos: msg.Position{File: "a.csv"}, Code: c, Msg: msg.New("some.renamed.key")}
		if !errors.Is(renamed, c) {
			t.Errorf("errors.Is(renamed, %v) = false: the decision followed the key", c)
		}
		for _, other := range codes {
			if other != c && errors.Is(renamed, other) {
				t.Errorf("an error with code %v is also %v", c, other)
			}
		}
	}
	keyOnly := &msg.Error{Msg: msg.New("hdr.missing", "venta", "total")}
	for _, c := range codes {
		if errors.Is(keyOnly, c) {
			t.Errorf("a message key alone matched code %v", c)
		}
	}
}
