package webapp

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
	"github.com/nxbatch/nxbatch/msg"
	"github.com/nxbatch/nxbatch/pipeline"
	"github.com/nxbatch/nxbatch/writers"
)

// An upload lives in its own owner-only folder under the uploads folder
// of the state folder:
//
//	meta.json        what the page knows of it (name, mapping, sends)
//	original/NAME    the file as uploaded, never changed
//	corregido/NAME   the fixed version, when a cell was fixed: what is sent
//	edits.jsonl      every fix: when, which cell, from what to what
//	reports/         the reports of its last send (NAME.result.xlsx, ...)
//
// A fix is kept when its line is in edits.jsonl (written and synced before
// the page answers): the page answers from the state validated in memory,
// and the fixed version is written after, in the background, one write for
// the fixes made meanwhile (meta.Unwritten counts the edits it lacks).
// Whatever reads the fixed version (a send, a reading of the file again,
// the column screen, the errors workbook) first brings it up to date
// (Server.flush); a server stopped before the write writes it from the
// edits the next time the upload is read.

// uploadsDir is the uploads folder of the state folder.
func uploadsDir(stateDir string) string {
	return filepath.Join(stateDir, "uploads")
}

// meta is what is kept of an upload between server runs.
type meta struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"` // the file's name as uploaded, made safe
	Size     int64     `json:"size"`
	Uploaded time.Time `json:"uploaded"`
	// Of is the upload this one is the errors file of, "" when none.
	Of string `json:"of,omitempty"`
	// Profile and Columns are the mapping in force: the profile's name and
	// header → API field.
	Profile string            `json:"profile,omitempty"`
	Columns map[string]string `json:"columns,omitempty"`
	// AutoProfile is true when Profile was applied by itself, because it
	// was saved for the same headers (the import page says so).
	AutoProfile bool `json:"autoProfile,omitempty"`
	// HeaderRow is the row holding the titles when the user chose it on
	// the column screen (0: found by itself).
	HeaderRow int `json:"headerRow,omitempty"`
	// ZeroMissing is the count's "faltantes en cero": the articles with
	// stock in a counted warehouse that the file does not list are
	// counted as 0 (run's --faltantes-en-cero).
	ZeroMissing bool `json:"faltantesEnCero,omitempty"`
	Edits       int  `json:"edits"`
	// Unwritten is how many of the last Edits the fixed version on disk
	// does not hold yet (0 in a meta.json older than lazy writing, whose
	// every fix was written before it was answered); WrittenSHA256 is the
	// SHA-256 of the fixed version that holds the others ("" when none was
	// written), to tell a write that happened after meta.json was saved.
	Unwritten     int          `json:"unwritten,omitempty"`
	WrittenSHA256 string       `json:"writtenSha256,omitempty"`
	Sends         []sendRecord `json:"sends,omitempty"`
}

// sendRecord is one send of an upload, as history shows it.
type sendRecord struct {
	Started  time.Time      `json:"started"`
	Finished time.Time      `json:"finished"`
	Sent     int            `json:"sent"`
	Rows     map[string]int `json:"rows"`
	// Said is why the send stopped or sent nothing, in each language.
	Said map[msg.Lang]string `json:"said,omitempty"`
}

// upload is one uploaded file and what the page has made of it.
type upload struct {
	dir string
	// sent is what the journal said was sent of it, read at the journal
	// change sentGen counts (Server.sentOf).
	sent    *sentOf
	sentGen int64

	mu      sync.Mutex
	meta    meta
	cur     *version       // the validated preview; nil until loaded (or evicted)
	last    *pipeline.File // the last send's rows, for the result page
	reports []string       // the last send's report files, by name
	used    time.Time
	// pending is the newest version whose fixed file is not written yet
	// (nil when the file on disk is up to date or, after a restart, until
	// the edits are replayed); writer says a background write runs; gone
	// that the upload was removed.
	pending *version
	writer  bool
	gone    bool
	// fixedAt is when the last fix was made (the background write waits
	// for a pause).
	fixedAt time.Time

	// wmu orders the writes of the fixed version, and is held while one is
	// written (u.mu, when both are held, is taken first); fileN is the
	// number of edits the file on disk holds, fileSum its SHA-256.
	wmu     sync.Mutex
	fileN   int
	fileSum string
	// fileMu is held to replace the fixed version, and held for reading by
	// a send while it reads the file: the file it hashes is the file it
	// parses.
	fileMu sync.RWMutex
}

