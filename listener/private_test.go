package listener

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// withUmask runs the test under umask, the usual 022 that leaves new files
// readable by everyone, and restores the process's own afterwards.
func withUmask(t *testing.T, umask int) {
	t.Helper()
	old := syscall.Umask(umask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// TestFilesAreOwnerOnly: with umask 022, every file listen and stock
// export write (event log, snapshot, refusal count, secret, exports) is
// 0600 and every folder they create 0700; so is a file that was there
// before with a wider mode.
func TestFilesAreOwnerOnly(t *testing.T) {
	withUmask(t, 0o022)
	root := t.TempDir()
	store := filepath.Join(root, "state", "listen")
	// A log left readable by others (an older version, a careless copy)
	// is made owner-only when listen opens it.
	if err := os.MkdirAll(store, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(store, LogFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(store, LogFile), 0o644)
	fresh := filepath.Join(root, "new", "deeper", "listen")

	for _, dir := range []string{store, fresh} {
		if err := SaveSecret(dir, "s3cret"); err != nil {
			t.Fatal(err)
		}
		s := openStore(t, dir)
		if _, err := s.Append([]byte(`[{"articuloId":1,"unidades":2}]`)); err != nil {
			t.Fatal(err)
		}
		s.Refuse(Malformed, 1)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	exports := filepath.Join(root, "exports")
	if err := os.Mkdir(exports, 0o755); err != nil {
		t.Fatal(err)
	}
	// An export replacing a file readable by others leaves it owner-only.
	old := filepath.Join(exports, "old.csv")
	if err := os.WriteFile(old, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Load(fresh, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"stock.csv", "stock.xlsx", "old.csv"} {
		if err := Export(filepath.Join(exports, name), st.Rows(time.Time{})); err != nil {
			t.Fatal(err)
		}
	}

	want := map[string]fs.FileMode{
		filepath.Join(root, "new"):           0o700,
		filepath.Join(root, "new", "deeper"): 0o700,
		fresh:                                0o700,
		filepath.Join(exports, "stock.csv"):  0o600,
		filepath.Join(exports, "stock.xlsx"): 0o600,
		old:                                  0o600,
	}
	for _, dir := range []string{store, fresh} {
		for _, name := range []string{LogFile, SnapshotFile, SecretFile, RefusedFile} {
			want[filepath.Join(dir, name)] = 0o600
		}
	}
	for path, mode := range want {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s has mode %v, want %v", path, fi.Mode().Perm(), mode)
		}
	}
	// And nothing else was left behind (temporary files) in the stores.
	for _, dir := range []string{store, fresh, exports} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if _, ok := want[filepath.Join(dir, e.Name())]; !ok {
				t.Errorf("unexpected file %s", filepath.Join(dir, e.Name()))
			}
		}
	}
}

// plantLink makes path a symbolic link: to an existing file others may
// read (whose content and mode must survive), or dangling (whose target
// must not come to exist). It returns the target.
func plantLink(t *testing.T, path string, dangling bool) string {
	t.Helper()
	target := filepath.Join(t.TempDir(), "target-of-"+filepath.Base(path))
	if !dangling {
		if err := os.WriteFile(target, []byte("do not touch"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(target, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	return target
}

// checkUntouched fails t unless the link at path is still a link to
// target, and target is as plantLink left it.
func checkUntouched(t *testing.T, path, target string, dangling bool) {
	t.Helper()
	if got, err := os.Readlink(path); err != nil || got != target {
		t.Errorf("the link %s was changed: %q %v", path, got, err)
	}
	fi, err := os.Stat(target)
	if dangling {
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the dangling link's target %s was created", target)
		}
		return
	}
	b, _ := os.ReadFile(target)
	if err != nil || fi.Mode().Perm() != 0o644 || string(b) != "do not touch" {
		t.Errorf("the link's target was changed: %v %v %q", fi.Mode().Perm(), err, b)
	}
}

// checkRefusal fails t unless err is the refusal of a symbolic link at
// path, with a message in Spanish that names it.
func checkRefusal(t *testing.T, err error, path string) {
	t.Helper()
	var me *msg.Error
	if !errors.Is(err, ErrSymlink) || !errors.As(err, &me) {
		t.Fatalf("err %v, want the refusal of a symbolic link", err)
	}
	if es := me.Msg.In(msg.ES); !strings.Contains(es, path) || !strings.Contains(es, "enlace simbólico") {
		t.Errorf("message %q does not name %s as a link", es, path)
	}
}

// TestSymlinksAreRefused plants a symbolic link at every path listen,
// webhooks set and stock export write: each refuses it with a message
// naming it, and neither follows nor changes it.
func TestSymlinksAreRefused(t *testing.T) {
	tests := []struct {
		name string
		file string // in the store; "" for the store folder itself; "export" for the export's path
		op   func(store, export string) error
	}{
		{"listen: event log", LogFile, func(s, _ string) error { return openErr(s) }},
		{"listen: snapshot", SnapshotFile, func(s, _ string) error { return openErr(s) }},
		{"listen: secret", SecretFile, func(s, _ string) error { return openErr(s) }},
		{"listen: refusal count", RefusedFile, func(s, _ string) error { return openErr(s) }},
		{"listen: the store folder", "", func(s, _ string) error { return openErr(s) }},
		{"listen reads the secret", SecretFile, func(s, _ string) error { _, _, err := LoadSecret(s); return err }},
		{"webhooks set --secret", SecretFile, func(s, _ string) error { return SaveSecret(s, "new") }},
		{"stock export: event log", LogFile, func(s, _ string) error { _, err := Load(s, Options{}); return err }},
		{"stock export: snapshot", SnapshotFile, func(s, _ string) error { _, err := Load(s, Options{}); return err }},
		{"stock export: refusal count", RefusedFile, func(s, _ string) error { _, err := LoadRefusals(s); return err }},
		{"stock export: the store folder", "", func(s, _ string) error { _, err := Load(s, Options{}); return err }},
		{"stock export: the output file", "export", func(_, e string) error { return Export(e, nil) }},
	}
	for _, tt := range tests {
		for _, dangling := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: ", link to a file", true: ", dangling link"}[dangling], func(t *testing.T) {
				root := t.TempDir()
				store := filepath.Join(root, "store")
				export := filepath.Join(root, "stock.csv")
				var path string
				switch tt.file {
				case "":
					path = store
				case "export":
					path = export
				default:
					if err := os.Mkdir(store, 0o700); err != nil {
						t.Fatal(err)
					}
					// A store with a log, so that the reads get to the link.
					if tt.file != LogFile {
						if err := os.WriteFile(filepath.Join(store, LogFile), nil, 0o600); err != nil {
							t.Fatal(err)
						}
					}
					path = filepath.Join(store, tt.file)
				}
				target := plantLink(t, path, dangling)
				if tt.file == "" && !dangling {
					// A folder the store would have lived in.
					os.Remove(target)
					if err := os.Mkdir(target, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				err := tt.op(store, export)
				checkRefusal(t, err, path)
				if tt.file == "" && !dangling {
					if entries, _ := os.ReadDir(target); len(entries) != 0 {
						t.Errorf("files were written in the link's target folder: %v", entries)
					}
					return
				}
				checkUntouched(t, path, target, dangling)
			})
		}
	}
}

func openErr(dir string) error {
	s, err := Open(dir, Options{})
	if err == nil {
		s.Close()
	}
	return err
}

// A link planted at snapshot.json while listen runs is not written through
// either: the snapshot is not saved (the log keeps every event) and the
// log says so.
func TestSnapshotLinkPlantedWhileListening(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		dir := t.TempDir()
		var logs syncBuffer
		s, err := Open(dir, Options{SnapshotEvery: time.Hour, Log: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, SnapshotFile)
		target := plantLink(t, path, dangling)
		if _, err := s.Append([]byte(`[{"articuloId":1,"unidades":2}]`)); err != nil {
			t.Fatal(err)
		}
		if err := s.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil { // saves the snapshot
			t.Fatal(err)
		}
		checkUntouched(t, path, target, dangling)
		if !strings.Contains(logs.String(), msg.New("lst.log.snapshot.failed").In(msg.ES)) {
			t.Errorf("the log does not say the snapshot was not saved:\n%s", logs.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the store's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
