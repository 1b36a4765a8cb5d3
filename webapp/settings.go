package webapp

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
)

// The page's own settings, chosen in the page and kept owner-only in the
// state folder (settings.json, written atomically): the report folder of
// the scheduled runs, whose imports the history lists and where the
// page's sends keep a copy of their reports beside the scheduled runs'.
// serve's --report-dir adds folders; the page's setting is one more.

// settingsFile is the settings' file in the state folder.
const settingsFile = "page-settings.json"

// pageSettings are the page's settings.
type pageSettings struct {
	// ReportDir is the report folder of the scheduled runs ("" none).
	ReportDir string `json:"reportDir,omitempty"`
}

// settingsStore reads and writes the settings; mu orders the writes.
type settingsStore struct {
	mu sync.Mutex
}

// settingsPath is the settings' file.
func (s *Server) settingsPath() string {
	return filepath.Join(s.cfg.Backend.Session.StateDir(), settingsFile)
}

// settings reads the page's settings; a missing or unreadable file is
// no settings.
func (s *Server) settings() pageSettings {
	var ps pageSettings
	b, err := os.ReadFile(s.settingsPath())
	if err == nil {
		_ = json.Unmarshal(b, &ps)
	}
	return ps
}

// saveSettings writes the settings owner-only and atomically.
func (s *Server) saveSettings(ps pageSettings) error {
	s.setmu.mu.Lock()
	defer s.setmu.mu.Unlock()
	b, err := json.MarshalIndent(ps, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(s.settingsPath(), atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// reportDirs are the report folders the history lists: serve's
// --report-dir, then the page's setting (once).
func (s *Server) reportDirs() []string {
	dirs := append([]string(nil), s.cfg.ReportDirs...)
	if d := s.settings().ReportDir; d != "" {
		for _, x := range dirs {
			if filepath.Clean(x) == d {
				return dirs
			}
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// checkReportDir makes dir the report folder it names: an absolute path,
// created when missing, where a file can be written. It returns the
// cleaned path, or why it cannot be one.
func checkReportDir(dir string) (string, msg.Message) {
	dir = strings.TrimSpace(dir)
	if dir == "" {
		return "", msg.Message{}
	}
	if !filepath.IsAbs(dir) {
		return "", msg.New("web.settings.reportdir.relative", dir)
	}
	dir = filepath.Clean(dir)
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return "", msg.New("web.settings.reportdir.notdir", dir)
	} else if err != nil {
		// Missing, or under something that is not a folder: made, or
		// said why not.
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", msg.New("web.settings.reportdir.create", dir, msg.CauseOf(err))
		}
	}
	f, err := os.CreateTemp(dir, ".nxbatch-check-*")
	if err != nil {
		return "", msg.New("web.settings.reportdir.unwritable", dir, msg.CauseOf(err))
	}
	name := f.Name()
	_ = f.Close()
	_ = os.Remove(name)
	return dir, msg.Message{}
}

// saveReportDir chooses the report folder of the scheduled runs: checked,
// kept, and said on the history page it came from.
func (s *Server) saveReportDir(w http.ResponseWriter, r *http.Request) {
	dir, why := checkReportDir(r.PostFormValue("dir"))
	if why.Key != "" {
		s.redirectWith(w, r, "/history", notice{problem: why})
		return
	}
	ps := s.settings()
	ps.ReportDir = dir
	if err := s.saveSettings(ps); err != nil {
		s.redirectWith(w, r, "/history", notice{problem: msg.New("web.settings.notsaved", msg.CauseOf(err))})
		return
	}
	s.log.Info(s.logText("web.log.settings.reportdir"), "dir", dir)
	done := msg.New("web.settings.reportdir.saved", dir)
	if dir == "" {
		done = msg.New("web.settings.reportdir.cleared")
	}
	s.redirectWith(w, r, "/history", notice{notes: []msg.Localizer{done}})
}

// copyReports copies the report files of a send (names, in from) into the
// report folder of the scheduled runs, when one is chosen: the page's
// sends are found beside the scheduled runs'.
func (s *Server) copyReports(from string, names []string) error {
	dir := s.settings().ReportDir
	if dir == "" {
		return nil
	}
	for _, n := range names {
		src, err := os.Open(filepath.Join(from, n))
		if err != nil {
			return err
		}
		err = atomicfile.Write(filepath.Join(dir, n), atomicfile.Private, func(w io.Writer) error {
			_, err := io.Copy(w, src)
			return err
		})
		src.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
