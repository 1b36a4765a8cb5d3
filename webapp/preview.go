package webapp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nxbatch/nxbatch/catalog"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/runner"
	"github.com/nxbatch/nxbatch/schema"
	"github.com/nxbatch/nxbatch/validation"
	"github.com/nxbatch/nxbatch/writers"
)

// pageSize is how many rows one page of a preview shows.
const pageSize = 50

// version is one validated state of an upload: what its preview shows.
// It is never changed once built (a fix builds the next one), so pages
// read it without a lock.
type version struct {
	n        int
	file     *pipeline.File
	catalogs []catalogUse
	// attention lists, per sheet, the rows that need attention: the
	// "solo errores" filter pages through it.
	attention [][]int32
	rows      map[pipeline.Status]int
	least     time.Duration
	took      time.Duration
	// same counts the values of the columns with cells to fix.
	same sameCounts
	// cat is the catalog the file was validated against; ownFixed says
	// the file was read from a fixed version the page wrote (CSV or
	// workbook, as uploaded), which a fix may then revalidate from this
	// state (incremental).
	cat      *validation.Catalog
	ownFixed bool
	// incremental says the version was built from the one before it.
	incremental bool
	// warm is this version as read from the file a fix would write, with no
	// cell changed (warmUp), once it is ready: the first fix of an upload
	// then revalidates from it as every later fix does from the last.
	warm atomic.Pointer[version]
	// sum is the SHA-256 of the fixed version written from this version,
	// once written (a version built from the last one in memory has no
	// file until then; file.SHA256 is the sum of the file read).
	sum atomic.Pointer[string]
}

// sha256 is the SHA-256 of the file this version is: the file it was read
// from, or the fixed version written from it; "" when it was never
// written (a later fix's write took its place).
func (v *version) sha256() string {
	if v.file.SHA256 != "" {
		return v.file.SHA256
	}
	if p := v.sum.Load(); p != nil {
		return *p
	}
	return ""
}

// catalogUse is one catalog a validation checked ids against, or could
// not.
type catalogUse struct {
	Name    catalog.Name
	Fetched time.Time // zero: never fetched, ids not checked
}

// loadOptions are how an upload is read: the mapping in force and the
// page's --max-articulos.
func (s *Server) loadOptions(u *upload) pipeline.LoadOptions {
	lo := pipeline.LoadOptions{MaxArticulos: s.cfg.Send.MaxArticulos}
	lo.Reader.HeaderRow = u.meta.HeaderRow
	if len(u.meta.Columns) > 0 {
		m := schema.Mapping{}
		for h, p := range u.meta.Columns {
			if p != "" {
				m[schema.Normalize(h)] = p
			}
		}
		lo.Mapping = m
	}
	return lo
}

// errTooManyRows is an upload over the row limit.
type errTooManyRows struct{ rows, max int }

func (e *errTooManyRows) Error() string {
	return fmt.Sprintf("%d rows, more than the %d allowed", e.rows, e.max)
}

// validate reads the upload's current file and validates it against the
// cached catalogs: the preview. u.mu is held.
func (s *Server) validate(ctx context.Context, u *upload, n int) (*version, error) {
	start := time.Now()
	if err := s.flush(ctx, u); err != nil {
		return nil, err
	}
	f, err := s.load(ctx, u.current(), s.loadOptions(u))
	if err != nil {
		return nil, err
	}
	total := 0
	for _, sh := range f.Sheets {
		total += sh.Rows()
	}
	if total > s.cfg.Limits.MaxRows {
		return nil, &errTooManyRows{total, s.cfg.Limits.MaxRows}
	}
	cat, uses := s.previewCatalogs(ctx, runner.Need([]*pipeline.File{f}))
	f.Validate(cat, false)
	v := s.versionOf(f, n, cat, uses)
	v.ownFixed = u.meta.Edits > 0
	v.took = time.Since(start)
	if !v.ownFixed && u.meta.HeaderRow <= 1 {
		s.warmUp(u, v)
	}
	return v, nil
}

