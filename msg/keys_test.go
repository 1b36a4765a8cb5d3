package msg_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/schema"
)

// The key test follows every way a catalog key reaches msg.New, msg.Count
// or msg.Lookup, not only literals written at the call:
//
//   - helpers: any function (declared, a func literal bound to a name, or a
//     template function of a FuncMap) whose parameter flows into a key
//     argument, directly or as "prefix." + param, is itself a key sink, to a
//     fixed point; a literal given to it is a key;
//   - a key argument that is a local variable, a constant, a struct field, a
//     map literal indexed, or the result of a function: the literals
//     assigned to it, its values, the literals the function returns;
//   - msg.Message{Key: "..."} literals;
//   - the web page templates' {{t .Lang "key"}} and {{tn .Lang "key" n}};
//   - a key completed at run time ("plan.kind." + kind): its pattern must
//     have an entry in completions, which lists the completions from the
//     code's own tables (schema.Kinds, pipeline.AllStatuses...).
//
// Every key so found must be in the catalog, and every catalog key must be
// found, or listed in unusedAllowed with the reason.

// completions enumerates, for each run-time completed key pattern (a "*"
// where the code adds a value), the values the code can add. A pattern the
// scan meets and this table lacks fails the test.
var completions = map[string]func() [][]string{
	"plan.kind.*":    kinds,
	"web.kind.*":     kinds,
	"web.jrn.ok.*":   kinds,
	"web.template.*": kinds,
	"tpl.intro.*":    kinds, // looked up: a kind may have no intro
	"rep.status.*":   statuses,
	"rep.word.*":     statuses,
	"st.count.*":     statuses,
	"web.st.*":       statuses,
	"web.cat.*":      catalogNames,
	"web.catname.*":  catalogNames,
	"tpl.col.*":      columnPaths,
	"web.field.*":    fieldPaths,
	"tpl.col.*.*":    kindColumnPaths, // looked up: a kind's own wording, when it has one
}

// unusedAllowed are catalog keys the scan cannot see used, with the reason.
var unusedAllowed = map[string]string{}

func kinds() [][]string {
	var out [][]string
	for _, k := range schema.Kinds {
		out = append(out, []string{string(k)})
	}
	return out
}

func statuses() [][]string {
	var out [][]string
	for _, s := range pipeline.AllStatuses {
		out = append(out, []string{s.String()})
	}
	return out
}

func catalogNames() [][]string {
	var out [][]string
	for _, n := range catalog.Names {
		out = append(out, []string{string(n)})
	}
	return out
}

func columnPaths() [][]string { return pathsOf(kindColumns()) }

// fieldPaths are the fields the column screen names: every kind's columns
// and the inventory count's (the counted quantity).
func fieldPaths() [][]string { return pathsOf(append(kindColumns(), schema.CountColumns())) }

func pathsOf(all [][]schema.Column) [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, cols := range all {
		for _, c := range cols {
			if !seen[c.Path] {
				seen[c.Path] = true
				out = append(out, []string{c.Path})
			}
		}
	}
	return out
}

// kindColumns are every kind's columns.
func kindColumns() [][]schema.Column {
	var out [][]schema.Column
	for _, k := range schema.Kinds {
		out = append(out, k.Columns())
	}
	return out
}

func kindColumnPaths() [][]string {
	var out [][]string
	for _, k := range schema.Kinds {
		for _, c := range k.Columns() {
			out = append(out, []string{string(k), c.Path})
		}
	}
	return out
}

// sink is a function whose argument at index arg is a catalog key, after
// prefix. Optional sinks only look a key up (msg.Lookup): the key need not
// exist, but when it does it is used.
type sink struct {
	arg      int
	prefix   string
	optional bool
}

// use is one key (or pattern, with "*" for run-time parts) and where.
type use struct {
	key      string
	where    string
	optional bool
}

type goFile struct {
	path    string
	dir     string
	f       *ast.File
	imports map[string]string // package name → directory, for this module's packages
}

