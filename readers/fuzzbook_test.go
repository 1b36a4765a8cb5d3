package readers

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/nxbatch/nxbatch/msg"
)

// readEverything opens path and reads every sheet to its end: no panic,
// every failure a *msg.Error naming the file (and the sheet once one is
// read), every row number in range.
func readEverything(t *testing.T, path string) {
	t.Helper()
	file, err := Open(path, Options{MaxCellBytes: 256})
	if err != nil {
		mustBeFileError(t, err, path)
		return
	}
	defer file.Close()
	for _, name := range file.Sheets() {
		s, err := file.Sheet(name)
		if err != nil {
			mustBeFileError(t, err, path)
			continue
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
			if rec.Row < 1 || rec.Row > MaxRows || len(rec.Cells) != len(s.Info().Header) {
				t.Fatalf("row %d: %d cells for %d columns", rec.Row, len(rec.Cells), len(s.Info().Header))
			}
		}
		s.Close()
	}
}

// FuzzXLSXWorkbook feeds arbitrary workbook.xml and its relationships to
// the reader: the sheet list, names, hidden state, date system and where
// each sheet's part is.
func FuzzXLSXWorkbook(f *testing.F) {
	base := book{sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a"))}}}
	p := base.parts()
	f.Add([]byte(p["xl/workbook.xml"]), []byte(p["xl/_rels/workbook.xml.rels"]))
	f.Add([]byte(`<workbook><workbookPr date1904="true"/><sheets><sheet name="A &amp; B" state="veryHidden" r:id="rId1"/><sheet name="A &amp; B" r:id="rId9"/></sheets></workbook>`),
		[]byte(`<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId9" Type="x/worksheet" Target="../../etc/passwd"/></Relationships>`))
	f.Add([]byte(`<workbook><sheets><sheet name="&#0;" r:id="rId1"/></sheets>`), []byte(`<Relationships><Relationship Id="rId1" Target="worksheets/sheet%31.xml" TargetMode="External"/>`))
	f.Add([]byte(`<!DOCTYPE w><workbook/>`), []byte(``))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, wb, rels []byte) {
		bk := base
		bk.stored = true
		bk.workbook = string(wb)
		bk.extra = map[string]string{"xl/_rels/workbook.xml.rels": string(rels)}
		path := filepath.Join(dir, "fuzz.xlsx")
		if err := os.WriteFile(path, bk.bytes(t), 0o600); err != nil {
			t.Fatal(err)
		}
		readEverything(t, path)
	})
}

// FuzzXLSXPackageRels feeds arbitrary package relationships (_rels/.rels),
// which name the workbook part.
func FuzzXLSXPackageRels(f *testing.F) {
	base := book{sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a"))}}}
	f.Add([]byte(base.parts()["_rels/.rels"]))
	f.Add([]byte(`<Relationships><Relationship Id="a" Type="x/officeDocument" Target="/xl/../xl/workbook.xml"/><Relationship Id="a" Type="x/officeDocument" Target=""/></Relationships>`))
	f.Add([]byte(`<Relationships><Relationship Target="&#x;"`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, rels []byte) {
		bk := base
		bk.stored = true
		bk.extra = map[string]string{"_rels/.rels": string(rels)}
		path := filepath.Join(dir, "fuzz.xlsx")
		if err := os.WriteFile(path, bk.bytes(t), 0o600); err != nil {
			t.Fatal(err)
		}
		readEverything(t, path)
	})
}

// FuzzXLSXStyles feeds arbitrary styles.xml to the reader, with a sheet
// whose cells use the first styles: which formats show dates.
func FuzzXLSXStyles(f *testing.F) {
	f.Add([]byte(stylesXML(map[int]string{164: "dd/mm/yyyy", 165: `[Red]0.00;"d"`}, 0, 164, 165, 14)))
	f.Add([]byte(`<styleSheet><numFmts><numFmt numFmtId="-1" formatCode="yyyy"/><numFmt numFmtId="99999999999" formatCode=""/></numFmts><cellXfs><xf numFmtId="abc"/><xf/></cellXfs></styleSheet>`))
	f.Add([]byte(`<styleSheet><cellXfs count="4294967296">`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, styles []byte) {
		bk := book{
			styles: string(styles),
			sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a", "b") + `<row r="2"><c r="A2" s="1"><v>45292</v></c><c r="B2" s="3"><v>1.5</v></c></row>`)}},
			stored: true,
		}
		path := filepath.Join(dir, "fuzz.xlsx")
		if err := os.WriteFile(path, bk.bytes(t), 0o600); err != nil {
			t.Fatal(err)
		}
		readEverything(t, path)
	})
}

// FuzzXLSXZip feeds arbitrary bytes as an .xlsx file: the zip container
// (directory, entry count, local headers, compression) is refused with an
// *msg.Error naming the file, never a panic.
func FuzzXLSXZip(f *testing.F) {
	good := book{sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a") + `<row r="2"><c r="A2"><v>1</v></c></row>`)}}}
	f.Add(good.bytes(f))
	stored := good
	stored.stored = true
	b := stored.bytes(f)
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte("PK\x05\x06" + string(make([]byte, 18))))
	f.Add([]byte("PK\x03\x04"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.xlsx")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		readEverything(t, path)
	})
}