// warmUp reads and validates, in the background, the fixed version (CSV or
// workbook) a fix of v would write with no cell changed, and keeps it as
// v.warm: a fix revalidates from a state read from the page's own fixed
// version (its rows numbered by its result.row column), so without it the first fix of an upload reads and
// validates the whole file again. The file is written beside the fixed
// version under the same name (positions name it alike) and never becomes
// the upload's current file. A state whose rows do not line up with v's
// one for one is not kept. u.mu is held.
func (s *Server) warmUp(u *upload, v *version) {
	path := filepath.Join(u.dir, "previo", u.meta.Name)
	opts, fixed := s.loadOptions(u), u.fixed()
	s.warming.Add(1)
	go func() {
		defer s.warming.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := writeFixedWith(path, v.file, nil); err != nil {
			return
		}
		f, err := s.load(ctx, path, opts)
		if err != nil || len(f.Sheets) != len(v.file.Sheets) {
			return
		}
		for i, sh := range f.Sheets {
			if sh.Rows() != v.file.Sheets[i].Rows() {
				return
			}
		}
		f.Path = fixed
		f.Validate(v.cat, false)
		w := s.versionOf(f, v.n, v.cat, v.catalogs)
		w.ownFixed = true
		v.warm.Store(w)
	}()
}

// versionOf is the version n of a validated file: its rows to attend to
// and its counts.
func (s *Server) versionOf(f *pipeline.File, n int, cat *validation.Catalog, uses []catalogUse) *version {
	v := &version{n: n, file: f, catalogs: uses, cat: cat, attention: make([][]int32, len(f.Sheets))}
	for si, sh := range f.Sheets {
		for i := range sh.Rows() {
			if pipeline.NeedsAttention(sh.RowStatus(i)) {
				v.attention[si] = append(v.attention[si], int32(i))
			}
		}
	}
	v.rows, _ = f.Counts()
	v.least = s.leastTime(f)
	return v
}

// incremental is the version after a fix of v that sets cell col of the
// rows change names in sheet sheet to value, built from v's state: only
// what the fix touched is validated again (pipeline.File.WithCells), when
// v was itself read from the page's fixed version and the catalogs are the
// ones v used. It is nil otherwise (the fixed file is then written and
// read again). u.mu is held.
func (s *Server) incremental(ctx context.Context, u *upload, v *version, sheet, col int, value string, change func(int) bool) *version {
	start := time.Now()
	from := v
	if w := v.warm.Load(); !v.ownFixed && w != nil {
		from = w // the first fix: from v as read from the page's fixed version
	}
	if !from.ownFixed || u.meta.HeaderRow > 1 {
		return nil
	}
	cat, uses := s.previewCatalogs(ctx, runner.Need([]*pipeline.File{from.file}))
	if !sameCatalogs(cat, uses, from.cat, from.catalogs) {
		return nil
	}
	sh := from.file.Sheets[sheet]
	var edits []pipeline.CellEdit
	for i := range sh.Rows() {
		if change(i) {
			edits = append(edits, pipeline.CellEdit{Row: i, Col: col, Value: value})
		}
	}
	f, ok := from.file.WithCells(sheet, edits, cat)
	if !ok {
		return nil
	}
	// Its file is not written yet: its sum is known once it is
	// (version.sha256).
	f.SHA256 = ""
	next := s.versionOf(f, v.n+1, cat, uses)
	next.ownFixed, next.incremental = true, true
	v.same.carry(&next.same, sheet, col, v.file.Sheets[sheet], change, value)
	next.took = time.Since(start)
	return next
}

// sameCatalogs reports whether a validation against cat (uses) checks ids
// as one against was (wasUses) did: the same catalogs fetched at the same
// times, the same article index.
func sameCatalogs(cat *validation.Catalog, uses []catalogUse, was *validation.Catalog, wasUses []catalogUse) bool {
	if len(uses) != len(wasUses) || (cat == nil) != (was == nil) {
		return false
	}
	for i := range uses {
		if uses[i].Name != wasUses[i].Name || !uses[i].Fetched.Equal(wasUses[i].Fetched) {
			return false
		}
	}
	if cat == nil {
		return true
	}
	// The catalogs are read anew for every validation: compared by
	// content, the article index by what it was built from.
	c, w := *cat, *was
	c.Articulos, w.Articulos = nil, nil
	return reflect.DeepEqual(c, w) && cat.Articulos.Equal(was.Articulos)
}