type scanner struct {
	fset    *token.FileSet
	files   []goFile
	sinks   map[string]sink     // callee name ("msg.New", "usage", "text") → sink
	tmpl    map[string]sink     // template function name → sink
	consts  map[string][]string // dir + "." + name → values
	funcs   map[string][]*ast.FuncDecl
	helpers []string
	uses    []use
}

// module is the import path the repository's packages start with.
const module = "github.com/nxbatch/nxbatch/"

// calleeID names what a call calls, package and all: "../msg#New" for
// msg.New (or New inside package msg), dir#name for a function or method of
// the caller's own package.
func (s *scanner) calleeID(gf goFile, fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return gf.dir + "#" + f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			if d, ok := gf.imports[x.Name]; ok {
				return d + "#" + f.Sel.Name
			}
		}
		return gf.dir + "#" + f.Sel.Name
	}
	return ""
}

func newScanner(t *testing.T, root string) *scanner {
	m := filepath.Join(root, "msg") + "#"
	s := &scanner{fset: token.NewFileSet(), sinks: map[string]sink{
		m + "New":    {arg: 0},
		m + "Count":  {arg: 0},
		m + "Lookup": {arg: 0, optional: true},
	}, tmpl: map[string]sink{}, consts: map[string][]string{}, funcs: map[string][]*ast.FuncDecl{}}
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
		f, err := parser.ParseFile(s.fset, path, nil, 0)
		if err != nil {
			return err
		}
		imports := map[string]string{}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			rest, ok := strings.CutPrefix(p, module)
			if !ok {
				continue
			}
			name := filepath.Base(rest)
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = filepath.Join(root, rest)
		}
		s.files = append(s.files, goFile{path: path, dir: filepath.Dir(path), f: f, imports: imports})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, gf := range s.files {
		for _, d := range gf.f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s.funcs[d.Name.Name] = append(s.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				if d.Tok != token.CONST && d.Tok != token.VAR {
					continue
				}
				for _, sp := range d.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							if v, ok := literal(vs.Values[i]); ok {
								s.consts[gf.dir+"."+n.Name] = append(s.consts[gf.dir+"."+n.Name], v)
							}
						}
					}
				}
			}
		}
	}
	return s
}

func literal(e ast.Expr) (string, bool) {
	if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
		v, err := strconv.Unquote(b.Value)
		return v, err == nil
	}
	return "", false
}

// params lists a function's parameter names in order.
func params(ft *ast.FuncType) []string {
	var out []string
	for _, f := range ft.Params.List {
		if len(f.Names) == 0 {
			out = append(out, "_")
		}
		for _, n := range f.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

// findSinks grows s.sinks to a fixed point: a function passing its parameter
// (or "lit" + parameter) as a key argument is a sink too.
func (s *scanner) findSinks() {
	for changed := true; changed; {
		changed = false
		check := func(gf goFile, name string, ft *ast.FuncType, body *ast.BlockStmt, into map[string]sink) {
			if body == nil || name == "" {
				return
			}
			if _, ok := into[name]; ok {
				return
			}
			ps := params(ft)
			ast.Inspect(body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sk, ok := s.sinks[s.calleeID(gf, call.Fun)]
				if !ok || sk.arg >= len(call.Args) {
					return true
				}
				prefix, id := "", call.Args[sk.arg]
				if b, ok := id.(*ast.BinaryExpr); ok && b.Op == token.ADD {
					if lit, ok := literal(b.X); ok {
						prefix, id = lit, b.Y
					}
				}
				x, ok := id.(*ast.Ident)
				if !ok {
					return true
				}
				for i, p := range ps {
					if p == x.Name {
						into[name] = sink{arg: i, prefix: sk.prefix + prefix, optional: sk.optional}
						s.helpers = append(s.helpers, name)
						changed = true
						return false
					}
				}
				return true
			})
		}
		for _, gf := range s.files {
			ast.Inspect(gf.f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					check(gf, gf.dir+"#"+n.Name.Name, n.Type, n.Body, s.sinks)
				case *ast.AssignStmt:
					for i, r := range n.Rhs {
						if fl, ok := r.(*ast.FuncLit); ok && i < len(n.Lhs) {
							if id, ok := n.Lhs[i].(*ast.Ident); ok {
								check(gf, gf.dir+"#"+id.Name, fl.Type, fl.Body, s.sinks)
							}
						}
					}
				case *ast.ValueSpec:
					for i, r := range n.Values {
						if fl, ok := r.(*ast.FuncLit); ok && i < len(n.Names) {
							check(gf, gf.dir+"#"+n.Names[i].Name, fl.Type, fl.Body, s.sinks)
						}
					}
				case *ast.KeyValueExpr:
					if fl, ok := n.Value.(*ast.FuncLit); ok {
						if name, ok := literal(n.Key); ok {
							check(gf, name, fl.Type, fl.Body, s.tmpl)
						}
					}
				}
				return true
			})
		}
	}
}

