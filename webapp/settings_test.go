package webapp

import (
	"html"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReportFolderChosenInThePage: the report folder of the scheduled
// runs is chosen in the page (history), checked (a full path, a folder,
// creatable, writable), kept owner-only in the state folder, shown, read
// by the history, and used by the page's sends (a copy of their reports,
// said in the confirmation); no terminal is named.
func TestReportFolderChosenInThePage(t *testing.T) {
	b := newBed(t, bedOptions{})
	tmp := t.TempDir()
	aFile := filepath.Join(tmp, "archivo.txt")
	if err := os.WriteFile(aFile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(filepath.Dir(b.journal), settingsFile)
	if a := b.get("/history"); !strings.Contains(a.body, `id="report-dir-form"`) || !strings.Contains(a.body, "elíjala abajo") {
		t.Fatalf("the history offers no report folder:\n%s", a.body)
	}
	refused := []struct{ dir, want string }{
		{"informes", "no es una ruta completa"},
		{aFile, "es un archivo, no una carpeta"},
		{filepath.Join(aFile, "sub"), "No se pudo crear la carpeta"},
	}
	for _, tc := range refused {
		a := b.post("/settings/report-dir", url.Values{"dir": {tc.dir}})
		if a.status != 303 {
			t.Fatalf("%s: %d", tc.dir, a.status)
		}
		h := html.UnescapeString(b.get(a.location).body)
		if !strings.Contains(h, tc.want) || !strings.Contains(h, `id="settings-problem"`) {
			t.Errorf("%s: the history does not say %q", tc.dir, tc.want)
		}
		if _, err := os.Stat(settings); err == nil {
			t.Errorf("%s was kept", tc.dir)
		}
	}
	dir := filepath.Join(tmp, "cron", "informes")
	a := b.post("/settings/report-dir", url.Values{"dir": {dir + "/"}})
	h := html.UnescapeString(b.get(a.location).body)
	if !strings.Contains(h, "Carpeta de informes guardada: "+dir) || !strings.Contains(h, "Carpeta en uso: "+dir) {
		t.Errorf("the saved folder is not shown:\n%s", h)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the folder was not created: %v", err)
	}
	if fi, err := os.Stat(settings); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the settings file: %v %v, want owner-only", err, fi)
	}
	// A scheduled run's reports in the folder: the history lists them.
	sum := `{"file":"/srv/cron/nocturno.csv","command":"run","finished":"` + time.Now().Format(time.RFC3339) + `","rows":{"ok":3}}`
	if err := os.WriteFile(filepath.Join(dir, "nocturno.summary.json"), []byte(sum), 0o600); err != nil {
		t.Fatal(err)
	}
	if h := b.get("/history").body; !strings.Contains(h, "nocturno.csv") || !strings.Contains(h, "/history/0/nocturno.summary.json") {
		t.Errorf("the history does not list the scheduled run:\n%s", h)
	}
	if a := b.get("/history/0/nocturno.summary.json"); a.status != 200 || !strings.Contains(a.body, "nocturno.csv") {
		t.Errorf("the scheduled run's summary: %d", a.status)
	}
	// A send from the page: said before, its reports copied.
	page := b.uploadSample("ventas.csv")
	if c := html.UnescapeString(b.get(page + "/confirm").body); !strings.Contains(c, "se guardan también en la carpeta de informes "+dir) {
		t.Errorf("the confirmation does not say where the reports go:\n%s", c)
	}
	b.send(page)
	b.waitSent(page)
	for _, n := range []string{"ventas.result.csv", "ventas.summary.json"} {
		if fi, err := os.Stat(filepath.Join(dir, n)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s not copied owner-only to the report folder: %v", n, err)
		}
	}
	if h := b.get("/history").body; strings.Count(h, ">ventas.csv<") != 1 {
		t.Errorf("the page's send is listed %d times in the history, want once (with the imports)", strings.Count(h, ">ventas.csv<"))
	}
	// Cleared: none.
	a = b.post("/settings/report-dir", url.Values{"dir": {""}})
	if h := b.get(a.location).body; !strings.Contains(h, "Ya no se usa ninguna carpeta de informes.") || strings.Contains(h, "nocturno.csv") {
		t.Errorf("after clearing the folder:\n%s", h)
	}
}