// fileSHA256 is the hex SHA-256 of the file at path, as pipeline.Load
// records it.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// leastTime is the least time the API's windows allow for the valid
// requests of f, before the journal is asked what was sent already.
func (s *Server) leastTime(f *pipeline.File) time.Duration {
	counts := map[schema.Kind]int{}
	for _, pl := range f.Plan() {
		n := pl.Requests
		if pl.Kind != schema.Stock {
			n -= pl.Invalid
		}
		counts[pl.Kind] += n
	}
	return pipeline.KindsLeastTime(counts, s.pacing())
}

// pacing is what the API's limits allow the page's sends.
func (s *Server) pacing() pipeline.Pacing { return s.cfg.Backend.Session.Pacing(s.cfg.Send.Rate) }

// previewCatalogs returns the cached catalogs need asks for, fetching one
// that was never fetched when the window allows it now (never waiting):
// a preview is shown at once, and says which ids it could not check.
func (s *Server) previewCatalogs(ctx context.Context, need catalog.Need) (*validation.Catalog, []catalogUse) {
	var names []catalog.Name
	if need.MediosPago {
		names = append(names, catalog.MediosPago)
	}
	if need.Motivos {
		names = append(names, catalog.Motivos)
	}
	uses := make([]catalogUse, len(names))
	for i, n := range names {
		uses[i].Name = n
	}
	tenant := s.knownTenant()
	if tenant == "" {
		if j, release, err := s.gate.acquire(0); err == nil {
			tenant, _ = s.tenantKey(ctx, j)
			release()
		}
	}
	if tenant == "" {
		return nil, uses
	}
	snap, err := s.catalogCache(nil).Load()
	if err != nil {
		return nil, uses
	}
	var missing []catalog.Name
	for _, n := range names {
		if fetchedAt(&snap, n).IsZero() {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		if j, release, err := s.gate.acquire(0); err == nil {
			if got, _, err := s.catalogCache(j).Pull(ctx, catalog.PullOptions{Names: missing}); err == nil {
				snap = got
			}
			release()
		}
	}
	for i := range uses {
		uses[i].Fetched = fetchedAt(&snap, uses[i].Name)
	}
	cat := snap.Catalog()
	if !need.MediosPago {
		cat.MediosPago = nil
	}
	if !need.Motivos {
		cat.Motivos = nil
	}
	if need.Articulos {
		// Rows by code are resolved in the preview as at the send; a send
		// under way holds the journal, and then the cached copy serves.
		if j, release, err := s.gate.acquire(0); err == nil {
			cat.Articulos = s.cfg.Backend.Session.ArticulosIndex(ctx, j, s.cfg.CatalogTTL)
			release()
		} else {
			cat.Articulos = s.cfg.Backend.Session.ArticulosIndex(ctx, nil, s.cfg.CatalogTTL)
		}
	}
	return cat, uses
}

// fetchedAt is when catalog n of snap was fetched; zero when never.
func fetchedAt(s *catalog.Snapshot, n catalog.Name) time.Time {
	switch n {
	case catalog.MediosPago:
		if s.MediosPago != nil {
			return s.MediosPagoFetched
		}
	case catalog.Motivos:
		if s.Motivos != nil {
			return s.MotivosFetched
		}
	}
	return time.Time{}
}

// lockVersion locks u for a change made on version ver (the version the
// page showed) and returns the current version, u.mu held. When the
// version cannot be loaded, is no longer ver (the page is stale) or inRange
// refuses the change's sheet, row or column, it answers the request,
// unlocks u and returns nil.
func (s *Server) lockVersion(w http.ResponseWriter, r *http.Request, u *upload, ver int, inRange func(*version) bool) *version {
	u.mu.Lock()
	v, err := s.loaded(r.Context(), u)
	if err != nil {
		u.mu.Unlock()
		s.fail(w, r, http.StatusConflict, msg.New("web.fix.bad"))
		return nil
	}
	if ver != v.n {
		u.mu.Unlock()
		s.fail(w, r, http.StatusConflict, msg.New("web.fix.stale"))
		return nil
	}
	if !inRange(v) {
		u.mu.Unlock()
		s.fail(w, r, http.StatusBadRequest, msg.New("web.fix.bad"))
		return nil
	}
	return v
}

// loaded returns the upload's current version, reading and validating it
// when it is not in memory. u.mu is held.
func (s *Server) loaded(ctx context.Context, u *upload) (*version, error) {
	if u.cur != nil {
		return u.cur, nil
	}
	v, err := s.validate(ctx, u, u.meta.Edits)
	if err != nil {
		return nil, err
	}
	u.cur = v
	return v, nil
}

// headerProblem reports whether err is a file whose headers did not match
// a kind (no kind found, a required column missing, two columns for one
// field): the mapping screen fixes those.
func headerProblem(err error) bool {
	return errors.Is(err, pipeline.ErrNoKind) || errors.Is(err, schema.ErrMissingColumn) || errors.Is(err, schema.ErrDuplicateColumn)
}

// fileMsg is a file-level error as a message argument: rendered, like
// fileText, in the language of the sentence around it.
type fileMsg struct {
	s   *Server
	u   *upload
	err error
}

// In renders the error in language l.
func (f fileMsg) In(l msg.Lang) string { return f.s.fileText(f.u, f.err, l) }

// fileText renders a file-level error without the server's folders: the
// accountant knows the file by its own name. A positioned error names its
// file by its base name (msg.Error.Base); a system error's path is cut to
// its base name the same way.
func (s *Server) fileText(u *upload, err error, l msg.Lang) string {
	var lz interface{ In(msg.Lang) string }
	if errors.As(err, &lz) {
		if me, ok := lz.(*msg.Error); ok {
			return me.Base().In(l)
		}
		return lz.In(l)
	}
	var tm *errTooManyRows
	if errors.As(err, &tm) {
		return counted(msg.New("web.toomanyrows", tm.rows, tm.max), l).In(l)
	}
	return msg.New("web.readfailed", msg.CauseOf(basePaths(err))).In(l)
}

// basePaths is err with the path of a failed file operation cut to its
// base name, when err is one.
func basePaths(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: filepath.Base(pe.Path), Err: pe.Err}
	}
	return err
}