// scope is what eval knows of the function a key argument sits in.
type scope struct {
	dir  string
	fn   ast.Node // *ast.FuncDecl or *ast.FuncLit enclosing the call
	seen map[string]bool
}

// eval returns the values e can take; "*" stands for a part known only at
// run time. A parameter of a sink returns nothing: its callers are scanned.
func (s *scanner) eval(sc scope, e ast.Expr, depth int) []string {
	if depth > 6 {
		return []string{"*"}
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if v, ok := literal(e); ok {
			return []string{v}
		}
	case *ast.ParenExpr:
		return s.eval(sc, e.X, depth+1)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			break
		}
		var out []string
		for _, l := range s.eval(sc, e.X, depth+1) {
			for _, r := range s.eval(sc, e.Y, depth+1) {
				out = append(out, joinStar(l, r))
			}
		}
		return out
	case *ast.Ident:
		if isParam(sc.fn, e.Name) {
			return []string{"*"}
		}
		if vs := s.assigned(sc, e.Name, depth); vs != nil {
			return vs
		}
		if vs, ok := s.consts[sc.dir+"."+e.Name]; ok {
			return vs
		}
	case *ast.SelectorExpr:
		// A struct field holding a key: the literals assigned to that field
		// in the same package.
		if vs := s.fieldValues(sc.dir, e.Sel.Name); vs != nil {
			return vs
		}
		if e.Sel.Name == "Key" {
			// A msg.Message's key, passed on: checked where the message
			// was made.
			return nil
		}
	case *ast.IndexExpr:
		if cl, ok := e.X.(*ast.CompositeLit); ok {
			return s.mapValues(sc, cl, depth)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "string" && len(e.Args) == 1 {
			return s.eval(sc, e.Args[0], depth+1)
		}
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			if f, ok := literal(e.Args[0]); ok {
				return []string{regexp.MustCompile(`%[a-z]`).ReplaceAllString(f, "*")}
			}
		}
		// A function that returns keys: the values of its return statements,
		// when its name is unique in the repository.
		var name string
		switch f := e.Fun.(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
		if fds := s.funcs[name]; len(fds) == 1 && !sc.seen[name] {
			seen := map[string]bool{name: true}
			for k := range sc.seen {
				seen[k] = true
			}
			inner := scope{dir: s.dirOf(fds[0]), fn: fds[0], seen: seen}
			var out []string
			ast.Inspect(fds[0].Body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
					out = append(out, s.eval(inner, r.Results[0], depth+1)...)
				}
				return true
			})
			return out
		}
	}
	return []string{"*"}
}

func joinStar(l, r string) string {
	if strings.HasSuffix(l, "*") && strings.HasPrefix(r, "*") {
		return l + r[1:]
	}
	return l + r
}

func (s *scanner) dirOf(n ast.Node) string {
	for _, gf := range s.files {
		if gf.f.Pos() <= n.Pos() && n.End() <= gf.f.End() {
			return gf.dir
		}
	}
	return ""
}

func funcType(fn ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Type, fn.Body
	case *ast.FuncLit:
		return fn.Type, fn.Body
	}
	return nil, nil
}

