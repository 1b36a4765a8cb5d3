package webapp

import (
	"context"
	"os"
	"path/filepath"
	"time"
)

// Uploads hold a company's sales: they are not kept forever. An upload
// expires Config.KeepUploads after it was last uploaded or sent (30 days
// by default): its folder (original, fixed version, edits, reports) is
// removed at start and then every hour. An upload being sent is kept;
// a folder a killed server left without its meta.json goes by its age.

// DefaultKeepUploads is how long uploads are kept when Config.KeepUploads
// is 0.
const DefaultKeepUploads = 30 * 24 * time.Hour

// sweepEvery is how often expired uploads are looked for.
const sweepEvery = time.Hour

// lastActivity is when u was last uploaded or sent.
func (u *upload) lastActivity() time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	t := u.meta.Uploaded
	for _, sr := range u.meta.Sends {
		if sr.Finished.After(t) {
			t = sr.Finished
		}
	}
	return t
}

// ExpireUploads removes the uploads older than the retention and returns
// how many went.
func (s *Server) ExpireUploads() int {
	now := s.now()
	cutoff := now.Add(-s.cfg.KeepUploads)
	n := 0
	for _, u := range s.uploads.all() {
		if s.sendingFor(u.meta.ID) != nil || !u.lastActivity().Before(cutoff) {
			continue
		}
		s.uploads.remove(u)
		s.lastJobs.Delete(u.meta.ID)
		s.log.Info("upload expired", "id", u.meta.ID, "kept", s.cfg.KeepUploads.String())
		n++
	}
	// Folders that never became an upload (a server killed while
	// receiving): by their own age.
	entries, _ := os.ReadDir(s.uploads.dir)
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) || s.uploads.get(e.Name()) != nil {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			_ = os.RemoveAll(filepath.Join(s.uploads.dir, e.Name()))
			n++
		}
	}
	return n
}

// Maintain removes expired uploads now and every hour until ctx ends.
func (s *Server) Maintain(ctx context.Context) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		s.ExpireUploads()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