// upload receives a file (multipart, field "file"), keeps it in a new
// owner-only folder and shows its plan, or its mapping screen when its
// headers need one.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	limit := s.cfg.Limits.MaxBytes
	if r.ContentLength > limit+64<<10 {
		s.tooLarge(w, r, limit)
		return
	}
	// Not http.MaxBytesReader: past its limit it closes the connection
	// while the browser still sends, which the browser shows as "This
	// site can't be reached" instead of the page's sentence.
	r.Body = &cappedBody{ReadCloser: r.Body, left: limit + 64<<10, limit: limit + 64<<10}
	mr, err := r.MultipartReader()
	if err != nil {
		s.refuseUpload(w, r, msg.New("web.upload.nofile"))
		return
	}
	var u *upload
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			s.uploadFailed(w, r, u, err, limit)
			return
		}
		if part.FormName() != "file" || part.FileName() == "" {
			part.Close()
			continue
		}
		u, err = s.receive(part, limit)
		part.Close()
		if err != nil {
			s.uploadFailed(w, r, u, err, limit)
			return
		}
		break
	}
	if u == nil {
		s.refuseUpload(w, r, msg.New("web.upload.nofile"))
		return
	}
	// The upload is in: its read (perhaps after waiting its turn in the
	// memory budget) gets a whole write timeout for its answer.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.Timeouts.Write))
	u.mu.Lock()
	v, err := s.validate(r.Context(), u, 0)
	if err == nil {
		u.cur = v
	} else if mapping := headerProblem(err); mapping && s.applySavedProfile(r.Context(), u) {
		err = nil
	}
	saveErr := u.saveMeta()
	u.mu.Unlock()
	if saveErr != nil {
		s.uploads.remove(u)
		s.refuseUpload(w, r, msg.New("web.readfailed", msg.CauseOf(saveErr)))
		return
	}
	if mapping := headerProblem(err); err != nil && !mapping {
		why := fileMsg{s, u, err}
		s.uploads.remove(u)
		s.log.Info(s.logText("web.log.upload.refused"), "reason", why.In(s.cfg.Lang))
		s.refuseUpload(w, r, why)
		return
	}
	s.uploads.add(u)
	s.uploads.touch(u, s.now())
	s.linkErrorsFile(u)
	s.log.Info(s.logText("web.log.upload"), "id", u.meta.ID, "size", u.meta.Size)
	if err != nil {
		http.Redirect(w, r, "/u/"+u.meta.ID+"/columns", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/u/"+u.meta.ID, http.StatusSeeOther)
}

// receive copies one uploaded file into a new upload folder, refusing it
// past limit bytes.
func (s *Server) receive(part *multipart.Part, limit int64) (*upload, error) {
	u, err := s.uploads.create(safeName(part.FileName()), s.now())
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(u.original(), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return u, fmt.Errorf("keep upload: %w", err)
	}
	n, err := io.Copy(f, io.LimitReader(part, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return u, err
	}
	if n > limit {
		return u, &http.MaxBytesError{Limit: limit}
	}
	// The original is never changed: a fix writes the fixed version.
	_ = os.Chmod(u.original(), 0o400)
	u.meta.Size = n
	return u, nil
}

// uploadFailed answers an upload that could not be received.
func (s *Server) uploadFailed(w http.ResponseWriter, r *http.Request, u *upload, err error, limit int64) {
	if u != nil {
		s.uploads.remove(u)
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		s.tooLarge(w, r, limit)
		return
	}
	s.refuseUpload(w, r, msg.New("web.readfailed", msg.CauseOf(err)))
}

// maxDiscard is how much of an upload over the limit is read and thrown
// away so that the browser, which sends the whole body before it reads
// an answer, gets the page's sentence; past it the connection is closed.
const maxDiscard = 1 << 30

// tooLarge answers an upload over the limit with the upload page and its
// sentence (413), after reading what is left of the body: an answer
// while the browser still sends ends in a reset connection it shows as
// "This site can't be reached".
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request, limit int64) {
	body := r.Body
	if c, ok := body.(*cappedBody); ok {
		body = c.ReadCloser
	}
	// The body's reading gets its own deadline: the read timeout was
	// meant for the limit's size, not for what is thrown away.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.cfg.Timeouts.Write))
	n, _ := io.CopyN(io.Discard, body, maxDiscard)
	if n == maxDiscard {
		w.Header().Set("Connection", "close")
	}
	s.log.Info(s.logText("web.log.upload.refused"), "reason", "size")
	s.renderHome(w, r, http.StatusRequestEntityTooLarge, msg.New("web.toolarge", limit>>20).In(lang(r)))
}

// cappedBody is a request body that refuses to read past limit bytes
// (an *http.MaxBytesError), leaving the rest to be read and thrown away.
type cappedBody struct {
	io.ReadCloser
	left, limit int64
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, &http.MaxBytesError{Limit: c.limit}
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.ReadCloser.Read(p)
	c.left -= int64(n)
	return n, err
}

// refuseUpload answers a refused upload with the upload page again, saying
// why: a redirect, so that a reload does not send the file again.
func (s *Server) refuseUpload(w http.ResponseWriter, r *http.Request, why msg.Localizer) {
	s.redirectWith(w, r, "/", notice{problem: why})
}

// uploadOf returns the upload the path names, answering 404 when none.
func (s *Server) uploadOf(w http.ResponseWriter, r *http.Request) *upload {
	id := r.PathValue("id")
	var u *upload
	if validID(id) {
		u = s.uploads.get(id)
	}
	if u == nil {
		s.fail(w, r, http.StatusNotFound, msg.New("web.upload.gone"))
		return nil
	}
	s.uploads.touch(u, s.now())
	return u
}

// view is the upload's current version for a page, or the answer that
// there is none: the mapping screen when its headers need one.
func (s *Server) view(w http.ResponseWriter, r *http.Request, u *upload) *version {
	u.mu.Lock()
	v, err := s.loaded(r.Context(), u)
	u.mu.Unlock()
	if err == nil {
		return v
	}
	if mapping := headerProblem(err); mapping {
		http.Redirect(w, r, "/u/"+u.meta.ID+"/columns", http.StatusSeeOther)
		return nil
	}
	s.render(w, r, http.StatusUnprocessableEntity, "error", &errorPage{base: s.base(r, "web.error.title"), Text: s.fileText(u, err, lang(r))})
	return nil
}

// query is what a preview page shows: which sheet, which page, only the
// rows that need attention or all.
type query struct {
	Sheet, Page int
	Only        bool
}

func parseQuery(v url.Values) query {
	q := query{Page: 1}
	q.Sheet, _ = strconv.Atoi(v.Get("sheet"))
	if p, err := strconv.Atoi(v.Get("page")); err == nil && p > 0 {
		q.Page = p
	}
	q.Only = v.Get("only") == "errores"
	return q
}

// fixForm is the fix form: which cell of which version, and its new text.
type fixForm struct {
	q                 query
	row, col, version int
	value             string
	// all applies the value to every row of the sheet with the same
	// value in the column.
	all bool
}

// maxFixValue is the longest text a fixed cell may take.
const maxFixValue = 32 << 10

// parseFix reads the fix form; ok is false when a number is not one or the
// value is too long. The ranges are checked against the version.
func parseFix(v url.Values) (fixForm, bool) {
	f := fixForm{q: parseQuery(v)}
	var err1, err2, err3 error
	f.row, err1 = strconv.Atoi(v.Get("row"))
	f.col, err2 = strconv.Atoi(v.Get("col"))
	f.version, err3 = strconv.Atoi(v.Get("version"))
	f.value = strings.TrimRight(v.Get("value"), "\r\n")
	f.all = v.Get("all") == "1"
	return f, err1 == nil && err2 == nil && err3 == nil && len(f.value) <= maxFixValue
}

// values renders q as a query string.
func (q query) values() url.Values {
	v := url.Values{}
	v.Set("sheet", strconv.Itoa(q.Sheet))
	v.Set("page", strconv.Itoa(q.Page))
	if q.Only {
		v.Set("only", "errores")
	}
	return v
}

// importPage shows an upload's plan and the first page of its preview.
func (s *Server) importPage(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	v := s.view(w, r, u)
	if v == nil {
		return
	}
	alert, notes := s.noticeOf(r)
	d := s.importData(r, u, v, parseQuery(r.URL.Query()), alert)
	d.Notes = notes
	if len(notes) > 0 {
		// What a find-and-replace changed, in the table's live region.
		d.Preview.Status = strings.Join(notes, " ")
	}
	s.render(w, r, http.StatusOK, "import", d)
}

// rows answers one page of the preview: the table alone for htmx, the
// whole page otherwise.
func (s *Server) rows(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	v := s.view(w, r, u)
	if v == nil {
		return
	}
	q := parseQuery(r.URL.Query())
	if r.Header.Get("HX-Request") != "true" {
		s.render(w, r, http.StatusOK, "import", s.importData(r, u, v, q, ""))
		return
	}
	s.renderFragment(w, "import", "preview", s.previewData(lang(r), u, v, q, ""))
}

// fixCell sets one cell of the upload (or every row with its value): the
// fix is kept in edits.jsonl and validated at once, the fixed version
// written beside the original (never changed) after (applyFix).
func (s *Server) fixCell(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	l := lang(r)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, msg.New("web.fix.bad"))
		return
	}
	fx, ok := parseFix(r.PostForm)
	if !ok {
		s.fail(w, r, http.StatusBadRequest, msg.New("web.fix.bad"))
		return
	}
	q, row, col, ver, value := fx.q, fx.row, fx.col, fx.version, fx.value
	v := s.lockVersion(w, r, u, ver, func(v *version) bool {
		return q.Sheet >= 0 && q.Sheet < len(v.file.Sheets) && row >= 0 && row < v.file.Sheets[q.Sheet].Rows() &&
			col >= 0 && col < len(v.file.Sheets[q.Sheet].Info.Header)
	})
	if v == nil {
		return
	}
	sh := v.file.Sheets[q.Sheet]
	before := sh.RowView(row, l)
	ed := edit{At: s.now(), Sheet: sh.Info.Name, Row: before.SourceRow, Column: sh.Info.Header[col], From: before.Cells[col], To: value}
	change := func(i int) bool { return i == row }
	if fx.all {
		// Every row with the same mistake in this column takes the one
		// replacement: one rewrite and one validation, not one per row.
		same := sameValueRows(sh, col, ed.From)
		ed.Rows = len(same)
		change = func(i int) bool { return same[i] }
	}
	next, err := s.applyFix(r.Context(), u, v, q.Sheet, col, value, change, ed)
	u.mu.Unlock()
	if err != nil {
		s.fail(w, r, http.StatusUnprocessableEntity, msg.New("web.fix.failed", s.fileText(u, err, l)))
		return
	}
	status := s.fixStatus(next, q.Sheet, before, ed, l)
	if ed.Rows > 1 {
		status = msg.New("web.bulk.done", ed.From, value, thousands(ed.Rows, l), ed.Column).In(l) + " " + status
	}
	if r.Header.Get("HX-Request") != "true" {
		http.Redirect(w, r, "/u/"+u.meta.ID+"?"+q.values().Encode(), http.StatusSeeOther)
		return
	}
	// The plan's counts changed with the row: it comes along, swapped out
	// of band, so that the line at the top agrees with the table.
	d := s.importData(r, u, next, q, "")
	d.Preview = s.previewData(l, u, next, q, status)
	d.OOB = true
	s.renderFragment(w, "import", "fixed", d)
}