func isParam(fn ast.Node, name string) bool {
	ft, _ := funcType(fn)
	if ft == nil {
		return false
	}
	for _, p := range params(ft) {
		if p == name {
			return true
		}
	}
	return false
}

// isSinkParam reports whether name is the key parameter of a sink.
func (s *scanner) isSinkParam(fn ast.Node, name string) bool {
	ft, body := funcType(fn)
	_ = body
	var sk sink
	var ok bool
	switch f := fn.(type) {
	case *ast.FuncDecl:
		sk, ok = s.sinks[s.dirOf(f)+"#"+f.Name.Name]
	case *ast.FuncLit:
		name, tmpl := s.litName(f)
		if tmpl {
			sk, ok = s.tmpl[name]
		} else {
			sk, ok = s.sinks[s.dirOf(f)+"#"+name]
		}
	}
	ps := params(ft)
	return ok && sk.arg < len(ps) && ps[sk.arg] == name
}

// lookedUp reports whether a key argument sits in the body of an
// if _, ok := msg.Lookup(same key); ok { ... }: the key need not exist.
func (s *scanner) lookedUp(stack []ast.Node, prefix string, arg ast.Expr) bool {
	want := prefix + types.ExprString(arg)
	for i, n := range stack {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || i+1 >= len(stack) || stack[i+1] != ifs.Body {
			continue
		}
		as, ok := ifs.Init.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			continue
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			continue
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Lookup" && types.ExprString(call.Args[0]) == want {
			return true
		}
	}
	return false
}

// forwards reports whether key argument e is the enclosing sink's own key
// parameter, as is or after a literal prefix: its callers give the keys.
func (s *scanner) forwards(fn ast.Node, e ast.Expr) bool {
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		if _, ok := literal(b.X); ok {
			e = b.Y
		}
	}
	id, ok := e.(*ast.Ident)
	return ok && s.isSinkParam(fn, id.Name)
}

// aliasSink resolves a call through a local variable bound to a sink
// (report := c.add; if warn { report = c.warn }).
func (s *scanner) aliasSink(gf goFile, fn ast.Node, fun ast.Expr) (sink, bool) {
	id, ok := fun.(*ast.Ident)
	_, body := funcType(fn)
	if !ok || body == nil {
		return sink{}, false
	}
	var found sink
	ok = false
	ast.Inspect(body, func(n ast.Node) bool {
		as, isAssign := n.(*ast.AssignStmt)
		if !isAssign || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if lid, isID := l.(*ast.Ident); isID && lid.Name == id.Name {
				if sk, isSink := s.sinks[s.calleeID(gf, as.Rhs[i])]; isSink {
					found, ok = sk, true
				}
			}
		}
		return true
	})
	return found, ok
}

// litName is the name a func literal is bound to, if any.
func (s *scanner) litName(fl *ast.FuncLit) (string, bool) {
	name, tmpl := "", false
	for _, gf := range s.files {
		ast.Inspect(gf.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, r := range n.Rhs {
					if r == fl && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							name = id.Name
						}
					}
				}
			case *ast.ValueSpec:
				for i, r := range n.Values {
					if r == fl {
						name = n.Names[i].Name
					}
				}
			case *ast.KeyValueExpr:
				if n.Value == fl {
					name, _ = literal(n.Key)
					tmpl = true
				}
			}
			return name == ""
		})
	}
	return name, tmpl
}

// assigned returns the values assigned to local variable name in the
// enclosing function, nil when it has none there.
func (s *scanner) assigned(sc scope, name string, depth int) []string {
	_, body := funcType(sc.fn)
	if body == nil {
		return nil
	}
	var out, suffixes []string
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name && len(n.Rhs) == len(n.Lhs) {
					found = true
					if n.Tok == token.ADD_ASSIGN {
						suffixes = append(suffixes, s.eval(sc, n.Rhs[i], depth+1)...)
						continue
					}
					out = append(out, s.eval(sc, n.Rhs[i], depth+1)...)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == name && i < len(n.Values) {
					found = true
					out = append(out, s.eval(sc, n.Values[i], depth+1)...)
				}
			}
		case *ast.RangeStmt:
			// for _, key := range []string{"a", "b"}
			if id, ok := n.Value.(*ast.Ident); ok && id.Name == name {
				if cl, ok := n.X.(*ast.CompositeLit); ok {
					found = true
					for _, el := range cl.Elts {
						out = append(out, s.eval(sc, el, depth+1)...)
					}
				}
			}
		}
		return true
	})
	if !found {
		return nil
	}
	// key := "dur.sec"; if ... { key += ".one" }: either.
	for _, b := range out[:len(out):len(out)] {
		for _, suf := range suffixes {
			out = append(out, joinStar(b, suf))
		}
	}
	return out
}

