package msg

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"strings"
	"syscall"
)

// causes are the system failures a user meets, in their words; the system's
// own text (English) is kept only for what is not among them.
var causes = []struct {
	is  func(error) bool
	key string
}{
	{func(err error) bool { return errors.Is(err, fs.ErrNotExist) }, "cause.notexist"},
	{func(err error) bool { return errors.Is(err, fs.ErrPermission) }, "cause.permission"},
	{func(err error) bool { return errors.Is(err, syscall.ENOSPC) }, "cause.nospace"},
	{func(err error) bool { return errors.Is(err, syscall.EROFS) }, "cause.readonly"},
	{func(err error) bool { return errors.Is(err, syscall.EISDIR) }, "cause.isdir"},
	{func(err error) bool { return errors.Is(err, syscall.ENOTDIR) }, "cause.notdir"},
	{func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }, "cause.refused"},
	{func(err error) bool { return errors.Is(err, syscall.EADDRINUSE) }, "cause.addrinuse"},
	{func(err error) bool { var d *net.DNSError; return errors.As(err, &d) }, "cause.dns"},
	{func(err error) bool {
		var ne net.Error
		return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
	}, "cause.timeout"},
	{func(err error) bool { return errors.Is(err, syscall.ECONNRESET) }, "cause.reset"},
	{func(err error) bool {
		return errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH)
	}, "cause.unreachable"},
}

// CauseText says what went wrong underneath an operation, in language l:
// a message of the catalog when the error carries one, the system failure
// in the user's words when it is a known one, else the error's own text,
// quoted as the technical detail it is.
func CauseText(err error, l Lang) string {
	text, _ := causeText(err, l)
	return text
}

// causeText is CauseText, and whether the text is the user's words (not a
// technical detail quoted).
func causeText(err error, l Lang) (string, bool) {
	var me *Error
	if errors.As(err, &me) && me.Msg.Key != "" {
		return me.In(l), true
	}
	// Another error of nxbatch's that speaks the user's language (a
	// reader's or a file's error, a journal's refusal).
	var lz interface {
		error
		In(Lang) string
	}
	if errors.As(err, &lz) {
		return lz.In(l), true
	}
	var mr interface {
		error
		Message() Message
	}
	if errors.As(err, &mr) {
		return mr.Message().In(l), true
	}
	for _, c := range causes {
		if c.is(err) {
			return New(c.key).In(l), true
		}
	}
	return "«" + err.Error() + "»", false
}

// causeArg renders an error's cause in the language of the message it is
// an argument of.
type causeArg struct{ err error }

func (c causeArg) In(l Lang) string { return CauseText(c.err, l) }

// CauseOf is err as a message argument: rendered by CauseText in the
// language the message is rendered in.
func CauseOf(err error) Localizer { return causeArg{err} }

// SourceOf is a journal entry's source as a message argument: rendered by
// Source in the language the message is rendered in.
func SourceOf(src string) Localizer { return sourceArg(src) }

type sourceArg string

func (s sourceArg) In(l Lang) string { return Source(string(s), l) }

// Source renders a journal entry's source ("ventas.csv rows 2-5", "stock.csv
// row 7": the file and its rows, as the journal keeps it, in English words
// whatever the run's language) in language l.
func Source(src string, l Lang) string {
	for _, w := range []struct{ word, key string }{{" rows ", "src.rows"}, {" row ", "src.row"}} {
		if i := strings.LastIndex(src, w.word); i >= 0 {
			return src[:i] + " " + New(w.key).In(l) + " " + src[i+len(w.word):]
		}
	}
	return src
}