// original is the uploaded file's path.
func (u *upload) original() string { return filepath.Join(u.dir, "original", u.meta.Name) }

// fixed is the fixed version's path.
func (u *upload) fixed() string { return filepath.Join(u.dir, "corregido", u.meta.Name) }

// current is the file a preview or a send reads: the fixed version when a
// fix was written, else the original. What reads it first brings it up
// to date (Server.flush), so that it holds every fix. u.mu is held.
func (u *upload) current() string {
	if u.written() > 0 {
		return u.fixed()
	}
	return u.original()
}

// written is how many edits the fixed version on disk holds, as meta.json
// says (the file may hold more: a write ends before its meta is saved).
func (u *upload) written() int { return u.meta.Edits - u.meta.Unwritten }

func (u *upload) reportDir() string { return filepath.Join(u.dir, "reports") }

// saveMeta writes meta.json atomically, owner-only; u.mu is held.
func (u *upload) saveMeta() error {
	b, err := json.MarshalIndent(u.meta, "", "  ")
	if err != nil {
		return fmt.Errorf("upload %s: encode meta: %w", u.meta.ID, err)
	}
	return atomicfile.Write(filepath.Join(u.dir, "meta.json"), atomicfile.Private, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// uploadStore keeps the uploads: their folders on disk and, for the few
// used last, their validated rows in memory.
type uploadStore struct {
	dir string

	mu   sync.Mutex
	byID map[string]*upload
}

// keepLoaded is how many uploads keep their rows in memory; the others are
// read again from disk when opened (a 100,000-row file costs tens of MB).
const keepLoaded = 3

func newUploadStore(dir string) (*uploadStore, error) {
	if err := atomicfile.MkdirAll(dir, atomicfile.PrivateDir); err != nil {
		return nil, &msg.Error{Msg: msg.New("web.uploads.folder", dir, msg.CauseOf(err)), Err: err}
	}
	// The folder may be older than this rule, or made by a umask that
	// shares it: uploads hold a company's sales.
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, &msg.Error{Msg: msg.New("web.uploads.folder", dir, msg.CauseOf(err)), Err: err}
	}
	st := &uploadStore{dir: dir, byID: map[string]*upload{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, &msg.Error{Msg: msg.New("web.uploads.folder", dir, msg.CauseOf(err)), Err: err}
	}
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "meta.json"))
		if err != nil {
			continue
		}
		u := &upload{dir: filepath.Join(dir, e.Name())}
		if json.Unmarshal(b, &u.meta) != nil || u.meta.ID != e.Name() {
			continue
		}
		u.reports = listReports(u.reportDir())
		u.fileN, u.fileSum = u.written(), u.meta.WrittenSHA256
		st.byID[u.meta.ID] = u
	}
	return st, nil
}

// validID reports whether s is an upload id: 32 lowercase hex digits.
func validID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// get returns the upload id, nil when there is none.
func (st *uploadStore) get(id string) *upload {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.byID[id]
}

// all returns every upload, newest first.
func (st *uploadStore) all() []*upload {
	st.mu.Lock()
	out := make([]*upload, 0, len(st.byID))
	for _, u := range st.byID {
		out = append(out, u)
	}
	st.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].meta.Uploaded.After(out[j].meta.Uploaded) })
	return out
}

// create makes the folder of a new upload named name.
func (st *uploadStore) create(name string, now time.Time) (*upload, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("upload id: %w", err)
	}
	id := hex.EncodeToString(b[:])
	u := &upload{dir: filepath.Join(st.dir, id), meta: meta{ID: id, Name: name, Uploaded: now}}
	if err := os.MkdirAll(filepath.Join(u.dir, "original"), 0o700); err != nil {
		return nil, fmt.Errorf("upload folder: %w", err)
	}
	return u, nil
}

// add makes a created upload visible.
func (st *uploadStore) add(u *upload) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID[u.meta.ID] = u
}

