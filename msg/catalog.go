// Package msg is nxbatch's one message catalog: every sentence a report,
// summary or row error shows a user, in Spanish (the default) and English.
// Texts are fmt templates; both languages of a key take the same arguments
// in the same order. The API's own messages are never translated: they are
// passed as arguments and quoted verbatim.
//
// Each area keeps its texts in its own file of this package (readers.go,
// validation.go, pipeline.go, ...) and registers them from init; a test
// checks that every key has both languages with matching verbs.
package msg

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Lang is a report language.
type Lang string

// Supported languages.
const (
	ES Lang = "es"
	EN Lang = "en"
)

// ParseLang returns the language for a --lang value.
func ParseLang(s string) (Lang, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "es", "es-ar", "spanish", "español":
		return ES, nil
	case "en", "english":
		return EN, nil
	}
	return "", fmt.Errorf("unknown language %q: use es or en", s)
}

// Text is one catalog entry.
type Text struct {
	ES string
	EN string
}

var catalog = map[string]Text{}

// register adds entries; a duplicate key is a programming error.
func register(texts map[string]Text) {
	for k, v := range texts {
		if _, dup := catalog[k]; dup {
			panic("msg: duplicate key " + k)
		}
		catalog[k] = v
	}
}

// Keys returns every registered key, sorted.
func Keys() []string {
	keys := make([]string, 0, len(catalog))
	for k := range catalog {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Lookup returns the entry for key.
func Lookup(key string) (Text, bool) {
	t, ok := catalog[key]
	return t, ok
}

// Message is a catalog key with its arguments, rendered in a language when
// a report is written, so one run can produce either language.
type Message struct {
	Key  string
	Args []any
}

// Localizer is an argument that renders differently per language.
type Localizer interface {
	In(l Lang) string
}

// New returns the message key with args.
func New(key string, args ...any) Message { return Message{Key: key, Args: args} }

// Count returns the message key with n as its first argument, in the
// singular when n is 1 (the key's ".one" variant: "1 fila", not "1 filas").
func Count(key string, n int, args ...any) Message {
	if n == 1 {
		if _, ok := catalog[key+".one"]; ok {
			key += ".one"
		}
	}
	return New(key, append([]any{n}, args...)...)
}

// In renders m in language l. An unknown key renders as the key itself with
// its arguments, so nothing is ever silently dropped.
func (m Message) In(l Lang) string {
	t, ok := catalog[m.Key]
	if !ok {
		return strings.TrimSpace(m.Key + ": " + fmt.Sprintln(m.Args...))
	}
	tmpl := t.ES
	if l == EN {
		tmpl = t.EN
	}
	if len(m.Args) == 0 {
		return tmpl
	}
	args := m.Args
	copied := false
	for i, a := range args {
		// A nested message, or any value that renders per language (an
		// amount written 1.234,56 or 1,234.56), follows the parent's language.
		if loc, ok := a.(Localizer); ok {
			if !copied {
				args, copied = append([]any(nil), m.Args...), true
			}
			args[i] = loc.In(l)
		}
	}
	return fmt.Sprintf(tmpl, args...)
}

// String renders m in Spanish, the users' language.
func (m Message) String() string { return m.In(ES) }

// Position is where a problem sits in an input file: the file, the sheet
// (empty for CSV), the spreadsheet's own row number (0 for the whole file
// or sheet), the column's header as typed and the API field it fills.
type Position struct {
	File   string
	Sheet  string
	Row    int
	Column string
	Field  string
}

// Message renders the position: "ventas.xlsx, hoja Ventas, fila 12,
// columna «total»". It is the one way a position is written, on the
// command line, in reports and (with Base) on the page. Field is not
// rendered: the user knows the column by its header.
func (p Position) Message() Message {
	var where Message
	switch {
	case p.File == "":
		return Message{}
	case p.Row == 0 && p.Sheet == "":
		where = New("pos.file", p.File)
	case p.Row == 0:
		where = New("pos.sheetonly", p.File, p.Sheet)
	case p.Sheet == "":
		where = New("pos.csv", p.File, p.Row)
	default:
		where = New("pos.sheet", p.File, p.Sheet, p.Row)
	}
	if p.Column != "" {
		return New("pos.column", where, p.Column)
	}
	return where
}

// FileArg is a file (and sheet, when it has one) named in a message's
// sentence, rendered "ventas.xlsx [Ventas]": as given on the command line,
// by its base name on the page (ForPage).
type FileArg struct {
	File  string
	Sheet string
}

// In renders the file and sheet; they read the same in every language.
func (a FileArg) In(Lang) string {
	if a.Sheet == "" {
		return a.File
	}
	return a.File + " [" + a.Sheet + "]"
}

// Base is a with its file by its base name.
func (a FileArg) Base() FileArg {
	if a.File != "" {
		a.File = filepath.Base(a.File)
	}
	return a
}

// Base is p with its file named by its base name only: the page shows a
// file as the accountant knows it, never the server's folders.
func (p Position) Base() Position {
	if p.File != "" {
		p.File = filepath.Base(p.File)
	}
	return p
}

// Error is nxbatch's one error type for what a user is shown: a catalog
// message, where it happened when that is a place in a file, what kind of
// problem it is, and the underlying cause. Readers, schema, pipeline and
// the page return it for every positioned problem. It is rendered once,
// by In, in the run's language, where the exit code is chosen.
//
// Callers decide with errors.Is on Code (a package's sentinel, such as
// readers.ErrNoHeader or schema.ErrMissingColumn) and errors.As, never on
// Msg.Key: a message's wording and key may change, its code does not.
type Error struct {
	Pos  Position
	Code error // what kind of problem, for errors.Is; never rendered
	Msg  Message
	Err  error // the underlying cause, if any
}

// In renders the error in language l: its position, its message and, for
// an error without a position, its cause when the message does not already
// say it (CauseText). A positioned error's message says what to change at
// that place, its cause among its arguments when it matters.
func (e *Error) In(l Lang) string {
	var text string
	switch {
	case e.Msg.Key == "" && e.Err != nil:
		text = CauseText(e.Err, l)
	default:
		text = e.Msg.In(l)
	}
	w := e.Pos.Message()
	if w.Key == "" && e.Msg.Key != "" && e.Err != nil {
		// The cause is added when it is in the user's words and the message
		// does not already say it; a technical detail goes in the message's
		// own arguments when it matters.
		if cause, words := causeText(e.Err, l); words && !strings.Contains(text, cause) {
			// A message that ends a sentence takes its cause before the
			// full stop: "No se pudo leer el archivo X: no existe.".
			if body, ok := strings.CutSuffix(text, "."); ok {
				text = body + ": " + cause + "."
			} else {
				text += ": " + cause
			}
		}
	}
	if w.Key != "" {
		text = w.In(l) + ": " + text
	}
	return text
}

// Error renders the error in Spanish, the users' language; In renders it
// in the run's.
func (e *Error) Error() string { return e.In(ES) }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether the error's Code is target, so that errors.Is finds
// the kind of problem as well as the cause.
func (e *Error) Is(target error) bool { return e.Code != nil && errors.Is(e.Code, target) }

// Base is e as the page shows it: every file it names by its base name,
// its position's (Position.Base), those its message names (FileArg, a
// nested Error) and a positioned cause's.
func (e *Error) Base() *Error {
	c := *e
	c.Pos = c.Pos.Base()
	c.Msg = baseArgs(c.Msg)
	var cause *Error
	if errors.As(c.Err, &cause) {
		// Rendered alike: the cause's text is its first *Error's.
		c.Err = cause.Base()
	}
	return &c
}

// baseArgs is m with the files its arguments name by their base names.
func baseArgs(m Message) Message {
	var args []any
	for i, a := range m.Args {
		var b any
		switch a := a.(type) {
		case Message:
			b = baseArgs(a)
		case FileArg:
			b = a.Base()
		case *Error:
			b = a.Base()
		default:
			continue
		}
		if args == nil {
			args = append([]any(nil), m.Args...)
		}
		args[i] = b
	}
	if args != nil {
		m.Args = args
	}
	return m
}

// Join is messages as one, rendered one after the other separated by
// semicolons ("falta la columna «total»; ..."); a single message is itself.
func Join(ms ...Message) Message {
	if len(ms) == 1 {
		return ms[0]
	}
	return New("msg.join", joined(ms))
}

// joined renders messages in the language of the message around them.
type joined []Message

func (j joined) In(l Lang) string {
	parts := make([]string, len(j))
	for i, m := range j {
		parts[i] = m.In(l)
	}
	return strings.Join(parts, "; ")
}
