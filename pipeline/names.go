package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/nxbatch/nxbatch/msg"
)

// Reports are named after their input: NAME.result.csv, NAME.errors.csv,
// NAME.result.xlsx, NAME.summary.json, and NAME.SHEET.* per sheet of a
// workbook. Names never collide, and are predictable:
//
//   - an input whose folder holds another input file of the same NAME
//     (ventas.csv beside ventas.xlsx) is named with its extension:
//     ventas.csv.result.csv;
//   - two inputs of one run that still share a name (a/ventas.csv and
//     b/ventas.csv with one --report-dir) add their folder: "ventas (a)",
//     "ventas (b)"; a number when the folders are called the same too;
//   - sheets whose names become the same once made safe for a file name
//     ("Ventas <100", "Ventas >100") add their position: "Ventas _100 (2)";
//   - the errors file of an errors file fed back (ventas.errors.csv) is
//     ventas.errors-2.csv, then ventas.errors-3.csv: suffixes never stack.

// ReportName is where one input's reports go.
type ReportName struct {
	// Base is the reports' path without their suffixes (".result.csv"...).
	Base string
	// Because says why Base is not the plain NAME; empty when it is.
	Because msg.Message
	// refed and round name the errors file of an errors file fed back:
	// refed is NAME of NAME.errors(-N), round is N+1 (0 for other inputs).
	refed string
	round int
}

// Prefix is the path of the reports of one sheet ("" for CSV input)
// without their suffixes.
func (rn ReportName) Prefix(sheet string) string {
	if sheet == "" {
		return rn.Base
	}
	return rn.Base + "." + sheet
}

// ErrorsPath is the errors file of one sheet ("" for CSV input).
func (rn ReportName) ErrorsPath(sheet string) string {
	if rn.round == 0 {
		return rn.Prefix(sheet) + ".errors.csv"
	}
	p := rn.refed
	if sheet != "" {
		p += "." + sheet
	}
	return p + ".errors-" + strconv.Itoa(rn.round) + ".csv"
}

// inputExts are the extensions of the files nxbatch reads.
var inputExts = []string{".csv", ".txt", ".xlsx"}

// ReportNames chooses the report names of a run's inputs, written in dir
// (empty: beside each input).
func ReportNames(paths []string, dir string) map[string]ReportName {
	out := make(map[string]ReportName, len(paths))
	byBase := map[string][]string{}
	for _, p := range paths {
		folder := dir
		if folder == "" {
			folder = filepath.Dir(p)
		}
		name := filepath.Base(p)
		stem := strings.TrimSuffix(name, filepath.Ext(name))
		var because msg.Message
		if sibling := siblingOf(p); sibling != "" {
			stem, because = name, msg.New("rep.name.sibling", sibling)
		}
		base := filepath.Join(folder, stem)
		out[p] = ReportName{Base: base, Because: because}
		byBase[base] = append(byBase[base], p)
	}
	for base, ps := range byBase {
		if len(ps) < 2 {
			continue
		}
		used := map[string]bool{}
		for i, p := range ps {
			parent := filepath.Base(filepath.Dir(p))
			cand := base + " (" + parent + ")"
			if used[cand] || parent == "." || parent == string(filepath.Separator) {
				cand = base + " (" + strconv.Itoa(i+1) + ")"
			}
			used[cand] = true
			rn := out[p]
			rn.Base, rn.Because = cand, msg.New("rep.name.samename", len(ps))
			out[p] = rn
		}
	}
	for p, rn := range out {
		rn.refed, rn.round = errorsRound(rn.Base)
		out[p] = rn
	}
	return out
}

// siblingOf names another input file beside p with the same name and
// another extension, "" when there is none.
func siblingOf(p string) string {
	ext := strings.ToLower(filepath.Ext(p))
	stem := strings.TrimSuffix(p, filepath.Ext(p))
	for _, other := range inputExts {
		if other == ext {
			continue
		}
		for _, cand := range []string{stem + other, stem + strings.ToUpper(other)} {
			if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() {
				return filepath.Base(cand)
			}
		}
	}
	return ""
}

// refed matches the stem of an errors file: NAME.errors or NAME.errors-N.
var refed = regexp.MustCompile(`^(.*)\.errors(?:-(\d+))?$`)

// errorsRound says, for reports at base, whether their input is an errors
// file fed back: the path of NAME and the round of its next errors file
// (0 when it is not one).
func errorsRound(base string) (string, int) {
	dir, stem := filepath.Split(base)
	m := refed.FindStringSubmatch(stem)
	if m == nil {
		return "", 0
	}
	round := 2
	if m[2] != "" {
		n, _ := strconv.Atoi(m[2])
		round = n + 1
	}
	return filepath.Join(dir, m[1]), round
}

// sheetNames makes the file names of a workbook's sheets unique once made
// safe: the second sheet that would be "Ventas _100" is "Ventas _100 (2)".
func sheetNames(names []string) []string {
	out := make([]string, len(names))
	seen := map[string]int{}
	for i, n := range names {
		s := sheetFileName(n)
		key := strings.ToLower(s)
		seen[key]++
		if seen[key] > 1 {
			s += " (" + strconv.Itoa(seen[key]) + ")"
		}
		out[i] = s
	}
	return out
}
