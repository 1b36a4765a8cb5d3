// Package connection keeps the API connection entered in the page (base
// URL, environment and token) in the state folder, owner-only, where
// every command reads it when no --base-url (NX_BASE_URL) is given: an
// accountant who never opened a terminal enters it once, in the page.
package connection

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// File and TokenFile are the connection's files in the state folder: the
// token alone in its own file, read as --token-file reads one.
const (
	File      = "connection.json"
	TokenFile = "token"
)

// Saved is a connection without its token, which stays in TokenFile.
type Saved struct {
	BaseURL string `json:"baseUrl"`
	Env     string `json:"env"`
}

// ErrNone is Load's error when no connection was saved.
var ErrNone = errors.New("no connection saved")

// Load reads the connection saved in dir and the path of its token file.
func Load(dir string) (Saved, string, error) {
	b, err := os.ReadFile(filepath.Join(dir, File))
	if errors.Is(err, fs.ErrNotExist) {
		return Saved{}, "", ErrNone
	}
	if err != nil {
		return Saved{}, "", fmt.Errorf("connection: %w", err)
	}
	var s Saved
	if err := json.Unmarshal(b, &s); err != nil || s.BaseURL == "" {
		return Saved{}, "", fmt.Errorf("connection %s: not a saved connection", filepath.Join(dir, File))
	}
	return s, filepath.Join(dir, TokenFile), nil
}

// CheckURL reports whether base is an http or https address with a host.
func CheckURL(base string) bool {
	u, err := url.Parse(strings.TrimSpace(base))
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// Save writes the connection to dir, both files owner-only (0600), the
// token first: a connection file is never left naming a token that is not
// there.
func Save(dir string, s Saved, token string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("connection: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, TokenFile), atomicfile.Private, func(w io.Writer) error {
		_, err := io.WriteString(w, strings.TrimSpace(token)+"\n")
		return err
	}); err != nil {
		return fmt.Errorf("connection token: %w", err)
	}
	s.BaseURL = strings.TrimRight(strings.TrimSpace(s.BaseURL), "/")
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, File), atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return fmt.Errorf("connection: %w", err)
	}
	return nil
}
