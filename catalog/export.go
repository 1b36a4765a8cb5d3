package catalog

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/internal/atomicfile"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
)

// isFolder reports whether path names a folder: an existing directory, or
// a path ending in a separator.
func isFolder(path string) bool {
	st, err := os.Stat(path)
	return (err == nil && st.IsDir()) || strings.HasSuffix(path, string(filepath.Separator)) || strings.HasSuffix(path, "/")
}

// IsFolder reports whether Export takes path as a folder (the API's JSON
// answers) rather than a file.
func IsFolder(path string) bool { return isFolder(path) }

// Exportable reports whether Export can write path: an .xlsx or .csv file,
// or a folder.
func Exportable(path string) bool {
	if isFolder(path) {
		return true
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx", ".csv":
		return true
	}
	return false
}

// Export writes tables to path: an .xlsx workbook with one sheet per
// catalog, or one .csv in long form (catalog, then the table's own
// columns), ;-separated UTF-8 with a BOM and CRLF, so that Excel in Spanish
// splits the columns and shows accents right. A folder
// (an existing directory, or a path ending in a separator) gets the API's
// own JSON answers, which `validate --catalog` reads.
func Export(path string, s *Snapshot, tables []Table, l msg.Lang) error {
	if isFolder(path) {
		return ExportDir(path, s)
	}
	if !slices.ContainsFunc(tables, Table.Known) {
		// Empty sheets would read as a company with no accounts at all.
		return &msg.Error{Msg: msg.New("catc.export.nothing")}
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xlsx":
		return exportXLSX(path, tables, l)
	case ".csv":
		return exportCSV(path, tables, l)
	}
	return &msg.Error{Msg: msg.New("catc.export.ext", path)}
}

func exportCSV(path string, tables []Table, l msg.Lang) error {
	return atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		if _, err := io.WriteString(w, "\uFEFF"); err != nil {
			return err
		}
		cw := csv.NewWriter(w)
		// What Excel in Spanish (Argentina) opens by double-click, like the
		// reports: ';' (the list separator beside a decimal comma), CRLF.
		cw.Comma, cw.UseCRLF = ';', true
		width := 0
		for _, t := range tables {
			width = max(width, len(t.Header))
		}
		for _, t := range tables {
			if len(t.Rows) == 0 {
				continue
			}
			head := []string{col("catalogo").In(l)}
			for _, h := range t.Header {
				head = append(head, h.In(l))
			}
			if err := cw.Write(pad(head, width+1)); err != nil {
				return err
			}
			for _, r := range t.Rows {
				rec := []string{t.Key}
				for _, c := range r {
					rec = append(rec, cell.Neutralize(c))
				}
				if err := cw.Write(pad(rec, width+1)); err != nil {
					return err
				}
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

func pad(rec []string, n int) []string {
	for len(rec) < n {
		rec = append(rec, "")
	}
	return rec
}

func exportXLSX(path string, tables []Table, l msg.Lang) error {
	tmp, _ := atomicfile.TempDir() // "" (the system's) only if it cannot be made
	f := excelize.NewFile(excelize.Options{TmpDir: tmp})
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return fmt.Errorf("export catalogs: %w", err)
	}
	first := true
	for _, t := range tables {
		name := t.Key
		if first {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return fmt.Errorf("export catalogs: %w", err)
			}
			first = false
		} else if _, err := f.NewSheet(name); err != nil {
			return fmt.Errorf("export catalogs: %w", err)
		}
		if err := writeSheet(f, name, t, bold, l); err != nil {
			return fmt.Errorf("export catalog %s: %w", t.Key, err)
		}
	}
	return atomicfile.Write(path, atomicfile.Private, func(w io.Writer) error {
		_, err := f.WriteTo(w)
		return err
	})
}

func writeSheet(f *excelize.File, sheet string, t Table, bold int, l msg.Lang) error {
	head := make([]any, len(t.Header))
	for i, h := range t.Header {
		head[i] = h.In(l)
	}
	if err := f.SetSheetRow(sheet, "A1", &head); err != nil {
		return err
	}
	last, _ := excelize.ColumnNumberToName(max(1, len(t.Header)))
	if err := f.SetCellStyle(sheet, "A1", last+"1", bold); err != nil {
		return err
	}
	for i, r := range t.Rows {
		row := make([]any, len(r))
		for j, c := range r {
			row[j] = cell.Neutralize(c)
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := f.SetSheetRow(sheet, cell, &row); err != nil {
			return err
		}
	}
	if t.Note.Key != "" {
		if err := f.SetCellStr(sheet, "A2", t.Note.In(l)); err != nil {
			return err
		}
	}
	if err := f.SetColWidth(sheet, "A", last, 18); err != nil {
		return err
	}
	return f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"})
}

// ExportDir writes the cached /medios-pago and /motivos answers as
// medios-pago.json and motivos.json in dir, the folder `validate --catalog`
// reads (LoadDir), so files can be checked later without the network.
func ExportDir(dir string, s *Snapshot) error {
	if s.MediosPago == nil && s.Motivos == nil {
		return &msg.Error{Msg: msg.New("catc.export.nothing")}
	}
	// The catalogs name bank accounts: their folder is owner-only, as
	// every other folder nxbatch creates.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	write := func(name string, v any) error {
		return atomicfile.Write(filepath.Join(dir, name), atomicfile.Private, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		})
	}
	if s.MediosPago != nil {
		if err := write(MediosPagoFile, s.MediosPago); err != nil {
			return err
		}
	}
	if s.Motivos != nil {
		if err := write(MotivosFile, s.Motivos); err != nil {
			return err
		}
	}
	return nil
}
