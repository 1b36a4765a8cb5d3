package atomicfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	boom := errors.New("boom")
	tests := []struct {
		name     string
		existing string // "" for none
		write    func(io.Writer) error
		perm     os.FileMode
		wantErr  error
		want     string // content after; "" with no file
	}{
		{name: "new file, owner-only whatever the umask", write: writeString("a;b\n"), perm: Private, want: "a;b\n"},
		{name: "replaces the old file", existing: "old", write: writeString("new"), perm: Private, want: "new"},
		{name: "a shared mode when asked", write: writeString("x"), perm: Shared, want: "x"},
		{name: "failure keeps the old file", existing: "old", write: func(w io.Writer) error {
			io.WriteString(w, "half")
			return boom
		}, perm: Private, wantErr: boom, want: "old"},
		{name: "failure leaves no file", write: func(io.Writer) error { return boom }, perm: Private, wantErr: boom},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "ventas.result.csv")
			if tc.existing != "" {
				if err := os.WriteFile(path, []byte(tc.existing), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path, tc.perm, tc.write)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Write = %v, want %v", err, tc.wantErr)
			}
			got, rerr := os.ReadFile(path)
			if tc.want == "" {
				if rerr == nil {
					t.Errorf("a file was left: %q", got)
				}
			} else if string(got) != tc.want {
				t.Errorf("content %q, want %q", got, tc.want)
			}
			if names := entries(t, dir); (tc.want == "" && len(names) != 0) || (tc.want != "" && len(names) != 1) {
				t.Errorf("left in the folder: %v", names)
			}
			if tc.wantErr == nil {
				fi, _ := os.Stat(path)
				if fi.Mode().Perm() != tc.perm {
					t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.perm)
				}
			}
		})
	}
}

// TestSymlinksAreNeverFollowed: a link planted at the target, or as the
// temporary folder, is refused; neither the link nor what it points at
// changes.
func TestSymlinksAreNeverFollowed(t *testing.T) {
	for _, at := range []string{"target", "temporary folder", "dangling target"} {
		t.Run(at, func(t *testing.T) {
			dir, elsewhere := t.TempDir(), t.TempDir()
			victim := filepath.Join(elsewhere, "victim")
			if at == "target" {
				if err := os.WriteFile(victim, []byte("do not touch"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, "r.csv")
			link := path
			if at == "temporary folder" {
				link = filepath.Join(dir, TempFolder)
				victim = elsewhere
			}
			if err := os.Symlink(victim, link); err != nil {
				t.Fatal(err)
			}
			if err := Write(path, Private, writeString("x")); !errors.Is(err, ErrSymlink) {
				t.Fatalf("Write through a link = %v, want ErrSymlink", err)
			}
			if target, err := os.Readlink(link); err != nil || target != victim {
				t.Errorf("the link changed: %q, %v", target, err)
			}
			switch at {
			case "target":
				if b, _ := os.ReadFile(victim); string(b) != "do not touch" {
					t.Errorf("the link's target changed: %q", b)
				}
				if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o644 {
					t.Errorf("the link's target mode changed: %v", fi.Mode().Perm())
				}
			case "dangling target":
				if _, err := os.Lstat(victim); err == nil {
					t.Error("a dangling link created its target")
				}
			case "temporary folder":
				if names := entries(t, elsewhere); len(names) != 0 {
					t.Errorf("files written through the folder link: %v", names)
				}
			}
		})
	}
}

// TestStaleTemporaryFilesAreCleaned: what a killed process left in the
// temporary folder goes at the next write there; a live process's stays.
func TestStaleTemporaryFilesAreCleaned(t *testing.T) {
	dir := t.TempDir()
	tdir := filepath.Join(dir, TempFolder)
	if err := os.Mkdir(tdir, PrivateDir); err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tdir, strconv.Itoa(dead.Process.Pid)+".abc.ventas.result.csv")
	live := filepath.Join(tdir, strconv.Itoa(os.Getppid())+".def.ventas.result.xlsx")
	for _, p := range []string{stale, live} {
		if err := os.WriteFile(p, []byte("partial report"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cleaned.Delete(tdir)
	if err := Write(filepath.Join(dir, "ventas.summary.json"), Private, writeString("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the dead process's temporary file is still there")
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live process's temporary file was removed: %v", err)
	}
}

// TestTempDirIsPrivateAndCleaned: the process's temporary folder is
// owner-only, a dead process's folder is removed, a live one's is kept.
func TestTempDirIsPrivateAndCleaned(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	root := tempRoot()
	if err := os.MkdirAll(filepath.Join(root, strconv.Itoa(dead.Process.Pid)), PrivateDir); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(root, strconv.Itoa(os.Getppid()))
	os.MkdirAll(live, PrivateDir)
	stale := filepath.Join(root, strconv.Itoa(dead.Process.Pid), "excelize-123")
	os.WriteFile(stale, []byte("half a report"), 0o600)

	tempOnce = sync.Once{}
	dir, err := TempDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{root, dir} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != PrivateDir {
			t.Errorf("%s: %v, %v; want owner-only", p, fi, err)
		}
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a dead process's temporary file is still there")
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live process's temporary folder was removed: %v", err)
	}
	RemoveTemp()
	if _, err := os.Stat(dir); err == nil {
		t.Error("RemoveTemp left the folder")
	}
}

// TestStateFolderLinksAreRefused: MkdirAll refuses a folder that is a link
// (also one whose target is missing), and OpenFile refuses a link at the
// file for every way of opening it; the link's target is never touched.
func TestStateFolderLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(elsewhere, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := func(name, to string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, to := range map[string]string{"catalogs": elsewhere, "dangling": filepath.Join(dir, "nowhere")} {
		if err := MkdirAll(link(name, to), PrivateDir); !errors.Is(err, ErrSymlink) {
			t.Errorf("MkdirAll of a link (%s): %v, want ErrSymlink", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dangling link's target was made: %v", err)
	}
	if err := MkdirAll(filepath.Join(dir, "real", "sub"), PrivateDir); err != nil {
		t.Errorf("MkdirAll of a new folder: %v", err)
	}
	file := link("journal.hwm", target)
	for _, flag := range []int{os.O_RDWR | os.O_CREATE, os.O_WRONLY | os.O_CREATE | os.O_APPEND, os.O_WRONLY | os.O_TRUNC} {
		f, err := OpenFile(file, flag, 0o600)
		if err == nil {
			f.Close()
		}
		if !errors.Is(err, ErrSymlink) {
			t.Errorf("OpenFile(flag %#x) through a link: %v, want ErrSymlink", flag, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target changed: %q", b)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target's mode changed: %v", fi.Mode())
	}
}
