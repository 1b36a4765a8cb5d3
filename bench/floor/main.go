// Command floor is the least work a tool that reads a spreadsheet and writes
// a report can do, the baseline of the validate benchmark: for a CSV it reads
// every record with encoding/csv and writes it back out; for an XLSX it reads
// every row with excelize's row iterator (raw values) and writes nothing.
//
//	floor in.csv out.csv
//	floor in.xlsx
package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/xuri/excelize/v2"
)

func main() {
	var err error
	if filepath.Ext(os.Args[1]) == ".xlsx" {
		err = readXLSX(os.Args[1])
	} else {
		err = copyCSV(os.Args[1], os.Args[2])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func copyCSV(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(o, 1<<20)
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	w := csv.NewWriter(bw)
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	if err := bw.Flush(); err != nil {
		return err
	}
	return o.Close()
}

func readXLSX(in string) error {
	f, err := excelize.OpenFile(in)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := f.Rows(f.GetSheetName(0))
	if err != nil {
		return err
	}
	n := 0
	for rows.Next() {
		if _, err := rows.Columns(excelize.Options{RawCellValue: true}); err != nil {
			return err
		}
		n++
	}
	fmt.Fprintln(os.Stderr, "rows:", n)
	return rows.Close()
}