// applyFix makes the fix (cell col of the rows change names in sheet
// sheet of v set to value) and its version current; u.mu is held. The fix
// is kept once its line is in edits.jsonl: a version built from v's state
// in memory is answered at once, its fixed file written in the background
// (scheduleWrite); otherwise the fixed file is written and read again.
func (s *Server) applyFix(ctx context.Context, u *upload, v *version, sheet, col int, value string, change func(int) bool, ed edit) (*version, error) {
	next := s.incremental(ctx, u, v, sheet, col, value, change)
	if next == nil {
		// Read again from the file: the file on disk first holds every
		// fix before this one.
		if err := s.flush(ctx, u); err != nil {
			return nil, err
		}
	}
	prevMeta := u.meta
	if u.meta.Unwritten == 0 && u.written() > 0 && u.meta.WrittenSHA256 == "" {
		// A fixed version written before its sum was kept.
		sum, err := fileSHA256(u.fixed())
		if err != nil {
			return nil, fmt.Errorf("fixed file: %w", err)
		}
		u.meta.WrittenSHA256 = sum
	}
	ed.N, ed.SheetIndex, ed.Col = u.meta.Edits+1, sheet, col
	for i := range v.file.Sheets[sheet].Rows() {
		if change(i) {
			ed.Indexes = append(ed.Indexes, i)
		}
	}
	if err := u.appendEdit(ed); err != nil {
		u.meta = prevMeta
		return nil, err
	}
	u.meta.Edits++
	u.meta.Unwritten++
	if err := u.saveMeta(); err != nil {
		u.meta = prevMeta
		return nil, err
	}
	if next != nil {
		u.cur = next
		s.scheduleWrite(u, next)
		s.log.Info(s.logText("web.log.fixed"), "id", u.meta.ID, "row", ed.Row)
		return next, nil
	}
	u.wmu.Lock()
	sum, err := u.replaceFixed(u.meta.Edits, func(tmp string) error { return writeFixed(tmp, v.file, sheet, col, value, change) }, nil)
	u.wmu.Unlock()
	if err != nil {
		// Not written: as if never made (its line is taken over by the
		// next fix's, which has its number).
		u.meta = prevMeta
		_ = u.saveMeta()
		return nil, err
	}
	u.meta.Unwritten, u.meta.WrittenSHA256 = 0, sum
	if err := u.saveMeta(); err != nil {
		// meta.json still says the file lacks this fix: a restart finds
		// the file holding it (replay).
		s.log.Warn(s.logText("web.log.fixwrite"), "id", u.meta.ID, "err", err.Error())
	}
	next, err = s.validate(ctx, u, u.meta.Edits)
	if err != nil {
		u.cur = nil // the file written is what the page reads next
		return nil, err
	}
	u.cur = next
	s.log.Info(s.logText("web.log.fixed"), "id", u.meta.ID, "row", ed.Row)
	return next, nil
}

