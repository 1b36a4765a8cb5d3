package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// A run that sent something keeps its own result and summary, so that a
// rerun (which sends nothing, or sends what was fixed) never overwrites
// what the run that invoiced wrote: the usual names (NAME.result.xlsx,
// NAME.summary.json...) always hold the latest run's reports, and
// NAME.runs/ holds those of every run that sent a request, named by the
// time it started: "NAME.runs/2026-12-02 11.26.08.summary.json". The copy
// is a hard link to the file written at the usual name (no second copy on
// disk until the next run replaces it), or a copy where links cannot be
// made. Errors files are not kept: only the latest one says what is left
// to fix.

// runsSuffix names the folder beside a file's reports that keeps the
// reports of each run that sent something.
const runsSuffix = ".runs"

// runStampLayout names a run's reports in NAME.runs/ by the local time it
// started: sortable, and valid in a file name on every system.
const runStampLayout = "2006-01-02 15.04.05"

// keepsRun reports whether the reports of a run get a copy of their own:
// those of a run that sent at least one request.
func keepsRun(o ReportOptions, sent int) bool { return o.Command == "run" && sent > 0 }

// runStamp chooses the name of this run's reports in NAME.runs/ (base is
// NAME's path): the time the run started, with "_2", "_3"... when a
// run that started in the same second already has it. It returns the
// prefix of their paths.
func runStamp(base string, started time.Time, suffixes []string) string {
	dir := base + runsSuffix
	stamp := started.Local().Format(runStampLayout)
	for n := 1; ; n++ {
		name := stamp
		if n > 1 {
			name += "_" + strconv.Itoa(n) // sorts after the first: "_" > "."
		}
		prefix := filepath.Join(dir, name)
		taken := false
		for _, s := range suffixes {
			if _, err := os.Lstat(prefix + s); err == nil {
				taken = true
				break
			}
		}
		if !taken {
			return prefix
		}
	}
}

// keepRun gives each report at paths (each base followed by its suffix) a
// second name prefix+suffix, in the private folder NAME.runs/.
func keepRun(base, prefix string, paths []string) error {
	dir := filepath.Dir(prefix)
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("keep this run's reports in %s: %w", dir, atomicfile.ErrSymlink)
	}
	if err := atomicfile.MkdirAll(dir, atomicfile.PrivateDir); err != nil {
		return fmt.Errorf("keep this run's reports: %w", err)
	}
	for _, p := range paths {
		dst := prefix + strings.TrimPrefix(p, base)
		if err := os.Link(p, dst); err == nil {
			continue
		} else if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("keep this run's report %s: %w", dst, err)
		}
		// No hard links here (some shared folders): a copy.
		if err := copyFile(p, dst); err != nil {
			return fmt.Errorf("keep this run's report %s: %w", dst, err)
		}
	}
	return nil
}

// copyFile copies src to dst, atomically and owner-only.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.Write(dst, atomicfile.Private, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
