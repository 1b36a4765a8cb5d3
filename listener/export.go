package listener

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/internal/atomicfile"

	"github.com/xuri/excelize/v2"

	"github.com/nxbatch/nxbatch/msg"
)

// ExportColumns are the snapshot export's columns, in order.
var ExportColumns = []string{"articuloId", "codigo", "colorId", "talleId", "depositoId", "unidades", "eliminado", "actualizado"}

// maxSheetRows is an XLSX sheet's row limit, header included.
const maxSheetRows = 1 << 20

// Export writes rows to path, as CSV or XLSX by its extension, atomically
// and owner-only (the stock is business data): a replaced file becomes
// 0600 too, and a symbolic link at path is refused, never written through.
func Export(path string, rows []Row) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".txt":
		return writePrivate(path, func(w io.Writer) error { return writeCSV(w, rows) })
	case ".xlsx":
		return writePrivate(path, func(w io.Writer) error { return writeXLSX(w, rows) })
	}
	return &msg.Error{Msg: msg.New("lst.export.ext", path)}
}

// timeText formats the rows' times, remembering the last one: the rows of
// one event share their time, and formatting it again for each of 90,000
// rows was a good part of an export's cost.
type timeText struct {
	t time.Time
	s string
}

func (tt *timeText) format(t time.Time) string {
	if !t.Equal(tt.t) || tt.s == "" {
		tt.t, tt.s = t, t.Local().Format(time.RFC3339)
	}
	return tt.s
}

// cells renders a row as text: ids blank when absent, units as exact
// decimals with a dot, the time in RFC 3339 with its zone.
func cells(r Row, tt *timeText) []string {
	id := func(n int64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatInt(n, 10)
	}
	u := ""
	if r.HasUnidades {
		u = r.Unidades.String()
	}
	return []string{strconv.FormatInt(r.ArticuloID, 10), cell.Neutralize(r.Codigo), id(r.ColorID), id(r.TalleID),
		id(r.DepositoID), u, strconv.FormatBool(r.Eliminado), tt.format(r.Actualizado)}
}

// writeCSV writes UTF-8 with a BOM and ';', what Excel in Argentine locale
// opens in columns, like nxbatch's reports.
func writeCSV(w io.Writer, rows []Row) error {
	if _, err := io.WriteString(w, "\uFEFF"); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = ';'
	cw.UseCRLF = true
	if err := cw.Write(ExportColumns); err != nil {
		return err
	}
	var tt timeText
	for _, r := range rows {
		if err := cw.Write(cells(r, &tt)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeXLSX streams the rows, numbers as numbers, continuing on a new sheet
// past a sheet's row limit.
func writeXLSX(w io.Writer, rows []Row) error {
	tmp, _ := atomicfile.TempDir() // "" (the system's) only if it cannot be made
	f := excelize.NewFile(excelize.Options{TmpDir: tmp})
	defer f.Close()
	sheet, n := "stock", 1
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	var sw *excelize.StreamWriter
	var row int
	open := func() error {
		if n > 1 {
			sheet = fmt.Sprintf("stock %d", n)
			if _, err := f.NewSheet(sheet); err != nil {
				return err
			}
		}
		var err error
		if sw, err = f.NewStreamWriter(sheet); err != nil {
			return err
		}
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
			return err
		}
		head := make([]any, len(ExportColumns))
		for i, c := range ExportColumns {
			head[i] = c
		}
		row = 1
		return sw.SetRow("A1", head)
	}
	if err := open(); err != nil {
		return err
	}
	var tt timeText
	for _, r := range rows {
		if row == maxSheetRows {
			if err := sw.Flush(); err != nil {
				return err
			}
			n++
			if err := open(); err != nil {
				return err
			}
		}
		row++
		c := cells(r, &tt)
		vals := make([]any, len(c))
		for i, s := range c {
			vals[i] = s
		}
		vals[0] = r.ArticuloID
		for i, v := range []int64{r.ColorID, r.TalleID, r.DepositoID} {
			if v != 0 {
				vals[2+i] = v
			}
		}
		if r.HasUnidades {
			if fl, err := strconv.ParseFloat(r.Unidades.String(), 64); err == nil {
				vals[5] = fl
			}
		}
		vals[6] = r.Eliminado
		cell, _ := excelize.CoordinatesToCellName(1, row)
		if err := sw.SetRow(cell, vals); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	return f.Write(w)
}