// sameValueRows returns the rows of sh whose cell col reads value.
func sameValueRows(sh *pipeline.Sheet, col int, value string) map[int]bool {
	out := map[int]bool{}
	for i := range sh.Rows() {
		if sh.Cell(i, col) == value {
			out[i] = true
		}
	}
	return out
}

// fixStatus says what a fix did to its row, for the page's live region.
func (s *Server) fixStatus(v *version, sheet int, before pipeline.RowView, ed edit, l msg.Lang) string {
	sh := v.file.Sheets[sheet]
	// A fix keeps every row where it was, unless it emptied its row.
	if i := before.Index; i < sh.Rows() {
		if rv := sh.RowViewFor(i, l, msg.ForPage); rv.SourceRow == before.SourceRow {
			if pipeline.NeedsAttention(rv.Status) {
				return msg.New("web.fix.still", ed.Row, rv.Message).In(l)
			}
			return msg.New("web.fix.ok", ed.Row, statusText(rv.Status, l)).In(l)
		}
	}
	return msg.New("web.fix.done", ed.Row).In(l)
}

// errorsXLSX downloads the rows that need attention as a workbook, to fix
// in Excel and upload again (readers ignore its result.* columns).
func (s *Server) errorsXLSX(w http.ResponseWriter, r *http.Request) {
	u := s.uploadOf(w, r)
	if u == nil {
		return
	}
	v := s.view(w, r, u)
	if v == nil || !s.fileUpToDate(w, r, u) {
		return
	}
	l := lang(r)
	tables := make([]writers.Table, len(v.file.Sheets))
	for i, sh := range v.file.Sheets {
		tables[i] = withOrigin(sh.ErrorsTableFor(l, msg.ForPage), u.meta.ID)
	}
	name := strings.TrimSuffix(u.meta.Name, filepath.Ext(u.meta.Name)) + ".errores.xlsx"
	tmp, err := os.CreateTemp(u.dir, ".errores-*.xlsx")
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.readfailed", msg.CauseOf(err)))
		return
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	sum := v.file.Summary(pipeline.ReportOptions{Lang: l, Command: "validate", Tool: s.cfg.Tool, Started: s.now()})
	// The file it names, by its SHA-256: the fixed version as written
	// (fileUpToDate wrote it).
	sum.SHA256 = v.sha256()
	if err := writers.WriteXLSX(tmp.Name(), tables, sum, l); err != nil {
		s.fail(w, r, http.StatusInternalServerError, msg.New("web.readfailed", msg.CauseOf(err)))
		return
	}
	serveDownload(w, r, tmp.Name(), name)
}

// serveDownload sends the file at path as an attachment called name.
func serveDownload(w http.ResponseWriter, r *http.Request, path, name string) {
	f, err := os.Open(path)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	serveOpened(w, r, f, name)
}

// serveOpened sends the open file f, when it is a regular file, as an
// attachment called name.
func serveOpened(w http.ResponseWriter, r *http.Request, f *os.File, name string) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Type", contentType(name))
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// contentType is the type of a download, by extension.
func contentType(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xlsx":
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".json":
		return "application/json"
	}
	return "application/octet-stream"
}
