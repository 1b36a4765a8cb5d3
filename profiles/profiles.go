// Package profiles keeps named column mappings: what a user's own column
// headers mean ("Nro Orden" is ordenId), saved once from the web page's
// mapping screen and used again by the page for files with the same
// headers and by the command line (`--map NAME`). A profile is one JSON
// file in the state folder, beside the journal, readable by its owner only.
package profiles

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/schema"
)

// Profile is one saved mapping.
type Profile struct {
	Name string      `json:"name"`
	Kind schema.Kind `json:"kind,omitempty"`
	// Headers are the header cells of the file the profile was made for,
	// as typed: a file whose headers are the same (ignoring case, accents
	// and blanks) is offered the profile again.
	Headers []string `json:"headers"`
	// Columns maps a header as typed to the API field path it fills; a
	// header absent here (or mapped to "") fills no field.
	Columns map[string]string `json:"columns"`
	Saved   time.Time         `json:"saved"`
}

// Mapping returns the profile as the mapping the readers use.
func (p Profile) Mapping() schema.Mapping {
	m := schema.Mapping{}
	for h, path := range p.Columns {
		if path != "" {
			m[schema.Normalize(h)] = path
		}
	}
	return m
}

// Fits reports whether header is the header the profile was made for,
// ignoring case, accents, blanks and empty trailing cells.
func (p Profile) Fits(header []string) bool {
	return slices.Equal(headerKey(p.Headers), headerKey(header))
}

func headerKey(h []string) []string {
	out := make([]string, 0, len(h))
	for _, c := range h {
		out = append(out, schema.Normalize(c))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// ErrNotFound means there is no profile of that name.
var ErrNotFound = errors.New("profiles: no profile of that name")

// ErrBadName means a name a profile cannot have.
var ErrBadName = errors.New("profiles: a name is 1 to 60 letters, digits, blanks, '-', '_' or '.', not starting with '.'")

// maxName is the longest profile name.
const maxName = 60

// CheckName refuses names that could not be a file name in any folder, or
// that would climb out of the profiles folder.
func CheckName(name string) error {
	if name == "" || len([]rune(name)) > maxName || strings.HasPrefix(name, ".") || strings.TrimSpace(name) != name {
		return ErrBadName
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -_.", r) {
			return ErrBadName
		}
	}
	return nil
}

// Store is the profiles folder.
type Store struct {
	Dir string
}

// DirIn is the profiles folder in the state folder stateDir (the journal
// file's folder, or the user's state folder).
func DirIn(stateDir string) string {
	return filepath.Join(stateDir, "profiles")
}

func (s Store) path(name string) string {
	return filepath.Join(s.Dir, strings.ToLower(name)+".json")
}

// Save writes p (replacing a profile of the same name, in any case),
// owner-only and atomically.
func (s Store) Save(p Profile) error {
	if err := CheckName(p.Name); err != nil {
		return err
	}
	if err := atomicfile.MkdirAll(s.Dir, atomicfile.PrivateDir); err != nil {
		return fmt.Errorf("profiles: create folder: %w", err)
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("profiles: encode %s: %w", p.Name, err)
	}
	path := s.path(p.Name)
	// atomicfile.Write keeps an existing file's mode: create it owner-only
	// first, as the catalog cache does.
	f, err := atomicfile.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("profiles: save %s: %w", p.Name, err)
	}
	if err := errors.Join(f.Chmod(0o600), f.Close()); err != nil {
		return fmt.Errorf("profiles: save %s: %w", p.Name, err)
	}
	if err := atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}); err != nil {
		return fmt.Errorf("profiles: save %s: %w", p.Name, err)
	}
	return nil
}

// Load reads the profile called name (in any case).
func (s Store) Load(name string) (Profile, error) {
	if err := CheckName(name); err != nil {
		return Profile{}, err
	}
	path := s.path(name)
	b, err := readLimited(path)
	if errors.Is(err, os.ErrNotExist) {
		return Profile{}, fmt.Errorf("profiles: %s: %w", name, ErrNotFound)
	}
	if err != nil {
		return Profile{}, err
	}
	return Parse(path, b)
}

// The limits of a profile file: a profile saved by the page holds one
// header (at most MaxColumns cells) and its columns, tens of kilobytes;
// the limits keep a damaged or crafted file from costing minutes and
// gigabytes.
const (
	// MaxBytes is the largest profile file (1 MiB).
	MaxBytes = schema.MaxMappingBytes
	// MaxEntries is the most header cells, and the most columns, a
	// profile may have.
	MaxEntries = schema.MaxMappingEntries
)

// readLimited reads the profile file at path, never more than one byte
// past MaxBytes.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("profile.read", path), Err: err}
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxBytes {
		return nil, &msg.Error{Msg: msg.New("profile.toolarge", path, MaxBytes>>20)}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("profile.read", path), Err: err}
	}
	return b, nil
}

// Parse decodes the contents b of the profile file path, within MaxBytes
// and MaxEntries. Its errors are *msg.Error values naming the file.
func Parse(path string, b []byte) (Profile, error) {
	if len(b) > MaxBytes {
		return Profile{}, &msg.Error{Msg: msg.New("profile.toolarge", path, MaxBytes>>20)}
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		return Profile{}, &msg.Error{Msg: msg.New("profile.damaged", path), Err: err}
	}
	if len(p.Headers) > MaxEntries || len(p.Columns) > MaxEntries {
		return Profile{}, &msg.Error{Msg: msg.New("profile.toomany", path, MaxEntries)}
	}
	return p, nil
}

// List returns every profile, by name. A damaged file is left out: one bad
// profile must not hide the others.
func (s Store) List() ([]Profile, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("profiles: list: %w", err)
	}
	var out []Profile
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		if p, err := s.Load(name); err == nil {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out, nil
}

// For returns the profiles made for header, most recently saved first.
func (s Store) For(header []string) ([]Profile, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	var out []Profile
	for _, p := range all {
		if p.Fits(header) {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Saved.After(out[j].Saved) })
	return out, nil
}
