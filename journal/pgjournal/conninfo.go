package pgjournal

import (
	"errors"
	"net/url"
	"strings"
)

// A PostgreSQL journal is named either by a URL (postgres://…) or by a
// keyword/value connection string (host=db dbname=nxbatch password=…), the
// two forms libpq and pgx take. Both are read here as libpq reads them: a
// percent-escape is the character it encodes (%20 a space) and nothing
// else, so "+" is a plus, and a password may hold any character.

// param is one parameter of a connection string: as written (raw, for the
// URL's query) and decoded.
type param struct {
	raw        string // key=value as written in the URL's query; "" for the keyword form
	key, value string
}

// conninfoKeys are the libpq keywords a keyword/value string may start
// with (nxbatch's own lease_ttl and pool_max_conns too): a journal file
// whose name starts like that would be a strange name, and taking the
// string for a file would name a file after its password.
var conninfoKeys = []string{
	"host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service",
	"sslmode", "sslrootcert", "sslcert", "sslkey", "sslpassword", "connect_timeout",
	"application_name", "options", "target_session_attrs", "client_encoding",
	"lease_ttl", "pool_max_conns",
}

// isKeywords reports whether s is a keyword/value connection string: its
// first word is a libpq keyword followed by "=".
func isKeywords(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	for _, k := range conninfoKeys {
		if rest, ok := strings.CutPrefix(s, k); ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "=") {
			return true
		}
	}
	return false
}

var errConninfo = errors.New("pgjournal: the connection string cannot be parsed")

// parseKeywords reads a keyword/value connection string as libpq does:
// "key = value" pairs separated by blanks, a value either single-quoted
// (\' and \\ inside) or up to the next blank (a backslash escapes the next
// character).
func parseKeywords(s string) ([]param, error) {
	var out []param
	i := 0
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for {
		for i < len(s) && blank(s[i]) {
			i++
		}
		if i == len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && s[i] != '=' && !blank(s[i]) {
			i++
		}
		key := s[start:i]
		for i < len(s) && blank(s[i]) {
			i++
		}
		if key == "" || i == len(s) || s[i] != '=' {
			return nil, errConninfo
		}
		i++
		for i < len(s) && blank(s[i]) {
			i++
		}
		var v strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '\\' && i+1 < len(s) {
					v.WriteByte(s[i+1])
					i += 2
					continue
				}
				i++
				if c == '\'' {
					closed = true
					break
				}
				v.WriteByte(c)
			}
			if !closed {
				return nil, errConninfo
			}
		} else {
			for i < len(s) && !blank(s[i]) {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				v.WriteByte(s[i])
				i++
			}
		}
		out = append(out, param{key: key, value: v.String()})
	}
}

// writeKeywords is params as a keyword/value string, each value quoted
// when it must be.
func writeKeywords(ps []param) string {
	parts := make([]string, 0, len(ps))
	for _, p := range ps {
		v := p.value
		if v == "" || strings.ContainsAny(v, " \t\r\n'\\") {
			v = "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
		}
		parts = append(parts, p.key+"="+v)
	}
	return strings.Join(parts, " ")
}

// splitQuery splits a URL's raw query into its parameters, decoding each
// key and value as libpq does (url.PathUnescape: "+" stays a plus).
func splitQuery(raw string) ([]param, error) {
	var out []param
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.PathUnescape(k)
		if err != nil {
			return nil, errConninfo
		}
		value, err := url.PathUnescape(v)
		if err != nil {
			return nil, errConninfo
		}
		out = append(out, param{raw: pair, key: key, value: value})
	}
	return out, nil
}

// joinQuery is the raw query of params: each as written, or escaped so
// that libpq and pgx read back exactly the value (a space as %20, never +).
func joinQuery(ps []param) string {
	parts := make([]string, 0, len(ps))
	for _, p := range ps {
		if p.raw != "" {
			parts = append(parts, p.raw)
			continue
		}
		parts = append(parts, queryEscape(p.key)+"="+queryEscape(p.value))
	}
	return strings.Join(parts, "&")
}

// queryEscape escapes s for a URL's query as libpq reads it back.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// without is ps without the parameters called key.
func without(ps []param, key string) []param {
	out := ps[:0:0]
	for _, p := range ps {
		if p.key != key {
			out = append(out, p)
		}
	}
	return out
}

// lookup is the last value of the parameter called key (libpq keeps the
// last), and whether there is one.
func lookup(ps []param, key string) (string, bool) {
	v, ok := "", false
	for _, p := range ps {
		if p.key == key {
			v, ok = p.value, true
		}
	}
	return v, ok
}

// asURL is the journal's connection string as a postgres:// URL (a
// keyword/value string becomes postgres:///?key=value&…, which libpq and
// pgx read alike) and its parameters.
func asURL(spec string) (*url.URL, []param, error) {
	if isKeywords(spec) {
		ps, err := parseKeywords(spec)
		if err != nil {
			return nil, nil, err
		}
		return &url.URL{Scheme: "postgres", Path: "/"}, ps, nil
	}
	if !strings.HasPrefix(spec, "postgres://") && !strings.HasPrefix(spec, "postgresql://") {
		return nil, nil, errConninfo
	}
	u, err := url.Parse(spec)
	if err != nil {
		return nil, nil, errConninfo
	}
	ps, err := splitQuery(u.RawQuery)
	if err != nil {
		return nil, nil, err
	}
	return u, ps, nil
}