// fieldValues returns the literals assigned to a field named field in the
// package in dir: in composite literals, keyed (field: "lit") or positional
// (a table of []struct{...; field string}), and assignments (x.field = "lit").
func (s *scanner) fieldValues(dir, field string) []string {
	var out []string
	structs := map[string]int{} // struct type name → index of field
	for _, gf := range s.files {
		if gf.dir != dir {
			continue
		}
		ast.Inspect(gf.f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if i := fieldIndex(ts.Type, field); i >= 0 {
					structs[ts.Name.Name] = i
				}
			}
			return true
		})
	}
	index := func(t ast.Expr) int {
		if id, ok := t.(*ast.Ident); ok {
			if i, ok := structs[id.Name]; ok {
				return i
			}
			return -1
		}
		return fieldIndex(t, field)
	}
	positional := func(cl *ast.CompositeLit, i int) {
		if i < 0 || i >= len(cl.Elts) {
			return
		}
		if _, ok := cl.Elts[i].(*ast.KeyValueExpr); ok {
			return
		}
		if v, ok := literal(cl.Elts[i]); ok {
			out = append(out, v)
		}
	}
	for _, gf := range s.files {
		if gf.dir != dir {
			continue
		}
		ast.Inspect(gf.f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if n.Type != nil {
					positional(n, index(n.Type))
				}
				var elt ast.Expr
				switch t := n.Type.(type) {
				case *ast.ArrayType:
					elt = t.Elt
				case *ast.MapType:
					elt = t.Value
				}
				if elt == nil {
					break
				}
				if st, ok := elt.(*ast.StarExpr); ok {
					elt = st.X
				}
				i := index(elt)
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						e = kv.Value
					}
					if u, ok := e.(*ast.UnaryExpr); ok {
						e = u.X
					}
					if cl, ok := e.(*ast.CompositeLit); ok && cl.Type == nil {
						positional(cl, i)
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == field {
					if v, ok := literal(n.Value); ok {
						out = append(out, v)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == field && i < len(n.Rhs) {
						if v, ok := literal(n.Rhs[i]); ok {
							out = append(out, v)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// fieldIndex is the position of field in struct type t, -1 if t is not a
// struct with it.
func fieldIndex(t ast.Expr, field string) int {
	st, ok := t.(*ast.StructType)
	if !ok {
		return -1
	}
	i := 0
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if n.Name == field {
				return i
			}
			i++
		}
	}
	return -1
}

func (s *scanner) mapValues(sc scope, cl *ast.CompositeLit, depth int) []string {
	var out []string
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			out = append(out, s.eval(sc, kv.Value, depth+1)...)
		}
	}
	return out
}

// collect records every key argument of every sink call, and every
// msg.Message{Key: ...} literal.
func (s *scanner) collect() {
	for _, gf := range s.files {
		var stack []ast.Node
		ast.Inspect(gf.f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			var fn ast.Node
			for i := len(stack) - 1; i >= 0; i-- {
				switch stack[i].(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					fn = stack[i]
				}
				if fn != nil {
					break
				}
			}
			sc := scope{dir: gf.dir, fn: fn, seen: map[string]bool{}}
			switch n := n.(type) {
			case *ast.CallExpr:
				sk, ok := s.sinks[s.calleeID(gf, n.Fun)]
				if !ok {
					sk, ok = s.aliasSink(gf, fn, n.Fun)
				}
				if !ok || sk.arg >= len(n.Args) {
					return true
				}
				if s.forwards(fn, n.Args[sk.arg]) {
					return true // a helper passing its own key on: its callers are scanned
				}
				where := s.fset.Position(n.Pos()).String()
				optional := sk.optional || s.lookedUp(stack, sk.prefix, n.Args[sk.arg])
				vals := s.eval(sc, n.Args[sk.arg], 0)
				if sel, ok := n.Args[sk.arg].(*ast.SelectorExpr); len(vals) == 0 && (!ok || sel.Sel.Name != "Key") {
					// Nothing found for it: say so, rather than check nothing.
					vals = []string{"(" + types.ExprString(n.Args[sk.arg]) + ")"}
				}
				for _, v := range vals {
					s.uses = append(s.uses, use{key: sk.prefix + v, where: where, optional: optional})
				}
			case *ast.CompositeLit:
				if s.calleeID(gf, n.Type) != filepath.Join("..", "msg")+"#Message" {
					return true
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Key" && !s.forwards(fn, kv.Value) {
							where := s.fset.Position(n.Pos()).String()
							for _, v := range s.eval(sc, kv.Value, 0) {
								s.uses = append(s.uses, use{key: v, where: where})
							}
						}
					}
				}
			}
			return true
		})
	}
}

