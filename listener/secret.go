package listener

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nxbatch/nxbatch/writers"
)

// NewSecret generates a random shared secret and stores it with SaveSecret.
func NewSecret(dir string) (string, error) {
	s, err := RandomSecret()
	if err != nil {
		return "", err
	}
	return s, SaveSecret(dir, s)
}

// RandomSecret returns 256 random bits in hex, a valid header value.
func RandomSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("generate secret: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// SaveSecret stores s owner-only (0600) as dir/secret, replacing any
// earlier one atomically.
func SaveSecret(dir, s string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create store %s: %w", dir, err)
	}
	path := filepath.Join(dir, SecretFile)
	// WriteFileAtomic keeps an existing file's mode: make sure it is 0600
	// before, and the new one is created 0600 (umask can only narrow it).
	if err := os.Chmod(path, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("secret %s: %w", path, err)
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("secret %s: %w", path, err)
		}
		f.Close()
	}
	return writers.WriteFileAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, s+"\n")
		return err
	})
}

// LoadSecret reads dir/secret. ok is false when there is none. A file
// others can read is refused: the secret is what authenticates events.
func LoadSecret(dir string) (secret []byte, ok bool, err error) {
	path := filepath.Join(dir, SecretFile)
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("secret %s: %w", path, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, false, fmt.Errorf("secret %s is readable by others (mode %v): run chmod 600 on it", path, fi.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("secret %s: %w", path, err)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, false, fmt.Errorf("secret %s is empty", path)
	}
	return b, true, nil
}
