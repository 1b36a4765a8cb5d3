package webapp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// A fix of a 100,000-row workbook spent seconds writing the fixed
// workbook, and a CSV's a good part of its time: the page now answers once
// the fix is in edits.jsonl, and the fixed version is written after (see
// the upload's folder in uploads.go).

// editsFile is the upload's edits.jsonl.
func (u *upload) editsFile() string { return filepath.Join(u.dir, "edits.jsonl") }

// appendEdit adds ed's line to edits.jsonl and syncs it: once it returns,
// the fix survives the server. A line cut short by a failed write is cut
// off again, so that the next line starts on a line of its own.
func (u *upload) appendEdit(ed edit) error {
	b, err := json.Marshal(ed)
	if err != nil {
		return fmt.Errorf("edits: encode: %w", err)
	}
	f, err := atomicfile.OpenFile(u.editsFile(), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("edits: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("edits: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		_ = f.Truncate(st.Size())
		return fmt.Errorf("edits: %w", err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Truncate(st.Size())
		return fmt.Errorf("edits: %w", err)
	}
	return f.Close()
}

// readEdits reads edits.jsonl by edit number: the last line of a number
// wins (a line of a fix never answered is followed by the next fix's).
// Lines without a number (written before edits were numbered) and lines
// that do not read are left out.
func (u *upload) readEdits() (map[int]edit, error) {
	b, err := os.ReadFile(u.editsFile())
	if err != nil {
		return nil, fmt.Errorf("edits: %w", err)
	}
	out := map[int]edit{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		var ed edit
		if json.Unmarshal(sc.Bytes(), &ed) == nil && ed.N > 0 {
			out[ed.N] = ed
		}
	}
	return out, nil
}

// writeAfter is how long the fixes of an upload pause before its fixed
// version is written in the background: an accountant fixing cell after
// cell gets one write at the end, and the write's work (seconds for a
// workbook of 100,000 rows) does not slow the fixes down meanwhile. What
// needs the file sooner writes it at once (flush), and so does Close.
const writeAfter = time.Second

// scheduleWrite makes v, just built by a fix, the version to write, and
// starts the background writer when none runs. u.mu is held.
func (s *Server) scheduleWrite(u *upload, v *version) {
	u.pending, u.fixedAt = v, time.Now()
	if u.writer {
		return // it takes the newest version when its write is over
	}
	u.writer = true
	s.writing.Add(1)
	go s.writeLoop(u)
}

// writeLoop writes the newest pending version of u, once the fixes pause
// (writeAfter), until none is left: the fixes made meanwhile, and while
// one is written, are written together after it.
func (s *Server) writeLoop(u *upload) {
	defer s.writing.Done()
	for {
		u.mu.Lock()
		v := u.pending
		wait := writeAfter - time.Since(u.fixedAt)
		if v == nil || u.gone {
			u.writer = false
			u.mu.Unlock()
			return
		}
		u.mu.Unlock()
		if wait > 0 && !s.closing() {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-s.stop:
				t.Stop()
			}
			continue // a fix meanwhile moves the write on
		}
		if s.writeHook != nil && !s.writeHook(u) {
			u.mu.Lock()
			u.writer = false
			u.mu.Unlock()
			return
		}
		u.wmu.Lock()
		var err error
		sum := u.fileSum
		if u.fileN < v.n {
			sum, err = u.writeVersion(v)
		}
		u.wmu.Unlock()
		u.mu.Lock()
		if err != nil {
			// Left pending: the next read of the file writes it, or
			// says why it cannot.
			u.writer = false
			u.mu.Unlock()
			s.log.Warn(s.logText("web.log.fixwrite"), "id", u.meta.ID, "err", err.Error())
			return
		}
		if !u.gone {
			s.recordWritten(u, v.n, sum)
		}
		u.mu.Unlock()
	}
}

// closing reports whether Close was called: the fixed versions are then
// written without waiting for a pause.
func (s *Server) closing() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// recordWritten notes in meta.json that the fixed version on disk holds
// the first n edits, its SHA-256 sum. u.mu is held.
func (s *Server) recordWritten(u *upload, n int, sum string) {
	if u.pending != nil && u.pending.n <= n {
		u.pending = nil
	}
	if n <= u.written() {
		return // a later write was recorded already
	}
	u.meta.Unwritten, u.meta.WrittenSHA256 = u.meta.Edits-n, sum
	if err := u.saveMeta(); err != nil {
		// meta.json says less than the file holds: the next server
		// replays edits the file holds already, which changes nothing.
		s.log.Warn(s.logText("web.log.fixwrite"), "id", u.meta.ID, "err", err.Error())
	}
}

// writeVersion writes v's file as the fixed version and returns its
// SHA-256. u.wmu is held.
func (u *upload) writeVersion(v *version) (string, error) {
	return u.replaceFixed(v.n, func(tmp string) error { return writeFixedWith(tmp, v.file, nil) }, v)
}

// replaceFixed writes the fixed version holding the first n edits with
// write, beside it first, then in its place, and returns its SHA-256. v,
// when not nil, is the version it was written from. u.wmu is held.
func (u *upload) replaceFixed(n int, write func(tmp string) error, v *version) (string, error) {
	tmp := u.fixed() + ".next" + filepath.Ext(u.meta.Name)
	if err := write(tmp); err != nil {
		_ = os.Remove(tmp)
		return "", err
	}
	sum, err := fileSHA256(tmp)
	if err == nil {
		// On disk before meta.json can say it is written: after a power
		// cut the file must hold what the meta says it holds.
		err = syncPath(tmp)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("fixed file: %w", err)
	}
	u.fileMu.Lock()
	err = os.Rename(tmp, u.fixed())
	u.fileMu.Unlock()
	if err == nil {
		err = syncPath(filepath.Dir(u.fixed()))
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("fixed file: %w", err)
	}
	u.fileN, u.fileSum = n, sum
	if v != nil {
		v.sum.Store(&sum)
	}
	return sum, nil
}

// flush brings the fixed version on disk up to date with every fix made:
// it waits for a write under way, writes the newest version when that
// write did not hold it, or, after a restart, replays the edits the file
// lacks. u.mu is held.
func (s *Server) flush(ctx context.Context, u *upload) error {
	if u.meta.Unwritten == 0 || u.gone {
		return nil
	}
	u.wmu.Lock()
	defer u.wmu.Unlock()
	n, sum := u.meta.Edits, u.fileSum
	var err error
	switch {
	case u.fileN >= n:
		// The background write ended meanwhile.
	case u.pending != nil && u.pending.n == n:
		sum, err = u.writeVersion(u.pending)
	default:
		sum, err = s.replay(ctx, u)
	}
	if err != nil {
		return err
	}
	u.pending = nil
	u.meta.Unwritten, u.meta.WrittenSHA256 = 0, sum
	return u.saveMeta()
}

// errReplay is an edit that cannot be replayed on the fixed version.
var errReplay = errors.New("the fixes kept in edits.jsonl do not fit the file")

// replay writes the fixed version from the last one written (or the
// original) and the edits of edits.jsonl it lacks, when a server stopped
// before writing them. Those edits are either one fix, made on the file
// written, or fixes that each kept every row where it was (their state
// was built from the last in memory, pipeline.File.WithCells): setting
// each one's cells in turn is exact, and so is setting them on a file
// that holds some of them already (a write that ended after the last
// meta.json was saved). u.mu and u.wmu are held.
func (s *Server) replay(ctx context.Context, u *upload) (string, error) {
	edits, err := u.readEdits()
	if err != nil {
		return "", err
	}
	from, to := u.written(), u.meta.Edits
	base := u.original()
	if from > 0 {
		base = u.fixed()
	}
	if sum, err := fileSHA256(u.fixed()); err == nil && (from == 0 || sum != u.meta.WrittenSHA256) {
		// The fixed version was written after meta.json was saved.
		if to-from == 1 {
			// The one edit it lacked: the file holds it. (More than one
			// all kept the rows in place: set again below, harmless.)
			u.fileN, u.fileSum = to, sum
			return sum, nil
		}
		base = u.fixed()
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("fixed file: %w", err)
	}
	f, err := s.load(ctx, base, s.loadOptions(u))
	if err != nil {
		return "", err
	}
	// sheet → row → column → the text the last edit set.
	set := map[int]map[int]map[int]string{}
	for n := from + 1; n <= to; n++ {
		ed, ok := edits[n]
		if !ok {
			return "", fmt.Errorf("edit %d: %w", n, errReplay)
		}
		if ed.SheetIndex < 0 || ed.SheetIndex >= len(f.Sheets) {
			return "", fmt.Errorf("edit %d: sheet %d: %w", n, ed.SheetIndex, errReplay)
		}
		sh := f.Sheets[ed.SheetIndex]
		if (ed.Sheet != "" && sh.Info.Name != ed.Sheet) || ed.Col < 0 || ed.Col >= len(sh.Info.Header) || sh.Info.Header[ed.Col] != ed.Column {
			return "", fmt.Errorf("edit %d: column %q: %w", n, ed.Column, errReplay)
		}
		rows := set[ed.SheetIndex]
		if rows == nil {
			rows = map[int]map[int]string{}
			set[ed.SheetIndex] = rows
		}
		for _, i := range ed.Indexes {
			if i < 0 || i >= sh.Rows() {
				return "", fmt.Errorf("edit %d: row %d: %w", n, i, errReplay)
			}
			if rows[i] == nil {
				rows[i] = map[int]string{}
			}
			rows[i][ed.Col] = ed.To
		}
	}
	sum, err := u.replaceFixed(to, func(tmp string) error {
		return writeFixedWith(tmp, f, func(si, i int, cells []string, kinds []cell.Kind) {
			for c, text := range set[si][i] {
				cells[c], kinds[c] = text, cell.Text
			}
		})
	}, nil)
	if err != nil {
		return "", err
	}
	s.log.Info(s.logText("web.log.fixreplayed"), "id", u.meta.ID, "edits", to-from)
	return sum, nil
}

// upToDate brings u's fixed version up to date (flush), for a reader of
// the file that does not hold u.mu.
func (s *Server) upToDate(ctx context.Context, u *upload) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return s.flush(ctx, u)
}

// fileUpToDate is upToDate for a page that reads the file: when the file
// cannot be brought up to date, it answers why and returns false.
func (s *Server) fileUpToDate(w http.ResponseWriter, r *http.Request, u *upload) bool {
	if err := s.upToDate(r.Context(), u); err != nil {
		s.render(w, r, http.StatusUnprocessableEntity, "error", &errorPage{base: s.base(r, "web.error.title"), Text: s.fileText(u, err, lang(r))})
		return false
	}
	return true
}

// syncPath flushes a file's or a folder's contents to disk.
func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
