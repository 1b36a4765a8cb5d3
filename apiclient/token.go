package apiclient

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"syscall"

	"github.com/nxbatch/nxbatch/msg"
)

// TokenEnv is the environment variable that holds the integration token when
// no token file is given.
const TokenEnv = "NX_TOKEN"

// maxTokenFile caps how much of a token file is read: a token is short, and a
// mistaken path to a large file must not be slurped into memory.
const maxTokenFile = 64 << 10

const redacted = "[redacted]"

// Token is the integration token. It never prints: String, GoString, Format,
// LogValue and MarshalJSON/Text all give "[redacted]".
//
// The value sits behind a pointer so that fmt, which prints the unexported
// fields of an enclosing struct by reflection without calling their
// methods, shows only an address there, never the token.
type Token struct{ v *secret }

type secret struct{ s string }

// NewToken returns s as a Token, as given (no trimming); for the sandbox and
// tests. Real runs use LoadToken.
func NewToken(s string) Token { return Token{v: &secret{s: s}} }

// IsZero reports whether the token is empty.
func (t Token) IsZero() bool { return t.reveal() == "" }

// reveal is the one place the token's text leaves the type: the request
// header and the tenant hash.
func (t Token) reveal() string {
	if t.v == nil {
		return ""
	}
	return t.v.s
}

// String returns "[redacted]".
func (Token) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (Token) GoString() string { return redacted }

// Format writes "[redacted]" for every verb, so %x or %q cannot leak it either.
func (Token) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// LogValue returns "[redacted]" for log/slog.
func (Token) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON returns the JSON string "[redacted]".
func (Token) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText returns "[redacted]".
func (Token) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// LoadToken reads the integration token from tokenFile or, when tokenFile is
// "", from the NX_TOKEN environment variable. A token file must be readable by
// its owner only; surrounding whitespace (a trailing newline) is trimmed. The
// errors are *msg.Error values that tell the user what to do, and never
// contain the token.
func LoadToken(tokenFile string) (Token, error) {
	if tokenFile == "" {
		s := strings.TrimSpace(os.Getenv(TokenEnv))
		if s == "" {
			return Token{}, &msg.Error{Msg: msg.New("cli.token.missing")}
		}
		return checked(s)
	}
	if st, err := os.Stat(tokenFile); err != nil {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.read", tokenFile), Err: err}
	} else if !st.Mode().IsRegular() {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.notfile", tokenFile)}
	}
	// O_NONBLOCK: should the path be swapped for a FIFO after the check,
	// opening it must not wait for a writer.
	f, err := os.OpenFile(tokenFile, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.read", tokenFile), Err: err}
	}
	defer f.Close()
	// Stat the open file, not the path, so the mode checked is the mode of
	// the file actually read (the path was checked before opening, so that
	// a FIFO or a device cannot block the open itself).
	st, err := f.Stat()
	if err != nil {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.read", tokenFile), Err: err}
	}
	if !st.Mode().IsRegular() {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.notfile", tokenFile)}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.perms", tokenFile, fmt.Sprintf("%04o", perm), tokenFile)}
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile))
	if err != nil {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.read", tokenFile), Err: err}
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.emptyfile", tokenFile)}
	}
	return checked(s)
}

// checked refuses a token that cannot travel in an HTTP header. Go's
// transport would refuse it too, but only per request and after the pipeline
// had journaled an intent.
func checked(s string) (Token, error) {
	if !validHeaderValue(s) {
		return Token{}, &msg.Error{Msg: msg.New("cli.token.invalid")}
	}
	return NewToken(s), nil
}

// validHeaderValue reports whether s can be sent as an HTTP header value:
// no control characters (a line break would split the header).
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// CredentialHash names a pair of base URL and token without revealing the
// token: the hex SHA-256 of the normalised base URL, a newline and the
// token, cut to its first 16 hex characters. It is not the tenant: another
// spelling of the host or a rotated token give another hash for the same
// tenant (package tenant asks the API which tenant it is, once per hash).
func CredentialHash(baseURL string, t Token) string {
	base, err := normalizeBase(baseURL)
	if err != nil {
		base = strings.TrimRight(strings.TrimSpace(baseURL), "/")
	}
	sum := sha256.Sum256([]byte(base + "\n" + t.reveal()))
	return hex.EncodeToString(sum[:])[:16]
}

// Origin is the part of a base URL that says which server it is: scheme,
// host and port, lowercased, the scheme's default port dropped, and every
// name of this machine (localhost, 127.0.0.1, ::1) written "localhost", so
// that two spellings of one server are one origin. The path is left out:
// it routes inside the server, it does not name another one.
func Origin(baseURL string) (string, error) {
	base, err := normalizeBase(baseURL)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	host, port := u.Hostname(), u.Port()
	if LoopbackHost(host) {
		host = "localhost"
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

// BindingHash names a token at an API without revealing it, for binding
// the token to a tenant: like CredentialHash, but over the origin (every
// name of this machine being one) and the path, so that localhost and
// 127.0.0.1 with the same token are one binding, not a rotation.
func BindingHash(baseURL string, t Token) string {
	origin, err := Origin(baseURL)
	if err != nil {
		return CredentialHash(baseURL, t)
	}
	base, _ := normalizeBase(baseURL)
	path := ""
	if u, err := url.Parse(base); err == nil {
		path = u.EscapedPath()
	}
	sum := sha256.Sum256([]byte("binding\n" + origin + path + "\n" + t.reveal()))
	return hex.EncodeToString(sum[:])[:16]
}
