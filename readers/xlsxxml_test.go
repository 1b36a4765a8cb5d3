package readers

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nxbatch/nxbatch/cell"
	"github.com/nxbatch/nxbatch/msg"
)

// krow is a record as the XML tests compare it: Kinds as one letter a cell
// (T text, N number, D date, B bool, E empty), "" when Kinds is nil.
type krow struct {
	Row     int
	Cells   []string
	Kinds   string
	Prior   Prior
	Problem string
}

func kindLetters(ks []cell.Kind) string {
	if ks == nil {
		return ""
	}
	var b strings.Builder
	for _, k := range ks {
		b.WriteByte("TNDBE"[k])
	}
	return b.String()
}

// readTyped reads every record of a sheet with kinds and priors.
func readTyped(t testing.TB, path, sheet string, opts Options) (SheetInfo, []krow, error) {
	t.Helper()
	f, err := Open(path, opts)
	if err != nil {
		return SheetInfo{}, nil, err
	}
	defer f.Close()
	s, err := f.Sheet(sheet)
	if err != nil {
		return SheetInfo{}, nil, err
	}
	defer s.Close()
	var rows []krow
	for {
		rec, err := s.Next()
		if err == io.EOF {
			return s.Info(), rows, nil
		}
		if err != nil {
			return s.Info(), rows, err
		}
		if rec.Kinds != nil && len(rec.Kinds) != len(rec.Cells) {
			t.Fatalf("row %d: %d kinds for %d cells", rec.Row, len(rec.Kinds), len(rec.Cells))
		}
		for i, k := range rec.Kinds {
			if (k == cell.Empty) != (rec.Cells[i] == "") {
				t.Fatalf("row %d cell %d: kind %v for %q", rec.Row, i, k, rec.Cells[i])
			}
		}
		r := krow{Row: rec.Row, Cells: append([]string(nil), rec.Cells...), Kinds: kindLetters(rec.Kinds), Prior: rec.Prior}
		if rec.Problem != nil {
			r.Problem = rec.Problem.Msg.In(msg.ES)
		}
		rows = append(rows, r)
	}
}

// is is an inline string cell, num a number cell, ss a shared string cell.
func is(ref, text string) string {
	return `<c r="` + ref + `" t="inlineStr"><is><t>` + text + `</t></is></c>`
}
func num(ref, v string) string { return `<c r="` + ref + `"><v>` + v + `</v></c>` }
func ss(ref string, i int) string {
	return fmt.Sprintf(`<c r="%s" t="s"><v>%d</v></c>`, ref, i)
}

// hdr is a header row 1 of inline strings in columns A, B, C...
func hdr(names ...string) string {
	var b strings.Builder
	b.WriteString(`<row r="1">`)
	for i, n := range names {
		b.WriteString(is(columnLetter(i)+"1", n))
	}
	b.WriteString(`</row>`)
	return b.String()
}

