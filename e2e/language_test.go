package e2e

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nxbatch/nxbatch/sandbox"
)

// englishWords are words that only an English sentence has; Spanish text
// never needs them.
var englishWords = map[string]bool{
	"the": true, "is": true, "are": true, "was": true, "not": true, "cannot": true, "could": true,
	"failed": true, "invalid": true, "missing": true, "must": true, "please": true, "such": true,
	"denied": true, "expected": true, "unexpected": true, "should": true, "does": true, "did": true,
	"when": true, "which": true, "would": true, "this": true, "that": true, "there": true,
	"from": true, "into": true, "with": true, "stopping": true, "sending": true, "finished": true,
	"directory": true, "found": true,
}

var (
	quoted = regexp.MustCompile(`«[^»]*»|"[^"]*"|'[^']*'`)
	words  = regexp.MustCompile(`[A-Za-záéíóúñÁÉÍÓÚÑ]+`)
)

// englishIn returns the English words of text, leaving out what is
// quoted (the API's own words, a value typed), paths, flags and keys.
func englishIn(text string) []string {
	var found []string
	for _, line := range strings.Split(text, "\n") {
		line = quoted.ReplaceAllString(line, "")
		for _, tok := range strings.Fields(line) {
			if strings.ContainsAny(tok, "/\\-_.=:0123456789") && !strings.HasSuffix(tok, ":") {
				continue // a path, a flag, a key, a number
			}
			for _, w := range words.FindAllString(tok, -1) {
				if englishWords[strings.ToLower(w)] {
					found = append(found, w)
				}
			}
		}
	}
	return found
}