// remove forgets an upload and deletes its folder (a file refused as
// unreadable is not kept), once a write of its fixed version under way
// is over.
func (st *uploadStore) remove(u *upload) {
	st.mu.Lock()
	delete(st.byID, u.meta.ID)
	st.mu.Unlock()
	u.mu.Lock()
	u.gone, u.pending = true, nil
	u.mu.Unlock()
	u.wmu.Lock()
	defer u.wmu.Unlock()
	_ = os.RemoveAll(u.dir)
}

// touch marks u used and frees the rows of the uploads used longest ago.
func (st *uploadStore) touch(u *upload, now time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	u.used = now
	var loaded []*upload
	for _, x := range st.byID {
		if x != u && x.cur != nil {
			loaded = append(loaded, x)
		}
	}
	if len(loaded) < keepLoaded {
		return
	}
	sort.Slice(loaded, func(i, j int) bool { return loaded[i].used.Before(loaded[j].used) })
	for _, x := range loaded[:len(loaded)-keepLoaded+1] {
		if x.mu.TryLock() {
			x.cur, x.last = nil, nil
			x.mu.Unlock()
		}
	}
}

// safeName makes an uploaded file's name safe as a file name: its base
// only, no control or path characters, at most 100 characters.
func safeName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsControl(r), strings.ContainsRune(`/\:*?"<>|`, r), unicode.Is(unicode.Bidi_Control, r):
			return '_'
		}
		return r
	}, name)
	name = strings.TrimLeft(strings.TrimSpace(name), ".")
	if r := []rune(name); len(r) > 100 {
		ext := filepath.Ext(name)
		name = string(r[:100-len([]rune(ext))]) + ext
	}
	if name == "" || name == "." {
		name = "archivo"
	}
	return name
}

// listReports lists the report files in dir, by name.
func listReports(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// edit is one fixed cell, as edits.jsonl records it.
type edit struct {
	At     time.Time `json:"at"`
	Sheet  string    `json:"sheet,omitempty"`
	Row    int       `json:"row"` // the original file's row
	Column string    `json:"column"`
	From   string    `json:"from"`
	To     string    `json:"to"`
	// Rows is how many rows one fix changed when it was applied to every
	// row with the same value in the column (0: the one row).
	Rows int `json:"rows,omitempty"`
	// N is the edit's number: the upload's Edits once it is made. A line
	// of a fix that was never answered (the server stopped before its
	// meta.json was saved) carries the number the next fix takes again;
	// the later line wins.
	N int `json:"n,omitempty"`
	// SheetIndex, Col and Indexes are what a replay needs: the positions
	// of the sheet and the column, and the indexes of the rows changed,
	// in the state the fix was made on.
	SheetIndex int   `json:"sheetIndex"`
	Col        int   `json:"col"`
	Indexes    []int `json:"indexes,omitempty"`
}

// cellEdits sets, in the cells of row i of sheet si as read, what fixes
// changed: text as typed.
type cellEdits func(si, i int, cells []string, kinds []cell.Kind)

// writeFixed writes the fixed version of f to path, with the cell at
// (sheet, row, col) set to value: the same sheets, headers and cells, in
// the same format (CSV for CSV, a workbook for a workbook), with
// result.row naming each row's row in the original file (so reports and
// messages keep the accountant's row numbers) and result.rowId when the
// upload itself carried stock row identities. The readers take a file so
// written as they take a report fed back.
// change says which rows of that sheet take value (one row, or every row
// with the same value in the column).
func writeFixed(path string, f *pipeline.File, sheet, col int, value string, change func(int) bool) error {
	return writeFixedWith(path, f, func(si, i int, cells []string, kinds []cell.Kind) {
		if si == sheet && col >= 0 && col < len(cells) && change(i) {
			cells[col], kinds[col] = value, cell.Text
		}
	})
}

// writeFixedWith is writeFixed with the cells edit changes (nil: none).
func writeFixedWith(path string, f *pipeline.File, edit cellEdits) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("fixed file folder: %w", err)
	}
	tables := make([]writers.Table, len(f.Sheets))
	for si, sh := range f.Sheets {
		res := []string{"result.row"}
		if sh.HasPriorIDs() {
			res = append(res, "result.rowId")
		}
		tables[si] = writers.Table{Sheet: sh.Info.Name, Header: sh.Info.Header, Result: res, Date1904: sh.Info.Date1904,
			Rows: fixedRows(sh, si, edit, len(res) > 1)}
	}
	if strings.EqualFold(filepath.Ext(path), ".xlsx") {
		return writeFixedXLSX(path, tables)
	}
	return writers.WriteCSV(path, tables[0])
}

