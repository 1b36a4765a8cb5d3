package readers

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// FuzzCSV feeds arbitrary bytes to the CSV reader: it must never panic, and
// every failure must be a *msg.Error that says where it is; a failure inside a
// record names its row.
func FuzzCSV(f *testing.F) {
	seeds := []string{
		"",
		"\n\n",
		"a;b\n1;2\n",
		"a,b\r\n1,2\r\n",
		"a\tb\n1\t2\t3\n",
		"\xEF\xBB\xBFa;b\n1;\xC3\xA9\n",
		"\xFF\xFEa\x00;\x00b\x00\n\x001\x00;\x002\x00",
		"\xFE\xFF\x00a\x00;\x00b",
		"\xFF\xFE\x00",
		"a;b\n1;Jos\xe9\n",
		"a;b\n\"x\ny\";2\n3;\"z",
		"a;b\n1;2\"3\n",
		"a;b\n\"1\"x;2\n",
		"\"\n",
		"result.status;a\nok;1\n",
		";;;\n;;\n",
		"a;b\n1;2;3;4\n",
		"a\x00b\n",
		"PK\x03\x04\x00",
		"a;\"b\r\n\r\n\"\r\n1;2",
		"\r\r\r",
		"\"\"\"\n\"",
		"sep=,\na,b\n1,2\"",
		"a;b\r1;\"2\r3\"\r",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.csv")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := Open(path, Options{MaxCellBytes: 256})
		if err != nil {
			mustBeFileError(t, err, path)
			return
		}
		defer file.Close()
		s, err := file.Sheet("")
		if err != nil {
			mustBeFileError(t, err, path)
			return
		}
		defer s.Close()
		info := s.Info()
		if info.HeaderRow < 1 {
			t.Fatalf("header row %d", info.HeaderRow)
		}
		last := info.HeaderRow
		for {
			rec, err := s.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var re *msg.Error
				if !errors.As(err, &re) {
					t.Fatalf("error %v is %T, want *msg.Error", err, err)
				}
				if re.Pos.File != path || (re.Pos.Row == 0 && re.Msg.Key != "rd.io") {
					t.Fatalf("error without a row: %+v", re)
				}
				return
			}
			if rec.Row <= last {
				t.Fatalf("row %d after row %d", rec.Row, last)
			}
			last = rec.Row
			if len(rec.Cells) != len(info.Header) {
				t.Fatalf("%d cells for %d header columns", len(rec.Cells), len(info.Header))
			}
			if rec.Problem != nil && (rec.Problem.Pos.Row != rec.Row || rec.Problem.Pos.File != path) {
				t.Fatalf("problem at %+v for row %d", rec.Problem.Pos, rec.Row)
			}
		}
	})
}

func mustBeFileError(t *testing.T, err error, path string) {
	t.Helper()
	var re *msg.Error
	if !errors.As(err, &re) {
		t.Fatalf("error %v is %T, want *msg.Error", err, err)
	}
	if re.Pos.File != path {
		t.Fatalf("error names %q, want %q", re.Pos.File, path)
	}
}