// TestFailuresSpeakSpanish runs the failure paths of every command with
// the default language: nothing the user reads may be an English
// sentence.
func TestFailuresSpeakSpanish(t *testing.T) {
	sb := startSandbox(t, sandbox.Options{})
	w := newWorkspace(t, sb.URL)
	dir := w.dir
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sales := writeSales(t, dir, 2, 990001)
	empty := write("vacio.csv", "", 0o600)
	binary := write("binario.csv", "\x00\x01\x02PK\x03\x04", 0o600)
	xls := write("viejo.xls", "x", 0o600)
	openToken := write("token", "abc\n", 0o644)
	noCatalog := filepath.Join(dir, "sin-catalogos")
	os.MkdirAll(noCatalog, 0o700)
	damaged := write("diario", strings.Repeat("x", 10000), 0o600)
	password := write("clave", "secreta\n", 0o600)
	// The audit's refused inputs (issue 23, hole 13): damaged workbooks
	// whose reason was the library's English, a map past its limits, a
	// damaged profile, a damaged tenants file.
	book := func(name string, parts map[string]string) string {
		all := map[string]string{
			"xl/workbook.xml":            `<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
			"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
			"xl/worksheets/sheet1.xml":   `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>ordenId</t></is></c></row></sheetData></worksheet>`,
		}
		for k, v := range parts {
			all[k] = v
		}
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for k, v := range all {
			if v == "" {
				continue
			}
			fw, _ := zw.Create(k)
			_, _ = fw.Write([]byte(v))
		}
		_ = zw.Close()
		return write(name, buf.String(), 0o600)
	}
	sheet := func(body string) map[string]string { return map[string]string{"xl/worksheets/sheet1.xml": body} }
	doctype := book("doctype.xlsx", sheet(`<!DOCTYPE w><worksheet><sheetData/></worksheet>`))
	longTag := book("etiqueta.xlsx", sheet(`<worksheet><sheetData><row r="1" x="`+strings.Repeat("a", 1<<20+10)+`"/></sheetData></worksheet>`))
	rowZero := book("fila0.xlsx", sheet(`<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>ordenId</t></is></c></row><row r="0"/></sheetData></worksheet>`))
	noPart := book("sinparte.xlsx", map[string]string{"xl/worksheets/sheet1.xml": ""})
	noText := book("sintexto.xlsx", sheet(`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>3</v></c></row></sheetData></worksheet>`))
	bigMap := write("mapa.yaml", "Nro Orden: ordenId\n", 0o600)
	if err := os.Truncate(bigMap, 35<<20); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(filepath.Dir(w.journal()), "profiles"), 0o700)
	write(filepath.Join("state", "profiles", "roto.json"), "{", 0o600)
	tenantsDir := filepath.Join(dir, "j4")
	os.MkdirAll(tenantsDir, 0o700)
	write(filepath.Join("j4", "tenants.json"), `{"version":2,"tenants":[]}`, 0o600)

	tests := []struct {
		name string
		env  []string
		args []string
	}{
		{"a file that does not exist", nil, []string{"validate", filepath.Join(dir, "no-existe.csv")}},
		{"an empty file", nil, []string{"validate", "--offline", empty}},
		{"a binary file named .csv", nil, []string{"validate", "--offline", binary}},
		{"an .xls workbook", nil, []string{"validate", "--offline", xls}},
		{"a mapping file that does not exist", nil, []string{"validate", "--offline", "--map", filepath.Join(dir, "no.yaml"), sales}},
		{"a catalog folder without catalogs", nil, []string{"validate", "--catalog", noCatalog, sales}},
		{"an unknown kind", nil, []string{"validate", "--kind", "otra", sales}},
		{"an unknown flag", nil, []string{"validate", "--trabajadores", "3", sales}},
		{"an unknown command", nil, []string{"importar"}},
		{"run without the API's address", []string{"NX_BASE_URL="}, []string{"run", "--journal", w.journal(), sales}},
		{"run without a token", []string{"NX_TOKEN="}, []string{"run", "--base-url", sb.URL, "--journal", w.journal(), sales}},
		{"a token file others can read", nil, []string{"run", "--base-url", sb.URL, "--token-file", openToken, "--journal", w.journal(), sales}},
		{"a refused token", []string{"NX_TOKEN=otro"}, []string{"run", "--base-url", sb.URL, "--journal", filepath.Join(dir, "j2", "journal"), "--report-dir", w.reportDir(), sales}},
		{"an API nobody answers", nil, []string{"run", "--base-url", closedPort(t), "--journal", filepath.Join(dir, "j3", "journal"), "--report-dir", w.reportDir(), sales}},
		{"a damaged journal", nil, []string{"run", "--base-url", sb.URL, "--journal", damaged, "--report-dir", w.reportDir(), sales}},
		{"journal resolve of a malformed key", nil, []string{"journal", "resolve", "x", "--as", "ok", "--note", "n", "--journal", w.journal()}},
		{"journal resolve of a key that is not there", nil, []string{"journal", "resolve", "t/venta/1", "--as", "ok", "--note", "n", "--journal", w.journal()}},
		{"journal resolve without its flags", nil, []string{"journal", "resolve", "t/venta/1"}},
		{"a template with another extension", nil, []string{"template", "venta", "-o", filepath.Join(dir, "t.ods"), "--sandbox"}},
		{"the sandbox on every interface", nil, []string{"sandbox", "--addr", "0.0.0.0:0"}},
		{"stock export with a bad date", nil, []string{"stock", "export", filepath.Join(dir, "s.csv"), "--since", "ayer"}},
		{"catalog pull without the API's address", []string{"NX_BASE_URL="}, []string{"catalog", "pull", "--journal", w.journal()}},
		{"a PostgreSQL journal nobody answers", nil, []string{"run", "--base-url", sb.URL, "--journal", "postgres://nxbatch@127.0.0.1:1/x?connect_timeout=2", "--report-dir", w.reportDir(), sales}},
		{"journal copy from a file that is not there", nil, []string{"journal", "copy", "--from", filepath.Join(dir, "no-existe"), "--to", filepath.Join(dir, "copia")}},
		{"journal copy onto itself", nil, []string{"journal", "copy", "--from", w.journal(), "--to", w.journal()}},
		{"serve on every interface without a password", nil, []string{"serve", "--addr", "0.0.0.0:0"}},
		{"serve with a password file others can read", nil, []string{"serve", "--addr", "0.0.0.0:0", "--password-file", openToken}},
		{"a template of an unknown kind", nil, []string{"template", "otra", "--sandbox"}},
		{"a negative number of template rows", nil, []string{"template", "venta", "--rows", "-3", "--sandbox"}},
		{"a duration that is not one", nil, []string{"run", "--timeout", "3x", sales}},
		{"a rate that is not a number", nil, []string{"serve", "--rate", "x"}},
		{"a webhook id that is not a number", nil, []string{"webhooks", "delete", "abc"}},
		{"a flag without its value", nil, []string{"sandbox", "--data"}},
		{"a token file that does not exist", nil, []string{"run", "--base-url", sb.URL, "--token-file", filepath.Join(dir, "no-token"), "--journal", w.journal(), sales}},
		{"an API address with a blank", nil, []string{"run", "--base-url", "http://a b", "--journal", w.journal(), sales}},
		{"the sandbox on a port in use", nil, []string{"sandbox", "--addr", strings.TrimPrefix(sb.URL, "http://")}},
		{"the sandbox with data that is not JSON", nil, []string{"sandbox", "--addr", "127.0.0.1:0", "--data", sales}},
		{"a journal whose folder cannot be made", nil, []string{"run", "--base-url", sb.URL, "--journal", filepath.Join(sales, "diario"), sales}},
		{"journal accept of a journal that is not there", nil, []string{"journal", "accept", "--journal", filepath.Join(dir, "no-existe")}},
		{"listen with a file as its store", nil, []string{"listen", "--addr", "127.0.0.1:0", "--store", sales}},
		{"listen on an address of another machine", nil, []string{"listen", "--addr", "192.0.2.1:1", "--store", filepath.Join(dir, "eventos")}},
		{"serve on an address of another machine", nil, []string{"serve", "--sandbox", "--addr", "192.0.2.1:1", "--password-file", password}},
		{"a workbook with a DOCTYPE", nil, []string{"validate", "--offline", doctype}},
		{"a workbook with a tag too long", nil, []string{"validate", "--offline", longTag}},
		{"a workbook with a row numbered 0", nil, []string{"validate", "--offline", rowZero}},
		{"a workbook whose sheet part is missing", nil, []string{"validate", "--offline", noPart}},
		{"a workbook whose shared texts are missing", nil, []string{"validate", "--offline", noText}},
		{"a 35 MB mapping file", nil, []string{"validate", "--offline", "--map", bigMap, sales}},
		{"a damaged profile", nil, []string{"validate", "--offline", "--journal", w.journal(), "--map", "roto", sales}},
		{"a damaged tenants file", nil, []string{"run", "--base-url", sb.URL, "--journal", filepath.Join(tenantsDir, "journal"), "--report-dir", w.reportDir(), sales}},
		{"serve with a state folder that cannot be made", nil, []string{"serve", "--sandbox", "--addr", "127.0.0.1:0", "--journal", filepath.Join(sales, "diario")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd, out, errb := w.command(t.Context(), tc.args...)
			cmd.Env = append(cmd.Env, tc.env...)
			res := ended(t, cmd.Run(), out, errb)
			if res.code == 0 {
				t.Fatalf("exit 0, want a failure\n%s", res)
			}
			text := res.stdout + res.stderr
			if strings.TrimSpace(text) == "" {
				t.Fatalf("exit %d without a word", res.code)
			}
			if en := englishIn(text); len(en) > 0 {
				t.Errorf("English words %v in:\n%s", en, text)
			}
		})
	}
}

func TestEnglishDetector(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"open /tmp/x.csv: no such file or directory", true},
		{"nxbatch: stopping after the requests in flight", true},
		{"/tmp/x.csv: el archivo no existe: revise el nombre y la carpeta", false},
		{"la API rechazó el token: «Token invalido o vencido»", false},
		{"--kind acepta uno de \"\",\"venta\", pero se indicó \"otra\"", false},
	}
	for _, tc := range tests {
		if got := len(englishIn(tc.text)) > 0; got != tc.want {
			t.Errorf("englishIn(%q) = %v, want %v", tc.text, englishIn(tc.text), tc.want)
		}
	}
}
