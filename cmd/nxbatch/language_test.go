package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/internal/atomicfile"
)

// englishWords are words of English that no Spanish sentence of nxbatch
// has: a refusal in Spanish with one of them carries a library's or
// nxbatch's own English.
var englishWords = regexp.MustCompile(`(?i)\b(the|is|not|has|an|of|row|rows|cannot|invalid|unexpected|malformed|decoding|number|which|never|too|long|missing|file|sheet|workbook|part|tag)\b`)

// workbook returns an XLSX file of parts, each given by name; the common
// parts of a one-sheet workbook are added unless given (an empty value
// leaves a part out).
func workbook(t *testing.T, parts map[string]string) []byte {
	t.Helper()
	all := map[string]string{
		"_rels/.rels":                `<Relationships><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
		"xl/workbook.xml":            `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>ordenId</t></is></c></row></sheetData></worksheet>`,
	}
	for k, v := range parts {
		all[k] = v
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range all {
		if body == "" {
			continue
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRefusalsInTheRunsLanguage runs each refused input through validate
// and run (--sandbox), in Spanish: every sentence it prints must be
// Spanish, never a library's English (issue 23, hole 13).
func TestRefusalsInTheRunsLanguage(t *testing.T) {
	sheet := func(rows string) map[string]string {
		return map[string]string{"xl/worksheets/sheet1.xml": `<worksheet><sheetData>` + rows + `</sheetData></worksheet>`}
	}
	good := workbook(t, nil)
	inputs := map[string][]byte{
		"nozip.xlsx":     []byte("PK\x03\x04 this is not a zip"),
		"doctype.xlsx":   workbook(t, sheet(`</sheetData></worksheet>`+"\n")),
		"truncated.xlsx": good[:len(good)/2],
		"rownumber.xlsx": workbook(t, sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>ordenId</t></is></c></row><row r="0"><c r="A2"><v>1</v></c></row>`)),
		"cellref.xlsx":   workbook(t, sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>ordenId</t></is></c><c r="!!"><v>1</v></c></row>`)),
		"sst.xlsx":       workbook(t, sheet(`<row r="1"><c r="A1" t="s"><v>7</v></c></row>`)),
		"nopart.xlsx":    workbook(t, map[string]string{"xl/worksheets/sheet1.xml": ""}),
		"nobook.xlsx":    workbook(t, map[string]string{"xl/workbook.xml": ""}),
		"doctype2.xlsx":  workbook(t, map[string]string{"xl/workbook.xml": `<!DOCTYPE x [<!ENTITY a "b">]><workbook/>`}),
		"longtag.xlsx":   workbook(t, sheet(`<row r="1" x="`+strings.Repeat("a", 1<<20+10)+`"></row>`)),
		"badxml.xlsx":    workbook(t, sheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>&bogus;</t></is></c></row>`)),
		"empty.csv":      nil,
		"binary.csv":     []byte("a\x00b\x00c"),
		"nokind.csv":     []byte("columna;otra\n1;2\n"),
		"quote.csv":      []byte("ordenId;detalle\n1;\"sin cerrar\n"),
	}
	// doctype.xlsx is a sheet with a DOCTYPE inside.
	inputs["doctype.xlsx"] = workbook(t, map[string]string{"xl/worksheets/sheet1.xml": `<!DOCTYPE w><worksheet><sheetData/></worksheet>`})
	dir := t.TempDir()
	for name, b := range inputs {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name := range inputs {
		for _, cmd := range [][]string{
			{"validate", "--offline", "--journal", filepath.Join(dir, "state", "journal")},
			{"run", "--sandbox", "--journal", filepath.Join(dir, "state", "journal")},
		} {
			args := append(append([]string(nil), cmd...), name)
			code, stdout, stderr := runCLI(t, dir, args...)
			if code == exitOK {
				t.Errorf("%v: exit 0, want a refusal", args)
				continue
			}
			text := strings.ReplaceAll(stdout+stderr, dir, "")
			for _, line := range strings.Split(text, "\n") {
				// A file's own contents quoted back are the user's, not ours.
				line = regexp.MustCompile(`«[^»]*»`).ReplaceAllString(line, "")
				// Part and file names (xl/workbook.xml) are names.
				line = regexp.MustCompile(`\S*\w[./]\w\S*`).ReplaceAllString(line, "")
				if w := englishWords.FindString(line); w != "" {
					t.Errorf("%v: English %q in %q", args, w, line)
				}
			}
			if !strings.Contains(stderr, name) {
				t.Errorf("%v: the refusal does not name the file: %q", args, stderr)
			}
		}
	}
}

// TestLeftoverRemovedWhateverTheInput: what a killed run left in the
// temporary folder beside its inputs is removed by the next command on
// that folder, even one whose input is refused and writes no report
// (issue 23, hole 13).
func TestLeftoverRemovedWhateverTheInput(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, atomicfile.TempFolder)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	// A process id past any the kernel gives: a dead writer's.
	leftover := filepath.Join(tmp, "2147483646.a1b2c3.ventas.result.csv")
	if err := os.WriteFile(leftover, []byte("half a report"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "otro.csv"), []byte("columna;otra\n1;2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, dir, "validate", "--offline", "--journal", filepath.Join(dir, "state", "journal"), "otro.csv")
	if code != exitUsage {
		t.Fatalf("exit %d (%s), want the input refused", code, stderr)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("the leftover %s is still there (%v)", leftover, err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the emptied folder %s is still there (%v)", tmp, err)
	}
}