// FuzzXLSXSheet feeds arbitrary sheet XML to the XLSX reader, in a workbook
// built around it with a few shared strings and a date format: it must never
// panic, fail only with a *msg.Error naming the file and sheet, and return
// records that keep the Record contract.
func FuzzXLSXSheet(f *testing.F) {
	seeds := []string{
		sheetXML(hdr("a", "b") + `<row r="2">` + num("A2", "1") + ss("B2", 1) + `</row>`),
		sheetXML(`<row><c t="s"><v>0</v></c><c t="inlineStr"><is><r><t>x</t></r><rPh><t>y</t></rPh></is></c></row><row><c s="1"><v>45292</v></c><c t="d"><v>2024-01-01</v></c><c t="b"><v>1</v></c></row>`),
		sheetXML(`<row r="3"><c r="XFD3"><v>1</v></c></row><row r="1"><c r="B1" t="e"><v>#N/A</v></c></row>`),
		`<x:worksheet xmlns:x="s"><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:t xml:space="preserve"> &amp;&#x41;<![CDATA[<]]>_x000D_</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`,
		`<worksheet><sheetData><row r="1"><c r="A1"><f>SUM(A2:A3)</f><v>3</v></c><!-- c --><?p?></row></sheetData></worksheet>`,
		`<worksheet><sheetData><row r="1048577"/>`,
		`<!DOCTYPE x><worksheet/>`,
		`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>99</v></c></row></sheetData></worksheet>`,
		"<worksheet><sheetData><row><c t=\"inlineStr\"><is><t>a\r\nb</t></is></c></row></sheetData>",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, sheet []byte) {
		bk := book{
			sst:    sstXML("<t>ordenId</t>", "<t>x</t>", "<r><t>a</t></r><r><t>b</t></r>"),
			styles: stylesXML(map[int]string{164: "dd/mm/yyyy"}, 0, 164),
			sheets: []bookPart{{name: "S", xml: string(sheet)}, {name: "S", xml: string(sheet)}},
			stored: true,
		}
		checkXLSX(t, filepath.Join(dir, "fuzz.xlsx"), bk)
	})
}

// FuzzXLSXSharedStrings feeds arbitrary sharedStrings.xml to the reader,
// with a sheet whose cells use the first entries.
func FuzzXLSXSharedStrings(f *testing.F) {
	seeds := []string{
		sstXML("<t>a</t>", "<t>b</t>"),
		sstXML(`<r><rPr><b/></rPr><t xml:space="preserve">a </t></r><r><t>b</t></r><rPh sb="0" eb="1"><t>c</t></rPh>`, "<t/>", "<t>_x005F_x000D__xD83D__xDE00_</t>"),
		`<sst><si><t>&lt;&#233;<![CDATA[]]]]></t></si><si></si><si/></sst>`,
		`<sst><si><t>never closed`,
		`<?xml version="1.0"?><!DOCTYPE sst><sst/>`,
		`<x:sst xmlns:x="s"><x:si><x:t>p</x:t></x:si></x:sst>`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, sst []byte) {
		bk := book{
			sst: string(sst),
			sheets: []bookPart{{name: "S", xml: sheetXML(`<row r="1">` + ss("A1", 0) + ss("B1", 1) + `</row>` +
				`<row r="2">` + ss("A2", 2) + ss("B2", 3) + ss("C2", 0) + `</row>`)}},
			stored: true,
		}
		checkXLSX(t, filepath.Join(dir, "fuzz.xlsx"), bk)
	})
}

// checkXLSX writes bk to path and reads every sheet, checking the
// contract: no panic, only *msg.Error failures naming the file (and the sheet
// once one is read), records aligned to the header with consistent kinds.
func checkXLSX(t *testing.T, path string, bk book) {
	if err := os.WriteFile(path, bk.bytes(t), 0o600); err != nil {
		t.Fatal(err)
	}
	// The probe makes rows before the header be read ahead and replayed.
	probe := func(c []string) bool { return slices.Contains(c, "ordenId") }
	file, err := Open(path, Options{MaxCellBytes: 256, IsHeader: probe})
	if err != nil {
		mustBeFileError(t, err, path)
		return
	}
	defer file.Close()
	names := file.Sheets()
	if len(names) != len(bk.sheets) || (len(names) == 2 && names[0] == names[1]) {
		t.Fatalf("sheets %q", names)
	}
	for _, name := range names {
		s, err := file.Sheet(name)
		if err != nil {
			mustBeFileError(t, err, path)
			continue
		}
		info := s.Info()
		if info.HeaderRow < 1 || info.Name != name {
			t.Fatalf("info %+v", info)
		}
		for {
			rec, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var re *msg.Error
				if !errors.As(err, &re) || re.Pos.File != path || re.Pos.Sheet != name {
					t.Fatalf("error %v (%T) does not name %s, sheet %s", err, err, path, name)
				}
				break
			}
			if len(rec.Cells) != len(info.Header) || (rec.Kinds != nil && len(rec.Kinds) != len(rec.Cells)) {
				t.Fatalf("row %d: %d cells, %d kinds, %d columns", rec.Row, len(rec.Cells), len(rec.Kinds), len(info.Header))
			}
			typed := false
			for i, k := range rec.Kinds {
				if (k == cell.Empty) != (rec.Cells[i] == "") {
					t.Fatalf("row %d: kind %v for %q", rec.Row, k, rec.Cells[i])
				}
				typed = typed || k.Typed()
			}
			if rec.Kinds != nil && !typed {
				t.Fatalf("row %d: kinds without a typed cell", rec.Row)
			}
			for _, c := range rec.Cells {
				if len(c) > 256 {
					t.Fatalf("row %d: cell of %d bytes", rec.Row, len(c))
				}
			}
			if rec.Row < 1 || rec.Row > MaxRows {
				t.Fatalf("row number %d", rec.Row)
			}
			if rec.Problem != nil && (rec.Problem.Pos.Row != rec.Row || rec.Problem.Pos.Sheet != name) {
				t.Fatalf("problem at %+v for row %d", rec.Problem.Pos, rec.Row)
			}
		}
		s.Close()
	}
}

