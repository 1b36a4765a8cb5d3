package writers

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name     string
		old      string // "" = no file before
		write    func(w io.Writer) error
		wantErr  error
		wantBody string
	}{
		{
			name:     "new file",
			write:    func(w io.Writer) error { _, err := io.WriteString(w, "nuevo"); return err },
			wantBody: "nuevo",
		},
		{
			name:     "replaces the old file",
			old:      "viejo",
			write:    func(w io.Writer) error { _, err := io.WriteString(w, "nuevo"); return err },
			wantBody: "nuevo",
		},
		{
			name: "failure keeps the old file",
			old:  "viejo",
			write: func(w io.Writer) error {
				_, _ = io.WriteString(w, strings.Repeat("x", 1<<20)) // more than the buffer: reaches the temp file
				return boom
			},
			wantErr:  boom,
			wantBody: "viejo",
		},
		{
			name:    "failure leaves no file",
			write:   func(io.Writer) error { return boom },
			wantErr: boom,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "ventas.result.csv")
			if tt.old != "" {
				if err := os.WriteFile(path, []byte(tt.old), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			err := WriteFileAtomic(path, tt.write)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the path", err)
			}
			body, readErr := os.ReadFile(path)
			switch {
			case tt.wantBody == "" && !errors.Is(readErr, os.ErrNotExist):
				t.Errorf("file exists after a failed first write: %q, %v", body, readErr)
			case tt.wantBody != "" && string(body) != tt.wantBody:
				t.Errorf("body = %q (%v), want %q", body, readErr, tt.wantBody)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "ventas.result.csv" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
			if tt.old != "" {
				fi, _ := os.Stat(path)
				if fi.Mode().Perm() != 0o640 {
					t.Errorf("mode = %v, want the old file's 0640", fi.Mode().Perm())
				}
			}
		})
	}
}

func TestWriteFileAtomicErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
	}{
		{"missing directory", filepath.Join(dir, "no", "such", "dir", "r.csv")},
		{"target is a directory", dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := WriteFileAtomic(tt.path, func(io.Writer) error { return nil })
			if err == nil || !strings.Contains(err.Error(), tt.path) {
				t.Fatalf("err = %v, want an error naming %s", err, tt.path)
			}
		})
	}
}
