package webapp

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/nxbatch/nxbatch/msg"
)

// A POST never answers with a page of its own: it redirects to a GET
// (POST-redirect-GET), so that reloading the page never posts again (a
// second refresh of the catalogs, an upload sent twice, a send started
// again). What the POST had to say travels as a notice: kept here for a
// while under a random id, which the GET's address carries (?aviso=ID) and
// renders in the page's language.

// notice is what a POST had to say to the page it redirects to.
type notice struct {
	at      time.Time
	problem msg.Localizer   // what went wrong, nil when nothing
	notes   []msg.Localizer // what was done
}

// noticeParam is the query parameter that names a notice.
const noticeParam = "aviso"

// noticeTTL is how long a notice is kept: long enough for a reload.
const noticeTTL = 30 * time.Minute

// maxNotices bounds how many notices are kept.
const maxNotices = 200

// notices keeps the notices of the redirects.
type notices struct {
	mu sync.Mutex
	m  map[string]notice
}

// put keeps n and returns its id.
func (ns *notices) put(n notice) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.m == nil {
		ns.m = map[string]notice{}
	}
	for k, x := range ns.m {
		if n.at.Sub(x.at) > noticeTTL {
			delete(ns.m, k)
		}
	}
	for k := range ns.m {
		if len(ns.m) < maxNotices {
			break
		}
		delete(ns.m, k)
	}
	ns.m[id] = n
	return id
}

// get returns the notice id, if it is still kept.
func (ns *notices) get(id string) (notice, bool) {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	n, ok := ns.m[id]
	return n, ok
}

// redirectWith answers a POST with a redirect to path (a GET) that shows n.
func (s *Server) redirectWith(w http.ResponseWriter, r *http.Request, path string, n notice) {
	n.at = s.now()
	http.Redirect(w, r, path+"?"+url.Values{noticeParam: {s.notices.put(n)}}.Encode(), http.StatusSeeOther)
}

// noticeOf is the notice the request's address names, rendered in its
// language: the problem and the notes ("" and nil when none).
func (s *Server) noticeOf(r *http.Request) (problem string, notes []string) {
	n, ok := s.notices.get(r.URL.Query().Get(noticeParam))
	if !ok {
		return "", nil
	}
	l := lang(r)
	if n.problem != nil {
		problem = n.problem.In(l)
	}
	for _, x := range n.notes {
		notes = append(notes, x.In(l))
	}
	return problem, notes
}