// FuzzCRLFKeeper parses arbitrary CSV with and without the CR keeper in
// front of encoding/csv: the records must be the same, field for field,
// but for a CR LF the keeper kept where the parser alone gave LF, and both
// parses must fail (or not) at the same record. With empty lines left out
// (a lineMap), each record must still start on the same line of the file.
func FuzzCRLFKeeper(f *testing.F) {
	for _, s := range []string{
		"a;\"x\r\ny\"\r\n1;2\r\n", "\"\"\"\r\n\"", "a;b\r\n\"\r", "x;\"a\"\"\r\nb\";c", "a;x\"y\r\n\"q\r\n\"", "\r\n\"\r\n\"\r\n",
		"\n\n\r\na;b\n\n\n1;\"\n\n\"\r\n\r\n\r", "\r\r\n\n\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parse := func(r io.Reader, lines *lineMap) ([][]string, []int, error) {
			cr := csv.NewReader(r)
			cr.Comma = ';'
			cr.FieldsPerRecord = -1
			var out [][]string
			var starts []int
			for {
				rec, err := cr.Read()
				if err == io.EOF {
					return out, starts, nil
				}
				if err != nil {
					return out, starts, err
				}
				out = append(out, rec)
				line, _ := cr.FieldPos(0)
				if lines != nil {
					line = lines.file(line)
				}
				starts = append(starts, line)
			}
		}
		plain, plainStarts, errPlain := parse(bytes.NewReader(data), nil)
		for _, withLines := range []bool{false, true} {
			var lines *lineMap
			if withLines {
				lines = &lineMap{}
			}
			kept, keptStarts, errKept := parse(&crlfKeeper{r: iotest.HalfReader(bytes.NewReader(data)), delim: []byte(";"), lines: lines}, lines)
			if (errPlain == nil) != (errKept == nil) || len(plain) != len(kept) {
				t.Fatalf("lines %v: plain %d records (%v), kept %d (%v)", withLines, len(plain), errPlain, len(kept), errKept)
			}
			for i := range plain {
				if len(plain[i]) != len(kept[i]) {
					t.Fatalf("lines %v: record %d: %q vs %q", withLines, i, plain[i], kept[i])
				}
				if plainStarts[i] != keptStarts[i] {
					t.Fatalf("lines %v: record %d starts on line %d, kept on %d", withLines, i, plainStarts[i], keptStarts[i])
				}
				for j := range plain[i] {
					if strings.ReplaceAll(kept[i][j], "\r\n", "\n") != plain[i][j] {
						t.Fatalf("lines %v: record %d field %d: kept %q, plain %q", withLines, i, j, kept[i][j], plain[i][j])
					}
				}
			}
		}
	})
}