// fixedRows yields the rows of sh, sheet si, with the cells edit changes.
func fixedRows(sh *pipeline.Sheet, si int, edit cellEdits, ids bool) iter.Seq[writers.Row] {
	return func(yield func(writers.Row) bool) {
		var cells []string
		var kinds []cell.Kind
		for i := range sh.Rows() {
			// Every cell keeps its kind (a date stays a date, not its
			// serial number as text); the fixed one is text as typed.
			var row, source int
			var prior string
			cells, kinds, row, source, prior = sh.RowCells(i, cells, kinds)
			if edit != nil {
				edit(si, i, cells, kinds)
			}
			res := []string{strconv.Itoa(source)}
			if ids {
				res = append(res, prior)
			}
			if !yield(writers.Row{Cells: cells, Kinds: kinds, Result: res, SourceRow: row}) {
				return
			}
		}
	}
}

// writeFixedXLSX writes the tables as a workbook, one sheet each under its
// own name, every cell of the kind it was read as: a number a number, a
// date a date, a boolean a boolean, text as text (an identifier keeps its
// leading zeros), neutralised.
func writeFixedXLSX(path string, tables []writers.Table) error {
	x := excelize.NewFile()
	defer x.Close()
	dateStyle, err := x.NewStyle(&excelize.Style{NumFmt: 14})
	if err != nil {
		return fmt.Errorf("fixed workbook: %w", err)
	}
	dateTimeStyle, err := x.NewStyle(&excelize.Style{NumFmt: 22})
	if err != nil {
		return fmt.Errorf("fixed workbook: %w", err)
	}
	for i, t := range tables {
		name := t.Sheet
		if name == "" {
			name = "Hoja1"
		}
		var err error
		if i == 0 {
			err = x.SetSheetName("Sheet1", name)
		} else {
			_, err = x.NewSheet(name)
		}
		if err != nil {
			return fmt.Errorf("fixed workbook: sheet %q: %w", name, err)
		}
		sw, err := x.NewStreamWriter(name)
		if err != nil {
			return fmt.Errorf("fixed workbook: sheet %q: %w", name, err)
		}
		rec := make([]any, 0, len(t.Header)+len(t.Result))
		for _, h := range t.Header {
			rec = append(rec, cell.Neutralize(h))
		}
		for _, h := range t.Result {
			rec = append(rec, h)
		}
		if err := sw.SetRow("A1", rec); err != nil {
			return fmt.Errorf("fixed workbook: %w", err)
		}
		n := 2
		for r := range t.Rows {
			rec = rec[:0]
			for j, c := range r.Cells {
				k := cell.Text
				if j < len(r.Kinds) {
					k = r.Kinds[j]
				}
				rec = append(rec, fixedCell(c, k, t.Date1904, dateStyle, dateTimeStyle))
			}
			for _, c := range r.Result {
				rec = append(rec, c)
			}
			cell, _ := excelize.CoordinatesToCellName(1, n)
			if err := sw.SetRow(cell, rec); err != nil {
				return fmt.Errorf("fixed workbook: row %d: %w", r.SourceRow, err)
			}
			n++
		}
		if err := sw.Flush(); err != nil {
			return fmt.Errorf("fixed workbook: %w", err)
		}
	}
	return atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		_, err := x.WriteTo(w)
		return err
	})
}

// fixedCell is one cell of a fixed workbook, of the kind it was read as.
func fixedCell(c string, k cell.Kind, date1904 bool, dateStyle, dateTimeStyle int) any {
	switch k {
	case cell.Number:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			return f
		}
	case cell.Date:
		if f, err := strconv.ParseFloat(c, 64); err == nil {
			if d, ok := cell.DateOf(f, date1904); ok {
				st := dateStyle
				if d.Hour() != 0 || d.Minute() != 0 || d.Second() != 0 {
					st = dateTimeStyle
				}
				return excelize.Cell{StyleID: st, Value: d}
			}
		}
	case cell.Bool:
		return c == "1"
	case cell.Empty:
		return nil
	}
	return cell.Neutralize(c)
}
