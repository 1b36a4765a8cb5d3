// Package accounts holds the users who may log in to `nxbatch serve` with
// a password (`nxbatch serve user add|remove|list`): a file of the state
// folder, readable by its owner only, with a salted, slow hash of each
// password (PBKDF2-HMAC-SHA256, 600,000 iterations, 16 bytes of salt),
// never the password itself.
package accounts

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
)

// FileName is the users file in the state folder.
const FileName = "serve-users.json"

// MinPasswordLength is the shortest password an account (or serve's
// --password-file) may have, in characters.
const MinPasswordLength = 12

// maxPasswordBytes bounds what is hashed: a longer "password" is a way to
// spend the server's time.
const maxPasswordBytes = 1024

// DefaultIterations is the PBKDF2 cost of a new password (OWASP's figure
// for PBKDF2-HMAC-SHA256): about a fifth of a second on a laptop.
const DefaultIterations = 600_000

// maxUsers bounds the file.
const maxUsers = 1000

// maxFileBytes bounds the users file that is read.
const maxFileBytes = 1 << 20

// User is one account.
type User struct {
	Name  string    `json:"name"`
	Hash  string    `json:"hash"` // pbkdf2-sha256$ITERATIONS$SALT$KEY, base64 without padding
	Added time.Time `json:"added"`
}

type file struct {
	Users []User `json:"users"`
}

// Store is the users file of a state folder.
type Store struct {
	// Path is the users file.
	Path string
	// Iterations is the PBKDF2 cost of new passwords (0: DefaultIterations).
	Iterations int

	mu    sync.Mutex
	cache []User
	stamp string // the file's size and time when cache was read
}

// In returns the store of state folder dir.
func In(dir string) *Store { return &Store{Path: filepath.Join(dir, FileName)} }

// CheckName refuses a user name that is empty, long, or holds anything
// but letters, digits and . _ @ -.
func CheckName(name string) error {
	if name == "" || len(name) > 64 {
		return &msg.Error{Msg: msg.New("acct.name.bad", name)}
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._@-", r)
		if !ok {
			return &msg.Error{Msg: msg.New("acct.name.bad", name)}
		}
	}
	return nil
}

// CheckPassword refuses a password shorter than MinPasswordLength
// characters or longer than 1 KiB.
func CheckPassword(pw string) error {
	if n := utf8.RuneCountInString(pw); n < MinPasswordLength {
		return &msg.Error{Msg: msg.New("acct.password.short", n, MinPasswordLength)}
	}
	if len(pw) > maxPasswordBytes {
		return &msg.Error{Msg: msg.New("acct.password.long", maxPasswordBytes)}
	}
	return nil
}

// List returns the accounts, by name.
func (s *Store) List() ([]User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	us, err := s.load()
	return append([]User(nil), us...), err
}

// load reads the file when it changed since the last read; s.mu is held.
func (s *Store) load() ([]User, error) {
	f, err := os.Open(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		s.cache, s.stamp = nil, ""
		return nil, nil
	}
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("acct.read", s.Path, msg.CauseOf(err)), Err: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("acct.read", s.Path, msg.CauseOf(err)), Err: err}
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, &msg.Error{Msg: msg.New("acct.perms", s.Path, fmt.Sprintf("%04o", perm), s.Path)}
	}
	stamp := strconv.FormatInt(st.Size(), 10) + "@" + st.ModTime().Format(time.RFC3339Nano)
	if stamp == s.stamp {
		return s.cache, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err == nil && len(b) > maxFileBytes {
		err = errors.New("larger than 1 MiB")
	}
	var fl file
	if err == nil {
		err = json.Unmarshal(b, &fl)
	}
	if err == nil && len(fl.Users) > maxUsers {
		err = fmt.Errorf("more than %d users", maxUsers)
	}
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("acct.read", s.Path, msg.CauseOf(err)), Err: err}
	}
	sort.Slice(fl.Users, func(i, j int) bool { return fl.Users[i].Name < fl.Users[j].Name })
	s.cache, s.stamp = fl.Users, stamp
	return s.cache, nil
}

// save writes users, owner-only; s.mu is held.
func (s *Store) save(users []User) error {
	b, err := json.MarshalIndent(file{Users: users}, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.MkdirAll(filepath.Dir(s.Path), atomicfile.PrivateDir); err != nil {
		return &msg.Error{Msg: msg.New("acct.write", s.Path, msg.CauseOf(err)), Err: err}
	}
	if err := atomicfile.Write(s.Path, atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return &msg.Error{Msg: msg.New("acct.write", s.Path, msg.CauseOf(err)), Err: err}
	}
	s.stamp = ""
	return nil
}

// Set adds user name with password, or changes the password of an
// existing one.
func (s *Store) Set(name, password string, now time.Time) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if err := CheckPassword(password); err != nil {
		return err
	}
	iter := s.Iterations
	if iter <= 0 {
		iter = DefaultIterations
	}
	h, err := hash(password, iter)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	users, err := s.load()
	if err != nil {
		return err
	}
	out := make([]User, 0, len(users)+1)
	for _, u := range users {
		if u.Name != name {
			out = append(out, u)
		}
	}
	if len(out) >= maxUsers {
		return &msg.Error{Msg: msg.New("acct.toomany", maxUsers)}
	}
	out = append(out, User{Name: name, Hash: h, Added: now.UTC()})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return s.save(out)
}

// Remove removes user name; removing one that is not there is an error.
func (s *Store) Remove(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	users, err := s.load()
	if err != nil {
		return err
	}
	out := make([]User, 0, len(users))
	for _, u := range users {
		if u.Name != name {
			out = append(out, u)
		}
	}
	if len(out) == len(users) {
		return &msg.Error{Msg: msg.New("acct.unknown", name)}
	}
	return s.save(out)
}

// Has tells whether user name has an account now (a session of a removed
// user ends at its next request).
func (s *Store) Has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	users, err := s.load()
	if err != nil {
		return false
	}
	for _, u := range users {
		if u.Name == name {
			return true
		}
	}
	return false
}

// dummy is hashed for an unknown user, so that the answer takes as long
// as for a known one.
var dummy = sync.OnceValue(func() string {
	h, _ := hash("nxbatch-dummy-password", DefaultIterations)
	return h
})

// Verify tells whether password is user name's.
func (s *Store) Verify(name, password string) (bool, error) {
	s.mu.Lock()
	users, err := s.load()
	var h string
	for _, u := range users {
		if u.Name == name {
			h = u.Hash
		}
	}
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	if len(password) > maxPasswordBytes {
		return false, nil
	}
	if h == "" {
		_, _ = check(dummy(), password)
		return false, nil
	}
	return check(h, password)
}

// hash is password's salted PBKDF2 hash, as stored.
func hash(password string, iter int) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := pbkdf2.Key(sha256.New, password, salt, iter, 32)
	if err != nil {
		return "", err
	}
	enc := base64.RawStdEncoding
	return "pbkdf2-sha256$" + strconv.Itoa(iter) + "$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key), nil
}

// check tells whether password matches the stored hash h.
func check(h, password string) (bool, error) {
	parts := strings.Split(h, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false, fmt.Errorf("accounts: a hash of unknown form")
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 || iter > 10_000_000 {
		return false, fmt.Errorf("accounts: a hash with a bad cost")
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[2])
	want, err2 := enc.DecodeString(parts[3])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, fmt.Errorf("accounts: a hash that is not base64")
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, len(want))
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
