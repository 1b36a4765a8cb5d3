package webapp

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/readers"
	"github.com/nxbatch/nxbatch/schema"
)

// TestHeaderProblemDecidesOnCodes: the mapping screen is chosen by the
// error's codes, so a renamed message changes nothing and a message key
// without its code chooses nothing.
func TestHeaderProblemDecidesOnCodes(t *testing.T) {
	at := msg.Position{File: "/srv/u/ventas.csv"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"no kind, renamed message", &msg.Error{Pos: at, Code: pipeline.ErrNoKind, Msg: msg.New("renamed.nokind")}, true},
		{"missing column, wrapped", fmt.Errorf("load: %w", &msg.Error{Pos: at, Code: pipeline.ErrHeader, Msg: msg.New("renamed"),
			Err: errors.Join(&msg.Error{Code: schema.ErrMissingColumn, Msg: msg.New("renamed.missing")})}), true},
		{"duplicate column", &msg.Error{Pos: at, Code: pipeline.ErrHeader, Err: &msg.Error{Code: schema.ErrDuplicateColumn}}, true},
		{"a count's columns only", &msg.Error{Pos: at, Code: pipeline.ErrHeader, Err: &msg.Error{Code: schema.ErrCountColumns}}, false},
		{"the old key without its code", &msg.Error{Pos: at, Msg: msg.New("load.nokind")}, false},
		{"hdr.missing without its code", &msg.Error{Pos: at, Msg: msg.New("hdr.missing", "venta", "total")}, false},
		{"a reader's problem", &msg.Error{Pos: at, Code: readers.ErrNoHeader, Msg: msg.New("rd.noheader")}, false},
		{"no error", nil, false},
	}
	for _, tt := range tests {
		if got := headerProblem(tt.err); got != tt.want {
			t.Errorf("%s: headerProblem = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFileTextShowsBaseNames: the page names a file by its base name from
// the error's Position (and a failed file operation's path), never the
// server's folders, and otherwise says what the command line says.
func TestFileTextShowsBaseNames(t *testing.T) {
	s := &Server{}
	u := &upload{}
	dir := filepath.Join(string(filepath.Separator)+"srv", "state", "uploads", "abc")
	path := filepath.Join(dir, "ventas.csv")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"positioned", &msg.Error{Pos: msg.Position{File: path, Row: 3, Column: "total"}, Msg: msg.New("load.norows")},
			(&msg.Error{Pos: msg.Position{File: "ventas.csv", Row: 3, Column: "total"}, Msg: msg.New("load.norows")}).In(msg.ES)},
		{"wrapped", fmt.Errorf("x: %w", &msg.Error{Pos: msg.Position{File: path, Sheet: "Hoja"}, Msg: msg.New("load.nokind")}),
			(&msg.Error{Pos: msg.Position{File: "ventas.csv", Sheet: "Hoja"}, Msg: msg.New("load.nokind")}).In(msg.ES)},
		{"a file operation", &fs.PathError{Op: "open", Path: path, Err: errors.New("odd")},
			msg.New("web.readfailed", "«open ventas.csv: odd»").In(msg.ES)},
	}
	for _, tt := range tests {
		got := s.fileText(u, tt.err, msg.ES)
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if strings.Contains(got, dir) {
			t.Errorf("%s: %q shows the server's folder", tt.name, got)
		}
	}
}