// templateCall finds a template function call: {{name or (name.
var templateCall = regexp.MustCompile(`(?:\{\{-?|\()\s*([a-z]+)\s`)

// templateArgs splits a template call's arguments: quoted strings,
// parenthesised pipelines and bare words, up to the end of the action.
func templateArgs(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '}' || c == ')' || c == '|':
			return out
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, s[i:j+1])
			i = j + 1
		case c == '(':
			depth, j := 0, i
			for ; j < len(s); j++ {
				if s[j] == '(' {
					depth++
				} else if s[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			out = append(out, s[i:j+1])
			i = j + 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n})|", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

var printfArg = regexp.MustCompile(`^\(printf\s+("(?:[^"\\]|\\.)*")`)

// scanTemplates records the keys the page templates give their template
// functions.
func (s *scanner) scanTemplates(t *testing.T, dir string) int {
	paths, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no templates in %s: %v", dir, err)
	}
	calls := 0
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range templateCall.FindAllStringSubmatchIndex(src, -1) {
			sk, ok := s.tmpl[src[m[2]:m[3]]]
			if !ok {
				continue
			}
			calls++
			line := strings.Count(src[:m[0]], "\n") + 1
			where := fmt.Sprintf("%s:%d", path, line)
			args := templateArgs(src[m[3]:])
			if sk.arg >= len(args) {
				t.Errorf("%s: %s has no key argument", where, src[m[2]:m[3]])
				continue
			}
			a := args[sk.arg]
			if pm := printfArg.FindStringSubmatch(a); pm != nil {
				a = pm[1]
				f, _ := strconv.Unquote(a)
				s.uses = append(s.uses, use{key: sk.prefix + regexp.MustCompile(`%[a-z]`).ReplaceAllString(f, "*"), where: where})
				continue
			}
			v, err := strconv.Unquote(a)
			if err != nil {
				v = "*"
			}
			s.uses = append(s.uses, use{key: sk.prefix + v, where: where, optional: sk.optional})
		}
	}
	return calls
}

// expand replaces a pattern's "*" parts by the completions listed for it.
func expand(pattern string) ([]string, bool) {
	f, ok := completions[pattern]
	if !ok {
		return nil, false
	}
	parts := strings.Split(pattern, "*")
	var out []string
	for _, c := range f() {
		if len(c) != len(parts)-1 {
			return nil, false
		}
		var b strings.Builder
		for i, p := range parts {
			b.WriteString(p)
			if i < len(c) {
				b.WriteString(c[i])
			}
		}
		out = append(out, b.String())
	}
	return out, true
}

