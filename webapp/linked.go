package webapp

import (
	"path/filepath"
	"regexp"
	"strings"
)

// An errors file downloaded from the page (NAME.errores.xlsx) or written
// by a send (NAME.errors.csv, NAME.errors.xlsx), fixed and uploaded again,
// is linked to the upload it came from: each page names the other, and
// what the journal says was sent of either is said of both (the rows
// fixed and sent from the errors file read "enviada" in the original).

// errorsSuffix matches an errors file's name without its extension, with
// the " (1)" a browser adds to a second download of the same name.
var errorsSuffix = regexp.MustCompile(`^(.+?)\.(?:errores|errors)(?: \(\d+\))?$`)

// originalBase is the base name (without extension) of the file an errors
// file named name came from; "" when name is not an errors file's.
func originalBase(name string) string {
	m := errorsSuffix.FindStringSubmatch(strings.TrimSuffix(name, filepath.Ext(name)))
	if m == nil {
		return ""
	}
	return m[1]
}

// linkErrorsFile links upload u, when it is an errors file, to the upload
// it came from: the one whose id it carries (result.importacion), else,
// by its name, the newest other upload of the file it came from; it says
// whether it did.
func (s *Server) linkErrorsFile(u *upload) bool {
	// The id the errors file carries first: it survives a new name.
	if id := originOf(u.original()); id != "" && id != u.meta.ID {
		if o := s.uploads.get(id); o != nil {
			u.mu.Lock()
			u.meta.Of = o.meta.ID
			_ = u.saveMeta()
			u.mu.Unlock()
			s.journalChanged()
			return true
		}
	}
	base := originalBase(u.meta.Name)
	if base == "" {
		return false
	}
	for _, o := range s.uploads.all() {
		if o == u {
			continue
		}
		o.mu.Lock()
		name := o.meta.Name
		o.mu.Unlock()
		if strings.TrimSuffix(name, filepath.Ext(name)) != base {
			continue
		}
		u.mu.Lock()
		u.meta.Of = o.meta.ID
		_ = u.saveMeta()
		u.mu.Unlock()
		s.journalChanged() // the original's journal view now includes u's
		return true
	}
	return false
}

// related are the uploads linked to u, u first: the upload it is an
// errors file of, and the errors files of it.
func (s *Server) related(u *upload) []*upload {
	out := []*upload{u}
	u.mu.Lock()
	of := u.meta.Of
	u.mu.Unlock()
	if o := s.uploads.get(of); o != nil && of != "" {
		out = append(out, o)
	}
	for _, x := range s.uploads.all() {
		if x == u {
			continue
		}
		x.mu.Lock()
		xof := x.meta.Of
		x.mu.Unlock()
		if xof == u.meta.ID {
			out = append(out, x)
		}
	}
	return out
}

// link is an upload another names.
type link struct {
	Name, URL string
}

// links are u's related uploads as the pages name them: the original it
// is an errors file of (Of), and its errors files uploaded again (Fixed).
func (s *Server) links(u *upload) (of *link, fixed []link) {
	for _, x := range s.related(u)[1:] {
		x.mu.Lock()
		l := link{Name: x.meta.Name, URL: "/u/" + x.meta.ID}
		xof := x.meta.Of
		x.mu.Unlock()
		if xof == u.meta.ID {
			fixed = append(fixed, l)
		} else {
			of = &l
		}
	}
	return of, fixed
}
