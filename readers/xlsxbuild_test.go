package readers

import (
	"archive/zip"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// book is a workbook written part by part, so that tests control every byte
// of its XML (excelize would write only what it writes).
type book struct {
	sheets   []bookPart
	sst      string // sharedStrings.xml content; "" for none
	styles   string // styles.xml content; "" for none
	date1904 bool
	// workbook replaces the generated workbook.xml when set.
	workbook string
	// extra parts, by name.
	extra map[string]string
	// stored writes the parts uncompressed (fast, for fuzzing).
	stored bool
}

// bookPart is one sheet: its name, state and sheet XML.
type bookPart struct {
	name, state, xml string
}

// sheetXML wraps rows in a worksheet with <sheetData>.
func sheetXML(rows string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
		`<dimension ref="A1"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
		`<sheetData>` + rows + `</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`
}

// sstXML is a sharedStrings.xml of the given <si> bodies.
func sstXML(items ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(items), len(items))
	for _, it := range items {
		b.WriteString("<si>" + it + "</si>")
	}
	b.WriteString("</sst>")
	return b.String()
}

// stylesXML is a styles.xml whose cellXfs use the given numFmtIds, with
// custom formats id → code. A cellStyleXfs entry with a date format checks
// that only cellXfs count.
func stylesXML(custom map[int]string, xfs ...int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" + `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	if len(custom) > 0 {
		fmt.Fprintf(&b, `<numFmts count="%d">`, len(custom))
		for id, code := range custom {
			fmt.Fprintf(&b, `<numFmt numFmtId="%d" formatCode="%s"/>`, id, code)
		}
		b.WriteString(`</numFmts>`)
	}
	b.WriteString(`<fonts count="1"><font><sz val="11"/></font></fonts>`)
	b.WriteString(`<cellStyleXfs count="1"><xf numFmtId="14" fontId="0"/></cellStyleXfs>`)
	fmt.Fprintf(&b, `<cellXfs count="%d">`, len(xfs))
	for _, id := range xfs {
		fmt.Fprintf(&b, `<xf numFmtId="%d" fontId="0" applyNumberFormat="1"><alignment horizontal="left"/></xf>`, id)
	}
	b.WriteString(`</cellXfs></styleSheet>`)
	return b.String()
}

// parts returns every part of the workbook, by name.
func (bk book) parts() map[string]string {
	p := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
	}
	var wb, rels strings.Builder
	wb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`)
	if bk.date1904 {
		wb.WriteString(`<workbookPr date1904="1"/>`)
	} else {
		wb.WriteString(`<workbookPr/>`)
	}
	wb.WriteString(`<sheets>`)
	rels.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i, s := range bk.sheets {
		state := ""
		if s.state != "" {
			state = ` state="` + s.state + `"`
		}
		fmt.Fprintf(&wb, `<sheet name="%s" sheetId="%d"%s r:id="rId%d"/>`, s.name, i+1, state, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>`, i+1, i+1)
		p[fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)] = s.xml
	}
	wb.WriteString(`</sheets></workbook>`)
	if bk.sst != "" {
		rels.WriteString(`<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`)
		p["xl/sharedStrings.xml"] = bk.sst
	}
	if bk.styles != "" {
		rels.WriteString(`<Relationship Id="rIdT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="/xl/styles.xml"/>`)
		p["xl/styles.xml"] = bk.styles
	}
	rels.WriteString(`</Relationships>`)
	p["xl/workbook.xml"] = wb.String()
	if bk.workbook != "" {
		p["xl/workbook.xml"] = bk.workbook
	}
	p["xl/_rels/workbook.xml.rels"] = rels.String()
	for name, content := range bk.extra {
		p[name] = content
	}
	return p
}

// bytes zips the workbook (deflated unless stored, in a stable order).
func (bk book) bytes(t testing.TB) []byte {
	t.Helper()
	parts := bk.parts()
	names := make([]string, 0, len(parts))
	for n := range parts {
		names = append(names, n)
	}
	slices.Sort(names) // a stable order: "[Content_Types].xml" first, as Excel writes it
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	method := zip.Deflate
	if bk.stored {
		method = zip.Store
	}
	for _, n := range names {
		fw, err := w.CreateHeader(&zip.FileHeader{Name: n, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write([]byte(parts[n])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// write saves the workbook as name in a fresh temporary folder.
func (bk book) write(t testing.TB, name string) string {
	t.Helper()
	return writeFile(t, name, bk.bytes(t))
}

// oneSheet is a workbook with one sheet "S" of the given rows.
func oneSheet(rows string) book {
	return book{sheets: []bookPart{{name: "S", xml: sheetXML(rows)}}}
}