// looksLikeKey keeps scanned values that are meant as keys: an empty key is
// "no message" (Message{}), not a use.
var looksLikeKey = regexp.MustCompile(`^[a-z][a-zA-Z0-9_*-]*\.[a-zA-Z0-9_.*-]+$`)

// TestEveryKeyIsInTheCatalog scans the repository's Go files and page
// templates so that a message key typed in code but never registered fails
// here, not in a report an accountant reads; and so that a registered key
// nothing uses is removed (or its use explained in unusedAllowed).
func TestEveryKeyIsInTheCatalog(t *testing.T) {
	s := newScanner(t, "..")
	s.findSinks()
	s.collect()
	calls := s.scanTemplates(t, filepath.Join("..", "webapp", "templates"))
	if calls < 20 {
		t.Fatalf("found only %d template calls: the template scan is broken", calls)
	}
	sort.Strings(s.helpers)
	t.Logf("key helpers: %s; template functions: %v", strings.Join(slices.Compact(s.helpers), ", "), keysOf(s.tmpl))

	used := map[string]bool{}
	checked := map[string]bool{}
	patterns := map[string]bool{}
	for _, u := range s.uses {
		if u.key == "" {
			continue
		}
		if !looksLikeKey.MatchString(u.key) {
			t.Errorf("%s: %q does not look like a message key; the scan misread it", u.where, u.key)
			continue
		}
		keys := []string{u.key}
		if strings.Contains(u.key, "*") {
			patterns[u.key] = true
			var ok bool
			if keys, ok = expand(u.key); !ok {
				t.Errorf("%s: key %q is completed at run time: list its completions in completions", u.where, u.key)
				continue
			}
		}
		for _, k := range keys {
			checked[k] = true
			used[k] = true
			if _, ok := msg.Lookup(k); !ok && !u.optional && !strings.Contains(u.key, "*") {
				t.Errorf("%s uses message key %q, which is not in the catalog", u.where, k)
			}
			if _, ok := msg.Lookup(k); !ok && !u.optional && strings.Contains(u.key, "*") {
				t.Errorf("%s uses message key %q (%s), which is not in the catalog", u.where, k, u.key)
			}
		}
	}
	for p := range completions {
		if !patterns[p] {
			t.Errorf("completions lists %q, which no code completes at run time: remove it", p)
		}
	}
	// msg.Count's singular ("K.one") and ForPage's page wording
	// ("web.page.K") follow the key they vary.
	for _, k := range msg.Keys() {
		if base, ok := strings.CutSuffix(k, ".one"); ok && used[base] {
			used[k] = true
		}
	}
	for _, k := range msg.Keys() {
		if base, ok := strings.CutPrefix(k, "web.page."); ok && used[base] {
			used[k] = true
			if b, ok := strings.CutSuffix(base, ".one"); ok && used[b] {
				used[k] = true
			}
		}
	}
	for _, k := range msg.Keys() {
		if used[k] {
			if _, ok := unusedAllowed[k]; ok {
				t.Errorf("message key %q is used: remove it from unusedAllowed", k)
			}
			continue
		}
		if _, ok := unusedAllowed[k]; !ok {
			t.Errorf("message key %q is in the catalog but nothing uses it: remove it, or say why in unusedAllowed", k)
		}
	}
	for k := range unusedAllowed {
		if _, ok := msg.Lookup(k); !ok {
			t.Errorf("unusedAllowed lists %q, which is not in the catalog", k)
		}
	}
	inCatalog := 0
	for k := range checked {
		if _, ok := msg.Lookup(k); ok {
			inCatalog++
		}
	}
	t.Logf("%d uses name %d keys (%d of them in the catalog, the rest looked up first); %d of the catalog's %d keys are used", len(s.uses), len(checked), inCatalog, countUsed(used), len(msg.Keys()))
	if inCatalog < 800 {
		t.Fatalf("found only %d catalog keys used: the scan is broken", inCatalog)
	}
}

func countUsed(used map[string]bool) int {
	n := 0
	for _, k := range msg.Keys() {
		if used[k] {
			n++
		}
	}
	return n
}

func keysOf(m map[string]sink) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
