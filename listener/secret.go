package listener

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/nxbatch/nxbatch/msg"
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
// earlier one atomically; a symbolic link there is refused, never written
// through nor chmod-ed.
func SaveSecret(dir, s string) error {
	if err := CheckSecretPath(dir); err != nil {
		return err
	}
	return writePrivate(filepath.Join(dir, SecretFile), func(w io.Writer) error {
		_, err := io.WriteString(w, s+"\n")
		return err
	})
}

// CheckSecretPath creates dir owner-only if needed and reports whether
// SaveSecret could write there: `webhooks set --secret` asks before the
// API sends the new secret, so that the ERP never sends one listen cannot
// have.
func CheckSecretPath(dir string) error {
	if err := mkdirPrivate(dir); err != nil {
		return err
	}
	return refuseLink(filepath.Join(dir, SecretFile))
}

// LoadSecret reads dir/secret. ok is false when there is none. A file
// others can read is refused: the secret is what authenticates events; so
// is a symbolic link, which is never followed.
func LoadSecret(dir string) (secret []byte, ok bool, err error) {
	path := filepath.Join(dir, SecretFile)
	f, err := openPrivate(path, os.O_RDONLY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return nil, false, &msg.Error{Msg: msg.New("lst.notdir", dir)}
	}
	if err != nil {
		return nil, false, secretError(path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, secretError(path, err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, false, &msg.Error{Msg: msg.New("lst.secret.open", path, fmt.Sprintf("%04o", perm), path)}
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return nil, false, secretError(path, err)
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, false, &msg.Error{Msg: msg.New("lst.secret.empty", path)}
	}
	return b, true, nil
}

// secretError is a failure to read the secret file at path, in the user's
// words unless it already is.
func secretError(path string, err error) error {
	var me *msg.Error
	if errors.As(err, &me) {
		return err
	}
	return &msg.Error{Msg: msg.New("lst.secret.read", path, msg.CauseOf(err)), Err: err}
}