func TestXLSXCells(t *testing.T) {
	dateStyles := stylesXML(map[int]string{164: "dd/mm/yyyy;@", 165: `#,##0.00 &quot;días&quot;`, 166: "[$-F800]dddd, mmmm dd, yyyy"},
		0, 14, 164, 165, 166, 49, 22)
	tests := []struct {
		name       string
		book       book
		wantHeader []string
		want       []krow
	}{
		{
			name: "numbers, dates by format, booleans, errors, formulas",
			book: book{styles: dateStyles, sheets: []bookPart{{name: "S", xml: sheetXML(hdr("a", "b", "c", "d", "e", "f", "g") +
				`<row r="2"><c r="A2"><v>4252.5</v></c><c r="B2" s="1"><v>46346</v></c><c r="C2" s="2"><v>46346.5</v></c>` +
				`<c r="D2" s="3"><v>12</v></c><c r="E2" s="4"><v>45292</v></c><c r="F2" s="5"><v>7</v></c><c r="G2" s="6"><v>45292.25</v></c></row>` +
				`<row r="3"><c r="A3" t="n"><v>-3</v></c><c r="B3" t="b"><v>1</v></c><c r="C3" t="b"><v>0</v></c>` +
				`<c r="D3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="E3" t="str"><f>A3&amp;"x"</f><v>-3x</v></c>` +
				`<c r="F3"><f>A2*2</f><v>8505</v></c><c r="G3"><v>1E-05</v></c></row>` +
				`<row r="4"><c r="A4" t="d"><v>2024-01-01T00:00:00Z</v></c><c r="B4" t="d"><v>2024-01-01T06:00:00</v></c>` +
				`<c r="C4" t="d"><v>not a date</v></c><c r="D4" t="b"><v>maybe</v></c><c r="E4"><v>12abc</v></c><c r="F4" t="zz"><v>q</v></c></row>`)}}},
			wantHeader: []string{"a", "b", "c", "d", "e", "f", "g"},
			want: []krow{
				{Row: 2, Cells: []string{"4252.5", "46346", "46346.5", "12", "45292", "7", "45292.25"}, Kinds: "NDDNDND"},
				{Row: 3, Cells: []string{"-3", "1", "0", "#DIV/0!", "-3x", "8505", "1E-05"}, Kinds: "NBBTTNN"},
				{Row: 4, Cells: []string{"45292", "45292.25", "not a date", "maybe", "12abc", "q", ""}, Kinds: "DDTTTTE"},
			},
		},
		{
			name: "shared strings: runs, phonetic runs, escapes, leading zeros, empty",
			book: book{
				sst: sstXML(`<t>ordenId</t>`, `<t>detalle</t>`, `<t>00012</t>`,
					`<r><rPr><b/><sz val="11"/></rPr><t xml:space="preserve">Hola </t></r><r><t>mundo</t></r>`,
					`<t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh><phoneticPr fontId="1"/>`,
					`<t>a_x000D__x000A_b _x005F_x000D_ c_x00e9_</t>`, `<t/>`, `<t>_xD83D__xDE00_ _xD800_</t>`),
				sheets: []bookPart{{name: "S", xml: sheetXML(`<row r="1">` + ss("A1", 0) + ss("B1", 1) + `</row>` +
					`<row r="2">` + ss("A2", 2) + ss("B2", 3) + `</row>` +
					`<row r="3">` + ss("A3", 4) + ss("B3", 5) + `</row>` +
					`<row r="4">` + ss("A4", 7) + ss("B4", 6) + `</row>`)}},
			},
			wantHeader: []string{"ordenId", "detalle"},
			want: []krow{
				{Row: 2, Cells: []string{"00012", "Hola mundo"}},
				{Row: 3, Cells: []string{"漢字", "a\r\nb _x000D_ cé"}},
				{Row: 4, Cells: []string{"😀 \uFFFD", ""}},
			},
		},
		{
			name: "inline strings: runs, xml:space, entities, CDATA, comments, line ends",
			book: oneSheet(hdr("a", "b", "c") +
				`<row r="2"><c r="A2" t="inlineStr"><is><r><rPr><i/></rPr><t>uno </t></r><r><t>dos</t></r><rPh><t>x</t></rPh></is></c>` +
				`<c r="B2" t="inlineStr"><is><t xml:space="preserve">  con espacios  </t></is></c>` +
				`<c r="C2" t="inlineStr"><is><t>  sin preserve </t></is></c></row>` +
				`<row r="3"><!-- a comment --><c r="A3" t="inlineStr"><is><t>&amp; &lt; &gt; &quot; &apos; &#65;&#x42;&#x1F600;</t></is></c>` +
				`<?pi something?><c r="B3" t="inlineStr"><is><t><![CDATA[<b>&amp;</b>]]> y más</t></is></c>` +
				"<c r=\"C3\" t=\"inlineStr\"><is><t>l1\r\nl2\rl3&#13;&#10;l4</t></is></c></row>"),
			wantHeader: []string{"a", "b", "c"},
			want: []krow{
				{Row: 2, Cells: []string{"uno dos", "  con espacios  ", "  sin preserve "}},
				{Row: 3, Cells: []string{"& < > \" ' AB😀", "<b>&amp;</b> y más", "l1\nl2\nl3\r\nl4"}},
			},
		},
		{
			name: "namespace prefixes everywhere",
			book: book{sheets: []bookPart{{name: "S", xml: `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
				`<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>id</x:t></x:is></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>n</x:t></x:is></x:c></x:row>` +
				`<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>7</x:t></x:is></x:c><x:c r="B2"><x:v>2.5</x:v></x:c></x:row>` +
				`</x:sheetData></x:worksheet>`}}},
			wantHeader: []string{"id", "n"},
			want:       []krow{{Row: 2, Cells: []string{"7", "2.5"}, Kinds: "TN"}},
		},
		{
			name: "self-closing tags, missing r attributes, gaps",
			book: oneSheet(`<row>` + `<c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c><c t="inlineStr"><is><t>c</t></is></c></row>` +
				`<row><c><v>1</v></c><c s="0"/><c><v>3</v></c></row>` +
				`<row r="5"/>` +
				`<row r="7"><c r="B7"><v/></c><c><v>9</v></c></row>` +
				`<row><c r="A8" t="inlineStr"><is/></c><c r="B8" t="s"><v></v></c></row>`),
			wantHeader: []string{"a", "b", "c"},
			want: []krow{
				{Row: 2, Cells: []string{"1", "", "3"}, Kinds: "NEN"},
				{Row: 7, Cells: []string{"", "", "9"}, Kinds: "EEN"},
			},
		},
		{
			name:       "rows out of order keep their own numbers, in file order",
			book:       oneSheet(hdr("a") + `<row r="5">` + num("A5", "5") + `</row><row r="3">` + num("A3", "3") + `</row><row>` + num("A4", "4") + `</row>`),
			wantHeader: []string{"a"},
			want: []krow{
				{Row: 5, Cells: []string{"5"}, Kinds: "N"},
				{Row: 3, Cells: []string{"3"}, Kinds: "N"},
				{Row: 4, Cells: []string{"4"}, Kinds: "N"},
			},
		},
		{
			name:       "cells out of order within a row, lower-case reference",
			book:       oneSheet(hdr("a", "b", "c") + `<row r="2">` + num("C2", "3") + num("a2", "1") + `</row>`),
			wantHeader: []string{"a", "b", "c"},
			want:       []krow{{Row: 2, Cells: []string{"1", "", "3"}, Kinds: "NEN"}},
		},
		{
			name: "a cell at XFD is quoted, not materialised",
			book: oneSheet(hdr("a", "b") + `<row r="2">` + num("A2", "1") + is("XFD2", "lejos") + `</row>` +
				`<row r="3">` + is("C3", "c") + is("D3", "d") + is("E3", strings.Repeat("é", 40)) + is("F3", "f") + is("G3", "  ") + `</row>`),
			wantHeader: []string{"a", "b"},
			want: []krow{
				{Row: 2, Cells: []string{"1", ""}, Kinds: "NE", Problem: "la fila tiene 16384 celdas, más que las columnas del encabezado (2; las de más dicen «lejos»): borre las celdas de más o agregue un título a esa columna en el encabezado"},
				{Row: 3, Cells: []string{"", ""}, Kinds: "", Problem: "la fila tiene 6 celdas, más que las columnas del encabezado (2; las de más dicen «c», «d», «" + strings.Repeat("é", 30) + "…» y 1 más): borre las celdas de más o agregue un título a esa columna en el encabezado"},
			},
		},
		{
			name: "formulas and extensions inside cells and rows are skipped",
			book: oneSheet(hdr("a", "b") + `<row r="2" spans="1:2" x14ac:dyDescent="0.25"><c r="A2"><f t="shared" ref="A2:A9" si="0">B2*2</f><v>4</v></c>` +
				`<c r="B2"><extLst><ext uri="{x}"><v>99</v></ext></extLst><v>2</v></c></row>`),
			wantHeader: []string{"a", "b"},
			want:       []krow{{Row: 2, Cells: []string{"4", "2"}, Kinds: "NN"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.book.write(t, "libro.xlsx")
			info, rows, err := readTyped(t, path, "S", Options{})
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			if diff := cmp.Diff(tc.wantHeader, info.Header); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, rows); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// TestXLSXDamaged feeds sheet XML a workbook program never writes: each is
// a *msg.Error naming the file, the sheet and (where there is one) the row.
func TestXLSXDamaged(t *testing.T) {
	tests := []struct {
		name    string
		book    book
		wantRow int
		wantIn  string // in the underlying cause
	}{
		{"DOCTYPE", book{sheets: []bookPart{{name: "S", xml: `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet><sheetData></sheetData></worksheet>`}}}, 0, "DOCTYPE"},
		{"unknown entity", oneSheet(hdr("a") + `<row r="2">` + is("A2", "&a;") + `</row>`), 2, "unknown entity"},
		{"bad character reference", oneSheet(hdr("a") + `<row r="2">` + is("A2", "&#0;") + `</row>`), 2, "character reference"},
		{"truncated XML", book{sheets: []bookPart{{name: "S", xml: `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>ab`}}}, 1, "ends in the middle"},
		{"shared string out of range", book{sst: sstXML(`<t>a</t>`), sheets: []bookPart{{name: "S", xml: sheetXML(`<row r="1">` + ss("A1", 0) + `</row><row r="2">` + ss("A2", 1) + `</row>`)}}}, 2, "shared string"},
		{"row number zero", oneSheet(hdr("a") + `<row r="0">` + num("A1", "1") + `</row>`), 2, "row number"},
		{"cell reference past XFD", oneSheet(hdr("a") + `<row r="2">` + num("XFE2", "1") + `</row>`), 2, "past column"},
		{"cell reference garbage", oneSheet(hdr("a") + `<row r="2">` + num("A-2", "1") + `</row>`), 2, "cell reference"},
		{"attribute without quotes", oneSheet(hdr("a") + `<row r=2>` + num("A2", "1") + `</row>`), 2, "malformed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.book.write(t, "roto.xlsx")
			_, _, err := readTyped(t, path, "S", Options{})
			var re *msg.Error
			if !errors.As(err, &re) || !errors.Is(err, ErrNotXLSX) {
				t.Fatalf("error %v (%T), want *msg.Error wrapping ErrNotXLSX", err, err)
			}
			if re.Pos.File != path || re.Pos.Sheet != "S" || re.Pos.Row != tc.wantRow || re.Msg.Key != "rd.sheetdamaged" {
				t.Errorf("error at %+v key %s, want %s sheet S row %d rd.sheetdamaged", re.Pos, re.Msg.Key, path, tc.wantRow)
			}
			if !strings.Contains(re.Err.Error(), tc.wantIn) {
				t.Errorf("cause %q, want it to mention %q", re.Err, tc.wantIn)
			}
			if got := re.Error(); !strings.HasPrefix(got, path+", hoja S") || !strings.Contains(got, "ábrala en Excel y guarde el libro de nuevo") {
				t.Errorf("message %q", got)
			}
		})
	}
}

func TestXLSXWorkbookStructure(t *testing.T) {
	dup := book{sheets: []bookPart{
		{name: "Ventas", xml: sheetXML(hdr("ordenId") + `<row r="2">` + num("A2", "1") + `</row>`)},
		{name: "Listas", state: "hidden", xml: sheetXML(hdr("x"))},
		{name: "ventas", xml: sheetXML(hdr("ordenId") + `<row r="2">` + num("A2", "2") + `</row>`)},
		{name: "Ventas (2)", state: "veryHidden", xml: sheetXML(hdr("ordenId") + `<row r="2">` + num("A2", "3") + `</row>`)},
		{name: "A&amp;B", xml: sheetXML(hdr("ordenId") + `<row r="2">` + num("A2", "4") + `</row>`)},
	}}
	path := dup.write(t, "dup.xlsx")
	f, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wantNames := []string{"Ventas", "Listas", "ventas (3)", "Ventas (2)", "A&B"}
	if diff := cmp.Diff(wantNames, f.Sheets()); diff != "" {
		t.Fatalf("sheets (-want +got):\n%s", diff)
	}
	wantHidden := []bool{false, true, false, true, false}
	wantFirst := []string{"1", "", "2", "3", "4"}
	for i, name := range f.Sheets() {
		if f.Hidden(name) != wantHidden[i] {
			t.Errorf("Hidden(%q) = %v", name, !wantHidden[i])
		}
		s, err := f.Sheet(name)
		if err != nil {
			t.Fatalf("Sheet(%q): %v", name, err)
		}
		rec, err := s.Next()
		got := ""
		if err == nil {
			got = rec.Cells[0]
		}
		if got != wantFirst[i] || s.Info().Name != name {
			t.Errorf("sheet %q: first cell %q (%v), name %q; want %q", name, got, err, s.Info().Name, wantFirst[i])
		}
		s.Close()
	}

	t.Run("date1904 and hidden flags", func(t *testing.T) {
		bk := oneSheet(hdr("f") + `<row r="2">` + num("A2", "100") + `</row>`)
		bk.date1904 = true
		info, rows, err := readTyped(t, bk.write(t, "d.xlsx"), "S", Options{})
		if err != nil || !info.Date1904 || !info.RawNumbers || len(rows) != 1 {
			t.Errorf("info %+v rows %v err %v", info, rows, err)
		}
	})
	t.Run("workbook part named by the package relationships", func(t *testing.T) {
		bk := oneSheet(hdr("a") + `<row r="2">` + num("A2", "1") + `</row>`)
		p := bk.parts()
		bk.extra = map[string]string{
			"_rels/.rels":                   strings.Replace(p["_rels/.rels"], "xl/workbook.xml", "/libro/Book.xml", 1),
			"libro/Book.xml":                p["xl/workbook.xml"],
			"libro/_rels/Book.xml.rels":     strings.ReplaceAll(p["xl/_rels/workbook.xml.rels"], "worksheets/", "../xl/worksheets/"),
			"xl/workbook.xml":               "<not a workbook",
			"xl/_rels/workbook.xml.rels":    "",
			"xl/worksheets/sheet1.xml.keep": "",
		}
		_, rows, err := readTyped(t, bk.write(t, "r.xlsx"), "S", Options{})
		if err != nil || len(rows) != 1 || rows[0].Cells[0] != "1" {
			t.Errorf("rows %v err %v", rows, err)
		}
	})
	t.Run("a sheet whose part is missing is damaged, not empty", func(t *testing.T) {
		// issue 23, hole 13: it was "no hay ninguna fila con datos".
		bk := oneSheet("")
		bk.extra = map[string]string{"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/missing.xml"/></Relationships>`}
		_, _, err := readTyped(t, bk.write(t, "e.xlsx"), "S", Options{})
		var re *msg.Error
		if !errors.As(err, &re) || !errors.Is(err, ErrNotXLSX) || !strings.Contains(re.In(msg.ES), "falta su parte interna xl/worksheets/missing.xml") {
			t.Errorf("error %v, want the missing part named", err)
		}
	})
	t.Run("a workbook without sheets", func(t *testing.T) {
		_, err := Open(book{}.write(t, "none.xlsx"), Options{})
		var re *msg.Error
		if !errors.As(err, &re) || re.Msg.Key != "rd.notxlsx" || !errors.Is(err, ErrNotXLSX) {
			t.Errorf("error %v, want rd.notxlsx", err)
		}
	})
	t.Run("damaged workbook part", func(t *testing.T) {
		bk := oneSheet(hdr("a"))
		bk.styles = `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="&bad;"/></numFmts></styleSheet>`
		_, err := Open(bk.write(t, "s.xlsx"), Options{})
		var re *msg.Error
		if !errors.As(err, &re) || re.Msg.Key != "rd.xlsxpart" || !errors.Is(err, ErrNotXLSX) || !strings.Contains(re.Error(), "xl/styles.xml") {
			t.Errorf("error %v, want rd.xlsxpart naming xl/styles.xml", err)
		}
	})
}
